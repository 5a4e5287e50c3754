package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/hc11mc/hc11mc/check"
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
// which model of atomicity the verdict holds (check.Result.Conditions).
func printConditions(w io.Writer, m *sim.Machine, res *check.Result, reductions []string) {
	for _, l := range res.Conditions(m, reductions) {
		fmt.Fprintln(w, l)
	}
}
