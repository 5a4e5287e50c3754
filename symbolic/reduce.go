package symbolic

import (
	"fmt"
)

// Partial-order reduction of the state traversal (Options.Reduce; check
// --engine hmc --reduce por, the default). Scheduling is the explicit
// engine's, and so is its reduction: at a symbolic state st, the traversal
// follows the transition of one thread t alone when the explicit engine
// would follow it alone at every concrete state st stands for
// (sim/reduce.go, sim/private.go). Its conditions there are on the control
// part, which is concrete here (the PCs, the thread statuses, the atomic
// section, the stack pointers and the stack regions), and on the I and X
// bits of t's CCR, which must be concrete too (else t is no candidate):
// sim.Machine.Candidate decides them on st's concrete part. The one
// condition that depends on data, that a stack-private instruction touch
// no byte outside t's stack region, is decided by the machine's guard on
// the addresses the instruction uses, which are concrete (an index
// register is split into its values first); a read through a symbolic
// index (a table lookup, array.go) names its window, not its byte, and is
// not private. The symbolic transition of t stands for the concrete
// transitions of t from every state st stands for, one per state (the
// instructions are deterministic: a choice is a harness call, never a
// candidate), which is what the explicit argument needs: each of them is
// a lone ample transition there, so their union is an ample set of the
// union. A fork on a symbolic branch condition gives several successors,
// all of t.
//
// C2: no outcome may be a violation. C3, the cycle proviso: every
// successor, settled and partitioned as the traversal stores it, must be
// new (not yet visited); otherwise st is expanded in full. A cycle of the
// traversal closes on a visited state, so the transition that closes it
// comes from a state expanded in full: the proviso a hash-compact explicit
// store uses (search/search.go), which holds for any order of expansion.
// Merging (Group) adds a new state for the two it stands for, and a
// concrete state drops its path (pin.go); neither makes a visited state new.
//
// Stack privacy is assumed and checked as in package search: every
// concrete step of the engine runs the machine's guard, and a symbolic
// table lookup that could read another thread's stack is split into named
// bytes (sim.Machine.PrivateOverlap). When a transition intrudes and no
// violation was found, Check stops and runs again without the assumption
// (register-only transitions are still followed alone), and the result
// says why (Result.Privacy).
//
// The bounded model checks of PR unroll every transition: they only ever
// add paths to the traversal's, and drop a state from the frontier only
// when every path from it, unreduced, ends within the bound.

// Only concrete states (no term in their data, no path: pin.go) are
// reduced. On states with symbolic data the reduction is as sound, but it
// keeps apart the interleavings that Group would merge at a common
// control part, and costs a solver query per fork twice when the proviso
// refuses it: on torn16 under --engine auto it took the traversal from
// 1,600 images in a second to 200,000 in six minutes and 18 GB. The
// concurrent models whose interleavings need the reduction (philo_big)
// have concrete data.

// ample returns the successors of st by one thread's transition alone
// when that transition may stand for all of st's (above), and accept, the
// cycle proviso, takes them; nil when st must be expanded in full.
func (e *Engine) ample(st *State, accept func([]Succ) bool) ([]Succ, error) {
	if !e.Opts.Reduce || st.Only > 0 || len(st.Path) > 0 || !concreteData(st) {
		return nil, nil
	}
	s := st.S
	for i := range s.Threads {
		ok, regOnly := e.M.Candidate(s, i)
		if !ok {
			continue
		}
		if r := &st.Regs[i]; r.CCR[4] != nil || r.CCR[6] != nil {
			continue // I or X symbolic: whether t can take an interrupt is not known
		}
		out, blocked, private, err := e.transition(st, i)
		if err != nil {
			return nil, err
		}
		if b, ok := blocked.IsConst(); !ok || b != 0 || len(out) == 0 || !regOnly && !private {
			continue
		}
		violates := false
		for _, o := range out {
			violates = violates || o.Violation != nil
		}
		if !violates && accept(out) {
			return out, nil
		}
	}
	return nil, nil
}

// privacyNote says why a check ran again without stack privacy.
func privacyNote(in fmt.Stringer) string {
	return fmt.Sprintf("%v, so stack accesses were not taken as private; checked again without it", in)
}
