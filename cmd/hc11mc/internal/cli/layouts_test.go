package cli

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestWorkloadsLayoutsAgainstSPIN checks the default reductions on the
// layout family of `make compare-spin` (testdata/bench/philo5_*.s: the
// five philosophers with their forks and descriptors where firmware puts
// them): each is verified, and breadth-first the default `check` stores
// no more states than SPIN 6.5.2's partial-order reduction stores on the
// instruction-level Promela twin (testdata/spin/philo5_*.pml; `spin -a`,
// `gcc -O2 -DSAFETY`, `./pan -m1000000`, states stored as pan printed
// them). The bound comes from the outside tool; the test fails when a
// change weakens the reduction past it on any layout.
func TestWorkloadsLayoutsAgainstSPIN(t *testing.T) {
	for _, c := range []struct {
		name string
		spin int64 // pan's "states, stored" on the twin, with partial-order reduction
	}{
		{"philo5_rom", 12682},
		{"philo5_equ", 16571},
		{"philo5_above", 12677},
		{"philo5_between", 569045},
		{"philo5_data", 283985},
		{"philo5_stackdesc", 796533},
		{"philo5_loops", 20596},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			file := "../../../../testdata/bench/" + c.name + ".elf"
			code := Main([]string{"check", "--json", "-q", file, "--preempt", "every", "--search", "bfs", "--workers", "1"}, nil, &out, &errb)
			var r struct {
				Verdict string `json:"verdict"`
				Stats   struct {
					StatesStored int64 `json:"states_stored"`
				} `json:"stats"`
			}
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatalf("check %s: exit %d, %v: %s", file, code, err, errb.String())
			}
			if r.Verdict != "verified" {
				t.Fatalf("check %s: verdict %q, want verified (each takes its lower-numbered fork first)", file, r.Verdict)
			}
			if r.Stats.StatesStored > c.spin {
				t.Errorf("check %s stored %d states, more than SPIN's partial-order reduction on the twin (%d)", file, r.Stats.StatesStored, c.spin)
			}
		})
	}
}
