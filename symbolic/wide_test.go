package symbolic

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/testkit/randprog"
)

// TestWideDifferential: on random two-thread programs that draw wide
// nondeterministic values (randprog.Wide: tables looked up with drawn
// values, stacks published and written through), the state traversal
// with partial-order reduction, every choice a symbol, reaches the
// verdict of the plain explicit search that enumerates every value:
// verified exactly when that finds nothing, otherwise a violation of a
// kind it finds, whose trace replays. Package hybrid's differential test
// runs on the same programs.
func TestWideDifferential(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 40
	}
	r := rand.New(rand.NewPCG(7, 11))
	compared, reduced, private := 0, 0, 0
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
		m2, err := sim.NewMachine(img, cfg) // privacy is a machine's
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewEngine(m2, Options{Reduce: true})
		if err != nil {
			t.Fatal(err)
		}
		// The state traversal alone: bounded model checks, which do not
		// reduce, would decide many of these programs before it ran.
		res := e.Check(context.Background(), []*State{e.Initial()}, Config{Mode: ST, MaxStates: 100_000})
		switch res.Verdict {
		case Verified:
			if len(want) > 0 {
				t.Errorf("program %d (%s): verified, the plain search finds %v", i, desc, want)
			}
		case Violated:
			if !want[res.Violation.Kind] {
				t.Errorf("program %d (%s): finds %s, the plain search %v", i, desc, res.Violation.Kind, want)
			}
			replays(t, m, m.Initial(), res.Trace, res.Violation.Kind)
		default:
			t.Logf("program %d (%s): incomplete: %s", i, desc, res.Limit)
		}
		compared++
		if res.Stats.Reduced > 0 {
			reduced++
		}
		if res.Privacy != "" {
			private++
		}
	}
	t.Logf("%d programs compared, %d with images reduced, %d where a stack's privacy broke", compared, reduced, private)
	if reduced < n/2 || private == 0 {
		t.Errorf("the programs do not exercise the reduction: %d reduced, %d with privacy broken", reduced, private)
	}
}
