package cex

// Counterexamples as check and replay show them: one line per transition
// (for a transition of many instructions, where it started and ended; for
// an interrupt, where it landed), then at the violation every thread's
// registers and status, and memory: the bytes the violation involves and
// the variables the trace read or wrote, with their values.
//
// What a transition read and wrote comes from re-executing it one
// instruction at a time: before each, sim.Machine.NextAccess gives the
// operand it reads or writes (its effective address, one or two bytes, or
// the lock byte of __mc_lock and __mc_unlock), with the values before and
// after. Stack pushes and pulls, and operands inside the thread's own live
// stack (its locals), are left out; so are data symbols that hold a
// thread's stack. Variables are data symbols (loader.Image.IsData): a
// symbol of size 1 or 2 (its declared size, else the distance to the next
// symbol) is one variable, 2 bytes read big-endian as the 68HC11 does; a
// larger one is shown byte by byte, as name+offset.

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/units"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// maxInstructions bounds the instructions re-executed one by one to find
// what transitions accessed; beyond it, longer transitions are not analysed.
const maxInstructions = 1 << 20

// recent is how many of its last instructions of the violating thread
// are searched for the reads that led to the violation.
const recent = 16

// access is one operand access of one instruction of the trace.
type access struct {
	step          int // index of the transition
	thread        int
	ctx           string // the interrupt handler the thread was in, "" for none
	instr         int    // instructions of that thread's context before this one, counting from the start
	addr          uint16
	size          uint8
	read, write   bool
	before, after uint16 // the operand's value before and after, big-endian
	pc            uint16 // the instruction's address
	seq           int    // the order of the accesses along the trace
	push          string // for bytes an instruction or an interrupt pushed: what pushed them ("JSR", "interrupt toc1")
}

// step is one transition.
type step struct {
	label         sim.Label
	before, after *sim.State // after is nil when the transition did not replay
	ctx           string     // the interrupt handler the thread ran in, "" for none
	event         string     // an environment event: what happened
	out           []sim.Output
}

// Counterexample is a trace replayed on its machine, with what each
// transition read and wrote: what check and replay explain.
type Counterexample struct {
	// Final is the state at the violation; nil if the trace did not
	// replay.
	Final *sim.State
	// Violation is what the replay ended with, nil for none.
	Violation *sim.Violation
	// Err says why the replay failed: a step that is not a transition.
	Err error
	// Full makes WriteListing list every transition; otherwise a loop
	// that comes round many times in a row is listed once and folded
	// into a line that says how often it ran (foldAt).
	Full bool

	img    *loader.Image
	m      *sim.Machine
	labels int // the transitions of the trace
	steps  []step
	acc    []access
	local  []access // writes into the writer's own stack frame, which acc leaves out (for badReturn)
	stack  []span   // data symbols that hold stacks
	seq    int      // accesses noted so far
}

type span struct{ lo, hi int }

// Replay replays labels on m, the machine they were found on for img, and
// works out what each transition accessed.
func Replay(img *loader.Image, m *sim.Machine, labels []sim.Label) *Counterexample {
	m = m.Counted() // the machine search.Replay replays on
	states, v, err := search.Replay(m, labels)
	c := &Counterexample{img: img, m: m, Violation: v, Err: err, labels: len(labels)}
	if err == nil {
		c.Final = states[len(states)-1]
	}
	type frame struct {
		name string
		sp   uint16 // SP before the interrupt stacked its frame
	}
	frames := map[int][]frame{}
	count := map[string]int{} // instructions per context
	budget := maxInstructions
	for i, l := range labels {
		if i >= len(states) {
			break
		}
		st := step{label: l, before: states[i]}
		if i+1 < len(states) {
			st.after = states[i+1]
		}
		if l.Thread < 0 || l.Thread >= len(st.before.Threads) {
			break // the step that did not replay: no such thread
		}
		if m.HasDevice() || len(m.Config.Board) > 0 {
			m.ReplayObserved(st.before, l, &st.out)
		}
		if l.Event > 0 {
			st.event = m.EventText(st.before, int(l.Event-1))
			c.steps = append(c.steps, st)
			continue
		}
		t := &st.before.Threads[l.Thread]
		fs := frames[l.Thread]
		for len(fs) > 0 && t.SP >= fs[len(fs)-1].sp {
			fs = fs[:len(fs)-1]
		}
		if len(fs) > 0 {
			st.ctx = fs[len(fs)-1].name
		}
		if l.IRQ >= 0 {
			sp := t.SP
			if t.Status == sim.Waiting {
				sp += 9 // WAI stacked the frame already
			}
			fs = append(fs, frame{sim.IRQName(l.IRQ), sp})
			if st.after != nil && t.Status != sim.Waiting {
				c.notePush(i, st, t.PC, t.SP, st.after.Threads[l.Thread].SP, "interrupt "+sim.IRQName(l.IRQ))
			}
		}
		frames[l.Thread] = fs
		c.steps = append(c.steps, st)
		if l.IRQ >= 0 || st.after == nil {
			continue
		}
		key := fmt.Sprintf("%d/%s", l.Thread, st.ctx)
		if l.Steps == 1 {
			c.note(i, st, st.before, st.after, count[key])
			count[key]++
			continue
		}
		if int(l.Steps) > budget {
			count[key] += int(l.Steps)
			continue
		}
		budget -= int(l.Steps)
		s := st.before
		for k := uint32(1); k <= l.Steps; k++ {
			one := sim.Label{Thread: l.Thread, IRQ: -1, Steps: 1}
			if k == l.Steps {
				one.Choice = l.Choice
			}
			ns, _, ok := m.Replay(s, one)
			if !ok {
				break
			}
			c.note(i, st, s, ns, count[key])
			count[key]++
			s = ns
		}
	}
	if c.Final != nil {
		for _, t := range c.Final.Threads {
			if t.InitSP == 0 {
				continue
			}
			if j, ok := img.DataSymbolAt(t.InitSP); ok {
				lo := int(img.Symbols[j].Addr)
				c.stack = append(c.stack, span{lo, lo + img.Extent(j)})
			}
		}
	}
	return c
}

// note records the access the instruction of thread st.label.Thread from s
// to ns made, unless it is private to the thread's stack.
func (c *Counterexample) note(i int, st step, s, ns *sim.State, instr int) {
	tid := st.label.Thread
	t := &s.Threads[tid]
	if op := pushOp(c.m, s, t.PC); op != "" {
		c.notePush(i, st, t.PC, t.SP, ns.Threads[tid].SP, op)
	}
	a, ok := c.m.NextAccess(s, tid)
	if !ok {
		return
	}
	c.seq++
	ac := access{seq: c.seq, step: i, thread: tid, ctx: st.ctx, instr: instr, pc: t.PC,
		addr: a.Addr, size: a.Size, read: a.Read, write: a.Write,
		before: c.value(s, a.Addr, int(a.Size)), after: c.value(ns, a.Addr, int(a.Size))}
	if top := t.InitSP; top != 0 && a.Addr > t.SP && a.Addr <= top {
		if a.Write {
			c.local = append(c.local, ac)
		}
		return // a local in the thread's own stack frame
	}
	c.acc = append(c.acc, ac)
}

// notePush records, as a write into the thread's own stack, the bytes
// from newSP+1 to oldSP that op pushed (a return address, a register, an
// interrupt's frame), for badReturn to find.
func (c *Counterexample) notePush(i int, st step, pc, oldSP, newSP uint16, op string) {
	n := int(oldSP - newSP)
	if n <= 0 || n > 9 {
		return // the push wrapped round, or SP moved by more than a push
	}
	c.seq++
	c.local = append(c.local, access{seq: c.seq, step: i, thread: st.label.Thread, ctx: st.ctx,
		pc: pc, addr: newSP + 1, size: uint8(n), write: true, push: op})
}

// pushOp names the instruction at pc if it pushes onto the stack (M68HC11
// Reference Manual, Table 6-9's stack operations and the subroutine
// calls): "" for any other.
func pushOp(m *sim.Machine, s *sim.State, pc uint16) string {
	op := m.ReadMem(s, pc)
	if op == 0x18 { // the Y prebyte: JSR n,Y and PSHY
		switch m.ReadMem(s, pc+1) {
		case 0xAD:
			return "JSR"
		case 0x3C:
			return "PSHY"
		}
		return ""
	}
	switch op {
	case 0x9D, 0xAD, 0xBD:
		return "JSR"
	case 0x8D:
		return "BSR"
	case 0x36:
		return "PSHA"
	case 0x37:
		return "PSHB"
	case 0x3C:
		return "PSHX"
	case 0x3E:
		return "WAI"
	case 0x3F:
		return "SWI"
	}
	return ""
}

func (c *Counterexample) value(s *sim.State, a uint16, n int) uint16 {
	var v uint16
	for k := 0; k < n; k++ {
		v = v<<8 | uint16(c.m.ReadMem(s, a+uint16(k)))
	}
	return v
}

// variable is a variable as counterexamples show it: a data symbol of one or
// two bytes, or one byte of a larger one.
type variable struct {
	name string
	addr uint16
	size int
}

// variableAt returns the variable that holds addr; ok is false for an
// address no data symbol holds, or one inside a stack.
func (c *Counterexample) variableAt(addr uint16) (variable, bool) {
	j, ok := c.img.DataSymbolAt(addr)
	if !ok {
		return variable{}, false
	}
	s := c.img.Symbols[j]
	for _, r := range c.stack {
		if int(s.Addr) >= r.lo && int(s.Addr) < r.hi {
			return variable{}, false
		}
	}
	if n := c.img.Extent(j); n <= 2 {
		return variable{s.Name, s.Addr, n}, true
	}
	return variable{offsetName(s.Name, addr-s.Addr), addr, 1}, true
}

// stepLine prints transition i the way check lists it.
func (c *Counterexample) stepLine(w io.Writer, i int, prev int) {
	st := c.steps[i]
	l := st.label
	t := &st.before.Threads[l.Thread]
	mark := "  "
	if l.Thread != prev && prev >= 0 && l.Event == 0 {
		mark = "->"
	}
	cyc := fmt.Sprintf("cyc %-6d", st.before.Now())
	if l.Event > 0 {
		fmt.Fprintf(w, "%s %4d  %s env    %s%s%s\n", mark, i+1, cyc, st.event, OutputNote(st.out), c.timingMark(i))
		return
	}
	if l.IRQ >= 0 {
		land, took := "", ""
		if st.after != nil {
			land = " -> " + SymAddr(c.img, st.after.Threads[l.Thread].PC)
			// 14 cycles; 2 from WAI, which stacked the frame; 14 and
			// the oscillator's restart from STOP (sim's entry.go).
			took = fmt.Sprintf(" (%d cycles%s)", st.after.Now()-st.before.Now(), entryNote(t.Status))
		}
		fmt.Fprintf(w, "%s %4d  %s thr %d  %-28s interrupt %s taken%s%s%s\n", mark, i+1, cyc, l.Thread, SymAddr(c.img, t.PC), sim.IRQName(l.IRQ), land, took, c.timingMark(i))
		return
	}
	_, text := c.m.Disasm(st.before, t.PC)
	fmt.Fprintf(w, "%s %4d  %s thr %d  %-28s %s%s%s%s%s\n", mark, i+1, cyc, l.Thread, SymAddr(c.img, t.PC), text, c.source(t.PC), c.extra(i), OutputNote(st.out), c.timingMark(i))
}

// printSerial prints the bytes the SCI received and sent along the
// counterexample.
func (c *Counterexample) printSerial(w io.Writer) {
	var in, out []byte
	overruns := 0
	for _, st := range c.steps {
		if st.label.Event > 0 && st.after != nil {
			e := c.m.EventInfo(st.before, int(st.label.Event-1))
			switch e.Kind {
			case devices.EvReceive:
				in = append(in, e.Byte)
			case devices.EvOverrun:
				overruns++
			}
		}
		for _, o := range st.out {
			if o.Kind == sim.OutSCI {
				out = append(out, o.Value)
			}
		}
	}
	if !c.m.HasDevice() || len(in) == 0 && len(out) == 0 && overruns == 0 {
		return
	}
	fmt.Fprintf(w, "serial input (SCI received): %s", quoteBytes(in))
	if overruns > 0 {
		fmt.Fprint(w, lostToOverruns(overruns))
	}
	fmt.Fprintf(w, "\nserial output (SCI sent):    %s\n", quoteBytes(out))
}

// lostToOverruns says how many bytes the SCI lost to overruns, after the
// bytes it received.
func lostToOverruns(n int) string {
	return " and " + units.Of(n, "byte") + " lost to overruns"
}

// extra describes a transition beyond its first instruction: how many it
// ran and where the last was, and the nondeterministic choice.
func (c *Counterexample) extra(i int) string {
	st := c.steps[i]
	l := st.label
	s := ""
	if l.Steps > 1 {
		s = fmt.Sprintf("  (%d instructions", l.Steps)
		if st.after != nil {
			last := st.after.Threads[l.Thread].PrevPC
			s += ", the last " + SymAddr(c.img, last) + c.source(last)
		}
		s += ")"
	}
	if l.Choice > 0 {
		s += fmt.Sprintf("  [choice %d]", l.Choice)
	}
	return s
}

func (c *Counterexample) source(pc uint16) string {
	if le, ok := c.img.LineAt(pc); ok {
		return fmt.Sprintf("  %s:%d", shortFile(le.File), le.Line)
	}
	return ""
}

// threadPC is the PC to show for thread i at the violation: for the thread
// that violated a property, the instruction or harness call the violation
// names (the thread's own PC has moved past it).
func (c *Counterexample) threadPC(i int) uint16 {
	t := &c.Final.Threads[i]
	if v := c.Violation; v != nil && v.Thread == i && v.Kind != sim.KindDeadlock && v.Kind != sim.KindReach {
		return v.PC
	}
	return t.PC
}

// status says what thread i is doing at the violation.
func (c *Counterexample) status(i int) string {
	s, t := c.Final, &c.Final.Threads[i]
	st := c.m.ThreadStatus(s, i)
	var parts []string
	if v := c.Violation; v != nil && v.Thread == i && c.threadPC(i) != t.PC {
		what := "violated " + v.Kind.String() + " at this instruction"
		if name, _, _ := c.img.CodeSymbolAt(t.PrevPC); strings.HasPrefix(name, loader.StubPrefix) {
			what = fmt.Sprintf("violated %s at this call of %s", v.Kind, name)
		}
		parts = append(parts, fmt.Sprintf("%s (PC after it: %s)", what, SymAddr(c.img, t.PC)))
	}
	called := ""
	if st.Stub != "" {
		called = fmt.Sprintf(", in %s called from %s", st.Stub, SymAddr(c.img, st.Call))
	}
	switch st.Kind {
	case sim.StatusLocked:
		held := "held by no thread"
		if st.Holder >= 0 {
			held = fmt.Sprintf("held by thread %d", st.Holder)
		}
		parts = append(parts, fmt.Sprintf("blocked on lock %s (%s)%s", memAddr(c.img, st.Lock), held, called))
	case sim.StatusAssume:
		parts = append(parts, "blocked by __mc_assume(0): this path goes no further"+called)
	case sim.StatusShutOut:
		parts = append(parts, fmt.Sprintf("shut out by the atomic section of thread %d", st.Owner))
	case sim.StatusWaiting:
		parts = append(parts, "in WAI, waiting for an interrupt")
	case sim.StatusStopped:
		parts = append(parts, "stopped (STOP), waiting for an interrupt")
	case sim.StatusExited:
		parts = append(parts, "exited")
	default:
		if len(parts) == 0 {
			parts = append(parts, "running"+called)
		}
	}
	if st.Atomic {
		parts = append(parts, "inside an atomic section")
	}
	if st.Critical {
		parts = append(parts, "inside a critical section")
	}
	return strings.Join(parts, "; ")
}

// printThreads prints every thread's registers and status at the violation.
func (c *Counterexample) printThreads(w io.Writer) {
	fmt.Fprintln(w, "threads at the violation:")
	for i := range c.Final.Threads {
		t := &c.Final.Threads[i]
		fmt.Fprintf(w, "  thread %d: %s  %s\n", i, registers(t, c.threadPC(i)), c.status(i))
	}
}

// printMemory prints the bytes the violation involves and the variables
// the trace accessed, with their values at the violation.
func (c *Counterexample) printMemory(w io.Writer) {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	v := c.Violation
	switch {
	case v == nil:
	case v.Kind == sim.KindDeadlock:
		for i := range c.Final.Threads {
			st := c.m.ThreadStatus(c.Final, i)
			if st.Kind != sim.StatusLocked {
				continue
			}
			if len(lines) == 0 {
				add("  the locks the threads wait for:")
			}
			held := "held by no thread"
			if st.Holder >= 0 {
				held = fmt.Sprintf("held by thread %d", st.Holder)
			}
			add("    %-24s %s: %s; thread %d waits for it", memAddr(c.img, st.Lock), formatValue(c.value(c.Final, st.Lock, 1), 1), held, i)
		}
	case v.Kind == sim.KindUnlock || v.Kind == sim.KindROMWrite || v.Kind == sim.KindUnmapped:
		add("  the address the violation names:")
		add("    %-24s %s", memAddr(c.img, v.Addr), formatValue(c.value(c.Final, v.Addr, 1), 1))
	}
	if v != nil && (v.Kind == sim.KindIllegal || v.Kind == sim.KindUnmapped && v.Addr-v.PC < 5) {
		// Only where the PC itself is bad: an illegal opcode, or a fetch
		// from unmapped memory (the address is the PC's, or an operand
		// byte of the instruction there). A data access the instruction
		// after a return makes says nothing about the return address.
		c.badReturn(add)
	}
	if v != nil && v.Thread >= 0 && v.Kind != sim.KindDeadlock {
		c.recentReads(v.Thread, add)
	}
	c.variables(add)
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "memory at the violation:")
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// badReturn says, when the violating thread came to the bad PC by RTS or
// RTI, where that return address came from: the stack bytes it pulled and
// the last store to them along the trace (a buffer overrun, a stack that
// ran into data), or that nothing in the trace wrote them.
func (c *Counterexample) badReturn(add func(string, ...any)) {
	v := c.Violation
	if v.Thread < 0 {
		return
	}
	var own []int // the violating thread's instruction transitions, the last two
	for i := len(c.steps) - 1; i >= 0 && len(own) < 2; i-- {
		if l := c.steps[i].label; l.Thread == v.Thread && l.Event == 0 && l.IRQ < 0 {
			own = append(own, i)
		}
	}
	if len(own) < 2 || c.steps[own[0]].before.Threads[v.Thread].PC != v.PC || c.steps[own[1]].after == nil {
		return
	}
	ret := c.steps[own[1]]
	rt := &ret.before.Threads[v.Thread]
	_, text := c.m.Disasm(ret.before, rt.PC)
	var at uint16 // where the return address was pulled from
	switch {
	case strings.HasPrefix(text, "rts"):
		at = rt.SP + 1
	case strings.HasPrefix(text, "rti"):
		at = rt.SP + 8
	default:
		return
	}
	pulled := c.value(ret.before, at, 2)
	if pulled != ret.after.Threads[v.Thread].PC {
		return // a step of more than one instruction: not this RTS's
	}
	op := strings.ToUpper(text[:3])
	add("  where the bad return address came from:")
	add("    %s at %s pulled 0x%04X from %s-0x%04X", op, SymAddr(c.img, rt.PC), pulled, memAddr(c.img, at), at+1)
	last := -1 // the transition of the last write of either byte, in acc or local
	var by access
	for _, list := range [][]access{c.acc, c.local} {
		for _, a := range list {
			if a.write && a.step < own[1] && a.seq > by.seq && int(a.addr)+int(a.size) > int(at) && a.addr <= at+1 {
				last, by = a.step, a
			}
		}
	}
	if last < 0 {
		add("    nothing along the trace wrote it: the stack held it from the start")
		return
	}
	st := c.steps[last]
	if strings.HasPrefix(by.push, "interrupt ") {
		add("    stacked by %s when it was taken at transition %d", by.push, last+1)
		return
	}
	pc := by.pc
	_, txt := c.m.Disasm(st.before, pc)
	if by.push != "" {
		add("    pushed by the %s of %s at transition %d: %s %s", by.push, who(by.thread, by.ctx), last+1, SymAddr(c.img, pc), txt)
		return
	}
	add("    last written by %s at transition %d: %s %s", who(by.thread, by.ctx), last+1, SymAddr(c.img, pc), txt)
}

// recentReads lists what the context that violated the property read in
// its last recent instructions, and which of those bytes changed since.
func (c *Counterexample) recentReads(thread int, add func(string, ...any)) {
	if len(c.steps) == 0 {
		return
	}
	ctx := c.steps[len(c.steps)-1].ctx
	var mine []access
	for _, a := range c.acc {
		if a.thread == thread && a.ctx == ctx {
			mine = append(mine, a)
		}
	}
	if len(mine) == 0 {
		return
	}
	lastInstr := mine[len(mine)-1].instr
	header := false
	for _, a := range mine {
		if !a.read || lastInstr-a.instr >= recent {
			continue
		}
		if !header {
			add("  what %s read in its last %d instructions:", who(thread, ctx), recent)
			header = true
		}
		name := memAddr(c.img, a.addr)
		if a.size == 2 {
			name = memAddr(c.img, a.addr) + " (2 bytes)"
		}
		changed := ""
		for _, b := range c.acc {
			if b.step > a.step && b.write && overlaps(a, b) {
				changed = fmt.Sprintf("  changed since: written at step %d by %s", b.step+1, who(b.thread, b.ctx))
			}
		}
		add("    step %4d  %-30s read %s%s", a.step+1, name, formatValue(a.before, int(a.size)), changed)
	}
}

func overlaps(a, b access) bool {
	return int(a.addr) < int(b.addr)+int(b.size) && int(b.addr) < int(a.addr)+int(a.size)
}

// varHistory is a variable the trace accessed, with the accesses.
type varHistory struct {
	v             variable
	writes, reads []access
}

// history returns the variables the trace accessed, by address.
func (c *Counterexample) history() []*varHistory {
	byAddr := map[uint16]*varHistory{}
	for _, a := range c.acc {
		for k := 0; k < int(a.size); k++ {
			v, ok := c.variableAt(a.addr + uint16(k))
			if !ok {
				continue
			}
			h := byAddr[v.addr]
			if h == nil {
				h = &varHistory{v: v}
				byAddr[v.addr] = h
			}
			if a.write && (len(h.writes) == 0 || h.writes[len(h.writes)-1] != a) {
				h.writes = append(h.writes, a)
			}
			if a.read && (len(h.reads) == 0 || h.reads[len(h.reads)-1] != a) {
				h.reads = append(h.reads, a)
			}
		}
	}
	var all []*varHistory
	for _, h := range byAddr {
		all = append(all, h)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v.addr < all[j].v.addr })
	return all
}

// notes says who last wrote and read a variable, and how often.
func (h *varHistory) notes() string {
	var notes []string
	var lw access
	if n := len(h.writes); n > 0 {
		lw = h.writes[n-1]
		notes = append(notes, fmt.Sprintf("last written at step %d by %s", lw.step+1, who(lw.thread, lw.ctx)))
	}
	if n := len(h.reads); n > 0 && h.reads[n-1] != lw {
		a := h.reads[n-1]
		notes = append(notes, fmt.Sprintf("last read at step %d by %s", a.step+1, who(a.thread, a.ctx)))
	}
	notes = append(notes, fmt.Sprintf("%s, %s", count(len(h.writes), "write"), count(len(h.reads), "read")))
	return strings.Join(notes, "; ")
}

// variables lists the variables the trace accessed, their values at the
// violation, and the last writes and reads.
func (c *Counterexample) variables(add func(string, ...any)) {
	all := c.history()
	if len(all) == 0 {
		return
	}
	width := 0
	for _, h := range all {
		width = max(width, len(h.v.name))
	}
	add("  variables the trace read or wrote:")
	for _, h := range all {
		add("    %-*s  0x%04X  %-14s %s", width, h.v.name, h.v.addr, formatValue(c.value(c.Final, h.v.addr, h.v.size), h.v.size), h.notes())
	}
}

// WriteListing writes the counterexample as check shows it: one line per
// transition, marking thread switches, then the threads and memory at the
// violation (WriteExplanation).
func (c *Counterexample) WriteListing(w io.Writer) {
	fmt.Fprintf(w, "counterexample: %d transitions\n", c.labels)
	if c.WriteSteps(w) {
		c.WriteExplanation(w)
	}
}

// WriteSteps writes the transitions of the counterexample as
// WriteListing does, each with the global time (the cycles of every
// thread and handler, sim.State.Now) before it, and for a timing
// violation the marks where its interval starts and ends. It reports
// whether the trace replayed.
func (c *Counterexample) WriteSteps(w io.Writer) bool {
	prev := -1
	for i := 0; i < len(c.steps); i++ {
		if p, n := c.foldAt(i); !c.Full && n > 0 {
			// The loop once, then what it did the other times.
			for j := i; j < i+p; j++ {
				c.stepLine(w, j, prev)
				prev = c.steps[j].label.Thread
			}
			st := c.steps[i]
			fmt.Fprintf(w, "   %4d–%d  thr %d  the loop at %s (%d transitions) %s more times (--full lists them)\n",
				i+p+1, i+p*(n+1), st.label.Thread, SymAddr(c.img, st.before.Threads[st.label.Thread].PC), p, commas(n))
			i += p*(n+1) - 1
			prev = c.steps[i].label.Thread
			continue
		}
		c.stepLine(w, i, prev)
		prev = c.steps[i].label.Thread
	}
	if c.Err != nil || c.Final == nil {
		fmt.Fprintf(w, "  (the trace did not replay: %v — this is a bug in hc11mc)\n", c.Err)
		return false
	}
	return true
}

// timingMark is what a line of the listing says of a timing violation's
// interval: where it starts (the first step counted in it) and where it
// ends (the last step, at the violation).
func (c *Counterexample) timingMark(i int) string {
	v := c.Violation
	if v == nil || v.To == 0 && v.From == 0 || c.steps[i].after == nil {
		return ""
	}
	before := c.steps[i].before.Now()
	// inside: the interval starts during step j (a chip's source's flag
	// set at a cycle inside an instruction).
	inside := func(j int) bool {
		st := &c.steps[j]
		return st.after != nil && st.before.Now() < v.From && v.From < st.after.Now()
	}
	s := ""
	switch {
	case inside(i):
		s = fmt.Sprintf("  <- interval starts (cycle %d, inside this instruction)", v.From)
	case before >= v.From && (i == 0 || c.steps[i-1].before.Now() < v.From || c.steps[i-1].after == nil) && !(i > 0 && inside(i-1)):
		s = fmt.Sprintf("  <- interval starts (cycle %d)", v.From)
	}
	if i == len(c.steps)-1 {
		s += fmt.Sprintf("  <- interval ends: %d cycles (%d to %d)", v.To-v.From, v.From, v.To)
	}
	return s
}

// The folding of loops in a listing: a run of transitions that repeats a
// block of at most foldPeriod of them — the same thread at the same PCs,
// no environment event, interrupt or output — folds when it comes round
// at least foldMin times and the repeats would take more than foldLines
// lines. The registers may differ from round to round (a counter): the
// listing shows the first round, and the state at the end shows where
// the loop left them.
const (
	foldPeriod = 32
	foldMin    = 4
	foldLines  = 24
)

// foldAt returns the period p of a loop that starts at transition i and
// the number n of times it comes round again after the first; n is 0
// when there is nothing to fold.
func (c *Counterexample) foldAt(i int) (p, n int) {
	plain := func(j int) bool {
		st := &c.steps[j]
		return st.label.Event == 0 && st.label.IRQ < 0 && len(st.out) == 0 && st.after != nil
	}
	same := func(a, b int) bool {
		sa, sb := &c.steps[a], &c.steps[b]
		return sa.label.Thread == sb.label.Thread && sa.ctx == sb.ctx &&
			sa.before.Threads[sa.label.Thread].PC == sb.before.Threads[sb.label.Thread].PC
	}
	for p := 1; p <= foldPeriod && i+2*p <= len(c.steps); p++ {
		ok := true
		for j := i; j < i+p && ok; j++ {
			ok = plain(j)
		}
		if !ok {
			continue
		}
		// The last transition, where a violation is (and a timing
		// violation's interval ends), is never folded.
		k := i + p
		for k < len(c.steps)-1 && plain(k) && same(k, k-p) {
			k++
		}
		if reps := (k - i) / p; reps >= foldMin && (reps-1)*p > foldLines {
			return p, reps - 1
		}
	}
	return 0, 0
}

// commas writes n with thousands separated: 12,345.
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// WriteExplanation writes what the counterexample leaves at the violation:
// the bytes the SCI received and sent, every thread's registers and
// status, and the memory that matters. The trace must have replayed
// (Final is not nil).
func (c *Counterexample) WriteExplanation(w io.Writer) {
	c.printSerial(w)
	c.printThreads(w)
	c.printMemory(w)
}

// Check reports why the replay does not reproduce recorded, the violation
// a trace file records (nil: any violation at the end); nil when it does.
func (c *Counterexample) Check(recorded *Violation) error {
	v := c.Violation
	switch {
	case c.Err != nil:
		return c.Err
	case v == nil && recorded != nil:
		return fmt.Errorf("no violation at the end (expected %s)", recorded.Kind)
	case v == nil:
		return errors.New("no violation at the end")
	case recorded != nil && (v.Kind.String() != recorded.Kind || fmt.Sprintf("0x%04X", v.PC) != recorded.PC):
		return fmt.Errorf("got %s at 0x%04X, expected %s at %s", v.Kind, v.PC, recorded.Kind, recorded.PC)
	}
	return nil
}

// entryNote says why an interrupt's entry into a thread in status st
// takes other than 14 cycles.
func entryNote(st uint8) string {
	switch st {
	case sim.Waiting:
		return ", the vector: WAI stacked the frame"
	case sim.Stopped:
		return ", with the restart after STOP"
	}
	return ""
}
