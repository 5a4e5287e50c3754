package portfolio

import (
	"context"
	"errors"
	"github.com/hc11mc/hc11mc/verdict"
	"strings"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
)

const (
	secret4   = "../testdata/models/symbolic/secret4.elf"    // one of 2^32 inputs fails: HMC finds it at once
	crc8Table = "../testdata/models/symbolic/crc8_table.elf" // verified by HMC at once
	portPoll  = "../testdata/models/port_poll.elf"           // reads PORTE: data with --input 0x100A
	serialFW  = "../testdata/firmware/serial_cmd_fixed.elf"  // real firmware: the chip's peripherals
)

// racing is check's default configuration, as the swarm gets it.
func racing() check.Config {
	return check.Config{Machine: check.MachineConfig{Preempt: sim.PreemptEvery, Dead: true}, Reduce: true,
		Heuristic: heuristics.EFSM, K: 1, Seed: 1, Timeout: time.Minute}
}

// With a symbolic member, member 1 is HMC and the explicit members from 1
// on move up one place; without one the list is MemberOf's.
func TestMemberIn(t *testing.T) {
	for i := 0; i < 16; i++ {
		if got, want := MemberIn(i, 16, 1, true, false), MemberOf(i, 16, 1, true); got != want {
			t.Errorf("member %d without a symbolic member: %v, want %v", i, got, want)
		}
		m := MemberIn(i, 16, 1, false, true)
		switch {
		case i == 1 && (m.Engine != "hmc" || m.String() != "1/16 (hmc)"):
			t.Errorf("member 1: %v", m)
		case i != 1 && (m.Engine != "" || m.Index != i || m.Describe() != MemberOf(max(i-1, 0), 16, 1, false).Describe()):
			t.Errorf("member %d: %v", i, m)
		}
	}
	cfg := MemberIn(1, 3, 1, false, true).Config(check.Config{Strategy: search.DFS, Heuristic: heuristics.FSM, K: 3, Seed: 9, Compact: true, All: true})
	if cfg.Engine != check.EngineHMC || cfg.Heuristic != heuristics.EFSM || cfg.K != 1 || cfg.Compact || cfg.All {
		t.Errorf("the symbolic member's configuration: %+v", cfg)
	}
}

// The symbolic member joins firmware that draws data — calls
// __mc_nondet, or reads an --input — on a machine the symbolic engine
// models; not firmware that draws none, nor firmware with the chip's
// peripherals.
func TestSymbolicMember(t *testing.T) {
	input := racing()
	input.Machine.Inputs = []string{"0x100A"}
	for _, c := range []struct {
		path string
		cfg  check.Config
		want bool
		why  string
	}{
		{secret4, racing(), true, ""},
		{"../testdata/models/assume.elf", racing(), true, ""},
		{"../testdata/bench/dining2.elf", racing(), true, ""}, // the philosophers' think times
		{assertOK, racing(), false, "no nondeterministic data"},
		{illegal, racing(), false, "no nondeterministic data"}, // an indirect call, resolved to no stub
		{portPoll, racing(), false, "no nondeterministic data"},
		{portPoll, input, true, ""},
		{serialFW, check.Config{}, false, "peripherals"},
	} {
		img := load(t, c.path)
		m, err := check.NewMachine(img, c.cfg.Machine)
		if err != nil {
			t.Fatal(err)
		}
		ok, why := SymbolicMember(img, c.cfg, m)
		if ok != c.want || !strings.Contains(why, c.why) {
			t.Errorf("%s %v: %t %q %v, want %t %q", c.path, c.cfg.Machine.Inputs, ok, why, err, c.want, c.why)
		}
	}
	runs, err := NewRuns(load(t, secret4), racing(), nil, 3, true)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"0/3 (best+efsm k=1)", "1/3 (hmc)", "2/3 (dfs)"} {
		if got := runs[i].Member.String(); got != want {
			t.Errorf("member %d: %s, want %s", i, got, want)
		}
	}
	if h := runs[1].Check; h.Config.Engine != check.EngineHMC || h.Machine.Config.Dead || strings.Join(h.Properties.Reductions, ",") != "por" {
		t.Errorf("the symbolic member's check: engine %s, dead %t, reductions %v", h.Config.Engine, h.Machine.Config.Dead, h.Properties.Reductions)
	}
}

// hmcRun runs HMC on the model at path as the symbolic member of a swarm
// of three does, and returns its check and HMC's own result.
func hmcRun(t *testing.T, path string) (*check.Check, symbolic.Result) {
	t.Helper()
	r, err := NewRun(load(t, path), racing(), 1, 3, true)
	if err != nil {
		t.Fatal(err)
	}
	e, err := r.Check.SymbolicEngine()
	if err != nil {
		t.Fatal(err)
	}
	return r.Check, e.Check(context.Background(), []*symbolic.State{e.Initial()}, r.Check.SymbolicConfig())
}

// The rule that lets the symbolic member decide: a violation whose
// counterexample replays on the simulator decides; one that does not
// replay decides nothing and is an internal error; verified decides only
// when HMC checks every property the check does; incomplete decides
// nothing. The race takes a decision of the symbolic member as any
// other's, and nothing else from it.
func TestSymbolicResult(t *testing.T) {
	decides := func(res *check.Result, err error) bool {
		rc := newRace(func(int) {})
		rc.leave(1, res, err)
		return rc.result() == 1
	}
	// take is HMC's result sr as the swarm takes it.
	take := func(cs *check.Check, sr symbolic.Result) (*check.Result, error) {
		res, err := check.FromSymbolic(cs.Machine, &sr)
		return symbolicResult(cs, res, err)
	}
	cs, sr := hmcRun(t, secret4)
	if sr.Verdict != symbolic.Violated {
		t.Fatalf("HMC on secret4: %s %s", sr.Verdict, sr.Limit)
	}
	res, err := take(cs, sr)
	if res.Verdict != search.Violated || err != nil || len(res.Found) != 1 || res.Found[0].Violation.Kind != sim.KindAssert || !decides(res, err) {
		t.Errorf("a violation that replays: %s %v %d", res.Verdict, err, len(res.Found))
	}
	cut := sr
	cut.Trace = sr.Trace[:len(sr.Trace)-1]
	res, err = take(cs, cut)
	var nr *check.NotReplayed
	if res.Verdict != search.Incomplete || !errors.As(err, &nr) || len(res.Found) != 0 || decides(res, err) {
		t.Errorf("a violation that does not replay: %s %v", res.Verdict, err)
	}

	cs, sr = hmcRun(t, crc8Table)
	if sr.Verdict != symbolic.Verified {
		t.Fatalf("HMC on crc8_table: %s %s", sr.Verdict, sr.Limit)
	}
	if res, err = take(cs, sr); res.Verdict != search.Verified || err != nil || !decides(res, err) {
		t.Errorf("verified, every property covered: %s %q %v", res.Verdict, res.Limit, err)
	}
	wider := *cs
	wider.Properties.Checked = append(append([]string{}, cs.Properties.Checked...), "watchdog")
	res, err = take(&wider, sr)
	if res.Verdict != search.Incomplete || !strings.Contains(res.Limit.String(), "does not check watchdog") || decides(res, err) {
		t.Errorf("verified, the check's watchdog not covered: %s %q", res.Verdict, res.Limit)
	}

	stopped := symbolic.Result{Verdict: symbolic.Incomplete, Limit: verdict.MaxStates(5)}
	if res, err = take(cs, stopped); res.Verdict != search.Incomplete || res.Limit.String() != "--max-states 5" || decides(res, err) {
		t.Errorf("incomplete: %s %q", res.Verdict, res.Limit)
	}
}

// The symbolic member races the explicit ones: on secret4 and crc8_table,
// where the explicit searches run past a minute, it decides within
// seconds, stops them, and the decision names it; its counterexample is
// the swarm's, its reductions the result's. The explicit list alone
// (--engine explicit) does not decide within its limit.
func TestRaceSymbolic(t *testing.T) {
	for _, c := range []struct {
		path string
		want search.Verdict
	}{{secret4, search.Violated}, {crc8Table, search.Verified}} {
		runs, err := NewRuns(load(t, c.path), racing(), nil, 3, true)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		out := runRace(context.Background(), runs, Limits{}, nil)
		if d := time.Since(start); d > 30*time.Second {
			t.Errorf("%s: the race took %v", c.path, d)
		}
		if out.Winner != 1 || out.Result.Verdict != c.want || out.Conflict != nil || runs[1].Result.HMC == nil {
			t.Fatalf("%s: winner %d, verdict %s, limit %q", c.path, out.Winner, out.Result.Verdict, out.Result.Limit)
		}
		for _, i := range []int{0, 2} {
			if runs[i].Stopped != "won" || runs[i].Result.Verdict != search.Incomplete {
				t.Errorf("%s: member %d stopped %q, %s", c.path, i, runs[i].Stopped, runs[i].Result.Verdict)
			}
		}
		d := out.decide(1)
		if d.Winner != runs[1] || strings.Join(d.Report.Reductions, ",") != "por" || d.NotReplayed != nil || (c.want == search.Violated) != (d.Found != nil) {
			t.Errorf("%s: decision %+v", c.path, d)
		}
		if s := runs[1].Summary(); s.Member != "1/3 (hmc)" || s.Verdict != c.want.String() {
			t.Errorf("%s: summary %+v", c.path, s)
		}
	}
	cfg := racing()
	cfg.MaxStates = 20000
	runs, err := NewRuns(load(t, secret4), cfg, nil, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	if out := runRace(context.Background(), runs, Limits{}, nil); out.Winner != -1 || out.Result.Verdict != search.Incomplete {
		t.Errorf("explicit members alone: winner %d, %s", out.Winner, out.Result.Verdict)
	}
}

// Once the race is decided, a symbolic member still running when every
// explicit member has left is not waited for; while an explicit member
// runs, nothing is left out.
func TestDetach(t *testing.T) {
	runs := []*Run{{Member: MemberIn(0, 3, 1, false, true)}, {Member: MemberIn(1, 3, 1, false, true)}, {Member: MemberIn(2, 3, 1, false, true)}}
	running := []bool{false, true, true}
	if n := detach(runs, running); n != 0 || !running[1] || runs[1].detached {
		t.Errorf("with member 2 running: %d left out", n)
	}
	running[2] = false
	if n := detach(runs, running); n != 1 || running[1] || !runs[1].detached || runs[1].Result.Limit.Kind != verdict.StopInterrupted {
		t.Errorf("with member 1 alone running: %d left out, %+v", n, runs[1].Result)
	}
	// A member that is not started is not waited for either.
	old := symbolicStart
	symbolicStart = time.Hour
	defer func() { symbolicStart = old }()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if startLate(ctx) {
		t.Error("started after the race was decided")
	}
}

// The watch stops the member that holds the most memory: the symbolic one
// holds what Z3 allocated, the explicit ones share the runtime's memory by
// their states; among equals the later one. Without a symbolic member,
// the one with the most states.
func TestBiggest(t *testing.T) {
	runs := []*Run{{Member: MemberIn(0, 3, 1, false, true)}, {Member: MemberIn(1, 3, 1, false, true)}, {Member: MemberIn(2, 3, 1, false, true)}}
	running := []bool{true, true, true}
	stored := []int{300, 5, 100}
	if b := biggest(runs, running, stored, 1000, 800); b != 1 {
		t.Errorf("Z3 holds 800 of 1800: member %d stopped, want 1", b)
	}
	if b := biggest(runs, running, stored, 1000, 700); b != 0 {
		t.Errorf("Z3 holds 700, member 0 750: member %d stopped, want 0", b)
	}
	runs[0].Stopped = "memory"
	if b := biggest(runs, running, stored, 1000, 100); b != 2 {
		t.Errorf("member 0 stopped already: member %d stopped, want 2", b)
	}
	plain := []*Run{{Member: MemberOf(0, 3, 1, false)}, {Member: MemberOf(1, 3, 1, false)}, {Member: MemberOf(2, 3, 1, false)}}
	if b := biggest(plain, running, []int{7, 9, 9}, 1000, 0); b != 2 {
		t.Errorf("explicit members: member %d stopped, want 2", b)
	}
}
