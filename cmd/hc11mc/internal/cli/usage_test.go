package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/internal/memlimit"
	"github.com/hc11mc/hc11mc/internal/units"
)

// usageLine runs hc11mc and returns its exit code and its one line of
// complaint, failing the test when the complaint is not exactly one line.
func usageLine(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, nil, &out, &errb)
	msg := errb.String()
	if code == ExitUsage && (strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "hc11mc: ")) {
		t.Errorf("%v: stderr %q is not one line", args, msg)
	}
	if strings.Contains(msg, "goroutine") || strings.Contains(msg, "panic") {
		t.Errorf("%v: stack trace: %s", args, msg)
	}
	return code, strings.TrimSpace(msg)
}

// A missing --symbols file is named as such, not taken for the firmware.
func TestMissingSymbolsFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "fw.nm")
	for _, cmd := range []string{"check", "run", "disasm", "cfg"} {
		code, msg := usageLine(t, cmd, allopsELF, "--symbols", missing)
		want := "--symbols " + missing + ": no such file"
		if code != ExitUsage || !strings.Contains(msg, want) || strings.Contains(msg, allopsELF) {
			t.Errorf("%s --symbols missing: exit %d %q, want %q", cmd, code, msg, want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64 // -1: refused
	}{
		{"512", 512}, {"512B", 512}, {"512b", 512}, {"1K", 1024}, {"1kb", 1024}, {"1KiB", 1024},
		{"2M", 2 << 20}, {"2G", 2 << 30}, {"3T", 3 << 40}, {"1.5G", 3 << 29}, {"0.5K", 512},
		{"1.25m", 5 << 18}, {"0", 0}, {"none", 0}, {"NONE", 0},
		{"2X", -1}, {"", -1}, {"G", -1}, {"1.1K", -1}, {"0.3", -1}, {"-1G", -1}, {"+1G", -1},
		{"1.G", -1}, {".5G", -1}, {"1e3", -1}, {"0x10", -1}, {"2 G", -1}, {" 2G", -1}, {"1GG", -1},
		{"1GiBB", -1}, {"1iB", -1}, {"8388608T", -1}, {"1_000", -1}, {"lots", -1},
	} {
		got, err := parseSize(tt.in)
		if tt.want < 0 {
			if err == nil {
				t.Errorf("parseSize(%q) = %d, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

// Every size, count and duration flag refuses what it cannot read exactly,
// with exit 2 and a line naming the flag and the forms it takes.
func TestFlagsReadExactly(t *testing.T) {
	bench := "../../../../testdata/bench"
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"check", allopsELF, "--max-memory", "2X"}, []string{"--max-memory", "not a size", "512M"}},
		{[]string{"check", allopsELF, "--max-memory", "1.1K"}, []string{"--max-memory", "whole number of bytes"}},
		{[]string{"check", allopsELF, "--max-memory", "-1G"}, []string{"--max-memory", "not a size"}},
		{[]string{"check", allopsELF, "--max-states", "-5"}, []string{"--max-states", "decimal digits"}},
		{[]string{"check", allopsELF, "--max-states", "1e6"}, []string{"--max-states", "decimal digits"}},
		{[]string{"check", allopsELF, "--max-states", "0x10"}, []string{"--max-states", "decimal digits"}},
		{[]string{"check", allopsELF, "--timeout", "10"}, []string{"--timeout", "30s"}},
		{[]string{"check", allopsELF, "--timeout", "-5s"}, []string{"--timeout", "30s"}},
		{[]string{"check", allopsELF, "--k", "-1"}, []string{"--k", "from 0 to 8"}},
		{[]string{"check", allopsELF, "--k", "9"}, []string{"--k", "from 0 to 8"}},
		{[]string{"check", allopsELF, "--seed", "-1", "--search", "random"}, []string{"--seed", "decimal digits"}},
		{[]string{"check", allopsELF, "--max-run", "0", "--preempt", "calls"}, []string{"--max-run", "1 or more"}},
		{[]string{"run", allopsELF, "--steps", "-1"}, []string{"--steps", "decimal digits"}},
		{[]string{"run", allopsELF, "--steps", "10x"}, []string{"--steps", "decimal digits"}},
		{[]string{"run", allopsELF, "--seed", "-5"}, []string{"--seed", "decimal digits"}},
		{[]string{"estimate", allopsELF, "--max-steps", "-1"}, []string{"--max-steps", "decimal digits"}},
		{[]string{"estimate", allopsELF, "--k", "99"}, []string{"--k", "from 0 to 8"}},
		{[]string{"cfg", allopsELF, "--k", "-1"}, []string{"--k", "from 0 to 8"}},
		{[]string{"cfg", allopsELF, "--k", "1.5"}, []string{"--k", "decimal digits"}},
		{[]string{"bench", bench, "--runs", "0"}, []string{"--runs", "1 or more"}},
		{[]string{"bench", bench, "--runs", "-1"}, []string{"--runs", "decimal digits"}},
		{[]string{"bench", bench, "--max-states", "-5"}, []string{"--max-states", "decimal digits"}},
		{[]string{"bench", bench, "--timeout", "5"}, []string{"--timeout", "30s"}},
		{[]string{"bench", bench, "--k", "-1"}, []string{"--k", "from 0 to 8"}},
	} {
		code, msg := usageLine(t, tt.args...)
		if code != ExitUsage {
			t.Errorf("%v: exit %d (%q), want 2", tt.args, code, msg)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%v: %q does not say %q", tt.args, msg, w)
			}
		}
	}
}

// One vocabulary across commands: estimate takes the targets cfg takes,
// with the same meaning; one spelling for the instruction bound; flags a
// command would ignore are refused, saying why.
func TestOneVocabulary(t *testing.T) {
	fig1 := "../../../../testdata/heuristics/fig1.elf"
	counter := "../../../../testdata/models/irq_counter.elf"
	assertFail := "../../../../testdata/models/assert_fail.elf"
	for _, tt := range []struct {
		args []string
		want string // on stdout
	}{
		// cfg --target assert means the calls of __mc_assert; so does estimate's.
		{[]string{"estimate", assertFail, "--target", "assert", "--break", "_start", "--heuristic", "fsm"}, "h="},
		// An address a symbol names is that symbol, in both commands.
		{[]string{"estimate", fig1, "--target", "0xD01A", "--break", "foo", "--heuristic", "fsm"}, "h=3"},
		{[]string{"cfg", fig1, "--target", "0xD01A"}, "distance to error (0xD01A)"},
		// A symbol named like a property is the symbol; the output says which.
		{[]string{"cfg", fig1, "--target", "error"}, "distance to error (0xD01A)"},
		{[]string{"cfg", assertFail, "--target", "assert"}, "distance to __mc_assert"},
		// run and estimate bound the instructions with the same flag.
		{[]string{"estimate", fig1, "--target", "error", "--break", "foo", "--heuristic", "fsm", "--steps", "1000"}, "h=3"},
		{[]string{"estimate", fig1, "--target", "error", "--break", "foo", "--heuristic", "fsm", "--max-steps", "1000"}, "h=3"},
		// --irq is honoured: the interrupt wakes the WAI, as in run.
		{[]string{"estimate", counter, "--target", "ti_ack", "--break", "ti_ack#3", "--heuristic", "fsm", "--irq", "toc1"}, "h=0"},
	} {
		var out, errb bytes.Buffer
		if code := Main(tt.args, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", tt.args, code, out.String(), errb.String(), tt.want)
		}
		if tt.args[0] == "estimate" && strings.Count(out.String(), "\n") != 1 {
			t.Errorf("%v: stdout %q is not the one line h=...", tt.args, out.String())
		}
		if slices.Contains(tt.args, "--max-steps") && !strings.Contains(errb.String(), "--max-steps is deprecated") {
			t.Errorf("%v: stderr %q does not say that --max-steps is deprecated", tt.args, errb.String())
		}
	}
	for _, tt := range []struct {
		args []string
		want []string // in the one line on stderr
	}{
		// Without --irq nothing wakes the WAI: estimate says so.
		{[]string{"estimate", counter, "--target", "ti_ack", "--break", "ti_ack", "--heuristic", "fsm"}, []string{"WAI"}},
		{[]string{"estimate", fig1, "--target", "error", "--break", "foo#2", "--steps", "5"}, []string{"--steps 5", "not 2"}},
		{[]string{"estimate", fig1, "--target", "error", "--break", "foo", "--steps", "5", "--max-steps", "5"}, []string{"--max-steps", "--steps"}},
		{[]string{"estimate", fig1, "--target", "error", "--break", "foo", "--heuristic", "fsm", "--k", "2"}, []string{"--k", "fsm"}},
		{[]string{"estimate", fig1, "--target", "error", "--break", "foo", "--preempt", "calls"}, []string{"--preempt", "one schedule"}},
		{[]string{"estimate", fig1, "--target", "error", "--break", "foo", "--max-run", "5"}, []string{"--max-run"}},
		{[]string{"estimate", fig1, "--target", "error", "--break", "foo", "--reach", "foo"}, []string{"--reach", "--break"}},
		{[]string{"estimate", fig1, "--target", "nowhere", "--break", "foo"}, []string{"--target nowhere", "assert, error, mutex, deadlock"}},
		{[]string{"cfg", fig1, "--target", "0xD01B"}, []string{"--target 0xD01B", "no symbol"}},
		{[]string{"run", fig1, "--start", "foo", "--entry", "error"}, []string{"--start", "--entry"}},
		{[]string{"run", fig1, "--preempt", "calls"}, []string{"--preempt", "one schedule"}},
		{[]string{"run", fig1, "--max-run", "5"}, []string{"--max-run"}},
		{[]string{"check", fig1, "--search", "bfs", "--seed", "3"}, []string{"--seed", "--search random"}},
		{[]string{"check", fig1, "--search", "bfs", "--heuristic", "fsm"}, []string{"--heuristic", "best", "astar"}},
		{[]string{"check", fig1, "--heuristic", "fsm", "--k", "2"}, []string{"--k", "aicfg", "efsm"}},
		{[]string{"check", fig1, "--search", "dfs", "--k", "2"}, []string{"--k"}},
		{[]string{"check", fig1, "--goal-mem", "0x10=1"}, []string{"--goal-mem", "hamming"}},
		{[]string{"check", fig1, "--search", "bfs", "--aim", "error"}, []string{"--aim"}},
		{[]string{"check", fig1, "--max-run", "5"}, []string{"--max-run", "--preempt every"}},
		{[]string{"disasm", fig1, "--chip", "a1"}, []string{"--chip", "disasm"}},
		{[]string{"disasm", fig1, "--ram", "0x2000-0x2FFF"}, []string{"--ram", "disasm"}},
		{[]string{"bench", "../../../../testdata/bench", "--strategies", "bfs", "--runs", "3"}, []string{"--runs", "random"}},
		{[]string{"bench", "../../../../testdata/bench", "--models", "hyman", "--kinds", "bug"}, []string{"--kinds", "--models"}},
		{[]string{"bench", "../../../../testdata/bench", "--strategies", "bfs,best+fsm", "--k", "2"}, []string{"--k", "aicfg", "efsm"}},
	} {
		code, msg := usageLine(t, tt.args...)
		if code != ExitUsage {
			t.Errorf("%v: exit %d (%q), want 2", tt.args, code, msg)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%v: %q does not say %q", tt.args, msg, w)
			}
		}
	}
}

type resumeJSON struct {
	Verdict string `json:"verdict"`
	Limit   string `json:"limit"`
	Stats   struct {
		StatesStored int     `json:"states_stored"`
		Seconds      float64 `json:"seconds"`
		SecondsTotal float64 `json:"seconds_total"`
	} `json:"stats"`
}

func checkResumeJSON(t *testing.T, args ...string) resumeJSON {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Main(args, nil, &out, &errb); code != ExitIncomplete {
		t.Fatalf("%v: exit %d, want 3: %s", args, code, errb.String())
	}
	var r resumeJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v: %v in %q", args, err, out.String())
	}
	return r
}

// The limits of a resumed search apply to the run they are given to: the
// earlier run's time does not count against --timeout, nor its states
// against --max-states; the report gives this run's time and the total.
func TestResumeLimitsApplyToThisRun(t *testing.T) {
	img := "../../../../testdata/models/irq_counter.elf"
	dir := t.TempDir()
	fr := filepath.Join(dir, "frontier")
	base := []string{"check", img, "--irq", "toc1", "--search", "bfs", "--json"}
	first := checkResumeJSON(t, append(base, "--timeout", "1s", "--save-frontier", fr)...)
	if !strings.Contains(first.Limit, "--timeout") || first.Stats.Seconds < 1 {
		t.Fatalf("first run: %+v", first)
	}
	// Had the first run's second counted, the resumed run would stop at
	// once; how long past its 500 ms it takes to notice depends on the
	// machine's load, and is not asserted.
	rest := checkResumeJSON(t, append(base, "--timeout", "500ms", "--resume", fr)...)
	if !strings.Contains(rest.Limit, "--timeout") || rest.Stats.Seconds < 0.45 {
		t.Errorf("resumed with --timeout 500ms: ran %.2fs (%+v)", rest.Stats.Seconds, rest)
	}
	if want := first.Stats.Seconds + rest.Stats.Seconds; rest.Stats.SecondsTotal < want-0.01 || rest.Stats.SecondsTotal > want+0.01 {
		t.Errorf("seconds_total %.3f, want %.3f + %.3f", rest.Stats.SecondsTotal, first.Stats.Seconds, rest.Stats.Seconds)
	}

	fr2 := filepath.Join(dir, "frontier2")
	part := checkResumeJSON(t, append(base, "--max-states", "1000", "--save-frontier", fr2)...)
	more := checkResumeJSON(t, append(base, "--max-states", "1000", "--resume", fr2)...)
	if got := more.Stats.StatesStored - part.Stats.StatesStored; got < 1000 || got > 1100 || !strings.Contains(more.Limit, "--max-states") {
		t.Errorf("resumed with --max-states 1000: %d more states (%+v), want 1000 more", got, more)
	}

	// The text report gives both times.
	var out, errb bytes.Buffer
	Main([]string{"check", img, "--irq", "toc1", "--search", "bfs", "--max-states", "10", "--resume", fr2}, nil, &out, &errb)
	if !strings.Contains(out.String(), "in all runs") {
		t.Errorf("the resumed run's report does not give the time of all runs:\n%s", out.String())
	}
}

// heldMemory is the memory the Go runtime holds, less free heap.
func heldMemory() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64() - s[2].Value.Uint64())
}

// With no --max-memory, a search that grows without bound stops at the
// default share of the machine's memory, with the usual report (exit 3),
// and saves its frontier, which resumes under the same default. The
// machine is made small for the test: 64 MiB more than this process holds,
// over the share.
func TestDefaultMemoryLimit(t *testing.T) {
	debug.FreeOSMemory()
	machine := (heldMemory() + 64<<20) / memlimit.Share * 100
	defer func(d func() memlimit.Info) { detectMemory = d }(detectMemory)
	detectMemory = func() memlimit.Info { return memlimit.Info{Physical: machine} }
	def := memlimit.Info{Physical: machine}.Default()

	var out, errb bytes.Buffer
	if code := Main([]string{"check", "--help"}, nil, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), fmt.Sprintf("default: %d%% of this machine's memory, %s here", memlimit.Share, units.Size(def))) {
		t.Errorf("check --help does not give the default memory limit:\n%s", out.String())
	}

	img := "../../../../testdata/models/irq_counter.elf"
	args := []string{"check", img, "--irq", "toc1", "--search", "bfs", "--timeout", "60s"}
	r := checkResumeJSON(t, append(args, "--json")...)
	if !strings.Contains(r.Limit, "--max-memory "+units.Size(def)) || !strings.Contains(r.Limit, "machine's memory") {
		t.Errorf("limit %q, want the default memory limit, %s", r.Limit, units.Size(def))
	}

	fr := filepath.Join(t.TempDir(), "frontier")
	out.Reset()
	errb.Reset()
	debug.FreeOSMemory()
	code := Main(append(args, "--save-frontier", fr), nil, &out, &errb)
	text := out.String()
	if code != ExitIncomplete || !strings.Contains(text, "incomplete") || !strings.Contains(text, "stopped by --max-memory") ||
		!strings.Contains(text, "covered:") || !strings.Contains(text, "frontier saved to "+fr) {
		t.Errorf("exit %d, stderr %q, report:\n%s", code, errb.String(), text)
	}
	debug.FreeOSMemory()
	more := checkResumeJSON(t, append(args, "--resume", fr, "--max-states", "1000", "--json")...)
	if !strings.Contains(more.Limit, "--max-states") {
		t.Errorf("resumed under the default memory limit: %+v", more)
	}
}
