package sim

import (
	"github.com/hc11mc/hc11mc/internal/mutation"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// Partial-order reduction (--reduce por) for --preempt every.
//
// At a state s, instead of every enabled transition, a search may follow
// one transition τ of one thread t alone when {τ} is an ample set in the
// sense of Clarke, Grumberg and Peled (Model Checking, 1999, §10.5;
// Godefroid's persistent sets, LNCS 1032, 1996, ch. 4):
//
//	C0  {τ} is not empty.
//	C1  (persistence) no transition that depends on τ can run, from s,
//	    before τ does.
//	C2  (invisibility) τ is not a violation.
//	C3  (cycle proviso) every cycle of the reduced graph has a state where
//	    every transition is followed.
//
// AmpleCandidates offers τ when it is a *register-only* instruction (or a
// stack-private one: private.go extends the argument below):
// its bytes are read-only memory (nothing can rewrite it), and by the
// instruction set's effects table (isa Effects) it reads and writes no
// memory and no stack, does not halt and does not trap — it touches t's
// registers and flags only — and t can take no interrupt at s (CCR masks
// every --irq: an interrupt is t's own transition, and it writes t's
// stack, which other threads could read). Then, from s, as long as t does
// not move:
//
//  1. τ is t's only transition: it is deterministic (no __mc_nondet, no
//     --input read), and since only t changes t's CCR, no interrupt
//     becomes takeable on t.
//  2. Every transition σ of another thread u — its instructions, its
//     interrupts, its harness calls, the threads it creates — reads and
//     writes u's registers, memory, the thread list and the atomic-section
//     owner, never t's registers; τ reads and writes nothing else. So σ is
//     enabled, and does the same, whether τ ran or not, and τ's outcome
//     does not depend on σ.
//
// The one dependency is an atomic section: u's __mc_atomic_begin shuts t
// out (disables τ) until u's __mc_atomic_end. So {τ} is not persistent in
// the textbook sense, and the argument is made directly. Let w be a path
// of the full graph from s to a violation of kind K (the violating
// transition last) or to a deadlock. If τ is in w, by 2 it commutes to the
// front: τ·w' with |w'| = |w|-1 reaches the same state and the same
// violation. If τ is not in w, τ·w is a path (by 2) whose states are w's
// with τ applied to t, whose transitions violate exactly as w's do, and
// whose last state is a deadlock when w's is (t could not move there
// although τ was enabled, so it was shut out by an atomic section that
// still holds after τ). So the shortest distance to a violation of kind K
// (or to a deadlock) from τ(s) is at most that from s, and smaller when
// the shortest path from s moves t. C2 is checked on τ itself: a τ whose
// execution is a violation (the stack range, a --reach goal, an illegal
// opcode) is not offered.
//
// The cycle proviso is the caller's: every cycle of the reduced graph
// must have a state expanded in full. Package search takes τ when the
// state it leads to is new, or stored and expanded in full, or stored and
// not yet expanded, which then must be expanded in full (proviso in
// search/search.go, which proves that this keeps every cycle honest; a
// hash-compact store keeps no flags and takes only new states). From a
// state s at distance k from a violation of kind K (or a deadlock), the
// reduced graph follows one τ after another through states at distance
// at most k; as the graph is finite and no cycle of it is made of τ steps
// alone, the chain reaches a state expanded in full, where the first
// transition of a shortest path is followed, and the distance falls. By
// induction on the distance, the reduced search finds a violation of
// every kind (and a deadlock) that the full search finds, whatever its
// order; it may find a different one first, and a counterexample of
// another length, which replays like any other (its transitions are
// transitions of the full graph). This is the argument of Godefroid's
// persistent sets (LNCS 1032, 1996, Theorem 4.3) and of Clarke, Grumberg
// and Peled's ample sets (Model Checking, 1999, §10.5: C0 non-empty, C1
// persistence, C2 invisibility, C3 the cycle proviso), redone for the
// atomic section; the proviso is a variant of Evangelista and Pajault's
// answer to the ignoring problem (Solving the ignoring problem for
// partial order reduction, STTT 2010), which holds for any search order.
// TestReduceDifferential (package
// search) checks it on random programs against --reduce none, and fails
// when any one of the conditions above is dropped.
//
// With a device (devices.go) two more kinds of transition exist. An
// environment event writes only the device's pages and reads nothing of
// a thread, so it commutes with a register-only τ; but it can make an
// interrupt pending, which a thread with I clear must take before its
// next instruction — the event would disable τ. So a thread with I clear
// is not a candidate when there is a device, as with --irq; nor one with
// X clear, which a pin wired to XIRQ (devices.Wire) interrupts whatever I. And while the
// device counts CPU cycles (the first 64 cycles, a running COP), every
// transition writes its counter: AmpleCandidates offers nothing then.
//
// Instructions that touch memory are followed alone only when the memory
// is their thread's own stack, under the assumption checked on every
// transition that private.go describes, or read-only memory (below);
// everything else that touches memory, and everything of a thread that
// may take an interrupt, is expanded in full, which costs states but
// never a verdict.
//
// Reads of read-only memory. A read of a byte that is ROM in s's memory
// map — the loaded code and its tables, descriptors and constants in ROM,
// the vectors — leaves a transition private (private.go's touchRead):
// condition 2 above holds for it as for a register. No transition writes
// ROM (a store there is a rom-write: the byte keeps its value, and the
// path ends), and the memory map of a state changes only by a write of
// INIT, which the chip takes only in the first 64 E cycles after reset,
// while the device counts cycles and AmpleCandidates offers nothing; so
// from s on, as long as t does not move, the byte τ reads holds the same
// value in every state another thread's transitions reach, and τ reads
// nothing they write. The map is the state's, not the image's at reset: a
// byte INIT has covered with RAM is RAM, which other threads may write
// (mutation.ROMByImage puts the reset map back, and the random
// differential catches it). A read of anything else that is not RAM — an
// I/O register, a board device, an input — is an access like any other,
// never private. This is what lets a philosopher read its forks'
// addresses from a descriptor in ROM (ldx 0,y) alone, as SPIN's
// partial-order reduction treats a read of a constant.

// candidate reports whether thread i's next transition at s may be
// followed alone, by what s and the instruction show before it runs
// (AmpleCandidates then runs it, and Alone checks what it did): the
// thread is running, the instruction it fetches in s's memory layout is
// register-only or, while stack privacy holds, a private candidate
// (whose transition must then prove private), and the thread can take no
// interrupt. The caller has checked that the machine is reducible and s
// outside an atomic section and unclocked.
//
// The instruction is the one s fetches: decoded from the code cache of
// s's layout (INIT may have moved RAM or the registers over ROM), whose
// entries are valid only where every byte of the instruction is
// read-only there. Code in RAM — copied there, built on the stack, or
// rewritten — has no valid entry and is never a candidate, so what the
// reduction judges is what executes.
func (m *Machine) candidate(s *State, i int) (ok, regOnly bool) {
	t := &s.Threads[i]
	if t.Status != Running {
		return false, false
	}
	c := &m.layoutOf(s).code[t.PC]
	if mutation.On(mutation.ImageCode) {
		c = &m.code[t.PC]
	}
	regOnly = registerOnly(c)
	if !regOnly && !(m.priv.Load() == privOn && privateCandidate(c)) {
		return false, false
	}
	if m.dev != nil && (t.CCR&isa.FlagI == 0 || t.CCR&isa.FlagX == 0) {
		return false, false // an event may make an interrupt pending (X: a board's wire to XIRQ)
	}
	for _, v := range m.irqs {
		if m.canTake(t, v) && !mutation.On(mutation.IRQCandidate) {
			return false, false
		}
	}
	return true, regOnly
}

// registerOnly reports whether the instruction of code cache entry c can
// be the lone transition of an ample set: decoded from read-only bytes,
// no harness stub, and by its effects touching registers and flags only.
func registerOnly(c *centry) bool {
	if !c.ok || c.hook != loader.NoStub {
		return false
	}
	ef := c.in.Effects()
	return c.in.Mode != 0 && ef.MemWidth == 0 && !ef.MemRead && !ef.MemWritten &&
		ef.StackPush == 0 && ef.StackPull == 0 && !ef.Halt && !ef.Vector
}

// Alone reports whether the transition of thread i that led from s to ns
// changed nothing outside thread i's registers and the memory it touched
// — nothing another transition or a property can see. Memory is the
// stack guard's business (private.go); the rest is checked here, on what
// the step did in s, not on what its instruction usually does:
//
//   - the thread list: the thread did not end (an RTS from its empty
//     stack ends it, and a thread that ends leaves its critical section
//     to the mutex property, leaves the deadlock property one thread
//     fewer to wait for, and, when it was the last, takes every
//     environment event away), and no thread was created;
//   - the scheduler: the atomic-section owner and the critical-section
//     depth are as they were;
//   - the environment: the events the device offers, and which of them
//     are explored (--sci-timing idle asks whether the firmware waits at
//     the state: wait.go), are the same.
//
// Package symbolic asks it about the concrete part of its states, so
// both engines follow one rule.
func (m *Machine) Alone(s, ns *State, i int) bool {
	if len(ns.Threads) != len(s.Threads) || ns.Atomic != s.Atomic || ns.AtomicDepth != s.AtomicDepth {
		return false
	}
	t, u := &s.Threads[i], &ns.Threads[i]
	if (u.Status != t.Status || u.CS != t.CS) && !mutation.On(mutation.ExitAlone) {
		return false
	}
	return m.env == nil || m.env.unchanged(s, ns)
}

// reducible reports whether the machine allows partial-order reduction at
// all: under --preempt every (the other modes merge instructions into
// transitions, which the argument above does not cover).
func (m *Machine) reducible() bool {
	return m.Config.Preempt == PreemptEvery && (m.timing == nil || mutation.On(mutation.TimingPOR))
}

// AmpleCandidates offers, one by one in thread order, the transitions of s
// that may each stand for all of s's transitions (see the comment above):
// for each thread whose next instruction is register-only and that can
// take no interrupt, the state that instruction leads to, on a scratch
// state valid during the call. accept decides (the cycle proviso: the
// state must be new) and returns true to take it, which ends the offers.
// AmpleCandidates reports whether one was taken; if not, the caller
// expands s in full.
func (e *Expander) AmpleCandidates(s *State, st *Stats, accept func(next *State, l Label) bool) bool {
	m := e.m
	if !m.reducible() || s.Atomic != 0 || m.clocked(s) {
		return false
	}
	s.Freeze()
	for i := range s.Threads {
		ok, regOnly := m.candidate(s, i)
		if !ok {
			continue
		}
		if m.batching() && m.forced(s, i, &e.dm) {
			// τ is s's only move: the full expansion batches it
			// (batch.go), and an ample set adds nothing.
			continue
		}
		ns := e.slot(0, s)
		var pu privUse
		steps, choices, ev, v := m.runFrom(s, ns, i, 0, 0, st, nil, &pu, nil, false)
		// A candidate never makes a choice (register-only steps touch no
		// memory, and an --input address is not RAM to the stack guard),
		// so choices != 1 only keeps that true should either change.
		if (v != nil || ev == evViolation) && !mutation.On(mutation.VisibleAlone) || choices != 1 || ev == evBlocked || ev == evInfeasible {
			continue
		}
		if !regOnly && (pu.public || m.priv.Load() != privOn) {
			// It touched a byte outside its stack region (or intruded):
			// not private (private.go).
			continue
		}
		if !m.Alone(s, ns, i) {
			continue
		}
		if !regOnly && pu.low != 0xFFFF {
			// Followed alone if accepted: from now on the search relies
			// on the privacy of what it touched of its stack (private.go;
			// a transition that read only ROM relies on nothing).
			m.rely(pu.low, pu.top)
		}
		if accept(ns, Label{Thread: i, IRQ: -1, Steps: steps}) {
			if !regOnly && st != nil {
				st.Private++
			}
			return true
		}
	}
	return false
}
