package search

import (
	"context"
	"os"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

func machine(tb testing.TB, path string, preempt sim.Preempt) *sim.Machine {
	tb.Helper()
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("%s not built", path)
	}
	img, err := loader.Load(path, loader.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	m, err := sim.NewMachine(img, sim.Config{Entry: img.Entry, Preempt: preempt})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestStoreExact: a state is found again exactly when it is equal, and the
// compact and exact stores agree on small spaces.
func TestStoreExact(t *testing.T) {
	m := machine(t, "../testdata/bench/naive2.elf", sim.PreemptCalls)
	exact := Run(context.Background(), m, Options{Strategy: BFS, MaxStates: 20000, All: true})
	compact := Run(context.Background(), m, Options{Strategy: BFS, MaxStates: 20000, All: true, Compact: true})
	if exact.Stats.StatesStored != compact.Stats.StatesStored {
		t.Errorf("exact stored %d states, compact %d", exact.Stats.StatesStored, compact.Stats.StatesStored)
	}
	if compact.Omission <= 0 || compact.Omission > 1e-6 {
		t.Errorf("omission probability %g", compact.Omission)
	}
}

// BenchmarkSearch measures states stored per second and bytes per stored
// state on a dining-philosophers model, exhaustively up to b.N states.
func BenchmarkSearch(b *testing.B) {
	for _, c := range []struct {
		name    string
		compact bool
	}{{"exact", false}, {"compact", true}} {
		b.Run(c.name, func(b *testing.B) {
			m := machine(b, benchImage, sim.PreemptEvery)
			b.ReportAllocs()
			res := Run(context.Background(), m, Options{Strategy: DFS, MaxStates: max(b.N, 1000), Compact: c.compact, Ignore: map[sim.Kind]bool{sim.KindError: true}})
			b.ReportMetric(float64(res.Stats.StatesStored)/b.Elapsed().Seconds(), "states/s")
			b.ReportMetric(float64(res.Stats.StoreBytes)/float64(res.Stats.StatesStored), "bytes/state")
		})
	}
}

var benchImage = func() string {
	if p := os.Getenv("HC11MC_BENCH_IMAGE"); p != "" {
		return p
	}
	return "../testdata/bench/naive3.elf"
}()
