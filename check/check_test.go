package check

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
)

// run builds the check cfg describes on the image at path and runs its
// explicit search.
func run(t *testing.T, path string, cfg Config) (*Check, *Result) {
	t.Helper()
	c, err := New(load(t, path), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, FromSearch(search.Run(context.Background(), c.Machine, c.Options))
}

// New turns the configuration into the search's options, and the report
// says what a verdict covers: the properties --ignore turns off are
// unchecked, with the reason; --stack makes stack checked; the
// reductions are those that run.
func TestNewProperties(t *testing.T) {
	cfg := Config{Strategy: search.DFS, Seed: 9, MaxStates: 1000, MaxMemory: 1 << 30, Compact: true, All: true,
		Reduce: true, Ignore: map[sim.Kind]bool{sim.KindMutex: true}}
	c, err := New(load(t, mutexOK), cfg)
	if err != nil {
		t.Fatal(err)
	}
	o := c.Options
	if o.Strategy != search.DFS || o.Seed != 9 || o.MaxStates != 1000 || o.MaxMemory != 1<<30 || !o.Compact || !o.All ||
		!o.Reduce || !o.Ignore[sim.KindMutex] || o.Estimate != nil {
		t.Errorf("options %+v", o)
	}
	r := c.Properties
	if slices.Contains(r.Checked, "mutex") || !slices.Contains(r.Checked, "deadlock") || !slices.Contains(r.Unchecked, Unchecked{"mutex", "--ignore"}) {
		t.Errorf("with --ignore mutex: checked %v, unchecked %v", r.Checked, r.Unchecked)
	}
	if !slices.ContainsFunc(r.Unchecked, func(u Unchecked) bool { return u.Property == "stack" && strings.Contains(u.Reason, "--stack") }) {
		t.Errorf("stack checked without --stack: %v", r.Unchecked)
	}
	if !slices.Equal(r.Reductions, []string{"por"}) || r.Bounds != "" {
		t.Errorf("reductions %v, bounds %q", r.Reductions, r.Bounds)
	}

	cfg = Config{Machine: MachineConfig{Stacks: []sim.StackRange{{Thread: -1, Lo: 0, Hi: 0x1FF}}, Dead: true, Preempt: sim.PreemptCalls}, Reduce: true}
	c, err = New(load(t, mutexOK), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Partial-order reduction needs the finest interleaving.
	if !slices.Contains(c.Properties.Checked, "stack") || !slices.Equal(c.Properties.Reductions, []string{"dead"}) {
		t.Errorf("--stack, --reduce por,dead, --preempt calls: checked %v, reductions %v", c.Properties.Checked, c.Properties.Reductions)
	}
	// --ignore illegal-opcode changes what the machine does.
	c, err = New(load(t, mutexOK), Config{Ignore: map[sim.Kind]bool{sim.KindIllegal: true}})
	if err != nil || !c.Machine.Config.IgnoreIllegal {
		t.Errorf("--ignore illegal-opcode: %v, the machine ignores illegal opcodes: %t", err, err == nil && c.Machine.Config.IgnoreIllegal)
	}
	// --preempt yield needs harness calls to preempt at.
	if _, err := New(load(t, switchesELF), Config{Machine: MachineConfig{Preempt: sim.PreemptYield}}); err == nil || !strings.Contains(err.Error(), "--preempt yield") {
		t.Errorf("--preempt yield on firmware without a harness: %v", err)
	}
}

// The estimate: only best-first and A* follow one; it aims at the first
// property of Aims the firmware can violate, or at the --reach goal; a
// heuristic of none, or a firmware without a target, leaves the search
// breadth-first and says so; hamming needs its valuation.
func TestEstimator(t *testing.T) {
	img := load(t, reachELF)
	m, err := NewMachine(img, MachineConfig{Reach: []string{"goal"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cfg      Config
		estimate bool
		note     string // a part of it
		err      string
	}{
		{Config{Strategy: search.BFS, Heuristic: heuristics.EFSM}, false, "", ""},
		{Config{Strategy: search.Best, Heuristic: heuristics.EFSM, K: 1}, true, "the heuristic aims at reach", ""},
		{Config{Strategy: search.AStar, Heuristic: heuristics.FSM}, true, "the heuristic aims at reach", ""},
		{Config{Strategy: search.Best, Heuristic: heuristics.None}, false, "no heuristic: best search degenerates to breadth-first", ""},
		{Config{Strategy: search.Best, Heuristic: heuristics.Hamming, GoalMem: []string{"stack0=3,2"}}, true, "", ""},
		{Config{Strategy: search.Best, Heuristic: heuristics.Hamming}, false, "", "--heuristic hamming needs --goal-mem"},
		{Config{Strategy: search.Best, Heuristic: heuristics.Hamming, GoalMem: []string{"nowhere=1"}}, false, "", `--goal-mem "nowhere=1": no symbol`},
		{Config{Strategy: search.Best, Heuristic: heuristics.Hamming, GoalMem: []string{"stack0"}}, false, "", "want ADDR=v1,v2,..."},
		{Config{Strategy: search.Best, Heuristic: heuristics.Hamming, GoalMem: []string{"stack0=256"}}, false, "", `"256" is not a byte value`},
	} {
		tt.cfg.Machine.Reach = []string{"goal"}
		est, note, err := Estimator(img, m, tt.cfg)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%+v: error %v, want %q", tt.cfg, err, tt.err)
			}
		case err != nil || (est != nil) != tt.estimate || !strings.Contains(note, tt.note):
			t.Errorf("%+v: estimate %t, note %q, %v", tt.cfg, est != nil, note, err)
		}
	}
	// No goal, and a model with no call of a harness stub to aim at.
	sw := load(t, switchesELF)
	m, err = NewMachine(sw, MachineConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if est, note, err := Estimator(sw, m, Config{Strategy: search.Best, Heuristic: heuristics.EFSM, Aims: []heuristics.Property{heuristics.Assert}}); est != nil || err != nil ||
		!strings.Contains(note, "degenerates to breadth-first") {
		t.Errorf("no target: estimate %t, note %q, %v", est != nil, note, err)
	}
}

// Firmware with its peripherals: the inputs nothing drives are held at
// their power-up values, and the verdict says which; an --input of a
// register, by name, goes to the device and gives the register every
// value, which finds the bug the held value hid.
func TestHeldInputs(t *testing.T) {
	c, res := run(t, switchesELF, Config{Strategy: search.BFS})
	held := HeldInputs(c.Image, c.Machine)
	if res.Verdict != Verified || !slices.Equal(held, []HeldInput{{Addr: "0x100A", Name: "PORTE"}, {Addr: "0x1031", Name: "ADR1"}}) {
		t.Errorf("no --input: %s, held %+v", res.Verdict, held)
	}
	c, res = run(t, switchesELF, Config{Strategy: search.BFS, Machine: MachineConfig{Inputs: []string{"porte=0"}}})
	if held := HeldInputs(c.Image, c.Machine); res.Verdict != Verified || !slices.Equal(held, []HeldInput{{Addr: "0x1031", Name: "ADR1"}}) {
		t.Errorf("--input porte=0: %s, held %+v", res.Verdict, held)
	}
	_, res = run(t, switchesELF, Config{Strategy: search.BFS, Machine: MachineConfig{Inputs: []string{"PORTE"}}})
	if res.Verdict != Violated || res.Found[0].Violation.Kind != sim.KindROMWrite {
		t.Errorf("--input PORTE: %s %v, want rom-write", res.Verdict, res.Found)
	}
	// A harness model reads the register block as memory: a read of an
	// input register is held at what was written there.
	c, _ = run(t, "../testdata/models/port_poll.elf", Config{Strategy: search.BFS})
	if held := HeldInputs(c.Image, c.Machine); !slices.Equal(held, []HeldInput{{Addr: "0x100A", Name: "PORTE", ReadsBackWrites: true}}) {
		t.Errorf("a harness model polling PORTE: held %+v", held)
	}
}

// HMC's configuration: the check's mode, priority, depth and limits; the
// check's estimate ranks the frontier for glh only, and not in bmc. The
// engine takes --max-branch under --engine auto alone, and refuses the
// chip's peripherals.
func TestSymbolic(t *testing.T) {
	cfg := Config{Strategy: search.Best, Heuristic: heuristics.EFSM, K: 1, MaxStates: 50, MaxMemory: 1 << 20, Reduce: true,
		Ignore: map[sim.Kind]bool{sim.KindDeadlock: true}, HMC: HMC{Mode: symbolic.ST, PRDepth: 9, MaxBranch: 4},
		Machine: MachineConfig{Reach: []string{"goal"}}}
	c, err := New(load(t, reachELF), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc := c.SymbolicConfig()
	if sc.Mode != symbolic.ST || sc.Priority != symbolic.GLH || sc.PRDepth != 9 || sc.MaxStates != 50 || sc.MaxMemory != 1<<20 ||
		!sc.Ignore[sim.KindDeadlock] || sc.Estimate == nil {
		t.Errorf("config %+v", sc)
	}
	for _, h := range []HMC{{Mode: symbolic.BMC}, {Mode: symbolic.HMC, Priority: symbolic.DFS}} {
		c.Config.HMC = h
		if c.SymbolicConfig().Estimate != nil {
			t.Errorf("%+v: ranked by the estimate", h)
		}
	}
	c.Config.HMC = cfg.HMC
	for _, engine := range []EngineKind{EngineHMC, EngineAuto} {
		c.Config.Engine = engine
		e, err := c.SymbolicEngine()
		if err != nil {
			t.Fatal(err)
		}
		if want := map[EngineKind]int{EngineHMC: 0, EngineAuto: 4}[engine]; e.Opts.MaxBranch != want || !e.Opts.Reduce {
			t.Errorf("%s: options %+v, want MaxBranch %d and reduction", engine, e.Opts, want)
		}
	}
	c, err = New(load(t, switchesELF), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SymbolicEngine(); err == nil {
		t.Errorf("the symbolic engine on the chip's peripherals")
	}
}
