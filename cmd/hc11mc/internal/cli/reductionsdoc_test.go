package cli

import (
	"regexp"
	"testing"
)

// reductionsSeconds is the measured end of a cell of docs/performance.md's
// table of the reductions.
var reductionsSeconds = regexp.MustCompile(` \([0-9.]+ s\)$`)

// TestReductionsTableDoc: the rows of docs/performance.md's table of the
// reductions that `hc11mc bench` does not give (make results-reductions:
// philo_big depth-first, philo5_equ and philo5_rom, through `check
// --preempt every --search bfs|dfs --workers 1`) give the states and the
// verdict the tool gives now with the default reductions; TestBenchmarksDoc
// checks the bench's rows. Left out: the runs without reductions (41, 14.5
// and 3.1 million states, minutes of the script's time); the seconds are
// measured. Well under a second.
func TestReductionsTableDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check on philo_big and two philo5 layouts (-short)")
	}
	const page, title, regen = "docs/performance.md", "<!-- reductions-table:begin", "make results-reductions"
	table := docTable(t, readDoc(t, page), title)
	checked := 0
	for _, c := range []struct{ model, search, col string }{
		{"philo_big", "dfs", "dfs, por,dead"},
		{"philo5_equ", "bfs", "bfs, por,dead"},
		{"philo5_equ", "dfs", "dfs, por,dead"},
		{"philo5_rom", "bfs", "bfs, por,dead"},
		{"philo5_rom", "dfs", "dfs, por,dead"},
	} {
		row, ok := table[c.model]
		if !ok {
			t.Errorf("%s: no row %s in the table of the reductions (%s)", page, c.model, regen)
			continue
		}
		got := scriptCheck(t, "../../../../testdata/bench/"+c.model+".elf", "--preempt", "every", "--search", c.search)
		checked++
		if cell := reductionsSeconds.ReplaceAllString(row[c.col], ""); cell != got.states || row["verdict"] != got.verdict {
			t.Errorf("%s: %s under %s is %s (%s) in the page, %s (%s) from check --search %s (%s)", page, c.model, c.col, cell, row["verdict"], got.states, got.verdict, c.search, regen)
		}
	}
	if checked == 0 {
		t.Errorf("%s: nothing of %q compared (%s)", page, title, regen)
	}
}
