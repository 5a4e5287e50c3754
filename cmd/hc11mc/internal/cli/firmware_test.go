package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	collectELF    = "../../../../testdata/firmware/collect.elf"
	serialCmdELF  = "../../../../testdata/firmware/serial_cmd.elf"
	serialFixELF  = "../../../../testdata/firmware/serial_cmd_fixed.elf"
	monitorS19    = "../../../../testdata/firmware/monitor.s19"
	firmwareQuiet = "-q"
)

// wantLines fails unless out has every line of want (each a substring).
func wantLines(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in the output:\n%s", w, lastLines(out))
		}
	}
}

// A program that collects serial input into a fixed buffer without a
// bounds check: --sci-input A finds the overrun, the input is shown, and
// the trace replays.
func TestFirmwareCollectOverrun(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "collect.json")
	out := run(t, ExitViolation, "check", collectELF, "--sci-input", "A", "--search", "bfs", "--trace", trace, firmwareQuiet)
	wantLines(t, out, "violation: unmapped", "write of 0x41 to unmapped address 0x0200",
		"env    SCI receives 'A'", `serial input (SCI received): "AAAAAAAA`)
	out = run(t, ExitViolation, "replay", trace)
	wantLines(t, out, "reproduced: unmapped", "env: SCI receives 'A'")
	// Without the reductions: the same violation.
	out = run(t, ExitViolation, "check", collectELF, "--sci-input", "A", "--search", "bfs", "--reduce", "none", firmwareQuiet)
	wantLines(t, out, "violation: unmapped", "write of 0x41 to unmapped address 0x0200")
}

// The command interpreter's two bugs are found with the serial input that
// triggers them; the fixed version has neither within the same bounds.
func TestFirmwareCommandInterpreter(t *testing.T) {
	// The unchecked line length: six bytes and a carriage return run the
	// terminating 0 into the return address.
	trace := filepath.Join(t.TempDir(), "overrun.json")
	idle := []string{"--sci-timing", "idle", "--max-timer-events", "0", "--search", "bfs", firmwareQuiet}
	out := run(t, ExitViolation, append([]string{"check", serialCmdELF, "--sci-input", `A,\r`, "--trace", trace}, idle...)...)
	wantLines(t, out, "violation: illegal-opcode", `serial input (SCI received): "AAAAAA\r"`)
	out = run(t, ExitViolation, "replay", trace)
	wantLines(t, out, "reproduced: illegal-opcode")

	// The lost update of txcount: the interrupt sends a byte nobody wrote.
	race := []string{"--sci-input", `\r`, "--max-timer-events", "0", "--max-received", "1", "--expect-output", `\x00`, "--search", "bfs", firmwareQuiet}
	trace = filepath.Join(t.TempDir(), "race.json")
	out = run(t, ExitViolation, append([]string{"check", serialCmdELF, "--trace", trace}, race...)...)
	wantLines(t, out, "violation: output", `serial input (SCI received): "\r"`, `\x00"`)
	run(t, ExitViolation, "replay", trace)

	// The fixed version: no violation within the bounds, reported as
	// incomplete with what was covered and where the firmware waits.
	out = run(t, ExitIncomplete, append([]string{"check", serialFixELF}, race...)...)
	wantLines(t, out, "stopped by the bounds of the exploration", "no violation", "waits:", "<getc_wait+0x5> WAI")
	out = run(t, ExitIncomplete, append([]string{"check", serialFixELF, "--sci-input", `A,\r`, "--max-received", "7"}, idle...)...)
	wantLines(t, out, "no violation", "covered:")
}

// The monitor ROM: its board latch needs --device; run prints what it
// sends; check explores the command loop and reports coverage.
func TestFirmwareMonitor(t *testing.T) {
	_, diag := runSplit(t, ExitViolation, "run", monitorS19)
	wantLines(t, diag, "write of 0xFF to unmapped address 0x4000")
	out, diag := runSplit(t, 0, "run", monitorS19, "--device", "0x4000-0x4001=0x5A", "--sci-input", `L\rS\rD D000\r`)
	wantLines(t, out, "HC11 monitor 1.0", "> L\r\nL01", "> S\r\nS5A", "> D D000\r\n=86")
	wantLines(t, diag, "the firmware waits for input: every --sci-input byte was received")
	if strings.Contains(out, "waits for input") || strings.Contains(diag, "HC11 monitor") {
		t.Errorf("the firmware's output and the diagnostics are mixed:\nstdout %q\nstderr %q", out, diag)
	}
	out = run(t, ExitIncomplete, "check", monitorS19, "--chip", "e9", "--device", "0x4000-0x4001", "--sci-input", `L,S,\r`,
		"--sci-timing", "idle", "--max-received", "3", "--search", "bfs", firmwareQuiet)
	wantLines(t, out, "no violation", "covered:", "waits:", "spins: brclr 0x2e,x, #0x20")
	// With the COP on (CONFIG's NOCOP clear) the monitor, which never
	// services it, is reset while it prints its banner: at 9600 baud
	// (BAUD = 0x30) a byte takes 2080 E cycles on the line, so when the
	// COP's 2^15 cycles are up the sixteenth byte has just gone out, and
	// the firmware polls TDRE for the next.
	out, diag = runSplit(t, ExitViolation, "run", monitorS19, "--device", "0x4000-0x4001", "--config", "0x0B")
	wantLines(t, diag, "violation watchdog after", "at 0xD0DD")
	if strings.TrimSpace(out) != "HC11 monitor 1" {
		t.Errorf("sent before the reset: %q, want the banner's first 16 bytes", out)
	}
	var steps, cycles int
	if _, err := fmt.Sscanf(diag[max(0, strings.Index(diag, "violation")):], "violation watchdog after %d instructions (%d cycles)", &steps, &cycles); err != nil ||
		cycles < 1<<15 || cycles >= 1<<15+7 {
		t.Errorf("watchdog after %d cycles (%v), want within the instruction that reached 2^15", cycles, err)
	}
}

// Harness models keep a plain register block: the environment's flags
// are refused with the reason, unless --peripherals on asks for it.
func TestFirmwareFlagsOnModels(t *testing.T) {
	var out, errb strings.Builder
	model := "../../../../testdata/models/irq_ok.elf"
	if c := Main([]string{"check", model, "--sci-input", "A"}, nil, &out, &errb); c != ExitUsage || !strings.Contains(errb.String(), "harness model") {
		t.Errorf("--sci-input on a harness model: exit %d, %q", c, errb.String())
	}
	got := run(t, 0, "check", model, "--irq", "toc1", "--peripherals", "off", firmwareQuiet)
	wantLines(t, got, "verified")
}

// TestClearedStackRead: firmware that pulls a byte a return left (des;
// des; pula after an RTS) and asserts on it. With the peripherals and
// dead-data elimination those bytes are left out of state keys
// (sim.Config.DeadStack), never changed in the states that execute: the
// uncovering is seen, the search runs again without the elimination and
// says so, and the verdict is that of --reduce none (the hardware reads
// the return address: the assertion holds, and the __mc_error call is
// reached).
func TestClearedStackRead(t *testing.T) {
	// check is the code after the pull: an assertion that A is not 0, or
	// a call of __mc_error when it is not (a bug that reading 0 hides).
	for _, c := range []struct {
		name  string
		check []byte
		want  map[string]string // verdict by --reduce
	}{
		{"assert", []byte{0xBD, 0xD1, 0x00}, map[string]string{"por,dead": "verified", "por": "verified", "none": "verified"}},
		{"error", []byte{0x4D, 0x27, 0x03, 0xBD, 0xD1, 0x02}, map[string]string{"por,dead": "violation", "por": "violation", "none": "violation"}},
	} {
		img := make([]byte, 0x3000) // 0xD000-0xFFFF
		code := []byte{
			0x8E, 0x01, 0xFF, // lds #$01FF
			0xBD, 0xD0, 0x20, // jsr sub: pushes 0xD006 at 0x01FE-0x01FF
			0x34, 0x34, // des; des: uncovers them
			0x32, // pula: A = 0xD0 on the hardware
		}
		code = append(append(code, c.check...), 0x20, 0xFE) // bra *
		copy(img, code)
		img[0x20] = 0x39                    // sub: rts
		img[0x100], img[0x102] = 0x39, 0x39 // __mc_assert, __mc_error
		img[0x2FFE], img[0x2FFF] = 0xD0, 0x00
		file := filepath.Join(t.TempDir(), "stale.bin")
		if err := os.WriteFile(file, img, 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"check", file, "--format", "bin", "--base", "0xD000", "--hook", "__mc_assert=0xD100",
			"--hook", "__mc_error=0xD102", "--peripherals", "on", "--json", "--search", "bfs"}
		for _, reduce := range []string{"por,dead", "por", "none"} {
			r, _ := runJSON(t, append(args, "--reduce", reduce)...)
			if want := c.want[reduce]; r.Verdict != want {
				t.Errorf("%s, --reduce %s: verdict %s (%s), want %s", c.name, reduce, r.Verdict, r.Limit, want)
			}
			if reduce == "por,dead" && c.name == "assert" && !strings.Contains(r.Dead, "without writing") {
				t.Errorf("%s, --reduce %s: the result does not say the elimination was withdrawn: %q", c.name, reduce, r.Dead)
			}
		}
	}
}

// The swarm's verdict line and its member lines say the same: where the
// winner explored every state the bounds allow, the check is incomplete,
// and so is the winner's line, with the check's limit; nothing says
// "verified", and nothing is left in the frontier.
func TestSwarmBoundedNeverVerified(t *testing.T) {
	args := []string{"check", serialFixELF, "--sci-input", `\r`, "--max-timer-events", "0", "--max-received", "1", "--workers", "2", firmwareQuiet}
	out := run(t, ExitIncomplete, args...)
	wantLines(t, out, "incomplete (", "stopped by the bounds of the exploration", "left: 0 states in the frontier",
		"explored within the bounds by member")
	if strings.Contains(out, "verified") {
		t.Errorf("a bounded exploration says verified:\n%s", lastLines(out))
	}
	var res struct {
		Verdict string `json:"verdict"`
		Limit   string `json:"limit"`
		Member  string `json:"member"`
		Members []struct {
			Member, Verdict, Limit string
		} `json:"members"`
	}
	if err := json.Unmarshal([]byte(run(t, ExitIncomplete, append(args, "--json")...)), &res); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range res.Members {
		if m.Verdict == "verified" {
			t.Errorf("member %s verified where the check is %s", m.Member, res.Verdict)
		}
		if m.Member == res.Member {
			found = true
			if m.Verdict != res.Verdict || m.Limit != res.Limit {
				t.Errorf("the winner %s says %s (%s), the check %s (%s)", m.Member, m.Verdict, m.Limit, res.Verdict, res.Limit)
			}
		}
	}
	if !found {
		t.Errorf("no member line for the winner %q in %+v", res.Member, res.Members)
	}
}

// The F1's CONFIG places its EEPROM (EE3-EE0): firmware that keeps its
// settings at 0x0E00, as CONFIG 0x0F puts them, reads them there; with the
// EEPROM where the chip is shipped (0xFE00) the same reads go to nothing.
func TestConfigPlacesEEPROM(t *testing.T) {
	fw := "../../../../testdata/firmware/f1_eeprom.elf"
	out := run(t, 0, "check", fw, "--chip", "f1", "--config", "0x0F", "--search", "bfs", firmwareQuiet)
	wantLines(t, out, "verified (")
	out = run(t, ExitViolation, "check", fw, "--chip", "f1", "--search", "bfs", firmwareQuiet)
	wantLines(t, out, "violation: unmapped", "read of unmapped address 0x0E01")
}
