package sim

import (
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// Label says which transition led to a state, so that a trace can be
// replayed: the thread that ran, the interrupt it took (if any), how many
// instructions it executed, and the index of the nondeterministic choice
// made by the last of them (values of __mc_nondet or of --input reads, in
// order; 0 when there was none). A transition of the environment (the
// device's event k, see devices.go) has Event = k+1, Thread 0, IRQ -1
// and no steps.
type Label struct {
	Thread int    `json:"thread"`
	IRQ    int    `json:"irq"` // vector index of the interrupt taken, -1 for none
	Steps  uint32 `json:"steps"`
	Choice uint64 `json:"choice"`
	Event  uint32 `json:"event,omitempty"`
}

// Successor is one transition out of a state.
type Successor struct {
	State     *State
	Label     Label
	Violation *Violation // the property this transition violates, if any
}

// Stats counts what the machine did.
type Stats struct {
	Instructions uint64 // instructions and harness calls executed
	RunBoundHits uint64 // transitions cut by Config.MaxRun
	// Private counts the transitions AmpleCandidates offered as
	// stack-private (private.go) that were taken.
	Private uint64
	// Through, when not nil, collects the PCs of the points a batch ran
	// on through (batch.go): states the search did not store, for its
	// coverage.
	Through *PCSet
}

// enabled reports whether thread i may be scheduled in s at all.
func (s *State) mayRun(i int) bool {
	if s.Atomic != 0 && int(s.Atomic)-1 != i {
		return false
	}
	return s.Threads[i].Status == Running
}

// Successors appends to out every transition out of s under the machine's
// preemption mode: each enabled thread running to its next scheduling point
// (once per nondeterministic choice), and each listed interrupt that some
// thread can take. When nothing can move but some thread has not exited,
// the deadlock property is violated and deadlock describes it. st, if not
// nil, accumulates counts.
func (m *Machine) Successors(s *State, out []Successor, st *Stats) (succ []Successor, deadlock *Violation) {
	e := m.NewExpander()
	dl := e.Expand(s, st, func(next *State, l Label, v *Violation) {
		out = append(out, Successor{State: next.Clone(), Label: l, Violation: v})
	})
	return out, dl
}

// An Expander generates the transitions out of states on reusable scratch
// states, so that a successor the caller already knows costs no
// allocation: only a successor it keeps (by cloning it) is copied, and
// pages written for the others are reused. Successors come in batches, so
// that the caller can look all of a batch up in its visited set at once
// and let the memory system overlap the lookups. An Expander is not safe
// for concurrent use; use one per goroutine.
type Expander struct {
	m        *Machine
	slots    []*State
	batch    []Succ
	free     []*Page
	released []*State
	written  []int   // scratch for recycle
	wide     []int   // the threads whose choice was too wide, at the last expansion
	dm       devMemo // the device's answers, for forced (devAnswers)
}

// Wide returns the threads whose transition out of the state last
// expanded (Expand, ExpandBatch) offered a choice among more than
// Config.MaxBranch values and was therefore not enumerated. The slice is
// valid until the next expansion.
func (e *Expander) Wide() []int { return e.wide }

// Keep returns a lasting version of a scratch state n from a batch, as
// n.Clone() would: n itself when a state given back with Release can take
// its place as scratch, otherwise a copy. The batch must not use n
// afterwards.
func (e *Expander) Keep(n *State) *State {
	if len(e.released) > 0 {
		// A scratch state of the batch trades places with a released
		// state: it is kept as it is, and the released one becomes
		// scratch, so nothing is copied.
		for k, sc := range e.slots {
			if sc != n {
				continue
			}
			r := e.released[len(e.released)-1]
			e.released = e.released[:len(e.released)-1]
			r.pool, n.pool = n.pool, nil
			e.slots[k] = r
			n.Freeze()
			return n
		}
	}
	for len(e.released) > 0 {
		r := e.released[len(e.released)-1]
		e.released = e.released[:len(e.released)-1]
		if cap(r.Threads) < len(n.Threads) || cap(r.Pages) < len(n.Pages) {
			continue
		}
		r.Threads = append(r.Threads[:0], n.Threads...)
		r.Pages = append(r.Pages[:0], n.Pages...)
		r.Atomic, r.AtomicDepth = n.Atomic, n.AtomicDepth
		r.Freeze()
		n.Freeze()
		return r
	}
	return n.Clone()
}

// Release gives back a state the caller will not use again (an expanded
// state nothing else refers to), for Keep to reuse. Its pages are not
// reused: other states may share them.
func (e *Expander) Release(s *State) {
	if s.pool != nil || len(e.released) >= 1024 {
		return
	}
	clear(s.Pages)
	e.released = append(e.released, s)
}

// Succ is one transition of a batch: the state it leads to (valid only
// during the batch callback: Clone it to keep it), its label, and the
// violation it causes, if any.
type Succ struct {
	State     *State
	Label     Label
	Violation *Violation
}

// batchMax bounds a batch, so that a nondeterministic choice among
// thousands of values does not hold thousands of scratch states.
const batchMax = 32

// NewExpander returns an Expander for m.
func (m *Machine) NewExpander() *Expander { return &Expander{m: m} }

// recycle takes back the pages a scratch state wrote, unless it was kept
// (cloned, which leaves it owning nothing).
func (e *Expander) recycle(n *State) {
	e.written = n.Written(e.written[:0])
	for _, i := range e.written {
		e.free = append(e.free, n.Pages[i])
	}
	n.Freeze()
}

// slot returns scratch state k, made a copy of s.
func (e *Expander) slot(k int, s *State) *State {
	for len(e.slots) <= k {
		n := &State{pool: &e.free}
		e.slots = append(e.slots, n)
	}
	n := e.slots[k]
	e.recycle(n)
	n.Threads = append(n.Threads[:0], s.Threads...)
	n.Pages = append(n.Pages[:0], s.Pages...)
	n.Atomic, n.AtomicDepth = s.Atomic, s.AtomicDepth
	return n
}

// Expand calls visit for every transition out of s (see Successors) with
// the state it leads to, the label and the violation it causes, if any.
// next is valid only during the call: Clone it to keep it. Expand returns
// the deadlock violation when nothing can move.
func (e *Expander) Expand(s *State, st *Stats, visit func(next *State, l Label, v *Violation)) (deadlock *Violation) {
	return e.ExpandBatch(s, st, func(b []Succ) {
		for i := range b {
			visit(b[i].State, b[i].Label, b[i].Violation)
		}
	})
}

// ExpandBatch is Expand handing the transitions over in batches, in the
// same order; the states of a batch are valid only during its call.
func (e *Expander) ExpandBatch(s *State, st *Stats, flush func([]Succ)) (deadlock *Violation) {
	m := e.m
	s.Freeze()
	// pass: under --sci-timing first a byte may arrive at s, or never
	// after: every other transition out of s notes the wait as passed.
	x := expansion{e: e, b: e.batch[:0], st: st, flush: flush, pass: m.passes(s)}
	e.wide = e.wide[:0]
	env := m.env
	late, pend := false, -1 // only the environment may move; the device's pending interrupt
	if env != nil {
		late, pend = env.late(s), env.pending(s)
	}
	if !late {
		for i := range s.Threads {
			x.thread(s, i, pend)
		}
		if s.Atomic == 0 {
			x.interrupts(s)
		}
	}
	if env != nil {
		env.moves(&x, s, late)
	}
	x.done()
	// A thread stuck at __mc_assume(0) makes every execution through s
	// infeasible: no deadlock is reported for it (DESIGN: "dropped, silently").
	if !x.any && !x.infeasible && !m.bounded(s) && !m.heldOff(s) {
		for i := range s.Threads {
			if s.Threads[i].Status != Exited {
				return m.deadlock(s)
			}
		}
	}
	return nil
}

// expansion is one ExpandBatch: the batch being filled, and whether some
// transition moved (any) or was infeasible.
type expansion struct {
	e               *Expander
	b               []Succ
	st              *Stats
	flush           func([]Succ)
	any, infeasible bool
	pass            bool // every transition's state notes a wait passed (Expander.next)
}

// slot returns the scratch state of the batch's next transition, a copy
// of s.
func (x *expansion) slot(s *State) *State { return x.e.next(len(x.b), s, x.pass) }

// next is slot k made a copy of s for a transition out of s; pass says
// that s is a wait a byte may arrive at under --sci-timing first, which
// the copy notes as passed (an arrival clears the note again).
func (e *Expander) next(k int, s *State, pass bool) *State {
	n := e.slot(k, s)
	if pass {
		e.m.markPassed(n)
	}
	return n
}

// add appends a transition to the batch, handing a full batch over;
// moved says it counts as a move of s (no deadlock).
func (x *expansion) add(sc Succ, moved bool) {
	x.any = x.any || moved
	x.b = append(x.b, sc)
	if len(x.b) == batchMax {
		x.flush(x.b)
		x.b = x.b[:0]
	}
}

// interrupt adds thread i of s taking interrupt v.
func (x *expansion) interrupt(s *State, i, v int) {
	ns := x.slot(s)
	viol := x.e.m.interrupt(ns, i, v)
	x.add(Succ{ns, Label{Thread: i, IRQ: v}, viol}, true)
}

// thread adds thread i's moves out of s: the interrupts of the
// environment it must take (the device's pending interrupt pend, a
// requested one), which are then its only moves; otherwise its
// transition, once per choice its last step offers.
func (x *expansion) thread(s *State, i, pend int) {
	m := x.e.m
	if env := m.env; env != nil {
		dev, req := env.mustTake(s, i, pend)
		if dev {
			// The pending interrupt is the thread's move: it runs no
			// instruction.
			x.interrupt(s, i, pend)
		}
		if req >= 0 && !(dev && req == pend) {
			// So is the requested harness interrupt of the highest
			// priority that the thread can take (timing.go).
			x.interrupt(s, i, req)
		}
		if dev || req >= 0 {
			return
		}
	}
	if !s.mayRun(i) {
		return
	}
	var total uint64 = 1
	for c := uint64(0); c < total; c++ {
		ns := x.slot(s)
		steps, choices, ev, v := m.runFrom(s, ns, i, c, 0, x.st, nil, nil, nil, true)
		if c == 0 {
			total = choices
			if m.Config.MaxBranch > 0 && choices > uint64(m.Config.MaxBranch) {
				// A choice this wide is not enumerated but named
				// (Wide). The thread moves, so s is no deadlock.
				x.e.wide = append(x.e.wide, i)
				x.any = true
				return
			}
		}
		if ev == evInfeasible {
			x.infeasible = true
		}
		if ev == evBlocked || ev == evInfeasible {
			continue
		}
		x.add(Succ{ns, Label{Thread: i, IRQ: -1, Steps: steps, Choice: c}, v}, true)
	}
}

// interrupts adds every listed interrupt (--irq) that a thread of s can
// take, where the environment allows it.
func (x *expansion) interrupts(s *State) {
	m := x.e.m
	for i := range s.Threads {
		t := &s.Threads[i]
		if t.Status == Exited {
			continue
		}
		req := -1
		if m.env != nil {
			_, req = m.env.mustTake(s, i, -1)
		}
		for _, v := range m.irqs {
			if !m.canTake(t, v) || m.env != nil && !m.env.allows(s, v, req) {
				continue
			}
			x.interrupt(s, i, v)
		}
	}
}

// done hands the last batch over and clears it for the next expansion.
func (x *expansion) done() {
	if len(x.b) > 0 {
		x.flush(x.b)
	}
	for i := range x.b {
		x.b[i] = Succ{}
	}
	x.e.batch = x.b[:0]
}

func (m *Machine) canTake(t *Thread, v int) bool {
	if v == isa.VecXIRQ {
		return t.CCR&isa.FlagX == 0
	}
	return t.CCR&isa.FlagI == 0 && t.Inhibit == 0
}

// interrupt makes thread i take interrupt v: stack the frame (unless WAI
// already did) and jump through the vector.
func (m *Machine) interrupt(s *State, i int, v int) *Violation {
	return m.interruptObserved(s, i, v, nil)
}

func (m *Machine) interruptObserved(s *State, i int, v int, fx *[]Output) *Violation {
	x := stepper{m: m, s: s, t: &s.Threads[i], tid: i, radix: 1, lay: m.layoutOf(s), fx: fx}
	if m.priv.Load() == privOn {
		x.setGuard()
	}
	t := x.t
	t.Tag = 0
	at := t.PC
	c0, ccr := t.Cycles, t.CCR
	c := m.entryOf(s, t) // entry.go
	x.interrupt(t.PC, v, t.Status == Waiting)
	t.Status = Running
	t.PC = m.Image.Vectors[v]
	t.Cycles += c
	t.Inhibit = 0
	if len(m.stacks) > 0 {
		x.checkStack(at)
	}
	if m.env != nil {
		return m.env.interrupted(&x, i, v, ccr, c, c0)
	}
	if x.bad {
		return x.violation()
	}
	return nil
}

func (m *Machine) deadlock(s *State) *Violation {
	v := &Violation{Kind: KindDeadlock, Thread: -1, Message: "no thread can move:"}
	for i := range s.Threads {
		t := &s.Threads[i]
		var what string
		switch {
		case t.Status == Exited:
			continue
		case t.Status == Waiting:
			what = "waits in WAI with no interrupt that can wake it"
		case t.Status == Stopped:
			what = "is stopped (STOP) with no interrupt that can wake it"
		case m.code[t.PC].hook == loader.StubLock:
			what = "waits for the lock at 0x" + hex4(t.X)
		case s.Atomic != 0:
			what = "is shut out by the atomic section of thread " + itoa(int(s.Atomic)-1)
		default:
			what = "cannot move"
		}
		if v.Thread < 0 {
			v.Thread, v.PC = i, t.PC
		}
		v.Message += " thread " + itoa(i) + " at 0x" + hex4(t.PC) + " " + what + ";"
	}
	v.Message = v.Message[:len(v.Message)-1]
	return v
}

func hex4(v uint16) string {
	const d = "0123456789ABCDEF"
	return string([]byte{d[v>>12], d[v>>8&15], d[v>>4&15], d[v&15]})
}

// runFrom executes thread i of s (which it changes) for one transition
// with choice c, and returns the steps taken, the number of choices the
// last step offered, the last event and the violation, if any. from is
// the state s is a copy of (nil: unknown), which a batch compares the
// states it passes with to find a loop (batch.go). maxSteps > 0 forces
// the number of steps (replay). st, if not nil, accumulates counts; fx,
// if not nil, records the transition's outputs; pu, if not nil, is told
// whether the transition touched a byte that is not private to it
// (private.go; true when privacy is not checked) and the lowest byte of
// its own region it touched; ph, if not nil, is the rule that no
// placeholder is read (placeholder.go), under which the engine steps one
// instruction at a time: no batch. batch false ends the transition at the
// first scheduling point, as without batches (a lone transition of
// partial-order reduction).
func (m *Machine) runFrom(from, s *State, i int, c uint64, maxSteps uint32, st *Stats, fx *[]Output, pu *privUse, ph *Placeholders, batch bool) (steps uint32, choices uint64, ev event, v *Violation) {
	// The device has been told of the thread's cycles up to tl.c0: a
	// batch tells it at every point it runs on through (batch.go), the
	// rest is told here.
	tl := told{c0: s.Threads[i].Cycles, from: from, single: !batch || ph != nil}
	steps, choices, ev, v = m.runThread(s, i, c, maxSteps, st, fx, pu, ph, &tl)
	tl.release()
	if m.env != nil && v == nil {
		if v = m.env.ended(s, i, ev, &tl, fx); v != nil {
			ev = evViolation
		}
	}
	return steps, choices, ev, v
}

// told is what the device has been told of a transition's cycles: the
// thread's cycle count up to which it has, and whether that is the count
// after the last step (nothing is left to tell); and what a batch needs
// to find a loop.
type told struct {
	c0     uint64
	done   bool
	from   *State      // the state the transition starts from, when known
	single bool        // no batch: the transition ends at its first scheduling point
	lf     *loopFinder // the batch's loop finder, once it looks for a loop
	dm     devMemo     // the device's answers at the points the batch passed (devAnswers)
}

// runThread executes thread i of s for one transition (see runFrom); tl
// says what the device has been told of the transition's cycles, which a
// batch tells it at every point it runs on through.
func (m *Machine) runThread(s *State, i int, c uint64, maxSteps uint32, st *Stats, fx *[]Output, pu *privUse, ph *Placeholders, tl *told) (steps uint32, choices uint64, ev event, v *Violation) {
	x := stepper{m: m, s: s, t: &s.Threads[i], tid: i, lay: m.layoutOf(s), fx: fx}
	if m.priv.Load() == privOn {
		x.setGuard()
	}
	x.watchPlaceholders(ph)
	if pu != nil {
		pu.public = true
		defer func() { pu.public, pu.low, pu.top = !x.g.on || x.g.public, x.g.low, x.g.own.hi }()
	}
	x.c0 = x.t.Cycles
	env := m.env
	choices = 1
	var since uint32 // steps since the transition's start or the last point it passed
	for {
		x.radix = 1
		x.choice = c
		ccr := x.t.CCR
		var mk stepMark
		if env != nil {
			mk = env.before(&x)
		}
		ev = x.step()
		steps++
		tl.done = false
		if st != nil {
			st.Instructions++
		}
		if x.radix > 1 {
			choices = x.radix
		}
		t := x.t
		switch {
		case ev == evViolation:
			return steps, choices, ev, x.violation()
		case ev == evBlocked || ev == evInfeasible:
			return steps, choices, ev, nil
		}
		if t.Inhibit != 0 || ccr&^t.CCR&isa.FlagI != 0 {
			m.inhibitAfter(s, t, ccr)
		}
		if env != nil {
			if env.after(&x, i, ccr, mk); x.bad {
				return steps, choices, evViolation, x.violation()
			}
		}
		if m.isGoal(t.PC) && t.Status == Running {
			x.fault(KindReach, t.PC, t.PC, "reached the goal at 0x%04X", t.PC)
			return steps, choices, evViolation, x.violation()
		}
		if x.unseen {
			return steps, choices, evInfeasible, nil
		}
		since++
		bound := since >= uint32(m.Config.MaxRun) || steps >= BatchCap && !tl.single && m.batching()
		hard := x.radix > 1 || t.Status != Running
		point := m.Config.Preempt == PreemptEvery || m.schedPoint(s, t) || m.Config.ExactClock
		io := x.io
		if env != nil && env.accessed(&x, ccr) {
			env.point(&x, i)
			// An access of the peripherals, or a change of the I bit,
			// may make an interrupt pending or takeable (or INIT may
			// have moved the memory map): a scheduling point follows.
			point = true
		}
		if point && !hard && m.batching() && !tl.single {
			// A scheduling point where nothing can choose is no point:
			// the transition runs on through it (batch.go).
			pass, end, v := m.through(&x, i, steps, io, st, tl)
			if v != nil {
				return steps, choices, evViolation, v
			}
			if pass {
				point, since = end, 0
			}
		}
		stop := hard || point || bound
		if maxSteps > 0 {
			switch {
			case steps == maxSteps:
				return steps, choices, ev, nil
			case stop:
				// The transition being replayed would have ended here.
				return steps, choices, evMismatch, nil
			}
			continue
		}
		if stop {
			if bound && st != nil && !hard && !point {
				st.RunBoundHits++
			}
			return steps, choices, ev, nil
		}
	}
}

// through decides, at a scheduling point after step number steps of
// thread i's transition (io: the step accessed the register block) at
// which nothing can choose, whether the transition runs on through it
// (pass: thread i's step is the only move, Machine.forced) and, if so,
// whether it ends there all the same (end: a long batch ends at a
// distinguished state, and where a state comes back). The environment is
// told of the cycles so far first, as it would be at the end of a
// transition, so that what it shows here is what a state stored here
// would show.
func (m *Machine) through(x *stepper, i int, steps uint32, io bool, st *Stats, tl *told) (pass, end bool, v *Violation) {
	if m.env != nil {
		if v := m.env.told(x, i, tl); v != nil {
			return false, false, v
		}
	}
	s, t := x.s, x.t
	if !m.forced(s, i, &tl.dm) {
		return false, false, nil
	}
	if st != nil && st.Through != nil {
		st.Through.Add(t.PC)
	}
	if steps >= loopAfter && (io || t.PC <= t.PrevPC) {
		// A loop nothing can leave (batch.go).
		if tl.lf == nil {
			tl.lf = loopPool.Get().(*loopFinder)
			tl.lf.start(tl.from)
		}
		end = m.distinguished(s, i) || tl.lf.again(m, s)
	}
	return true, end, nil
}

// release gives the loop finder of a transition back.
func (tl *told) release() {
	if lf := tl.lf; lf != nil {
		lf.start(nil)
		clear(lf.kept.Pages)
		loopPool.Put(lf)
		tl.lf = nil
	}
}

// schedPoint reports whether the next instruction of t is a scheduling
// point under the machine's preemption mode.
func (m *Machine) schedPoint(s *State, t *Thread) bool {
	pc := t.PC
	if m.code[pc].hook != loader.NoStub {
		return true
	}
	// Other threads waiting to run is what makes a point matter; with an
	// atomic section open nobody else can, so the run goes on.
	if s.Atomic != 0 {
		return false
	}
	switch m.Config.Preempt {
	case PreemptYield:
		return false
	case PreemptCalls:
		if !m.code[pc].ok {
			return true
		}
		switch m.code[pc].in.Op {
		case isa.JSR, isa.BSR, isa.RTS, isa.RTI:
			return true
		}
		return false
	}
	return true
}

// Replay executes one labelled transition on a copy of s, as Successors
// did, and returns the resulting state and violation. ok is false when the
// label does not describe a transition of s.
func (m *Machine) Replay(s *State, l Label) (ns *State, v *Violation, ok bool) {
	return m.ReplayObserved(s, l, nil)
}

// ReplayObserved is Replay recording, in fx when not nil, what the
// transition showed the outside world: bytes the SCI sent, port and
// board writes.
func (m *Machine) ReplayObserved(s *State, l Label, fx *[]Output) (ns *State, v *Violation, ok bool) {
	return m.replay(s, l, fx, nil, nil)
}

// replay is ReplayObserved reporting, in pu unless nil, whether a
// thread's transition touched a byte not private to it (runFrom), and
// keeping the rule of ph unless nil (placeholder.go).
func (m *Machine) replay(s *State, l Label, fx *[]Output, pu *privUse, ph *Placeholders) (ns *State, v *Violation, ok bool) {
	if l.Thread < 0 || l.Thread >= len(s.Threads) {
		return nil, nil, false
	}
	s.Freeze()
	env := m.env
	if l.Event > 0 {
		if env == nil {
			return nil, nil, false
		}
		return env.replay(s, l, fx)
	}
	pend, dev, req := -1, false, -1
	if env != nil {
		if env.late(s) {
			return nil, nil, false // only the environment may move
		}
		pend = env.pending(s)
		dev, req = env.mustTake(s, l.Thread, pend)
	}
	devIRQ := dev || req >= 0
	ns = s.Clone()
	if m.passes(s) {
		m.markPassed(ns) // --sci-timing first: went on from a wait without its byte
	}
	if l.IRQ >= 0 {
		if dev && l.IRQ == pend || req >= 0 && l.IRQ == req {
			return ns, m.interruptObserved(ns, l.Thread, l.IRQ, fx), true
		}
		if env != nil && !env.allows(s, l.IRQ, req) {
			return nil, nil, false
		}
		listed := false
		for _, v := range m.irqs {
			listed = listed || v == l.IRQ
		}
		if !listed || !m.canTake(&s.Threads[l.Thread], l.IRQ) || s.Threads[l.Thread].Status == Exited || s.Atomic != 0 {
			return nil, nil, false
		}
		return ns, m.interruptObserved(ns, l.Thread, l.IRQ, fx), true
	}
	if !s.mayRun(l.Thread) || l.Steps == 0 || devIRQ {
		return nil, nil, false
	}
	steps, choices, ev, v := m.runFrom(s, ns, l.Thread, l.Choice, l.Steps, nil, fx, pu, ph, true)
	if ev == evBlocked || ev == evInfeasible || ev == evMismatch || l.Choice >= choices || (steps != l.Steps && v == nil) {
		return nil, nil, false
	}
	return ns, v, true
}
