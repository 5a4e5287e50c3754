package symbolic

import (
	"fmt"

	"github.com/hc11mc/hc11mc/internal/proviso"
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
// C2: no outcome may be a violation. C3, the cycle proviso, is the
// explicit engine's with flags (package proviso), kept on the
// concrete states the traversal has seen (hmc.flags): a state is marked
// expanded and reduced when its reduced expansion is tried, and the
// reduced mark is taken back when it is expanded in full; one already
// marked to be expanded in full is not reduced. Every successor of the
// one thread's transition, settled and partitioned as the traversal
// stores it, must be new; or seen, concrete and expanded in full; or
// seen, concrete and not expanded yet, and it is then marked to be
// expanded in full. Otherwise st is expanded in full. Any cycle of the
// reduced traversal has a state seen first, v: the transition into v from
// its predecessor u on the cycle was followed after v was seen (u was
// seen after v, so expanded after), when either u was expanded in full or
// v was expanded in full or marked to be. A state so marked stays in the
// frontier until it is expanded (in full) or PR drops it, which it does
// only when every path from it, unreduced, ends within PR's bound, so
// that no cycle passes through it. The successors of a reduced transition
// are concrete (its instructions are deterministic on concrete data); a
// seen state that keeps no flags (not concrete, or restricted to one
// thread by a handoff) is refused.
// Merging (Group) adds a new state for the two it stands for and never
// takes a concrete one (mergeable), and a concrete state drops its path
// (pin.go); neither makes a seen state new. Taking only new states (the
// proviso before, a hash-compact store's) kept 268,521 states of
// philo_big and took 4.2 s; with the flags, 37,112 (the explicit
// engine's count) in 0.6 s.
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

// reducible reports whether st's expansion may be reduced at all: a
// concrete state, not restricted to one thread's transition.
func (e *Engine) reducible(st *State) bool {
	return e.Opts.Reduce && st.Only == 0 && len(st.Path) == 0 && concreteData(st)
}

// provisoTry reports whether st may be expanded by one transition alone,
// and marks it tentatively (package proviso).
func (h *hmc) provisoTry(st *State) bool {
	if !h.e.reducible(st) {
		return false
	}
	fl := h.flags[st]
	ok := proviso.Try(&fl)
	h.flags[st] = fl
	return ok
}

// provisoFull records that st was expanded in full.
func (h *hmc) provisoFull(st *State) {
	if fl, ok := h.flags[st]; ok {
		proviso.Expand(&fl)
		h.flags[st] = fl
	}
}

// provisoAccept decides on p, a successor of a reduced transition.
func (h *hmc) provisoAccept(p *State) bool {
	o, _ := h.lookup(p)
	switch {
	case o == nil:
		return true
	case !h.e.reducible(o):
		return false // no flags: not concrete, or restricted to one thread
	}
	fl := h.flags[o]
	ok := proviso.Accept(&fl)
	h.flags[o] = fl
	return ok
}

// ample returns the successors of st by one thread's transition alone
// when that transition may stand for all of st's (above), and accept, the
// cycle proviso, takes them; nil when st must be expanded in full.
func (e *Engine) ample(st *State, accept func([]Succ) bool) ([]Succ, error) {
	if !e.reducible(st) {
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
		violates, alone := false, true
		for _, o := range out {
			violates = violates || o.Violation != nil
			// What the step did beyond its registers and memory (a
			// thread that ends, the device's events): sim's rule.
			alone = alone && e.M.Alone(s, o.State.S, i)
		}
		if !violates && alone && accept(out) {
			return out, nil
		}
	}
	return nil, nil
}

// privacyNote says why a check ran again without stack privacy.
func privacyNote(in fmt.Stringer) string {
	return fmt.Sprintf("%v, so stack accesses were not taken as private; checked again without it", in)
}
