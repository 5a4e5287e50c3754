package cli

import (
	"fmt"
	"io"

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

// printConditions says, after a verdict, which reductions ran and under
// which model of atomicity the verdict holds (check.Result.Conditions).
func printConditions(w io.Writer, m *sim.Machine, res *check.Result, reductions []string) {
	for _, l := range res.Conditions(m, reductions) {
		fmt.Fprintln(w, l)
	}
}
