package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

const (
	heaterELF      = "../testdata/firmware/heater.elf"       // unmapped at 0x4CD0 after "L4" (testdata/firmware/README.md)
	heaterFixedELF = "../testdata/firmware/heater_fixed.elf" // the same, fixed
)

// heaterConfig is the check of the heater's README line: --sci-input
// L,4 --sci-timing idle --max-timer-events 0, breadth-first, without
// partial-order reduction.
func heaterConfig(maxStates int) Config {
	zero := 0
	return Config{Strategy: search.BFS, MaxStates: maxStates,
		Machine: MachineConfig{SCIInput: []byte("L4"), SCIIdle: true, MaxTimerEvents: &zero, Unbatched: true}}
}

// TestProvedDepthHolds: a breadth-first check of the heater stopped by
// --max-states says how deep it proved the firmware free of violations,
// and the claim holds: the shortest counterexample the whole search
// finds (every kind's, --all) is longer. The search runs without batches
// (--batch off), so that its levels and the counterexample's listing
// count the same transitions and the claim's strength can be judged;
// TestProvedDepthBatches checks the claim with batches.
func TestProvedDepthHolds(t *testing.T) {
	full := heaterConfig(0)
	full.All = true
	_, res := run(t, heaterELF, full)
	shortest := math.MaxInt
	for _, f := range res.Found {
		shortest = min(shortest, len(f.Trace))
	}
	if res.Verdict != Violated || shortest == math.MaxInt {
		t.Fatalf("the whole search: %v, %d violations", res.Verdict, len(res.Found))
	}
	// The search that stops at the first violation stores fewer states:
	// a cut below that is incomplete.
	_, first := run(t, heaterELF, heaterConfig(0))
	deepest := -1
	for _, frac := range []int{5, 30, 70, 95} {
		n := first.Stats.StatesStored * frac / 100
		c, part := run(t, heaterELF, heaterConfig(n))
		if part.Verdict != Incomplete {
			t.Fatalf("--max-states %d: %v", n, part.Verdict)
		}
		p := part.Proved(c.Machine, c.Properties)
		if p == nil || p.Depth == nil {
			t.Fatalf("--max-states %d: no depth claimed: %+v", n, p)
		}
		if *p.Depth >= shortest {
			t.Errorf("--max-states %d: claims no violation within %d transitions; one is %d away", n, *p.Depth, shortest)
		}
		if want := fmt.Sprintf("no violation within %d transitions of reset, on any schedule and any input within the bounds", *p.Depth); !strings.HasPrefix(p.Claim, want) {
			t.Errorf("claim %q, want it to begin %q", p.Claim, want)
		}
		var text bytes.Buffer
		part.WriteText(&text, c.Image, c.Machine, c.Properties, TextOptions{})
		if !strings.Contains(text.String(), "  proved: "+p.Claim+"\n") {
			t.Errorf("the text does not state the claim:\n%s", text.String())
		}
		out, _ := json.Marshal(part.JSON(c.Machine, c.Properties))
		var got struct {
			Proved struct {
				Depth *int   `json:"depth"`
				From  string `json:"from"`
			} `json:"proved"`
		}
		if err := json.Unmarshal(out, &got); err != nil || got.Proved.Depth == nil || *got.Proved.Depth != *p.Depth || got.Proved.From != "reset" {
			t.Errorf("--json: %s", out)
		}
		t.Logf("--max-states %d: no violation within %d transitions (the counterexample: %d)", n, *p.Depth, shortest)
		deepest = max(deepest, *p.Depth)
	}
	// The largest cut leaves little of the search: its claim comes near
	// the counterexample (levels grow wide, so not to it).
	if deepest < shortest/2 {
		t.Errorf("the deepest claim is %d transitions, the counterexample %d", deepest, shortest)
	}
	// Under partial-order reduction no depth is claimed, and the reason
	// is given.
	cfg := heaterConfig(first.Stats.StatesStored / 2)
	cfg.Reduce = true
	c, part := run(t, heaterELF, cfg)
	if p := part.Proved(c.Machine, c.Properties); part.Verdict != Incomplete || p == nil || p.Depth != nil || !strings.Contains(p.NoDepth, "partial-order reduction") {
		t.Errorf("under por: %v, %+v", part.Verdict, p)
	}
}

// TestProvedInputs: a check exhaustive within --max-received and
// --max-timer-events states the input sequences its verdict covers.
func TestProvedInputs(t *testing.T) {
	cfg := heaterConfig(0)
	three := 3
	cfg.Machine.MaxReceived = &three
	c, res := run(t, heaterFixedELF, cfg)
	rep := c.Conclude(res)
	p := res.Proved(c.Machine, rep)
	if res.Verdict != Incomplete || res.Stats.Frontier != 0 || p == nil || p.Depth != nil {
		t.Fatalf("%v, frontier %d, %+v", res.Verdict, res.Stats.Frontier, p)
	}
	for _, want := range []string{"no violation in any reachable state, for every input sequence",
		"of at most 3 bytes of --sci-input (--max-received 3)", "with at most 0 timer events (--max-timer-events 0)", "--sci-timing idle"} {
		if !strings.Contains(p.Claim, want) || !strings.Contains(p.Claim, p.Inputs) {
			t.Errorf("claim %q: no %q", p.Claim, want)
		}
	}
	out, _ := json.Marshal(res.JSON(c.Machine, rep))
	if !bytes.Contains(out, []byte(`"inputs":"for every input sequence of at most 3 bytes`)) {
		t.Errorf("--json: %s", out)
	}
}

// TestFrontierAdvice: a breadth-first check of the fixed heater without
// bounds spends its frontier on states that differ in the SCI's data
// register (under the abstract clock a byte of any value arrives at any
// scheduling point: docs/clocks.md), and advises --max-received for them;
// given --max-received and --max-timer-events, it advises neither.
func TestFrontierAdvice(t *testing.T) {
	c, res := run(t, heaterFixedELF, Config{Strategy: search.BFS, MaxStates: 5000})
	rep := c.Conclude(res)
	found := false
	for _, f := range rep.Frontier {
		if f.States <= 0 || f.Symbol == "" || f.Line == "" {
			t.Errorf("site %+v: no count, symbol or line", f)
		}
		if slices.ContainsFunc(f.Differ, func(d string) bool { return strings.Contains(d, "SCDR") }) {
			found = true
			if !strings.Contains(f.Advice, "--max-received N") {
				t.Errorf("site %+v differs in SCDR without advice to bound the bytes", f)
			}
		}
	}
	if !found {
		t.Fatalf("no frontier site differs in SCDR: %+v", rep.Frontier)
	}
	one, zero := 1, 0
	cfg := Config{Strategy: search.BFS, MaxStates: 5000, Machine: MachineConfig{MaxReceived: &one, MaxTimerEvents: &zero}}
	c, res = run(t, heaterFixedELF, cfg)
	for _, f := range c.Conclude(res).Frontier {
		if strings.Contains(f.Advice, "--max-received") || strings.Contains(f.Advice, "--max-timer-events") {
			t.Errorf("bounded, yet advised: %+v", f)
		}
	}
}

// TestRunCovered: the PCs a plain run visits (sim.RunOptions.Visit) are
// those its trace lists (sim.RunOptions.Trace, one line per instruction,
// PC=xxxx), and the table per procedure counts them.
func TestRunCovered(t *testing.T) {
	img := load(t, heaterFixedELF)
	mc := MachineConfig{}
	got := RunCovered(img, mc, 20000)
	m, err := NewMachine(img, mc)
	if err != nil {
		t.Fatal(err)
	}
	var trace bytes.Buffer
	m.Run(m.Initial(), sim.RunOptions{Steps: 20000, Trace: &trace})
	want := map[uint16]bool{}
	for _, l := range strings.Split(trace.String(), "\n") {
		if i := strings.Index(l, " PC="); i >= 0 && !strings.HasPrefix(l, "final") {
			var pc uint16
			fmt.Sscanf(l[i+4:i+8], "%04x", &pc)
			want[pc] = true
		}
	}
	if len(want) == 0 || !maps.Equal(got, want) {
		t.Fatalf("visited %d PCs, the trace lists %d", len(got), len(want))
	}
	total := 0
	for _, p := range ProcCoverages(img, nil, got) {
		total += p.Run
		if p.Check != 0 || p.Run > p.Instructions {
			t.Errorf("%+v", p)
		}
	}
	if total == 0 {
		t.Error("the table counts none of the run's instructions")
	}
}

// TestProvedDepthBatches: with batches of steps (the default) a level of
// breadth-first search is a batch, at least one transition of the
// listing, so a claim of D levels is a claim of at least D transitions
// and must still fall short of the shortest counterexample's listing.
func TestProvedDepthBatches(t *testing.T) {
	full := heaterConfig(0)
	full.All, full.Machine.Unbatched = true, false
	_, res := run(t, heaterELF, full)
	shortest := math.MaxInt
	for _, f := range res.Found {
		shortest = min(shortest, len(f.Trace))
	}
	if res.Verdict != Violated || shortest == math.MaxInt {
		t.Fatalf("the whole search: %v, %d violations", res.Verdict, len(res.Found))
	}
	first := heaterConfig(0)
	first.Machine.Unbatched = false
	_, r := run(t, heaterELF, first)
	for _, frac := range []int{5, 30, 70, 95} {
		cfg := heaterConfig(r.Stats.StatesStored * frac / 100)
		cfg.Machine.Unbatched = false
		c, part := run(t, heaterELF, cfg)
		if part.Verdict != Incomplete {
			continue
		}
		if p := part.Proved(c.Machine, c.Properties); p == nil || p.Depth == nil || *p.Depth >= shortest {
			t.Errorf("%d%% of the states: claim %+v, the counterexample %d transitions", frac, p, shortest)
		}
	}
}
