package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hc11mc/hc11mc/bench"
)

func readManifest(t *testing.T, dir string) []bench.Model {
	t.Helper()
	m, err := bench.ReadManifest(dir)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return m
}

type checkJSON struct {
	Verdict   string `json:"verdict"`
	Violation *struct {
		Kind string `json:"kind"`
	} `json:"violation"`
	Stats struct {
		StatesStored int `json:"states_stored"`
	} `json:"stats"`
	TraceLength int    `json:"trace_length"`
	Limit       string `json:"limit"`
	Dead        string `json:"dead_data"`
	InputsHeld  []struct {
		Addr string `json:"addr"`
	} `json:"inputs_held"`
	Proved *struct {
		Depth   *int   `json:"depth"`
		NoDepth string `json:"no_depth"`
		Claim   string `json:"claim"`
	} `json:"proved"`
}

func runJSON(t *testing.T, args ...string) (checkJSON, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, nil, &out, &errb)
	var r checkJSON
	if code == ExitUsage {
		t.Fatalf("hc11mc %v: exit 2: %s", args, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("hc11mc %v: bad JSON %q: %v (stderr %s)", args, out.String(), err, errb.String())
	}
	return r, code
}

// strategies are the search × heuristic pairs every model must agree on.
var strategies = [][]string{
	{"--search", "bfs"},
	{"--search", "dfs"},
	{"--search", "random", "--seed", "7"},
	{"--search", "best", "--heuristic", "none"},
}

// TestModels: on every model with a known verdict, every strategy gives
// that verdict, with and without partial-order reduction; without it
// (and without batches of steps, --batch off, so that every scheduling
// point is a state), exhaustive runs agree on the number of states and
// BFS traces are the shortest; with it (and batches), no run stores more
// states than the same strategy without; every trace replays.
func TestModels(t *testing.T) {
	for _, dir := range []string{"../../../../testdata/models", "../../../../testdata/bench"} {
		testModels(t, dir)
	}
}

func testModels(t *testing.T, dir string) {
	for _, e := range readManifest(t, dir) {
		if e.Kind == "throughput" || testing.Short() && filepath.Base(dir) == "bench" {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			file := filepath.Join(dir, e.File)
			stored := -1
			bfsLen := -1
			for _, s := range append(strategies, extraStrategies...) {
				if slices.Contains(e.Misses, strategyName(s)) {
					continue
				}
				plainStored := -1
				for _, reduce := range []string{"none", "por,dead"} {
					args := append([]string{"check", file, "--json", "--max-states", "2000000", "--reduce", reduce}, e.Flags...)
					if reduce == "none" {
						args = append(args, "--batch", "off")
					}
					args = append(args, s...)
					trace := filepath.Join(t.TempDir(), "cex.json")
					args = append(args, "--trace", trace)
					r, code := runJSON(t, args...)
					if r.Verdict != e.Expect {
						t.Errorf("%v --reduce %s: verdict %s (limit %q), want %s", s, reduce, r.Verdict, r.Limit, e.Expect)
						continue
					}
					if reduce != "none" && r.Stats.StatesStored > plainStored && e.Expect == "verified" {
						t.Errorf("%v: --reduce por stored %d states, none %d", s, r.Stats.StatesStored, plainStored)
					}
					if e.Expect == "verified" {
						if code != ExitVerified {
							t.Errorf("%v --reduce %s: exit %d", s, reduce, code)
						}
						if reduce == "none" {
							if stored >= 0 && r.Stats.StatesStored != stored {
								t.Errorf("%v: %d states, another strategy stored %d", s, r.Stats.StatesStored, stored)
							}
							stored, plainStored = r.Stats.StatesStored, r.Stats.StatesStored
						}
						continue
					}
					if code != ExitViolation || r.Violation == nil || r.Violation.Kind != e.Property {
						t.Errorf("%v --reduce %s: exit %d violation %+v, want %s", s, reduce, code, r.Violation, e.Property)
						continue
					}
					if reduce == "none" {
						if s[1] == "bfs" {
							bfsLen = r.TraceLength
						} else if bfsLen >= 0 && r.TraceLength < bfsLen {
							t.Errorf("%v: trace of %d transitions is shorter than BFS's %d", s, r.TraceLength, bfsLen)
						}
					}
					var out, errb bytes.Buffer
					if c := Main([]string{"replay", trace}, nil, &out, &errb); c != ExitViolation {
						t.Errorf("%v --reduce %s: replay exit %d: %s%s", s, reduce, c, errb.String(), lastLines(out.String()))
					}
				}
			}
		})
	}
}

// strategyName names a strategy's flags as bench does: SEARCH or
// SEARCH+HEURISTIC.
func strategyName(flags []string) string {
	name := ""
	for i := 0; i+1 < len(flags); i += 2 {
		switch flags[i] {
		case "--search":
			name = flags[i+1] + name
		case "--heuristic":
			name += "+" + flags[i+1]
		}
	}
	return name
}

func lastLines(s string) string {
	if len(s) > 400 {
		return s[len(s)-400:]
	}
	return s
}
