package findings

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// maxNotes bounds the notes of one finding.
const maxNotes = 6

// recentAccesses is how many of the violating context's last operand
// accesses are searched for the reads that led to the violation.
const recentAccesses = 16

// Location is where a finding, a note or a step points.
type Location struct {
	// File is the source file as it was found (see the package doc), ""
	// where the image has no line for the address; Line and Column are
	// 1-based.
	File         string
	Line, Column int
	// Image is the firmware image's path, Addr the instruction's
	// address and Symbol the address as the counterexample names it
	// ("0xD027 <update>").
	Image  string
	Addr   uint16
	Symbol string
}

// Note is a step of the counterexample that matters for a finding.
type Note struct {
	Location
	Step    int // the transition, counted from 1
	Message string
}

// Step is one transition of the counterexample, as a code flow lists it.
type Step struct {
	Location
	Step    int
	Thread  int
	Handler string // the interrupt handler the thread ran in, "" for none
	// Text is what the transition did: the instruction, the interrupt
	// taken or the event of the environment.
	Text      string
	Registers cex.Registers // the thread's, before the step
	// Essential says a note or the finding points at this step.
	Essential bool
}

// Finding is one violation, or a goal reached (Goal).
type Finding struct {
	Location
	Kind    sim.Kind
	Goal    bool // reach and output are goals, not errors
	Thread  int
	Message string // cex.Describe's text
	Notes   []Note
	Steps   []Step
	// Replayed is false when the counterexample did not replay (a bug in
	// hc11mc): the finding then has no notes or steps.
	Replayed bool
}

// New gives the findings of res, found on m for img: one per violation,
// first found first.
func New(img *loader.Image, m *sim.Machine, res *check.Result) []Finding {
	src := newSources(img)
	var out []Finding
	for _, f := range res.Found {
		out = append(out, newFinding(img, m, src, f.Violation, f.Trace))
	}
	return out
}

// newFinding builds the finding of v, reached by trace.
func newFinding(img *loader.Image, m *sim.Machine, src *sources, v *sim.Violation, trace []sim.Label) Finding {
	fd := Finding{Kind: v.Kind, Goal: v.Kind == sim.KindReach || v.Kind == sim.KindOutput, Thread: v.Thread,
		Message: cex.Describe(img, v)}
	c := cex.Replay(img, m, trace)
	rep := c.Report(nil, nil)
	fd.Replayed = rep.Reproduced
	x := &explainer{img: img, src: src, steps: rep.Steps, final: rep.Final, stubs: stubAddrs(img)}
	pc := v.PC
	if _, isStub := x.stubs[pc]; isStub && v.Thread >= 0 {
		if j := x.callSite(v.Thread, pc, len(x.steps)); j >= 0 {
			pc = x.lastPC(j)
		}
	}
	fd.Location = src.locate(pc)
	if !fd.Replayed {
		return fd
	}
	essential := map[int]bool{len(x.steps) - 1: true}
	switch v.Kind {
	case sim.KindMutex:
		fd.Notes = x.criticalSections(v.Thread)
	case sim.KindDeadlock:
		notes, holders := x.locksHeld(-1)
		fd.Notes = append(notes, x.waiting(v.Thread, holders)...)
	case sim.KindUnlock:
		if fd.Notes, _ = x.locksHeld(int(v.Addr)); len(fd.Notes) == 0 {
			fd.Notes = x.lastRelease(v.Addr)
		}
	}
	if len(fd.Notes) == 0 && v.Thread >= 0 {
		fd.Notes = x.lastWrites(v.Thread)
	}
	if len(fd.Notes) > maxNotes {
		fd.Notes = fd.Notes[:maxNotes]
	}
	for _, n := range fd.Notes {
		essential[n.Step-1] = true
	}
	for i, s := range x.steps {
		fd.Steps = append(fd.Steps, x.step(i, s, essential[i]))
	}
	return fd
}

// stubAddrs maps the address of every harness stub in img to the stub.
func stubAddrs(img *loader.Image) map[uint16]loader.Stub {
	out := map[uint16]loader.Stub{}
	for s := loader.NoStub + 1; s < loader.NumStubs; s++ {
		if a, ok := img.StubAddr(s); ok {
			out[a] = s
		}
	}
	return out
}

// explainer picks the steps that matter out of a replayed counterexample.
type explainer struct {
	img   *loader.Image
	src   *sources
	steps []cex.ReportStep
	final *cex.ReportFinal
	stubs map[uint16]loader.Stub
}

// hex reads an address as cex.Report writes it ("0xD027").
func hex(s string) uint16 {
	v, _ := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 16)
	return uint16(v)
}

// instruction says whether step s ran instructions (not an interrupt's
// entry or an event of the environment).
func instruction(s cex.ReportStep) bool { return s.IRQ == "" && s.Event == "" }

// lastPC is the address of the last instruction step j ran.
func (x *explainer) lastPC(j int) uint16 {
	s := x.steps[j]
	if s.LastPC != "" {
		return hex(s.LastPC)
	}
	return hex(s.PC)
}

// callSite is the last step before step before in which thread called
// the stub at addr: the step of that thread that ends with its PC there.
// -1 for none.
func (x *explainer) callSite(thread int, addr uint16, before int) int {
	for j := min(before, len(x.steps)) - 1; j >= 0; j-- {
		s := x.steps[j]
		if s.Thread == thread && instruction(s) && hex(s.Next) == addr && hex(s.PC) != addr {
			return j
		}
	}
	return -1
}

// stubStep says whether step j is thread's run of the stub s.
func (x *explainer) stubStep(j int, s loader.Stub) bool {
	st := x.steps[j]
	return instruction(st) && x.stubs[hex(st.PC)] == s
}

// who names the thread or handler of step j.
func (x *explainer) who(j int) string {
	s := x.steps[j]
	if s.Handler != "" {
		return fmt.Sprintf("the %s handler (thread %d)", s.Handler, s.Thread)
	}
	return fmt.Sprintf("thread %d", s.Thread)
}

// stubNote is a note on step j, a run of a harness stub, pointed at the
// stub's call.
func (x *explainer) stubNote(j int, msg string) Note {
	pc := hex(x.steps[j].PC)
	if k := x.callSite(x.steps[j].Thread, pc, j); k >= 0 {
		pc = x.lastPC(k)
	}
	return Note{Location: x.src.locate(pc), Step: j + 1, Message: msg}
}

// criticalSections are, for a mutex violation by thread v, where each
// other thread inside a critical section at the end entered it.
func (x *explainer) criticalSections(v int) []Note {
	inside := map[int]int{} // thread -> its last __mc_cs_enter step, while inside
	var order []int
	for j, s := range x.steps {
		switch {
		case x.stubStep(j, loader.StubCSEnter):
			if _, ok := inside[s.Thread]; !ok {
				order = append(order, s.Thread)
			}
			inside[s.Thread] = j
		case x.stubStep(j, loader.StubCSExit):
			delete(inside, s.Thread)
		}
	}
	var notes []Note
	for _, t := range order {
		j, ok := inside[t]
		if !ok || t == v {
			continue
		}
		notes = append(notes, x.stubNote(j, fmt.Sprintf("thread %d entered its critical section here (step %d) and is still inside", t, j+1)))
	}
	return notes
}

// lockByte is the lock byte step j (a run of __mc_lock or __mc_unlock)
// wrote, and its name; ok is false when it wrote none.
func (x *explainer) lockByte(j int) (addr uint16, name string, ok bool) {
	for _, a := range x.steps[j].Accesses {
		if a.Write {
			name = a.Name
			if name == "" {
				name = a.Addr
			}
			return hex(a.Addr), name, true
		}
	}
	return 0, "", false
}

// locksHeld are where the locks held at the end were taken: every lock,
// or only the lock byte at only when it is not -1; holders maps each lock
// byte held to the thread that holds it.
func (x *explainer) locksHeld(only int) (notes []Note, holders map[uint16]int) {
	held := map[uint16]int{} // lock byte -> the step that took it
	var order []uint16
	for j := range x.steps {
		lock, unlock := x.stubStep(j, loader.StubLock), x.stubStep(j, loader.StubUnlock)
		if !lock && !unlock {
			continue
		}
		a, _, ok := x.lockByte(j)
		if !ok {
			continue
		}
		if unlock {
			delete(held, a)
			continue
		}
		if _, seen := held[a]; !seen {
			order = append(order, a)
		}
		held[a] = j
	}
	holders = map[uint16]int{}
	for _, a := range order {
		j, ok := held[a]
		if ok {
			holders[a] = x.steps[j].Thread
		}
		if !ok || only >= 0 && int(a) != only {
			continue
		}
		_, name, _ := x.lockByte(j)
		notes = append(notes, x.stubNote(j, fmt.Sprintf("%s took the lock %s here (step %d) and holds it", x.who(j), name, j+1)))
	}
	return notes, holders
}

// lastRelease is where the lock byte at a, held by no thread, was last
// released; nil when it never was.
func (x *explainer) lastRelease(a uint16) []Note {
	for j := len(x.steps) - 2; j >= 0; j-- { // the last step is the violating unlock
		if b, name, ok := x.lockByte(j); ok && b == a && x.stubStep(j, loader.StubUnlock) {
			return []Note{x.stubNote(j, fmt.Sprintf("%s released the lock %s here (step %d)", x.who(j), name, j+1))}
		}
	}
	return nil
}

// lockName names the lock byte at a as the counterexample's accesses do.
func (x *explainer) lockName(a uint16) string {
	if name, base, ok := x.img.MemoryName(a); ok {
		if a == base {
			return name
		}
		return fmt.Sprintf("%s+0x%x", name, a-base)
	}
	return fmt.Sprintf("0x%04X", a)
}

// waiting are, for a deadlock reported on thread v, where each other
// thread blocked in __mc_lock at the end waits, for the lock byte at X
// (the stub's argument) and its holder.
func (x *explainer) waiting(v int, holders map[uint16]int) []Note {
	lock, ok := x.img.StubAddr(loader.StubLock)
	if !ok || x.final == nil {
		return nil
	}
	var notes []Note
	for _, t := range x.final.Threads {
		if t.Thread == v || hex(t.Registers.PC) != lock {
			continue
		}
		j := x.callSite(t.Thread, lock, len(x.steps))
		if j < 0 {
			continue
		}
		a := hex(t.Registers.X)
		held := ""
		if h, ok := holders[a]; ok {
			held = fmt.Sprintf(", held by thread %d", h)
		}
		notes = append(notes, Note{Location: x.src.locate(x.lastPC(j)), Step: j + 1,
			Message: fmt.Sprintf("thread %d waits here for the lock %s%s (called at step %d)", t.Thread, x.lockName(a), held, j+1)})
	}
	return notes
}

// lastWrites are, for each byte the context that violated (thread v in
// the handler of its last step) read in its last recentAccesses
// accesses, the last write to it before the read.
func (x *explainer) lastWrites(v int) []Note {
	type acc struct {
		step int
		a    cex.ReportAccess
	}
	ctx, found := "", false
	for j := len(x.steps) - 1; j >= 0 && !found; j-- {
		if x.steps[j].Thread == v && instruction(x.steps[j]) {
			ctx, found = x.steps[j].Handler, true
		}
	}
	var all []acc
	var mine []int // indices into all
	for j, s := range x.steps {
		for _, a := range s.Accesses {
			if s.Thread == v && s.Handler == ctx {
				mine = append(mine, len(all))
			}
			all = append(all, acc{j, a})
		}
	}
	if len(mine) > recentAccesses {
		mine = mine[len(mine)-recentAccesses:]
	}
	overlap := func(a, b cex.ReportAccess) bool {
		lo, hi := int(hex(a.Addr)), int(hex(a.Addr))+a.Size
		blo, bhi := int(hex(b.Addr)), int(hex(b.Addr))+b.Size
		return lo < bhi && blo < hi
	}
	seen := map[string]bool{}
	var notes []Note
	for _, ri := range mine {
		r := all[ri]
		if !r.a.Read {
			continue
		}
		// The last write before the read (accesses are in the order the
		// instructions made them).
		var w *acc
		for i := range ri {
			if all[i].a.Write && overlap(r.a, all[i].a) {
				w = &all[i]
			}
		}
		if w == nil {
			continue
		}
		key := fmt.Sprintf("%d/%s/%s", w.step, w.a.PC, w.a.Addr)
		if seen[key] {
			continue
		}
		seen[key] = true
		name := w.a.Name
		if name == "" {
			name = w.a.Addr
		}
		reader := "it"
		if x.steps[r.step].Thread != x.steps[w.step].Thread || x.steps[r.step].Handler != x.steps[w.step].Handler {
			reader = x.who(r.step)
		}
		notes = append(notes, Note{Location: x.src.locate(hex(w.a.PC)), Step: w.step + 1,
			Message: fmt.Sprintf("%s wrote %s = %s here (step %d); %s read it at step %d", x.who(w.step), name, value(w.a.After, w.a.Size), w.step+1, reader, r.step+1)})
	}
	return notes
}

// value prints a byte or a big-endian word in hex.
func value(v uint16, size int) string {
	if size == 2 {
		return fmt.Sprintf("0x%04X", v)
	}
	return fmt.Sprintf("0x%02X", v)
}

// step is step i of the counterexample as a code flow shows it.
func (x *explainer) step(i int, s cex.ReportStep, essential bool) Step {
	st := Step{Location: x.src.locate(hex(s.PC)), Step: i + 1, Thread: s.Thread, Handler: s.Handler, Registers: s.Registers, Essential: essential}
	switch {
	case s.Event != "":
		st.Text = "event: " + s.Event
	case s.IRQ != "":
		st.Text = "interrupt " + s.IRQ + " taken"
	default:
		st.Text = s.Instruction
		if s.Instructions > 1 {
			st.Text += fmt.Sprintf(" (%d instructions, the last at %s)", s.Instructions, s.LastPC)
		}
	}
	return st
}
