package check

import (
	"errors"
	"github.com/hc11mc/hc11mc/verdict"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
)

// A result of the symbolic engine is the explicit search's shape: its
// counts as states stored and expanded, its own statistics kept, and its
// counterexample, replayed on the simulator first: one that does not end
// in its violation is a NotReplayed error, not a result.
func TestFromSymbolic(t *testing.T) {
	c, found := run(t, reachELF, Config{Strategy: search.BFS, Machine: MachineConfig{Reach: []string{"goal"}}})
	if found.Verdict != Violated {
		t.Fatalf("reach.elf --reach goal: %s", found.Verdict)
	}
	f := found.Found[0]
	st := symbolic.Stats{States: 7, Images: 5, Unrolled: 3, MaxDepth: 4, Frontier: 2, Instructions: 40, PeakMemory: 1 << 20,
		Reduced: 1, Elapsed: 1500 * time.Millisecond}
	res, err := FromSymbolic(c.Machine, &symbolic.Result{Verdict: symbolic.Violated, Violation: f.Violation, Trace: f.Trace,
		Stats: st, Privacy: "broke"})
	if err != nil {
		t.Fatal(err)
	}
	want := search.Stats{StatesStored: 7, StatesExpanded: 8, MaxDepth: 4, Frontier: 2, Instructions: 40, PeakMemory: 1 << 20,
		Reduced: 1, Seconds: 1.5}
	if res.Verdict != Violated || len(res.Found) != 1 || !slices.Equal(res.Found[0].Trace, f.Trace) || res.Stats != want ||
		res.HMC == nil || *res.HMC != st || res.Privacy != "broke" {
		t.Errorf("result %+v", res)
	}
	res, err = FromSymbolic(c.Machine, &symbolic.Result{Verdict: symbolic.Incomplete, Limit: verdict.Timeout(time.Second)})
	if err != nil || res.Verdict != Incomplete || res.Limit.String() != "--timeout 1s" || res.Found != nil {
		t.Errorf("incomplete: %+v, %v", res, err)
	}

	assert := *f.Violation
	assert.Kind = sim.KindAssert
	for _, tt := range []struct {
		v     *sim.Violation
		trace []sim.Label
		want  string
	}{
		{f.Violation, f.Trace[:len(f.Trace)-1], "end without a violation"},
		{&assert, f.Trace, "end in reach, not assert"},
		{f.Violation, append(slices.Clone(f.Trace[:1]), sim.Label{Thread: 5}), "step"},
	} {
		_, err := FromSymbolic(c.Machine, &symbolic.Result{Verdict: symbolic.Violated, Violation: tt.v, Trace: tt.trace})
		var nr *NotReplayed
		if !errors.As(err, &nr) || nr.Kind != tt.v.Kind || !strings.Contains(err.Error(), "does not replay on the simulator") ||
			!strings.Contains(err.Error(), tt.want) {
			t.Errorf("a trace of %d steps: %v, want a NotReplayed saying %q", len(tt.trace), err, tt.want)
		}
	}
}

// A bounded exploration proves nothing beyond its bounds: its verified
// verdict is incomplete, and says why; other verdicts stay.
func TestBound(t *testing.T) {
	bounded := Report{Bounds: "at most 1 byte received (--max-received)"}
	for _, tt := range []struct {
		r    Report
		in   Verdict
		want Verdict
	}{
		{bounded, Verified, Incomplete},
		{bounded, Violated, Violated},
		{bounded, Incomplete, Incomplete},
		{Report{}, Verified, Verified},
	} {
		res := &Result{Verdict: tt.in, Limit: verdict.Because("before")}
		tt.r.Bound(res)
		changed := tt.in != tt.want
		if res.Verdict != tt.want || changed != strings.Contains(res.Limit.String(), "the bounds of the exploration (at most 1 byte received") {
			t.Errorf("%q, %s: %s, limit %q", tt.r.Bounds, tt.in, res.Verdict, res.Limit)
		}
	}
}

// The notes that go with a verdict: what the reductions did and what
// broke their assumptions, and, except for a violation (which is real
// under any model), the coarser model of atomicity --preempt calls and
// yield make.
func TestConditions(t *testing.T) {
	calls, err := NewMachine(load(t, mutexOK), MachineConfig{Preempt: sim.PreemptCalls})
	if err != nil {
		t.Fatal(err)
	}
	every, err := NewMachine(load(t, mutexOK), MachineConfig{})
	if err != nil {
		t.Fatal(err)
	}
	res := &Result{Verdict: Verified, Privacy: "thread 1 at 0xD000 accessed 0x0100 in thread 2's stack", Dead: "a read",
		Stats: search.Stats{Reduced: 3, StatesExpanded: 10}}
	got := res.Conditions(calls, []string{"por", "dead"})
	want := []string{
		"reductions: por, dead (3 of 10 states expanded by one transition alone; verdicts are those of --reduce none)",
		"note: por: thread 1 at 0xD000 accessed 0x0100 in thread 2's stack",
		"note: dead: a read",
		"note: under --preempt calls threads switch only at calls, returns and harness calls, a coarser model of atomicity than the hardware's, not a reduction: it can miss races that --preempt every finds",
	}
	if !slices.Equal(got, want) {
		t.Errorf("conditions:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	res = &Result{Verdict: Violated}
	if got := res.Conditions(calls, nil); len(got) != 0 {
		t.Errorf("a violation under --preempt calls: %q", got)
	}
	if got := (&Result{Verdict: Verified}).Conditions(every, nil); len(got) != 0 {
		t.Errorf("verified, no reduction, --preempt every: %q", got)
	}
}
