package gdbremote

import (
	"fmt"

	"github.com/hc11mc/hc11mc/sim"
)

// Live is a run of firmware that GDB drives (run --gdb): the run `hc11mc
// run` makes with the same options, executed one attempt of a thread at a
// time (sim.Session) only when GDB resumes it, stopped at the reset
// vector to begin with.
//
// Its history is not stored: the run is deterministic given its options
// (the random source created anew for each start) and GDB's writes, which
// Live logs with the position they were made at. A position is the
// number of attempts since reset. Going back (bs, bc) runs the firmware
// again, quietly, once to find where the backward move stops and once to
// get there: from a checkpoint, a copy of the run (sim.Session.Clone)
// kept every so many positions — the nearest before the position, then,
// when the move goes further back, the one before — or, under a random
// source, which a copy cannot take along, from reset. A write at a
// position drops the writes logged after it and the checkpoints from
// there on: the run's future is what follows from the new state.
type Live struct {
	m       *sim.Machine
	options func() sim.RunOptions
	// Explain describes a violation for GDB's console; nil: the
	// violation's own text.
	Explain func(*sim.Violation) string

	se     *sim.Session
	pos    int  // attempts since reset
	high   int  // the furthest position reached: outputs are told there only
	quiet  bool // running again toward a position: no output is told
	writes []liveWrite
	// cps are the checkpoints, in increasing positions, every every
	// positions (0: none are taken).
	cps   []checkpoint
	every int
	saved []byte // the watched bytes before a move (watched)
	// access is the operand access of the move about to be made, when
	// read or access watchpoints need it (watched).
	access    sim.Access
	hasAccess bool
}

// checkpoint is the run at a position, the writes made there included.
type checkpoint struct {
	pos int
	se  *sim.Session
}

// checkpointEvery is the first spacing of the checkpoints, in positions;
// past maxCheckpoints of them, every other one is dropped and the spacing
// doubles, so that they take a bounded share of memory however long the
// run goes.
const (
	checkpointEvery = 1 << 14
	maxCheckpoints  = 256
)

// liveWrite is a write GDB made: a register of a thread (reg >= 0) or a
// byte of memory.
type liveWrite struct {
	pos    int
	thread int
	reg    int
	v      uint16
	addr   uint16
}

// NewLive starts the run of m that options describes (called at every
// start from reset, it returns equal options with a new random source, if
// any), stopped before its first instruction. Its Output function is
// told of each output the first time the run reaches it, not again when
// the run goes back and forth; its Trace and Stop are not used.
func NewLive(m *sim.Machine, options func() sim.RunOptions) *Live {
	l := &Live{m: m, options: options, every: checkpointEvery}
	l.restart()
	return l
}

// restart starts the run again from reset, at position 0 with the writes
// made there.
func (l *Live) restart() {
	o := l.options()
	if out := o.Output; out != nil {
		o.Output = func(x sim.Output) {
			if !l.quiet && l.pos >= l.high {
				out(x)
			}
		}
	}
	l.pos = 0
	l.se = l.m.NewSession(l.m.Initial(), o)
	l.apply()
}

// mark takes a checkpoint where one is due: at a multiple of the spacing
// past the last one.
func (l *Live) mark() {
	if l.every == 0 || l.pos%l.every != 0 || len(l.cps) > 0 && l.cps[len(l.cps)-1].pos >= l.pos {
		return
	}
	se, ok := l.se.Clone()
	if !ok {
		l.every, l.cps = 0, nil // a random source: back from reset
		return
	}
	l.cps = append(l.cps, checkpoint{l.pos, se})
	if len(l.cps) > maxCheckpoints {
		l.every *= 2
		kept := l.cps[:0]
		for _, c := range l.cps {
			if c.pos%l.every == 0 {
				kept = append(kept, c)
			}
		}
		clear(l.cps[len(kept):])
		l.cps = kept
	}
}

// from goes, quietly, to the last checkpoint before position p (p > 0),
// or to reset.
func (l *Live) from(p int) {
	for i := len(l.cps) - 1; i >= 0; i-- {
		if c := l.cps[i]; c.pos < p {
			l.se, _ = c.se.Clone() // the checkpoint stays as it is
			l.pos = c.pos
			return
		}
	}
	l.restart()
	l.mark()
}

// step makes one attempt; it returns the thread that attempted and
// whether it moved. The writes logged at the new position are the
// caller's to make (apply), after it has compared the state with the
// one before: a watchpoint sees the firmware's writes, not GDB's.
func (l *Live) step() (int, bool) {
	t, moved := l.se.Step()
	l.pos++
	l.high = max(l.high, l.pos)
	return t, moved
}

// apply makes the writes logged at the current position.
func (l *Live) apply() {
	for _, w := range l.writes {
		if w.pos == l.pos {
			l.write(w)
		}
	}
}

// write makes one write on the current state.
func (l *Live) write(w liveWrite) {
	s := l.se.State()
	if w.reg < 0 {
		l.m.PokeMem(s, w.addr, uint8(w.v))
		return
	}
	th := &s.Threads[w.thread]
	switch w.reg {
	case regX:
		th.X = w.v
	case regD:
		th.SetD(w.v)
	case regY:
		th.Y = w.v
	case regSP:
		th.SP = w.v
	case regPC:
		th.PC = w.v
	case regA:
		th.A = uint8(w.v)
	case regB:
		th.B = uint8(w.v)
	case regCCR:
		th.CCR = uint8(w.v)
	}
}

// log records a write at the current position and makes it: the writes
// logged after this position are dropped, and the outputs from here on
// are told again (the run's future changes).
func (l *Live) log(w liveWrite) {
	w.pos = l.pos
	kept := l.writes[:0]
	for _, o := range l.writes {
		if o.pos <= l.pos {
			kept = append(kept, o)
		}
	}
	l.writes = append(kept, w)
	l.high = l.pos
	l.write(w)
	for i, c := range l.cps {
		if c.pos >= l.pos {
			clear(l.cps[i:])
			l.cps = l.cps[:i]
			break
		}
	}
}

// goTo runs the firmware again, quietly, from the last checkpoint at or
// before position p (or reset) to p.
func (l *Live) goTo(p int) {
	l.quiet = true
	defer func() { l.quiet = false }()
	l.from(p + 1)
	for l.pos < p && !l.se.Done() {
		l.step()
		l.apply()
		l.mark()
	}
}

func (l *Live) machine() *sim.Machine { return l.m }
func (l *Live) state() *sim.State     { return l.se.State() }
func (l *Live) position() int         { return l.pos }
func (l *Live) reverse() bool         { return true }
func (l *Live) reads() bool           { return true }

// firstThread is the thread about to move.
func (l *Live) firstThread() int {
	if t, ok := l.se.Next(); ok {
		return t
	}
	return 0
}

// describe says how far the run is and what comes next.
func (l *Live) describe() string {
	res := l.se.Result()
	head := fmt.Sprintf("%d instructions, %d cycles", res.Steps, res.Cycles)
	if l.se.Done() {
		if v := res.Violation; v != nil {
			return head + ": the run ended at a violation: " + l.explain(v)
		}
		return head + ": the run ended: " + res.Reason
	}
	t, _ := l.se.Next()
	return fmt.Sprintf("%s: thread %d is about to execute the instruction at 0x%04X", head, t, l.se.State().Threads[t].PC)
}

// explain describes violation v.
func (l *Live) explain(v *sim.Violation) string {
	if l.Explain != nil {
		return l.Explain(v)
	}
	return v.Error()
}

// setRegister writes a register of a live thread.
func (l *Live) setRegister(t, n int, v uint16) bool {
	if n == regPage || t < 0 || t >= len(l.se.State().Threads) {
		return false
	}
	l.log(liveWrite{thread: t, reg: n, v: v})
	return true
}

// writeMemory writes RAM; it refuses every other address (read-only
// memory, the register block, the input registers, unmapped space),
// writing nothing then.
func (l *Live) writeMemory(a uint16, data []byte) error {
	s := l.se.State()
	for i := range data {
		if x := a + uint16(i); !l.m.RAMAt(s, x) && l.m.ReadMem(s, x) != data[i] {
			return fmt.Errorf("0x%04X is not RAM (read-only memory, the register block, an input register or unmapped): GDB writes RAM only", x)
		}
	}
	for i, b := range data {
		if x := a + uint16(i); l.m.RAMAt(s, x) {
			l.log(liveWrite{reg: -1, addr: x, v: uint16(b)})
		}
	}
	return nil
}

// signal is the signal a violation stops GDB with, as GDB numbers them:
// SIGILL for an illegal opcode, SIGSEGV for a write to read-only memory,
// an access to unmapped memory or a stack overflow, SIGALRM for the
// timing properties and the COP's timeout, SIGTRAP for a goal reached,
// SIGABRT for the rest (asserts, error(), deadlocks, locks misused).
func signal(k sim.Kind) int {
	switch k {
	case sim.KindIllegal:
		return sigILL
	case sim.KindROMWrite, sim.KindUnmapped, sim.KindStack:
		return sigSEGV
	case sim.KindWatchdog, sim.KindMasked, sim.KindDeadline, sim.KindLatency:
		return sigAlrm
	case sim.KindReach, sim.KindOutput:
		return sigTrap
	}
	return sigAbrt
}

// end is the stop at the end of the run: the violation's signal and
// description, or SIGTRAP and why the run stopped.
func (l *Live) end(t int) stop {
	res := l.se.Result()
	st := stop{thread: t}
	if v := res.Violation; v != nil {
		if v.Thread >= 0 && v.Thread < len(l.se.State().Threads) {
			st.thread = v.Thread
		}
		st.signal = signal(v.Kind)
		st.msg = fmt.Sprintf("hc11mc: violation %s after %d instructions (%d cycles): %s\n", v.Kind, res.Steps, res.Cycles, l.explain(v))
		return st
	}
	st.msg = fmt.Sprintf("hc11mc: the run ended after %d instructions (%d cycles): %s\n", res.Steps, res.Cycles, res.Reason)
	return st
}

// cycles is thread t's cycle count, which grows when it executes an
// instruction or takes an interrupt.
func (l *Live) cycles(t int) uint64 {
	ts := l.se.State().Threads
	if t < 0 || t >= len(ts) {
		return 0
	}
	return ts[t].Cycles
}

// resume runs the firmware forward as GDB asks, or goes back. Forward, a
// step of thread q.thread ends after its next move (an instruction, or
// an interrupt's entry on it), the other threads running meanwhile as
// the run schedules them; every resume ends where a thread is about to
// execute an instruction at a breakpoint (the position resumed from
// aside), after a move that changes a watched byte, at GDB's interrupt
// (SIGINT), and at the end of the run (a violation's signal). Backward,
// it ends at the last position before this one where a forward resume
// would have stopped — before the step, the instruction at the
// breakpoint, the move that changed the watched byte — or at reset.
func (l *Live) resume(q *request) stop {
	if q.back {
		return l.back(q)
	}
	start := l.pos
	for n := 0; ; n++ {
		t, ok := l.se.Next()
		if !ok {
			return l.end(q.thread)
		}
		if l.pos > start && q.bps[l.se.State().Threads[t].PC] {
			return stop{thread: t, bp: true}
		}
		if n%1024 == 1023 && q.interrupted() {
			return stop{thread: t, signal: sigInt}
		}
		if st, ok := l.move(q, t); ok {
			return st
		}
	}
}

// move makes the run's next move, thread t's, and reports whether a
// forward resume of q stops after it: at a watchpoint the move
// triggered, or at the end of q's step.
func (l *Live) move(q *request, t int) (stop, bool) {
	l.watched(q, t)
	c := l.cycles(q.thread)
	mover, moved := l.step()
	w, written := l.changed(q, moved)
	l.apply()
	l.mark()
	switch {
	case written:
		return stop{thread: mover, extra: w.reply()}, true
	case q.step && (moved && mover == q.thread || l.cycles(q.thread) != c):
		return stop{thread: q.thread}, true
	}
	return stop{}, false
}

// watched keeps the bytes q watches and, for read and access
// watchpoints, the operand access of thread t's next instruction, for
// changed to compare with after the move.
func (l *Live) watched(q *request, t int) {
	l.saved = l.saved[:0]
	l.hasAccess = false
	s := l.se.State()
	for _, w := range q.watches {
		if w.kind != watchWrite && !l.hasAccess {
			l.access, l.hasAccess = l.m.NextAccess(s, t)
		}
		for k := 0; k < w.n; k++ {
			l.saved = append(l.saved, l.m.ReadMem(s, w.addr+uint16(k)))
		}
	}
}

// changed reports the first watchpoint of q the move just made (moved:
// the thread executed) triggers: a write or access watchpoint whose
// bytes changed, a read watchpoint whose bytes the instruction's operand
// read, an access watchpoint whose bytes it read or wrote. Reads and
// writes are the operand's (sim.Machine.NextAccess): a stack pull or an
// interrupt's frame is not one, though a write watchpoint sees what it
// changes.
func (l *Live) changed(q *request, moved bool) (watch, bool) {
	s, i := l.se.State(), 0
	for _, w := range q.watches {
		diff := false
		for k := 0; k < w.n; k++ {
			diff = diff || l.m.ReadMem(s, w.addr+uint16(k)) != l.saved[i]
			i++
		}
		a := l.access
		touched := moved && l.hasAccess && w.covers(a)
		switch {
		case w.kind == watchWrite && diff,
			w.kind == watchRead && touched && a.Read,
			w.kind == watchAccess && (diff || touched):
			return w, true
		}
	}
	return watch{}, false
}

// back finds, running again from the checkpoints back, the last position
// before this one where a forward resume stops, and goes there.
func (l *Live) back(q *request) stop {
	l.quiet = true
	defer func() { l.quiet = false }()
	for hi := l.pos; hi > 0; {
		l.from(hi)
		lo := l.pos
		best, st := -1, stop{}
		for l.pos < hi && !l.se.Done() {
			i := l.pos
			t, _ := l.se.Next()
			hit := q.bps[l.se.State().Threads[t].PC]
			if moved, ok := l.move(q, t); ok {
				best, st = i, moved
			} else if hit {
				best, st = i, stop{thread: t, bp: true}
			}
		}
		if best >= 0 {
			l.goTo(best)
			return st
		}
		hi = lo
	}
	l.goTo(0)
	return stop{thread: q.thread, extra: "replaylog:begin;"}
}

// Result is the run's result at the current position: the instructions
// and cycles so far, and after the end its violation or why it stopped.
func (l *Live) Result() sim.RunResult { return l.se.Result() }

// Done reports whether the run has ended at the current position.
func (l *Live) Done() bool { return l.se.Done() }
