package sim

import (
	"math/bits"

	"github.com/hc11mc/hc11mc/devices"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// env is the machine's optional environment: the chip's peripherals
// (Config.Device, devices.go) and the timing properties (Config.Timing,
// timing.go). The core of the simulator — a thread's transition
// (runThread), an interrupt's entry, the expansion of a state — knows
// them only through the hooks below, called through Machine.env, which is
// nil when there is neither: a machine without an environment pays one
// predictable branch per hook. (A plain run, Run in run.go, steps its
// threads itself, and has its own environment, runEnv — the person at the
// terminal and the clock — which its runner calls before a round, after a
// thread's move and when every thread sleeps: nil without a device.)
//
// The hooks, in the order of a step:
//
//   - before, ahead of an instruction: what after needs of the state
//     before it (the thread's cycles and threads, for the timing page);
//   - after, once the instruction ran: the timing page follows it
//     (Machine.timed), which may record a violation in the stepper;
//   - accessed, once the step's own checks are done: whether the step
//     accessed the register block or changed I where a device can
//     interrupt, which makes a scheduling point; then point, which
//     follows the memory map INIT may have moved;
//   - told, at a point a batch runs on through: the device learns the
//     cycles so far, as at the end of a transition;
//   - ended, at the end of a thread's transition, and interrupted, at the
//     end of an interrupt's entry: the device learns the cycles.
//
// Between before and after, an access of the register block goes to
// read and write (from the stepper's slow path, readSlow and writeSlow:
// no address is attrIO without a device). The expansion asks the environment which interrupts a thread
// must take (mustTake), whether an --irq interrupt may be taken beside
// them (allows), and for the environment's own transitions (moves).
type env struct {
	m   *Machine
	dev bool // m has a device (m.dev != nil)
}

// newEnv returns m's environment, nil when m has neither a device nor a
// timing property.
func newEnv(m *Machine) *env {
	if m.dev == nil && m.timing == nil {
		return nil
	}
	return &env{m: m, dev: m.dev != nil}
}

// stepMark is what before notes for after.
type stepMark struct {
	cycles  uint64 // the thread's cycles before the step
	threads int    // the number of threads before it (those from here on it created)
}

// before notes the state ahead of x's next instruction.
func (e *env) before(x *stepper) stepMark {
	if e.m.timing == nil {
		return stepMark{}
	}
	return stepMark{cycles: x.t.Cycles, threads: len(x.s.Threads)}
}

// after follows thread i's step, with CCR ccr before it, on the timing
// page; a violation is recorded in x.
func (e *env) after(x *stepper, i int, ccr uint8, mk stepMark) {
	if e.m.timing != nil {
		e.m.timed(x, i, ccr, x.t.Cycles-mk.cycles, mk.threads)
	}
}

// accessed reports whether the step x made (CCR ccr before it) accessed
// the register block or changed I with a device: an interrupt may become
// pending or takeable, so a scheduling point follows (point). It is the
// common case of every step, small enough to be inlined into the loop.
func (e *env) accessed(x *stepper, ccr uint8) bool {
	return x.io || (ccr^x.t.CCR)&isa.FlagI != 0 && e.dev
}

// point follows an access of the register block, or a change of I with a
// device, by thread i (accessed): INIT may have moved the memory map, and
// x's layout follows.
func (e *env) point(x *stepper, i int) {
	m := e.m
	x.io = false
	if lay := m.layoutOf(x.s); lay != x.lay {
		if m.masking() {
			// The masked bytes are addresses of the layout
			// (deadstack.go): they moved without a write.
			m.deadBroke(DeadBreak{What: "layout", Thread: i, PC: x.t.PrevPC})
		}
		x.lay = lay
	}
}

// told tells the device, at a point a batch of thread i runs on through,
// the cycles since tl.c0, as it would be told at the end of a transition,
// so that what it shows there is what a state stored there would show.
func (e *env) told(x *stepper, i int, tl *told) *Violation {
	m := e.m
	if m.dev == nil {
		return nil
	}
	t := x.t
	v := m.elapse(x.s, i, t.Cycles-tl.c0, x.fx)
	// The stepper dates the device's view at a register access from
	// x.c0 (block's Elapsed): the device has been told up to here.
	tl.c0, tl.done, x.c0 = t.Cycles, true, t.Cycles
	return v
}

// ended tells the device the cycles of thread i's transition on s that it
// has not been told (since tl.c0), when the transition moved.
func (e *env) ended(s *State, i int, ev event, tl *told, fx *[]Output) *Violation {
	m := e.m
	if m.dev == nil || ev == evBlocked || ev == evInfeasible || ev == evMismatch || tl.done {
		return nil
	}
	return m.elapse(s, i, s.Threads[i].Cycles-tl.c0, fx)
}

// interrupted follows thread i's entry into interrupt v (c cycles, CCR
// ccr and cycle count c0 before it): the timing page, then the device's
// clock.
func (e *env) interrupted(x *stepper, i, v int, ccr uint8, c, c0 uint64) *Violation {
	m := e.m
	if m.timing != nil && !x.bad {
		m.timedInterrupt(x, i, v, ccr, c)
	}
	if x.bad {
		return x.violation()
	}
	if m.dev != nil {
		return m.elapse(x.s, i, x.t.Cycles-c0, x.fx)
	}
	return nil
}

// read is x's read of the register at a (attrIO): the device answers.
func (e *env) read(x *stepper, a uint16) uint8 { return x.ioRead(a) }

// write is x's write of v to the register at a (attrIO).
func (e *env) write(x *stepper, a uint16, v uint8) { x.ioWrite(a, v) }

// late reports whether only the environment may move in s (an event is
// overdue).
func (e *env) late(s *State) bool { return e.m.overdue(s) }

// pending returns the device's pending interrupt in s, -1 for none or
// inside an atomic section.
func (e *env) pending(s *State) int {
	if e.m.dev == nil || s.Atomic != 0 {
		return -1
	}
	return e.m.pending(s)
}

// mustTake says which interrupts of the environment thread i of s must
// take now, as its only moves: the device's pending interrupt pend when
// the thread takes it (dev), and the requested harness interrupt of the
// highest priority it can take (req, -1 for none; timing.go).
func (e *env) mustTake(s *State, i, pend int) (dev bool, req int) {
	dev = pend >= 0 && devTakes(&s.Threads[i], pend)
	req = -1
	if e.m.timing != nil {
		req = e.m.requested(s, &s.Threads[i])
	}
	return dev, req
}

// allows reports whether a thread that must take req (-1: none) may take
// the --irq interrupt v instead: v is not taken only on request, and
// outranks req.
func (e *env) allows(s *State, v, req int) bool {
	return e.m.timing == nil || !e.m.isRequestable(v) && e.m.outranks(s, v, req)
}

// moves adds to x the environment's own transitions out of s: the
// interrupt requests of the latency properties (unless late), then the
// device's events that the --sci-timing gate lets through.
func (e *env) moves(x *expansion, s *State, late bool) {
	m := e.m
	if m.timing != nil && !late {
		nd := uint32(m.events(s))
		for _, k := range m.requests(s, nil) {
			ns := x.slot(s)
			m.request(ns, k)
			// A request is a move where the plain --irq model has one:
			// where some thread can take the interrupt now.
			for i := range s.Threads {
				t := &s.Threads[i]
				x.any = x.any || t.Status != Exited && m.canTake(t, m.timing.cfg.Latencies[k].IRQ)
			}
			x.add(Succ{ns, Label{Thread: 0, IRQ: -1, Event: nd + uint32(k) + 1}, nil}, false)
		}
	}
	var g gate
	for k, n := 0, m.events(s); k < n; k++ {
		if k == 0 {
			g = m.gateOf(s)
		}
		if !g.allows(m.EventInfo(s, k).Kind) {
			continue
		}
		ns := x.slot(s)
		viol := m.event(ns, k, nil)
		x.add(Succ{ns, Label{Thread: 0, IRQ: -1, Event: uint32(k + 1)}, viol}, true)
	}
}

// replay makes the environment's transition labelled l out of s (Label.
// Event > 0) on a copy of s, recording its outputs in fx when not nil;
// ok is false when l names none.
func (e *env) replay(s *State, l Label, fx *[]Output) (ns *State, v *Violation, ok bool) {
	m := e.m
	if l.IRQ >= 0 || l.Steps != 0 || l.Choice != 0 {
		return nil, nil, false
	}
	nd := m.events(s)
	pass := m.passes(s) // --sci-timing first: every move notes the wait passed, an arrival clears it
	if int64(l.Event) > int64(nd) {
		if m.timing == nil {
			return nil, nil, false
		}
		// An interrupt's request (moves).
		k := int(l.Event) - nd - 1
		ok := false
		for _, r := range m.requests(s, nil) {
			ok = ok || r == k
		}
		if !ok || m.overdue(s) {
			return nil, nil, false
		}
		ns = s.Clone()
		if pass {
			m.markPassed(ns)
		}
		m.request(ns, k)
		return ns, nil, true
	}
	if !m.eventAllowed(s, int(l.Event-1)) {
		return nil, nil, false
	}
	ns = s.Clone()
	if pass {
		m.markPassed(ns)
	}
	return ns, m.event(ns, int(l.Event-1), fx), true
}

// quiet reports whether the environment has no move at s, where only
// thread i may run (Machine.forced, which asks irqs false under
// mutation.BatchIRQ): no requested interrupt and no request to make, no
// event overdue, no pending interrupt of the device that a thread takes,
// and no event the --sci-timing gate lets through — under idle, a place
// where the firmware may wait counts as one. The device's answers come
// through dm (devAnswers), which may remember them from an earlier view.
func (e *env) quiet(s *State, i int, irqs bool, dm *devMemo) bool {
	m := e.m
	if m.timing != nil {
		for j := range s.Threads {
			if m.requested(s, &s.Threads[j]) >= 0 {
				return false
			}
		}
		var ks [maxLatencies]int
		if len(m.requests(s, ks[:0])) > 0 {
			return false
		}
	}
	if m.dev == nil {
		return true
	}
	a := m.devAnswers(s, dm)
	if a.overdue {
		return false
	}
	if s.Atomic == 0 && irqs && a.pend >= 0 {
		for j := range s.Threads {
			if devTakes(&s.Threads[j], a.pend) {
				return false
			}
		}
	}
	if a.events == 0 || !live(s) {
		return true
	}
	if m.Config.SCIWhenIdle && m.waitPoint(s, i) && !m.shut(s) {
		// Whether the firmware waits here (and a byte may arrive) is
		// found by running it on until it comes back (wait.go): asked
		// at every step of a polling loop, that would cost a run per
		// step. The batch ends instead, and the stored state's
		// expansion asks once.
		return false
	}
	g := m.gateOf(s)
	for ks := a.kinds; ks != 0; ks &= ks - 1 {
		if g.allows(devices.EventKind(bits.TrailingZeros64(ks))) {
			return false
		}
	}
	return true
}

// shut reports whether, under --sci-timing first and the exact clock, no
// event of the SCI may happen at s whether or not the firmware waits
// there: the wait was passed, or a byte is being sent (gateOf), and the
// transmitter's end is no event.
func (m *Machine) shut(s *State) bool {
	if !m.Config.SCIFirstWait || !m.Config.ExactClock {
		return false
	}
	busy, _ := m.sending(s)
	return busy || m.waitPassed(s)
}

// unchanged reports whether the environment's events are the same at s
// and at ns, a step later (Machine.Alone): as many, of the same kinds
// and values, through the same --sci-timing gate.
func (e *env) unchanged(s, ns *State) bool {
	m := e.m
	if m.dev == nil {
		return true
	}
	n := m.events(s)
	if m.events(ns) != n {
		return false
	}
	if n == 0 {
		return true
	}
	if m.gateOf(s) != m.gateOf(ns) {
		return false
	}
	for k := range n {
		if m.EventInfo(s, k) != m.EventInfo(ns, k) {
			return false
		}
	}
	return true
}
