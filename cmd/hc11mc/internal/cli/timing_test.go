package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/testkit/timeoracle"
)

// The timing properties on the programs of testdata/timing, whose worst
// cases their sources compute by hand from the M68HC11 Reference
// Manual's cycle counts: each bound N is verified, N-1 is violated with
// a counterexample that replays and shows its interval with cycle
// stamps, and --report-timing finds N, exact.

const timingDir = "../../../../testdata/timing/"

// timingCase is a program, its flags, the property and its worst case.
type timingCase struct {
	file  string
	flags []string
	// bound makes the property's flag for a bound: --max-masked N, ...
	bound  func(n int) []string
	kind   string // the property
	report string // its name in --report-timing
	worst  int    // from the source's arithmetic
}

var timingCases = []timingCase{
	// masked.s: tstb 2 + beq 3 + ldaa 2 + 4 x (deca 2 + bne 3) + nop 2 + cli 2.
	{"masked.elf", []string{"--irq", "toc1"}, func(n int) []string { return []string{"--max-masked", strconv.Itoa(n)} },
		"max-masked", "max-masked", 2 + 3 + 2 + 4*(2+3) + 2 + 2},
	// deadline.s: incb 2 + 3 x (nop 2 + decb 2 + bne 3), one interrupt:
	// entry 14 + tsx 3 + ldaa 4 + oraa 2 + staa 4 + rti 12.
	{"deadline.elf", []string{"--irq", "toc1"}, func(n int) []string { return []string{"--deadline", fmt.Sprintf("from:to:%d", n)} },
		"deadline", "deadline from:to", 2 + 3*(2+2+3) + 14 + 3 + 4 + 2 + 4 + 12},
	// latency.s: tstb 2 + beq 3 + ldaa 2 + 3 x (deca 2 + bne 3) + cli 2
	// + nop 2 (the instruction after CLI) + entry 14.
	{"latency.elf", []string{"--irq", "toc1"}, func(n int) []string { return []string{"--latency", fmt.Sprintf("toc1:%d", n)} },
		"latency", "latency toc1", 2 + 3 + 2 + 3*(2+3) + 2 + 2 + 14},
	// oc1_exact.s, the exact clock: ldd reads TCNT in its fourth cycle,
	// 4 counts on, so OC1F sets 4 + K = 19 cycles after the first cycle of
	// ldd TCNT, inside andb; the handler begins at ldd 5 + addd 4 + std 5
	// + ldab 4 + andb 2 + incb 2 + 4 x (decb 2 + bne 3) + cli 2 + nop 2 +
	// entry 14.
	{"oc1_exact.elf", []string{"--clock", "exact", "--input", "0x100A=0,1,2,3"},
		func(n int) []string { return []string{"--latency", fmt.Sprintf("toc1:%d", n)} },
		"latency", "latency toc1", 5 + 4 + 5 + 4 + 2 + 2 + 4*(2+3) + 2 + 2 + 14 - (4 + 15)},
	// oc1_withdraw.s: OC1F sets at 4 + 16 = 20, inside the first brclr
	// (ldd 5 + addd 4 + std 5 + nop 2 = 16 to 23), and stands, masked,
	// until the staa that clears it: the rest of that brclr, another
	// brclr 7 + ldab 4 + andb 2 + incb 2 + 4 x (decb 2 + bne 3) + ldaa 2
	// + staa 4.
	{"oc1_withdraw.elf", []string{"--clock", "exact", "--input", "0x100A=0,1,2,3"},
		func(n int) []string { return []string{"--latency", fmt.Sprintf("toc1:%d", n)} },
		"latency", "latency toc1", (16 + 7 - 20) + 7 + 4 + 2 + 2 + 4*(2+3) + 2 + 4},
	// prio_xirq.s: the request at toc1_isr's first instruction: inc 6 +
	// rti 12, then XIRQ first (the highest priority): entry 14 + ldaa 2
	// + 3 x (deca 2 + bne 3) + cli 2, bra 3 (after CLI), TOC1's entry
	// 14. XIRQ, which never returns, is requested again and never
	// served: the cap keeps its count small.
	{"prio_xirq.elf", []string{"--irq", "xirq,toc1", "--timing-cap", "80"},
		func(n int) []string { return []string{"--latency", fmt.Sprintf("toc1:%d", n)} },
		"latency", "latency toc1", 6 + 12 + 14 + 2 + 3*(2+3) + 2 + 3 + 14},
	// hprio.s: HPRIO promotes OC1 above IRQ; the request at irq_isr's
	// first instruction: ldaa 2 + 3 x (deca 2 + bne 3) + rti 12, then
	// TOC1's entry 14. IRQ may starve: the cap again.
	{"hprio.elf", []string{"--peripherals", "on", "--irq", "irq,toc1", "--timing-cap", "80"},
		func(n int) []string { return []string{"--latency", fmt.Sprintf("toc1:%d", n)} },
		"latency", "latency toc1", 2 + 3*(2+3) + 12 + 14},
	// deadline_threads.s: thread 1's interval with the whole of thread
	// 0's run after the creation inside: nop 2 + nop 2 + tstb 2 + beq 3
	// + ldaa 2 + 20 x (deca 2 + bne 3) + jsr 6, and its own nop 2 + nop 2.
	{"deadline_threads.elf", nil, func(n int) []string { return []string{"--deadline", fmt.Sprintf("from:to:%d", n)} },
		"deadline", "deadline from:to", 2 + 2 + 2 + 3 + 2 + 20*(2+3) + 6 + 2 + 2},
	// wai_latency.s: tstb 2 + beq 3 + ldaa 2 + 3 x (deca 2 + bne 3) + cli
	// 2 + wai 12 (the frame stacked; the request is pending) + the
	// vector 2 (the manual's WAI: 14 + n from its opcode fetch).
	{"wai_latency.elf", []string{"--irq", "toc1"}, func(n int) []string { return []string{"--latency", fmt.Sprintf("toc1:%d", n)} },
		"latency", "latency toc1", 2 + 3 + 2 + 3*(2+3) + 2 + 12 + 2},
	// wai_deadline.s, the exact clock: ldab 4 + andb 2 + 3 x lslb 2 +
	// addb 2 + clra 2 + addd 6 + std 5 + wai 12, the wait until OC1F
	// sets 4 + K + 8n = 4 + 50 + 24 cycles after addd's first cycle
	// (t = 16; addd reads TCNT in its fourth cycle), the vector 2, ldaa
	// 2 + staa 4 + rti 12, nop 2.
	{"wai_deadline.elf", []string{"--clock", "exact", "--input", "0x100A=0,1,2,3"},
		func(n int) []string { return []string{"--deadline", fmt.Sprintf("from:to:%d", n)} },
		"deadline", "deadline from:to", 16 + 4 + 50 + 8*3 + 2 + 2 + 4 + 12 + 2},
	// stop_latency.s: tstb 2 + beq 3 + ldaa 2 + 3 x (deca 2 + bne 3) +
	// cli 2 + stop 2 + the oscillator's restart with DLY set 4064 + entry
	// 14.
	{"stop_latency.elf", []string{"--irq", "irq"}, func(n int) []string { return []string{"--latency", fmt.Sprintf("irq:%d", n)} },
		"latency", "latency irq", 2 + 3 + 2 + 3*(2+3) + 2 + 2 + 4064 + 14},
	// sci_frame.s, the exact clock: the preamble TE queues and the byte,
	// two frames of 11 bits of 16 E cycles from the last cycle of the
	// staa that enables TE (t = 5); brclr 7 polls TC from t = 16, and the
	// 49th turn after the first (16 + 343 >= 5 + 352) sees it.
	{"sci_frame.elf", []string{"--clock", "exact", "--input", "0x100A=0,16"},
		func(n int) []string { return []string{"--deadline", fmt.Sprintf("from:to:%d", n)} },
		"deadline", "deadline from:to", 16 + 7*49 + 7},
	// oc1_abstract.s, the abstract clock: OC1F sets in SEI's first
	// cycle at the worst: sei 2 + 4 x (decb 2 + bne 3) + cli 2 + nop 2 +
	// entry 14.
	{"oc1_abstract.elf", []string{"--input", "0x100A=0,1,2,3"},
		func(n int) []string { return []string{"--latency", fmt.Sprintf("toc1:%d", n)} },
		"latency", "latency toc1", 2 + 4*(2+3) + 2 + 2 + 14},
	// single.s: ldab 2 + 3 x (decb 2 + bne 3) + mul 10 + cli 2 (and
	// the first window, ldaa 2 + 5 x 5 + cli 2, is as long).
	{"single.elf", []string{"--ignore", "illegal-opcode"}, func(n int) []string { return []string{"--max-masked", strconv.Itoa(n)} },
		"max-masked", "max-masked", 2 + 3*(2+3) + 10 + 2},
}

func TestTimingBounds(t *testing.T) {
	for _, tc := range timingCases {
		t.Run(tc.file, func(t *testing.T) {
			file := timingDir + tc.file
			base := append([]string{"check", file, "-q"}, tc.flags...)
			out := run(t, ExitVerified, append(append(base, tc.bound(tc.worst)...), "--search", "bfs")...)
			wantLines(t, out, "verified (", tc.kind)
			// The default swarm agrees.
			run(t, ExitVerified, append(base, tc.bound(tc.worst)...)...)

			trace := filepath.Join(t.TempDir(), "t.json")
			out = run(t, ExitViolation, append(append(base, tc.bound(tc.worst-1)...), "--search", "bfs", "--trace", trace)...)
			wantLines(t, out, "violation: "+tc.kind, "<- interval starts (cycle ", fmt.Sprintf("<- interval ends: %d cycles", tc.worst))
			checkCycleStamps(t, out)
			rep := run(t, ExitViolation, "replay", trace)
			wantLines(t, rep, "reproduced: "+tc.kind)
			checkOracle(t, trace)
			// A depth-first counterexample, whose interval may pass the
			// bound by more than one cycle, agrees with the oracle too.
			dfs := filepath.Join(t.TempDir(), "dfs.json")
			run(t, ExitViolation, append(append(base, tc.bound(tc.worst-1)...), "--search", "dfs", "--trace", dfs)...)
			checkOracle(t, dfs)

			var j struct {
				Violation struct {
					Kind     string `json:"kind"`
					Interval struct {
						From   uint64 `json:"from_cycle"`
						To     uint64 `json:"to_cycle"`
						Cycles uint64 `json:"cycles"`
					} `json:"interval"`
				} `json:"violation"`
			}
			js := run(t, ExitViolation, append(append(base, tc.bound(tc.worst-1)...), "--search", "bfs", "--json")...)
			if err := json.Unmarshal([]byte(js), &j); err != nil {
				t.Fatal(err)
			}
			if iv := j.Violation.Interval; j.Violation.Kind != tc.kind || iv.Cycles != uint64(tc.worst) || iv.To-iv.From != iv.Cycles {
				t.Errorf("--json violation %+v, want %s over %d cycles", j.Violation, tc.kind, tc.worst)
			}
		})
	}
}

// checkCycleStamps: the listing's cycle stamps grow by each
// instruction's cycles; an interrupt's entry takes 14.
func checkCycleStamps(t *testing.T, out string) {
	t.Helper()
	re := regexp.MustCompile(`(?m)^.. +\d+  cyc (\d+) +(.*)$`)
	ms := re.FindAllStringSubmatch(out, -1)
	if len(ms) < 2 {
		t.Fatalf("no cycle stamps in:\n%s", out)
	}
	for i := 1; i < len(ms); i++ {
		a, _ := strconv.Atoi(ms[i-1][1])
		b, _ := strconv.Atoi(ms[i][1])
		if line := ms[i-1][2]; strings.Contains(line, " taken -> ") {
			// 14: nine bytes stacked and the vector; from WAI, which
			// stacked the frame, the vector's 2 (the manual's WAI, 14 +
			// n); from STOP with DLY, 14 after the restart's 4064.
			want := 14
			switch {
			case strings.Contains(line, "WAI stacked the frame"):
				want = 2
			case strings.Contains(line, "restart after STOP"):
				want = 14 + 4064
			}
			if b-a != want || !strings.Contains(line, fmt.Sprintf("(%d cycles", want)) {
				t.Errorf("the interrupt's entry took %d cycles, want %d: %q", b-a, want, ms[i-1][0])
			}
		}
		if b < a {
			t.Errorf("time goes back: %q then %q", ms[i-1][0], ms[i][0])
		}
	}
}

// reportAsks are the properties TestReportTiming names for a program
// beside --report-timing: the latency of a timer source under the
// abstract clock, which --report-timing does not add by itself.
var reportAsks = map[string][]string{"oc1_abstract.elf": {"--latency", "toc1"}}

func TestReportTiming(t *testing.T) {
	for _, tc := range timingCases {
		t.Run(tc.file, func(t *testing.T) {
			args := append([]string{"check", timingDir + tc.file, "-q", "--report-timing", "--search", "bfs"}, tc.flags...)
			if tc.kind == "deadline" {
				args = append(args, "--deadline", "from:to")
			}
			// Under the abstract clock --report-timing measures a timer
			// source's latency when it is asked for.
			args = append(args, reportAsks[tc.file]...)
			out := run(t, ExitVerified, args...)
			wantLines(t, out, fmt.Sprintf("  %s: %d cycles (exact: the largest over every execution)", tc.report, tc.worst),
				fmt.Sprintf("<- interval ends: %d cycles", tc.worst))
			var j struct {
				Timing []struct {
					Property string `json:"property"`
					Cycles   uint64 `json:"cycles"`
					Exact    bool   `json:"exact"`
					Path     []any  `json:"path"`
				} `json:"timing"`
			}
			if err := json.Unmarshal([]byte(run(t, ExitVerified, append(args, "--json")...)), &j); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, v := range j.Timing {
				if v.Property == tc.report {
					found = true
					if v.Cycles != uint64(tc.worst) || !v.Exact || len(v.Path) == 0 {
						t.Errorf("--json timing %+v, want %d cycles, exact, with a path", v, tc.worst)
					}
				}
			}
			if !found {
				t.Errorf("--json timing has no %s: %+v", tc.report, j.Timing)
			}
		})
	}
}

// A search stopped by a limit reports lower bounds, saying so.
func TestReportTimingLowerBound(t *testing.T) {
	out := run(t, ExitIncomplete, "check", timingDir+"masked.elf", "--irq", "toc1", "-q", "--report-timing", "--search", "bfs", "--max-states", "30")
	wantLines(t, out, "max-masked: ", "(a lower bound: the search was not exhaustive")
	out = run(t, ExitVerified, "check", timingDir+"masked.elf", "--irq", "toc1", "-q", "--report-timing", "--search", "bfs", "--timing-cap", "20")
	wantLines(t, out, "max-masked: at least 20 cycles (a lower bound: the count reached the cap")
}

// The symbolic engine does not check timing properties: it says so
// and cannot verify them; the chip's timer and SCI latencies need the
// exact clock.
func TestTimingRefusals(t *testing.T) {
	var j struct {
		Checked   []string `json:"properties_checked"`
		Unchecked []struct {
			Property string `json:"property"`
			Reason   string `json:"reason"`
		} `json:"properties_unchecked"`
	}
	var ob, eb bytes.Buffer
	code := Main([]string{"check", timingDir + "masked.elf", "--irq", "toc1", "--max-masked", "5", "--engine", "hmc", "--json", "-q", "--timeout", "2s"}, nil, &ob, &eb)
	if code == ExitVerified || code == ExitViolation {
		// (HMC does not end on this loop; a verdict would have to come
		// from the other properties alone, which is allowed.)
		t.Logf("--engine hmc: exit %d", code)
	}
	if code == ExitUsage || code == ExitInternal {
		t.Fatalf("--engine hmc: exit %d: %s", code, eb.String())
	}
	if err := json.Unmarshal(ob.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, u := range j.Unchecked {
		listed = listed || u.Property == "max-masked" && strings.Contains(u.Reason, "symbolic engine")
	}
	if !listed || strings.Contains(strings.Join(j.Checked, " "), "max-masked") {
		t.Errorf("--engine hmc: checked %v, unchecked %+v; want max-masked not checked", j.Checked, j.Unchecked)
	}
	// An ignored bound bounds nothing (its violations would cut the
	// paths the other properties follow) and is listed as not checked.
	out := run(t, ExitVerified, "check", timingDir+"masked.elf", "--irq", "toc1", "--max-masked", "5", "--ignore", "max-masked", "--search", "bfs", "-q")
	wantLines(t, out, "not checked: max-masked (--ignore)")
	// The sources whose flags no clock sets are refused under either.
	var errs string
	for _, clock := range []string{"exact", "abstract"} {
		for _, src := range []string{"sci", "tic1", "paie"} {
			_, errs = runSplit(t, ExitUsage, "check", timingDir+"oc1_exact.elf", "--clock", clock, "--latency", src+":100")
			wantLines(t, errs, src+" is not measured: --latency applies to the timer's sources whose flags the clock sets")
		}
	}
	_, errs = runSplit(t, ExitUsage, "check", timingDir+"masked.elf", "--max-masked", "many")
	wantLines(t, errs, "--max-masked")
	_, errs = runSplit(t, ExitUsage, "check", timingDir+"deadline.elf", "--deadline", "from:nowhere:5")
	wantLines(t, errs, "--deadline")
	_, errs = runSplit(t, ExitUsage, "check", timingDir+"deadline.elf", "--deadline", "from:to")
	wantLines(t, errs, "--report-timing")
}

// TestGNUSimulatorAgrees: on the single-path program, the GNU
// simulator's longest interrupts masked sequence is hc11mc's max-masked
// (scripts/gnusim-masked.sh; skipped without the GNU simulator).
func TestGNUSimulatorAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hc11mc and runs the GNU simulator")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run scripts/gnusim-masked.sh")
	}
	out, err := exec.Command("bash", "../../../../scripts/gnusim-masked.sh").CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 77:
		t.Skipf("%s", strings.TrimSpace(string(out)))
	case err != nil:
		t.Fatalf("scripts/gnusim-masked.sh: %v\n%s", err, out)
	}
	t.Log(strings.TrimSpace(string(out)))
}

// The chip's OC1 under the exact clock: the request is the cycle at
// which OC1F sets, inside an instruction, which the listing marks; the
// replay shows the same stamps. --report-timing measures the sources the
// firmware arms, and only those.
func TestSourceLatencyMarks(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.json")
	args := []string{"check", timingDir + "oc1_exact.elf", "--clock", "exact", "--input", "0x100A=3", "--search", "bfs"}
	out := run(t, ExitViolation, append(args, "--latency", "toc1:40", "--trace", trace)...)
	wantLines(t, out, "cyc 34     thr 0  0xD015 <arm+0x9>             andb #0x3", "<- interval starts (cycle 35, inside this instruction)",
		"interrupt toc1 taken -> 0xD020 <oc1_isr> (14 cycles)  <- interval ends: 41 cycles (35 to 76)")
	rep := run(t, ExitViolation, "replay", trace)
	wantLines(t, rep, "cyc=30 thr=0 PC=d013", "cyc=62 thr=0 PC=d01d", "reproduced: latency")
	out = run(t, ExitVerified, append(args, "--report-timing", "-q")...)
	wantLines(t, out, "latency toc1: 41 cycles (exact")
	for _, src := range []string{"rti", "tof", "toc2"} {
		if strings.Contains(out, "latency "+src) {
			t.Errorf("--report-timing reports %s, which the firmware never arms:\n%s", src, out)
		}
	}
}

// TestSourceLatencyCatches: with mutation.SourceBoundary (the request
// dated to the end of the instruction in which OC1F set) the bound one
// below oc1_exact's worst case verifies, which TestTimingBounds would
// catch.
func TestSourceLatencyCatches(t *testing.T) {
	defer mutation.Set(mutation.SourceBoundary)()
	run(t, ExitVerified, "check", timingDir+"oc1_exact.elf", "--clock", "exact", "--input", "0x100A=3", "--search", "bfs", "-q",
		"--latency", "toc1:40")
}

// TestTimingFlagsKeepVerdicts: a property observes executions and never
// removes one. The order of the --latency flags and --report-timing
// (which adds a latency property for every --irq interrupt) change no
// verdict: pending interrupts are served by the chip's priority, XIRQ
// before TOC1 (prio_xirq.s), TOC1 before IRQ when HPRIO promotes it
// (hprio.s), IRQ before TOC1 without the promotion — where IRQ, asked
// again in each of its handlers, keeps TOC1 waiting for ever.
func TestTimingFlagsKeepVerdicts(t *testing.T) {
	for _, c := range latencyOrderCases {
		for _, extra := range c.extras {
			args := append(append([]string{"check", timingDir + c.file, "-q", "--search", "bfs"}, c.flags...), extra...)
			ns := []int{c.worst, c.worst - 1}
			if c.worst == 0 {
				ns = []int{1000}
			}
			for _, n := range ns {
				want := ExitVerified
				if n < c.worst || c.worst == 0 {
					want = ExitViolation
				}
				a := append(args, "--latency", fmt.Sprintf("toc1:%d", n))
				if c.first {
					a = append(append(append([]string{}, args[:5]...), "--latency", fmt.Sprintf("toc1:%d", n)), args[5:]...)
				}
				run(t, want, a...)
			}
		}
	}
}

// latencyOrderCases are TestTimingFlagsKeepVerdicts's programs: a bound
// worst verified and worst-1 violated whatever flags extras add (worst
// 0: no bound holds, 1,000 is violated).
var latencyOrderCases = []struct {
	file   string
	flags  []string
	first  bool // toc1's --latency before the others
	worst  int
	extras [][]string
}{
	{"prio_xirq.elf", []string{"--irq", "xirq,toc1", "--timing-cap", "80"}, false, 68,
		[][]string{nil, {"--report-timing"}, {"--report-timing", "--latency", "xirq"}}},
	{"prio_xirq.elf", []string{"--irq", "xirq,toc1", "--timing-cap", "80"}, true, 68,
		[][]string{{"--report-timing"}, {"--report-timing", "--latency", "xirq"}}},
	{"hprio.elf", []string{"--peripherals", "on", "--irq", "irq,toc1", "--timing-cap", "80"}, true, 43,
		[][]string{nil, {"--report-timing"}, {"--report-timing", "--latency", "irq"}}},
	// Without the promotion (no chip's registers) no bound holds: worst
	// 0 says that 0 and -1 are violated, and 1,000 too.
	{"hprio.elf", []string{"--irq", "irq,toc1", "--timing-cap", "2000"}, true, 0,
		[][]string{nil, {"--report-timing"}, {"--report-timing", "--latency", "irq"}}},
}

// TestLatencyOrderCatches: with mutation.LatencyOrder (requests served
// in the order of the flags, a lower-priority interrupt taken before a
// pending one) --report-timing verifies a bound below prio_xirq's worst
// case, which TestTimingFlagsKeepVerdicts and TestReportTiming catch.
func TestLatencyOrderCatches(t *testing.T) {
	defer mutation.Set(mutation.LatencyOrder)()
	run(t, ExitVerified, "check", timingDir+"prio_xirq.elf", "--irq", "xirq,toc1", "--timing-cap", "80", "--search", "bfs", "-q",
		"--latency", "toc1:67", "--report-timing")
}

// TestDeadlineOneCatches: with mutation.DeadlineOne (one interval at a
// time) the bound below deadline_threads' worst case verifies, which
// TestTimingBounds catches.
func TestDeadlineOneCatches(t *testing.T) {
	defer mutation.Set(mutation.DeadlineOne)()
	run(t, ExitVerified, "check", timingDir+"deadline_threads.elf", "--search", "bfs", "-q", "--deadline", "from:to:120")
}

// requestInterval checks, on latency.elf with a bound of 30 found
// depth-first (a path on which the request waits well past the bound),
// that the violation's interval starts at the cycle of the last request
// the listing shows and that its count is the interval's length, in the
// text and in --json.
func requestInterval(t *testing.T) error {
	args := []string{"check", timingDir + "latency.elf", "--irq", "toc1", "--latency", "toc1:30", "--search", "dfs", "-q"}
	out := run(t, ExitViolation, args...)
	req := regexp.MustCompile(`(?m)^ +\d+  cyc (\d+) +env +interrupt toc1 requested`).FindAllStringSubmatch(out, -1)
	end := regexp.MustCompile(`interval ends: (\d+) cycles \((\d+) to (\d+)\)`).FindStringSubmatch(out)
	msg := regexp.MustCompile(`its handler begins (\d+) cycles after the request`).FindStringSubmatch(out)
	if len(req) == 0 || end == nil || msg == nil {
		return fmt.Errorf("no request, interval or message in:\n%s", out)
	}
	at, _ := strconv.Atoi(req[len(req)-1][1])
	n, _ := strconv.Atoi(end[1])
	from, _ := strconv.Atoi(end[2])
	to, _ := strconv.Atoi(end[3])
	if from != at || n != to-from || msg[1] != end[1] || n <= 30 {
		return fmt.Errorf("the request at cycle %d; the violation says %s cycles, the interval %s", at, msg[1], end[0])
	}
	var j struct {
		Violation struct {
			Interval struct {
				From   int `json:"from_cycle"`
				To     int `json:"to_cycle"`
				Cycles int `json:"cycles"`
			} `json:"interval"`
		} `json:"violation"`
	}
	if err := json.Unmarshal([]byte(run(t, ExitViolation, append(args, "--json")...)), &j); err != nil {
		return err
	}
	if iv := j.Violation.Interval; iv.From != at || iv.To != to || iv.Cycles != n {
		return fmt.Errorf("--json interval %+v, the request at cycle %d, the listing %s", iv, at, end[0])
	}
	return nil
}

// TestViolationInterval: a violation reports the interval its execution
// had, from the request, not one drawn back from the count that stops at
// the bound plus one.
func TestViolationInterval(t *testing.T) {
	if err := requestInterval(t); err != nil {
		t.Error(err)
	}
}

// TestSaturatedIntervalCatches: with mutation.SaturatedInterval
// TestViolationInterval fails.
func TestSaturatedIntervalCatches(t *testing.T) {
	defer mutation.Set(mutation.SaturatedInterval)()
	if requestInterval(t) == nil {
		t.Error("saturated-interval: the interval still starts at the request")
	}
}

// checkOracle replays the counterexample in trace file path with the
// timing oracle (testkit/timeoracle) beside it: every interval and the
// violation's agree with its recomputation.
func checkOracle(t *testing.T, path string) {
	t.Helper()
	_, _, m, labels, err := loadTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	states, v, err := search.Replay(m, labels)
	if err != nil || v == nil {
		t.Fatalf("%s does not replay to a violation: %v", path, err)
	}
	if err := timeoracle.CheckTrace(m, states, labels, v); err != nil {
		t.Errorf("the timing oracle on %s: %v", path, err)
	}
}

// TestWaiEntryCatches: with mutation.WaiEntryStacks (the entry from WAI
// charged a full entry's 14 cycles) wai_latency's worst case bound is
// violated, which TestTimingBounds would catch.
func TestWaiEntryCatches(t *testing.T) {
	defer mutation.Set(mutation.WaiEntryStacks)()
	run(t, ExitViolation, "check", timingDir+"wai_latency.elf", "--irq", "toc1", "--search", "bfs", "-q",
		"--latency", "toc1:38")
}

// TestWaitUncountedCatches: with mutation.WaitUncounted (the cycles of a
// wait in WAI left out of the global time and the intervals)
// wai_deadline's bound one below its worst case verifies, which
// TestTimingBounds would catch.
func TestWaitUncountedCatches(t *testing.T) {
	defer mutation.Set(mutation.WaitUncounted)()
	run(t, ExitVerified, "check", timingDir+"wai_deadline.elf", "--clock", "exact", "--input", "0x100A=0,1,2,3",
		"--search", "bfs", "-q", "--deadline", "from:to:115")
}

// TestAbstractBoundaryCatches: with mutation.AbstractBoundary (a timer
// source's request under the abstract clock counted from the boundary
// at which the event sets its flag) the bound one below oc1_abstract's
// worst case verifies, which TestTimingBounds catches.
func TestAbstractBoundaryCatches(t *testing.T) {
	defer mutation.Set(mutation.AbstractBoundary)()
	run(t, ExitVerified, "check", timingDir+"oc1_abstract.elf", "--input", "0x100A=0,1,2,3", "--search", "bfs", "-q",
		"--latency", "toc1:39")
}

// With a timing property, the swarm member whose distance heuristic has
// no target searches breadth-first (portfolio.NewRun): late_mask's
// latency violation is a few hundred states from reset in breadth-first
// order, behind millions a depth-first search may dive into first (the
// arithmetic is in the source). The default check decides it by that
// member, alone too (--swarm-member 0/2), and the plain search agrees.
func TestTimingSwarmBreadthFirst(t *testing.T) {
	args := []string{"check", timingDir + "late_mask.elf", "--clock", "exact", "--input", "0x100A=0,1", "--latency", "toc1:30", "-q"}
	out := run(t, ExitViolation, append(args, "--workers", "2")...)
	wantLines(t, out, "violation: latency", "found by member 0/2 (bfs (for best+fsm: no target))")
	out = run(t, ExitViolation, append(args, "--swarm-member", "0/2")...)
	wantLines(t, out, "violation: latency")
	var r struct {
		Stats struct {
			StatesStored int `json:"states_stored"`
		} `json:"stats"`
	}
	raw := run(t, ExitViolation, append(args, "--swarm-member", "0/2", "--json")...)
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatal(err)
	}
	if r.Stats.StatesStored == 0 || r.Stats.StatesStored > 5000 {
		t.Errorf("member 0/2 stored %d states, want breadth-first's few hundred", r.Stats.StatesStored)
	}
	run(t, ExitViolation, append(args, "--search", "bfs", "--reduce", "none", "--engine", "explicit")...)
}
