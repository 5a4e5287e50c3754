package search

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/sim"
)

// TestParallelCounts: on every model of testdata (but philo_big), an
// exhaustive search (--all, --reduce none) with 2, 3 and 4 workers stores
// exactly the states of a search of one, expands as many, finds the same
// kinds of violation, and every counterexample replays to its violation;
// breadth-first and depth-first, exact and compact. A search that stops at
// its first violation reaches the same verdict, and breadth-first finds it
// at the same depth.
func TestParallelCounts(t *testing.T) {
	limit, counts := 60000, []int{2, 3, 4}
	if raceEnabled || testing.Short() {
		limit, counts = 20000, []int{3}
	}
	for _, path := range corpus(t) {
		if strings.Contains(path, "/perf/") {
			continue // long transitions under --preempt calls: seconds per run
		}
		for _, preempt := range []sim.Preempt{sim.PreemptEvery, sim.PreemptCalls} {
			if preempt == sim.PreemptCalls && strings.Contains(path, "/bench/") {
				continue // busy-waiting loops run to --max-run in each transition
			}
			m := machine(t, path, preempt)
			name := filepath.Base(path) + "/" + preempt.String()
			for _, compact := range []bool{false, true} {
				for _, strat := range []Strategy{BFS, DFS} {
					base := Options{Strategy: strat, Compact: compact, All: true, MaxStates: limit}
					one := Run(context.Background(), m, base)
					if one.Verdict == Incomplete {
						continue
					}
					first := base
					first.All = false
					oneFirst := Run(context.Background(), m, first)
					for _, nw := range counts {
						opts := base
						opts.Workers = nw
						r := Run(context.Background(), m, opts)
						if r.Verdict != one.Verdict || r.Stats.StatesStored != one.Stats.StatesStored ||
							r.Stats.StatesExpanded != one.Stats.StatesExpanded || !maps.Equal(kinds(r), kinds(one)) {
							t.Errorf("%s, %s, compact %v, %d workers: %s, %d states stored, %d expanded, %v; one worker: %s, %d, %d, %v",
								name, strat, compact, nw, r.Verdict, r.Stats.StatesStored, r.Stats.StatesExpanded, kinds(r),
								one.Verdict, one.Stats.StatesStored, one.Stats.StatesExpanded, kinds(one))
						}
						if strat == BFS && r.Stats.MaxDepth != one.Stats.MaxDepth {
							t.Errorf("%s, compact %v, %d workers: depth %d, one worker %d", name, compact, nw, r.Stats.MaxDepth, one.Stats.MaxDepth)
						}
						replays(t, m, r, name)
						opts.All = false
						rf := Run(context.Background(), m, opts)
						if rf.Verdict != oneFirst.Verdict || len(rf.Found) != len(oneFirst.Found) {
							t.Errorf("%s, %s, compact %v, %d workers, first violation: %s, %d found; one worker %s, %d",
								name, strat, compact, nw, rf.Verdict, len(rf.Found), oneFirst.Verdict, len(oneFirst.Found))
							continue
						}
						replays(t, m, rf, name)
						if strat == BFS && len(rf.Found) > 0 && m.Config.Unbatched {
							// The first level with a violation is the same;
							// a deadlock there has a trace one shorter than
							// a violating transition from it. (With batches
							// a level's transitions are batches, and the
							// traces, split into instructions, of two
							// violations at one level differ in length.)
							a, b := len(rf.Found[0].Trace), len(oneFirst.Found[0].Trace)
							if a > b+1 || b > a+1 {
								t.Errorf("%s, compact %v, %d workers: a trace of %d steps, one worker %d", name, compact, nw, a, b)
							}
						}
					}
				}
			}
		}
	}
}

// replays checks that every counterexample of r replays to its violation.
func replays(t *testing.T, m *sim.Machine, r *Result, name string) {
	t.Helper()
	for _, f := range r.Found {
		_, v, err := Replay(m, f.Trace)
		if err != nil || v == nil || v.Kind != f.Violation.Kind {
			t.Errorf("%s: the %s counterexample does not replay: %v, %v", name, f.Violation.Kind, v, err)
		}
	}
}

// BenchmarkParallel measures states stored per second by a breadth-first
// search (--reduce none) of the dining-philosophers model with one and
// with two workers, up to b.N states: compare the two in one run.
func BenchmarkParallel(b *testing.B) {
	for _, mode := range []string{"exact", "compact"} {
		for _, nw := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", mode, nw), func(b *testing.B) {
				m := machine(b, benchImage, sim.PreemptEvery)
				b.ReportAllocs()
				res := Run(context.Background(), m, Options{Strategy: BFS, MaxStates: max(b.N, 1000), Compact: mode == "compact",
					Workers: nw, Ignore: map[sim.Kind]bool{sim.KindError: true}})
				b.ReportMetric(float64(res.Stats.StatesStored)/b.Elapsed().Seconds(), "states/s")
				b.ReportMetric(float64(res.Stats.StoreBytes)/float64(res.Stats.StatesStored), "bytes/state")
			})
		}
	}
}

// TestParallelLimits: a parallel search stops at --max-states (having
// stored at least that many states, and not many more), at --timeout, at
// --max-memory and when its context is cancelled, with the limit named and
// the states left counted; breadth-first and depth-first.
func TestParallelLimits(t *testing.T) {
	m := machine(t, "../testdata/bench/naive3.elf", sim.PreemptEvery)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, strat := range []Strategy{BFS, DFS} {
		for _, c := range []struct {
			ctx   context.Context
			opts  Options
			limit string
		}{
			{context.Background(), Options{MaxStates: 20000}, "--max-states 20000"},
			{context.Background(), Options{Timeout: time.Nanosecond}, "--timeout"},
			{context.Background(), Options{MaxMemory: 1 << 20}, "--max-memory"},
			{cancelled, Options{}, "interrupted"},
		} {
			opts := c.opts
			opts.Strategy, opts.Workers, opts.All = strat, 2, true
			r := Run(c.ctx, m, opts)
			if r.Verdict != Incomplete || !strings.HasPrefix(r.Limit.String(), c.limit) || r.Stats.Frontier == 0 || r.Stats.Workers != 2 {
				t.Errorf("%s, %s: %s, limit %q, frontier %d, %d workers", strat, c.limit, r.Verdict, r.Limit, r.Stats.Frontier, r.Stats.Workers)
			}
			if opts.MaxStates > 0 && (r.Stats.StatesStored < opts.MaxStates || r.Stats.StatesStored > opts.MaxStates+5000) {
				t.Errorf("%s: --max-states %d stored %d states", strat, opts.MaxStates, r.Stats.StatesStored)
			}
		}
	}
}
