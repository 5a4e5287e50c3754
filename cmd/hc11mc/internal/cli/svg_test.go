package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/cex"
)

// svgNode is an element of a parsed SVG document.
type svgNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []svgNode  `xml:",any"`
	Text     string     `xml:",chardata"`
}

func parseSVG(t *testing.T, path string) *svgNode {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var n svgNode
	if err := xml.Unmarshal(b, &n); err != nil || n.XMLName.Local != "svg" {
		t.Fatalf("%s is not an SVG document: %v", path, err)
	}
	return &n
}

func (n *svgNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n *svgNode) num(t *testing.T, name string) int {
	t.Helper()
	v, err := strconv.Atoi(n.attr(name))
	if err != nil {
		t.Fatalf("attribute %s=%q of class %q: %v", name, n.attr(name), n.attr("class"), err)
	}
	return v
}

// all returns the elements of a class under n, in document order.
func (n *svgNode) all(class string) []*svgNode {
	var out []*svgNode
	if n.attr("class") == class {
		out = append(out, n)
	}
	for i := range n.Children {
		out = append(out, n.Children[i].all(class)...)
	}
	return out
}

// text returns the text under n, titles (tooltips) left out.
func (n *svgNode) text() string {
	if n.XMLName.Local == "title" {
		return ""
	}
	s := n.Text
	for i := range n.Children {
		s += n.Children[i].text()
	}
	return s
}

// svgAccess is a highlighted access and the box it is in.
type svgAccess struct {
	addr  string
	write bool
	value int
	lane  int
	step  int
}

// svgSummary reads back the structure of a counterexample picture.
type svgSummary struct {
	lanes    []string // titles
	kinds    []string // thread or handler
	boxes    [][3]int // lane, first step, last step
	arrows   []string // "kind from→to #step"
	accesses []svgAccess
	ends     map[int]string // lane → its end note, "!" first when alerting
	violKind string
	violLane string
	violText string
	violLine int // boxes with an outlined violating line
}

func readSVGSummary(t *testing.T, doc *svgNode) *svgSummary {
	t.Helper()
	s := &svgSummary{ends: map[int]string{}}
	for _, l := range doc.all("lane") {
		if l.num(t, "data-lane") != len(s.lanes) {
			t.Fatalf("lane %s out of order", l.attr("data-lane"))
		}
		titles := l.all("lane-title")
		if len(titles) != 1 {
			t.Fatalf("lane %d has %d titles", len(s.lanes), len(titles))
		}
		s.lanes = append(s.lanes, titles[0].text())
		s.kinds = append(s.kinds, l.attr("data-kind"))
	}
	for _, b := range doc.all("box") {
		lane := b.num(t, "data-lane")
		s.boxes = append(s.boxes, [3]int{lane, b.num(t, "data-first"), b.num(t, "data-last")})
		for _, st := range b.all("step") {
			for _, a := range st.all("access") {
				v, _ := strconv.ParseUint(a.attr("data-value"), 16, 8)
				s.accesses = append(s.accesses, svgAccess{addr: a.attr("data-addr"), write: a.attr("data-write") == "1", value: int(v), lane: lane, step: st.num(t, "data-n")})
			}
		}
		s.violLine += len(b.all("violating"))
	}
	for _, a := range doc.all("arrow") {
		s.arrows = append(s.arrows, fmt.Sprintf("%s %s→%s #%s", a.attr("data-kind"), a.attr("data-from"), a.attr("data-to"), a.attr("data-step")))
	}
	for _, e := range doc.all("end") {
		var lines []string
		for i := range e.Children {
			if l := e.Children[i].text(); l != "" {
				lines = append(lines, l)
			}
		}
		note := strings.Join(lines, " ") // the note is wrapped, a line per element
		if e.attr("data-alert") == "true" {
			note = "!" + note
		}
		s.ends[e.num(t, "data-lane")] = note
	}
	v := doc.all("violation")
	if len(v) != 1 {
		t.Fatalf("%d violation markers, want 1", len(v))
	}
	s.violKind, s.violLane = v[0].attr("data-kind"), v[0].attr("data-lane")
	for _, k := range v[0].all("violation-kind") {
		s.violText += k.text() + "\n"
	}
	for _, m := range v[0].all("violation-message") {
		s.violText += m.text() + " "
	}
	return s
}

// checkBoxes checks that the boxes list every transition once, in order,
// and that an arrow joins consecutive boxes in different lanes.
func checkBoxes(t *testing.T, s *svgSummary, transitions int) {
	t.Helper()
	next := 1
	for i, b := range s.boxes {
		if b[1] < next || b[2] < b[1] {
			t.Fatalf("box %d (lane %d, steps %d-%d) out of order after step %d", i, b[0], b[1], b[2], next-1)
		}
		next = b[2] + 1
	}
	if s.boxes[0][1] != 1 || next != transitions+1 {
		t.Errorf("the boxes cover steps %d-%d, want 1-%d", s.boxes[0][1], next-1, transitions)
	}
}

func TestTraceSVGPhilosophers(t *testing.T) {
	dir := t.TempDir()
	svg, trace := filepath.Join(dir, "cex.svg"), filepath.Join(dir, "cex.json")
	var out, errb bytes.Buffer
	if code := Main([]string{"check", "../../../../testdata/examples/philosophers.elf", "-q", "--search", "bfs", "--trace", trace, "--trace-svg", svg}, nil, &out, &errb); code != ExitViolation {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	tf, err := cex.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	s := readSVGSummary(t, parseSVG(t, svg))

	if strings.Join(s.lanes, ",") != "thread 0,thread 1,thread 2" || strings.Join(s.kinds, ",") != "thread,thread,thread" {
		t.Fatalf("lanes %v (%v), want threads 0-2", s.lanes, s.kinds)
	}
	checkBoxes(t, s, len(tf.Steps))
	// No interrupts: the boxes cover the steps without gaps, each is a
	// maximal run of one thread (its lane is the thread), and one switch
	// arrow joins each box to the next.
	for i, b := range s.boxes {
		if i > 0 && b[1] != s.boxes[i-1][2]+1 {
			t.Errorf("box %d starts at step %d after a box ending at %d", i, b[1], s.boxes[i-1][2])
		}
		for n := b[1]; n <= b[2]; n++ {
			if tf.Steps[n-1].Thread != b[0] {
				t.Errorf("step %d (thread %d) is in lane %d", n, tf.Steps[n-1].Thread, b[0])
			}
		}
		if i > 0 {
			want := fmt.Sprintf("switch %d→%d #0", s.boxes[i-1][0], b[0])
			if i-1 >= len(s.arrows) || s.arrows[i-1] != want {
				t.Errorf("arrow %d: %v, want %s", i-1, s.arrows, want)
				break
			}
		}
	}
	if len(s.arrows) != len(s.boxes)-1 {
		t.Errorf("%d arrows for %d boxes", len(s.arrows), len(s.boxes))
	}

	// The forks: each thread waits for a lock byte; the highlighted write
	// to it is the __mc_lock of the thread that holds it, in that thread's
	// lane, and writes holder+1.
	waits := regexp.MustCompile(`thread (\d) at (0x[0-9A-F]{4}) waits for the lock at (0x[0-9A-F]{4})`).FindAllStringSubmatch(tf.Violation.Message, -1)
	if len(waits) != 3 {
		t.Fatalf("deadlock message %q: %d waits", tf.Violation.Message, len(waits))
	}
	for _, w := range waits {
		// The waiting thread, the __mc_lock stub it stands at, the lock byte.
		waiter, _ := strconv.Atoi(w[1])
		stub, lock := w[2], w[3]
		var found []svgAccess
		for _, a := range s.accesses {
			if a.addr == lock {
				found = append(found, a)
			}
		}
		if len(found) != 1 || !found[0].write {
			t.Errorf("lock %s: highlighted accesses %v, want the one write that took it", lock, found)
			continue
		}
		holder := found[0].value - 1
		if found[0].lane != holder || holder == waiter || holder < 0 || holder > 2 {
			t.Errorf("lock %s: written %02X in lane %d at step %d (waiter thread %d)", lock, found[0].value, found[0].lane, found[0].step, waiter)
		}
		if st := tf.Steps[found[0].step-1]; st.PC != stub || st.Thread != holder {
			t.Errorf("lock %s: the write is step %d (%+v), not a __mc_lock call of thread %d at %s", lock, found[0].step, st, holder, stub)
		}
		if end := s.ends[waiter]; !strings.HasPrefix(end, "!blocked in __mc_lock") || !strings.Contains(end, lock) || !strings.Contains(end, fmt.Sprintf("held by thread %d", holder)) {
			t.Errorf("lane %d's end: %q", waiter, end)
		}
	}
	if s.violKind != "deadlock" || s.violLane != "-1" || !strings.Contains(s.violText, "violation: deadlock") || !strings.Contains(s.violText, "no thread can move") {
		t.Errorf("violation marker: %s lane %s %q", s.violKind, s.violLane, s.violText)
	}

	// replay --svg draws the same picture from the trace file.
	svg2 := filepath.Join(dir, "replay.svg")
	if code := Main([]string{"replay", trace, "--svg", svg2}, nil, &out, &errb); code != ExitViolation {
		t.Fatalf("replay: exit %d: %s", code, errb.String())
	}
	r := readSVGSummary(t, parseSVG(t, svg2))
	if fmt.Sprint(r.boxes, r.arrows, r.accesses, r.ends, r.violKind) != fmt.Sprint(s.boxes, s.arrows, s.accesses, s.ends, s.violKind) {
		t.Errorf("replay --svg differs from check --trace-svg:\n%v\n%v", r, s)
	}
}

// manifestFlags returns the manifest's flags for a model in dir.
func manifestFlags(t *testing.T, dir, name string) (file string, flags []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ms []struct {
		Name, File string
		Flags      []string
	}
	if err := json.Unmarshal(b, &ms); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Name == name {
			return filepath.Join(dir, m.File), m.Flags
		}
	}
	t.Fatalf("no model %s in the manifest", name)
	return "", nil
}

func TestTraceSVGInterrupt(t *testing.T) {
	file, flags := manifestFlags(t, "../../../../testdata/bench", "irq_lostupdate")
	dir := t.TempDir()
	svg, trace := filepath.Join(dir, "cex.svg"), filepath.Join(dir, "cex.json")
	var out, errb bytes.Buffer
	args := append([]string{"check", file, "-q", "--search", "best", "--heuristic", "fsm", "--trace", trace, "--trace-svg", svg}, flags...)
	if code := Main(args, nil, &out, &errb); code != ExitViolation {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	tf, err := cex.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	s := readSVGSummary(t, parseSVG(t, svg))
	if strings.Join(s.lanes, ",") != "thread 0,toc1 handler" || strings.Join(s.kinds, ",") != "thread,handler" {
		t.Fatalf("lanes %v (%v), want thread 0 and the toc1 handler", s.lanes, s.kinds)
	}
	checkBoxes(t, s, len(tf.Steps))

	// Each interrupt in the trace is an arrow into the handler's lane; the
	// handler's instructions, up to its rti, are in that lane, and a
	// return arrow leads back to thread 0.
	var irqs []int
	for i, st := range tf.Steps {
		if st.IRQ != "" {
			irqs = append(irqs, i+1)
		}
	}
	if len(irqs) == 0 {
		t.Fatal("the counterexample takes no interrupt")
	}
	var want []string
	for i, b := range s.boxes {
		if b[0] != 1 {
			continue
		}
		if b[1]-1 != irqs[0] {
			t.Errorf("a handler box starts at step %d, not after an interrupt (%v)", b[1], irqs)
		}
		irqs = irqs[1:]
		want = append(want, fmt.Sprintf("interrupt 0→1 #%d", b[1]-1), fmt.Sprintf("return 1→0 #%d", b[2]))
		if i+1 >= len(s.boxes) || s.boxes[i+1][0] != 0 || s.boxes[i+1][1] != b[2]+1 {
			t.Errorf("after the handler box %v comes %v, not thread 0", b, s.boxes[i+1:])
		}
		if st := tf.Steps[b[2]-1]; st.Thread != 0 {
			t.Errorf("handler box ends with step %+v", st)
		}
	}
	if len(irqs) != 0 || len(want) == 0 || strings.Join(s.arrows, ", ") != strings.Join(want, ", ") {
		t.Errorf("arrows %v, want %v", s.arrows, want)
	}

	// The lost update: the handler's write to count and thread 0's last
	// write to it are both highlighted, and so are thread 0's reads of
	// count and budget before the assertion.
	has := func(addr string, write bool, lane int) bool {
		for _, a := range s.accesses {
			if a.addr == addr && a.write == write && a.lane == lane {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		addr  string
		write bool
		lane  int
		what  string
	}{
		{"0x0001", true, 1, "the handler's write of count"},
		{"0x0001", true, 0, "thread 0's write of count"},
		{"0x0001", false, 0, "thread 0's read of count"},
		{"0x0000", false, 0, "thread 0's read of budget"},
		{"0x0000", true, 1, "the handler's write of budget"},
	} {
		if !has(c.addr, c.write, c.lane) {
			t.Errorf("%s (%s) is not highlighted: %v", c.what, c.addr, s.accesses)
		}
	}
	last := s.boxes[len(s.boxes)-1]
	if s.violKind != "assert" || s.violLane != "0" || s.violLine != 1 || last[0] != 0 || last[2] != len(tf.Steps) {
		t.Errorf("violation: %s in lane %s, %d outlined lines, last box %v", s.violKind, s.violLane, s.violLine, last)
	}
	if !strings.HasPrefix(s.ends[0], "!assert violated") {
		t.Errorf("thread 0's end: %q", s.ends[0])
	}
}

// --trace-svg into a directory that does not exist is bad usage.
func TestTraceSVGUnwritable(t *testing.T) {
	var out, errb bytes.Buffer
	bad := filepath.Join(t.TempDir(), "missing", "cex.svg")
	code := Main([]string{"check", "../../../../testdata/examples/philosophers.elf", "-q", "--trace-svg", bad}, nil, &out, &errb)
	if code != ExitUsage || !strings.Contains(errb.String(), "--trace-svg") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// A deadlock with no lock in it (a thread in WAI that no interrupt can
// wake): nothing is highlighted, the rule says why, the lane says WAI.
func TestTraceSVGNoLock(t *testing.T) {
	file, flags := manifestFlags(t, "../../../../testdata/models", "wai")
	svg := filepath.Join(t.TempDir(), "cex.svg")
	var out, errb bytes.Buffer
	if code := Main(append([]string{"check", file, "-q", "--trace-svg", svg}, flags...), nil, &out, &errb); code != ExitViolation {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	doc := parseSVG(t, svg)
	s := readSVGSummary(t, doc)
	var rule string
	for _, r := range doc.all("rule") {
		rule += r.text() + " "
	}
	if len(s.accesses) != 0 || !strings.Contains(rule, "Nothing is highlighted: no thread waits for a lock") ||
		s.ends[0] != "!waits in WAI" || s.violKind != "deadlock" {
		t.Errorf("accesses %v, rule %q, end %q, violation %s", s.accesses, rule, s.ends[0], s.violKind)
	}
}
