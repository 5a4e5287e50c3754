package sim

import (
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/hc11mc/hc11mc/loader"
)

// Batches of steps: a thread's transition runs on through every point at
// which its next step is the only move of the state. Why every verdict is
// kept:
//
// A scheduling point where nothing can choose is no point. The machine
// without batches (Config.Unbatched, check --batch off) has a state at
// every scheduling point — before every instruction under --preempt
// every — and its transitions are Expand's: a thread's run to its next
// point (one per value of a choice its last step draws), an interrupt's
// entry, an event of the environment. Call its graph G. A state of G is
// forced for thread i (batch.go: forced) when G's only transitions out of
// it are thread i's run: no other thread may run, no thread can take an
// interrupt (an --irq one, a device's pending one, a --latency request
// or a request to be made), no event of the environment is explored
// there (the --sci-timing gate included: under idle a place where the
// firmware may wait is taken as not forced), the device is not overdue,
// and thread i is not about to call a harness routine (which may block,
// draw, create a thread, open an atomic section or end the path). Under
// the exact clock the timer's flags are set by the clock as time
// passes: they are no choice, and a pending interrupt the I bit masks
// is none either.
//
// By default a thread's transition runs on through every forced point
// (runThread), as Run does: the device is told of the cycles so far at
// each point, exactly as at the end of a transition of G, so that the
// state there is the state G has there; the point is then judged, and
// the run goes on only if it is forced. A batch ends at the first point
// that is not forced, at a step that drew a choice (so a batch carries at
// most one choice, at its last step, and Expand enumerates it by running
// the batch again per value), at a violation, at BatchCap instructions,
// where it comes back to a state it passed (loopFinder), or, once it has
// run a while, at a distinguished state (distinguished: a property of
// the state alone, so that batches from many states into one long
// deterministic path end at the same states and the visited set merges
// them). The graph B
// the search explores has the states of G where a batch starts or ends,
// and an edge per batch. Its counters: Stats.Instructions counts every
// instruction executed (a batch's, and a batch run again per choice);
// the search's transitions are B's edges and its depth the number of
// B's edges from the initial state, so depth is no longer a count of
// instructions.
//
// Every verdict of G is kept:
//
//   - A batch is a path of G: every step it takes is the step G takes
//     there, with the same properties checked after it (the stepper's,
//     the stack range, --reach goals, the timing properties' intervals,
//     the device's at each point, the COP's among them), and it stops at
//     the first violation, which it reports at the instruction that
//     raised it. So every violation and counterexample of B is one of
//     G; Unbatch splits a batch into G's transitions, so that a trace
//     replays with and without batches.
//   - Every state of G reachable from the initial state is a state of B
//     or a forced state a batch of B passes, by induction on G's paths:
//     a transition of G out of a state of B is the first transition of
//     one of its batches (or an edge of B: interrupts and events), and
//     the only transitions out of a passed state are its thread's run,
//     which the batch takes next (each value of a choice it draws is a
//     batch of its own, ending there). A batch ends only where G has a
//     state, so the successor of the last state it passes is in B.
//   - A violation of G is raised by some transition out of a reachable
//     state (each of which B takes, as above) or is a deadlock. A forced
//     state is never a deadlock (its thread moves: it is not at a
//     harness routine, the only place a step blocks), so every deadlock
//     of G is a state of B, expanded as in G. A path that __mc_assume
//     makes infeasible is dropped in both; an access that observes the
//     exact clock's counters left out (Block.Lazy) ends the search in
//     both, which runs again without the elimination.
//   - The search ends: every batch is finite (BatchCap), B's states are
//     states of G, finitely many, and the visited set keeps each once.
//     A cycle of G through forced states only — a loop nothing can leave
//     — is cut where a batch ends (at a distinguished state on it, or,
//     loopFinder, at a state the batch comes back to, so that the batch
//     from there comes back to it again), and the visited set closes the
//     cycle with a few states.
//     Nothing checked here depends on a cycle being seen as such: the
//     properties are reachability of a violation or a deadlock, and a
//     cycle's states are each reached and checked.
//
// The reductions, the search orders and the stores work on B as they
// did on G. Partial-order reduction offers a lone transition τ only at a
// state that is not forced, and runs τ without a batch (it is one
// transition of G, as the argument of reduce.go needs); at a forced state
// the full expansion is the batch. A cycle of B, seen as a cycle of G,
// passes a forced state — expanded in full, its one transition followed
// — or consists of states of B whose cycle-proviso flags the search
// keeps, so every cycle of the reduced graph has a state expanded in full
// and reduce.go's argument holds unchanged. The stack guard watches every
// access of a batch and the dead-data checks every step of it, so an
// intrusion or a broken assumption inside a batch is seen as in G.
// Dead-data elimination and hash compaction key B's states as they key
// G's (a batch ends in a state of G); the parallel search, the swarm and
// saved frontiers hold states of B, each a state of G. The heuristics'
// estimates order B's states and decide no verdict. --engine auto hands
// HMC the state where a batch starts whose last step draws a choice too
// wide to enumerate: HMC follows every path from that state, the batch's
// among them.

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
func (m *Machine) forced(s *State, i int, dm *devMemo) bool {
	t := &s.Threads[i]
	if !s.mayRun(i) || m.code[t.PC].hook != loader.NoStub {
		return false
	}
	for j := range s.Threads {
		if j != i && s.mayRun(j) {
			return false
		}
	}
	irqs := !m.faults.batchIRQ
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
	return m.env == nil || m.env.quiet(s, i, irqs, dm)
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
// sound (the argument at the top of this file): the loop only makes it end.
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
