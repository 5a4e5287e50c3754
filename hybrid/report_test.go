package hybrid

import (
	"github.com/hc11mc/hc11mc/verdict"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/symbolic"
)

// What HMC did, as check's text and JSON say it: nothing when the
// explicit search enumerated every choice or met no wide one, else the
// transitions handed over, HMC's verdict and its counts.
func TestReportOutput(t *testing.T) {
	alone := &Report{Alone: "no choice is symbolic here"}
	if got := alone.Line(16); got != "auto: every choice enumerated by the explicit search: no choice is symbolic here" {
		t.Errorf("alone: %s", got)
	}
	if j := alone.JSON(); j["enumerated_all"] != "no choice is symbolic here" || j["handed"] != 0 || j["verdict"] != nil {
		t.Errorf("alone: %v", j)
	}
	if got := (&Report{}).Line(16); got != "auto: no choice of more than 16 values was met; the explicit search decided alone" {
		t.Errorf("not run: %s", got)
	}
	st := symbolic.Stats{States: 9, Images: 7, PRChecks: 2, Queries: 40, SolverTime: 250 * time.Millisecond}
	for _, c := range []struct {
		r    Report
		want string
	}{
		{Report{States: 1, Ran: true, Verdict: symbolic.Verified, Stats: st},
			"auto: 1 transition with a choice of more than 4 values handed to HMC: verified; 9 symbolic states, 7 images, 2 bounded model checks, 40 solver queries in 0.25s"},
		{Report{States: 3, Ran: true, Verdict: symbolic.Incomplete, Limit: verdict.Timeout(time.Second), Stats: st},
			"auto: 3 transitions with a choice of more than 4 values handed to HMC: incomplete; 9 symbolic states, 7 images, 2 bounded model checks, 40 solver queries in 0.25s"},
	} {
		if got := c.r.Line(4); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
		j := c.r.JSON()
		if j["handed"] != c.r.States || j["verdict"] != c.r.Verdict.String() || j["symbolic_states"] != 9 || j["hmc"] != check.NewHMCStats(st) ||
			(j["limit"] != nil) != c.r.Limit.Stopped() {
			t.Errorf("json %v", j)
		}
	}
}
