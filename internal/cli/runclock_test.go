package cli

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"
)

// run's summary gives the time the cycles took with the E clock at a
// quarter of --xtal, and --trace shows the environment's events among
// the instructions.
func TestRunClockAndEvents(t *testing.T) {
	out := run(t, 0, "run", monitorS19, "--device", "0x4000-0x4001", "--sci-input", `S\r`, "--xtal", "4MHz")
	m := regexp.MustCompile(`; \d+ instructions, (\d+) cycles \((.*) at --xtal 4 MHz\)\n$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no summary with the time in:\n%s", lastLines(out))
	}
	cycles, _ := strconv.Atoi(m[1])
	// E = 1 MHz: a cycle is a microsecond.
	if want := fmt.Sprintf("%.3f ms", float64(cycles)/1000); m[2] != want {
		t.Errorf("%d cycles at E = 1 MHz took %q, want %q", cycles, m[2], want)
	}
	out = run(t, 0, "run", monitorS19, "--device", "0x4000-0x4001", "--sci-input", `S\r`, "--trace")
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
