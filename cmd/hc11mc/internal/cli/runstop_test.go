package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

var txFaultELF = filepath.Join("..", "..", "..", "..", "testdata", "firmware", "tx_fault.elf")

// The SCI's transmitter is double-buffered (Reference Manual 9.3): a byte
// waiting in TDR leaves on the line after the one being shifted out,
// whatever the CPU does. tx_fault writes "OK" back to back and then runs
// into an undefined opcode: the board's terminal shows both bytes, so run
// prints both before the violation.
func TestRunFlushesTransmitter(t *testing.T) {
	out, diag := runSplit(t, ExitViolation, "run", txFaultELF)
	if out != "OK\n" {
		t.Errorf("run printed %q, want both bytes the transmitter holds, \"OK\"", out)
	}
	if !strings.Contains(diag, "violation illegal-opcode") {
		t.Errorf("no violation:\n%s", diag)
	}
}

// run --ignore does not report the kinds it names: an ignored illegal
// opcode goes on through the firmware's trap vector (on BUFFALO, a RAM
// pseudo-vector it wrote at start-up, whose handler stops the CPU), any
// other ignored violation ends the run without a finding; an unknown kind
// is refused.
func TestRunIgnore(t *testing.T) {
	out, diag := runSplit(t, 0, "run", txFaultELF, "--ignore", "illegal-opcode")
	if out != "OK\n" || !strings.Contains(diag, "stopped at an ignored illegal-opcode violation") {
		t.Errorf("--ignore illegal-opcode without a trap vector: %q\n%s", out, diag)
	}
	_, diag = runSplit(t, ExitUsage, "run", txFaultELF, "--ignore", "nonsense")
	if !strings.Contains(diag, `--ignore "nonsense": properties are`) {
		t.Errorf("unknown kind: %s", diag)
	}

	fw := needBuffalo(t)
	board := filepath.Join("..", "..", "..", "..", "testdata", "boards", "evb.board")
	_, diag = runSplit(t, ExitViolation, "run", fw, "--board", board, "--sci-input", `\rMM 0100\r41\rG 0100\r`)
	if !strings.Contains(diag, "undefined opcode 41 at 0x0100") {
		t.Errorf("BUFFALO running 0x41: %s", diag)
	}
	_, diag = runSplit(t, 0, "run", fw, "--board", board, "--sci-input", `\rMM 0100\r41\rG 0100\r`, "--ignore", "illegal-opcode")
	if !strings.Contains(diag, "the firmware waits in WAI or STOP") {
		t.Errorf("BUFFALO's illegal-opcode handler did not run: %s", diag)
	}
}

// A run stops at a violation of an interrupt's entry: on irq_romstack the
// TOC1 entry pushes its frame into ROM (the firmware set its stack inside
// its code). The run once went on from the entry and stopped later, at the
// illegal opcode the unwritten frame's RTI returned to (0x0000), or not at
// all: it must stop at the entry, whichever random point the interrupt
// comes at, on the run's one schedule or any --seed's.
func TestRunStopsAtEntry(t *testing.T) {
	fw := filepath.Join("..", "..", "..", "..", "testdata", "models", "irq_romstack.elf")
	for _, seed := range []string{"1", "2", "3", "4", "5"} {
		_, diag := runSplit(t, ExitViolation, "run", fw, "--irq", "toc1", "--steps", "5000", "--seed", seed)
		if !strings.Contains(diag, "violation rom-write") || !strings.Contains(diag, "<loop>") {
			t.Errorf("--seed %s: %s", seed, diag)
		}
	}
}
