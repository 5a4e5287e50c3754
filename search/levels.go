package search

import (
	"fmt"
	"math"
	"slices"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/sim"
)

// Proved depth. A search stopped by a limit still proves something when
// it explored breadth-first: Result.Levels is a number E such that every
// state fewer than E transitions from the initial state was expanded,
// so that every execution of at most E-1 transitions was followed to its
// end, and no violation on it (on one of its transitions, or a deadlock
// at its last state) went unreported. Why it holds:
//
//   - Sequential breadth-first search pops states in the order of their
//     depth, the depth of a stored state is the length of the shortest
//     path to it (its parent was popped first, at the least depth), and a
//     state leaves the frontier only when its expansion is complete (a
//     limit is looked at between expansions). So when the search stops,
//     the states of depth below E = the least depth in the frontier have
//     all been expanded; a state whose wide choice was handed on
//     (Result.Handed) was not expanded in full, and E is at most its depth.
//   - Parallel breadth-first search (parallel.go) expands level by level
//     behind a barrier, and a level counts as complete only when the
//     barrier after it finds that no worker was halted: a halted worker
//     may have left states of its level unexpanded.
//   - Dead-data elimination and the canonical keys of thread contexts
//     merge states that the rest of every execution cannot tell apart
//     (sim/live.go): a merged state's depth is the least of its members',
//     each member's transitions are its representative's, step for step,
//     and a violation of one is a violation of the other. The depth of
//     every state is therefore unchanged, and the claim holds as without.
//   - Partial-order reduction keeps every violation, but not its depth:
//     the reduced graph reaches a violation by a reordering of a path to
//     it that may be longer (the ample transitions it takes first). No
//     depth is claimed under it (LevelsNote says so).
//   - Depth-first, best-first, A* and random orders leave states of small
//     depth in the frontier while they go deep, and store states at depths
//     that are not their distance: no depth is claimed.
//   - A search resumed from a saved frontier (snapshot.go) keeps what the
//     saved one proved: the states it expanded stay expanded, whatever
//     the order of the rest. A breadth-first search resumed from a
//     breadth-first one goes on from the saved frontier's depths, which
//     are distances, and the claim grows with it; resumed from any other
//     order, the frontier's depths are not distances and the claim stays
//     the saved one's. When Run searches again from the initial state (an
//     assumption of a reduction broke), the saved part and its claim are
//     dropped with it.
//
// A transition is one step of a counterexample (the unit its listing
// numbers): a thread's run to its next scheduling point, or an
// interrupt's entry, or an event of the environment.
type levels struct {
	bfs       bool   // every run so far explored breadth-first without partial-order reduction
	note      string // why not, when not
	saved     int    // what the runs before proved
	minHanded int    // the least depth of a state with transitions handed on; -1 for none
}

// savedLevels is what a snapshot carries of the proved depth.
type savedLevels struct {
	Levels int  // Result.Levels of the saved search
	BFS    bool // its frontier's depths are distances (levels.bfs)
}

func newLevels(opts *Options) *levels {
	lv := &levels{bfs: opts.Strategy == BFS && !opts.Reduce, minHanded: -1}
	switch {
	case opts.Reduce:
		lv.note = "partial-order reduction reaches a violation by a reordering of a path to it that may be longer: no depth is claimed under it (--reduce none or dead claims one)"
	case opts.Strategy != BFS:
		lv.note = fmt.Sprintf("--search %s leaves states of small depth unexpanded while it goes deep: only breadth-first search claims a depth", opts.Strategy)
	}
	return lv
}

// resume takes over what the saved search proved.
func (lv *levels) resume(sn *snapshot) {
	lv.saved = sn.Levels.Levels
	if lv.bfs && !sn.Levels.BFS && !mutation.On(mutation.ResumeClaim) {
		lv.bfs = false
		lv.note = "the saved search was not breadth-first without partial-order reduction, so the depths of its frontier are not distances"
	}
}

// handed notes a state at depth d whose transitions were not all followed.
func (lv *levels) handed(d int) {
	if lv.minHanded < 0 || d < lv.minHanded {
		lv.minHanded = d
	}
}

// proved is Result.Levels and Result.LevelsNote for a search that stops
// with the frontier f.
func (lv *levels) proved(f *frontier) (int, string) {
	if !lv.bfs {
		if lv.saved > 0 {
			return lv.saved, ""
		}
		return 0, lv.note
	}
	e := math.MaxInt
	for _, n := range f.all() {
		e = min(e, n.depth)
	}
	if lv.minHanded >= 0 {
		e = min(e, lv.minHanded)
	}
	if e == math.MaxInt {
		return lv.saved, "" // nothing left at all: the limit came with the last state
	}
	if mutation.On(mutation.DeepClaim) {
		e++
	}
	return max(e, lv.saved), ""
}

// saved is what a snapshot of the search carries, given its Levels.
func (lv *levels) snap(levels int) savedLevels { return savedLevels{Levels: levels, BFS: lv.bfs} }

// frontierKey is the priority of a state s at depth in the frontier of a
// search with opts (frontier.push): its depth, or its estimate for
// best-first search, or both for A*.
func frontierKey(opts *Options, s *sim.State, depth int) int {
	if opts.Estimate == nil {
		return depth
	}
	h := opts.Estimate(s)
	switch opts.Strategy {
	case AStar:
		if h > math.MaxInt-depth {
			return math.MaxInt
		}
		return depth + h
	case Best:
		return h
	}
	return 0
}

// FrontierPC is a PC at which states of the frontier of a stopped search
// have a thread: how many of them, and a few of them for a closer look.
type FrontierPC struct {
	PC     uint16
	States int
	Sample []*sim.State // at most frontierSample of them
}

// frontierTop and frontierSample bound Result.Frontier: the PCs it
// names, and the states it keeps of each.
const (
	frontierTop    = 5
	frontierSample = 64
)

// frontierPCs counts the states of f by the PCs of their threads (a state
// counts once at each PC one of its threads is at), for the PCs most
// states are at.
func frontierPCs(m *sim.Machine, st *store, f *frontier) []FrontierPC {
	count := map[uint16]int{}
	var seen []uint16
	cur := &sim.State{}
	each := func(fn func(s *sim.State, pcs []uint16)) {
		for _, n := range f.all() {
			s := n.s
			if n.packed != nil {
				st.unpack(cur, n.packed)
				s = cur
			}
			seen = seen[:0]
			for i := range s.Threads {
				if s.Threads[i].Status != sim.Exited && !slices.Contains(seen, s.Threads[i].PC) {
					seen = append(seen, s.Threads[i].PC)
				}
			}
			fn(s, seen)
		}
	}
	each(func(_ *sim.State, pcs []uint16) {
		for _, pc := range pcs {
			count[pc]++
		}
	})
	var top []FrontierPC
	for pc, c := range count {
		top = append(top, FrontierPC{PC: pc, States: c})
	}
	slices.SortFunc(top, func(a, b FrontierPC) int {
		if a.States != b.States {
			return b.States - a.States
		}
		return int(a.PC) - int(b.PC)
	})
	top = top[:min(len(top), frontierTop)]
	if len(top) == 0 {
		return nil
	}
	each(func(s *sim.State, pcs []uint16) {
		for k := range top {
			if len(top[k].Sample) < frontierSample && slices.Contains(pcs, top[k].PC) {
				top[k].Sample = append(top[k].Sample, s.Clone())
			}
		}
	})
	return top
}
