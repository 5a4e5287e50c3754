package cli

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/cex"
)

const allopsELF = "../../../../isa/m68hc11/testdata/allops.elf"

// Bad usage and bad input: exit 2 and one clear line naming the problem.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.s19")
	os.WriteFile(empty, nil, 0o644)
	badsum := filepath.Join(dir, "bad.s19")
	os.WriteFile(badsum, []byte("S1050000010203F0\nS9030000FC\n"), 0o644)
	junk := filepath.Join(dir, "junk.dat")
	os.WriteFile(junk, []byte{0x7f, 0x01, 0x02, 0x03, 0xff}, 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"check", allopsELF, "--search", "sideways"}, `unknown --search "sideways"`},
		{[]string{"check", allopsELF, "--preempt", "sometimes"}, `unknown --preempt "sometimes"`},
		{[]string{"check", allopsELF, "--reach", "nowhere"}, `no symbol "nowhere"`},
		{[]string{"check", allopsELF, "--preempt", "yield", "--heuristic", "none"}, "defines no harness stub"},
		{[]string{"check", allopsELF, "--irq", "nmi"}, `unknown interrupt "nmi"`},
		{[]string{"check", allopsELF, "--max-memory", "lots"}, "not a size"},
		{[]string{"check", allopsELF, "--frobnicate"}, "unknown flag: --frobnicate"},
		{[]string{"check", filepath.Join(dir, "missing.elf")}, "no such file"},
		{[]string{"run", empty}, "empty.s19"},
		{[]string{"run", badsum}, "bad.s19:1"},
		{[]string{"run", junk}, "junk.dat"},
		{[]string{"disasm"}, "accepts 1 arg"},
		{[]string{"replay", badsum}, "not a trace file"},
	} {
		var out, errb bytes.Buffer
		code := Main(tt.args, nil, &out, &errb)
		msg := errb.String()
		if code != ExitUsage {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tt.args, code, msg)
			continue
		}
		if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "hc11mc: ") || !strings.Contains(msg, tt.want) {
			t.Errorf("%v: stderr %q, want one line containing %q", tt.args, msg, tt.want)
		}
		if strings.Contains(msg, "goroutine") || strings.Contains(msg, "panic") {
			t.Errorf("%v: stack trace: %s", tt.args, msg)
		}
	}
}

func TestVersionAndHelp(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"--help"}, {"check", "--help"}, {"run", "--help"}, {"disasm", "--help"}, {"replay", "--help"}} {
		var out, errb bytes.Buffer
		if code := Main(args, nil, &out, &errb); code != 0 || out.Len() == 0 {
			t.Errorf("%v: exit %d, %d bytes", args, code, out.Len())
		}
	}
}

// The disasm command prints the same listing the golden test checks.
func TestDisasmCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"disasm", allopsELF}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "Disassembly of section .text:") || !strings.Contains(out.String(), "\tbrset\t") {
		t.Errorf("listing:\n%.500s", out.String())
	}
}

// A search stopped by --max-states exits 3, saves its frontier, and the
// resumed search ends as an uninterrupted one would.
func TestSaveResume(t *testing.T) {
	img := "../../../../search/testdata/counter.elf"
	fr := filepath.Join(t.TempDir(), "frontier")
	// One worker, as a search that saves its frontier runs: with partial-
	// order reduction the states stored depend on the workers.
	full, code := runJSON(t, "check", img, "--search", "bfs", "--json", "--workers", "1")
	if code != ExitVerified {
		t.Fatalf("full run exit %d", code)
	}
	part, code := runJSON(t, "check", img, "--search", "bfs", "--json", "--max-states", "500", "--save-frontier", fr)
	if code != ExitIncomplete || part.Verdict != "incomplete" || !strings.Contains(part.Limit, "max-states") {
		t.Fatalf("partial run exit %d %+v", code, part)
	}
	rest, code := runJSON(t, "check", img, "--search", "bfs", "--json", "--resume", fr)
	if code != ExitVerified || rest.Stats.StatesStored != full.Stats.StatesStored {
		t.Errorf("resumed: exit %d, %d states; uninterrupted %d", code, rest.Stats.StatesStored, full.Stats.StatesStored)
	}
	var out, errb bytes.Buffer
	if c := Main([]string{"check", allopsELF, "--resume", fr}, nil, &out, &errb); c != ExitUsage || !strings.Contains(errb.String(), "another firmware") {
		t.Errorf("resume on another image: exit %d %s", c, errb.String())
	}
	// A damaged file: exit 2 and one line naming it.
	data, err := os.ReadFile(fr)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x40
	bad := filepath.Join(t.TempDir(), "damaged")
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	c := Main([]string{"check", img, "--search", "bfs", "--resume", bad}, nil, &out, &errb)
	if msg := errb.String(); c != ExitUsage || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, bad) || !strings.Contains(msg, "damaged") {
		t.Errorf("damaged frontier: exit %d %q", c, msg)
	}
	// A frontier of version 8, saved before snapshots kept what the
	// reductions learned, or of version 9, before they kept the depth
	// the search proved: exit 2, one line that names the file and the
	// version and says to check again.
	for _, v := range []int{8, 9} {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(struct {
			Version int
			Key     string
		}{v, "k"}); err != nil {
			t.Fatal(err)
		}
		old := filepath.Join(t.TempDir(), fmt.Sprintf("v%d", v))
		if err := os.WriteFile(old, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		errb.Reset()
		c = Main([]string{"check", img, "--search", "bfs", "--resume", old}, nil, &out, &errb)
		if msg := errb.String(); c != ExitUsage || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, old) ||
			!strings.Contains(msg, fmt.Sprintf("version %d", v)) || !strings.Contains(msg, "again from the start") {
			t.Errorf("version %d frontier: exit %d %q", v, c, msg)
		}
	}
}

// TestResumeOtherSearchClaim: a breadth-first check of the heater cut by
// --max-states saves its frontier with the depth it proved; resumed
// depth-first it keeps that claim (its own order proves none), resumed
// breadth-first the claim grows, and both go on to the counterexample
// the heater has (unmapped, 99 transitions from reset:
// testdata/firmware/README.md), as does --engine auto resuming it.
// Without batches (--batch off), so that the levels are the listing's
// transitions (with batches the search reaches the violation within the
// cut).
func TestResumeOtherSearchClaim(t *testing.T) {
	img := "../../../../testdata/firmware/heater.elf"
	flags := []string{"--sci-input", "L,4", "--sci-timing", "idle", "--max-timer-events", "0", "--reduce", "none", "--workers", "1", "--batch", "off", "--json"}
	fr := filepath.Join(t.TempDir(), "frontier")
	first, code := runJSON(t, append([]string{"check", img, "--search", "bfs", "--max-states", "500", "--save-frontier", fr}, flags...)...)
	if code != ExitIncomplete || first.Proved == nil || first.Proved.Depth == nil || *first.Proved.Depth >= 99 {
		t.Fatalf("the cut check: exit %d, %+v", code, first.Proved)
	}
	saved := *first.Proved.Depth
	dfs, code := runJSON(t, append([]string{"check", img, "--search", "dfs", "--max-states", "20", "--resume", fr}, flags...)...)
	if code != ExitIncomplete || dfs.Proved == nil || dfs.Proved.Depth == nil || *dfs.Proved.Depth != saved {
		t.Errorf("resumed depth-first: exit %d, %+v; saved depth %d", code, dfs.Proved, saved)
	}
	bfs, code := runJSON(t, append([]string{"check", img, "--search", "bfs", "--max-states", "300", "--resume", fr}, flags...)...)
	if code != ExitIncomplete || bfs.Proved == nil || bfs.Proved.Depth == nil || *bfs.Proved.Depth <= saved || *bfs.Proved.Depth >= 99 {
		t.Errorf("resumed breadth-first: exit %d, %+v; saved depth %d", code, bfs.Proved, saved)
	}
	for _, order := range []string{"dfs", "bfs"} {
		end, code := runJSON(t, append([]string{"check", img, "--search", order, "--resume", fr}, flags...)...)
		if code != ExitViolation || end.Violation == nil || end.Violation.Kind != "unmapped" || order == "bfs" && end.TraceLength != 99 {
			t.Errorf("resumed %s to the end: exit %d, %+v, %d transitions", order, code, end.Violation, end.TraceLength)
		}
	}
	// Another engine goes on from it too: --engine auto's explicit part
	// (here every choice is narrow: no hand-over), to the same violation.
	auto, code := runJSON(t, append([]string{"check", img, "--engine", "auto", "--resume", fr}, flags...)...)
	if code != ExitViolation || auto.Violation == nil || auto.Violation.Kind != "unmapped" {
		t.Errorf("resumed under --engine auto: exit %d, %+v", code, auto.Violation)
	}
	// A frontier saved with dead-data elimination, which --engine auto
	// does not run, is another search's: refused.
	dead := filepath.Join(t.TempDir(), "frontier-dead")
	deadFlags := slices.Clone(flags)
	deadFlags[slices.Index(deadFlags, "--reduce")+1] = "por,dead"
	runJSON(t, append([]string{"check", img, "--search", "bfs", "--max-states", "500", "--save-frontier", dead}, deadFlags...)...)
	var out, errb bytes.Buffer
	if c := Main(append([]string{"check", img, "--engine", "auto", "--resume", dead}, flags...), nil, &out, &errb); c != ExitUsage || !strings.Contains(errb.String(), "other machine flags") {
		t.Errorf("a frontier saved with --reduce por,dead resumed under --engine auto: exit %d %s", c, errb.String())
	}
}

// --heuristic hamming ranks by the bits in which --goal-mem differs: on
// reach.s (a + b == 5 calls goal; a and b are pushed at 0x1F and 0x1E) it
// finds the goal in fewer states than an unguided search.
func TestHamming(t *testing.T) {
	img := "../../../../testdata/models/reach.elf"
	guided, code := runJSON(t, "check", img, "--json", "--reach", "goal", "--heuristic", "hamming", "--goal-mem", "0x1e=3,2")
	if code != ExitViolation || guided.Violation == nil || guided.Violation.Kind != "reach" {
		t.Fatalf("hamming: exit %d %+v", code, guided)
	}
	plain, _ := runJSON(t, "check", img, "--json", "--reach", "goal", "--heuristic", "none")
	if guided.Stats.StatesStored >= plain.Stats.StatesStored {
		t.Errorf("hamming stored %d states, unguided %d", guided.Stats.StatesStored, plain.Stats.StatesStored)
	}
	var out, errb bytes.Buffer
	if c := Main([]string{"check", img, "--heuristic", "hamming"}, nil, &out, &errb); c != ExitUsage || !strings.Contains(errb.String(), "--goal-mem") {
		t.Errorf("hamming without --goal-mem: exit %d %s", c, errb.String())
	}
}

// A trace that does not lead to its violation makes replay exit 4, loudly.
func TestReplayMismatch(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "cex.json")
	if _, code := runJSON(t, "check", "../../../../testdata/models/error_reach.elf", "--json", "--search", "bfs", "--trace", trace); code != ExitViolation {
		t.Fatalf("check exit %d", code)
	}
	b, _ := os.ReadFile(trace)
	var tf cex.Trace
	if err := json.Unmarshal(b, &tf); err != nil {
		t.Fatal(err)
	}
	for i := range tf.Steps {
		if tf.Steps[i].Choice == 3 { // the value that leads to __mc_error
			tf.Steps[i].Choice = 2
		}
	}
	if err := tf.WriteFile(trace); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"replay", trace}, nil, &out, &errb); code != ExitNoReplay || !strings.Contains(errb.String(), "does not replay") {
		t.Errorf("replay of a changed trace: exit %d, %s", code, errb.String())
	}
}
