package symbolic

import (
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// partition is the Partition of HMC (Section V-A): a state-disjunct whose
// size reaches limit (NP of Eq. 18 false; our states have one control
// state each, so the first step, one disjunct per control state, is what
// an image already gives) is bi-partitioned greedily until every part is
// below the limit or cannot be split. A state is split on the guard g of
// its latest merge (merge.go): D ∧ g and D ∧ ¬g, each with its terms
// rebuilt under that value of g (term.Builder.Subst), so that the merge's
// if-then-else terms keep one side and the part is about the size the
// state had before the merge, grown by what happened since. The parts are
// exact: their union is D, a part whose path folds to false is dropped,
// and each has the trace of its side of the merge, so a counterexample
// through it needs no value of g. A guard that is a branch condition stays
// in the part's path; a fresh merge variable no longer occurs in it.
func (e *Engine) partition(st *State, limit int) (parts []*State) {
	if size(st) < limit {
		return []*State{st}
	}
	work := []*State{st}
	for rounds := 0; len(work) > 0; rounds++ {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if size(s) < limit || rounds >= maxPartition {
			parts = append(parts, s)
			continue
		}
		a, b, ok := e.bipartition(s)
		if !ok {
			parts = append(parts, s)
			continue
		}
		for _, p := range []*State{b, a} {
			if p != nil {
				work = append(work, p)
			}
		}
	}
	return parts
}

// maxPartition bounds the bi-partitions of one state.
const maxPartition = 64

// bipartition splits st on the guard of its latest merge; a part that is
// infeasible by construction is nil. ok is false when st has no merge.
func (e *Engine) bipartition(st *State) (a, b *State, ok bool) {
	var above []*Step
	m := st.Trace
	for m != nil && m.Guard == nil {
		above = append(above, m)
		m = m.Prev
	}
	if m == nil {
		return nil, nil, false
	}
	g := m.Guard
	side := func(v bool, from *Step) *State {
		// g, and its negation (the builder may keep an if-then-else on
		// not g as one on g with its sides swapped), as constants.
		x := uint64(0)
		if v {
			x = 1
		}
		repl := map[*term.Term]uint64{g: x, e.B.Not(g): x ^ 1}
		memo := map[uint32]*term.Term{}
		fix := func(t *term.Term) *term.Term {
			if t == nil {
				return nil
			}
			return e.B.Subst(t, repl, memo)
		}
		n := e.rewrite(st, fix, true)
		if n == nil {
			return nil
		}
		if g.Op != term.OpVar {
			c := g
			if !v {
				c = e.B.Not(g)
			}
			n.Path = append(n.Path, c)
		}
		// The trace: the steps since the merge, on this side of it.
		tr := from
		for k := len(above) - 1; k >= 0; k-- {
			s := *above[k]
			s.Prev = tr
			if len(s.Choices) > 0 {
				s.Choices = append([]Choice(nil), s.Choices...)
				for j := range s.Choices {
					s.Choices[j].Var, s.Choices[j].N = fix(s.Choices[j].Var), fix(s.Choices[j].N)
				}
			}
			tr = &s
		}
		n.Trace = tr
		return n
	}
	return side(true, m.Prev), side(false, m.Else), true
}
