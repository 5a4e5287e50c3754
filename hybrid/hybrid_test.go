package hybrid

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
	"github.com/hc11mc/hc11mc/testkit/randprog"
)

// outcome is one program's comparison: the plain search's violation
// kinds, and what the hand-off did.
type outcome struct {
	want     map[sim.Kind]bool
	plain    *sim.Machine // every choice enumerated, no reduction
	got      *check.Result
	rep      *Report
	intruded bool
}

// compare checks random program i (randprog.Wide) with the hand-off
// (partial-order reduction and stack privacy, MaxBranch 4, the wide
// choices handed to HMC) and with the plain explicit search that
// enumerates every value (no reduction, every kind found with All). It
// returns false when the plain search does not end within its bound.
func compare(t *testing.T, r *rand.Rand) (outcome, string, bool) {
	t.Helper()
	img, cfg, desc := randprog.Wide(r)
	plain, err := sim.NewMachine(img, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ref := search.Run(context.Background(), plain, search.Options{Strategy: search.BFS, All: true, MaxStates: 2_000_000})
	if ref.Verdict == search.Incomplete {
		return outcome{}, desc, false
	}
	o := outcome{want: map[sim.Kind]bool{}, plain: plain}
	for _, f := range ref.Found {
		o.want[f.Violation.Kind] = true
	}
	m, err := sim.NewMachine(img, cfg) // a machine of its own: privacy is a machine's
	if err != nil {
		t.Fatal(err)
	}
	h := New(m, Config{MaxBranch: 4, Search: search.Options{Strategy: search.DFS, Reduce: true, MaxStates: 100_000},
		HMC: symbolic.Config{Mode: symbolic.HMC, Priority: symbolic.DFS, PRDepth: 8}})
	if h.Alone() != "" {
		t.Fatalf("HMC takes no part on a harness model: %s", h.Alone())
	}
	if o.got, err = h.Run(context.Background()); err != nil {
		t.Fatalf("%s: %v", desc, err)
	}
	o.rep = h.Report()
	o.intruded = m.Intrusion() != nil
	return o, desc, true
}

// TestDifferential: on random two-thread programs that draw wide
// nondeterministic values, the hand-off reaches the verdict of the plain
// explicit search that enumerates every value: verified exactly when the
// plain search finds nothing, and otherwise a violation of a kind the
// plain search finds, whose trace replays on a machine that enumerates
// every choice. An incomplete HMC part (a limit) is allowed but counted;
// and the programs must exercise the hand-off (choices handed over,
// both verdicts).
func TestDifferential(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 40
	}
	r := rand.New(rand.NewPCG(7, 11))
	var handed, violated, verified, incomplete, intruded int
	for i := range n {
		o, desc, ok := compare(t, r)
		if !ok {
			continue
		}
		if o.rep.Ran {
			handed++
		}
		if o.intruded {
			intruded++
		}
		if why := o.wrong(); why != "" {
			t.Errorf("program %d (%s): %s (it finds %v)", i, desc, why, o.want)
		}
		switch o.got.Verdict {
		case check.Verified:
			verified++
		case check.Violated:
			violated++
			f := o.got.Found[0]
			if err := check.Confirm(o.plain, f.Violation, f.Trace); err != nil {
				t.Errorf("program %d (%s): the trace of %s does not replay: %v", i, desc, f.Violation.Kind, err)
			}
		default:
			incomplete++
			t.Logf("program %d (%s): incomplete: %s", i, desc, o.got.Limit)
		}
	}
	t.Logf("%d programs: %d handed choices to HMC, %d violated, %d verified, %d incomplete, %d broke stack privacy",
		n, handed, violated, verified, incomplete, intruded)
	if handed < n/3 || verified == 0 || violated == 0 || incomplete > n/10 {
		t.Errorf("the programs do not exercise the hand-off: %d of %d handed, %d verified, %d violated, %d incomplete",
			handed, n, verified, violated, incomplete)
	}
}

// wrong says how o's verdict contradicts the plain search's, "" when it
// does not (an incomplete verdict contradicts nothing).
func (o outcome) wrong() string {
	switch {
	case o.got.Verdict == check.Verified && len(o.want) > 0:
		return "verified where the plain search finds a violation"
	case o.got.Verdict == check.Violated && !o.want[o.got.Found[0].Violation.Kind]:
		return "a violation the plain search does not find"
	}
	return ""
}

// TestDifferentialCatches: TestDifferential's programs tell a hand-off
// whose HMC part is skipped (mutation.SkipHandoff: the handed transitions
// taken for followed) from the plain search.
func TestDifferentialCatches(t *testing.T) {
	defer mutation.Set(mutation.SkipHandoff)()
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 120 {
		o, desc, ok := compare(t, r)
		if !ok {
			continue
		}
		if why := o.wrong(); why != "" {
			t.Logf("caught by program %d (%s): %s", i, desc, why)
			return
		}
	}
	t.Errorf("no program told a hand-off without HMC from the plain search")
}
