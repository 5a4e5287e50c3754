package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// run's summary gives the time the cycles took with the E clock at a
// quarter of --xtal, and --trace shows the environment's events among
// the instructions.
func TestRunClockAndEvents(t *testing.T) {
	_, diag := runSplit(t, 0, "run", monitorS19, "--device", "0x4000-0x4001", "--sci-input", `S\r`, "--xtal", "4MHz")
	m := regexp.MustCompile(`; \d+ instructions, (\d+) cycles \((.*) at --xtal 4 MHz\)\n$`).FindStringSubmatch(diag)
	if m == nil {
		t.Fatalf("no summary with the time in:\n%s", diag)
	}
	cycles, _ := strconv.Atoi(m[1])
	// E = 1 MHz: a cycle is a microsecond.
	if want := fmt.Sprintf("%.3f ms", float64(cycles)/1000); m[2] != want {
		t.Errorf("%d cycles at E = 1 MHz took %q, want %q", cycles, m[2], want)
	}
	out := run(t, 0, "run", monitorS19, "--device", "0x4000-0x4001", "--sci-input", `S\r`, "--trace")
	wantLines(t, out, "\nenv    SCI receives 'S'\n", "\nenv    SCI receives '\\r'\n", "\nenv    SCI transmitter finishes a byte\n", "\nSCI sends \"S\"\n")
}

func TestParseFreq(t *testing.T) {
	for in, want := range map[string]float64{"8MHz": 8e6, "4.9152MHz": 4.9152e6, "8 MHz": 8e6, "16M": 16e6, "32768": 32768, "32.768kHz": 32768} {
		if got, err := parseFreq(in); err != nil || got != want {
			t.Errorf("parseFreq(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"0", "-8MHz", "fast", "200MHz", ""} {
		if _, err := parseFreq(bad); err == nil {
			t.Errorf("parseFreq(%q) accepted", bad)
		}
	}
}

// run --terminal feeds stdin to the SCI when the firmware waits (a newline
// from a pipe arriving as a carriage return) and ends when stdin does;
// --sci-output sends the firmware's bytes to a file, leaving stdout empty.
func TestRunTerminal(t *testing.T) {
	var out, diag bytes.Buffer
	args := []string{"run", monitorS19, "--device", "0x4000-0x4001=0x5A", "--terminal"}
	if c := Main(args, strings.NewReader("S\nL\n"), &out, &diag); c != 0 {
		t.Fatalf("exit %d: %s", c, diag.String())
	}
	wantLines(t, out.String(), "HC11 monitor 1.0", "> S\r\nS5A", "> L\r\nL01")
	wantLines(t, diag.String(), "the firmware waits for input: its input ended, and every byte of it was received")

	file := filepath.Join(t.TempDir(), "sent.txt")
	out.Reset()
	diag.Reset()
	args = []string{"run", monitorS19, "--device", "0x4000-0x4001=0x5A", "--sci-input", `S\r`, "--sci-output", file}
	if c := Main(args, nil, &out, &diag); c != 0 || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q: %s", c, out.String(), diag.String())
	}
	sent, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	wantLines(t, string(sent), "HC11 monitor 1.0", "> S\r\nS5A")

	// Without the chip's SCI there is nothing to put on the terminal.
	_, diagText := runSplit(t, ExitUsage, "run", philosophersELF, "--terminal")
	wantLines(t, diagText, "--terminal and --sci-output need the chip's SCI")
	_, diagText = runSplit(t, ExitUsage, "run", monitorS19, "--sci-input", `S\q`)
	wantLines(t, diagText, `unknown escape \q`)
}
