package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
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
	bench := "../../testdata/bench"
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
