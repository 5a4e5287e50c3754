package sim

import (
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/loader"
)

// Batches of steps: a thread's transition runs on through every point at
// which its next step is the only move of the state (the package doc,
// "Batches", says why every verdict is kept).

// forced reports whether thread i's next step is the only move out of s:
// the one transition Expand would find there is thread i running (with
// whatever choices its step offers), and nothing else. It follows
// ExpandBatch's cases one by one, answering false at each that would add
// a move:
//
//   - only the environment may move (overdue), or an event of the
//     environment is explored at s (a byte arriving, the transmitter
//     finishing, a timer source firing under the abstract clock, time
//     passing in a wait: Events, through the --sci-timing gate);
//   - a pending interrupt of the device that some thread takes, a
//     requested --latency interrupt some thread can take, or a request
//     that can be made;
//   - another thread may be scheduled, or some thread can take an --irq
//     interrupt;
//   - thread i itself cannot run, or is about to call a harness routine
//     (which may block, draw a value, create a thread, open an atomic
//     section or end the path);
//   - under --sci-timing idle, events are possible and s is a place
//     where the firmware may wait (waitPoint): answering would run the
//     firmware on from s, so the question is left to s's expansion —
//     unless under --sci-timing first and the exact clock the receiver
//     is shut whatever the answer (shut).
//
// Under the exact clock the timer's flags are set by the clock as time
// passes, not by events: they are no choice, and a state where one makes
// an interrupt pending that I lets through is not forced.
func (m *Machine) forced(s *State, i int) bool {
	t := &s.Threads[i]
	if !s.mayRun(i) || m.code[t.PC].hook != loader.NoStub {
		return false
	}
	for j := range s.Threads {
		if j != i && s.mayRun(j) {
			return false
		}
	}
	irqs := !mutation.On(mutation.BatchIRQ)
	if s.Atomic == 0 && irqs {
		for j := range s.Threads {
			u := &s.Threads[j]
			if u.Status == Exited {
				continue
			}
			for _, v := range m.irqs {
				if m.canTake(u, v) {
					return false
				}
			}
		}
	}
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
	if m.overdue(s) {
		return false
	}
	if s.Atomic == 0 && irqs {
		if pend := m.pending(s); pend >= 0 {
			for j := range s.Threads {
				if devTakes(&s.Threads[j], pend) {
					return false
				}
			}
		}
	}
	n := m.events(s)
	if n == 0 {
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
	// The receiver's events come first (devices.Device.Events), as many
	// as the alphabet has bytes: asked from the last, the first of them
	// answers for the rest.
	for k := n - 1; k >= 0; k-- {
		kind := m.EventInfo(s, k).Kind
		if g.allows(kind) {
			return false
		}
		if kind == devices.EvReceive || kind == devices.EvOverrun {
			break
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

// loopAfter is the steps after which a batch starts looking for a loop
// it cannot leave: shorter batches pay nothing for it.
const loopAfter = 1 << 8

// loopFinder finds a batch that has entered a loop nothing can leave
// (a deterministic loop: a wait for input that cannot come, a thread
// spinning with interrupts masked). Samples are taken where a loop must
// pass — after an access of the register block and after a step that
// does not move the PC forward — once loopAfter steps have run. Each is
// compared with the state the batch started from and with the state
// Brent's algorithm keeps (as wait.go's cycleFinder does), and the batch
// ends where one comes back. A batch from a state K on such a loop ends
// at K again when K is a sample point (the step into K is the same each
// time round): the search stores the loop's states once and its visited
// set closes the loop. A batch that enters the loop from outside ends
// where Brent's algorithm finds it, at a sample point on the loop, and
// the batch from there is such a batch. Ending a batch early is always
// sound (the package doc, "Batches"): the loop only makes it end.
//
// The kept state is a copy: the pages the batch has written so far are
// copied rather than frozen in place, since the search makes the key of
// the state a batch ends in from its parent's and the pages the batch
// wrote (State.Written, ParentKey), which a freeze would forget.
type loopFinder struct {
	from    *State
	kept    State
	own     []Page // the copies of the kept state's written pages
	written []int
	has     bool
	n       int // samples since kept
	power   int // the number of samples after which kept is replaced
	va, vb  KeyView
}

var loopPool = sync.Pool{New: func() any { return new(loopFinder) }}

// start begins a batch's search for a loop; from is the state the batch
// started from (nil: unknown).
func (f *loopFinder) start(from *State) {
	f.from = from
	f.has, f.n, f.power = false, 0, 1
}

// again offers sample s and reports whether it came back.
func (f *loopFinder) again(m *Machine, s *State) bool {
	if f.from != nil && m.sameState(f.from, s, &f.va, &f.vb, false) {
		return true
	}
	if f.has && m.sameState(&f.kept, s, &f.va, &f.vb, false) {
		return true
	}
	f.n++
	if !f.has || f.n >= f.power {
		f.keep(s)
		if f.has {
			f.power *= 2
		}
		f.has, f.n = true, 0
	}
	return false
}

// keep makes the kept state a copy of s without freezing s.
func (f *loopFinder) keep(s *State) {
	f.kept.Threads = append(f.kept.Threads[:0], s.Threads...)
	f.kept.Pages = append(f.kept.Pages[:0], s.Pages...)
	f.kept.Atomic, f.kept.AtomicDepth = s.Atomic, s.AtomicDepth
	f.written = s.Written(f.written[:0])
	if cap(f.own) < len(f.written) {
		f.own = make([]Page, 0, len(s.Pages)) // never grown while pointed into
	}
	f.own = f.own[:0]
	for _, i := range f.written {
		f.own = append(f.own, Page{Data: s.Pages[i].Data})
		f.kept.Pages[i] = &f.own[len(f.own)-1]
	}
}

// distinguishedOne is the share of sample points (loopFinder) that are
// distinguished: one in this many.
const distinguishedOne = 256

// distinguished reports whether s, a sample point of a batch of thread
// i, ends the batch whatever path led there: a property of the state
// alone (thread i's registers as its key has them, and the device's
// hidden page, where its clocks are), true of about one sample point in
// distinguishedOne. Batches from different states that run into the same
// deterministic path then end at the same states, and the visited set
// merges them, where each would otherwise run the path to its own end:
// many states of an interleaving that lead into one long loop of a
// thread left alone cost the loop once, not once each (the distinguished
// points of parallel collision search, van Oorschot and Wiener, J.
// Cryptology 12, 1999).
func (m *Machine) distinguished(s *State, i int) bool {
	k := m.CanonicalKey(&s.Threads[i])
	h := k[0]*0x9E3779B97F4A7C15 ^ k[1]*0xC2B2AE3D27D4EB4F
	if m.dev != nil {
		h ^= xxhash.Sum64(s.Pages[m.hidPage].Data[:])
	}
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	return h%distinguishedOne == 0
}

// batching reports whether transitions run on through forced points: not
// with --batch off, and not with timing properties, whose counters change
// at every instruction, so that a deterministic loop comes back to no
// state before they saturate and its batch runs to BatchCap (as partial-
// order reduction, batches are then off: the search is the unbatched one,
// whose timing values the timing oracle checks).
func (m *Machine) batching() bool { return !m.Config.Unbatched && m.timing == nil }

// BatchCap is the most instructions a batch runs: it is cut there and
// its state stored (Stats.RunBoundHits counts the cuts, with those of
// Config.MaxRun). It is enough for the loop finder to find a loop of a
// million instructions or so — a wait polled while the exact clock's
// counters turn — and bounds a loop it cannot find.
const BatchCap = 1 << 22

// PCSet is a set of addresses, a bit each.
type PCSet [1 << 10]uint64

// Add puts pc in the set.
func (p *PCSet) Add(pc uint16) { p[pc>>6] |= 1 << (pc & 63) }

// Has reports whether pc is in the set.
func (p *PCSet) Has(pc uint16) bool { return p[pc>>6]&(1<<(pc&63)) != 0 }

// Each calls f for every address in the set, in increasing order.
func (p *PCSet) Each(f func(pc uint16)) {
	for w, bits := range p {
		for ; bits != 0; bits &= bits - 1 {
			b := 0
			for bits>>b&1 == 0 {
				b++
			}
			f(uint16(w<<6 + b))
		}
	}
}

// Unbatch returns the transitions of the machine without batches
// (Config.Unbatched) that label l of state s stands for: l itself unless
// it is a batch, which it splits at every point it ran on through, so
// that each part is one transition without batches (one instruction under
// --preempt every) and only the last carries l's choice. A trace of such
// labels replays with batches and without. ok is false when l is not a
// transition of s.
func (m *Machine) Unbatch(s *State, l Label, dst []Label) (labels []Label, ok bool) {
	if l.IRQ >= 0 || l.Event > 0 || l.Steps <= 1 || !m.batching() {
		return append(dst, l), true
	}
	s.Freeze()
	cur := s.Clone()
	left := l.Steps
	for left > 0 {
		steps, choices, ev, v := m.runFrom(nil, cur, l.Thread, l.Choice, 0, nil, nil, nil, nil, false)
		last := steps >= left || v != nil || ev == evViolation
		switch {
		case ev == evBlocked || ev == evInfeasible:
			return dst, false
		case !last && choices > 1:
			return dst, false // a choice inside a batch: not one of its transitions
		}
		part := Label{Thread: l.Thread, IRQ: -1, Steps: min(steps, left)}
		if last {
			// A batch cut at BatchCap between two points of --preempt
			// calls or yield ends inside a transition without batches:
			// its part is that transition's first steps, which replay
			// as the trace's last.
			part.Choice, steps = l.Choice, min(steps, left)
		}
		dst = append(dst, part)
		left -= steps
		if v != nil {
			break
		}
	}
	return dst, left == 0
}
