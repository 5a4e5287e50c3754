package cli

import (
	"fmt"

	"github.com/hc11mc/hc11mc/hybrid"
)

// check --engine auto is package hybrid's: an explicit search that hands
// each choice wider than --max-branch, with its state, to HMC. Here are
// the lines it adds to check's output.

// autoLine says, after an --engine auto result, what HMC did.
func autoLine(r *hybrid.Report, maxBranch int) string {
	if r.Alone != "" {
		return "auto: every choice enumerated by the explicit search: " + r.Alone
	}
	if !r.Ran {
		return fmt.Sprintf("auto: no choice of more than %d values was met; the explicit search decided alone", maxBranch)
	}
	s := r.Stats
	what := "transitions"
	if r.States == 1 {
		what = "transition"
	}
	return fmt.Sprintf("auto: %d %s with a choice of more than %d values handed to HMC: %s; %d symbolic states, %d images, %d bounded model checks, %d solver queries in %.2fs",
		r.States, what, maxBranch, r.Verdict, s.States, s.Images, s.PRChecks, s.Queries, s.SolverTime.Seconds())
}

// autoJSON is the symbolic part of --engine auto for --json.
func autoJSON(r *hybrid.Report) map[string]any {
	out := map[string]any{"handed": r.States}
	if r.Alone != "" {
		out["enumerated_all"] = r.Alone
	}
	if r.Ran {
		out["verdict"] = r.Verdict.String()
		out["symbolic_states"] = r.Stats.States
		out["hmc"] = hmcStats(r.Stats)
		if r.Limit != "" {
			out["limit"] = r.Limit
		}
	}
	return out
}
