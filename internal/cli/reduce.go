package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// reduceHelp describes --reduce for check's help.
const reduceHelp = `state-space reductions that keep the verdicts of --reduce none: por (partial-order reduction: where a
thread's next instruction touches only its own registers, it runs alone; see sim/reduce.go), or none (every
interleaving, plainly)`

// parseReduce reads --reduce: a comma-separated list of reductions, or none.
func parseReduce(v string) (por bool, err error) {
	if v == "none" {
		return false, nil
	}
	for _, r := range strings.Split(v, ",") {
		switch strings.TrimSpace(r) {
		case "por":
			por = true
		case "dead":
			return false, usagef("--reduce dead: dead-data elimination is not available in this build; use por or none")
		default:
			return false, usagef("--reduce %q: the reductions are por, or none for no reduction", r)
		}
	}
	return por, nil
}

// reductionsOf lists the reductions that ran, for the result.
func reductionsOf(opts *search.Options, m *sim.Machine) []string {
	if opts.Reduce && m.Config.Preempt == sim.PreemptEvery {
		return []string{"por"}
	}
	return nil
}

// printConditions says, after a verdict, which reductions ran and under
// which model of atomicity the verdict holds.
func printConditions(w io.Writer, m *sim.Machine, res *search.Result, reductions []string) {
	if len(reductions) > 0 {
		fmt.Fprintf(w, "reductions: %s (%d of %d states expanded by one transition alone; verdicts are those of --reduce none)\n",
			strings.Join(reductions, ", "), res.Stats.Reduced, res.Stats.StatesExpanded)
	}
	if p := m.Config.Preempt; p != sim.PreemptEvery && res.Verdict != search.Violated {
		fmt.Fprintf(w, "note: under --preempt %s threads switch only at %s, a coarser model of atomicity than the hardware's: "+
			"it can miss races that --preempt every finds\n", p, preemptPoints(p))
	}
}

func preemptPoints(p sim.Preempt) string {
	switch p {
	case sim.PreemptCalls:
		return "calls, returns and harness calls"
	case sim.PreemptYield:
		return "harness calls"
	}
	return "instructions that touch memory outside the thread's stack"
}
