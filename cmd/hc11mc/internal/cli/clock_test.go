package cli

import (
	"strings"
	"testing"
)

// rx_count counts, in its receive interrupt, the bytes that arrive while
// the main loop sends one byte; three or more make it write to an unmapped
// address. At BAUD = 0x30 a frame takes 10 bits × 16 × 13 (SCP1:SCP0 = 3)
// × 2^0 (SCR2:SCR0 = 0) = 2080 E cycles (reference manual, SCI baud rate
// selection): while one byte is sent, with the ~20 cycles of the loop
// around it, at most 1 + 2100/2080 = 2 bytes can complete. The abstract
// clock lets bytes arrive at any rate and finds the write; the exact clock
// explores every arrival the line allows and finds none.
func TestExactClockLineRate(t *testing.T) {
	const fw = "../../../../testdata/firmware/rx_count.elf"
	out := run(t, ExitViolation, "check", fw, "--sci-input", "A", "--search", "bfs", "--clock", "abstract", firmwareQuiet)
	wantLines(t, out, "violation: unmapped", "clock: abstract")
	out = run(t, 0, "check", fw, "--sci-input", "A", "--search", "bfs", "--clock", "exact", firmwareQuiet)
	wantLines(t, out, "verified", "clock: exact")
	out = run(t, 0, "check", fw, "--sci-input", "A", "--search", "bfs", "--clock", "exact", "--json")
	wantLines(t, out, `"clock":"exact"`)
}

// --clock is refused where it has no meaning or contradicts a setting of
// the abstract clock.
func TestClockRefused(t *testing.T) {
	const fw = "../../../../testdata/firmware/rx_count.elf"
	run(t, ExitUsage, "check", fw, "--clock", "exact", "--max-timer-events", "1", firmwareQuiet)
	run(t, ExitUsage, "check", fw, "--clock", "exact", "--sci-timing", "idle", firmwareQuiet)
	run(t, ExitUsage, "check", fw, "--clock", "fast", firmwareQuiet)
	run(t, ExitUsage, "check", "../../../../testdata/models/assert_ok.elf", "--clock", "exact", firmwareQuiet)
}

// wai_tcnt waits in WAI for two bytes and asserts, in its receive
// interrupt, on TCNT (E/1) read for the second: the number of E cycles it
// came after the earliest the line allows (a frame after the first) must
// not be 21. Every cycle of a wait is a possible arrival, so the exact
// clock finds it; one that let time pass in steps of several cycles
// while the CPU waits would miss it and verify. The counterexample's
// last wait is one cycle at a time.
func TestExactClockWaitEveryCycle(t *testing.T) {
	const fw = "../../../../testdata/firmware/wai_tcnt.elf"
	out := run(t, ExitViolation, "check", fw, "--sci-input", "A", "--search", "bfs", "--clock", "exact", "--xtal", "4MHz", firmwareQuiet)
	wantLines(t, out, "violation: unmapped", "time passes while the CPU waits: 1 E cycles", "SCI receives 'A'",
		"clock: exact", "condition: a register is read as it stands at the start of the instruction",
		"note: por: not run under the exact clock", "reductions: dead (verdicts are those of --reduce none)",
		"time: at --xtal 4 MHz an E cycle is 1.000 µs; at the violation a frame of the SCI's line takes 160 E cycles, 160.000 µs")
	if strings.Contains(out, "reductions: por") {
		t.Errorf("the exact clock runs no partial-order reduction, but the result lists it:\n%s", out)
	}
	out = run(t, ExitViolation, "check", fw, "--sci-input", "A", "--search", "bfs", "--clock", "exact", "--json")
	wantLines(t, out, `"reductions":["dead"]`, `"clock_conditions":["the sender's bit rate`, `"xtal_hz":8000000`)
}
