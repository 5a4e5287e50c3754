package symbolic

import (
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// Merging is the Group of HMC: two states with the same control part —
// every thread's PC, SP, status, stack top, critical-section depth and
// shadow call stack, and the scheduler — become one. Where their paths
// part at a branch (one has c where the other has not c), c chooses
// between them: the data is an if-then-else on c, and the path keeps
// only what follows the branch (nothing, at an if-else that rejoins). Other
// states — two interleavings under one condition — get a fresh 1-bit
// variable m to choose: the path condition is (m and the first's path)
// or (not m and the second's). Either way the union is exact, and a
// counterexample through the merged state follows the side the model
// picks.

// sameControl reports whether a and b may be merged: the same control
// part, and the same concrete data (where one has a term the other has
// too, or a stand-in 0). States that differ in a concrete value stay
// apart: merging them would make data symbolic that the explicit
// exploration keeps concrete (and recognises when it repeats).
func sameControl(a, b *State) bool {
	x, y := a.S, b.S
	if a.Only != b.Only || !x.Equal(y) {
		return false
	}
	if len(x.Threads) != len(y.Threads) || len(x.Pages) != len(y.Pages) ||
		x.Atomic != y.Atomic || x.AtomicDepth != y.AtomicDepth {
		return false
	}
	for i := range x.Threads {
		s, t := &x.Threads[i], &y.Threads[i]
		if s.PC != t.PC || s.SP != t.SP || s.Status != t.Status || s.CS != t.CS || s.InitSP != t.InitSP ||
			s.NShadow != t.NShadow || s.Shadow != t.Shadow {
			return false
		}
	}
	return true
}

// controlHash is a hash of what sameControl compares.
func controlHash(st *State) uint64 {
	h := uint64(len(st.S.Threads))<<56 ^ uint64(st.S.Atomic)<<48 ^ uint64(st.S.AtomicDepth)<<40
	for i := range st.S.Threads {
		t := &st.S.Threads[i]
		h = h*1000003 ^ uint64(t.PC)<<32 ^ uint64(t.SP)<<16 ^ uint64(t.Status)<<8 ^ uint64(t.CS) ^ uint64(t.NShadow)<<12
	}
	return h
}

// size is the size of a state-disjunct (Eq. 16): its symbolic locations
// and path conjuncts.
func size(st *State) int {
	n := 1 + len(st.Mem) + len(st.Path)
	for i := range st.Regs {
		r := &st.Regs[i]
		for _, t := range []*term.Term{r.A, r.B, r.X, r.Y} {
			if t != nil {
				n++
			}
		}
		for _, t := range r.CCR {
			if t != nil {
				n++
			}
		}
	}
	return n
}

// merge returns the state that stands for a or b (sameControl holds).
func (e *Engine) merge(a, b *State) *State {
	k := 0
	for k < len(a.Path) && k < len(b.Path) && a.Path[k] == b.Path[k] {
		k++
	}
	n := a.derive(a.S.Clone())
	var sel *term.Term
	if k < len(a.Path) && k < len(b.Path) && complement(a.Path[k], b.Path[k]) {
		// The paths part at a branch: its condition chooses, and the
		// merged path needs no new variable (nor, when nothing follows
		// the branch on either side, any new conjunct).
		sel = a.Path[k]
		ra, rb := conj(e, a.Path[k+1:]), conj(e, b.Path[k+1:])
		n.Path = a.Path[:k:k]
		if c := e.B.Ite(sel, ra, rb); c != e.B.Bool(true) {
			n.Path = append(n.Path, c)
		}
	} else {
		sel = e.newVar("merge", 1)
		ga := conj(e, append([]*term.Term{sel}, a.Path[k:]...))
		gb := conj(e, append([]*term.Term{e.B.Not(sel)}, b.Path[k:]...))
		n.Path = append(a.Path[:k:k], e.B.Or(ga, gb))
	}
	ga := sel
	for i := range n.S.Threads {
		ca, cb := e.cpuOf(a, i), e.cpuOf(b, i)
		c := cpu{A: e.B.Ite(ga, ca.A, cb.A), B: e.B.Ite(ga, ca.B, cb.B), X: e.B.Ite(ga, ca.X, cb.X),
			Y: e.B.Ite(ga, ca.Y, cb.Y), CCR: e.B.Ite(ga, ca.CCR, cb.CCR), SP: ca.SP}
		e.setCPU(n, i, c)
	}
	// The concrete memories are equal (sameControl): only the bytes
	// that are a term in a or in b can differ. In address order, so
	// that the terms are built in the same order on every run.
	for _, addr := range a.memAddrs() {
		e.setMem(n, addr, e.B.Ite(ga, e.byteAt(a, addr), e.byteAt(b, addr)))
	}
	for _, addr := range b.memAddrs() {
		if a.Mem[addr] == nil {
			e.setMem(n, addr, e.B.Ite(ga, e.byteAt(a, addr), e.byteAt(b, addr)))
		}
	}
	n.Trace = &Step{Guard: ga, Prev: a.Trace, Else: b.Trace}
	n.Depth = max(a.Depth, b.Depth)
	return n
}

// complement reports whether the 1-bit x is the negation of y.
func complement(x, y *term.Term) bool {
	return x.Op == term.OpNot && x.Args[0] == y || y.Op == term.OpNot && y.Args[0] == x
}

// group merges the states of l that share a control part, as long as the
// merged state stays below limit in size (NP of Eq. 18); the result keeps
// the order of first appearance.
func (e *Engine) group(l []*State, limit int) (out []*State, merges int) {
	byKey := map[uint64][]int{}
	for _, st := range l {
		h := controlHash(st)
		merged := false
		for _, j := range byKey[h] {
			if sameControl(out[j], st) && size(out[j])+size(st) <= limit {
				out[j] = e.merge(out[j], st)
				merged = true
				merges++
				break
			}
		}
		if !merged {
			byKey[h] = append(byKey[h], len(out))
			out = append(out, st)
		}
	}
	return out, merges
}
