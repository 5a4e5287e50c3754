package search

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/sim"
)

// plainLevels is a second, plain breadth-first search of m's states
// (sim.Machine.Successors, every transition, a state's depth the level it
// was first met at): the number of states at each depth, and the length
// of the shortest counterexample (a violating transition from depth d
// counts d+1, a deadlock at depth d counts d), math.MaxInt for none; nil
// counts for a program of more than plainMax states, which the tests
// pass over.
func plainLevels(m *sim.Machine) (counts []int, shallowest int, pcs []map[uint16]bool) {
	st := newStore(false)
	st.view = keyView(m)
	st.canon = m.CanonicalKey
	level := []*sim.State{m.Initial()}
	st.insert(m.Initial(), 0, sim.Label{})
	shallowest = math.MaxInt
	for d := 0; len(level) > 0; d++ {
		if st.n > plainMax {
			return nil, 0, nil
		}
		counts = append(counts, len(level))
		at := map[uint16]bool{}
		pcs = append(pcs, at)
		var next []*sim.State
		for _, s := range level {
			for i := range s.Threads {
				if s.Threads[i].Status != sim.Exited {
					at[s.Threads[i].PC] = true
				}
			}
			succ, dl := m.Successors(s, nil, nil)
			if dl != nil {
				shallowest = min(shallowest, d)
			}
			for _, sc := range succ {
				if sc.Violation != nil {
					shallowest = min(shallowest, d+1)
					continue
				}
				if _, isNew := st.insert(sc.State, 0, sc.Label); isNew {
					next = append(next, sc.State)
				}
			}
		}
		level = next
	}
	return counts, shallowest, pcs
}

// uncoveredBelow is a PC that a thread of some state fewer than e
// transitions from the initial state is at (pcs, by depth), which covered
// does not hold: a state the search claims to have expanded but did not.
func uncoveredBelow(pcs []map[uint16]bool, e int, covered map[uint16]bool) (uint16, bool) {
	for d := 0; d < e && d < len(pcs); d++ {
		for pc := range pcs[d] {
			if !covered[pc] {
				return pc, true
			}
		}
	}
	return 0, false
}

// plainMax bounds the programs the tests of the proved depth look at.
const plainMax = 20000

// levelsAfter is the number of levels counts has completely expanded
// after x expansions in breadth-first order.
func levelsAfter(counts []int, x int) int {
	e, sum := 0, 0
	for e < len(counts) && sum+counts[e] <= x {
		sum += counts[e]
		e++
	}
	return e
}

// provedDepthFaults checks the depth claimed by breadth-first searches of
// random programs stopped after a random number of states, against
// plainLevels: a sequential search without reductions claims exactly the
// levels it expanded; every search (dead-data elimination, two workers,
// resumed in another order) claims no depth at which a counterexample
// exists, and expanded a state at every PC a state of its claimed levels
// is at; a breadth-first search resumed from a depth-first one claims
// nothing, as the saved depths are not distances. It returns the number of discrepancies, and
// the number of claims checked.
func provedDepthFaults(t *testing.T, seeds int, errorf func(string, ...any)) (bad, claims int) {
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 0x1e7e1))
		m, md, desc, fresh := randomProgramFresh(t, r)
		counts, shallowest, pcs := plainLevels(m)
		if counts == nil {
			continue
		}
		total := 0
		for _, c := range counts {
			total += c
		}
		for k := range 3 {
			cut := 1 + r.IntN(max(1, total))
			check := func(what string, res *Result, exact int) {
				if res.Verdict != Incomplete {
					return
				}
				claims++
				if res.Levels > shallowest {
					bad++
					errorf("seed %d %s (cut %d): claims no violation within %d transitions, but one is %d away\n%s",
						seed, what, cut, res.Levels-1, shallowest, desc)
				}
				if pc, ok := uncoveredBelow(pcs, res.Levels, res.Covered); ok {
					bad++
					errorf("seed %d %s (cut %d): claims %d levels expanded, but no expanded state was at 0x%04X, where a state of them is",
						seed, what, cut, res.Levels, pc)
				}
				if exact >= 0 && res.Levels != exact {
					bad++
					errorf("seed %d %s (cut %d): claims %d levels after %d expansions; the plain search's levels %v give %d",
						seed, what, cut, res.Levels, res.Stats.StatesExpanded, counts, exact)
				}
			}
			res := Run(context.Background(), m, Options{Strategy: BFS, MaxStates: cut})
			check("bfs", res, levelsAfter(counts, res.Stats.StatesExpanded))
			check("bfs dead", Run(context.Background(), md, Options{Strategy: BFS, MaxStates: cut}), -1)
			if k == 0 {
				check("bfs 2 workers", Run(context.Background(), fresh(), Options{Strategy: BFS, MaxStates: cut, Workers: 2}), -1)
			}
			// Saved by a depth-first search and resumed breadth-first:
			// the frontier's depths are not distances.
			opts := Options{Strategy: DFS, MaxStates: 1 + r.IntN(max(1, total)), Key: "k"}
			r1 := Run(context.Background(), fresh(), opts)
			if r1.Verdict == Incomplete && r1.CanSave() {
				var buf bytes.Buffer
				if err := r1.SaveFrontier(&buf); err != nil {
					t.Fatal(err)
				}
				r2 := Run(context.Background(), fresh(), Options{Strategy: BFS, MaxStates: cut, Key: "k", Resume: &buf})
				if r2.Err != nil {
					t.Fatal(r2.Err)
				}
				// Nothing is known of the distances of the frontier's
				// states: no depth may be claimed from them.
				check("dfs then bfs", r2, 0)
			}
		}
	}
	return bad, claims
}

// TestProvedDepth: the depth a stopped breadth-first search claims holds,
// on random programs, and is the levels it expanded.
func TestProvedDepth(t *testing.T) {
	bad, claims := provedDepthFaults(t, 40, t.Errorf)
	if claims < 40 {
		t.Fatalf("only %d stopped searches claimed a depth", claims)
	}
	if bad > 0 {
		t.Fatalf("%d wrong claims", bad)
	}
}

// TestProvedDepthCatches: the check of TestProvedDepth catches a claim one
// level too deep, and a resumed search that takes depths of another
// order for distances.
func TestProvedDepthCatches(t *testing.T) {
	for _, f := range []mutation.Fault{mutation.DeepClaim, mutation.ResumeClaim} {
		t.Run(f.String(), func(t *testing.T) {
			defer mutation.Set(f)()
			bad, _ := provedDepthFaults(t, 40, func(string, ...any) {})
			if bad == 0 {
				t.Fatalf("%s: no wrong claim caught", f)
			}
		})
	}
}

// TestResumeOtherOrder: a breadth-first search saved with its proved
// depth and resumed depth-first keeps the claim, and reaches the verdict
// of one search to the end; resumed breadth-first, the claim grows.
func TestResumeOtherOrder(t *testing.T) {
	checked := 0
	for seed := range uint64(30) {
		r := rand.New(rand.NewPCG(seed, 0x2e5))
		_, _, _, fresh := randomProgramFresh(t, r)
		counts, shallowest, _ := plainLevels(fresh())
		if counts == nil {
			continue
		}
		full := Run(context.Background(), fresh(), Options{Strategy: BFS})
		r1 := Run(context.Background(), fresh(), Options{Strategy: BFS, MaxStates: 1 + r.IntN(full.Stats.StatesStored), Key: "k"})
		if r1.Verdict != Incomplete || !r1.CanSave() || r1.Levels == 0 {
			continue
		}
		if r1.Levels != levelsAfter(counts, r1.Stats.StatesExpanded) {
			t.Fatalf("seed %d: %d levels claimed after %d expansions, the plain search gives %d", seed, r1.Levels, r1.Stats.StatesExpanded, levelsAfter(counts, r1.Stats.StatesExpanded))
		}
		var saved bytes.Buffer
		if err := r1.SaveFrontier(&saved); err != nil {
			t.Fatal(err)
		}
		for _, strat := range []Strategy{DFS, Random, BFS} {
			in := bytes.NewReader(saved.Bytes())
			// Cut again after a few states: the combined claim.
			r2 := Run(context.Background(), fresh(), Options{Strategy: strat, MaxStates: 1 + r.IntN(8), Key: "k", Resume: in})
			if r2.Err != nil {
				t.Fatalf("seed %d, resumed %s: %v", seed, strat, r2.Err)
			}
			checked++
			if r2.Verdict == Incomplete {
				if r2.Levels < r1.Levels || r2.Levels > shallowest {
					t.Errorf("seed %d: saved with %d levels, resumed %s claims %d (a counterexample is %d away)", seed, r1.Levels, strat, r2.Levels, shallowest)
				}
				if strat != BFS && r2.Levels != r1.Levels {
					t.Errorf("seed %d: resumed %s claims %d levels, not the saved %d", seed, strat, r2.Levels, r1.Levels)
				}
			}
			// To the end: the verdict of one search.
			in = bytes.NewReader(saved.Bytes())
			r3 := Run(context.Background(), fresh(), Options{Strategy: strat, Key: "k", Resume: in})
			if (r3.Verdict == Violated) != (full.Verdict == Violated) || r3.Verdict == Incomplete {
				t.Errorf("seed %d: resumed %s to the end: %v, one search: %v", seed, strat, r3.Verdict, full.Verdict)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d resumed searches", checked)
	}
}
