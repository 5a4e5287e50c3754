package tracesvg

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// Node is an element of a parsed SVG document.
type Node struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []Node     `xml:",any"`
	Text     string     `xml:",chardata"`
}

// Parse reads an SVG document with encoding/xml.
func Parse(t *testing.T, b []byte) *Node {
	t.Helper()
	var n Node
	if err := xml.Unmarshal(b, &n); err != nil {
		t.Fatalf("the SVG does not parse: %v\n%s", err, b)
	}
	if n.XMLName.Local != "svg" {
		t.Fatalf("root element %q", n.XMLName.Local)
	}
	return &n
}

// Attr returns the value of an attribute ("" when absent).
func (n *Node) Attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// Int returns an attribute as an integer.
func (n *Node) Int(t *testing.T, name string) int {
	t.Helper()
	v, err := strconv.Atoi(n.Attr(name))
	if err != nil {
		t.Fatalf("<%s class=%q> attribute %s=%q: %v", n.XMLName.Local, n.Attr("class"), name, n.Attr(name), err)
	}
	return v
}

// All returns the elements under n (n included) of a class, in document
// order.
func (n *Node) All(class string) []*Node {
	var out []*Node
	var walk func(*Node)
	walk = func(m *Node) {
		if m.Attr("class") == class {
			out = append(out, m)
		}
		for i := range m.Children {
			walk(&m.Children[i])
		}
	}
	walk(n)
	return out
}

// Content returns the text under n, titles left out: an element's own
// text, then its children's (mixed content loses its order).
func (n *Node) Content() string {
	var b strings.Builder
	var walk func(*Node)
	walk = func(m *Node) {
		if m.XMLName.Local == "title" {
			return
		}
		b.WriteString(m.Text)
		for i := range m.Children {
			walk(&m.Children[i])
		}
	}
	walk(n)
	return b.String()
}

func steps(lane, thread, from, to int) []Step {
	var out []Step
	for n := from; n <= to; n++ {
		out = append(out, Step{N: n, Lane: lane, Thread: thread, Symbol: fmt.Sprintf("<f+0x%x>", n), Text: "nop"})
	}
	return out
}

// sample is two threads and an interrupt handler: thread 0 runs, thread 1
// runs, thread 0 takes an interrupt (while thread 1 was the last to run),
// the handler writes a byte and returns, thread 0 reads it and fails.
func sample() *Trace {
	t := &Trace{
		Title:    "assert in <test> & more",
		Subtitle: `"quoted"`,
		Rule:     "Highlighted: what matters.",
		Lanes: []Lane{
			{Kind: ThreadLane, Title: "thread 0", Note: "starts at _start", End: "assert violated", Alert: true},
			{Kind: ThreadLane, Title: "thread 1", End: "exited"},
			{Kind: HandlerLane, Title: "toc1 handler", Note: "vector 0xFFE8"},
		},
		Watches:   []Watch{{Addr: 0x41, Name: "count", Value: 2, Why: "read by thread 0"}, {Addr: 0x42, Name: "count+0x1", Value: 3, Why: "read by thread 0"}},
		Violation: Violation{Kind: "assert", Message: "thread 0 at 0xD044 <main+0x2>: assertion failed", Lane: 0},
	}
	t.Steps = append(t.Steps, steps(0, 0, 1, 3)...)
	t.Steps = append(t.Steps, steps(1, 1, 4, 5)...)
	t.Steps = append(t.Steps, Step{N: 6, Lane: 2, Thread: 0, Symbol: "<f+0x6>", Text: "interrupt toc1 taken", IRQ: "toc1", From: 0})
	t.Steps = append(t.Steps, steps(2, 0, 7, 8)...)
	t.Steps[len(t.Steps)-2].Accesses = []Access{{Addr: 0x42, Name: "count+0x1", Write: true, Value: 3, Mark: true}, {Addr: 0x41, Name: "count", Write: true, Value: 2, Mark: true}}
	t.Steps[len(t.Steps)-1].Text = "rti"
	t.Steps[len(t.Steps)-1].Return = true
	t.Steps = append(t.Steps, steps(0, 0, 9, 10)...)
	t.Steps[len(t.Steps)-2].Accesses = []Access{{Addr: 0x41, Name: "count", Value: 2, Mark: true}, {Addr: 0x80, Value: 7}}
	return t
}

func TestRenderStructure(t *testing.T) {
	tr := sample()
	doc := Parse(t, Render(tr))

	lanes := doc.All("lane")
	if len(lanes) != 3 {
		t.Fatalf("%d lanes, want 3", len(lanes))
	}
	for i, l := range lanes {
		titles := l.All("lane-title")
		if l.Int(t, "data-lane") != i || len(titles) != 1 || titles[0].Content() != tr.Lanes[i].Title {
			t.Errorf("lane %d: data-lane %s, titles %v", i, l.Attr("data-lane"), titles)
		}
	}
	if lanes[2].Attr("data-kind") != "handler" || lanes[0].Attr("data-kind") != "thread" {
		t.Errorf("lane kinds %q, %q", lanes[0].Attr("data-kind"), lanes[2].Attr("data-kind"))
	}

	// One box per run of steps in one lane, in order; the interrupt step
	// is an arrow, not a line.
	want := [][3]int{{0, 1, 3}, {1, 4, 5}, {2, 7, 8}, {0, 9, 10}}
	boxes := doc.All("box")
	if len(boxes) != len(want) {
		t.Fatalf("%d boxes, want %d", len(boxes), len(want))
	}
	var lines []int
	for i, b := range boxes {
		got := [3]int{b.Int(t, "data-lane"), b.Int(t, "data-first"), b.Int(t, "data-last")}
		if got != want[i] {
			t.Errorf("box %d: lane, first, last = %v, want %v", i, got, want[i])
		}
		for _, s := range b.All("step") {
			lines = append(lines, s.Int(t, "data-n"))
		}
	}
	if fmt.Sprint(lines) != "[1 2 3 4 5 7 8 9 10]" {
		t.Errorf("step lines %v", lines)
	}

	// Arrows: switch 0→1; then, since thread 1 ran last, a switch back to
	// thread 0, which takes the interrupt (step 6) into the handler; rti
	// (step 8) back to thread 0.
	var arrows []string
	for _, a := range doc.All("arrow") {
		arrows = append(arrows, fmt.Sprintf("%s %s→%s #%s", a.Attr("data-kind"), a.Attr("data-from"), a.Attr("data-to"), a.Attr("data-step")))
	}
	if got := strings.Join(arrows, ", "); got != "switch 0→1 #0, switch 1→0 #0, interrupt 0→2 #6, return 2→0 #8" {
		t.Errorf("arrows: %s", got)
	}
	for _, a := range doc.All("arrow") {
		if a.Attr("data-kind") == "interrupt" && !strings.Contains(a.Content(), "6 · toc1 interrupt (thread 0)") {
			t.Errorf("interrupt arrow label %q", a.Content())
		}
	}

	// Highlighted accesses: the handler's write of both bytes, in one note
	// in address order; thread 0's read; the unmarked access is not drawn.
	var acc []string
	for _, a := range doc.All("access") {
		acc = append(acc, a.Attr("data-addr")+"/"+a.Attr("data-write"))
	}
	if got := strings.Join(acc, " "); got != "0x0042/1 0x0041/1 0x0041/0" {
		t.Errorf("highlighted accesses %s", got)
	}
	var notes []string
	for _, n := range doc.All("note") {
		notes = append(notes, n.Content())
	}
	if got := strings.Join(notes, " | "); got != "wrote count (0x0041) = 02 03 | read count (0x0041) = 02" {
		t.Errorf("notes: %s", got)
	}
	watches := doc.All("watch")
	if len(watches) != 1 || watches[0].Attr("data-bytes") != "2" || !strings.Contains(watches[0].Content(), "count (0x0041)") || !strings.Contains(watches[0].Content(), "= 02 03") {
		t.Errorf("watches: %d, %v", len(watches), watches)
	}

	// The violation: the kind, the message, the violating line outlined.
	v := doc.All("violation")
	if len(v) != 1 || v[0].Attr("data-kind") != "assert" || !strings.Contains(v[0].Content(), "assert") ||
		!strings.Contains(v[0].Content(), "<main+0x2>: assertion failed") {
		t.Fatalf("violation marker: %v", v)
	}
	if n := len(boxes[3].All("violating")); n != 1 {
		t.Errorf("%d violating lines in the last box, want 1", n)
	}
	ends := doc.All("end")
	if len(ends) != 2 || ends[0].Attr("data-alert") != "true" || ends[1].Attr("data-alert") != "false" {
		t.Errorf("lane ends: %v", ends)
	}
	// Escaping: the title's markup characters come back as text.
	if ts := doc.All("title"); len(ts) != 1 || ts[0].Content() != "assert in <test> & more" {
		t.Errorf("title: %v", ts)
	}
}

// A long box lists its first and last steps and every highlighted one;
// each run left out is one "… n more" line.
func TestCollapse(t *testing.T) {
	tr := &Trace{Title: "x", Lanes: []Lane{{Title: "thread 0"}}, Violation: Violation{Kind: "error", Lane: 0}}
	tr.Steps = steps(0, 0, 1, 20)
	tr.Steps[9].Accesses = []Access{{Addr: 1, Write: true, Mark: true}}
	tr.Steps[11].Accesses = []Access{{Addr: 2, Write: false}} // not highlighted: may be left out
	doc := Parse(t, Render(tr))
	var got []string
	for _, b := range doc.All("box") {
		var walk func(*Node)
		walk = func(n *Node) {
			switch n.Attr("class") {
			case "step":
				got = append(got, n.Attr("data-n"))
				return
			case "more":
				got = append(got, "+"+n.Attr("data-count"))
				return
			}
			for i := range n.Children {
				walk(&n.Children[i])
			}
		}
		walk(b)
	}
	if s := strings.Join(got, " "); s != "1 2 3 +6 10 +8 19 20" {
		t.Errorf("lines: %s", s)
	}
	// A run of one is shown, not replaced by "… 1 more".
	tr.Steps = steps(0, 0, 1, 7)
	tr.Steps[4].Accesses = []Access{{Addr: 1, Mark: true}}
	doc = Parse(t, Render(tr))
	if n, m := len(doc.All("step")), len(doc.All("more")); n != 7 || m != 0 {
		t.Errorf("7 steps, one marked: %d lines and %d more-lines", n, m)
	}
}

// More than MaxBoxes boxes: the middle ones are left out, except those
// with a highlighted access, and each run left out is one band.
func TestOmitted(t *testing.T) {
	tr := &Trace{Title: "x", Lanes: []Lane{{Title: "thread 0"}, {Title: "thread 1"}}, Violation: Violation{Kind: "deadlock", Lane: -1}}
	const n = 100
	for i := 1; i <= n; i++ {
		tr.Steps = append(tr.Steps, steps(i%2, i%2, i, i)...)
	}
	tr.Steps[49].Accesses = []Access{{Addr: 7, Write: true, Mark: true}} // step 50
	doc := Parse(t, Render(tr))
	boxes := doc.All("box")
	if len(boxes) != KeepFirst+KeepLast+1 {
		t.Errorf("%d boxes drawn, want %d", len(boxes), KeepFirst+KeepLast+1)
	}
	bands := doc.All("omitted")
	if len(bands) != 2 {
		t.Fatalf("%d omitted bands, want 2", len(bands))
	}
	if b := bands[0]; b.Attr("data-first") != "5" || b.Attr("data-last") != "49" || b.Attr("data-boxes") != "45" {
		t.Errorf("first band: %v", b.Attrs)
	}
	if b := bands[1]; b.Attr("data-first") != "51" || b.Attr("data-last") != "70" || b.Attr("data-boxes") != "20" {
		t.Errorf("second band: %v", b.Attrs)
	}
	kept := false
	for _, b := range boxes {
		kept = kept || b.Attr("data-first") == "50"
	}
	if !kept {
		t.Error("the box with the highlighted access was left out")
	}
}

// An interrupt as the last step (a violation while stacking) is a line
// of its own in the handler's lane, and still an arrow.
func TestInterruptLast(t *testing.T) {
	tr := &Trace{Title: "x", Lanes: []Lane{{Title: "thread 0"}, {Kind: HandlerLane, Title: "irq handler"}},
		Violation: Violation{Kind: "stack", Lane: 1}}
	tr.Steps = steps(0, 0, 1, 2)
	tr.Steps = append(tr.Steps, Step{N: 3, Lane: 1, Text: "interrupt irq taken", IRQ: "irq", From: 0})
	doc := Parse(t, Render(tr))
	boxes := doc.All("box")
	if len(boxes) != 2 || boxes[1].Attr("data-lane") != "1" || boxes[1].Attr("data-first") != "3" {
		t.Fatalf("boxes: %v", boxes)
	}
	arrows := doc.All("arrow")
	if len(arrows) != 1 || arrows[0].Attr("data-kind") != "interrupt" || arrows[0].Attr("data-step") != "3" {
		t.Errorf("arrows: %v", arrows)
	}
	if len(boxes[1].All("violating")) != 1 {
		t.Error("the violating interrupt is not outlined")
	}
}
