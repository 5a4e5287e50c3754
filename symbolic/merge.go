package symbolic

import (
	"github.com/hc11mc/hc11mc/internal/mutation"
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
//
// Which states merge (joinable). Two states whose concrete data are
// equal (where one has a term the other has too, or a stand-in 0) merge
// whenever their control parts are equal. Two whose concrete data differ
// merge only where their paths part at a branch: the two sides of an
// if-else on symbolic data meeting at its join, the re-converging point
// of the CFG where, in the paper's words (Section V-A), a state-disjunct
// "may become fragmented after being propagated through branching and
// re-converging points" unless Group puts it together again. Each byte
// or register that differs becomes an if-then-else on the branch
// condition, as the terms that differ do. Without this, a loop whose
// branch on symbolic data leaves concrete values that differ behind —
// the CRC-16 of testdata/models/symbolic/crc16_ok.s, whose low byte B is
// concrete on every path through the first message byte, the two sides
// of each bit's branch differing in it (0xFE against 0xDF) — never merges, and
// the traversal enumerates 2^16 paths with a solver query at each fork,
// slower than the explicit engine enumerating the same values. States
// parted by the schedule alone (two interleavings, the same path) still
// merge only with equal concrete data: merging them would make data
// symbolic that the explicit exploration keeps concrete and recognises
// when it repeats (a concurrent model's loops would then not end). The
// I, X and S bits of the CCR, which decide whether an interrupt or STOP
// can happen, must be equal in any case, and so must any byte that
// cannot hold a term (one sim.Machine.WriteMem refuses: none on the
// machines the engine takes, without the chip's peripherals, whose I/O
// registers are plain memory; the check is for when it does).

// sameControl reports whether a and b have the same control part: their
// threads' PCs, SPs, statuses, stack tops, critical-section depths,
// interrupt inhibits (the instruction after a CLI, sim.Thread.Inhibit)
// and shadow call stacks, and the scheduler's state.
func sameControl(a, b *State) bool {
	x, y := a.S, b.S
	if a.Only != b.Only || len(x.Threads) != len(y.Threads) || len(x.Pages) != len(y.Pages) ||
		x.Atomic != y.Atomic || x.AtomicDepth != y.AtomicDepth {
		return false
	}
	for i := range x.Threads {
		s, t := &x.Threads[i], &y.Threads[i]
		if s.PC != t.PC || s.SP != t.SP || s.Status != t.Status || s.CS != t.CS || s.InitSP != t.InitSP ||
			s.Inhibit != t.Inhibit || s.NShadow != t.NShadow || s.Shadow != t.Shadow {
			return false
		}
	}
	return true
}

// ccrControl are the CCR bits that decide what can happen next (S, X, I).
const ccrControl = 0xd0

// joinable reports whether Group may merge a and b, of the same control
// part: their concrete data are equal, or their paths part at a branch
// and the data that differ can all be terms (see above).
func (e *Engine) joinable(a, b *State) bool {
	if a.S.Equal(b.S) {
		return true
	}
	if a.back != b.back || !partAtBranch(a, b) {
		return false
	}
	for i := range a.S.Threads {
		s, t := &a.S.Threads[i], &b.S.Threads[i]
		if (s.CCR^t.CCR)&ccrControl != 0 {
			return false
		}
	}
	_, ok := e.memDiff(a, b)
	return ok
}

// partAtBranch reports whether the paths of a and b part at a branch:
// at the first conjunct where they differ, one has c and the other not c.
func partAtBranch(a, b *State) bool {
	k := 0
	for k < len(a.Path) && k < len(b.Path) && a.Path[k] == b.Path[k] {
		k++
	}
	return k < len(a.Path) && k < len(b.Path) && complement(a.Path[k], b.Path[k])
}

// memDiff returns the addresses of the bytes that are concrete in both a
// and b and differ, in address order; ok is false when one of them cannot
// hold a term (see above).
func (e *Engine) memDiff(a, b *State) (addrs []uint16, ok bool) {
	same := true
	for i, p := range a.S.Pages {
		if q := b.S.Pages[i]; p != q && p.Data != q.Data {
			same = false
			break
		}
	}
	if same {
		return nil, true
	}
	for _, addr := range e.writable {
		if a.Mem[addr] != nil || b.Mem[addr] != nil {
			continue // a term in either: merge builds its if-then-else
		}
		if e.M.ReadMem(a.S, addr) != e.M.ReadMem(b.S, addr) {
			if !e.termable[addr] {
				return nil, false
			}
			addrs = append(addrs, addr)
		}
	}
	return addrs, true
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
	ite := func(x, y *term.Term) *term.Term {
		if mutation.On(mutation.JoinConcrete) && x.Op == term.OpConst && y.Op == term.OpConst {
			return x // the fault: a concrete difference dropped
		}
		return e.B.Ite(ga, x, y)
	}
	for i := range n.S.Threads {
		ca, cb := e.cpuOf(a, i), e.cpuOf(b, i)
		c := cpu{A: ite(ca.A, cb.A), B: ite(ca.B, cb.B), X: ite(ca.X, cb.X),
			Y: ite(ca.Y, cb.Y), CCR: e.B.Ite(ga, ca.CCR, cb.CCR), SP: ca.SP}
		e.setCPU(n, i, c)
	}
	// The bytes that are a term in a or in b, and those concrete in both
	// that differ (joinable: only where the paths part at a branch). In
	// address order, so that the terms are built in the same order on
	// every run.
	diff, _ := e.memDiff(a, b)
	for _, addr := range diff {
		e.setMem(n, addr, ite(e.byteAt(a, addr), e.byteAt(b, addr)))
	}
	for _, addr := range a.memAddrs() {
		e.setMem(n, addr, e.B.Ite(ga, e.byteAt(a, addr), e.byteAt(b, addr)))
	}
	for _, addr := range b.memAddrs() {
		if a.Mem[addr] == nil {
			e.setMem(n, addr, e.B.Ite(ga, e.byteAt(a, addr), e.byteAt(b, addr)))
		}
	}
	n.Trace = &Step{Guard: ga, Prev: a.Trace, Else: b.Trace}
	n.Depth, n.back = max(a.Depth, b.Depth), max(a.back, b.back)
	n.joined = a.joined[:len(a.joined):len(a.joined)]
	if len(b.joined) > 0 || !a.S.Equal(b.S) {
		seen := make(map[*term.Term]bool, len(a.joined))
		for _, g := range a.joined {
			seen[g] = true
		}
		more := b.joined
		if !a.S.Equal(b.S) {
			more = append(more[:len(more):len(more)], ga)
			e.joins++
		}
		for _, g := range more {
			if !seen[g] {
				seen[g] = true
				n.joined = append(n.joined, g)
			}
		}
	}
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
			if sameControl(out[j], st) && out[j].S.Equal(st.S) && size(out[j])+size(st) <= limit {
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
