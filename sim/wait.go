package sim

import (
	mathbits "math/bits"
	"sync"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/mutation"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// Waiting firmware.
//
// Firmware waits when, with no environment event, its execution would
// cycle: it comes back to a state it was in. What it waits for is what
// could end the loop: the sources of events whose registers the loop
// reads (devices.Device.Observes: SCSR for the receiver and the
// transmitter, the timer's flags) and those whose interrupts it has
// enabled with the I bit clear (devices.Device.Armed). A thread in WAI
// or STOP waits for anything. The one definition serves both users:
//
//   - Run feeds the next --sci-input byte when the firmware waits for
//     the receiver with nothing on its way out, lets the transmitter and
//     the timer take their time, and stops when the firmware waits with
//     nothing left to come.
//   - Under Config.SCIWhenIdle (check --sci-timing idle) a byte arrives
//     only at a state on such a loop (below which), and the transmitter
//     finishes a byte only there (or when it is overdue). Unlike Run,
//     which feeds a byte only to a wait the receiver could end, a byte
//     arrives at any wait with nothing being sent.
//
// "A state it was in" is a state's identity (key.go) with the stack
// bytes that dead-data elimination leaves out of keys masked as they
// are (Machine.KeyState), so that two states a search merges agree on
// whether they wait. The thread's cycle count is outside the identity,
// and TCNT only moves at timer events under the abstract clock, so no
// counter keeps a waiting loop from coming back; the counters that do
// end such a loop on the chip — the COP's count since its last service,
// the transmitter's time while cycles are counted — are part of the
// state, and a loop they would end is no cycle.
//
// Finding the cycle is Brent's algorithm on states sampled where a loop
// must pass: after each access of the register block and after each step
// that does not move the PC forward (every loop has one). One state is
// kept and compared with each sample, and replaced at powers of two, so
// that a loop of n samples is found within a few times n samples at the
// cost of one comparison each, which looks at the pages written since
// the kept state only. Run samples after each access of the register
// block and after every 1,024th step instead (where its timer events
// come): it runs instructions in batches that end there (runEnv.batch),
// and a sample on every backward branch would end a batch at each.
// Samples at fixed step numbers serve as well: without events the state
// and the step number modulo 1,024 together repeat, and with them the
// samples.
//
// Under --sci-timing idle the states a byte may arrive at are those on a
// waiting loop at which
//
//   - the firmware is about to read a register that shows an event
//     (SCSR, SCDR, the timer's flags): a loop that polls, directly or
//     through a subroutine it calls;
//   - the loop is one instruction (BRA *, a BRSET or BRCLR to itself);
//   - the thread sleeps in WAI or STOP (it waits for anything);
//   - the thread would take an interrupt that is armed (its enable set,
//     its I bit clear): a loop that waits for a handler to change memory
//     — a main loop comparing the head and the tail of a ring buffer that
//     the receive interrupt fills, or polling a flag that a timer handler
//     sets, in line or through a subroutine — at every such state of it.
//
// A byte may arrive at such a state whatever the loop waits for (a person
// types while the firmware is idle): firmware that waits for a tick and
// then polls the receiver once finds it after the tick.
//
// Why these are enough. A loop that sees an event only by reading a
// register sees a byte that came at any of its states first at such a
// read, in the same state as if the byte had come just before it: the
// other states of the loop lead there without the firmware seeing the
// difference (only the read tells RDRF), so one of them stands for all.
// A loop that sees the byte through an interrupt sees it at the
// instruction boundary where it arrives: the handler runs there,
// interleaved with the loop at that point, and the loop's states are not
// interchangeable (one may hold a copy of the head in a register while
// the handler moves it), so every state of the loop with the interrupt
// armed is one; none is left out. A state of the loop where the thread
// cannot take the interrupt (I set around the read of head and tail) is
// not one: a byte that came there is held in SCDR until I clears, and
// the thread first sees it where it could have arrived as well — at a
// state with I clear, or at a read of SCSR, both of which are among the
// states above. (Under --preempt calls and yield, where a transition
// runs past such reads, every state of a waiting loop is one.)
//
// Asking whether a state is one of them runs the firmware without events
// from it until it comes back (yes), enters a loop that does not contain
// it (no: it is on its way to the wait), or waitSteps instructions pass
// (no). With more than one thread able to run, no state waits. A loop
// that changes memory on each turn comes back only when what it changes
// does — an idle counter of 8 bits after 256 turns, one of 16 bits past
// waitSteps — and is no wait otherwise: a bounded check in which no byte
// arrived says so (Machine.Received). The restriction is only
// ever one of --sci-timing any: its violations are violations there, and
// its "verified" is a bounded claim.

// cycleFinder watches an execution without environment events for a
// sampled state that comes back.
type cycleFinder struct {
	kept   State
	has    bool
	n      int // samples since kept
	power  int // the number of samples after which kept is replaced
	obs    devices.Sources
	out    bool // the steps since kept showed outputs
	choice bool // … or read an input that offered a choice
	va, vb KeyView
	// blind compares states without the exact clock's counters (run
	// under the exact clock: a loop polling the receiver comes back with
	// TCNT moved on, and waits all the same).
	blind bool
}

// reset forgets what was seen: an event changed the course.
func (c *cycleFinder) reset() {
	c.has, c.n, c.power = false, 0, 1
	c.obs, c.out, c.choice = 0, false, false
}

// sample offers state s, reached after the steps noted since the last
// sample: it reports whether s is the kept state again, in which case the
// steps since it are a loop, described by c.obs, c.out and c.choice.
// Otherwise s may be kept, and is frozen so that its later writes copy
// the pages kept with it.
func (c *cycleFinder) sample(m *Machine, s *State) bool {
	if c.has && m.sameState(&c.kept, s, &c.va, &c.vb, c.blind) {
		return true
	}
	c.n++
	if !c.has || c.n >= c.power {
		c.kept.Threads = append(c.kept.Threads[:0], s.Threads...)
		c.kept.Pages = append(c.kept.Pages[:0], s.Pages...)
		c.kept.Atomic, c.kept.AtomicDepth = s.Atomic, s.AtomicDepth
		s.Freeze()
		if c.has {
			c.power *= 2
		}
		c.has, c.n = true, 0
		c.obs, c.out, c.choice = 0, false, false
	}
	return false
}

// sameState reports whether a and b are the same state for finding a
// loop: equal threads, scheduler and memory, with the stack bytes masked
// that state keys leave out (see above).
func (m *Machine) sameState(a, b *State, va, vb *KeyView, blind bool) bool {
	if len(a.Threads) != len(b.Threads) || a.sched() != b.sched() || len(a.Pages) != len(b.Pages) {
		return false
	}
	for i := range a.Threads {
		if m.CanonicalKey(&a.Threads[i]) != m.CanonicalKey(&b.Threads[i]) {
			return false
		}
	}
	ka, kb := m.KeyState(a, va), m.KeyState(b, vb)
	for i, p := range ka.Pages {
		if q := kb.Pages[i]; p != q && p.Data != q.Data && !(blind && m.sameButClock(i, &p.Data, &q.Data)) {
			return false
		}
	}
	return true
}

// sameButClock reports whether pages p and q, page i of two states,
// differ only in the bytes of the peripherals that count time under the
// exact clock (devices.ClockBytes).
func (m *Machine) sameButClock(i int, p, q *[PageSize]byte) bool {
	if m.dev == nil {
		return false
	}
	regs, hid := devices.ClockBytes()
	a, b := *p, *q
	switch {
	case i == m.hidPage:
		for _, k := range hid {
			a[k], b[k] = 0, 0
		}
	case i >= m.regPage && i < m.regPage+m.regPages:
		for _, r := range regs {
			if r/PageSize == i-m.regPage {
				a[r%PageSize], b[r%PageSize] = 0, 0
			}
		}
	default:
		return false
	}
	return a == b
}

// armed returns the sources whose interrupts thread t would take in s:
// those the device has enabled, as t's I and X bits let it take them.
func (m *Machine) armed(s *State, t *Thread) devices.Sources {
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(s, b)
	b.CCR = t.CCR
	a := m.dev.Armed(b)
	blockPool.Put(b)
	return a
}

// sending reports whether the transmitter is sending a byte in s, and
// the E cycles a byte takes.
func (m *Machine) sending(s *State) (bool, uint64) {
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(s, b)
	busy, frame := m.dev.Sending(b)
	blockPool.Put(b)
	return busy, frame
}

// waitSteps bounds the execution a question about a state's waiting
// follows.
const waitSteps = 1 << 16

// waitScratch is what one question about waiting runs on.
type waitScratch struct {
	s       State
	free    []*Page // pages to write into, taken back after each question
	written []int
	cf      cycleFinder
	vs, vn  KeyView
}

var waitPool = sync.Pool{New: func() any { return new(waitScratch) }}

// waitsAt reports whether s is a state at which the firmware waits (see
// above), and what the wait could end on.
func (m *Machine) waitsAt(s *State) (devices.Sources, bool) {
	i := -1
	for j := range s.Threads {
		if s.Threads[j].Status == Running {
			if i >= 0 {
				return 0, false
			}
			i = j
		}
	}
	if i < 0 {
		return devices.SrcReceive | devices.SrcTransmit | devices.SrcTimer, true
	}
	if s.Atomic != 0 && int(s.Atomic)-1 != i || m.overdue(s) || !m.waitPoint(s, i) && !m.armedWait(s, i) {
		return 0, false
	}
	w := waitPool.Get().(*waitScratch)
	n := &w.s
	defer func() {
		// The pages written since n was last frozen are its own: no
		// other state holds them (those before are kept's, or gone).
		w.written = n.Written(w.written[:0])
		for _, k := range w.written {
			w.free = append(w.free, n.Pages[k])
		}
		n.Freeze()
		n.Threads, n.Pages = n.Threads[:0], n.Pages[:0]
		waitPool.Put(w)
	}()
	n.pool = &w.free
	n.Threads = append(n.Threads[:0], s.Threads...)
	n.Pages = append(n.Pages[:0], s.Pages...)
	n.Atomic, n.AtomicDepth = s.Atomic, s.AtomicDepth
	n.Freeze()
	w.cf.reset()
	// Under the exact clock a polling loop comes back with the timer's
	// counters moved on, and waits all the same (as for Run).
	blind := m.Config.ExactClock
	w.cf.blind = blind
	x := stepper{m: m, s: n, tid: i, lay: m.layoutOf(n)}
	obs := m.armed(n, &n.Threads[i])
	pend := m.pendingNow(n)
	for range waitSteps {
		t := &n.Threads[i]
		ccr := t.CCR
		if pend >= 0 && devTakes(t, pend) {
			if m.interrupt(n, i, pend) != nil {
				return 0, false
			}
			x.io = true
		} else {
			if t.Status != Running {
				return 0, false // it sleeps in WAI or STOP: s leads there
			}
			c0 := t.Cycles
			x.t, x.radix, x.choice, x.c0 = t, 1, 0, c0
			ev := x.step()
			if ev == evViolation || ev == evBlocked || ev == evInfeasible || x.radix > 1 || t.Status == Exited {
				return 0, false
			}
			if m.elapse(n, i, t.Cycles-c0, nil) != nil {
				return 0, false
			}
		}
		io := x.io
		if io || (ccr^t.CCR)&isa.FlagI != 0 {
			x.io = false
			x.lay = m.layoutOf(n)
			pend = m.pendingNow(n)
			obs |= m.armed(n, t)
		}
		if m.overdue(n) {
			return 0, false
		}
		obs |= x.obs
		x.obs = 0
		if m.sameState(n, s, &w.vn, &w.vs, blind) {
			return obs, true
		}
		if (io || t.PC <= t.PrevPC) && w.cf.sample(m, n) {
			return 0, false // a loop s is not on
		}
	}
	return 0, false
}

// pendingNow is the device's pending interrupt in s, or -1 inside an
// atomic section.
func (m *Machine) pendingNow(s *State) int {
	if s.Atomic != 0 {
		return -1
	}
	return m.pending(s)
}

// waitPoint reports whether thread i of s is at a place a byte may
// arrive at under --sci-timing idle, if the firmware waits there: about
// to read a register that shows an event, or at a loop of one
// instruction. Under --preempt calls and yield, whose transitions run on
// to the next call, return or access of the registers, every state is
// such a place.
func (m *Machine) waitPoint(s *State, i int) bool {
	if m.Config.Preempt != PreemptEvery {
		return true
	}
	lay := m.layoutOf(s)
	if a, ok := m.NextAccess(s, i); ok && a.Read {
		for k := range uint16(a.Size) {
			if addr := a.Addr + k; lay.attr[addr] == attrIO && m.observes[addr-lay.regLo] != 0 {
				return true
			}
		}
	}
	pc := s.Threads[i].PC
	c := &lay.code[pc]
	if !c.ok {
		return false
	}
	return c.in.IsBranch() && c.in.Target(pc) == pc || c.in.Op == isa.JMP && c.in.Mode == isa.Ext && c.in.Operand == pc
}

// armedWait reports whether thread i of s would take an interrupt
// that is armed: a place a byte may arrive at, if the firmware waits
// there (see above).
func (m *Machine) armedWait(s *State, i int) bool {
	return !mutation.On(mutation.ArmedWait) && m.armed(s, &s.Threads[i]) != 0
}

// gate says which of the SCI's events --sci-timing idle explores in a
// state.
type gate struct{ rx, tx bool }

// gateOf returns the gate of s: under Config.SCIWhenIdle a byte arrives
// only where the firmware waits — for anything: a person types while the
// firmware is idle, whatever it waits for, and firmware that waits for a
// timer tick and then polls the receiver once finds the byte there — with
// nothing being sent (its output has gone), and the transmitter finishes
// a byte only where the firmware waits or when the byte is overdue;
// otherwise both at every state.
func (m *Machine) gateOf(s *State) gate {
	if !m.Config.SCIWhenIdle || m.dev == nil {
		return gate{true, true}
	}
	if m.Config.SCIFirstWait && m.Config.ExactClock {
		// Under the exact clock the transmitter's end is no event: only
		// the receiver is gated, and it is shut while the wait has been
		// passed or a byte is being sent, which is cheaper to ask than
		// whether the firmware waits.
		if m.waitPassed(s) {
			return gate{tx: true}
		}
		if busy, _ := m.sending(s); busy {
			return gate{tx: true}
		}
	}
	g := m.idleGate(s)
	if m.Config.SCIFirstWait && m.waitPassed(s) {
		g.rx = false
	}
	return g
}

// idleGate is the gate of s under --sci-timing idle.
func (m *Machine) idleGate(s *State) gate {
	on, waits := m.waitsAt(s)
	if !waits {
		return gate{tx: m.overdue(s)}
	}
	for i := range s.Threads {
		if s.Threads[i].Status == Running {
			markBit(m.waitPCs[:], int(s.Threads[i].PC))
		}
	}
	if on&devices.SrcReceive == 0 && mutation.On(mutation.ReceiveOnly) {
		return gate{tx: true}
	}
	busy, _ := m.sending(s)
	return gate{rx: !busy, tx: true}
}

// waitPassed reports whether, under Config.SCIFirstWait, the firmware
// of s has gone on from a wait without the byte that could have arrived
// there, since reset or the last byte (devices.HidWaitPassed).
func (m *Machine) waitPassed(s *State) bool {
	return s.Pages[m.hidPage].Data[devices.HidWaitPassed] != 0
}

// passes reports whether a transition out of s other than a byte's
// arrival passes a wait under Config.SCIFirstWait: whether a byte may
// arrive at s.
func (m *Machine) passes(s *State) bool {
	if !m.Config.SCIFirstWait || m.dev == nil || m.waitPassed(s) {
		return false
	}
	n := m.events(s)
	if n == 0 {
		return false
	}
	// The receiver's events come first (devices.Device.Events).
	kind := m.EventInfo(s, 0).Kind
	return (kind == devices.EvReceive || kind == devices.EvOverrun) && m.gateOf(s).allows(kind)
}

// heldOff reports whether, under Config.SCIFirstWait, a byte could
// arrive at s but for the note that the firmware went on from its wait
// without one: as with a bound on the bytes received (bounded), firmware
// that waits there for input is no deadlock — no byte comes after that
// in the model, which says so.
func (m *Machine) heldOff(s *State) bool {
	if !m.Config.SCIFirstWait || m.dev == nil || !m.waitPassed(s) || m.events(s) == 0 {
		return false
	}
	kind := m.EventInfo(s, 0).Kind // the receiver's events come first
	return kind == devices.EvReceive || kind == devices.EvOverrun
}

// markPassed notes in s, a successor of a state at which passes held,
// that the firmware went on from its wait (an arrival clears the note
// again: devices.HidWaitPassed).
func (m *Machine) markPassed(s *State) {
	s.page(m.hidPage).Data[devices.HidWaitPassed] = 1
}

// allows reports whether the gate lets an event of kind k happen.
func (g gate) allows(k devices.EventKind) bool {
	switch k {
	case devices.EvReceive, devices.EvOverrun:
		return g.rx
	case devices.EvTxDone:
		return g.tx
	}
	return true
}

// eventAllowed reports whether event k of s is explored (gateOf).
func (m *Machine) eventAllowed(s *State, k int) bool {
	return m.gateOf(s).allows(m.EventInfo(s, k).Kind)
}

// WaitPCs returns, in increasing order, the PCs of the waiting loops
// that --sci-timing idle found the firmware in (states a byte could
// arrive at), over every search of m.
func (m *Machine) WaitPCs() []uint16 {
	var pcs []uint16
	for w := range m.waitPCs {
		for bits := m.waitPCs[w].Load(); bits != 0; bits &= bits - 1 {
			pcs = append(pcs, uint16(w*64+mathbits.TrailingZeros64(bits)))
		}
	}
	return pcs
}
