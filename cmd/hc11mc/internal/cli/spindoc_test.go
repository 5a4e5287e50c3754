package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// The tables of scripts/compare-spin.sh in the docs (make results-layouts,
// make results-spin): the README's layout table, and docs/performance.md's
// tables of the layout family and of every model against SPIN. The tests
// below run check as the script does and SPIN on the twins where spin and
// gcc are installed, and compare the exact cells; the seconds, states per
// second and bytes per state are measured, not checked.

// spinMaxStates is the script's --max-states (MAX_STATES).
const spinMaxStates = "20000000"

// spinCell is a run's verdict and states stored as the script's tables
// print them: the violation's kind for a violation, "≥ N" for a search a
// limit stopped.
type spinCell struct{ verdict, states string }

var spinRuns = struct {
	sync.Mutex
	check map[string]spinCell
	pan   map[string]spinCell
}{check: map[string]spinCell{}, pan: map[string]spinCell{}}

// scriptCheck runs `check FILE FLAGS... --workers 1 --json --max-states
// 20000000`, compare-spin.sh's run (HC11MC_FLAGS `--workers 1`), once per
// test binary for each command line.
func scriptCheck(t *testing.T, file string, flags ...string) spinCell {
	t.Helper()
	args := append(append([]string{"check", file}, flags...), "--workers", "1", "--json", "--max-states", spinMaxStates)
	key := strings.Join(args, " ")
	spinRuns.Lock()
	defer spinRuns.Unlock()
	if c, ok := spinRuns.check[key]; ok {
		return c
	}
	var out, errb bytes.Buffer
	code := Main(args, nil, &out, &errb)
	var r checkJSON
	if (code != 0 && code != ExitViolation && code != ExitIncomplete) || json.Unmarshal(out.Bytes(), &r) != nil {
		t.Fatalf("hc11mc %s: exit %d: %s", key, code, errb.String())
	}
	c := spinCell{verdict: r.Verdict, states: count(r.Stats.StatesStored)}
	switch r.Verdict {
	case "violation":
		if r.Violation != nil {
			c.verdict = r.Violation.Kind
		}
	case "incomplete":
		c.states = "≥ " + c.states
	}
	spinRuns.check[key] = c
	return c
}

// panStored matches pan's line of the states it stored.
var panStored = regexp.MustCompile(`(?m)^\s*(\d+) states, stored`)

// havePan reports whether SPIN can run here (spin, and gcc for pan.c), or
// skips the caller's SPIN part with a message.
func havePan(t *testing.T) bool {
	t.Helper()
	for _, tool := range []string{"spin", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Logf("%s is not installed: SPIN's columns not checked (apt-get install spin gcc)", tool)
			return false
		}
	}
	return true
}

// runPan runs SPIN with its defaults on a twin as compare-spin.sh does
// (spin -a, gcc -O2 -DSAFETY, ./pan -m1000000): the states pan stores and
// its verdict, once per test binary for each twin.
func runPan(t *testing.T, twin string) spinCell {
	t.Helper()
	spinRuns.Lock()
	defer spinRuns.Unlock()
	if c, ok := spinRuns.pan[twin]; ok {
		return c
	}
	src, err := os.ReadFile(twin)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	name := filepath.Base(twin)
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		t.Fatal(err)
	}
	var out []byte
	for _, c := range [][]string{{"spin", "-a", name}, {"gcc", "-O2", "-DSAFETY", "-o", "pan", "pan.c"}, {"./pan", "-m1000000"}} {
		cmd := exec.Command(c[0], c[1:]...)
		cmd.Dir = dir
		if out, err = cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s on %s: %v: %s", strings.Join(c, " "), twin, err, out)
		}
	}
	m := panStored.FindSubmatch(out)
	if m == nil {
		t.Fatalf("pan on %s: no states stored in its output: %s", twin, out)
	}
	var n int
	fmt.Sscan(string(m[1]), &n)
	c := spinCell{states: count(n)}
	switch s := string(out); {
	case regexp.MustCompile(`errors: 0\n`).MatchString(s):
		c.verdict = "no errors"
	case regexp.MustCompile(`(?m)^pan:\d+: invalid end state`).MatchString(s):
		c.verdict = "invalid end state"
	case regexp.MustCompile(`(?m)^pan:\d+: assertion violated`).MatchString(s):
		c.verdict = "assertion violated"
	default:
		c.verdict = "errors"
	}
	if strings.Contains(string(out), "max search depth too small") {
		t.Fatalf("pan on %s: the depth limit was hit: %s", twin, out)
	}
	spinRuns.pan[twin] = c
	return c
}

// layoutImage is the image of a model of the layout tables.
func layoutImage(model string) string {
	if model == "philosophers" {
		return "../../../../testdata/examples/philosophers.elf"
	}
	return "../../../../testdata/bench/" + model + ".elf"
}

// TestLayoutTableDoc: in the README's table of the five philosophers in
// the layouts firmware is written in and in docs/performance.md's table of
// the layout family (make results-layouts), the states of the default
// check (`check --preempt every --workers 1`, as scripts/compare-spin.sh
// runs it) and its verdict are the tool's, and, where spin and gcc are
// installed, the states pan stores with SPIN's defaults on each twin and
// its verdict are SPIN's. Left out: the core's states without reductions
// (1 to 17 million a layout, minutes each) and every states/s and bytes
// per state, which are measured. About 3 s of check (the largest layout
// stores 398,602 states) and 15 s of gcc and pan.
func TestLayoutTableDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check and SPIN on the layout family (-short)")
	}
	const regen = "make results-layouts"
	spin := havePan(t)
	readme := docTable(t, readDoc(t, "README.md"), "<!-- layouts-readme:begin")
	perf := docTable(t, readDoc(t, "docs/performance.md"), "<!-- spin-layouts:begin")
	if len(readme) == 0 || len(perf) == 0 {
		t.Fatalf("a layout table is empty: README.md %d rows, docs/performance.md %d (%s)", len(readme), len(perf), regen)
	}
	checked := 0
	for first, row := range readme {
		model := strings.Trim(strings.SplitN(first, ":", 2)[0], "`")
		if _, ok := perf[model]; !ok {
			t.Errorf("README.md: the layout %s is not in docs/performance.md's table of the family (%s)", model, regen)
		}
		c := scriptCheck(t, layoutImage(model), "--preempt", "every")
		checked++
		if row["`check`"] != c.states {
			t.Errorf("README.md: %s's `check` is %s, check stores %s (%s)", model, row["`check`"], c.states, regen)
		}
		if spin {
			if p := runPan(t, "../../../../testdata/spin/"+model+".pml"); row["SPIN (POR)"] != p.states {
				t.Errorf("README.md: %s's SPIN (POR) is %s, pan stores %s (%s)", model, row["SPIN (POR)"], p.states, regen)
			}
		}
	}
	for model, row := range perf {
		c := scriptCheck(t, layoutImage(model), "--preempt", "every")
		checked++
		for col, want := range map[string]string{"verdict": c.verdict, "hc11mc states (por,dead)": c.states} {
			if row[col] != want {
				t.Errorf("docs/performance.md, the layout family: %s's %s is %s, check gives %s (%s)", model, col, row[col], want, regen)
			}
		}
		if spin {
			p := runPan(t, "../../../../testdata/spin/"+model+".pml")
			for col, want := range map[string]string{"SPIN states (POR)": p.states, "SPIN verdict": p.verdict} {
				if row[col] != want {
					t.Errorf("docs/performance.md, the layout family: %s's %s is %s, SPIN gives %s (%s)", model, col, row[col], want, regen)
				}
			}
		}
	}
	if checked == 0 {
		t.Errorf("no layout compared (%s)", regen)
	}
}

// spinTableLarge are the models of docs/performance.md's table of every
// model whose run without reductions TestSpinTableDoc leaves out, for its
// millions of states (a minute each of the script's time).
var spinTableLarge = map[string]bool{
	"philo5_ordered": true, // 14,508,786 states
	"philo_big":      true, // stops at --max-states 20,000,000
}

// TestSpinTableDoc: docs/performance.md's table of every model with and
// without reductions beside SPIN (make results-spin) has a row for each
// model of testdata/models and testdata/bench, and its verdicts and
// states, `check FLAGS --workers 1` with the default reductions and with
// --reduce none as scripts/compare-spin.sh runs them, are the tool's;
// where spin and gcc are installed, SPIN's states and verdict on the two
// twins are SPIN's. Left out, as TestBenchmarksDoc leaves out the runs
// that end at the limit: the runs without reductions of spinTableLarge
// (philo5_ordered and philo_big), most of the script's time; a verdict
// cell of two (reduced / none) is then compared on its first. The seconds
// are measured. About 2 s (bakery, 174,850 states without reductions, the
// most), and 3 s of gcc and pan.
func TestSpinTableDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check on every model (-short)")
	}
	const page, title, regen = "docs/performance.md", "<!-- spin-models:begin", "make results-spin"
	table := docTable(t, readDoc(t, page), title)
	type model struct {
		name, file string
		flags      []string
	}
	models := []model{
		{"philo5_ordered", "../../../../testdata/bench/philo5_ordered.elf", []string{"--preempt", "every"}},
		{"philosophers", "../../../../testdata/examples/philosophers.elf", []string{"--preempt", "every"}},
	}
	for _, dir := range []string{"../../../../testdata/models", "../../../../testdata/bench"} {
		for _, m := range readManifest(t, dir) {
			models = append(models, model{m.Name, dir + "/" + m.File, m.Flags})
		}
	}
	spin := havePan(t)
	checked := 0
	for _, m := range models {
		row, ok := table[m.name]
		if !ok {
			t.Errorf("%s: no row for %s (%s)", page, m.name, regen)
			continue
		}
		reduced := scriptCheck(t, m.file, m.flags...)
		want := map[string]string{"hc11mc states (por,dead)": reduced.states, "verdict": reduced.verdict}
		if spinTableLarge[m.name] {
			row["verdict"] = strings.Split(row["verdict"], " / ")[0]
		} else {
			none := scriptCheck(t, m.file, append(m.flags, "--reduce", "none")...)
			want["hc11mc states (none)"] = none.states
			if none.verdict != reduced.verdict {
				want["verdict"] = reduced.verdict + " / " + none.verdict
			}
		}
		if _, err := os.Stat("../../../../testdata/spin/" + m.name + ".pml"); err == nil && spin {
			p := runPan(t, "../../../../testdata/spin/"+m.name+".pml")
			want["SPIN states stored"], want["SPIN verdict"] = p.states, p.verdict
		}
		for col, w := range want {
			checked++
			if row[col] != w {
				t.Errorf("%s, every model against SPIN: %s, %s: %s in the page, %s now (%s)", page, m.name, col, row[col], w, regen)
			}
		}
	}
	if checked == 0 {
		t.Errorf("%s: nothing of %q compared (%s)", page, title, regen)
	}
}

// boardStoreRAM is the RAM BenchmarkBuffaloBoardStore's --ram ranges fit:
// 0x0100-0x3FFF, 0x4100-0x97FF and 0x9900-0xBFFF, the EVB's address space
// below 0xC000 but for the board's hardware at 0x4000 and 0x9800-0x9801.
const boardStoreRAM = (0x3FFF - 0x0100 + 1) + (0x97FF - 0x4100 + 1) + (0xBFFF - 0x9900 + 1)

// TestBuffaloStoreDoc: the README's row of BenchmarkBuffaloBoardStore (make
// results-batch writes it) gives the visited set's bytes per stored state
// the tool counts now (store_bytes over states_stored: exact with one
// worker breadth-first) and that figure beside the RAM a state would take
// kept whole. About 7 s; skipped without the image.
func TestBuffaloStoreDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check on BUFFALO (-short)")
	}
	if _, err := os.Stat(buffaloImage); err != nil {
		t.Skipf("BUFFALO 3.4 is not at %s: %v", buffaloImage, err)
	}
	out := run(t, ExitIncomplete, "check", buffaloImage, "--board", "../../../../testdata/boards/evb.board",
		"--ram", "0x0100-0x3FFF", "--ram", "0x4100-0x97FF", "--ram", "0x9900-0xBFFF", "--clock", "exact", "--sci-timing", "first",
		"--search", "bfs", "--workers", "1", "--max-states", "50000", "--json", "-q")
	var r struct {
		Stats struct {
			States     int `json:"states_stored"`
			StoreBytes int `json:"store_bytes"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Stats.States == 0 {
		t.Fatalf("%v: %.300s", err, out)
	}
	perState := float64(r.Stats.StoreBytes) / float64(r.Stats.States)
	row := lineWith(readDoc(t, "README.md"), "(`BenchmarkBuffaloBoardStore`)")
	for _, want := range []string{
		fmt.Sprintf("the first %s states breadth-first", count(r.Stats.States)),
		fmt.Sprintf("| %.1f bytes per stored state in the visited set", math.Round(perState*10)/10),
		fmt.Sprintf("%s bytes a state (%s×)", count(boardStoreRAM), count(int(math.Round(boardStoreRAM/perState)))),
	} {
		if !strings.Contains(row, want) {
			t.Errorf("README.md: the row of BUFFALO's visited set lacks %q, the tool's (store_bytes %d over %d states; make results-batch): %s",
				want, r.Stats.StoreBytes, r.Stats.States, row)
		}
	}
}
