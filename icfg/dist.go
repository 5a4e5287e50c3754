package icfg

import (
	"container/heap"

	"github.com/yourbasic/graph"
)

// csr is a compressed adjacency list with optional costs.
type csr struct {
	off  []int32
	adj  []int32
	cost []int64 // nil: every edge costs 1
}

// buildCSR groups (from, to, cost) triples by from over n vertices.
func buildCSR(n int, from, to []int32, cost []int64) *csr {
	c := &csr{off: make([]int32, n+1), adj: make([]int32, len(to))}
	if cost != nil {
		c.cost = make([]int64, len(to))
	}
	for _, f := range from {
		c.off[f+1]++
	}
	for i := 0; i < n; i++ {
		c.off[i+1] += c.off[i]
	}
	fill := append([]int32(nil), c.off[:n]...)
	for i, f := range from {
		j := fill[f]
		fill[f]++
		c.adj[j] = to[i]
		if cost != nil {
			c.cost[j] = cost[i]
		}
	}
	return c
}

func (c *csr) list(v int32) []int32 { return c.adj[c.off[v]:c.off[v+1]] }

// sourced is a graph.Iterator over a csr plus one extra vertex (the last)
// with a cost-0 edge to each of the sources: multi-source searches with
// the library's single-source algorithms.
type sourced struct {
	c       *csr
	sources []int32
}

// Order returns the number of vertices, the virtual source included.
func (s *sourced) Order() int { return len(s.c.off) }

// Visit iterates over v's edges; the virtual source's go to the sources.
func (s *sourced) Visit(v int, do func(w int, c int64) bool) bool {
	n := len(s.c.off) - 1
	if v == n {
		for _, w := range s.sources {
			if do(int(w), 0) {
				return true
			}
		}
		return false
	}
	lo, hi := s.c.off[v], s.c.off[v+1]
	for j := lo; j < hi; j++ {
		cost := int64(1)
		if s.c.cost != nil {
			cost = s.c.cost[j]
		}
		if do(int(s.c.adj[j]), cost) {
			return true
		}
	}
	return false
}

// reverse returns the reversed edges of g.
func (g *Graph) reverse() *csr {
	if g.rev == nil {
		from := make([]int32, 0, len(g.adj))
		for v := range g.Verts {
			for range g.adj[g.off[v]:g.off[v+1]] {
				from = append(from, int32(v))
			}
		}
		g.rev = buildCSR(len(g.Verts), g.adj, from, nil)
	}
	return g.rev
}

// TargetVertices returns the vertices whose PC is one of the addresses.
func (g *Graph) TargetVertices(targets []uint16) []int32 {
	var set [65536]bool
	for _, t := range targets {
		set[t] = true
	}
	var out []int32
	for v := range g.Verts {
		if set[g.Verts[v].PC] {
			out = append(out, int32(v))
		}
	}
	return out
}

// DistancesTo returns, for every vertex, the length of a shortest path in
// the graph to a vertex whose PC is one of the targets, counted in edges,
// that is in instructions executed (Inf where no target is reachable). On
// the ICFG this is the FSM distance of Edelkamp & Mehler; on AICFG(k) the
// distance of the paper's Section 3.1. It is a breadth-first search on the
// reversed graph from all targets at once.
func (g *Graph) DistancesTo(targets []uint16) []int32 {
	dist := make([]int32, len(g.Verts))
	for i := range dist {
		dist[i] = Inf
	}
	src := g.TargetVertices(targets)
	it := &sourced{c: g.reverse(), sources: src}
	super := len(g.Verts)
	for _, t := range src {
		dist[t] = 0
	}
	graph.BFS(it, super, func(v, w int, _ int64) {
		if v != super {
			dist[w] = dist[v] + 1
		}
	})
	return dist
}

// descent is the structure of same-level paths: paths that never return
// from the activation they start in. Calls are crossed by summary edges
// (call vertex → its return point in the same context) or entered.
type descent struct {
	exit     []bool  // exit vertices: RTS, RTI, a returning stub
	flowPred *csr    // reversed flow and tail edges
	callPred *csr    // callee entry → the call vertices that enter it
	retUsers *csr    // return vertex → the call vertices that come back to it
	retOf    []int32 // call vertex → its return point in the same context, -1 if none
}

// descentOf builds (once) the same-level structure of g.
func (g *Graph) descentOf() *descent {
	if g.descent != nil {
		return g.descent
	}
	n := len(g.Verts)
	d := &descent{exit: make([]bool, n), retOf: make([]int32, n)}
	var ff, ft, cf, ct, rf, rt []int32
	for v := 0; v < n; v++ {
		x := g.Instr(int32(v))
		d.exit[v] = x.Kind.IsExit()
		d.retOf[v] = -1
		if x.Kind.IsCall() && g.Prog.callMayReturn(x) {
			vert := &g.Verts[v]
			if r, ok := g.Lookup(x.Ret, vert.Ctx[:vert.N]); ok {
				d.retOf[v] = r
				rf, rt = append(rf, r), append(rt, int32(v))
			}
		}
		adj, ek := g.Edges(int32(v))
		for j, w := range adj {
			switch ek[j] {
			case EdgeFlow, EdgeTail:
				ff, ft = append(ff, w), append(ft, int32(v))
			case EdgeCall:
				cf, ct = append(cf, w), append(ct, int32(v))
			}
		}
	}
	d.flowPred = buildCSR(n, ff, ft, nil)
	d.callPred = buildCSR(n, cf, ct, nil)
	d.retUsers = buildCSR(n, rf, rt, nil)
	g.descent = d
	return d
}

// item is a heap entry.
type item struct {
	d int64
	v int32
}

type minHeap []item

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i].d < h[j].d }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(item)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// sameLevel returns for every vertex the length of a shortest same-level
// path to an exit vertex, avoiding the excluded vertices (nil: none). A
// call crossed by its summary costs 1 (the call) + the callee's own
// same-level distance from its entry + 1 (the return). The summaries
// depend on the result, so this is Knuth's generalisation of Dijkstra's
// algorithm: a call vertex is relaxed when both its callee entry and its
// return point are final.
func (g *Graph) sameLevel(excluded []bool) []int32 {
	d := g.descentOf()
	n := len(g.Verts)
	dist := make([]int64, n)
	final := make([]bool, n)
	for i := range dist {
		dist[i] = int64(Inf)
	}
	h := &minHeap{}
	relax := func(v int32, c int64) {
		if excluded != nil && excluded[v] {
			return
		}
		if c < dist[v] {
			dist[v] = c
			heap.Push(h, item{c, v})
		}
	}
	for v := 0; v < n; v++ {
		if d.exit[v] {
			relax(int32(v), 0)
		}
	}
	for h.Len() > 0 {
		it := heap.Pop(h).(item)
		u := it.v
		if final[u] || it.d != dist[u] {
			continue
		}
		final[u] = true
		for _, p := range d.flowPred.list(u) {
			relax(p, it.d+1)
		}
		for _, c := range d.callPred.list(u) { // u is a callee entry
			if r := d.retOf[c]; r >= 0 && final[r] {
				relax(c, 2+it.d+dist[r])
			}
		}
		for _, c := range d.retUsers.list(u) { // u is a return point
			adj, ek := g.Edges(c)
			for j, e := range adj {
				if ek[j] == EdgeCall && final[e] {
					relax(c, 2+dist[e]+it.d)
				}
			}
		}
	}
	out := make([]int32, n)
	for v, x := range dist {
		out[v] = clamp(x)
	}
	return out
}

// clamp converts a distance to int32, Inf above the range.
func clamp(x int64) int32 {
	if x < 0 || x >= int64(Inf) {
		return Inf
	}
	return int32(x)
}

// ExitDistances returns for every vertex the length of a shortest
// same-level path to an exit of its activation (Inf if it cannot return):
// Figure 5's FSM(sa, srts).
func (g *Graph) ExitDistances() []int32 {
	if g.exit == nil {
		g.exit = g.sameLevel(nil)
	}
	return g.exit
}

// FrameTables are the per-vertex tables Figure 5 consults for each frame
// of the runtime stack, for one set of targets.
type FrameTables struct {
	// InScope is the length of a shortest same-level path to a target:
	// Figure 5's FSM(sa, err) over paths that do not leave the activation
	// through its return; Inf when the target is not in scope.
	InScope []int32
	// Exit is the length of a shortest same-level path to an exit of the
	// activation: Figure 5's FSM(sa, srts); Inf if it cannot return.
	Exit []int32
	// PostDom reports that the target post-dominates the vertex within its
	// procedure: a target is in scope and every same-level path to an exit
	// passes through one.
	PostDom []bool
}

// FrameTables computes Figure 5's tables for the targets.
//
// Same-level paths descend into callees and cross calls by summary edges,
// but never return from the activation they start in. Figure 5 states the
// same idea as paths that do not pass the frame's return vertex srts; on a
// finite graph srts cannot be told apart from the return vertex of a
// recursive activation nested in the frame whose top k return addresses are
// the same, and blocking that vertex would overestimate (even report Inf for
// a reachable target when k = 0). Summary edges make the tables exact for
// paths that stay in the frame, and keep the estimate admissible.
func (g *Graph) FrameTables(targets []uint16) *FrameTables {
	d := g.descentOf()
	n := len(g.Verts)
	exit := g.ExitDistances()
	isTarget := make([]bool, n)
	src := g.TargetVertices(targets)
	for _, t := range src {
		isTarget[t] = true
	}
	avoid := g.sameLevel(isTarget)

	// Reversed same-level edges with costs: flow/tail 1, call → entry 1,
	// call → return point 2 + the callee's distance to its exit.
	var from, to []int32
	var cost []int64
	for v := 0; v < n; v++ {
		adj, ek := g.Edges(int32(v))
		best := int64(Inf)
		for j, w := range adj {
			switch ek[j] {
			case EdgeFlow, EdgeTail:
				from, to, cost = append(from, w), append(to, int32(v)), append(cost, 1)
			case EdgeCall:
				from, to, cost = append(from, w), append(to, int32(v)), append(cost, 1)
				if e := int64(exit[w]); e < best {
					best = e
				}
			}
		}
		if r := d.retOf[v]; r >= 0 && best < int64(Inf) {
			from, to, cost = append(from, r), append(to, int32(v)), append(cost, 2+best)
		}
	}
	it := &sourced{c: buildCSR(n, from, to, cost), sources: src}
	_, dist := graph.ShortestPaths(it, n)
	ft := &FrameTables{InScope: make([]int32, n), Exit: exit, PostDom: make([]bool, n)}
	for v := 0; v < n; v++ {
		ft.InScope[v] = clamp(dist[v])
		ft.PostDom[v] = ft.InScope[v] < Inf && avoid[v] == Inf
	}
	return ft
}
