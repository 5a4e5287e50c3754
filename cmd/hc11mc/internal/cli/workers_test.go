package cli

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestSearchWorkers: check --search bfs and dfs with --workers N store the
// states one worker stores (--reduce none) and say how many searched; the
// counterexample of a parallel search replays; a search that saves its
// frontier runs one worker and says so.
func TestSearchWorkers(t *testing.T) {
	model := "../../../../testdata/bench/peterson.elf"
	for _, strat := range []string{"bfs", "dfs"} {
		var stored []int
		for _, w := range []string{"1", "2", "3"} {
			var r struct {
				Verdict string `json:"verdict"`
				Stats   struct {
					StatesStored int `json:"states_stored"`
					Workers      int `json:"workers"`
				} `json:"stats"`
			}
			out := run(t, ExitVerified, "check", model, "--search", strat, "--reduce", "none", "--workers", w, "--json")
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			if w != "1" && r.Stats.Workers != int(w[0]-'0') {
				t.Errorf("--search %s --workers %s: stats.workers %d", strat, w, r.Stats.Workers)
			}
			stored = append(stored, r.Stats.StatesStored)
		}
		if stored[0] != stored[1] || stored[0] != stored[2] {
			t.Errorf("--search %s: states stored by 1, 2, 3 workers: %v", strat, stored)
		}
	}
	trace := filepath.Join(t.TempDir(), "cex.json")
	out := run(t, ExitViolation, "check", philosophersELF, "--search", "bfs", "--workers", "2", "--trace", trace, "-q")
	if !strings.Contains(out, "search bfs, preempt every, 2 workers") {
		t.Errorf("the header does not say 2 workers:\n%s", lastLines(out))
	}
	run(t, ExitViolation, "replay", trace)
	out = run(t, ExitIncomplete, "check", philosophersELF, "--search", "bfs", "--max-states", "100",
		"--save-frontier", filepath.Join(t.TempDir(), "f"), "-q")
	if runtime.GOMAXPROCS(0) > 1 && !strings.Contains(out, "note: one worker") {
		t.Errorf("--save-frontier without --workers: no note of one worker:\n%s", out)
	}
}
