package check

import (
	"context"
	"encoding/json"
	"github.com/hc11mc/hc11mc/verdict"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/symbolic"
)

// The JSON of a violation: the verdict, the first violation with its
// instruction and trace length; of an exhaustive search of firmware with
// its peripherals: the inputs held and where it waits; fields that do not
// apply are left out.
func TestResultJSON(t *testing.T) {
	c, res := run(t, reachELF, Config{Strategy: search.BFS, Machine: MachineConfig{Reach: []string{"goal"}}})
	rep := c.Conclude(res)
	out := res.JSON(c.Machine, rep)
	b, _ := json.Marshal(out)
	var got struct {
		Verdict   string `json:"verdict"`
		Violation *struct {
			Kind        string `json:"kind"`
			Instruction string `json:"instruction"`
		} `json:"violation"`
		TraceLength int      `json:"trace_length"`
		Checked     []string `json:"properties_checked"`
		Stats       struct {
			StatesStored int `json:"states_stored"`
		} `json:"stats"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Verdict != "violation" || got.Violation == nil || got.Violation.Kind != "reach" || got.Violation.Instruction == "" ||
		got.TraceLength != len(res.First().Trace) || got.TraceLength == 0 || len(got.Checked) == 0 || got.Stats.StatesStored == 0 {
		t.Errorf("%s", b)
	}
	for _, k := range []string{"limit", "waits", "bounds", "violations", "omission_probability", "dead_data"} {
		if _, ok := out[k]; ok {
			t.Errorf("%s: %v, where it does not apply", k, out[k])
		}
	}
	c, res = run(t, switchesELF, Config{Strategy: search.BFS})
	out = res.JSON(c.Machine, c.Conclude(res))
	waits, hasWaits := out["waits"].([]string) // none: the firmware never waited
	held, _ := out["inputs_held"].([]HeldInput)
	if out["verdict"] != "verified" || !hasWaits || len(waits) != 0 || len(held) != 2 || out["violation"] != nil {
		t.Errorf("firmware: %v", out)
	}
	if (&Result{}).First() != nil {
		t.Error("a first violation where none was found")
	}
}

// Conclude names the memory limit by its size and makes a bounded
// exploration's verified verdict incomplete.
func TestConclude(t *testing.T) {
	bound := 2
	c, res := run(t, switchesELF, Config{Strategy: search.BFS, MaxMemory: 1 << 30, MaxMemoryDefault: "half",
		Machine: MachineConfig{Peripherals: PeripheralsOn, MaxTimerEvents: &bound}})
	if res.Verdict != Verified {
		t.Fatalf("%s", res.Verdict)
	}
	rep := c.Conclude(res)
	if res.Verdict != Incomplete || !strings.Contains(res.Limit.String(), "at most 2 timer events") || len(rep.Held) == 0 {
		t.Errorf("bounded: %s %q, held %v", res.Verdict, res.Limit, rep.Held)
	}
	res = &Result{Verdict: Incomplete, Limit: verdict.MaxMemory(1 << 30)}
	c.Conclude(res)
	if res.Limit.String() != "--max-memory 1 GiB, the default: half (set --max-memory SIZE, or none, to change it)" {
		t.Errorf("limit %q", res.Limit)
	}
}

// Under --engine hmc the estimate is best-first search's and dead-data
// elimination is off, whatever the configuration says of them.
func TestNewHMC(t *testing.T) {
	c, err := New(load(t, reachELF), Config{Engine: EngineHMC, Strategy: search.BFS, Heuristic: heuristics.FSM,
		Machine: MachineConfig{Dead: true, Reach: []string{"goal"}}, Reduce: true})
	if err != nil {
		t.Fatal(err)
	}
	if c.Config.Strategy != search.Best || c.Machine.Config.Dead || c.Options.Estimate == nil || strings.Join(c.Properties.Reductions, ",") != "por" {
		t.Errorf("%+v, reductions %v", c.Config, c.Properties.Reductions)
	}
}

// The statistics of the symbolic engine that check --json gives.
func TestNewHMCStats(t *testing.T) {
	s := NewHMCStats(symbolic.Stats{Switches: 1, Images: 2, PeakFrontier: 3, Partitions: 4, Groups: 5, PRChecks: 6, PRRemoved: 7, Unrolled: 8,
		Forks: 9, Queries: 10, SolverTime: 1500 * time.Millisecond})
	if s != (HMCStats{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1.5}) {
		t.Errorf("%+v", s)
	}
}

// A held input says what the firmware read, at what, and the setting that
// gives it every value.
func TestHeldInputString(t *testing.T) {
	for _, c := range []struct {
		h    HeldInput
		want string
	}{
		{HeldInput{Addr: "0x100A", Name: "PORTE"}, "the firmware read PORTE (0x100A), held at 0x00 — every value: --input 0x100A"},
		{HeldInput{Addr: "0x1004", Name: "PORTB", Value: 0x12, ReadsBackWrites: true},
			"the firmware read PORTB (0x1004), held at what the firmware last wrote there (0x12 at power-up) — every value: --input 0x1004"},
		{HeldInput{Addr: "0x4000", Board: "0x4000-0x4001", Value: 1},
			"the firmware read board hardware at 0x4000 (--device 0x4000-0x4001), held at 0x01 — its values: --device 0x4000-0x4001=v1,v2,..."},
	} {
		if got := c.h.String(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// What a search reached of the code: the ICFG's instructions reached,
// the procedures never entered; where the firmware waits (collect.elf
// polls the SCI in a loop that branches to itself).
func TestCoverage(t *testing.T) {
	c, res := run(t, "../testdata/firmware/collect.elf", Config{Strategy: search.BFS, MaxStates: 20000})
	if got := Coverage(c.Image, res.Covered); !strings.HasSuffix(got, "instructions in the ICFG reached at scheduling points") {
		t.Errorf("coverage %q", got)
	}
	if got := Coverage(c.Image, map[uint16]bool{}); !strings.HasPrefix(got, "0 of the ") {
		t.Errorf("nothing covered: %q", got)
	}
	if never := Uncovered(c.Image, map[uint16]bool{}); len(never) == 0 || strings.HasPrefix(never[0], "__mc_") {
		t.Errorf("nothing covered: never entered %v", never)
	}
	if waits := WaitSites(c.Machine, res.Covered); len(waits) != 1 || !strings.HasPrefix(waits[0], "0xD012 <wait> spins: brclr 0x2e,x, #0x20") {
		t.Errorf("waits %v", waits)
	}
}

// A saved frontier resumes: the search saved at a limit goes on to the
// verdict of the search that ran without it.
func TestSaveFrontier(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	c, err := New(load(t, mutexOK), Config{Strategy: search.BFS, MaxStates: 20})
	if err != nil {
		t.Fatal(err)
	}
	opts := c.Options
	opts.SaveReserve = true
	res := search.Run(context.Background(), c.Machine, opts)
	if res.Verdict != search.Incomplete {
		t.Fatalf("%s", res.Verdict)
	}
	if err := SaveFrontier(path, res, 1<<30); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opts = c.Options
	opts.MaxStates, opts.Resume = 0, f
	if again := search.Run(context.Background(), c.Machine, opts); again.Err != nil || again.Verdict != search.Verified {
		t.Errorf("resumed: %s, %v", again.Verdict, again.Err)
	}
	if err := SaveFrontier(filepath.Join(path, "no", "dir"), res, 0); err == nil {
		t.Error("saved into a directory that is not there")
	}
}
