package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// reduceHelp describes --reduce for check's help.
const reduceHelp = `state-space reductions, each keeping the verdicts of --reduce none: por (partial-order reduction:
where a thread's next instruction touches only its own registers and its own stack, it runs alone; every access is
checked, and if one thread reaches another's stack the search starts again without taking stacks as private;
sim/reduce.go, sim/private.go), dead (dead-data
elimination: registers and flags no execution reads before writing them are left out of stored states; sim/live.go);
a comma-separated list, or none (every interleaving, plainly)`

// parseReduce reads --reduce: a comma-separated list of reductions, or none.
func parseReduce(v string) (por, dead bool, err error) {
	if v == "none" {
		return false, false, nil
	}
	for _, r := range strings.Split(v, ",") {
		switch strings.TrimSpace(r) {
		case "por":
			por = true
		case "dead":
			dead = true
		default:
			return false, false, usagef("--reduce %q: the reductions are por and dead (a list: por,dead), or none", r)
		}
	}
	return por, dead, nil
}

// printConditions says, after a verdict, which reductions ran and under
// which model of atomicity the verdict holds.
func printConditions(w io.Writer, m *sim.Machine, res *search.Result, reductions []string) {
	if len(reductions) > 0 {
		fmt.Fprintf(w, "reductions: %s (%d of %d states expanded by one transition alone; verdicts are those of --reduce none)\n",
			strings.Join(reductions, ", "), res.Stats.Reduced, res.Stats.StatesExpanded)
	}
	if res.Privacy != "" {
		fmt.Fprintf(w, "note: por: %s\n", res.Privacy)
	}
	if res.Dead != "" {
		fmt.Fprintf(w, "note: dead: %s\n", res.Dead)
	}
	if p := m.Config.Preempt; p != sim.PreemptEvery && res.Verdict != search.Violated {
		fmt.Fprintf(w, "note: under --preempt %s threads switch only at %s, a coarser model of atomicity than the hardware's, not a reduction: "+
			"it can miss races that --preempt every finds\n", p, preemptPoints(p))
	}
}

func preemptPoints(p sim.Preempt) string {
	if p == sim.PreemptCalls {
		return "calls, returns and harness calls"
	}
	return "harness calls"
}
