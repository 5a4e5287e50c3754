package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The differential test of the timing properties: on programs of
// randprog.Generate, --report-timing's largest values (the masked
// interval, each --irq interrupt's latency) under every reduction, search
// and store agree with the plain breadth-first search's, which are exact
// when it is exhaustive (sim/timing.go says why).

// timingCap keeps the counters small, so that a thread that masks
// interrupts for ever makes few states; a value that reaches it is
// reported as "at least" it, the same under every setting.
const timingCap = "32"

// timingSettings are compared with --reduce none --search bfs.
var timingSettings = [][]string{
	{"--reduce", "por", "--search", "dfs"},
	{"--reduce", "por", "--search", "bfs"},
	{"--reduce", "dead", "--search", "dfs"},
	{"--reduce", "por,dead", "--search", "best"},
	{"--reduce", "por,dead", "--workers", "3"},
	{"--hash-compact", "--search", "dfs"},
}

// timingValues runs check --report-timing on d with extra flags: the
// verdict and the values, "property=cycles" ("≥" when saturated).
func timingValues(d *diffProgram, extra ...string) (verdict string, values []string, err error) {
	args := append(append(append([]string{"check"}, d.load...), d.p.CheckFlags()...),
		"--json", "-q", "--max-states", fmt.Sprint(diffStates), "--report-timing", "--timing-cap", timingCap,
		// The other properties would stop the search at their
		// violations, and the values would be lower bounds.
		"--ignore", "assert,error,deadlock,mutex,unlock,illegal-opcode,rom-write,unmapped,stack,reach,watchdog,output")
	args = append(args, extra...)
	var out, errb bytes.Buffer
	if code := Main(args, nil, &out, &errb); code == ExitUsage || code == ExitInternal {
		return "", nil, fmt.Errorf("exit %d: %s", code, strings.TrimSpace(errb.String()))
	}
	var r struct {
		Verdict string `json:"verdict"`
		Timing  []struct {
			Property string `json:"property"`
			Cycles   uint64 `json:"cycles"`
			AtLeast  bool   `json:"at_least"`
		} `json:"timing"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		return "", nil, err
	}
	for _, t := range r.Timing {
		ge := "="
		if t.AtLeast {
			ge = "≥"
		}
		values = append(values, fmt.Sprintf("%s%s%d", t.Property, ge, t.Cycles))
	}
	return r.Verdict, values, nil
}

// timingDiffOne compares the settings with the plain search on program
// seed; ok is false when the plain search is not exhaustive without a
// violation (its values are then lower bounds, and nothing is compared)
// (search.TestTimingDifferential compares more programs, and shows the
// comparison catches mutation.TimingPOR).
func timingDiffOne(t *testing.T, seed uint64, dir string) (bad []string, ok bool) {
	t.Helper()
	d := writeProgram(t, seed, dir)
	ref, want, err := timingValues(d, "--reduce", "none", "--search", "bfs")
	if err != nil {
		return []string{"--reduce none --search bfs: " + err.Error()}, true
	}
	if ref != "verified" {
		return nil, false
	}
	for _, s := range timingSettings {
		v, got, err := timingValues(d, s...)
		switch {
		case err != nil:
			bad = append(bad, fmt.Sprintf("%s: %v", strings.Join(s, " "), err))
		case v != "verified":
			bad = append(bad, fmt.Sprintf("%s: verdict %s", strings.Join(s, " "), v))
		case strings.Join(got, " ") != strings.Join(want, " "):
			bad = append(bad, fmt.Sprintf("%s: %v, --reduce none: %v", strings.Join(s, " "), got, want))
		}
	}
	return bad, true
}

// TestTimingDifferentialCLI: every setting reports the plain search's exact
// maxima, on the generated programs where that search is exhaustive.
func TestTimingDifferentialCLI(t *testing.T) {
	n := uint64(60)
	if testing.Short() {
		n = 25
	}
	dir := t.TempDir()
	compared := 0
	for seed := uint64(0); seed < n; seed++ {
		bad, ok := timingDiffOne(t, seed, dir)
		if ok {
			compared++
		}
		if len(bad) > 0 {
			t.Errorf("program %d: the timing values disagree with --reduce none --search bfs:\n  %s", seed, strings.Join(bad, "\n  "))
		}
	}
	t.Logf("%d of %d programs compared", compared, n)
	if compared < int(n)/2 {
		t.Errorf("only %d of %d programs were searched exhaustively: the comparison is not exercised", compared, n)
	}
}
