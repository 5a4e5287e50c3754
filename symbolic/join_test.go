package symbolic

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/testkit/randprog"
)

// joinConfigs are the traversals TestJoinDifferential runs: ST with
// position first (no estimate), and ST and HMC with glh on the CLI's
// estimate (the order in which the other side of a branch catches up,
// catchUp).
var joinConfigs = []struct {
	name     string
	cfg      Config
	estimate bool
}{
	{"st", Config{Mode: ST}, false},
	{"st+glh", Config{Mode: ST, Priority: GLH}, true},
	{"hmc+glh", Config{Mode: HMC, Priority: GLH, PRDepth: 8}, true},
}

// joinCompare checks random program i (randprog.Diamonds) with each of
// joinConfigs against the plain explicit search that enumerates every
// value (no reduction, every kind found with All). It returns what went
// wrong (nothing when nothing did), and how many times the runs merged
// states whose concrete data differed and split merged states back
// (unjoin.go). ok is false when the plain search does not end within its
// bound.
func joinCompare(t *testing.T, r *rand.Rand) (wrong []string, joins, unjoins int, desc string, ok bool) {
	t.Helper()
	img, cfg, desc := randprog.Diamonds(r)
	m, err := sim.NewMachine(img, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ref := search.Run(context.Background(), m, search.Options{Strategy: search.BFS, All: true, MaxStates: 2_000_000})
	if ref.Verdict == search.Incomplete {
		return nil, 0, 0, desc, false
	}
	want := map[sim.Kind]bool{}
	for _, f := range ref.Found {
		want[f.Violation.Kind] = true
	}
	for _, c := range joinConfigs {
		m2, err := sim.NewMachine(img, cfg) // privacy is a machine's
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewEngine(m2, Options{Reduce: true})
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
		joins += int(e.joins)
		unjoins += int(e.unjoins)
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
			t.Logf("%s: incomplete: %s", c.name, res.Limit)
		}
	}
	return wrong, joins, unjoins, desc, true
}

// TestJoinDifferential: on random programs of if-elses on drawn values
// whose two sides leave different concrete data (randprog.Diamonds), the
// symbolic engine, which merges the two sides where they join (merge.go)
// and splits them back where only their constants are left (unjoin.go),
// reaches the verdict of the plain explicit search that enumerates every
// value, in every traversal order; and the programs exercise both.
func TestJoinDifferential(t *testing.T) {
	n := 50
	if testing.Short() {
		n = 20
	}
	r := rand.New(rand.NewPCG(5, 23))
	compared, joined, unjoined := 0, 0, 0
	for i := range n {
		wrong, joins, unjoins, desc, ok := joinCompare(t, r)
		if !ok {
			continue
		}
		compared++
		if joins > 0 {
			joined++
		}
		if unjoins > 0 {
			unjoined++
		}
		for _, w := range wrong {
			t.Errorf("program %d (%s): %s", i, desc, w)
		}
	}
	t.Logf("%d programs compared, %d with states of different concrete data merged, %d with merged states split back", compared, joined, unjoined)
	if compared < n*9/10 || joined < compared/2 || unjoined < compared/10 {
		t.Errorf("the programs do not exercise the merge: %d of %d compared, %d with merges of different data, %d split back",
			compared, n, joined, unjoined)
	}
}

// TestJoinDifferentialCatches: TestJoinDifferential's programs tell a
// merge that drops a concrete difference (mutation.JoinConcrete: the
// first state's value kept) and a split back that drops a part
// (mutation.UnjoinOne) from the plain search.
func TestJoinDifferentialCatches(t *testing.T) {
	for _, f := range []mutation.Fault{mutation.JoinConcrete, mutation.UnjoinOne} {
		t.Run(f.String(), func(t *testing.T) {
			defer mutation.Set(f)()
			r := rand.New(rand.NewPCG(5, 23))
			for i := range 100 {
				wrong, _, _, desc, ok := joinCompare(t, r)
				if ok && len(wrong) > 0 {
					t.Logf("caught by program %d (%s): %s", i, desc, wrong[0])
					return
				}
			}
			t.Errorf("no program told the fault from the plain search")
		})
	}
}

// replayed is replays without stopping the test: what is wrong with the
// trace, "" when it leads from the initial state to a violation of kind
// k.
func replayed(m *sim.Machine, trace []sim.Label, k sim.Kind) string {
	s := m.Initial()
	for n, l := range trace {
		ns, v, ok := m.Replay(s, l)
		switch {
		case !ok:
			return fmt.Sprintf("step %d of the trace is not a transition", n+1)
		case v != nil && (n != len(trace)-1 || v.Kind != k):
			return fmt.Sprintf("the trace meets %v at step %d of %d", v, n+1, len(trace))
		case v != nil:
			return ""
		}
		s = ns
	}
	return "the trace ends without a violation"
}

// TestUnjoinLoop: a loop that draws a value at each turn, branches on it
// and keeps only which way it went (a flag stored from it, the value
// overwritten) ends as the explicit engine's search of it does: the two
// sides are merged at the join while the value is still in B, and split
// back once it is gone, so that the states at the loop's head are
// concrete and repeat. Merged and never split back, each turn would leave
// an if-then-else on that turn's variable, and the traversal would not
// end. With an assertion on the flag that fails on one side, the
// violation is found, with a trace that replays.
func TestUnjoinLoop(t *testing.T) {
	code := []byte{
		0x8e, 0x01, 0xf0, // lds #$1f0
		0xcc, 0x00, 0xff, // loop: ldd #255
		0xbd, 0xd1, 0x00, // jsr __mc_nondet: B = v
		0xc1, 0x80, // cmpb #$80
		0x22, 0x04, // bhi hi
		0x86, 0x01, // ldaa #1
		0x20, 0x02, // bra join
		0x86, 0x02, // hi: ldaa #2
		0x97, 0x40, // join: staa $40
		0x5f,       // clrb
		0x80, 0x03, // suba #3 (never 0)
		0xbd, 0xd1, 0x01, // jsr __mc_assert
		0x20, 0xe6, // bra loop
	}
	code = append(code, make([]byte, 0x100-len(code))...)
	code = append(code, 0x39, 0x39)
	syms := map[string]uint16{"__mc_nondet": 0xd100, "__mc_assert": 0xd101}
	for _, k := range []byte{3, 1, 2} {
		code[0x17] = k
		m := codeMachine(t, code, sim.Config{Preempt: sim.PreemptEvery}, syms)
		for _, c := range joinConfigs {
			e, err := NewEngine(m, Options{Reduce: true})
			if err != nil {
				t.Fatal(err)
			}
			cfg := c.cfg
			cfg.MaxStates = 10_000
			if c.estimate {
				est, err := heuristics.NewStateEstimate(m, heuristics.StateConfig{Kind: heuristics.EFSM, K: 1})
				if err != nil {
					t.Fatal(err)
				}
				cfg.Estimate = func(s *sim.State) (int, bool) { return est.Estimate(s), true }
			}
			res := e.Check(context.Background(), []*State{e.Initial()}, cfg)
			switch {
			case k == 3 && res.Verdict != Verified:
				t.Errorf("%s: %v (%s), want verified; %v", c.name, res.Verdict, res.Limit, res.Stats)
			case k != 3 && res.Verdict != Violated:
				t.Errorf("%s, flag %d asserted against: %v (%s), want a violation; %v", c.name, k, res.Verdict, res.Limit, res.Stats)
			case k != 3:
				replays(t, m, m.Initial(), res.Trace, sim.KindAssert)
			}
			if e.joins == 0 || e.unjoins == 0 {
				t.Errorf("%s: %d merges of different data, %d split back: the test no longer tests them", c.name, e.joins, e.unjoins)
			}
		}
	}
}

// TestSameControlInhibit: two states whose threads differ only in the
// interrupt inhibit after a CLI (sim.Thread.Inhibit) do not have the same
// control part: in one an interrupt may come before the next
// instruction, in the other not, so Group must not merge them.
func TestSameControlInhibit(t *testing.T) {
	a := &State{S: &sim.State{Threads: []sim.Thread{{CPU: sim.CPU{PC: 0xD010}}}}}
	b := &State{S: &sim.State{Threads: []sim.Thread{{CPU: sim.CPU{PC: 0xD010}, Inhibit: 1}}}}
	if !sameControl(a, a) || sameControl(a, b) {
		t.Errorf("sameControl(a, a) = %v, sameControl(a, b) = %v: want true, false", sameControl(a, a), sameControl(a, b))
	}
}
