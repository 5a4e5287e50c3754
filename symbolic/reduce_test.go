package symbolic

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/testkit/randprog"
)

// TestReduceDifferential: on the random multi-threaded programs that
// package search checks its reduction on (package randprog: shared bytes,
// stacks published and written through by other threads, locks, atomic
// sections, interrupts), the state traversal with partial-order
// reduction (reduce.go) reaches the verdict of the plain explicit search
// (package search, every kind with All; the test's reference, not a
// dependency of this package): verified exactly when that finds nothing,
// otherwise a violation of a kind it finds, whose trace replays. It fails
// when the cycle proviso or the privacy of stack accesses is not checked.
func TestReduceDifferential(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	r := rand.New(rand.NewPCG(11, 12))
	compared, reduced, private := 0, 0, 0
	for i := range n {
		img, cfg, desc := randprog.Program(r)
		m, err := sim.NewMachine(img, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ref := search.Run(context.Background(), m, search.Options{Strategy: search.BFS, All: true, MaxStates: 20000})
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
		res := e.Check(context.Background(), []*State{e.Initial()}, Config{Mode: ST, Timeout: 30 * time.Second})
		switch res.Verdict {
		case Verified:
			if len(want) > 0 {
				t.Fatalf("program %d (%s): verified with reduction, the plain search finds %v", i, desc, want)
			}
		case Violated:
			if !want[res.Violation.Kind] {
				t.Fatalf("program %d (%s): %s with reduction, the plain search finds %v", i, desc, res.Violation.Kind, want)
			}
			replays(t, m, m.Initial(), res.Trace, res.Violation.Kind)
		default:
			t.Logf("program %d (%s): incomplete: %s", i, desc, res.Limit)
			continue
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
	if compared < n/2 || reduced < compared/2 || private == 0 {
		t.Errorf("the programs do not exercise the reduction: %d compared, %d reduced, %d with privacy broken", compared, reduced, private)
	}
}
