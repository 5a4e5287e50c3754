package symbolic

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/sim"
)

// BenchmarkHMC times --engine hmc (HMC with glh on the CLI's estimate,
// efsm with k 1, and partial-order reduction) from the
// initial state to the manifest's verdict on the data-heavy models of
// testdata/models/symbolic, the CRC-16 check first: the time the whole
// process takes, less loading the image and the Z3 context, which
// NewEngine makes outside the timer. It reports the images, groups,
// solver queries and solver time of one run.
//
//	go test ./symbolic -run '^$' -bench HMC -count 6 | tee new.txt
//	benchstat old.txt new.txt
func BenchmarkHMC(b *testing.B) {
	dir := filepath.Join("..", "testdata", "models", "symbolic")
	man := map[string]manifestEntry{}
	for _, c := range readManifest(b, dir) {
		man[c.Name] = c
	}
	for _, name := range []string{"crc16_ok", "crc16_bad", "crc8", "secret6"} {
		c, ok := man[name]
		if !ok {
			b.Fatalf("no model %s in %s/manifest.json", name, dir)
		}
		b.Run(name, func(b *testing.B) {
			m := machineFor(b, filepath.Join(dir, c.File), c.Flags)
			est, err := heuristics.NewStateEstimate(m, heuristics.StateConfig{Kind: heuristics.EFSM, K: 1})
			if err != nil {
				b.Fatal(err)
			}
			cfg := Config{Timeout: time.Minute, Ignore: ignored(c.Flags),
				Estimate: func(s *sim.State) (int, bool) { return est.Estimate(s), true }}
			var last Stats
			for b.Loop() {
				b.StopTimer()
				e, err := NewEngine(m, Options{Reduce: true})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				res := e.Check(context.Background(), []*State{e.Initial()}, cfg)
				if res.Verdict.String() != c.Expect {
					b.Fatalf("%s: %v (%s), want %s; %v", name, res.Verdict, res.Limit, c.Expect, res.Stats)
				}
				last = res.Stats
			}
			b.ReportMetric(float64(last.Images), "images")
			b.ReportMetric(float64(last.Groups), "groups")
			b.ReportMetric(float64(last.Queries), "queries")
			b.ReportMetric(last.SolverTime.Seconds(), "solver-s")
		})
	}
}
