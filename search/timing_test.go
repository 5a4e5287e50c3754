package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/testkit/randprog"
)

// The timing properties (sim/timing.go) on random multi-threaded
// programs: the largest values the search measures — the masked
// interval, the period of thread 1's loop (a deadline from its entry
// back to it, which every other thread's and handler's instructions in
// between lengthen), the latency of TOC1 — are the same under every
// reduction, order and store as under the plain breadth-first search,
// which explores every state with its timing page: those are the exact
// maxima up to the cap.

// timingCap keeps the counters small: a value that reaches it is the
// same "at least" under every setting, and the state space stays small.
const timingCap = 40

// timingMachine builds program seed's machine with every timing property
// measured (no bound), and dead-data elimination when dead.
func timingMachine(t *testing.T, seed uint64, dead bool) (*sim.Machine, string) {
	img, cfg, desc := randprog.Program(rand.New(rand.NewPCG(seed, 0x7171)))
	tm := &sim.Timing{Cap: timingCap, Masked: sim.TimingBound{Track: true},
		Deadlines: []sim.Deadline{{From: 0xD400, To: 0xD400, Name: "0xD400:0xD400", TimingBound: sim.TimingBound{Track: true}}}}
	if len(cfg.IRQs) > 0 {
		v, _ := sim.VectorIndex("toc1")
		tm.Latencies = []sim.Latency{{IRQ: v, TimingBound: sim.TimingBound{Track: true}}}
	}
	cfg.Timing, cfg.Dead = tm, dead
	m, err := sim.NewMachine(img, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m, desc
}

// ignoreAll reports no violation, so that a search explores every state
// (a violating transition's state is not explored under any setting).
func ignoreAll() map[sim.Kind]bool {
	ig := map[sim.Kind]bool{}
	for _, n := range sim.KindNames() {
		k, _ := sim.ParseKind(n)
		ig[k] = true
	}
	return ig
}

// timingSetting is one way of searching compared with the plain one.
type timingSetting struct {
	name string
	dead bool
	opts Options
}

var timingSettings = []timingSetting{
	{"por dfs", false, Options{Strategy: DFS, Reduce: true}},
	{"por bfs", false, Options{Strategy: BFS, Reduce: true}},
	{"por,dead dfs", true, Options{Strategy: DFS, Reduce: true}},
	{"dead bfs", true, Options{Strategy: BFS}},
	{"por,dead bfs, 2 workers", true, Options{Strategy: BFS, Reduce: true, Workers: 2}},
	{"hash-compact dfs", false, Options{Strategy: DFS, Compact: true}},
}

// timingValues is what a machine's searches measured, as text.
func timingValues(m *sim.Machine) []string {
	var out []string
	for _, v := range m.TimingValues() {
		out = append(out, fmt.Sprintf("%s=%d%s", v.Property, v.Value, map[bool]string{true: "+"}[v.AtLeast]))
	}
	return out
}

// timingDiff compares the settings with the plain search on program
// seed: the discrepancies, and whether the plain search was exhaustive.
func timingDiff(t *testing.T, seed uint64) (bad []string, ok bool) {
	m, desc := timingMachine(t, seed, false)
	ref := Run(context.Background(), m, Options{Strategy: BFS, MaxStates: 30000, Ignore: ignoreAll()})
	if ref.Verdict != Verified {
		return nil, false
	}
	want := timingValues(m)
	for _, s := range timingSettings {
		ms, _ := timingMachine(t, seed, s.dead)
		o := s.opts
		o.MaxStates, o.Ignore = 30000, ignoreAll()
		res := Run(context.Background(), ms, o)
		got := timingValues(ms)
		switch {
		case res.Verdict != Verified && ms.Intrusion() == nil && ms.DeadBroken() == nil:
			bad = append(bad, fmt.Sprintf("%s: %s (%s)", s.name, res.Verdict, res.Limit))
		case res.Verdict == Verified && !slices.Equal(got, want):
			bad = append(bad, fmt.Sprintf("%s: %v, the plain search %v (%s)", s.name, got, want, desc))
		}
	}
	return bad, true
}

// TestTimingDifferential: every setting measures the plain search's
// values, on the random programs whose plain search is exhaustive.
func TestTimingDifferential(t *testing.T) {
	n := uint64(150)
	if testing.Short() {
		n = 40
	}
	compared, measured := 0, 0
	for seed := range n {
		bad, ok := timingDiff(t, seed)
		if ok {
			compared++
			m, _ := timingMachine(t, seed, false)
			Run(context.Background(), m, Options{Strategy: BFS, MaxStates: 30000, Ignore: ignoreAll()})
			for _, v := range m.TimingValues() {
				if v.Value > 0 {
					measured++
					break
				}
			}
		}
		if len(bad) > 0 {
			t.Errorf("program %d:\n  %v", seed, bad)
		}
	}
	t.Logf("%d of %d programs compared, %d of them with a value above 0", compared, n, measured)
	// About half the programs end within the plain search's bound (77 of
	// 150, 17 of the first 40): a third is the floor below which the
	// comparison would have become vacuous.
	if compared < int(n)/3 || measured < compared/3 {
		t.Errorf("only %d of %d programs compared, %d with a value above 0", compared, n, measured)
	}
}

// timingCatches are programs on which TestTimingDifferential's
// comparison fails once partial-order reduction stays on with timing
// properties (mutation.TimingPOR).
var timingCatches = []uint64{21, 62}

// TestTimingDifferentialCatches: with mutation.TimingPOR the comparison
// fails on timingCatches, so it would catch a reduction that follows
// alone a step that advances the time.
func TestTimingDifferentialCatches(t *testing.T) {
	defer mutation.Set(mutation.TimingPOR)()
	if len(timingCatches) == 0 {
		var found []uint64
		for seed := range uint64(300) {
			if bad, _ := timingDiff(t, seed); len(bad) > 0 {
				found = append(found, seed)
				if len(found) == 3 {
					break
				}
			}
		}
		t.Fatalf("timingCatches is empty; programs that catch timing-por: %v", found)
	}
	for _, seed := range timingCatches {
		if bad, ok := timingDiff(t, seed); !ok || len(bad) == 0 {
			t.Errorf("timing-por: program %d agrees with the plain search", seed)
		}
	}
}
