package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/cex"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/ from the current output")

const (
	philosophersELF = "../../../../testdata/examples/philosophers.elf"
	tickTornELF     = "../../../../testdata/models/tick_torn.elf"
)

// run runs hc11mc and returns its output, requiring the exit code.
func run(t *testing.T, code int, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if c := Main(args, nil, &out, &errb); c != code {
		t.Fatalf("hc11mc %s: exit %d, want %d: %s%s", strings.Join(args, " "), c, code, errb.String(), lastLines(out.String()))
	}
	return out.String()
}

// runSplit is run for a command whose stdout and stderr are apart (run:
// the firmware's output, and the diagnostics).
func runSplit(t *testing.T, code int, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	if c := Main(args, nil, &out, &errb); c != code {
		t.Fatalf("hc11mc %s: exit %d, want %d: %s%s", strings.Join(args, " "), c, code, errb.String(), lastLines(out.String()))
	}
	return out.String(), errb.String()
}

// lineWith returns the first line of out containing s, or "".
func lineWith(out, s string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// At the deadlock of the philosophers every thread is blocked on a lock:
// each says which, who holds it, and where it called __mc_lock.
func TestThreadStatusAtViolation(t *testing.T) {
	out := run(t, ExitViolation, "check", philosophersELF, "-q", "--search", "best", "--heuristic", "fsm")
	for _, want := range []string{
		"thread 0: PC=d007 A=00 B=01 X=0001 Y=0002 SP=001e CCR=d5  blocked on lock 0x0001 <fork+0x1> (held by thread 1), in __mc_lock called from 0xD046 <ph_loop+0x12>",
		"thread 1: PC=d007 A=00 B=02 X=0002 Y=0000 SP=0040 CCR=d5  blocked on lock 0x0002 <fork+0x2> (held by thread 2)",
		"thread 2: PC=d007 A=00 B=00 X=0000 Y=0000 SP=0060 CCR=d4  blocked on lock 0x0000 <fork> (held by thread 0)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %q in\n%s", want, out)
		}
	}
	// The thread that failed an assertion shows the PC of the call the
	// violation names, not the return address.
	out = run(t, ExitViolation, "check", "../../../../testdata/models/assert_fail.elf", "-q")
	viol := lineWith(out, "assertion failed")
	thr := lineWith(out, "thread 0: PC=")
	if !strings.Contains(viol, "0xD02E") || !strings.HasPrefix(strings.TrimSpace(thr), "thread 0: PC=d02e ") || !strings.Contains(thr, "violated assert at this call of __mc_assert") {
		t.Errorf("violation %q, thread %q: want the same PC", viol, thr)
	}
}

// At the torn read, the variables with their values, and the two reads
// of the counter's bytes on either side of the interrupt's write.
func TestMemoryAtViolation(t *testing.T) {
	out := run(t, ExitViolation, "check", tickTornELF, "--irq", "toc1", "--search", "bfs", "-q")
	for _, want := range []string{
		"ticks   0x0000  0x0100 (256)   last written at step 18 by thread 0 (toc1 handler)",
		"last    0x0003  0x00FF (255)",
		"0x0000 <ticks>                 read 0x00 (0)  changed since: written at step 18 by thread 0 (toc1 handler)",
		"0x0001 <ticks+0x1>             read 0x00 (0)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// Traces name memory operands after variables, and immediates only when
// they are an address: not ldy #1 (an argument) as <fork+0x1>.
func TestTraceSymbols(t *testing.T) {
	out := run(t, ExitViolation, "check", philosophersELF, "-q", "--search", "best", "--heuristic", "fsm")
	for _, l := range []string{"ldy #0x1  ", "ldx #0x43  ", "ldx #0x0 <fork>  ", "ldd #0xd033 <philosopher>  "} {
		if !strings.Contains(out, l) {
			t.Errorf("no %q in\n%s", l, out)
		}
	}
	out = run(t, ExitViolation, "check", tickTornELF, "--irq", "toc1", "-q")
	for _, l := range []string{"ldab 0x1 <ticks+0x1>  ", "addd #0x1  ", "cpd 0x3 <last>  "} {
		if !strings.Contains(out, l) {
			t.Errorf("no %q in\n%s", l, out)
		}
	}
}

// Under --preempt calls a transition runs many instructions: its line
// says how many and where the last one was. An interrupt says where it
// landed.
func TestCoarseSteps(t *testing.T) {
	out := run(t, ExitViolation, "check", "../../../../testdata/bench/naive3.elf", "--preempt", "calls", "--search", "bfs", "-q")
	want := "lds #0x28  phil.inc:55  (4 instructions, the last 0xD017 <_start+0xa>  phil.inc:58)"
	if !strings.Contains(out, want) {
		t.Errorf("no %q in\n%s", want, out)
	}
	out = run(t, ExitViolation, "check", tickTornELF, "--irq", "toc1", "-q")
	if !strings.Contains(out, "interrupt toc1 taken -> 0xD03D <toc1_isr>") {
		t.Errorf("no interrupt landing in\n%s", out)
	}
}

// replay shows source lines, finds the firmware from another directory
// (the trace records its path absolute and relative to the trace), and
// --watch adds a column per variable.
func TestReplayElsewhere(t *testing.T) {
	dir := t.TempDir()
	fw, err := os.ReadFile(tickTornELF)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "fw"), 0o755)
	os.MkdirAll(filepath.Join(dir, "out"), 0o755)
	os.WriteFile(filepath.Join(dir, "fw", "tick_torn.elf"), fw, 0o644)
	t.Chdir(dir)
	run(t, ExitViolation, "check", "fw/tick_torn.elf", "--irq", "toc1", "-q", "--trace", "out/cex.json")
	t.Chdir(filepath.Join(dir, "out"))
	out := run(t, ExitViolation, "replay", "cex.json", "--watch", "ticks,last")
	for _, want := range []string{"tick_torn.s:96", "ticks=00ff  last=0000", "final  ticks=0100  last=00ff", "reproduced: assert"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	// The firmware and the trace moved together.
	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(dir, moved); err != nil {
		t.Skip(err)
	}
	t.Chdir(os.TempDir())
	run(t, ExitViolation, "replay", filepath.Join(moved, "out", "cex.json"))
}

// replay --json carries the steps and the watched values.
func TestReplayJSON(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "cex.json")
	run(t, ExitViolation, "check", tickTornELF, "--irq", "toc1", "--search", "bfs", "-q", "--trace", trace)
	var r cex.Report
	out := run(t, ExitViolation, "replay", trace, "--json", "--watch", "ticks")
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if !r.Reproduced || r.Violation == nil || r.Violation.Kind != "assert" || len(r.Steps) != 30 || r.Final == nil {
		t.Fatalf("replay --json: %+v", r)
	}
	if r.Steps[0].Watch["ticks"] != 0x00FF || r.Final.Watch["ticks"] != 0x0100 {
		t.Errorf("watched ticks: first %v, final %v", r.Steps[0].Watch, r.Final.Watch)
	}
	irq, reads := 0, 0
	for _, s := range r.Steps {
		if s.IRQ == "toc1" {
			irq++
		}
		for _, a := range s.Accesses {
			if strings.HasPrefix(a.Name, "ticks") && a.Read && s.Handler == "" {
				reads++
			}
		}
	}
	if irq != 1 || reads != 4 {
		t.Errorf("%d interrupts, %d reads of ticks by main; want 1 and 4", irq, reads)
	}
	if len(r.Final.Threads) != 1 || !strings.Contains(r.Final.Threads[0].Status, "violated assert") {
		t.Errorf("final threads %+v", r.Final.Threads)
	}
}

// Golden files: what check and replay print at the philosophers'
// deadlock and at the torn read, as best-first search on fsm finds them (a
// swarm's winner, and so its counterexample, may change between runs).
// Refresh them with
//
//	go test ./cmd/hc11mc/internal/cli -run Golden -update
func TestGoldenCounterexamples(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "cex.json")
	for _, g := range []struct {
		name  string
		args  []string
		whole bool // the whole output, else from the violation to the statistics
	}{
		{"philosophers_check", []string{"check", philosophersELF, "-q", "--search", "best", "--heuristic", "fsm", "--trace", trace}, false},
		{"philosophers_replay", []string{"replay", trace, "--watch", "fork:3"}, true},
		{"tick_torn_check", []string{"check", tickTornELF, "--irq", "toc1", "-q", "--search", "best", "--heuristic", "fsm", "--trace", trace}, false},
		{"tick_torn_replay", []string{"replay", trace, "--watch", "ticks,last,budget"}, true},
	} {
		out := run(t, ExitViolation, g.args...)
		if !g.whole {
			out = counterexamplePart(out)
		}
		path := filepath.Join("testdata", g.name+".golden")
		if *updateGolden {
			os.MkdirAll("testdata", 0o755)
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (create it with -update)", err)
		}
		if out != string(want) {
			t.Errorf("%s differs from %s (run with -update if the change is right):\n%s", g.name, path, diffLines(string(want), out))
		}
	}
}

// counterexamplePart keeps check's output from the violation to the line
// of statistics, which holds times and memory.
func counterexamplePart(out string) string {
	if i := strings.Index(out, "violation: "); i >= 0 {
		out = out[i:]
	}
	if i := regexp.MustCompile(`(?m)^\d+ states stored`).FindStringIndex(out); i != nil {
		out = out[:i[0]]
	}
	return out
}

// diffLines shows the first lines where two texts differ.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	n := 0
	for i := 0; i < max(len(w), len(g)) && n < 8; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %s\n  got  %s\n", i+1, wl, gl)
			n++
		}
	}
	return b.String()
}

// An S-record image with an nm file: its data symbols (types d and b)
// name memory operands and are the variables shown at the violation.
func TestNMDataSymbols(t *testing.T) {
	nm := filepath.Join(t.TempDir(), "tick_torn.nm")
	os.WriteFile(nm, []byte(`00000002 d budget
00000003 b last
00000005 b stack0
00000000 d ticks
0000d002 T __mc_assert
0000d005 T __mc_thread_exit
0000d00d T _start
0000d016 t main
0000d031 t ma_assert
0000d036 t read_ticks
0000d03d t toc1_isr
`), 0o644)
	out := run(t, ExitViolation, "check", "../../../../testdata/models/tick_torn.s19", "--symbols", nm, "--irq", "toc1", "-q")
	for _, want := range []string{"ldaa 0x0 <ticks>\n", "ldab 0x1 <ticks+0x1>\n", "ticks   0x0000  0x0100 (256)", "last    0x0003  0x00FF (255)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}
