package sim

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/hc11mc/hc11mc/devices"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// RunOptions control a plain simulation along one schedule.
type RunOptions struct {
	Steps uint64     // stop after this many instructions (0: no bound)
	Rand  *rand.Rand // nil: lowest-numbered enabled thread, nondet value 0, no interrupt unless needed
	Trace io.Writer  // one line per instruction, before it executes; nil for none
	// Visit, when not nil, is told the PC of every instruction before it
	// executes (as Trace is, without the formatting): the run then
	// executes one instruction at a time.
	Visit func(pc uint16)
	// With a device: the bytes the SCI receives, in order, each when the
	// firmware waits for one (wait.go); a function told of every output
	// (bytes the SCI sends, port and board writes) as it happens; and one
	// told of every event of the environment the run makes.
	SCIInput []byte
	Output   func(Output)
	Event    func(devices.EventInfo)
	// Input, when not nil, is asked for the next byte when the firmware
	// waits for one and SCIInput is used up (a terminal's next key); it
	// may block, and false means there is none to come.
	Input func() (byte, bool)
	// Stop, when not nil, is asked every 1,024 instructions or so whether
	// to stop the run (an interrupt at the terminal).
	Stop func() bool
}

// RunResult is how a run ended.
type RunResult struct {
	Steps     uint64
	Cycles    uint64 // E cycles, time spent waiting in WAI included
	Violation *Violation
	Reason    string // why the run stopped when there is no violation
	// Received is how many bytes of RunOptions.SCIInput the SCI received.
	Received int
}

// Run simulates s along one schedule, changing s. Without a random source
// it runs the lowest-numbered thread that can move, takes nondeterministic
// value 0, and takes an interrupt only when no thread can move otherwise;
// with one, every choice is random. It stops at a violation, when all
// threads have exited, at a deadlock, at an infeasible __mc_assume, after
// opts.Steps instructions, or, with a device, when the firmware waits
// with nothing left to come (runEnv).
func (m *Machine) Run(s *State, opts RunOptions) RunResult {
	var r runner
	r.init(m, s, opts)
	r.loop()
	r.finish()
	return r.res
}

// init sets r up to run s on m with opts.
func (r *runner) init(m *Machine, s *State, opts RunOptions) {
	*r = runner{m: m, s: s, opts: opts}
	r.x = stepper{m: m, s: s, lay: m.layoutOf(s)}
	r.res.Cycles = threadCycles(s)
	if m.dev != nil {
		r.x.fx = &r.fx
		r.env = m.newRunEnv(s, opts, r.res.Cycles)
	}
}

// finish completes the result of a run that ended.
func (r *runner) finish() {
	m, s, opts := r.m, r.s, &r.opts
	if r.env != nil {
		r.res.Received = r.env.received
	}
	if v := r.res.Violation; v != nil && v.Kind != KindWatchdog && r.env != nil && opts.Output != nil {
		// The transmitter goes on after the CPU stops: the byte
		// waiting in TDR still leaves on the line. Not after the
		// COP's timeout, a reset: it resets the SCI (TE clears) and
		// the byte is lost.
		for _, v := range m.QueuedOutput(s) {
			opts.Output(Output{Kind: OutSCI, Value: v})
		}
	}
}

// runner is one Run: the state it changes, the stepper that runs its
// threads, the outputs of the step not yet told, and, with a device, the
// environment of the run (nil without).
type runner struct {
	m       *Machine
	s       *State
	opts    RunOptions
	x       stepper
	fx      []Output
	env     *runEnv
	res     RunResult
	cur     int   // the thread that ran last
	order   []int // scratch for runOrder
	askStop uint64
}

// loop runs rounds until the run ends: in each the environment moves,
// then one thread steps, or, when none can, an interrupt is taken or
// time passes while every thread sleeps.
func (r *runner) loop() {
	for r.opts.Steps == 0 || r.res.Steps < r.opts.Steps {
		over, done := r.head()
		if done {
			return
		}
		if over {
			continue
		}
		moved, done := r.pick()
		if done {
			return
		}
		if moved {
			continue
		}
		if r.tail() {
			return
		}
	}
	r.end(r.cur, "stopped at the --steps bound")
}

// head is the start of a round: the question whether to stop, the
// environment's move, and with a random source perhaps an interrupt;
// over when that interrupt was taken (the round is over), done when the
// run ends.
func (r *runner) head() (over, done bool) {
	m, s, opts := r.m, r.s, &r.opts
	if opts.Stop != nil && r.res.Steps >= r.askStop {
		r.askStop = r.res.Steps + 1024
		if opts.Stop() {
			r.end(r.cur, "stopped by an interrupt")
			return false, true
		}
	}
	if r.env != nil && r.before() {
		return false, true
	}
	if opts.Rand != nil && len(m.irqs) > 0 && opts.Rand.IntN(16) == 0 {
		c := threadCycles(s)
		taken, v := m.randomInterrupt(s, opts.Rand)
		r.res.Cycles += threadCycles(s) - c
		if r.entered(v) {
			return false, true
		}
		if taken {
			return true, false
		}
	}
	return false, false
}

// tail ends a round in which no thread could move: an interrupt is
// taken, or time passes (idle); true when the run ends.
func (r *runner) tail() bool {
	if taken, v := r.m.anyInterrupt(r.s, r.opts.Rand, &r.res); r.entered(v) {
		return true
	} else if taken {
		return false
	}
	return r.idle()
}

// entered ends the run at an interrupt entry's violation v (its frame
// pushed into ROM or past a --stack bound): true when it did. The entry
// is a step of the run as an instruction is: the run stops there, as
// check's path does, not at whatever the garbled frame leads to later.
func (r *runner) entered(v *Violation) bool {
	if v == nil {
		return false
	}
	r.res.Violation = v
	i := v.Thread
	if i < 0 {
		i = r.cur
	}
	r.end(i, "")
	return true
}

// end ends the run after thread i's move, for reason unless it is
// empty (at a violation).
func (r *runner) end(i int, reason string) {
	if reason != "" {
		r.res.Reason = reason
	}
	r.m.finalLine(r.opts.Trace, r.s, i, r.res.Cycles)
}

// flush tells the environment and the caller of the outputs so far.
func (r *runner) flush() {
	if r.env != nil && len(r.fx) > 0 {
		r.env.saw(r.s, r.fx, r.res.Cycles)
	}
	if r.opts.Output != nil {
		for _, o := range r.fx {
			r.opts.Output(o)
		}
	}
	r.fx = r.fx[:0]
}

// before is the device's move ahead of a round: the events due, then its
// pending interrupt; true when the run ends at a violation.
func (r *runner) before() bool {
	m, s := r.m, r.s
	v := r.env.due(s, &r.fx, r.res.Steps, r.res.Cycles)
	r.flush()
	if v == nil {
		c := threadCycles(s)
		v = m.runDeviceInterrupt(s, &r.fx)
		r.res.Cycles += threadCycles(s) - c // the entry's cycles
		r.flush()
	}
	if v != nil {
		r.res.Violation = v
		r.end(r.cur, "")
		return true
	}
	r.x.lay = m.layoutOf(s)
	return false
}

// pick runs the thread the schedule picks: the current one while it can
// run (without a random source it is the lowest-numbered that can), else
// the next; moved is false when none could, done true when the run ends.
func (r *runner) pick() (moved, done bool) {
	r.order = r.m.runOrder(r.s, r.opts.Rand, r.cur, r.order[:0])
	for _, i := range r.order {
		blocked, done := r.attempt(i)
		if !blocked {
			return true, done
		}
	}
	return false, false
}

// attempt runs thread i one step (or, where nothing else can change the
// schedule, several: steps); blocked when it could not move, done when
// the run ends.
func (r *runner) attempt(i int) (blocked, done bool) {
	m, s, opts, x := r.m, r.s, &r.opts, &r.x
	x.t, x.tid = &s.Threads[i], i
	x.radix, x.choice = 1, 0
	if opts.Rand != nil {
		x.choice = opts.Rand.Uint64()
	}
	if opts.Trace != nil {
		m.traceLine(opts.Trace, s, i, r.res.Cycles)
	}
	if opts.Visit != nil {
		opts.Visit(s.Threads[i].PC)
	}
	before, ccr := x.t.Cycles, x.t.CCR
	x.c0 = before
	ev := r.steps(i, before, ccr)
	t := &s.Threads[i]
	r.res.Cycles += t.Cycles - before
	if ev != evBlocked && (t.Inhibit != 0 || ccr&^t.CCR&isa.FlagI != 0) {
		m.inhibitAfter(s, t, ccr)
	}
	if r.env != nil {
		var stop bool
		if ev, stop = r.after(i, ev); stop {
			return false, true
		}
	}
	switch ev {
	case evBlocked:
		r.res.Steps--
		return true, false
	case evViolation:
		r.res.Violation = x.violation()
		r.end(i, "")
		return false, true
	case evInfeasible:
		r.end(i, fmt.Sprintf("thread %d called __mc_assume with A = 0: the path is infeasible", i))
		return false, true
	}
	if m.hasGoals && m.isGoal(t.PC) {
		x.fault(KindReach, t.PC, t.PC, "reached the goal at 0x%04X", t.PC)
		r.res.Violation = x.violation()
		r.end(i, "")
		return false, true
	}
	r.cur = i
	return false, false
}

// steps runs thread i (its cycles before and CCR ccr at the start) one
// step, and then, where nothing else can change the schedule and nothing
// watches each instruction, on back to back.
func (r *runner) steps(i int, before uint64, ccr uint8) event {
	m, s, opts, x := r.m, r.s, &r.opts, &r.x
	ev := x.step()
	r.res.Steps++
	if ev != evOK || opts.Trace != nil || opts.Visit != nil || opts.Rand != nil {
		return ev
	}
	if r.env != nil {
		if x.io || (ccr&^x.t.CCR)&isa.FlagI != 0 || m.hasGoals || !m.fastOK(s, i) {
			return ev
		}
		// The device changes only by the firmware's accesses to its
		// registers, by the environment's events and, while it counts
		// cycles, at its horizon: until the next event is due, run
		// instructions back to back, up to one that accesses a register
		// or may clear I (runEnv.batch). The cycles are counted at a
		// register access (catchUp) and after the batch.
		limit := r.env.batch(r.res.Steps, r.res.Cycles+x.t.Cycles-before, opts.Steps)
		if m.clocked(s) {
			h, spent := m.horizon(s), x.t.Cycles-before
			limit = min(limit, (h-min(h, spent))/maxInstCycles)
		}
		if limit > 0 {
			var n uint64
			x.batch = m.clocked(s)
			n, ev = x.steps(limit)
			x.batch = false
			r.res.Steps += n
		}
		return ev
	}
	if !m.fastOK(s, i) {
		return ev
	}
	// Nothing but this thread's own instructions can change the schedule
	// until the next call, harness call or violation: run them back to
	// back.
	limit := ^uint64(0)
	if opts.Steps != 0 {
		limit = opts.Steps - r.res.Steps
	}
	var n uint64
	if m.hasGoals {
		for ev == evOK && n < limit && !m.isGoal(x.t.PC) {
			ev = x.step()
			n++
		}
	} else {
		n, ev = x.steps(limit)
	}
	r.res.Steps += n
	return ev
}

// after is the device's side of thread i's move that ended in ev: it
// learns the cycles, its outputs are told, and a firmware that waits
// (wait.go) gets what it waits for, or the run stops (stop).
func (r *runner) after(i int, ev event) (_ event, stop bool) {
	m, s, x, env := r.m, r.s, &r.x, r.env
	t := &s.Threads[i]
	if ev != evBlocked && ev != evViolation && ev != evInfeasible && m.clocked(s) {
		if v := m.elapse(s, i, t.Cycles-x.c0, &r.fx); v != nil {
			x.viol, ev = *v, evViolation
		}
		if !m.clocked(s) {
			// The device stopped counting cycles (the first 64 are
			// over, the COP is off): a state kept to find a loop still
			// counted them, and instructions now run in batches, a
			// state seen after each.
			env.cf.reset()
		}
	}
	io := x.io
	x.io = false
	x.lay = m.layoutOf(s)
	r.flush()
	if ev != evOK && ev != evSched {
		return ev, false
	}
	env.cf.obs |= x.obs
	env.cf.choice = env.cf.choice || x.radix > 1
	x.obs = 0
	if (io || r.res.Steps%1024 == 1023) && env.cf.sample(m, s) {
		stop, v := env.waiting(s, i, &r.fx)
		r.flush()
		if stop {
			r.res.Violation = v
			reason := ""
			if v == nil {
				reason = r.interrupted(env.reason)
			}
			r.end(i, reason)
			return ev, true
		}
	}
	return ev, false
}

// interrupted is the reason a run ends for whose input ended: reason,
// unless the input ended because the run was interrupted (run --terminal,
// Ctrl-C).
func (r *runner) interrupted(reason string) string {
	if r.opts.Stop != nil && r.opts.Stop() {
		return "stopped by an interrupt"
	}
	return reason
}

// idle is the run's move when no thread can move and no interrupt is
// taken: with a device, time passes while every thread sleeps (WAI,
// STOP) until the transmitter finishes, the next byte arrives, or a
// timer source fires; otherwise the run ends (true).
func (r *runner) idle() bool {
	m, s := r.m, r.s
	if r.env != nil {
		woke, v := r.env.sleep(s, &r.fx, &r.res.Cycles)
		r.flush()
		if v != nil {
			r.res.Violation = v
			r.end(r.cur, "")
			return true
		}
		if woke {
			return false
		}
	}
	live := false
	for i := range s.Threads {
		live = live || s.Threads[i].Status != Exited
	}
	switch {
	case live && m.events(s) > 0:
		r.end(r.cur, r.interrupted("the firmware waits in WAI or STOP: "+r.env.left(s)+r.env.quietNote()))
	case live:
		r.res.Violation = m.deadlock(s)
		r.end(r.cur, "")
	default:
		r.end(r.cur, "every thread has exited")
	}
	return true
}

// threadCycles is the E cycles the threads of s have run, interrupt
// entries (entry.go: 14, nine bytes stacked and the vector fetched; 2
// from WAI; more from STOP) included.
func threadCycles(s *State) uint64 {
	var n uint64
	for i := range s.Threads {
		n += s.Threads[i].Cycles
	}
	return n
}

// quietTicks is how many timer events a plain simulation lets pass while
// the firmware waits for input that will not come and sends nothing.
const quietTicks = 256

// runEnv is the environment of a plain simulation of firmware with its
// peripherals: the person at the terminal and the clock. The next byte
// of the input arrives when the firmware waits for the receiver and its
// output has gone, as a person types who reads what the firmware prints;
// the transmitter takes a frame's time at the rate the firmware
// programmed for each byte, so that output paces the firmware as on the
// board; a timer source fires every 1024 instructions (the sources take
// turns), or at once when the firmware waits for the timer; and the run
// stops when the firmware waits with nothing left to come.
type runEnv struct {
	m        *Machine
	feed     []byte
	input    func() (byte, bool) // RunOptions.Input
	ended    bool                // Input said there is no more
	received int
	cf       cycleFinder
	busy     bool   // the transmitter is sending a byte
	txDue    uint64 // the cycle at which it finishes
	quiet    int    // timer events let pass for a wait since the firmware last sent or received
	ticks    int    // timer events made so far
	// lineWaits counts the waits in a row, under the exact clock, in
	// which the next byte could not come yet (maxLineWaits ends them).
	lineWaits int
	event     func(devices.EventInfo)
	reason    string // why the run stops
}

// maxLineWaits bounds the waits in a row run lets pass under the exact
// clock for the line to carry the next byte: the loop found again each
// time runs at least one more instruction, and a frame is at most
// 2^17 E cycles (BAUD's slowest rate), so a receiver that is on takes a
// byte long before; one that is off never does.
const maxLineWaits = 1 << 12

func (m *Machine) newRunEnv(s *State, opts RunOptions, now uint64) *runEnv {
	e := &runEnv{m: m, feed: opts.SCIInput, input: opts.Input, event: opts.Event}
	e.cf.reset()
	e.cf.blind = m.Config.ExactClock
	if busy, frame := m.sending(s); busy {
		e.busy, e.txDue = true, now+frame
	}
	return e
}

// saw notes the outputs of a transition that ended at cycle now: a byte
// entering the transmitter's shift register occupies it for a frame.
func (e *runEnv) saw(s *State, fx []Output, now uint64) {
	e.quiet = 0
	e.cf.out = true
	for _, o := range fx {
		if o.Kind == OutSCI {
			_, frame := e.m.sending(s)
			e.busy, e.txDue = true, now+frame
		}
	}
}

// make makes the first event of s of kind k (for a byte received, the
// byte b), reporting whether there was one.
func (e *runEnv) make(s *State, k devices.EventKind, b byte, fx *[]Output) (bool, *Violation) {
	m := e.m
	for i, n := 0, m.events(s); i < n; i++ {
		info := m.EventInfo(s, i)
		if info.Kind != k || k == devices.EvReceive && info.Byte != b {
			continue
		}
		if k == devices.EvTxDone {
			e.busy = false // until the byte waiting in TDR, if any, goes out
		}
		if e.event != nil {
			e.event(info)
		}
		e.cf.reset()
		return true, m.event(s, i, fx)
	}
	return false, nil
}

// due makes the events due before the step after step number steps, at
// cycle now: the transmitter finishing its byte, and every 1024 steps a
// timer source firing.
func (e *runEnv) due(s *State, fx *[]Output, steps, now uint64) *Violation {
	if e.m.Config.ExactClock {
		// The exact clock finishes the byte itself (devices.Elapse).
		e.busy, _ = e.m.sending(s)
		return nil
	}
	if e.busy && (now >= e.txDue || e.m.overdue(s)) {
		if _, v := e.make(s, devices.EvTxDone, 0, fx); v != nil {
			return v
		}
	}
	if steps%1024 == 1023 {
		_, v := e.tick(s, fx)
		return v
	}
	return nil
}

// batch is how many instructions the firmware may run back to back after
// step number steps, at cycle now, with nothing of the environment due on
// the way (bound, when not 0, is the run's --steps): the steps before the
// next timer event (due), and, while the transmitter sends, as many as
// cannot take it past the cycle its byte is done, each taking at most
// maxInstCycles. Run then makes the same events at the same steps and
// cycles as when it looks after every instruction.
func (e *runEnv) batch(steps, now, bound uint64) uint64 {
	n := 1023 - steps%1024
	if bound != 0 {
		n = min(n, bound-steps)
	}
	if e.busy {
		if now >= e.txDue {
			return 0
		}
		n = min(n, (e.txDue-now)/maxInstCycles)
	}
	return n
}

// maxInstCycles is the most E cycles one instruction takes (IDIV and
// FDIV: 41).
var maxInstCycles = func() uint64 {
	var most uint8
	for _, p := range []isa.Page{isa.Page0, isa.Page18, isa.Page1A, isa.PageCD} {
		for op := range 256 {
			most = max(most, isa.Lookup(p, byte(op)).Cycles)
		}
	}
	return uint64(most)
}()

// tick lets a timer source fire, the sources taking turns; false when
// none can.
func (e *runEnv) tick(s *State, fx *[]Output) (bool, *Violation) {
	m := e.m
	var ks [16]int
	nt := 0
	for k, n := 0, m.events(s); k < n && nt < len(ks); k++ {
		if kind := m.EventInfo(s, k).Kind; kind == devices.EvTime || kind == devices.EvCapture {
			ks[nt] = k
			nt++
		}
	}
	if nt == 0 {
		return false, nil
	}
	k := ks[e.ticks%nt]
	e.ticks++
	if e.event != nil {
		e.event(m.EventInfo(s, k))
	}
	e.cf.reset()
	return true, m.event(s, k, fx)
}

// receive makes the next byte of the input arrive, if the receiver can
// take it.
func (e *runEnv) receive(s *State, fx *[]Output) (bool, *Violation) {
	if len(e.feed) == 0 && e.input != nil {
		if b, ok := e.input(); ok {
			e.feed = append(e.feed, b)
		} else {
			e.input, e.ended = nil, true
		}
	}
	if len(e.feed) == 0 {
		return false, nil
	}
	ok, v := e.make(s, devices.EvReceive, e.feed[0], fx)
	if ok {
		e.feed = e.feed[1:]
		e.received++
		e.quiet = 0
	}
	return ok, v
}

// waiting decides what happens when the firmware, thread i of s, waits
// (the loop of e.cf came back): the transmitter or the timer takes its
// time, the next byte arrives, or the run stops (true, e.reason says why;
// or the event that came was a violation). A firmware that waits while
// time passes is given quietTicks timer events without input or output
// before the run stops.
func (e *runEnv) waiting(s *State, i int, fx *[]Output) (stop bool, v *Violation) {
	m := e.m
	t := &s.Threads[i]
	on := e.cf.obs | m.armed(s, t)
	out, choice := e.cf.out, e.cf.choice
	e.cf.reset()
	if m.Config.ExactClock {
		e.busy, _ = m.sending(s)
	}
	if e.busy {
		return false, nil // the transmitter finishes in its time
	}
	input := on&devices.SrcReceive != 0
	if input {
		if ok, v := e.receive(s, fx); ok || v != nil {
			e.lineWaits = 0
			return v != nil, v
		}
		if m.Config.ExactClock && len(e.feed) > 0 && e.lineWaits < maxLineWaits {
			// Under the exact clock the line carries a byte a frame
			// after the last: time passes in the loop until it can.
			e.lineWaits++
			return false, nil
		}
	}
	if on&devices.SrcTimer != 0 && e.quiet < quietTicks {
		if ok, v := e.tick(s, fx); ok || v != nil {
			e.quiet++
			return v != nil, v // time passes
		}
	}
	switch {
	case input:
		e.reason = fmt.Sprintf("the firmware waits for input: %s (in its loop at 0x%04X)%s", e.left(s), t.PC, e.quietNote())
	case out:
		return false, nil // it shows something on every round: it runs on
	case choice:
		e.reason = fmt.Sprintf("the firmware loops at 0x%04X reading inputs, which run holds at their first value%s", t.PC, e.quietNote())
	default:
		e.reason = fmt.Sprintf("the firmware loops at 0x%04X, and nothing it reads or has enabled can end the loop%s", t.PC, e.quietNote())
	}
	return true, nil
}

// quietNote says, when it is so, that time passed without the firmware
// showing anything.
func (e *runEnv) quietNote() string {
	if e.quiet < quietTicks {
		return ""
	}
	return fmt.Sprintf("; it sent nothing while %d timer events passed", e.quiet)
}

// sleep is run's move when every thread sleeps in WAI or STOP: time
// passes until the transmitter finishes (the clock advances to it), the
// next byte arrives, or a timer source fires — at most quietTicks times
// in a row without anything sent or received; false when none can.
func (e *runEnv) sleep(s *State, fx *[]Output, now *uint64) (bool, *Violation) {
	if e.busy {
		*now = max(*now, e.txDue)
		ok, v := e.make(s, devices.EvTxDone, 0, fx)
		if ok || v != nil {
			return true, v
		}
		e.busy = false
	}
	if ok, v := e.receive(s, fx); ok || v != nil {
		return true, v
	}
	if e.quiet >= quietTicks {
		return false, nil
	}
	ok, v := e.tick(s, fx)
	if ok {
		e.quiet++
	}
	return ok, v
}

// left says what is left of the input when the firmware waits.
func (e *runEnv) left(s *State) string {
	if e != nil && e.ended && len(e.feed) == 0 {
		return "its input ended, and every byte of it was received"
	}
	if e == nil || len(e.feed) == 0 {
		return "every --sci-input byte was received"
	}
	why := "its receiver is off"
	if e.m.events(s) > 0 {
		why = "its receiver holds a byte it has not read"
	}
	return fmt.Sprintf("%d --sci-input bytes were not received (%s)", len(e.feed), why)
}

// runDeviceInterrupt takes the device's pending interrupt on the
// lowest-numbered thread that takes it.
func (m *Machine) runDeviceInterrupt(s *State, fx *[]Output) *Violation {
	if s.Atomic != 0 {
		return nil
	}
	v := m.pending(s)
	if v < 0 {
		return nil
	}
	for i := range s.Threads {
		if devTakes(&s.Threads[i], v) {
			return m.interruptObserved(s, i, v, fx)
		}
	}
	return nil
}

// fastOK reports whether thread i is the thread the deterministic schedule
// keeps running: no lower-numbered thread could run in its place.
func (m *Machine) fastOK(s *State, i int) bool {
	for j := 0; j < i; j++ {
		if s.Threads[j].Status == Running {
			return false
		}
	}
	return true
}

// runOrder lists the threads to try, in order.
func (m *Machine) runOrder(s *State, r *rand.Rand, cur int, order []int) []int {
	for i := range s.Threads {
		if s.mayRun(i) {
			order = append(order, i)
		}
	}
	if r != nil {
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	return order
}

// anyInterrupt takes an interrupt when one can wake the system.
// It returns the entry's violation, if any.
func (m *Machine) anyInterrupt(s *State, r *rand.Rand, res *RunResult) (bool, *Violation) {
	c := threadCycles(s)
	defer func() { res.Cycles += threadCycles(s) - c }() // the entry's cycles
	if r != nil {
		return m.randomInterrupt(s, r)
	}
	if s.Atomic != 0 {
		return false, nil
	}
	for i := range s.Threads {
		for _, v := range m.irqs {
			if s.Threads[i].Status != Exited && m.canTake(&s.Threads[i], v) {
				return true, m.interrupt(s, i, v)
			}
		}
	}
	return false, nil
}

// randomInterrupt takes one of the interrupts that can be taken, drawn
// from r, and returns whether it took one and the entry's violation.
func (m *Machine) randomInterrupt(s *State, r *rand.Rand) (bool, *Violation) {
	if s.Atomic != 0 {
		return false, nil
	}
	type cand struct{ t, v int }
	var cs []cand
	for i := range s.Threads {
		for _, v := range m.irqs {
			if s.Threads[i].Status != Exited && m.canTake(&s.Threads[i], v) {
				cs = append(cs, cand{i, v})
			}
		}
	}
	if len(cs) == 0 {
		return false, nil
	}
	c := cs[r.IntN(len(cs))]
	return true, m.interrupt(s, c.t, c.v)
}

// TraceFields formats thread i's registers as the key=value fields of a
// trace line.
func TraceFields(s *State, i int, cycles uint64) string {
	t := &s.Threads[i]
	return fmt.Sprintf("cyc=%d thr=%d PC=%04x A=%02x B=%02x X=%04x Y=%04x SP=%04x CCR=%02x",
		cycles, i, t.PC, t.A, t.B, t.X, t.Y, t.SP, t.CCR)
}

// Disasm returns the bytes and the GNU-syntax text of the instruction at pc
// in state s, or the harness routine's name at a stub.
func (m *Machine) Disasm(s *State, pc uint16) (hexBytes, text string) {
	if h := m.code[pc].hook; h != loader.NoStub {
		return "", "<harness " + h.String() + ">"
	}
	var buf [5]byte
	for i := range buf {
		buf[i] = m.ReadMem(s, pc+uint16(i))
	}
	in, err := isa.Decode(buf[:])
	n := int(in.Len)
	if err != nil && n == 0 {
		n = 1
	}
	var hb strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			hb.WriteByte(' ')
		}
		fmt.Fprintf(&hb, "%02x", buf[i])
	}
	return hb.String(), strings.Replace(isa.GNUSyntaxRoles(in, pc, m.traceSymbols(in.Op)), "\t", " ", 1)
}

// traceSymbols names the addresses of an instruction op in traces by their
// role: memory operands after the data variable that holds them (data
// objects included, which objdump leaves out), branch targets after code
// labels, and 16-bit immediates only when they are an address: in code
// (an entry point loaded into D for __mc_thread_create), or a variable's
// own address (loader.Image.ValueName) loaded into or compared with X, Y
// or SP — in D a small value is a number far more often than an address
// in the RAM at 0x0000. Listings (package cmd/hc11mc/internal/listing) keep objdump's
// own choice instead.
func (m *Machine) traceSymbols(op isa.Op) isa.Symbols {
	img := m.Image
	if len(img.Symbols) == 0 {
		return isa.Symbols{}
	}
	code := func(a uint16) (string, uint16, bool) {
		name, off, ok := img.CodeSymbolAt(a)
		return name, a - off, ok
	}
	syms := isa.Symbols{Memory: img.MemoryName, Code: code}
	switch op {
	case isa.LDX, isa.LDY, isa.LDS, isa.CPX, isa.CPY:
		syms.Value = img.ValueName
	default:
		syms.Value = func(a uint16) (string, uint16, bool) {
			if !img.InCode(a) {
				return "", 0, false
			}
			return code(a)
		}
	}
	return syms
}

func (m *Machine) traceLine(w io.Writer, s *State, i int, cycles uint64) {
	hb, text := m.Disasm(s, s.Threads[i].PC)
	fmt.Fprintf(w, "%s  %-14s %s\n", TraceFields(s, i, cycles), hb, text)
}

func (m *Machine) finalLine(w io.Writer, s *State, i int, cycles uint64) {
	if w == nil {
		return
	}
	fmt.Fprintf(w, "final %s\n", TraceFields(s, i, cycles))
}
