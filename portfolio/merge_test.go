package portfolio

import (
	"context"
	"encoding/json"
	"github.com/hc11mc/hc11mc/settings"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// result writes a member's result, as check --swarm-member --json would,
// into dir and returns its path.
func result(t *testing.T, dir, member, verdict string, expanded int, more map[string]any) string {
	t.Helper()
	r := map[string]any{"verdict": verdict, "member": member, "swarm_key": "k", "firmware": assertFail,
		"stats":              map[string]any{"states_stored": expanded + 1, "states_expanded": expanded, "max_depth": expanded / 2, "seconds": float64(expanded) / 100},
		"properties_checked": []string{"assert"}}
	if verdict == "violation" {
		r["violation"] = map[string]any{"kind": "assert", "message": "assertion failed", "thread": 0, "pc": "0xD00C"}
		r["trace_length"] = 4
	}
	if verdict == "incomplete" {
		r["limit"] = "--max-states " + member[:1]
	}
	for k, v := range more {
		r[k] = v
	}
	b, _ := json.Marshal(r)
	p := filepath.Join(dir, "member-"+member[:1]+".json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Consistent results: the violation of the member that expanded the
// fewest states wins; the counts add up, the coverage and the inputs held
// are the union, the members missing are named.
func TestMergeViolation(t *testing.T) {
	dir := t.TempDir()
	held := func(addrs ...string) []map[string]any {
		var hs []map[string]any
		for _, a := range addrs {
			hs = append(hs, map[string]any{"addr": a, "value": 0})
		}
		return hs
	}
	files := []string{
		result(t, dir, "2/5 (best+efsm k=1)", "violation", 50, map[string]any{"covered_pcs": []int{1, 2}, "inputs_held": held("0x1003")}),
		result(t, dir, "0/5 (best+fsm)", "violation", 20, map[string]any{"covered_pcs": []int{2, 3}, "inputs_held": held("0x1000", "0x1003")}),
		result(t, dir, "4/5 (random seed 1)", "incomplete", 100, nil),
	}
	m, rs, err := Merge(files)
	if err != nil {
		t.Fatal(err)
	}
	if m.Verdict != "violation" || m.Member != "0/5 (best+fsm)" || m.Violation.Kind != "assert" || m.TraceLength != 4 || m.InternalError != nil || m.SelfCheck != "" {
		t.Errorf("merged: %+v", m)
	}
	if m.Size != 5 || !slices.Equal(m.Missing, []int{1, 3}) || m.CoveredPCs != 3 || len(m.Held) != 2 || m.Held[0].Addr != "0x1000" {
		t.Errorf("size %d, missing %v, covered %d, held %+v", m.Size, m.Missing, m.CoveredPCs, m.Held)
	}
	if m.Stats.StatesExpanded != 170 || m.Stats.MaxDepth != 50 || m.Stats.Seconds != 1 || len(m.Members) != 3 || len(rs) != 3 || rs[0].Member != "0/5 (best+fsm)" {
		t.Errorf("stats %+v, members %+v", m.Stats, m.Members)
	}
}

// A member that searched exhaustively decides; with no member finished
// the merge is incomplete, naming what stopped each and how many left no
// result.
func TestMergeVerifiedAndIncomplete(t *testing.T) {
	dir := t.TempDir()
	a := result(t, dir, "0/3 (best+fsm)", "incomplete", 10, nil)
	b := result(t, dir, "1/3 (dfs)", "verified", 30, map[string]any{"omission_probability": 0.25})
	m, _, err := Merge([]string{a, b})
	if err != nil || m.Verdict != "verified" || m.Member != "1/3 (dfs)" || m.Omission != 0.25 || m.Limit != "" {
		t.Errorf("%+v, %v", m, err)
	}
	c := result(t, dir, "2/3 (best+efsm k=1)", "incomplete", 10, nil)
	m, _, err = Merge([]string{c, a})
	if err != nil || m.Verdict != "incomplete" || m.Limit != "no member finished: --max-states 0 (member 0); --max-states 2 (member 2); 1 members left no result" {
		t.Errorf("%+v, %v", m, err)
	}
}

// Inconsistent inputs are refused: results of different swarms (another
// key or size), a member's result twice, a file that is no member's
// result.
func TestMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	a := result(t, dir, "0/3 (best+fsm)", "incomplete", 10, nil)
	otherKey := result(t, t.TempDir(), "1/3 (dfs)", "incomplete", 10, map[string]any{"swarm_key": "other"})
	otherSize := result(t, t.TempDir(), "1/4 (dfs)", "incomplete", 10, nil)
	noMember := result(t, t.TempDir(), "2/3 (bfs)", "incomplete", 10, map[string]any{"member": ""})
	notJSON := filepath.Join(dir, "x.json")
	os.WriteFile(notJSON, []byte("{"), 0o644)
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{a, otherKey}, "are results of different swarms"},
		{[]string{a, otherSize}, "are results of different swarms"},
		{[]string{a, a}, "are both results of member 0"},
		{[]string{noMember}, "not the result of a swarm member"},
		{[]string{notJSON}, "not a result of check --json"},
		{[]string{filepath.Join(dir, "missing.json")}, "no such file"},
	} {
		if _, _, err := Merge(c.files); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.files, err, c.want)
		}
	}
}

// A verified member beside a violation: when the violation's trace
// replays, the members contradict each other (an internal error naming
// both); when there is no trace, or it does not replay, the merge says it
// could not check and keeps the violation.
func TestMergeSelfCheck(t *testing.T) {
	dir := t.TempDir()
	img := load(t, assertFail)
	cs, err := check.New(img, check.Config{Machine: check.MachineConfig{Preempt: sim.PreemptEvery}, Strategy: search.BFS})
	if err != nil {
		t.Fatal(err)
	}
	res := search.Run(context.Background(), cs.Machine, cs.Options)
	if res.Verdict != search.Violated {
		t.Fatalf("%s: %s", assertFail, res.Verdict)
	}
	f := res.Found[0]
	tf := cex.NewTrace(assertFail, settings.LoadSpec{}, settings.MachineSpec{Preempt: "every"}, cs.Machine, f.Trace, f.Violation)
	trace := filepath.Join(dir, "trace-0.json")
	tf.WriteFile(trace)
	cut := *tf
	cut.Steps = cut.Steps[:len(cut.Steps)-1]
	cutTrace := filepath.Join(dir, "cut.json")
	cut.WriteFile(cutTrace)
	viol := func(name, traceFile string) string {
		more := map[string]any{"violation": tf.Violation}
		if traceFile != "" {
			more["trace_file"] = traceFile
		}
		p := result(t, dir, "0/2 (best+efsm k=1)", "violation", 5, more)
		named := filepath.Join(dir, name)
		os.Rename(p, named)
		return named
	}
	proof := result(t, dir, "1/2 (dfs)", "verified", 9, map[string]any{"settings": Settings{Member: "1/2 (dfs)", Search: "dfs", Repeat: "--swarm-member 1/2 --seed 1"}})

	m, _, err := Merge([]string{viol("v.json", trace), proof})
	if err != nil || m.Verdict != "violation" || m.InternalError == nil || m.SelfCheck != "" || m.TraceFile != trace {
		t.Fatalf("a trace that replays: %+v, %v", m, err)
	}
	e := m.InternalError
	if e.VerifiedBy.Search != "dfs" || e.ViolatedBy.Repeat != "--swarm-member 0/2" || !strings.Contains(e.Message, "member 1/2 (dfs) searched every reachable state") {
		t.Errorf("internal error: %+v", e)
	}
	m, _, err = Merge([]string{viol("n.json", ""), proof})
	if err != nil || m.Verdict != "violation" || m.InternalError != nil || !strings.Contains(m.SelfCheck, "kept no counterexample") {
		t.Errorf("no trace: %+v, %v", m, err)
	}
	m, _, err = Merge([]string{viol("c.json", cutTrace), proof})
	if err != nil || m.Verdict != "violation" || m.InternalError != nil || !strings.Contains(m.SelfCheck, "does not replay") {
		t.Errorf("a trace that does not replay: %+v, %v", m, err)
	}
}
