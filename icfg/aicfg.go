package icfg

import (
	"fmt"
)

// MaxK is the largest context bound AICFG accepts.
const MaxK = 8

// DefaultMaxVertices bounds the size of an AICFG unless GraphOptions says
// otherwise.
const DefaultMaxVertices = 1 << 22

// Vertex is an abstract state of the AICFG (Rungta & Mercer, Section 3.1):
// a PC and up to k return addresses from the top of the runtime stack,
// innermost first. With fewer than k return addresses the context is the
// whole stack ((init) in the paper when N = 0); with exactly k it is the top
// of a stack that may be deeper.
type Vertex struct {
	PC  uint16
	N   uint8
	Ctx [MaxK]uint16
}

// Returns returns the vertex's return addresses, innermost first.
func (v *Vertex) Returns() []uint16 { return v.Ctx[:v.N] }

// EdgeKind classifies the edges of an ICFG or AICFG.
type EdgeKind uint8

// Edge kinds.
const (
	EdgeFlow   EdgeKind = iota // within a procedure: fall-through, branch, jump
	EdgeTail                   // a jump or fall-through into another procedure's entry
	EdgeCall                   // call vertex → callee entry
	EdgeReturn                 // exit vertex → return point
)

var edgeKindNames = [...]string{"flow", "tail", "call", "return"}

// String returns the edge kind's name.
func (k EdgeKind) String() string {
	if int(k) < len(edgeKindNames) {
		return edgeKindNames[k]
	}
	return "edge?"
}

// Graph is an AICFG(k); with k = 0 it is the ICFG, whose vertex i is the
// instruction Prog.Instrs[i]. It implements github.com/yourbasic/graph's
// Iterator (every edge costs 1).
type Graph struct {
	Prog  *Program
	K     int
	Verts []Vertex
	Roots []int32 // the vertices (entry, (init)) of the procedures that may run on an empty stack

	instr []int32          // per vertex: index of its instruction in Prog.Instrs
	off   []int32          // edges of v: adj[off[v]:off[v+1]]
	adj   []int32          // edge targets
	ek    []EdgeKind       // edge kinds, parallel to adj
	index map[Vertex]int32 // k > 2
	small map[uint64]int32 // k = 1, 2: packed keys (see packKey)

	rev     *csr     // reversed edges, built on demand
	descent *descent // same-level structure, built on demand
	exit    []int32  // same-level distance to an exit, built on demand
}

// GraphOptions tunes the construction of an AICFG.
type GraphOptions struct {
	// MaxVertices stops the construction with an error when the graph
	// grows beyond it (default DefaultMaxVertices).
	MaxVertices int
}

// ICFG returns the interprocedural control-flow graph: AICFG(0).
func (p *Program) ICFG() *Graph {
	g, err := p.AICFG(0, GraphOptions{})
	if err != nil {
		panic(err) // k = 0 has one vertex per instruction: no limit applies
	}
	return g
}

// AICFG builds the augmented ICFG with context bound k as in Figure 2 of
// Rungta & Mercer: starting from the abstract states (entry, (init)) of
// the procedures that may run on an empty stack, every abstract state sa
// is added to V once, and for each s'a in abs(succ(abs⁻¹(sa))) the edge
// (sa, s'a) is added and s'a is visited depth-first. The abstract
// successors are:
//
//   - an instruction within a procedure, or a tail jump: (w, same context);
//   - a call with return point r to entry e: (e, top k of r:context);
//   - an exit (RTS, RTI, a returning stub) pops the context. With k = 0
//     nothing is known and it goes to every return point of its procedure
//     (the ICFG's return edges). With fewer than k entries the context is
//     the whole stack: it goes to (c0, c1…), and nowhere from (init) — the
//     thread or handler ends. With k entries the entry below the last one
//     is unknown: it goes to (c0, c1…ck-1 x) for every x that may lie
//     below ck-1 (a return point of a call to the procedure containing the
//     call site of ck-1), and to (c0, c1…ck-1) if that procedure may run
//     on an empty stack.
//
// With k = 0 every instruction is a vertex, reached or not, so that the
// ICFG covers all decoded code.
func (p *Program) AICFG(k int, opt GraphOptions) (*Graph, error) {
	if k < 0 || k > MaxK {
		return nil, fmt.Errorf("icfg: context bound k = %d out of range 0..%d", k, MaxK)
	}
	if opt.MaxVertices <= 0 {
		opt.MaxVertices = DefaultMaxVertices
	}
	g := &Graph{Prog: p, K: k}
	var edges [][]halfEdge
	var buf []halfEdge
	if k == 0 {
		g.Verts = make([]Vertex, len(p.Instrs))
		g.instr = make([]int32, len(p.Instrs))
		edges = make([][]halfEdge, len(p.Instrs))
		for i := range p.Instrs {
			g.Verts[i] = Vertex{PC: p.Instrs[i].Addr}
			g.instr[i] = int32(i)
		}
		for i := range g.Verts {
			buf = g.succ(g.Verts[i], buf[:0])
			edges[i] = append([]halfEdge(nil), buf...)
		}
		for i := range p.Procs {
			if p.ctxRoot[i] {
				g.Roots = append(g.Roots, p.idx[p.Procs[i].Entry])
			}
		}
	} else {
		g.index = map[Vertex]int32{}
		if k <= 2 {
			g.small = map[uint64]int32{}
		}
		intern := func(v Vertex) (int32, bool, error) {
			if id, ok := g.find(&v); ok {
				return id, false, nil
			}
			if len(g.Verts) >= opt.MaxVertices {
				return 0, false, fmt.Errorf("icfg: AICFG(%d) exceeds %d vertices", k, opt.MaxVertices)
			}
			id := int32(len(g.Verts))
			if g.small != nil {
				g.small[packKey(&v)] = id
			} else {
				g.index[v] = id
			}
			g.Verts = append(g.Verts, v)
			g.instr = append(g.instr, p.idx[v.PC])
			edges = append(edges, nil)
			return id, true, nil
		}
		var stack []int32
		for i := range p.Procs {
			if !p.ctxRoot[i] {
				continue
			}
			id, fresh, err := intern(Vertex{PC: p.Procs[i].Entry})
			if err != nil {
				return nil, err
			}
			g.Roots = append(g.Roots, id)
			if fresh {
				stack = append(stack, id)
			}
		}
		// Figure 2, with an explicit stack instead of recursion.
		for len(stack) > 0 {
			sa := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			buf = g.succ(g.Verts[sa], buf[:0])
			out := make([]halfEdge, 0, len(buf))
			for _, e := range buf {
				id, fresh, err := intern(e.v)
				if err != nil {
					return nil, err
				}
				if fresh {
					stack = append(stack, id)
				}
				out = append(out, halfEdge{to: id, kind: e.kind})
			}
			edges[sa] = out
		}
	}
	g.off = make([]int32, len(g.Verts)+1)
	for v, es := range edges {
		g.off[v+1] = g.off[v] + int32(len(es))
	}
	g.adj = make([]int32, g.off[len(g.Verts)])
	g.ek = make([]EdgeKind, len(g.adj))
	for v, es := range edges {
		o := g.off[v]
		for j, e := range es {
			if k == 0 {
				g.adj[int(o)+j] = p.idx[e.v.PC]
			} else {
				g.adj[int(o)+j] = e.to
			}
			g.ek[int(o)+j] = e.kind
		}
	}
	return g, nil
}

// halfEdge is an edge under construction.
type halfEdge struct {
	v    Vertex
	to   int32
	kind EdgeKind
}

// succ appends the abstract successors of v (see AICFG).
func (g *Graph) succ(v Vertex, out []halfEdge) []halfEdge {
	p := g.Prog
	i := p.idx[v.PC]
	if i < 0 {
		return out
	}
	x := &p.Instrs[i]
	switch x.Kind {
	case KindFlow, KindBranch, KindJump, KindIndirectJump:
		for _, w := range x.Next {
			kind := EdgeFlow
			if p.isTail(i, w) {
				kind = EdgeTail
			}
			out = append(out, halfEdge{v: Vertex{PC: w, N: v.N, Ctx: v.Ctx}, kind: kind})
		}
	case KindCall, KindIndirectCall:
		for _, c := range x.Callees {
			out = append(out, halfEdge{v: g.push(v, c, x.Ret), kind: EdgeCall})
		}
	case KindReturn, KindStub:
		out = g.pop(v, out)
	}
	return out
}

// push is the abstract state at the callee entry e of a call from v
// returning to r.
func (g *Graph) push(v Vertex, e, r uint16) Vertex {
	w := Vertex{PC: e}
	if g.K == 0 {
		return w
	}
	n := int(v.N) + 1
	if n > g.K {
		n = g.K
	}
	w.N = uint8(n)
	w.Ctx[0] = r
	copy(w.Ctx[1:n], v.Ctx[:n-1])
	return w
}

// pop appends the abstract states an exit at v returns to.
func (g *Graph) pop(v Vertex, out []halfEdge) []halfEdge {
	p := g.Prog
	if g.K == 0 {
		for _, r := range p.ReturnPoints(v.PC) {
			if p.idx[r] >= 0 {
				out = append(out, halfEdge{v: Vertex{PC: r}, kind: EdgeReturn})
			}
		}
		return out
	}
	n := int(v.N)
	if n == 0 {
		return out // (init): the thread or handler ends
	}
	top := v.Ctx[0]
	if p.idx[top] < 0 {
		return out
	}
	w := Vertex{PC: top, N: uint8(n - 1)}
	copy(w.Ctx[:n-1], v.Ctx[1:n])
	if n < g.K {
		return append(out, halfEdge{v: w, kind: EdgeReturn})
	}
	last := v.Ctx[n-1]
	for _, x := range p.below[last] {
		u := w
		u.N = uint8(n)
		u.Ctx[n-1] = x
		out = append(out, halfEdge{v: u, kind: EdgeReturn})
	}
	if p.belowNil[last] {
		out = append(out, halfEdge{v: w, kind: EdgeReturn})
	}
	return out
}

// isTail reports whether the edge from instruction i to w enters another
// procedure: w is an entry of a procedure whose body does not contain i.
func (p *Program) isTail(i int32, w uint16) bool {
	pi, ok := p.procAt[w]
	if !ok {
		return false
	}
	for _, o := range p.owners[i] {
		if o == pi {
			return false
		}
	}
	return true
}

// Order returns the number of vertices (graph.Iterator).
func (g *Graph) Order() int { return len(g.Verts) }

// Visit calls do for each successor of v with cost 1 (graph.Iterator).
func (g *Graph) Visit(v int, do func(w int, c int64) bool) bool {
	for _, w := range g.adj[g.off[v]:g.off[v+1]] {
		if do(int(w), 1) {
			return true
		}
	}
	return false
}

// Edges returns the successors of v and the kinds of the edges to them.
func (g *Graph) Edges(v int32) ([]int32, []EdgeKind) {
	return g.adj[g.off[v]:g.off[v+1]], g.ek[g.off[v]:g.off[v+1]]
}

// NumEdges returns the number of edges.
func (g *Graph) NumEdges() int { return len(g.adj) }

// EdgeCounts returns the number of edges of each kind, indexed by EdgeKind.
func (g *Graph) EdgeCounts() [4]int {
	var c [4]int
	for _, k := range g.ek {
		c[k]++
	}
	return c
}

// Instr returns the instruction of vertex v.
func (g *Graph) Instr(v int32) *Instr { return &g.Prog.Instrs[g.instr[v]] }

// Lookup is the paper's abs: the vertex of a concrete state with this PC
// and these return addresses (innermost first), of which the top k are
// kept. It does not allocate.
func (g *Graph) Lookup(pc uint16, returns []uint16) (int32, bool) {
	if g.K == 0 {
		i := g.Prog.idx[pc]
		return i, i >= 0
	}
	var key Vertex
	key.PC = pc
	n := len(returns)
	if n > g.K {
		n = g.K
	}
	key.N = uint8(n)
	copy(key.Ctx[:n], returns[:n])
	return g.find(&key)
}

// find looks a vertex up in the index.
func (g *Graph) find(v *Vertex) (int32, bool) {
	if g.small != nil {
		id, ok := g.small[packKey(v)]
		return id, ok
	}
	id, ok := g.index[*v]
	return id, ok
}

// packKey packs a vertex with at most two return addresses into 64 bits:
// the PC, the number of return addresses, and the return addresses.
func packKey(v *Vertex) uint64 {
	return uint64(v.PC) | uint64(v.N)<<16 | uint64(v.Ctx[0])<<24 | uint64(v.Ctx[1])<<40
}
