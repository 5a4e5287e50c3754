package portfolio

import (
	"context"
	"sync"
	"testing"

	"github.com/hc11mc/hc11mc/check"
)

// A symbolic member whose search has returned is waited for, even when its
// end comes after every explicit member's and one of them decided: its
// verdict is the swarm's to compare, not "interrupted" (reported as
// "stopped: another member decided"). The ends are ordered so: each
// explicit member ends once the symbolic member's search has returned, and
// the symbolic member ends once the race has taken in both explicit ends
// (TestSwarmSelfCheckModels/port_poll_input met this order by chance).
func TestRaceWaitsForSearchedMember(t *testing.T) {
	cfg := racing()
	cfg.Machine.Inputs = []string{"0x100A"}
	runs, err := NewRuns(load(t, portPoll), cfg, nil, 3, true)
	if err != nil {
		t.Fatal(err)
	}
	if runs[1].Member.Engine == "" {
		t.Fatal("member 1 is not the symbolic member")
	}
	hmcSearched, explicitTaken := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	taken := 0
	watchedHook = func(i int) {
		if i == 1 {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if taken++; taken == 2 {
			close(explicitTaken)
		}
	}
	defer func() { watchedHook = nil }()
	hook := func(i int, res *check.Result, end func(*check.Result)) {
		if i == 1 {
			close(hmcSearched)
			<-explicitTaken
		} else {
			<-hmcSearched
		}
		end(res)
	}
	out := runRace(context.Background(), runs, Limits{EndHook: hook}, nil)
	if out.Result.Verdict != check.Violated {
		t.Fatalf("the swarm: %s, want a violation", out.Result.Verdict)
	}
	if r := runs[1]; r.Stopped != "" || r.Result.Verdict != check.Violated {
		t.Errorf("the symbolic member: %s (%s), stopped %q; want its own violation", r.Result.Verdict, r.Result.Limit, r.Stopped)
	}
}
