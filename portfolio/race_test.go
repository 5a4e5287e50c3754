package portfolio

import (
	"context"
	"github.com/hc11mc/hc11mc/verdict"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// run makes member i of a swarm of n a breadth-first search of the model
// at path, with the interrupts irqs.
func run(t *testing.T, path string, i, n int, irqs ...string) *Run {
	t.Helper()
	cs, err := check.New(load(t, path), check.Config{Machine: check.MachineConfig{Preempt: sim.PreemptEvery, IRQs: irqs},
		Strategy: search.BFS, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return &Run{Member: MemberOf(i, n, 1, len(irqs) > 0), Check: cs}
}

// The rule of the race: an incomplete end decides nothing, the first
// decisive end wins (decide is called once, with it), a later one does
// not, and from then on every member's pause says stop.
func TestRaceRule(t *testing.T) {
	var decided []int
	r := newRace(func(w int) { decided = append(decided, w) })
	pause := r.pauser(false)
	r.leave(2, &check.Result{Verdict: search.Incomplete}, nil)
	r.leave(3, &check.Result{Verdict: search.Violated}, context.Canceled)
	if r.result() != -1 || pause() {
		t.Fatalf("decided by an incomplete end or an error: winner %d", r.result())
	}
	r.leave(1, &check.Result{Verdict: search.Violated}, nil)
	r.leave(0, &check.Result{Verdict: search.Verified}, nil)
	if r.result() != 1 || len(decided) != 1 || decided[0] != 1 || !pause() || !r.pauser(true)() {
		t.Errorf("winner %d, decided %v, pause %t", r.result(), decided, pause())
	}
}

// The first decisive answer wins and stops the others: a member that
// finds a violation at once ends the search of one that would go on for a
// minute, which says another member decided; the swarm's result is the
// winner's with both members' counts.
func TestRaceFirstWins(t *testing.T) {
	runs := []*Run{run(t, irqCounter, 0, 2, "toc1"), run(t, assertFail, 1, 2)}
	start := time.Now()
	out := runRace(context.Background(), runs, Limits{}, nil)
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("the race took %v: the loser was not stopped", d)
	}
	if out.Winner != 1 || out.Conflict != nil || out.Result.Verdict != search.Violated || len(out.Result.Found) != 1 {
		t.Fatalf("winner %d, %+v", out.Winner, out.Result)
	}
	loser := runs[0]
	if loser.Stopped != "won" || loser.Result.Verdict != search.Incomplete || loser.Limit() != "stopped: another member decided" {
		t.Errorf("the other member: stopped %q, %s, %q", loser.Stopped, loser.Result.Verdict, loser.Limit())
	}
	if st := out.Result.Stats; st.StatesStored != runs[0].Result.Stats.StatesStored+runs[1].Result.Stats.StatesStored || st.StatesStored <= runs[1].Result.Stats.StatesStored {
		t.Errorf("stored %d, members %d and %d", st.StatesStored, runs[0].Result.Stats.StatesStored, runs[1].Result.Stats.StatesStored)
	}
	d := out.decide(1)
	if d.Winner != runs[1] || d.Found == nil || d.Found.Violation.Kind != sim.KindAssert || d.Machine != runs[1].Check.Machine || d.Internal != nil {
		t.Errorf("decision: %+v", d)
	}
}

// A member that searches exhaustively decides for the swarm too.
func TestRaceVerified(t *testing.T) {
	runs := []*Run{run(t, irqCounter, 0, 2, "toc1"), run(t, assertOK, 1, 2)}
	out := runRace(context.Background(), runs, Limits{}, nil)
	if out.Winner != 1 || out.Result.Verdict != search.Verified || runs[0].Stopped != "won" {
		t.Errorf("winner %d, verdict %s, member 0 stopped %q", out.Winner, out.Result.Verdict, runs[0].Stopped)
	}
}

// The stop file stops every member, and the swarm is incomplete; a swarm
// that decides writes it, naming the winner.
func TestRaceStopFile(t *testing.T) {
	stop := t.TempDir() + "/decided"
	runs := []*Run{run(t, assertFail, 0, 2), run(t, assertFail, 1, 2)}
	out := runRace(context.Background(), runs, Limits{StopFile: stop}, nil)
	if b, err := os.ReadFile(stop); out.Winner < 0 || err != nil || string(b) != runs[out.Winner].Member.String()+"\n" {
		t.Fatalf("winner %d, stop file %q, %v", out.Winner, b, err)
	}
	runs = []*Run{run(t, irqCounter, 0, 2, "toc1"), run(t, irqCounter, 1, 2, "toc1")}
	out = runRace(context.Background(), runs, Limits{StopFile: stop}, nil)
	if out.Winner != -1 || out.Result.Verdict != search.Incomplete || !strings.Contains(out.Result.Limit.String(), "the stop file appeared") {
		t.Errorf("with the stop file there: winner %d, %+v", out.Winner, out.Result)
	}
}

// A member that proves verified while another's violation replays
// without reductions is a contradiction: the swarm's winner is the
// violation, and the decision names both members' settings.
func TestRaceConflict(t *testing.T) {
	var searched sync.WaitGroup
	searched.Add(1)
	wrong := func(i int, res *check.Result, end func(*check.Result)) {
		if i == 0 {
			searched.Wait() // member 1 has found its violation
			w := *res
			w.Verdict, w.Found, w.Limit = search.Verified, nil, verdict.Stop{}
			end(&w)
			return
		}
		searched.Done()
		end(res)
	}
	runs := []*Run{run(t, assertFail, 0, 2), run(t, assertFail, 1, 2)}
	runs[0].Check.Options.Strategy = search.DFS
	out := runRace(context.Background(), runs, Limits{EndHook: wrong}, nil)
	if out.Conflict == nil || out.Conflict.Verified != 0 || out.Conflict.Violated != 1 || out.Winner != 1 || out.Result.Verdict != search.Violated {
		t.Fatalf("conflict %+v, winner %d, %s", out.Conflict, out.Winner, out.Result.Verdict)
	}
	d := out.decide(3)
	if d.Internal == nil || d.Internal.VerifiedBy.Member != runs[0].Member.String() || d.Internal.ViolatedBy.Repeat != "--swarm-member 1/2 --seed 3" ||
		!strings.Contains(d.Internal.Text(), "verified by member 0/2") || d.Found == nil {
		t.Errorf("decision: %+v", d.Internal)
	}
}
