package symbolic

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/testkit/randprog"
)

// readsCompare checks program p of randprog.Reads with each of
// joinConfigs (ST, and ST and HMC with glh, whose bounded model checks
// unroll lazily) and with --max-branch 16 against the plain explicit
// search that enumerates every value: what went wrong, nothing when
// nothing did; ok is false when the plain search does not end within its
// bound. Runs that end unsupported are counted in incomplete.
func readsCompare(t *testing.T, p *randprog.Prog) (wrong []string, incomplete int, ok bool) {
	t.Helper()
	img, err := p.Image()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := p.Config(img)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sim.NewMachine(img, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ref := search.Run(context.Background(), m, search.Options{Strategy: search.BFS, All: true, MaxStates: 500_000})
	if ref.Verdict == search.Incomplete {
		return nil, 0, false
	}
	want := map[sim.Kind]bool{}
	for _, f := range ref.Found {
		want[f.Violation.Kind] = true
	}
	configs := append(joinConfigs[:len(joinConfigs):len(joinConfigs)], struct {
		name     string
		cfg      Config
		estimate bool
	}{"hmc, 16 values enumerated", Config{Mode: HMC}, false})
	for k, c := range configs {
		m2, err := sim.NewMachine(img, cfg)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Reduce: true}
		if k == len(configs)-1 {
			opts.MaxBranch = 16
		}
		e, err := NewEngine(m2, opts)
		if err != nil {
			t.Fatal(err)
		}
		hc := c.cfg
		hc.MaxStates = 100_000
		if c.estimate {
			est, err := heuristics.NewStateEstimate(m2, heuristics.StateConfig{Kind: heuristics.EFSM, K: 1})
			if err != nil {
				t.Fatal(err)
			}
			hc.Estimate = func(s *sim.State) (int, bool) { return est.Estimate(s), true }
		}
		res := e.Check(context.Background(), []*State{e.Initial()}, hc)
		switch res.Verdict {
		case Verified:
			if len(want) > 0 {
				wrong = append(wrong, c.name+": verified, the plain search finds a violation")
			}
		case Violated:
			if !want[res.Violation.Kind] {
				wrong = append(wrong, c.name+": "+res.Violation.Kind.String()+", which the plain search does not find")
			} else if why := replayed(m, res.Trace, res.Violation.Kind); why != "" {
				wrong = append(wrong, c.name+": "+why)
			}
		default:
			incomplete++
			t.Logf("%s: incomplete: %s", c.name, res.Limit)
		}
	}
	return wrong, incomplete, true
}

// TestReadsDifferential: on random programs of reads from every kind of
// source (randprog.Reads), each traversal of the symbolic engine reaches
// the verdict of the plain explicit search, and its counterexamples
// replay: no concrete step beside the terms reads a placeholder.
func TestReadsDifferential(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 15
	}
	r := rand.New(rand.NewPCG(11, 30))
	compared, incomplete := 0, 0
	for i := range n {
		p := randprog.Reads(r)
		wrong, inc, ok := readsCompare(t, p)
		if !ok {
			continue
		}
		compared++
		incomplete += inc
		for _, w := range wrong {
			t.Errorf("program %d: %s\n%s", i, w, p)
		}
	}
	t.Logf("%d programs compared, %d runs incomplete", compared, incomplete)
	if compared < n*9/10 || incomplete > compared {
		t.Errorf("the programs do not exercise the engine: %d of %d compared, %d runs incomplete", compared, n, incomplete)
	}
}

// TestReadsDifferentialCatches: TestReadsDifferential's programs tell
// concrete steps that read placeholders (mutation.PlaceholderRead) from
// the plain search.
func TestReadsDifferentialCatches(t *testing.T) {
	defer mutation.Set(mutation.PlaceholderRead)()
	r := rand.New(rand.NewPCG(11, 30))
	for i := range 60 {
		p := randprog.Reads(r)
		wrong, _, ok := readsCompare(t, p)
		if ok && len(wrong) > 0 {
			t.Logf("caught by program %d (%v): %s", i, p.Features, wrong[0])
			return
		}
	}
	t.Errorf("no program told the fault from the plain search")
}
