package cli

import (
	"context"
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/internal/randprog"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
)

// TestAutoDifferential: on random two-thread programs that draw wide
// nondeterministic values (randprog.Wide), --engine auto (an explicit
// search with partial-order reduction and stack privacy, --max-branch 4,
// its wide choices handed to HMC) reaches the verdict of the plain
// explicit search that enumerates every value (--reduce none, every kind
// found with --all): verified exactly when the plain search finds
// nothing, and otherwise a violation of a kind the plain search finds,
// whose trace replays. An incomplete HMC part (a limit) is allowed but
// counted. (--engine hmc alone is checked on the same programs by
// package symbolic's TestWideDifferential.)
func TestAutoDifferential(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 40
	}
	r := rand.New(rand.NewPCG(7, 11))
	var handed, violated, verified, incomplete, intruded int
	for i := range n {
		img, cfg, desc := randprog.Wide(r)
		m, err := sim.NewMachine(img, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ref := search.Run(context.Background(), m, search.Options{Strategy: search.BFS, All: true, MaxStates: 2_000_000})
		if ref.Verdict == search.Incomplete {
			continue
		}
		want := map[sim.Kind]bool{}
		for _, f := range ref.Found {
			want[f.Violation.Kind] = true
		}
		m2, err := sim.NewMachine(m.Image, m.Config) // a fresh one: privacy is a machine's
		if err != nil {
			t.Fatal(err)
		}
		o := &checkOptions{timeout: 20 * time.Second, hmc: engineFlags{maxBranch: 4}}
		opts := search.Options{Strategy: search.DFS, Reduce: true}
		cs := &check.Check{Machine: m2, Options: opts, Config: check.Config{Timeout: o.timeout,
			HMC: check.HMC{Mode: symbolic.HMC, Priority: symbolic.DFS, PRDepth: 8, MaxBranch: 4}}}
		e, err := symbolic.NewEngine(m2, symbolic.Options{MaxBranch: 4})
		if err != nil {
			t.Fatal(err)
		}
		m2.Config.MaxBranch = 4
		begin := time.Now()
		res := search.Run(context.Background(), m2, opts)
		got, rep, err := handOver(context.Background(), o, cs, e, res, func() *search.Result {
			return search.Run(context.Background(), m2, opts)
		}, begin, io.Discard)
		if err != nil {
			t.Fatalf("program %d (%s): %v", i, desc, err)
		}
		if rep.Ran {
			handed++
		}
		if m2.Intrusion() != nil {
			intruded++
		}
		switch got.Verdict {
		case search.Verified:
			verified++
			if len(want) > 0 {
				t.Errorf("program %d (%s): auto verified, the plain search finds %v", i, desc, want)
			}
		case search.Violated:
			violated++
			f := got.Found[0]
			if !want[f.Violation.Kind] {
				t.Errorf("program %d (%s): auto finds %s, the plain search %v", i, desc, f.Violation.Kind, want)
			}
			if err := check.Confirm(m, f.Violation, f.Trace); err != nil {
				t.Errorf("program %d (%s): the trace of %s does not replay: %v", i, desc, f.Violation.Kind, err)
			}
		default:
			incomplete++
			t.Logf("program %d (%s): auto incomplete: %s", i, desc, got.Limit)
		}
	}
	t.Logf("%d programs: %d handed choices to HMC, %d violated, %d verified, %d incomplete, %d broke stack privacy",
		n, handed, violated, verified, incomplete, intruded)
	if handed < n/3 || verified == 0 || violated == 0 || incomplete > n/10 {
		t.Errorf("the programs do not exercise the handoff: %d of %d handed, %d verified, %d violated, %d incomplete",
			handed, n, verified, violated, incomplete)
	}
}
