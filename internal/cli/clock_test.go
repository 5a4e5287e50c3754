package cli

import "testing"

// rx_count counts, in its receive interrupt, the bytes that arrive while
// the main loop sends one byte; three or more make it write to an unmapped
// address. At BAUD = 0x30 a frame takes 10 bits × 16 × 13 (SCP1:SCP0 = 3)
// × 2^0 (SCR2:SCR0 = 0) = 2080 E cycles (reference manual, SCI baud rate
// selection): while one byte is sent, with the ~20 cycles of the loop
// around it, at most 1 + 2100/2080 = 2 bytes can complete. The abstract
// clock lets bytes arrive at any rate and finds the write; the exact clock
// explores every arrival the line allows and finds none.
func TestExactClockLineRate(t *testing.T) {
	const fw = "../../testdata/firmware/rx_count.elf"
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
	const fw = "../../testdata/firmware/rx_count.elf"
	run(t, ExitUsage, "check", fw, "--clock", "exact", "--max-timer-events", "1", firmwareQuiet)
	run(t, ExitUsage, "check", fw, "--clock", "exact", "--sci-timing", "idle", firmwareQuiet)
	run(t, ExitUsage, "check", fw, "--clock", "fast", firmwareQuiet)
	run(t, ExitUsage, "check", "../../testdata/models/assert_ok.elf", "--clock", "exact", firmwareQuiet)
}
