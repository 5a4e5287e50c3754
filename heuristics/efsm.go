package heuristics

import "github.com/hc11mc/hc11mc/icfg"

// The extended FSM distance (Rungta & Mercer, Figure 5).
//
// The frames of a thread are its PC and then each return address on its
// stack: frame 0 is (pc, returns), frame j ≥ 1 is (returns[j-1],
// returns[j:]). Each frame is looked up in AICFG(k) with the top k of the
// stack below it (the paper's aicfgState). For the frame's vertex sa the
// icfg.FrameTables give
//
//	in(sa)   the distance to the target without leaving the frame (line 11–12),
//	exit(sa) the distance to the frame's return, FSM(sa, srts) (line 14),
//	pd(sa)   whether the target post-dominates sa (line 7).
//
// Figure 5 walks the frames from the top with a counter d:
//
//	d := 0; for each frame: if pd: candidate d+in, break
//	                        else: candidate d+in if in scope; d += exit+1
//	return the smallest candidate
//
// Written from the bottom, the value of frame j is
//
//	V(j) = in(j)                                     if pd(j), or j is the last frame
//	V(j) = min(in(j), exit(j) + 1 + V(j+1))          otherwise
//
// (the last frame returns nowhere: the thread ends). The estimate is V(0).
// V(j) for j ≥ 1 depends only on returns[j-1:], the stack at the return
// point: that is the paper's memo table "at the abstract return vertices"
// (the stack values (08, 04, 02 := 10) marked at g's return vertex in
// Section 3.2). We key one table by the stack contents instead of one table
// per return vertex: the value after a return does not depend on where the
// frame returned from, so one table shares more. A state whose stack the
// table has seen costs one lookup in AICFG(k) for frame 0 and one in the
// table; deeper frames are only visited on a miss, each stack suffix is
// stored as it is computed, and the walk stops early where a frame's value
// no longer depends on the frames below it (pd, no way to return, or
// in ≤ exit+1 — the paper's break, generalised).

// efsm computes the extended FSM distance of one thread.
func (h *Heuristic) efsm(pc uint16, returns []uint16) int {
	in, exit, stop := h.frame(pc, returns)
	if len(returns) == 0 || stop || exit >= icfg.Inf || int64(in) <= int64(exit)+1 {
		return int(in)
	}
	t := h.tail(returns)
	return min(int(in), satAdd(int(exit)+1, int(t)))
}

// frame returns the Figure 5 table entries of the frame at pc with the
// stack below it; stop is set when the frame's value does not depend on
// the frames below (the target post-dominates it, or nothing is known).
// A frame missing from AICFG(k) — a state the static analysis did not
// foresee — uses the ICFG, which is coarser and so still a lower bound; a
// PC outside the decoded code has in = 0.
func (h *Heuristic) frame(pc uint16, below []uint16) (in, exit int32, stop bool) {
	if v, ok := h.g.Lookup(pc, below); ok {
		return h.ftK.InScope[v], h.ftK.Exit[v], h.ftK.PostDom[v]
	}
	if h.g != h.icfg {
		if v, ok := h.icfg.Lookup(pc, nil); ok {
			return h.ft0.InScope[v], h.ft0.Exit[v], h.ft0.PostDom[v]
		}
	}
	return 0, icfg.Inf, true
}

// tail returns V(1) for a thread with these return addresses: the
// estimate at the return point returns[0] with the stack returns[1:].
func (h *Heuristic) tail(r []uint16) int32 {
	m := h.memo
	n := len(r)
	m.prepare(n)
	hs := m.hashes[:n]
	acc := uint64(fnvOffset)
	for j := n - 1; j >= 0; j-- {
		acc = (acc ^ uint64(r[j])) * fnvPrime
		hs[j] = acc
	}
	var t int32
	last, hit := -1, false
	for j := 0; j < n; j++ {
		if id, ok := m.find(hs[j], r[j:]); ok {
			if j == 0 {
				return m.nodes[id].val // the whole stack is known
			}
			t, last, hit = m.nodes[id].val, j, true
			m.ids[j] = id
			break
		}
		in, exit, stop := h.frame(r[j], r[j+1:])
		m.in[j], m.exit[j] = in, exit
		if j == n-1 || stop || exit >= icfg.Inf || int64(in) <= int64(exit)+1 {
			t, last = in, j
			break
		}
	}
	m.chain(r, last, hit)
	if !hit {
		m.set(last, hs[last], t)
	}
	for j := last - 1; j >= 0; j-- {
		t = int32(min(int(m.in[j]), satAdd(int(m.exit[j])+1, int(t))))
		m.set(j, hs[j], t)
	}
	return t
}

// FNV-1a constants, used on 16-bit units.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// memo is the table of V by stack contents. Stacks are hash-consed from
// the bottom: a node is a return address and the node of the stack below
// it, so every suffix of a stored stack is stored once. byHash finds the
// node of a whole stack in one map lookup; the node chain then confirms the
// match exactly.
type memo struct {
	limit  int
	nodes  []memoNode
	byKey  map[nodeKey]int32
	byHash map[uint64]int32

	// scratch, per level of the current stack
	hashes []uint64
	ids    []int32
	in     []int32
	exit   []int32
}

// memoNode is one stack suffix: its top and the node below it (-1: empty).
type memoNode struct {
	top   uint16
	below int32
	val   int32 // V of the suffix; unknown when < 0
}

type nodeKey struct {
	below int32
	top   uint16
}

func newMemo(limit int) *memo {
	return &memo{limit: limit, byKey: map[nodeKey]int32{}, byHash: map[uint64]int32{}}
}

// prepare sizes the scratch for a stack of n entries and empties the table
// when it is full.
func (m *memo) prepare(n int) {
	if len(m.nodes) > m.limit {
		m.nodes = m.nodes[:0]
		clear(m.byKey)
		clear(m.byHash)
	}
	if cap(m.hashes) < n {
		c := max(n, 2*cap(m.hashes), 16)
		m.hashes = make([]uint64, c)
		m.ids = make([]int32, c)
		m.in = make([]int32, c)
		m.exit = make([]int32, c)
	}
}

// find returns the node of the stack s, whose hash is h, if its value is
// stored.
func (m *memo) find(h uint64, s []uint16) (int32, bool) {
	found, ok := m.byHash[h]
	if !ok || m.nodes[found].val < 0 {
		return 0, false
	}
	id := found
	for _, a := range s {
		if id < 0 || m.nodes[id].top != a {
			return 0, false
		}
		id = m.nodes[id].below
	}
	return found, id == -1
}

// chain fills ids[0..last] with the nodes of the suffixes r[j:]. After a
// hit at last, ids[last] is already the node found.
func (m *memo) chain(r []uint16, last int, hit bool) {
	n := len(r)
	below := int32(-1)
	from := n - 1
	if hit {
		below = m.ids[last]
		from = last - 1
	}
	for j := from; j >= 0; j-- {
		k := nodeKey{below: below, top: r[j]}
		id, ok := m.byKey[k]
		if !ok {
			id = int32(len(m.nodes))
			m.nodes = append(m.nodes, memoNode{top: r[j], below: below, val: -1})
			m.byKey[k] = id
		}
		if j <= last {
			m.ids[j] = id
		}
		below = id
	}
}

// set stores the value of the suffix at level j.
func (m *memo) set(j int, h uint64, v int32) {
	id := m.ids[j]
	m.nodes[id].val = v
	m.byHash[h] = id
}
