package symbolic

import (
	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// Unjoining. Group merges the two sides of a branch whose concrete data
// differ into one state whose differing bytes and registers are
// if-then-elses on the branch condition (merge.go): while the sides'
// data depend on variables in other ways too, that keeps one state where
// there would be one per path. Once those other terms are gone —
// overwritten, or fixed by the path — what is left of the merge are
// if-then-elses of constants: values that each path computed concretely,
// chosen by conditions on variables that the data no longer hold. The
// explicit engine, and this one without the merge, would have a
// concrete state per side there, which pinning (pin.go) lets repeat;
// the merged one never repeats when the conditions are on fresh
// variables, as in a loop that draws a value at each turn, branches on
// it, and keeps only which way it went (a sensor read and a flag set
// from it, in firmware's main loop): each turn would leave an
// if-then-else on that turn's variable, and the traversal would not end.
// So such a state is split back, on the conditions of its data, into
// parts whose data are all concrete — each with its condition, or its
// negation, added to the path and checked with the solver, the
// infeasible ones dropped — which are then pinned. The split is exact:
// the parts together stand for the same concrete states. Only a state
// that a merge of different concrete data led to (State.joined) is split,
// so that nothing else changes, and one that would need more than
// maxUnjoin parts stays as it is.

// maxUnjoin bounds the parts unjoin splits one state into.
const maxUnjoin = 64

// unjoinable reports whether st, reached through a merge of different
// concrete data, has data that are if-then-elses of constants (finite)
// and not all concrete.
func unjoinable(st *State) bool {
	if len(st.joined) == 0 || concreteData(st) {
		return false
	}
	guards := map[*term.Term]bool{}
	for _, g := range st.joined {
		guards[g] = true
	}
	memo := map[*term.Term]bool{}
	for _, t := range dataTerms(st) {
		if !finite(t, guards, memo) {
			return false
		}
	}
	return true
}

// dataTerms returns the terms of st's data, registers by thread first,
// then memory in address order.
func dataTerms(st *State) []*term.Term {
	var l []*term.Term
	for i := range st.Regs {
		r := &st.Regs[i]
		for _, t := range append([]*term.Term{r.A, r.B, r.X, r.Y}, r.CCR[:]...) {
			if t != nil {
				l = append(l, t)
			}
		}
	}
	for _, a := range st.memAddrs() {
		l = append(l, st.Mem[a])
	}
	return l
}

// finite reports whether t is a constant, an if-then-else of finite
// terms, or a 1-bit term that is one of guards or its negation (a flag
// that was 1 on one side of a branch and 0 on the other is the branch's
// condition).
func finite(t *term.Term, guards, memo map[*term.Term]bool) bool {
	if v, ok := memo[t]; ok {
		return v
	}
	var r bool
	switch {
	case t.Op == term.OpConst:
		r = true
	case t.Op == term.OpIte:
		r = finite(t.Args[1], guards, memo) && finite(t.Args[2], guards, memo)
	case t.W == 1:
		r = guards[t] || t.Op == term.OpNot && guards[t.Args[0]]
	}
	memo[t] = r
	return r
}

// condition returns a condition that st's data choose by: the first 1-bit
// datum that is a guard or a guard's negation, or the condition of the
// first if-then-else, in dataTerms' order; nil when the data are
// concrete.
func condition(st *State) *term.Term {
	var walk func(t *term.Term) *term.Term
	walk = func(t *term.Term) *term.Term {
		switch {
		case t.Op == term.OpIte:
			return t.Args[0]
		case t.Op == term.OpNot && t.W == 1:
			return walk(t.Args[0])
		case t.W == 1 && t.Op != term.OpConst:
			return t
		}
		return nil
	}
	for _, t := range dataTerms(st) {
		if c := walk(t); c != nil {
			return c
		}
	}
	return nil
}

// unjoin splits st back into states with concrete data when it is
// unjoinable (above); otherwise, or when that would take more than
// maxUnjoin parts, it returns st alone.
func (e *Engine) unjoin(st *State) ([]*State, error) {
	if !unjoinable(st) {
		return []*State{st}, nil
	}
	work, out := []*State{st}, []*State(nil)
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		g := condition(s)
		if g == nil {
			out = append(out, s)
			continue
		}
		e.unjoins++
		if len(out)+len(work)+2 > maxUnjoin {
			return []*State{st}, nil
		}
		for _, v := range []uint64{1, 0} {
			if v == 0 && mutation.On(mutation.UnjoinOne) {
				continue // the fault: the part where g is 0 dropped
			}
			p := e.assign(s, g, v)
			if p == nil {
				continue
			}
			sat, _, err := e.Sol.Check(p.Path...)
			if err != nil {
				return nil, err
			}
			if sat {
				work = append(work, p)
			}
		}
	}
	return out, nil
}

// assign returns st where the 1-bit g is v: g, or its negation, added to
// the path, and every term rebuilt with that value; nil when the path
// then folds to false.
func (e *Engine) assign(st *State, g *term.Term, v uint64) *State {
	repl := map[*term.Term]uint64{g: v, e.B.Not(g): v ^ 1}
	memo := map[uint32]*term.Term{}
	fix := func(t *term.Term) *term.Term { return e.B.Subst(t, repl, memo) }
	n := e.rewrite(st, fix, false)
	if n == nil {
		return nil
	}
	lit := g
	if v == 0 {
		lit = e.B.Not(g)
	}
	n.Path = append(n.Path, lit)
	return n
}

// rewrite returns a copy of st with fix applied to its registers, the
// bytes of memory it holds as terms and its path condition, the
// conditions that fold to true dropped; nil when one folds to false.
// Threads whose registers are all concrete are rewritten only with all
// (fix must then take nil, a concrete register).
func (e *Engine) rewrite(st *State, fix func(*term.Term) *term.Term, all bool) *State {
	n := st.derive(st.S.Clone())
	for i := range n.S.Threads {
		if !all && st.Regs[i] == (Regs{}) {
			continue
		}
		c := e.cpuOf(st, i)
		c.A, c.B, c.X, c.Y, c.CCR = fix(c.A), fix(c.B), fix(c.X), fix(c.Y), fix(c.CCR)
		e.setCPU(n, i, c)
	}
	for _, a := range st.memAddrs() {
		e.setMem(n, a, fix(st.Mem[a]))
	}
	n.Path = nil
	for _, p := range st.Path {
		q := fix(p)
		if x, ok := q.IsConst(); ok {
			if x == 0 {
				return nil
			}
			continue
		}
		n.Path = append(n.Path, q)
	}
	return n
}
