package portfolio

import (
	"testing"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

const (
	assertFail = "../testdata/models/assert_fail.elf" // a violation found in a few states
	assertOK   = "../testdata/models/assert_ok.elf"   // verified in a few states
	irqCounter = "../testdata/models/irq_counter.elf" // with --irq toc1, more states than any test stores
	illegal    = "../testdata/models/illegal.elf"     // no target for the heuristics
)

func load(t *testing.T, path string) *loader.Image {
	t.Helper()
	img, err := loader.Load(path, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// Members are functions of their index: the same in every swarm, distinct
// from each other. On firmware that takes interrupts best-first search on
// fsm comes first; on firmware that takes none, best-first search on efsm
// (the single search's default), and the two trade places.
func TestMemberOf(t *testing.T) {
	want := []string{"best+fsm", "dfs", "best+efsm k=1", "bfs", "random seed 1", "astar+efsm k=1", "best+efsm k=2", "dfs shuffle 1",
		"random seed 2", "dfs shuffle 2", "best+efsm k=1 shuffle 1", "best+fsm shuffle 1", "random seed 3"}
	for _, irq := range []bool{true, false} {
		seen := map[string]bool{}
		for i := 0; i < 64; i++ {
			m := MemberOf(i, 64, 1, irq)
			w := i
			if !irq && (i == 0 || i == 2) {
				w = 2 - i
			}
			if i < len(want) && m.Describe() != want[w] {
				t.Errorf("member %d (interrupts %t): %s, want %s", i, irq, m.Describe(), want[w])
			}
			if m != MemberOf(i, 64, 1, irq) || m.Describe() != MemberOf(i, 2, 1, irq).Describe() {
				t.Errorf("member %d differs between calls or swarm sizes", i)
			}
			if seen[m.Describe()] {
				t.Errorf("member %d repeats %s", i, m.Describe())
			}
			seen[m.Describe()] = true
		}
	}
	if got := MemberOf(4, 8, 9, false).String(); got != "4/8 (random seed 9)" {
		t.Errorf("member 4 of 8 with seed 9: %s", got)
	}
	// The seed moves the randomised members only.
	for i := 0; i < 16; i++ {
		a, b := MemberOf(i, 16, 1, true), MemberOf(i, 16, 7, true)
		if randomised := a.Seed != 0 || a.Shuffle != 0; randomised == (a == b) {
			t.Errorf("member %d: seed 1 %s, seed 7 %s", i, a.Describe(), b.Describe())
		}
	}
}

func TestParseMember(t *testing.T) {
	for _, bad := range []string{"4/4", "-1/4", "1/0", "1", "a/b", "1/4x", "+1/4", ""} {
		if _, _, err := ParseMember(bad); err == nil {
			t.Errorf("--swarm-member %q accepted", bad)
		}
	}
	if i, n, err := ParseMember("3/8"); i != 3 || n != 8 || err != nil {
		t.Errorf("3/8: %d %d %v", i, n, err)
	}
}

// A member's check is the swarm's with the member's search: member 0 of
// firmware without interrupts is check's single search (best-first on
// efsm, k=1); the rest of the configuration is the swarm's.
func TestMemberConfig(t *testing.T) {
	swarm := check.Config{Machine: check.MachineConfig{Preempt: sim.PreemptCalls}, MaxStates: 77, Seed: 5, K: 3, Heuristic: heuristics.Hamming}
	for _, c := range []struct {
		m    Member
		want check.Config
	}{
		{MemberOf(0, 4, 5, false), check.Config{Strategy: search.Best, Heuristic: heuristics.EFSM, K: 1, Seed: 1}},
		{MemberOf(0, 4, 5, true), check.Config{Strategy: search.Best, Heuristic: heuristics.FSM, K: 1, Seed: 1}},
		{MemberOf(3, 4, 5, true), check.Config{Strategy: search.BFS, Heuristic: heuristics.None, K: 1, Seed: 1}},
		{MemberOf(4, 8, 5, true), check.Config{Strategy: search.Random, Heuristic: heuristics.None, K: 1, Seed: 5}},
		{MemberOf(6, 8, 5, true), check.Config{Strategy: search.Best, Heuristic: heuristics.EFSM, K: 2, Seed: 1}},
	} {
		got := c.m.Config(swarm)
		if got.Strategy != c.want.Strategy || got.Heuristic != c.want.Heuristic || got.K != c.want.K || got.Seed != c.want.Seed ||
			got.MaxStates != 77 || got.Machine.Preempt != sim.PreemptCalls {
			t.Errorf("%s: %+v", c.m, got)
		}
	}
}

// NewRun decides a member by the firmware: member 0 is best+efsm where it
// takes no interrupt, best+fsm where it does; without a target for the
// heuristic a guided member runs as shuffled depth-first search.
func TestNewRun(t *testing.T) {
	cfg := check.Config{Machine: check.MachineConfig{Preempt: sim.PreemptEvery}, Seed: 1}
	r, err := NewRun(load(t, assertFail), cfg, 0, 2, false)
	if err != nil || r.Member.String() != "0/2 (best+efsm k=1)" || r.Check.Options.Strategy != search.Best || r.Check.Options.Estimate == nil {
		t.Fatalf("%+v, %v", r, err)
	}
	irq := cfg
	irq.Machine.IRQs = []string{"toc1"}
	if r, err = NewRun(load(t, irqCounter), irq, 0, 2, false); err != nil || r.Member.String() != "0/2 (best+fsm)" || r.Check.Config.Heuristic != heuristics.FSM {
		t.Fatalf("with interrupts: %+v, %v", r, err)
	}
	runs, err := NewRuns(load(t, illegal), cfg, nil, 4, false)
	if err != nil || len(runs) != 4 {
		t.Fatal(err)
	}
	for i, want := range []string{"0/4 (dfs shuffle 1 (for best+efsm k=1: no target))", "1/4 (dfs)", "2/4 (dfs shuffle 3 (for best+fsm: no target))", "3/4 (bfs)"} {
		if got := runs[i].Member.String(); got != want || runs[i].Member.Index != i {
			t.Errorf("member %d: %s, want %s", i, got, want)
		}
	}
	if runs[0].Check.Options.Strategy != search.DFS || runs[0].Check.Options.Shuffle != 1 {
		t.Errorf("member 0 without a target: %+v", runs[0].Check.Options)
	}
}

// TestBoardMember: the board member races where the chip's peripherals
// are the firmware's environment and the flags leave the environment's
// timing to the checker (board.go's rule), as member 1, and not on a
// harness model, nor with --clock, --sci-timing idle, --max-timer-events
// or a timing property given.
func TestBoardMember(t *testing.T) {
	heater := load(t, "../testdata/firmware/heater.elf")
	zero := 0
	for _, c := range []struct {
		name string
		img  *loader.Image
		mc   check.MachineConfig
		want bool
	}{
		{"firmware", heater, check.MachineConfig{}, true},
		{"harness model", load(t, assertFail), check.MachineConfig{}, false},
		{"--clock exact", heater, check.MachineConfig{Clock: check.ClockExact}, false},
		{"--clock abstract", heater, check.MachineConfig{Clock: check.ClockAbstract}, false},
		{"--sci-timing idle", heater, check.MachineConfig{SCIIdle: true}, false},
		{"--max-timer-events", heater, check.MachineConfig{MaxTimerEvents: &zero}, false},
		{"--report-timing", heater, check.MachineConfig{Timing: check.Timing{Report: true}}, false},
	} {
		cfg := check.Config{Machine: c.mc}
		m, err := check.NewMachine(c.img, c.mc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := BoardMember(c.img, cfg, m)
		if err != nil || got != c.want {
			t.Errorf("%s: board member %t (%v), want %t", c.name, got, err, c.want)
		}
	}
	r, err := NewRun(heater, check.Config{BoardMember: true}, 1, 3, false)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Member.Board || r.Member.Search != "bfs" || !r.Check.Machine.Config.ExactClock || !r.Check.Machine.Config.SCIFirstWait || r.Check.Machine.Config.Dead {
		t.Errorf("member 1: %s, exact clock %t, first wait %t, dead data %t; want the board member", r.Member, r.Check.Machine.Config.ExactClock,
			r.Check.Machine.Config.SCIFirstWait, r.Check.Machine.Config.Dead)
	}
	want := MemberOf(1, 3, 1, true)
	want.Index = 2
	if m := BoardMemberIn(2, 3, 1, true); m != want {
		t.Errorf("member 2 of a swarm with a board member: %s, want MemberOf's member 1 as 2/3 (%s)", m, want)
	}
}
