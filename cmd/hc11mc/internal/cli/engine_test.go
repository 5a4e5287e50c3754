package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// check --engine hmc and auto on the models whose four nondeterministic
// bytes the explicit engine cannot enumerate: secret4 fails for one input
// and its trace replays; crc8 never fails and is verified.
func TestEngineSymbolic(t *testing.T) {
	secret := filepath.Join("..", "..", "..", "..", "testdata", "models", "symbolic", "secret4.elf")
	crc := filepath.Join("..", "..", "..", "..", "testdata", "models", "symbolic", "crc8.elf")
	dir := t.TempDir()
	for _, engine := range []string{"hmc", "auto"} {
		var out, errb bytes.Buffer
		tr := filepath.Join(dir, engine+".json")
		if c := Main([]string{"check", secret, "--engine", engine, "--trace", tr}, nil, &out, &errb); c != ExitViolation {
			t.Fatalf("%s on secret4: exit %d\n%s%s", engine, c, out.String(), errb.String())
		}
		if !strings.Contains(out.String(), "violation: assert") || !strings.Contains(out.String(), "[choice 195]") {
			t.Errorf("%s on secret4:\n%s", engine, out.String())
		}
		out.Reset()
		if c := Main([]string{"replay", tr}, nil, &out, &errb); c != ExitViolation {
			t.Fatalf("replay of %s's trace: exit %d\n%s%s", engine, c, out.String(), errb.String())
		}
		out.Reset()
		if c := Main([]string{"check", crc, "--engine", engine, "--json"}, nil, &out, &errb); c != 0 {
			t.Fatalf("%s on crc8: exit %d\n%s%s", engine, c, out.String(), errb.String())
		}
		var res struct {
			Verdict, Engine string
			HMC             struct{ Images int }
			Auto            struct {
				Handed  int
				Verdict string
				HMC     struct{ Images int }
			}
		}
		err := json.Unmarshal(out.Bytes(), &res)
		if engine == "auto" {
			// The explicit search hands the first wide choice over.
			if res.Auto.Handed != 1 || res.Auto.Verdict != "verified" {
				t.Errorf("auto on crc8: %+v", res.Auto)
			}
			res.HMC = res.Auto.HMC
		}
		if err != nil || res.Verdict != "verified" || res.Engine != engine || res.HMC.Images == 0 {
			t.Errorf("%s on crc8: %v %+v\n%s", engine, err, res, out.String())
		}
	}
	// The explicit engine cannot finish.
	var out, errb bytes.Buffer
	if c := Main([]string{"check", secret, "--search", "bfs", "--max-states", "100000"}, nil, &out, &errb); c != ExitIncomplete {
		t.Errorf("explicit on secret4: exit %d\n%s", c, out.String())
	}
}

// check --engine hmc and auto --preempt every on torn16: two threads, a
// 16-bit period stored with two byte stores, which the other thread reads
// torn above its limit for one of the 65536 periods the host sends. Both
// find the assertion's violation, with the period 0x8000, and the traces
// replay; the explicit engine's deterministic searches stop at
// --max-states 1000000 (they branch 65536 ways on the period).
func TestEngineTorn16(t *testing.T) {
	img := filepath.Join("..", "..", "..", "..", "testdata", "models", "symbolic", "torn16.elf")
	dir := t.TempDir()
	for _, engine := range []string{"hmc", "auto"} {
		var out, errb bytes.Buffer
		tr := filepath.Join(dir, engine+".json")
		if c := Main([]string{"check", img, "--engine", engine, "--preempt", "every", "--trace", tr}, nil, &out, &errb); c != ExitViolation {
			t.Fatalf("%s on torn16: exit %d\n%s%s", engine, c, out.String(), errb.String())
		}
		if !strings.Contains(out.String(), "violation: assert") || !strings.Contains(out.String(), "[choice 32768]") {
			t.Errorf("%s on torn16:\n%s", engine, out.String())
		}
		out.Reset()
		if c := Main([]string{"replay", tr}, nil, &out, &errb); c != ExitViolation {
			t.Fatalf("replay of %s's trace: exit %d\n%s%s", engine, c, out.String(), errb.String())
		}
	}
	for _, search := range []string{"bfs", "dfs"} {
		var out, errb bytes.Buffer
		if c := Main([]string{"check", img, "--engine", "explicit", "--preempt", "every", "--search", search, "--max-states", "1000000"}, nil, &out, &errb); c != ExitIncomplete {
			t.Errorf("explicit %s on torn16: exit %d\n%s%s", search, c, out.String(), errb.String())
		}
	}
}

// The flags of one engine are refused with the other.
func TestEngineRefusals(t *testing.T) {
	img := filepath.Join("..", "..", "..", "..", "testdata", "models", "symbolic", "secret4.elf")
	for _, args := range [][]string{
		{"--engine", "symbolic"},
		{"--engine", "hmc", "--search", "bfs"},
		{"--engine", "hmc", "--reduce", "dead"},
		{"--engine", "hmc", "--max-branch", "4"},
		{"--max-branch", "4"},
		{"--hmc-priority", "dfs"},
		{"--engine", "hmc", "--hmc-priority", "bfs"},
		{"--hmc-mode", "bmc"},
		{"--engine", "hmc", "--hmc-mode", "mix"},
		{"--engine", "hmc", "--hmc-mode", "bmc", "--hmc-priority", "dfs"},
		{"--engine", "hmc", "--hmc-mode", "bmc", "--pr-depth", "8"},
		{"--engine", "hmc", "--hmc-mode", "st", "--pr-depth", "8"},
		{"--engine", "hmc", "--hmc-mode", "bmc", "--heuristic", "fsm"},
		{"--engine", "hmc", "--hmc-priority", "dfs", "--k", "2"},
		{"--engine", "auto", "--search", "swarm"},
		{"--engine", "auto", "--reduce", "por,dead"},
		{"--engine", "auto", "--all"},
		{"--engine", "auto", "--save-frontier", "x.frontier"},
		{"--engine", "auto", "--search", "bfs", "--workers", "2"},
	} {
		var out, errb bytes.Buffer
		if c := Main(append([]string{"check", img}, args...), nil, &out, &errb); c != ExitUsage {
			t.Errorf("%v: exit %d, want %d\n%s%s", args, c, ExitUsage, out.String(), errb.String())
		}
	}
}

// --hmc-mode: BMC alone, ST alone and HMC under each priority (the
// configurations of the paper's Table I) find secret4's violation, whose
// trace replays, and the traversals prove crc8; BMC stops at its time
// limit on crc8 and says how deep it got.
func TestEngineModes(t *testing.T) {
	secret := filepath.Join("..", "..", "..", "..", "testdata", "models", "symbolic", "secret4.elf")
	crc := filepath.Join("..", "..", "..", "..", "testdata", "models", "symbolic", "crc8.elf")
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--hmc-mode", "bmc"}, {"--hmc-mode", "st"}, {"--hmc-mode", "hmc", "--hmc-priority", "dfs"}, {"--hmc-mode", "hmc"},
	} {
		var out, errb bytes.Buffer
		tr := filepath.Join(dir, "t.json")
		if c := Main(append([]string{"check", secret, "--engine", "hmc", "--trace", tr, "--json"}, args...), nil, &out, &errb); c != ExitViolation {
			t.Fatalf("%v on secret4: exit %d\n%s%s", args, c, out.String(), errb.String())
		}
		var res struct {
			HMCMode     string `json:"hmc_mode"`
			TraceLength int    `json:"trace_length"`
			Stats       struct {
				PeakMemory int64 `json:"peak_memory_bytes"`
			}
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.HMCMode != args[1] || res.TraceLength != 76 || res.Stats.PeakMemory == 0 {
			t.Errorf("%v on secret4: %v %+v\n%s", args, err, res, out.String())
		}
		out.Reset()
		if c := Main([]string{"replay", tr}, nil, &out, &errb); c != ExitViolation {
			t.Fatalf("replay of %v's trace: exit %d\n%s%s", args, c, out.String(), errb.String())
		}
		if args[1] == "bmc" {
			continue
		}
		out.Reset()
		if c := Main(append([]string{"check", crc, "--engine", "hmc"}, args...), nil, &out, &errb); c != 0 || !strings.Contains(out.String(), args[1]+": ") {
			t.Errorf("%v on crc8: exit %d\n%s%s", args, c, out.String(), errb.String())
		}
	}
	var out, errb bytes.Buffer
	c := Main([]string{"check", crc, "--engine", "hmc", "--hmc-mode", "bmc", "--timeout", "1s"}, nil, &out, &errb)
	if c != ExitIncomplete || !strings.Contains(out.String(), "covered: no violation within ") || !strings.Contains(out.String(), "bmc: at most ") {
		t.Errorf("bmc on crc8 for a second: exit %d\n%s%s", c, out.String(), errb.String())
	}
}

// The limits stop the symbolic engine with the incomplete report.
func TestEngineLimits(t *testing.T) {
	crc := filepath.Join("..", "..", "..", "..", "testdata", "models", "symbolic", "crc8.elf")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-states", "5"}, "stopped by --max-states 5"},
		{[]string{"--max-memory", "1K"}, "stopped by --max-memory 1 KiB"},
	} {
		var out, errb bytes.Buffer
		code := Main(append([]string{"check", crc, "--engine", "hmc"}, c.args...), nil, &out, &errb)
		if code != ExitIncomplete || !strings.Contains(out.String(), c.want) {
			t.Errorf("%v: exit %d, want %d and %q\n%s%s", c.args, code, ExitIncomplete, c.want, out.String(), errb.String())
		}
	}
}

// check --engine auto on firmware with the chip's peripherals, which HMC
// does not model: the explicit search enumerates every choice (the serial
// line's bytes among them), finds what --engine explicit finds, and the
// result says that HMC took no part.
func TestAutoPeripherals(t *testing.T) {
	img := filepath.Join("..", "..", "..", "..", "testdata", "firmware", "collect.elf")
	var out, errb bytes.Buffer
	if c := Main([]string{"check", img, "--sci-input", "A", "--engine", "auto", "--json"}, nil, &out, &errb); c != ExitViolation {
		t.Fatalf("exit %d\n%s%s", c, out.String(), errb.String())
	}
	var res struct {
		Violation struct{ Kind string }
		Auto      struct {
			Handed        int
			EnumeratedAll string `json:"enumerated_all"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Violation.Kind != "unmapped" || res.Auto.Handed != 0 ||
		!strings.Contains(res.Auto.EnumeratedAll, "peripherals") {
		t.Errorf("%v %+v\n%s", err, res, out.String())
	}
}

// A frontier an explicit breadth-first search saved (--reduce por, which
// --engine auto runs too) is resumed under --engine auto: its explicit
// part goes on from the frontier and hands the wide choices it meets to
// HMC, to the verdict the manifest gives each model — crc8 verified,
// secret4's assertion violated, by a counterexample that replays — as one
// run over the saved and the new states together.
func TestResumeUnderAuto(t *testing.T) {
	for _, c := range []struct {
		model string
		code  int
	}{{"crc8", ExitVerified}, {"secret4", ExitViolation}} {
		img := filepath.Join(symbolicModels, c.model+".elf")
		fr := filepath.Join(t.TempDir(), "frontier")
		run(t, ExitIncomplete, "check", img, "--search", "bfs", "--reduce", "por", "--max-states", "300", "--save-frontier", fr, "-q")
		trace := filepath.Join(t.TempDir(), "cex.json")
		out := run(t, c.code, "check", img, "--engine", "auto", "--reduce", "por", "--resume", fr, "--trace", trace)
		wantLines(t, out, "in all runs")
		if !strings.Contains(out, "handed to HMC") {
			t.Errorf("%s: HMC took no part:\n%s", c.model, out)
		}
		if c.code == ExitViolation {
			wantLines(t, run(t, ExitViolation, "replay", trace), "reproduced: assert")
		}
	}
}
