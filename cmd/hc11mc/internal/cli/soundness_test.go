package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/bench"
	"github.com/hc11mc/hc11mc/internal/mutation"
)

// soundnessModel is an entry of testdata/soundness/manifest.json: a bench
// manifest entry with, for a violation, the length of the breadth-first
// counterexample of --reduce none.
type soundnessModel struct {
	bench.Model
	Shortest int `json:"shortest"`
	// InputsHeld lists the input registers the verdict must say the
	// firmware read and were held constant (none when empty).
	InputsHeld []string `json:"inputs_held"`
	// Resume lists --max-states bounds at which TestSoundness also cuts
	// the search, saves its frontier and resumes it (none when empty).
	Resume []int `json:"resume"`
}

// soundnessReductions are the --reduce settings every soundness model is
// checked under: the plain search, the default, and each reduction alone.
var soundnessReductions = []string{"none", "por,dead", "por", "dead"}

// TestSoundness runs the models of testdata/soundness — each a bug that
// only an interleaving inside a run of thread-private looking instructions
// shows (a published stack local, an interrupt inside a register window, a
// stack overrun, ...), most with a fixed twin — under breadth-first and
// depth-first search with every --reduce setting: each run gives the
// manifest's verdict and kind, exhaustively (no limit), says which input
// registers it held constant exactly as the manifest does, every
// counterexample replays, the breadth-first one of --reduce none has the
// manifest's length, and a verified model stores no more states with a
// reduction than without, and the same number under both searches without;
// also, in one worker, with the default reductions, and, for the models
// the manifest lists bounds for, cut by --max-states, saved and resumed
// under every --reduce setting (snapshot.go: the resume rule).
func TestSoundness(t *testing.T) {
	const dir = "../../../../testdata/soundness"
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var models []soundnessModel
	if err := json.Unmarshal(b, &models); err != nil {
		t.Fatalf("%s/manifest.json: %v", dir, err)
	}
	for _, e := range models {
		t.Run(e.Name, func(t *testing.T) {
			file := filepath.Join(dir, e.File)
			plain := map[string]int{} // states stored under --reduce none, by search
			for _, search := range []string{"bfs", "dfs"} {
				for _, reduce := range soundnessReductions {
					what := "--search " + search + " --reduce " + reduce
					trace := filepath.Join(t.TempDir(), "cex.json")
					args := append([]string{"check", file, "--json", "--max-states", "200000",
						"--search", search, "--reduce", reduce, "--trace", trace}, e.Flags...)
					if reduce == "none" {
						// The plain search: every scheduling point a state,
						// BFS's counterexample the shortest.
						args = append(args, "--batch", "off")
					}
					r, code := runJSON(t, args...)
					var held []string
					for _, h := range r.InputsHeld {
						held = append(held, h.Addr)
					}
					if !slices.Equal(held, e.InputsHeld) {
						t.Errorf("%s: inputs held %v, want %v", what, held, e.InputsHeld)
					}
					if r.Limit != "" {
						t.Errorf("%s: not exhaustive: %s", what, r.Limit)
						continue
					}
					if r.Verdict != e.Expect {
						t.Errorf("%s: verdict %s, want %s", what, r.Verdict, e.Expect)
						continue
					}
					if e.Expect == "verified" {
						if code != ExitVerified {
							t.Errorf("%s: exit %d", what, code)
						}
						if reduce == "none" {
							plain[search] = r.Stats.StatesStored
						} else if r.Stats.StatesStored > plain[search] {
							t.Errorf("%s: %d states stored, %d without reductions", what, r.Stats.StatesStored, plain[search])
						}
						continue
					}
					if code != ExitViolation || r.Violation == nil || r.Violation.Kind != e.Property {
						t.Errorf("%s: exit %d violation %+v, want %s", what, code, r.Violation, e.Property)
						continue
					}
					if search == "bfs" && reduce == "none" && r.TraceLength != e.Shortest {
						t.Errorf("%s: counterexample of %d transitions, the manifest says %d", what, r.TraceLength, e.Shortest)
					}
					var out, errb bytes.Buffer
					if c := Main([]string{"replay", trace}, nil, &out, &errb); c != ExitViolation {
						t.Errorf("%s: replay exit %d: %s%s", what, c, errb.String(), lastLines(out.String()))
					}
				}
			}
			if e.Expect == "verified" && plain["bfs"] != plain["dfs"] {
				t.Errorf("--reduce none: bfs stored %d states, dfs %d", plain["bfs"], plain["dfs"])
			}
			// One search in one worker: the parallel search (the
			// default of bfs) shrinks no stack region while it runs.
			soundnessRun(t, e, file, "--search bfs --workers 1 --reduce por,dead",
				"--search", "bfs", "--workers", "1", "--reduce", "por,dead")
			for _, k := range e.Resume {
				for _, search := range []string{"bfs", "dfs", "random"} {
					for _, reduce := range soundnessReductions {
						soundnessResumed(t, e, file, k, "--search", search, "--workers", "1", "--reduce", reduce)
					}
				}
			}
		})
	}
}

// soundnessResumed checks model e cut by --max-states k with the flags
// given, its frontier saved and the search resumed from it: the resumed
// search (or the cut one, should it end first) gives the manifest's
// verdict, and its counterexample replays.
func soundnessResumed(t *testing.T, e soundnessModel, file string, k int, flags ...string) {
	t.Helper()
	what := fmt.Sprintf("%s cut at %d states and resumed", strings.Join(flags, " "), k)
	saved := filepath.Join(t.TempDir(), "frontier")
	args := append(append([]string{"check", file, "--json", "--max-states", fmt.Sprint(k), "--save-frontier", saved}, flags...), e.Flags...)
	r, _ := runJSON(t, args...)
	if r.Verdict != "incomplete" {
		// It ended before the cut: it must be right as it is.
		soundnessRun(t, e, file, what+" (ended before the cut)", append([]string{"--max-states", fmt.Sprint(k)}, flags...)...)
		return
	}
	soundnessRun(t, e, file, what, append([]string{"--resume", saved, "--max-states", "200000"}, flags...)...)
}

// soundnessRun checks model e with the flags given: the manifest's
// verdict, exhaustively, and a counterexample that replays.
func soundnessRun(t *testing.T, e soundnessModel, file, what string, flags ...string) {
	t.Helper()
	trace := filepath.Join(t.TempDir(), "cex.json")
	args := append(append([]string{"check", file, "--json", "--trace", trace}, flags...), e.Flags...)
	if !slices.Contains(flags, "--max-states") {
		args = append(args, "--max-states", "200000")
	}
	r, code := runJSON(t, args...)
	switch {
	case r.Limit != "":
		t.Errorf("%s: not exhaustive: %s", what, r.Limit)
	case r.Verdict != e.Expect:
		t.Errorf("%s: verdict %s, want %s", what, r.Verdict, e.Expect)
	case e.Expect == "verified" && code != ExitVerified:
		t.Errorf("%s: exit %d", what, code)
	case e.Expect == "violation" && (code != ExitViolation || r.Violation == nil || r.Violation.Kind != e.Property):
		t.Errorf("%s: exit %d violation %+v, want %s", what, code, r.Violation, e.Property)
	case e.Expect == "violation":
		var out, errb bytes.Buffer
		if c := Main([]string{"replay", trace}, nil, &out, &errb); c != ExitViolation {
			t.Errorf("%s: replay exit %d: %s%s", what, c, errb.String(), lastLines(out.String()))
		}
	}
}

// TestPreemptSharedRemoved: --preempt shared, which reported the first
// eight soundness models verified, is refused with exit 2 and a message
// that says why and what to use; --help calls the coarser modes that
// remain models of atomicity, not reductions.
func TestPreemptSharedRemoved(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"check", "../../../../testdata/soundness/stack_escape.elf", "--preempt", "shared"}, nil, &out, &errb)
	if code != ExitUsage {
		t.Fatalf("--preempt shared: exit %d, want 2", code)
	}
	for _, w := range []string{"removed", "miss races", "--preempt every", "sound"} {
		if !bytes.Contains(errb.Bytes(), []byte(w)) {
			t.Errorf("--preempt shared: the message does not say %q: %s", w, errb.String())
		}
	}
	out.Reset()
	Main([]string{"check", "--help"}, nil, &out, &errb)
	for _, w := range []string{"coarser models of atomicity", "not reductions", "miss races"} {
		if !bytes.Contains(out.Bytes(), []byte(w)) {
			t.Errorf("check --help does not say %q", w)
		}
	}
	if bytes.Contains(out.Bytes(), []byte("shared (")) || bytes.Contains(out.Bytes(), []byte("|shared")) {
		t.Errorf("check --help still offers --preempt shared")
	}
}

// TestForgetLearnedCatches: with mutation.ForgetLearned (a saved frontier
// without what the machine learned: relied-on stack bytes, region bounds,
// the masking's low mark) the searches of resume_escape and resume_masked
// cut by --max-states and resumed say verified, where TestSoundness
// requires the manifest's violation. The generator's programs are too
// small for a cut to fall between what is learned and what it guards, once
// batches of steps run their stretches in one transition.
func TestForgetLearnedCatches(t *testing.T) {
	defer mutation.Set(mutation.ForgetLearned)()
	dir := filepath.Join("..", "..", "..", "..", "testdata", "soundness")
	caught := map[string]string{}
	for _, c := range []struct {
		name  string
		flags []string
	}{
		{"resume_escape", []string{"--preempt", "every"}},
		{"resume_masked", []string{"--preempt", "every", "--peripherals", "on"}},
	} {
		for _, k := range []int{20, 40} {
			for _, search := range []string{"bfs", "dfs"} {
				for _, batch := range []string{"on", "off"} {
					saved := filepath.Join(t.TempDir(), "frontier")
					flags := append([]string{"--search", search, "--workers", "1", "--batch", batch}, c.flags...)
					file := filepath.Join(dir, c.name+".elf")
					r, _ := runJSON(t, append([]string{"check", file, "--json", "--max-states", fmt.Sprint(k), "--save-frontier", saved}, flags...)...)
					if r.Verdict != "incomplete" {
						continue
					}
					r, _ = runJSON(t, append([]string{"check", file, "--json", "--resume", saved, "--max-states", "200000"}, flags...)...)
					if r.Verdict == "verified" && caught[c.name] == "" {
						caught[c.name] = fmt.Sprintf("cut at %d, --search %s --batch %s", k, search, batch)
					}
				}
			}
		}
	}
	for _, name := range []string{"resume_escape", "resume_masked"} {
		if caught[name] == "" {
			t.Errorf("forget-learned: %s, cut and resumed, still finds its violation in every setting", name)
		} else {
			t.Logf("forget-learned: %s says verified (%s)", name, caught[name])
		}
	}
}
