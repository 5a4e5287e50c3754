package symbolic

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/sim"
)

// TestBenchConcurrent: HMC gives the manifest's verdict on the concurrent
// benchmarks on which it used to run out of time (testdata/bench: the
// dining philosophers, whose only data nondeterminism is a choice of a
// few values per turn), with the estimate the CLI gives glh (efsm, k 1),
// and its counterexamples replay. Each had a minute and ended
// incomplete; now the slowest, moody3, takes about 15 s on two cores
// (-short leaves it out), the others a few seconds at most. The time
// bound here is generous: the test is about the verdict.
func TestBenchConcurrent(t *testing.T) {
	dir := filepath.Join("..", "testdata", "bench")
	man := readManifest(t, dir)
	slow := map[string]bool{"dining2": true, "moody2": true, "naive3": true, "dining3": true, "moody3": true}
	for _, c := range man {
		if !slow[c.Name] {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			if c.Name == "moody3" && testing.Short() {
				t.Skip("moody3 takes about 15 s (-short)")
			}
			m := machineFor(t, filepath.Join(dir, c.File), c.Flags)
			est, err := heuristics.NewStateEstimate(m, heuristics.StateConfig{Kind: heuristics.EFSM, K: 1})
			if err != nil {
				t.Fatal(err)
			}
			e, err := NewEngine(m, Options{})
			if err != nil {
				t.Fatal(err)
			}
			cfg := Config{Timeout: time.Minute,
				Estimate: func(s *sim.State) (int, bool) { return est.Estimate(s), true }}
			res := e.Check(context.Background(), []*State{e.Initial()}, cfg)
			expectResult(t, m, c, res)
		})
	}
}
