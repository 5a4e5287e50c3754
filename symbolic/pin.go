package symbolic

import (
	"errors"

	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// Pinning. A state of ST whose data are all concrete — no term in any
// register, flag or memory byte — depends on no variable: every path
// condition its successors get is its own path P and conditions on
// variables made after it, so a successor's path is satisfiable exactly
// when P is and the new conditions are, separately. ST's states have
// satisfiable paths (every branch it keeps was checked with the solver,
// and the other conjuncts — a choice's range, a merge's disjunction, the
// value a split takes — are satisfiable by construction), so P can be
// dropped: the state becomes the explicit engine's state, with an empty
// path, and is recognised when it repeats whatever choices led to it.
// Without this, a concurrent model whose threads draw __mc_nondet values
// in a loop (the dining philosophers of testdata/bench) never repeats a
// state: each draw is a fresh variable, and the path grows by its range
// and the branches taken on it at every turn, while the explicit search
// of the same model is finite.
//
// The counterexample still needs P: the choices before the pin are values
// of a model of P, which labels asks the solver for (P is kept in the
// trace, a Step with Pin set). Should P turn out unsatisfiable there — an
// invariant broken, not a state of the firmware — the trace is refused
// with an error rather than reported, so that no violation rests on it.

// Before that, what a path conjunct its transition added fixes — the t
// of (t == k) is k — is put in place of t in the state's data: exact, as
// the path holds. A value drawn with __mc_nondet and branched on until the branch
// says which it is (the delay loops of the benchmarks count it down to
// zero) so becomes concrete where the explicit engine has it concrete,
// and the state can be pinned.

// settle returns st with the terms fixed by its path conjuncts from index
// from on (those its transition added) replaced by their values in its
// data, split back where a merge's if-then-elses of constants are all
// that is symbolic in its data (unjoin.go), and then pinned.
func (e *Engine) settle(st *State, from int) ([]*State, error) {
	var vals map[*term.Term]uint64
	for _, c := range st.Path[min(from, len(st.Path)):] {
		vals = e.fixed(c, vals)
	}
	if len(vals) > 0 {
		st = e.subst(st, vals)
	}
	parts, err := e.unjoin(st)
	if err != nil {
		return nil, err
	}
	for k, p := range parts {
		parts[k] = e.pin(p)
	}
	return parts, nil
}

// fixed adds to vals what the 1-bit c, a path conjunct, fixes: the t of
// c = (t == k) is k when t is wider than a bit, and so is each of its
// bits (the bits of an if-then-else, a flag computed from a merged value,
// are if-then-elses of the bits); both sides of a conjunction hold.
//
// A condition on one bit — a flag a branch tested, a bit of a variable —
// is left where it is: on the two sides of an if-else such a bit would
// become 1 on one side and 0 on the other, their concrete parts would
// differ, and the two paths, which Group merged at the join into one
// state whose flag is the branch condition, would stay apart there; a
// loop that branches on data would double its states at each turn (the
// CRC of testdata/models/symbolic/crc8.s did).
func (e *Engine) fixed(c *term.Term, vals map[*term.Term]uint64) map[*term.Term]uint64 {
	switch c.Op {
	case term.OpEq:
		t, k := c.Args[0], c.Args[1]
		if k.Op != term.OpConst || t.W == 1 {
			break
		}
		if vals == nil {
			vals = map[*term.Term]uint64{}
		}
		if _, ok := vals[t]; ok {
			break
		}
		vals[t] = k.Val
		for i := uint8(0); i < t.W && t.W <= 16; i++ {
			if x := e.B.Extract(t, i, 1); x.Op != term.OpConst {
				if _, ok := vals[x]; !ok {
					vals[x] = k.Val >> i & 1
				}
			}
		}
	case term.OpAnd:
		vals = e.fixed(c.Args[0], vals)
		vals = e.fixed(c.Args[1], vals)
	}
	return vals
}

// subst returns st with the variables of vals replaced by their values
// in its registers, flags and memory (st itself when none occurs there).
func (e *Engine) subst(st *State, vals map[*term.Term]uint64) *State {
	memo := map[uint32]*term.Term{}
	sub := func(t *term.Term) *term.Term { return e.B.Subst(t, vals, memo) }
	changed := false
	for i := range st.Regs {
		r := &st.Regs[i]
		for _, t := range append([]*term.Term{r.A, r.B, r.X, r.Y}, r.CCR[:]...) {
			changed = changed || t != nil && sub(t) != t
		}
	}
	for _, t := range st.Mem {
		changed = changed || sub(t) != t
	}
	if !changed {
		return st
	}
	n := st.derive(st.S.Clone())
	for i := range st.Regs {
		if st.Regs[i] == (Regs{}) {
			continue
		}
		c := e.cpuOf(st, i)
		c.A, c.B, c.X, c.Y, c.CCR = sub(c.A), sub(c.B), sub(c.X), sub(c.Y), sub(c.CCR)
		e.setCPU(n, i, c)
	}
	for _, a := range st.memAddrs() {
		e.setMem(n, a, sub(st.Mem[a]))
	}
	return n
}

// pin returns st with its path dropped when its data are all concrete and
// the path is not empty; otherwise st.
func (e *Engine) pin(st *State) *State {
	if len(st.Path) == 0 || !concreteData(st) {
		return st
	}
	n := *st
	n.Path, n.joined = nil, nil
	n.Trace = &Step{Prev: st.Trace, Pin: conj(e, st.Path)}
	return &n
}

// concreteData reports whether no register, flag or byte of st is a term.
func concreteData(st *State) bool {
	if len(st.Mem) > 0 {
		return false
	}
	for i := range st.Regs {
		if st.Regs[i] != (Regs{}) {
			return false
		}
	}
	return true
}

// errPin is a pinned path condition found unsatisfiable.
var errPin = errors.New("symbolic: a pinned path condition is unsatisfiable")

// labels returns the transitions from the initial state to st, with
// every choice taken from the model m of st's path and, for the steps
// before a pin, from a model of the pinned condition.
func (e *Engine) labels(st *State, m Model) ([]sim.Label, error) {
	var out []sim.Label
	for p := st.Trace; p != nil; {
		switch {
		case p.Pin != nil:
			sat, pm, err := e.Sol.Check(p.Pin)
			if err != nil {
				return nil, err
			}
			if !sat {
				return nil, errPin
			}
			m = pm
			p = p.Prev
		case p.Guard != nil:
			if e.B.Eval(p.Guard, m) == 0 {
				p = p.Else
			} else {
				p = p.Prev
			}
		default:
			out = append(out, stepLabel(e.B, p, m))
			p = p.Prev
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// mergeable reports whether Group may merge a and b: not when either is
// concrete (its data all concrete, its path empty). A concrete state is
// the explicit engine's state, recognised exactly when it repeats;
// merged with a symbolic one of the same control part (whose terms stand
// where it has values) it would become symbolic again, its values
// if-then-else terms on a fresh variable, and a loop that passes the same
// concrete states again and again would nest those terms one level
// deeper each time instead of ending.
func mergeable(a, b *State) bool {
	return !(len(a.Path) == 0 && concreteData(a)) && !(len(b.Path) == 0 && concreteData(b))
}
