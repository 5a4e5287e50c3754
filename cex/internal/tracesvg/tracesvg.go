// Package tracesvg draws a counterexample as an SVG picture: one lane per
// thread and one per interrupt handler, time running downward, each
// transition a line in a box with its number, its symbol (<sym+off>) and its
// instruction, arrows between lanes where the schedule switches threads,
// takes an interrupt or returns from one, the shared-memory accesses that
// matter highlighted, and the violation marked at the end.
//
// It is for drawing only. The input is a plain [Trace] the caller fills in:
// which lane each step belongs to, which accesses to highlight and why are
// decided by the caller (package cex replays the trace on the simulator for
// that); Render knows nothing about the 68HC11, the simulator or the
// command line, and it is a pure function of its input.
//
// It lives under cex, internal to it, because it draws counterexamples and
// nothing else, and because its input is not an interface to keep stable:
// the lanes, boxes and highlights it takes are cex's decisions, so the two
// change together, and no other package should fill a Trace of its own.
// Programs outside cex get the picture from cex.SVG.
//
// Render lays the lanes out as columns, joins consecutive steps of a lane
// into boxes with elbow arrows between them, and keeps long traces
// readable by listing only the ends of a long box and of a long run of
// boxes (Head, Tail, MaxBoxes), every highlighted step kept; its doc says
// how, and what classes and data- attributes name each group for tests
// and scripts that read the drawing back.
package tracesvg

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// LaneKind says what a lane stands for.
type LaneKind uint8

// The kinds of lane.
const (
	ThreadLane  LaneKind = iota // a thread's own code
	HandlerLane                 // an interrupt handler, whichever thread it interrupted
)

// Lane is one column of the drawing.
type Lane struct {
	Kind  LaneKind
	Title string // e.g. "thread 1" or "toc1 handler"
	Note  string // a second header line, e.g. "starts at philosopher"
	// End is the lane's state at the violation, drawn under its last box,
	// e.g. "blocked in __mc_lock on fork+0x1 (0x0001), held by thread 1";
	// empty for none.
	End string
	// Alert draws End in the violation's colour: the lane takes part in it.
	Alert bool
}

// Access is one byte of memory a step read or wrote.
type Access struct {
	Addr  uint16
	Name  string // a symbolic name for the byte, e.g. "fork+0x1"; empty for none
	Write bool   // written (else read)
	Value uint8  // the byte read, or the byte after the write
	Mark  bool   // highlighted: the violation involves this access
	Why   string // for a highlighted access: why it matters, e.g. "thread 0 waits for this lock"
}

// Step is one transition of the counterexample, or the part of one that ran
// in one lane.
type Step struct {
	N      int    // the transition's number in the trace, from 1
	Lane   int    // index into Trace.Lanes
	Thread int    // the thread that ran
	Symbol string // where it ran, as "<sym+off>" (or an address)
	Text   string // the instruction in GNU syntax, or what the step did
	More   int    // further instructions of the same transition, not listed
	// IRQ, when not empty, names the interrupt this step takes: it is drawn
	// as the arrow from lane From into Lane (the handler's lane), not as a
	// line, unless it is the last step of the trace.
	IRQ  string
	From int
	// Return marks the instruction that returns from the handler whose lane
	// the step is in; ReturnLane is the lane of the code it returns to.
	Return     bool
	ReturnLane int
	Accesses   []Access
}

// Violation is what the counterexample ends in.
type Violation struct {
	Kind    string // the property, e.g. "deadlock"
	Message string
	// Lane is the lane of the step that violates the property, or -1 when
	// the violation is of the whole state (a deadlock).
	Lane int
}

// Watch is one address the violation involves, listed in the legend.
type Watch struct {
	Addr  uint16
	Name  string
	Value uint8  // its value at the violation
	Why   string // why it is involved, e.g. "thread 2 waits for this lock"
}

// Trace is a counterexample ready to draw.
type Trace struct {
	Title     string  // the first line, e.g. "deadlock in philosophers.elf"
	Subtitle  string  // a second line, e.g. the search that found it
	Rule      string  // one sentence saying what the highlights are
	Lanes     []Lane  // threads first, then handlers, by convention
	Steps     []Step  // in the order they happened
	Watches   []Watch // the addresses the violation involves
	Violation Violation
}

// Collapsing bounds (see Render).
const (
	Head      = 3  // steps listed at the start of a long box
	Tail      = 2  // steps listed at the end of a long box
	MaxBoxes  = 40 // more boxes than this and the middle ones are left out
	KeepFirst = 4  // boxes kept at the start of a long trace
	KeepLast  = 30 // boxes kept at the end of a long trace
)

// Geometry, in pixels. The code font is monospaced; codeW is the width of
// one of its characters, textW a generous average for the sans-serif font.
const (
	margin    = 24.0
	codeSize  = 12.0
	codeW     = 7.3
	textW     = 6.6
	lineH     = 17.0
	noteH     = 15.0
	padX      = 9.0
	padY      = 6.0
	laneGap   = 44.0
	minLaneW  = 250.0
	minWidth  = 560.0 // of the drawing, margins aside
	maxText   = 44    // characters of an instruction before it is cut
	maxSym    = 22    // characters of a symbol before it is cut
	hopH      = 26.0
	headerH   = 44.0
	arrowHead = 7.0
)

var (
	threadColours  = []string{"#3b6ea5", "#3f8f4f", "#8a4f9e", "#2a8c8c", "#8c6d31", "#b5457a"}
	handlerColours = []string{"#c8661b", "#b8860b", "#a0522d"}
)

const (
	red       = "#c92a2a"
	writeFill = "#ffe3a3"
	writeBar  = "#e8890c"
	readFill  = "#d6e9ff"
	readBar   = "#4a8fd8"
	ink       = "#1d1d1f"
	grey      = "#6e6e73"
)

// line is one row of a box.
type line struct {
	step  *Step // nil for a "… n more" row
	left  []*Step
	notes []string
	marks []*Access // the highlighted accesses, for the data attributes
	write bool      // the note band is a write (else a read)
}

// box is a run of steps in one lane.
type box struct {
	lane, thread int
	steps        []*Step
	before       []*Step // interrupt steps between the previous box and this one
	lines        []line
	marked       bool
	x, y, w, h   float64
}

// element is a box or a band of boxes left out.
type element struct {
	b       *box
	omitted []*box
	y, h    float64
}

// Render draws t as a standalone SVG document.
//
// Lanes are columns, in the order of [Trace.Lanes], each as wide as its
// longest line. Consecutive steps in one lane (and, in a handler lane, on
// one thread) form one box; an interrupt step is not a line but the arrow
// into its handler's lane, labelled with its number. Between two boxes an
// elbow arrow goes from the bottom of the first to the top of the second
// through one horizontal hop per event: "rti" when the first box ends with
// the return from its handler, the interrupts taken in between, and
// "switch" for a change of thread.
//
// Long traces stay readable in two ways:
//
//   - In a box of more than Head+Tail steps, the first Head and the last
//     Tail steps are listed, and so is every step with a highlighted access;
//     each run of steps left out becomes one line "… n more" (the steps are
//     in its tooltip).
//   - When there are more than MaxBoxes boxes, the first KeepFirst and the
//     last KeepLast are drawn, with every box that has a highlighted step;
//     each run of boxes left out becomes one band across the lanes naming
//     the transitions it stands for.
//
// A highlighted access puts an amber band (a write) or a blue band (a read)
// behind its step and a note under it naming the address and the bytes.
// Every step line carries a tooltip (an SVG <title>) with its lane, its
// thread and all the accesses the caller listed.
//
// The drawing is plain SVG 1.1 with class and data- attributes that name
// what each group is, so that tests and scripts can read it back with an
// XML parser: <g class="lane" data-lane="i"> with a <text
// class="lane-title">, <g class="box" data-lane data-thread data-first
// data-last>, inside it <g class="step" data-n> and <g class="more"
// data-count>, <g class="access" data-addr data-write> for a highlighted
// access, <g class="arrow" data-kind="switch|interrupt|return" data-from
// data-to data-step>, <g class="omitted" data-boxes data-first data-last>,
// <g class="end" data-lane> for a lane's state at the violation, and <g
// class="violation" data-kind> with the kind and the message. All text is
// escaped as encoding/xml escapes character data.
func Render(t *Trace) []byte {
	r := &renderer{t: t}
	r.group()
	r.legend()
	r.layout()
	r.draw()
	return r.out.Bytes()
}

type renderer struct {
	t      *Trace
	boxes  []*box
	elems  []element
	laneX  []float64
	laneW  []float64
	width  float64
	height float64
	top    float64 // y of the lane headers
	first  float64 // y where the first box may start
	bottom float64 // y under the last element

	symCols []float64 // per lane: the width of its symbol column, in characters
	numCols float64   // the width of the step-number column, in characters
	legendY float64
	keys    []legendKey // the legend's samples
	legendW float64     // the width of the legend's first row
	rule    []string    // the rule, wrapped
	endY    float64     // y of the lanes' end notes
	violY   float64     // y of the violation band
	violMsg []string    // the violation's message, wrapped
	out     bytes.Buffer
}

// group splits the steps into boxes.
func (r *renderer) group() {
	var pending []*Step
	var cur *box
	for i := range r.t.Steps {
		s := &r.t.Steps[i]
		if s.IRQ != "" && i < len(r.t.Steps)-1 {
			pending = append(pending, s)
			cur = nil
			continue
		}
		if cur == nil || cur.lane != s.Lane || cur.thread != s.Thread || len(pending) > 0 || cur.steps[len(cur.steps)-1].Return {
			cur = &box{lane: s.Lane, thread: s.Thread, before: pending}
			pending = nil
			r.boxes = append(r.boxes, cur)
		}
		cur.steps = append(cur.steps, s)
	}
	for _, b := range r.boxes {
		b.lines = collapse(b.steps)
		for _, l := range b.lines {
			b.marked = b.marked || len(l.marks) > 0
		}
	}
	// Long traces: keep the first and last boxes and the marked ones.
	keep := make([]bool, len(r.boxes))
	for i, b := range r.boxes {
		keep[i] = len(r.boxes) <= MaxBoxes || i < KeepFirst || i >= len(r.boxes)-KeepLast || b.marked
	}
	for i := 0; i < len(r.boxes); {
		if keep[i] {
			r.elems = append(r.elems, element{b: r.boxes[i]})
			i++
			continue
		}
		j := i
		for j < len(r.boxes) && !keep[j] {
			j++
		}
		r.elems = append(r.elems, element{omitted: r.boxes[i:j]})
		i = j
	}
}

// collapse lists the steps of a box, leaving out the middle of long runs
// but never a step with a highlighted access.
func collapse(steps []*Step) []line {
	var out []line
	var hidden []*Step
	var hiddenLines []line
	flush := func() {
		switch {
		case len(hidden) == 1:
			// A "… 1 more" row would take the room of the step itself.
			out = append(out, hiddenLines[0])
		case len(hidden) > 1:
			out = append(out, line{left: hidden})
		}
		hidden, hiddenLines = nil, nil
	}
	for i, s := range steps {
		ln := line{step: s}
		var w, rd []*Access
		for k := range s.Accesses {
			a := &s.Accesses[k]
			if a.Mark {
				ln.marks = append(ln.marks, a)
				if a.Write {
					w = append(w, a)
				} else {
					rd = append(rd, a)
				}
			}
		}
		sort.Slice(w, func(i, j int) bool { return w[i].Addr < w[j].Addr })
		sort.Slice(rd, func(i, j int) bool { return rd[i].Addr < rd[j].Addr })
		ln.write = len(w) > 0
		ln.notes = append(accessNotes("wrote", w), accessNotes("read", rd)...)
		show := len(steps) <= Head+Tail+1 || i < Head || i >= len(steps)-Tail || len(ln.marks) > 0
		if !show {
			hidden = append(hidden, s)
			hiddenLines = append(hiddenLines, ln)
			continue
		}
		flush()
		out = append(out, ln)
	}
	flush()
	return out
}

// accessNotes describes accesses, one note per run of consecutive
// addresses: "wrote count (0x0001) = 00 02".
func accessNotes(verb string, as []*Access) []string {
	var notes []string
	for i := 0; i < len(as); {
		j := i + 1
		for j < len(as) && as[j].Addr == as[j-1].Addr+1 {
			j++
		}
		name := as[i].Name
		if name == "" {
			name = fmt.Sprintf("0x%04X", as[i].Addr)
		} else {
			name += fmt.Sprintf(" (0x%04X)", as[i].Addr)
		}
		var vals []string
		for _, a := range as[i:j] {
			vals = append(vals, fmt.Sprintf("%02X", a.Value))
		}
		n := fmt.Sprintf("%s %s = %s", verb, name, strings.Join(vals, " "))
		if as[i].Why != "" {
			n += ": " + as[i].Why
		}
		notes = append(notes, n)
		i = j
	}
	return notes
}

// hop is one horizontal leg of an arrow between two boxes.
type hop struct {
	kind     string // switch, interrupt, return
	from, to int
	label    string
	step     int // the step it stands for (0 for a switch)
}

// hops lists the events between box a (nil at the start) and box b.
func (r *renderer) hops(a, b *box) []hop {
	var hs []hop
	cur := b.lane
	if len(b.before) > 0 {
		cur = b.before[0].From
	} else if b.steps[0].IRQ != "" {
		cur = b.steps[0].From
	}
	if a != nil {
		cur = a.lane
		if last := a.steps[len(a.steps)-1]; last.Return {
			hs = append(hs, hop{kind: "return", from: cur, to: last.ReturnLane, label: fmt.Sprintf("%d · rti", last.N), step: last.N})
			cur = last.ReturnLane
		}
	}
	events := b.before
	if b.steps[0].IRQ != "" {
		events = append(events[:len(events):len(events)], b.steps[0])
	}
	for _, s := range events {
		if s.From != cur {
			hs = append(hs, hop{kind: "switch", from: cur, to: s.From, label: fmt.Sprintf("switch to thread %d", s.Thread)})
		}
		label := fmt.Sprintf("%d · %s interrupt", s.N, s.IRQ)
		if r.threadLanes() > 1 {
			label += fmt.Sprintf(" (thread %d)", s.Thread)
		}
		hs = append(hs, hop{kind: "interrupt", from: s.From, to: s.Lane, label: label, step: s.N})
		cur = s.Lane
	}
	if cur != b.lane || (a != nil && len(hs) == 0 && a.thread != b.thread) {
		hs = append(hs, hop{kind: "switch", from: cur, to: b.lane, label: fmt.Sprintf("switch to thread %d", b.thread)})
	}
	return hs
}

func (r *renderer) threadLanes() int {
	n := 0
	for _, l := range r.t.Lanes {
		if l.Kind == ThreadLane {
			n++
		}
	}
	return n
}

// boxLineText returns the code columns of a step line.
func stepCols(s *Step) (num, sym, text, more string) {
	num = strconv.Itoa(s.N)
	sym = cut(s.Symbol, maxSym)
	text = cut(s.Text, maxText)
	if s.More > 0 {
		more = fmt.Sprintf(" (+%d)", s.More)
	}
	return
}

func cut(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func runes(s string) float64 { return float64(len([]rune(s))) }

// layout sizes the lanes and places every element.
func (r *renderer) layout() {
	t := r.t
	n := len(t.Lanes)
	r.laneW = make([]float64, n)
	symCols := make([]float64, n)
	numCols := 3.0
	for _, s := range t.Steps {
		numCols = math.Max(numCols, runes(strconv.Itoa(s.N)))
	}
	for _, b := range r.boxes {
		for _, l := range b.lines {
			if l.step != nil {
				_, sym, _, _ := stepCols(l.step)
				symCols[b.lane] = math.Max(symCols[b.lane], runes(sym))
			}
		}
	}
	for i := range r.laneW {
		r.laneW[i] = math.Max(minLaneW, math.Max(runes(t.Lanes[i].Title)*8.5, runes(t.Lanes[i].Note)*textW)+2*padX)
	}
	for _, b := range r.boxes {
		for _, l := range b.lines {
			w := 0.0
			if l.step != nil {
				_, _, text, more := stepCols(l.step)
				w = (numCols + 1 + symCols[b.lane] + 1 + runes(text) + runes(more)) * codeW
			}
			for _, nt := range l.notes {
				w = math.Max(w, (numCols+1)*codeW+runes(nt)*textW*0.92)
			}
			r.laneW[b.lane] = math.Max(r.laneW[b.lane], w+2*padX+6)
		}
	}
	r.symCols, r.numCols = symCols, numCols
	x := margin
	r.laneX = make([]float64, n)
	for i := range r.laneX {
		r.laneX[i] = x
		x += r.laneW[i] + laneGap
	}
	r.width = math.Max(x-laneGap+margin, 2*margin+max(r.legendW, runes(t.Title)*11, runes(t.Subtitle)*textW, minWidth))

	y := margin + 22 // title baseline
	if t.Subtitle != "" {
		y += 18
	}
	y += 10
	r.legendY = y
	r.rule = wrap(t.Rule, int((r.width-2*margin)/textW))
	y += r.legendHeight()
	r.top = y + 8
	r.first = r.top + headerH + 14
	y = r.first
	var prev *box
	for i := range r.elems {
		e := &r.elems[i]
		if e.b == nil {
			e.y = y + 14
			e.h = 30
			y = e.y + e.h + 14
			prev = nil
			continue
		}
		b := e.b
		if nh := len(r.hops(prev, b)); prev != nil || nh > 0 {
			y += gapAbove(nh)
		}
		b.x, b.y, b.w = r.laneX[b.lane], y, r.laneW[b.lane]
		h := 2 * padY
		for _, l := range b.lines {
			h += lineH + float64(len(l.notes))*noteH
		}
		b.h = h
		e.y, e.h = y, h
		y += h
		prev = b
	}
	r.bottom = y
	// Lane ends, then the violation band.
	endH := 0.0
	for i, l := range t.Lanes {
		if l.End != "" {
			endH = math.Max(endH, float64(len(wrap(l.End, int((r.laneW[i]-2*padX)/textW))))*15+12)
		}
	}
	r.endY = y + 18
	y = r.endY + endH + 18
	r.violY = y
	msg := wrap(t.Violation.Message, int((r.width-2*margin-2*padX)/textW))
	r.violMsg = msg
	r.height = y + 34 + float64(len(msg))*16 + 8 + margin
}

// gapAbove is the space between two boxes joined by an arrow of nh hops:
// hop k runs at hopY(k) below the first box, and the last one turns down
// into the second box.
func gapAbove(nh int) float64 { return 8 + float64(nh)*hopH + 14 }

// hopY is how far below the first box hop k runs.
func hopY(k int) float64 { return 8 + float64(k)*hopH + 18 }

// wrap breaks s into lines of at most n characters, at spaces.
func wrap(s string, n int) []string {
	if n < 10 {
		n = 10
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		cur := ""
		for _, w := range strings.Fields(para) {
			switch {
			case cur == "":
				cur = w
			case len([]rune(cur))+1+len([]rune(w)) <= n:
				cur += " " + w
			default:
				out = append(out, cur)
				cur = w
			}
		}
		if cur != "" {
			out = append(out, cur)
		}
	}
	return out
}

// esc escapes s as XML character data (quotes included, so that it is
// safe in attributes too).
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

func (r *renderer) printf(format string, args ...any) { fmt.Fprintf(&r.out, format, args...) }

func (r *renderer) laneColour(i int) string {
	if i < 0 || i >= len(r.t.Lanes) {
		return grey
	}
	k := 0
	for j := 0; j < i; j++ {
		if r.t.Lanes[j].Kind == r.t.Lanes[i].Kind {
			k++
		}
	}
	if r.t.Lanes[i].Kind == HandlerLane {
		return handlerColours[k%len(handlerColours)]
	}
	return threadColours[k%len(threadColours)]
}

func (r *renderer) centre(lane int) float64 { return r.laneX[lane] + r.laneW[lane]/2 }
