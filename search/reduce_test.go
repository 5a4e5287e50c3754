package search

import (
	"bytes"
	"context"
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/testkit/randprog"
)

// randomProgram builds a random program (package randprog) and the
// machines to check it on: plain, and eliminating dead data.
func randomProgram(t *testing.T, r *rand.Rand) (*sim.Machine, *sim.Machine, string) {
	m, md, desc, _ := randomProgramFresh(t, r)
	return m, md, desc
}

// randomProgramFresh is randomProgram with a function that makes another
// plain machine of the program, which has learned nothing (as a resumed
// run of check starts with).
func randomProgramFresh(t *testing.T, r *rand.Rand) (*sim.Machine, *sim.Machine, string, func() *sim.Machine) {
	img, cfg, desc := randprog.Program(r)
	fresh := func() *sim.Machine {
		m, err := sim.NewMachine(img, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := fresh()
	cfgDead := cfg
	cfgDead.Dead = true
	md, err := sim.NewMachine(img, cfgDead)
	if err != nil {
		t.Fatal(err)
	}
	return m, md, desc, fresh
}

// cutAndResume runs the reduced search of opts on a fresh machine of the
// program, cut after a number of states drawn from rc, saves its frontier
// and resumes it on another fresh machine; a search the cut did not stop
// is returned as it is. resumed says whether it was cut.
func cutAndResume(t *testing.T, fresh func() *sim.Machine, opts Options, rc *rand.Rand, bound int) (res *Result, m *sim.Machine, resumed bool) {
	t.Helper()
	opts.Key = "k"
	part := opts
	part.MaxStates = 1 + rc.IntN(max(1, bound))
	m = fresh()
	r1 := Run(context.Background(), m, part)
	if r1.Verdict != Incomplete || !r1.CanSave() {
		return r1, m, false
	}
	var buf bytes.Buffer
	if err := r1.SaveFrontier(&buf); err != nil {
		t.Fatal(err)
	}
	rest := opts
	rest.Resume = &buf
	m = fresh()
	r2 := Run(context.Background(), m, rest)
	if r2.Err != nil {
		t.Fatalf("resume: %v", r2.Err)
	}
	return r2, m, true
}

// kinds is the set of violation kinds a search found.
func kinds(r *Result) map[sim.Kind]bool {
	k := map[sim.Kind]bool{}
	for _, f := range r.Found {
		k[f.Violation.Kind] = true
	}
	return k
}

// TestReduceDifferential: on random multi-threaded programs, the search
// with partial-order reduction, and with it and dead-data elimination,
// finds exactly the kinds of violation the plain search finds (with --all:
// every kind), and reaches the same verdict when both are exhaustive;
// every counterexample it reports replays; it never stores more states.
// A program that makes up a return address is flagged by the machine
// (ForeignReturns) instead, as the search then reports.
func TestReduceDifferential(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	r := rand.New(rand.NewPCG(11, 12))
	rc := rand.New(rand.NewPCG(13, 14)) // the cuts of the resumed runs
	compared, reducedSome, foreign, deadSmaller, private, withdrawn, resumed := 0, 0, 0, 0, 0, 0, 0
	for i := range n {
		m, md, desc, fresh := randomProgramFresh(t, r)
		for _, strat := range []Strategy{BFS, DFS} {
			opts := Options{Strategy: strat, All: true, MaxStates: 20000}
			full := Run(context.Background(), m, opts)
			opts.Reduce = true
			red := Run(context.Background(), m, opts)
			if full.Verdict == Incomplete || red.Verdict == Incomplete {
				continue
			}
			dead := Run(context.Background(), md, opts)
			switch {
			case md.ForeignReturns() > 0:
				foreign++
			case dead.Verdict != full.Verdict || !maps.Equal(kinds(full), kinds(dead)):
				t.Fatalf("program %d (%s), %s: --reduce none %s %v, por,dead %s %v", i, desc, strat, full.Verdict, kinds(full), dead.Verdict, kinds(dead))
			case dead.Stats.StatesStored < red.Stats.StatesStored:
				deadSmaller++
			}
			for _, f := range dead.Found {
				_, v, err := Replay(md, f.Trace)
				if err != nil || v == nil || v.Kind != f.Violation.Kind {
					t.Fatalf("program %d (%s), %s: the %s counterexample of por,dead does not replay: %v, %v", i, desc, strat, f.Violation.Kind, v, err)
				}
			}
			compared++
			if red.Stats.Reduced > 0 {
				reducedSome++
			}
			if red.Stats.Private > 0 && red.Privacy == "" {
				private++
			}
			if red.Privacy != "" || m.Shrinks() > 0 {
				withdrawn++ // a region shrank, or privacy broke and the search ran again
			}
			if full.Verdict != red.Verdict || !maps.Equal(kinds(full), kinds(red)) {
				t.Fatalf("program %d (%s), %s: --reduce none %s %v, por %s %v", i, desc, strat, full.Verdict, kinds(full), red.Verdict, kinds(red))
			}
			// Cut, saved and resumed on machines that learned nothing
			// but what the frontier carries: the same verdict and kinds.
			res, mr, cut := cutAndResume(t, fresh, opts, rc, red.Stats.StatesStored)
			if cut {
				resumed++
			}
			if res.Verdict != Incomplete && (res.Verdict != full.Verdict || !maps.Equal(kinds(full), kinds(res))) {
				t.Fatalf("program %d (%s), %s: --reduce none %s %v, por cut and resumed %s %v", i, desc, strat, full.Verdict, kinds(full), res.Verdict, kinds(res))
			}
			for _, f := range res.Found {
				if _, v, err := Replay(mr, f.Trace); err != nil || v == nil || v.Kind != f.Violation.Kind {
					t.Fatalf("program %d (%s), %s: the %s counterexample of the resumed search does not replay: %v, %v", i, desc, strat, f.Violation.Kind, v, err)
				}
			}
			if red.Stats.StatesStored > full.Stats.StatesStored {
				t.Errorf("program %d, %s: por stored %d states, none %d", i, strat, red.Stats.StatesStored, full.Stats.StatesStored)
			}
			for _, f := range red.Found {
				_, v, err := Replay(m, f.Trace)
				if err != nil || v == nil || v.Kind != f.Violation.Kind {
					t.Fatalf("program %d (%s), %s: the %s counterexample does not replay: %v, %v", i, desc, strat, f.Violation.Kind, v, err)
				}
			}
		}
	}
	t.Logf("%d comparisons, %d with some reduction, %d smaller with dead-data elimination, %d with foreign returns, "+
		"%d with stack-private transitions followed alone, %d where a stack's region shrank or its privacy broke, %d cut and resumed",
		compared, reducedSome, deadSmaller, foreign, private, withdrawn, resumed)
	if resumed < n/2 {
		t.Errorf("only %d runs were cut and resumed", resumed)
	}
	if private < n/10 || withdrawn < n/10 {
		t.Errorf("the programs do not exercise stack privacy: kept in %d runs, broken in %d", private, withdrawn)
	}
	// (One program in about a hundred makes up a return address: -short's
	// sample may have none.)
	if foreign == 0 && !testing.Short() || deadSmaller < n/10 {
		t.Errorf("the programs do not exercise dead-data elimination")
	}
	if compared < n || reducedSome < n/2 {
		t.Errorf("%d comparisons of exhaustive runs, %d with some reduction: the programs do not exercise the reduction", compared, reducedSome)
	}
}

// TestReduceDifferentialCatches: the differential test above fails when a
// stack region shrinks under a transition that relied on it, and when an
// intrusion is not seen at all (mutation.IgnoreReliance, NoIntrusion).
func TestReduceDifferentialCatches(t *testing.T) {
	if testing.Short() {
		t.Skip("the full differential test's programs")
	}
	for _, f := range []mutation.Fault{mutation.IgnoreReliance, mutation.NoIntrusion} {
		restore := mutation.Set(f)
		caught := false
		r := rand.New(rand.NewPCG(11, 12))
		for i := 0; i < 300 && !caught; i++ {
			m, _, _ := randomProgram(t, r)
			opts := Options{Strategy: BFS, All: true, MaxStates: 20000}
			full := Run(context.Background(), m, opts)
			opts.Reduce = true
			red := Run(context.Background(), m, opts)
			if full.Verdict != Incomplete && red.Verdict != Incomplete &&
				(full.Verdict != red.Verdict || !maps.Equal(kinds(full), kinds(red))) {
				caught = true
				t.Logf("%v: caught by program %d", f, i)
			}
		}
		restore()
		if !caught {
			t.Errorf("%v: no program told the reduced search from the plain one", f)
		}
	}
}

// TestInvisibility: a step that is itself a violation is never followed
// alone (the invisibility condition, C2). Thread 0 pushes into its own
// stack region, which is private to it, and its fourth push leaves the
// --stack range: the reduced search must report it, and with the
// condition dropped (mutation.VisibleAlone) it does not. The machine has
// no batches (Config.Unbatched): with them a thread alone runs its steps
// in one, and no step is followed alone.
func TestInvisibility(t *testing.T) {
	rom := make([]byte, 0x3000)
	copy(rom, []byte{0x8E, 0x01, 0xFF, // lds #0x01FF
		0x36, 0x36, 0x36, 0x36, // psha x4: the fourth takes SP below the full range 0x01FD-0x01FF
		0x32, 0x32, 0x32, 0x32, // pula x4: back inside it, so that only that step shows the violation
		0x20, 0xFE}) // bra *
	rom[0x2FFE], rom[0x2FFF] = 0xD0, 0x00
	img, err := loader.LoadBytes("push.bin", rom, loader.Options{Format: loader.FormatBin, Base: 0xD000, BaseSet: true})
	if err != nil {
		t.Fatal(err)
	}
	check := func() *Result {
		m, err := sim.NewMachine(img, sim.Config{Entry: 0xD000, Preempt: sim.PreemptEvery, Unbatched: true,
			Stacks: []sim.StackRange{{Thread: 0, Lo: 0x01FD, Hi: 0x01FF}}})
		if err != nil {
			t.Fatal(err)
		}
		return Run(context.Background(), m, Options{Strategy: BFS, Reduce: true})
	}
	if r := check(); r.Verdict != Violated || !kinds(r)[sim.KindStack] || r.Stats.Reduced == 0 {
		t.Fatalf("verdict %v %v, %d states reduced: want the stack violation, found with steps followed alone", r.Verdict, kinds(r), r.Stats.Reduced)
	}
	defer mutation.Set(mutation.VisibleAlone)()
	if r := check(); r.Verdict == Violated {
		t.Errorf("with violating steps followed alone the violation is still found: the test cannot catch the fault")
	}
}
