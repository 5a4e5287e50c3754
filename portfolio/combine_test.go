package portfolio

import (
	"errors"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/verdict"
	"testing"

	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// member is a stopped member with a result, for combine.
func member(i int, res check.Result, stopped string) *Run {
	return &Run{Member: MemberOf(i, 4, 1, true), Result: &res, Stopped: stopped}
}

// The winner's result is the swarm's: its verdict, counterexample and
// notes; the counts are every member's, added up (the depth the deepest),
// the coverage their union.
func TestCombineWinner(t *testing.T) {
	found := []search.Found{{Violation: &sim.Violation{Kind: sim.KindAssert}}}
	runs := []*Run{
		member(0, check.Result{Verdict: search.Incomplete, Limit: interrupted, Privacy: "p0", Covered: map[uint16]bool{1: true},
			Stats: search.Stats{StatesStored: 10, StatesExpanded: 9, MaxDepth: 7, Transitions: 20}}, "won"),
		member(1, check.Result{Verdict: search.Violated, Found: found, Omission: 0.5, Dead: "d1", Covered: map[uint16]bool{2: true, 1: true},
			Stats: search.Stats{StatesStored: 5, StatesExpanded: 4, MaxDepth: 3, Transitions: 6}}, ""),
	}
	res := combine(runs, 1, 2.5)
	if res.Verdict != search.Violated || len(res.Found) != 1 || res.Omission != 0.5 || res.Dead != "d1" || res.Privacy != "" || res.Limit.Stopped() {
		t.Errorf("verdict and notes: %+v", res)
	}
	st := res.Stats
	if st.StatesStored != 15 || st.StatesExpanded != 13 || st.Transitions != 26 || st.MaxDepth != 7 || st.Seconds != 2.5 || len(res.Covered) != 2 {
		t.Errorf("counts: %+v, covered %v", st, res.Covered)
	}
}

// Without a winner the swarm is incomplete, and its limit says what
// stopped the members: one reason for all, or each with its members; a
// memory limit by its size; an error by itself. The notes on the
// reductions are any member's.
func TestCombineLimits(t *testing.T) {
	lim := func(l verdict.Stop) check.Result { return check.Result{Verdict: search.Incomplete, Limit: l} }
	for _, c := range []struct {
		runs []*Run
		want string
	}{
		{[]*Run{member(0, lim(verdict.MaxStates(5)), "")}, "--max-states 5"},
		{[]*Run{member(0, lim(verdict.MaxStates(5)), ""), member(1, lim(verdict.MaxStates(5)), "")}, "--max-states 5 (every member)"},
		{[]*Run{member(0, lim(verdict.MaxStates(5)), ""), member(1, lim(verdict.MaxMemory(1610612736)), ""), member(2, lim(verdict.MaxStates(5)), "")},
			"--max-states 5 (member 0, 2); --max-memory 1.5 GiB (member 1)"},
		{[]*Run{member(0, lim(verdict.Because("x")), "memory"), member(1, lim(verdict.Because("x")), "file"), withErr(member(2, check.Result{Verdict: search.Incomplete}, ""), errors.New("broken"))},
			"stopped to leave the memory to the other members (member 0); stopped: the stop file appeared (another member decided) (member 1); broken (member 2)"},
	} {
		res := combine(c.runs, -1, 1)
		if res.Verdict != search.Incomplete || res.Limit.String() != c.want || res.Found != nil {
			t.Errorf("limit %q, want %q", res.Limit, c.want)
		}
	}
	a, b := lim(verdict.Because("l")), lim(verdict.Because("l"))
	b.Privacy, b.Dead = "p", "d"
	if res := combine([]*Run{member(0, a, ""), member(1, b, "")}, -1, 1); res.Privacy != "p" || res.Dead != "d" {
		t.Errorf("notes without a winner: %q %q", res.Privacy, res.Dead)
	}
}

// A member's summary and its line in the text results.
func TestSummary(t *testing.T) {
	r := member(1, check.Result{Verdict: search.Incomplete, Limit: verdict.MaxStates(5000), Stats: search.Stats{StatesStored: 12345, Seconds: 1.234}}, "")
	s := r.Summary()
	if s.Member != "1/4 (dfs)" || s.Verdict != "incomplete" || s.Limit != "--max-states 5000" || s.Stored != 12345 {
		t.Errorf("%+v", s)
	}
	if got, want := s.Line(), "member 1/4 (dfs): incomplete: --max-states 5000; 12,345 states, 1.23s"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	v := member(0, check.Result{Verdict: search.Violated, Found: []search.Found{{Trace: make([]sim.Label, 3)}}}, "")
	if s := v.Summary(); s.Limit != "" || s.Trace != 3 || s.Line() != "member 0/4 (best+fsm): violation; 0 states, 0.00s" {
		t.Errorf("%+v: %s", s, s.Line())
	}
}

// withErr is r whose engine failed with err.
func withErr(r *Run, err error) *Run {
	r.Err = err
	return r
}
