package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/cex"
)

const (
	illopTrapELF = "../../../../testdata/models/illop_trap.elf"
	swiUnsetELF  = "../../../../testdata/models/swi_unset.elf"
)

// An illegal opcode is a violation although the firmware programs the
// illegal-opcode trap; the message says where the trap would go.
func TestIllegalOpcodeThroughTrap(t *testing.T) {
	out := run(t, ExitViolation, "check", illopTrapELF, "--search", "bfs", "-q")
	wantLines(t, out, "violation: illegal-opcode", "undefined opcode 41 at 0xD02D",
		"the illegal-opcode vector at 0xFFF8 goes to 0xD025", "counterexample: 7 transitions")

	var r struct {
		Verdict   string         `json:"verdict"`
		Violation *cex.Violation `json:"violation"`
	}
	out = run(t, ExitViolation, "check", illopTrapELF, "--json")
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Verdict != "violation" || r.Violation == nil || r.Violation.Kind != "illegal-opcode" || r.Violation.PC != "0xD02D" {
		t.Errorf("--json: %s", out)
	}
}

// --ignore illegal-opcode: the search goes on through the trap and finds
// what lies behind it; the trace says so, and replays only on a machine
// that takes the trap.
func TestIgnoreIllegalGoesOnThroughTrap(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trap.json")
	out := run(t, ExitViolation, "check", illopTrapELF, "--ignore", "illegal-opcode", "--search", "bfs", "--trace", trace, "-q")
	wantLines(t, out, "violation: error", "<restarted>: __mc_error called", "counterexample: 14 transitions",
		"0xD02D <version>             .byte 0x41", "0xD025 <recover>")
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"ignore_illegal": true`) {
		t.Errorf("the trace does not record the trap:\n%s", b)
	}
	out = run(t, ExitViolation, "replay", trace)
	wantLines(t, out, "reproduced: error")

	// The same trace on a machine that stops at the illegal opcode does
	// not replay.
	plain := filepath.Join(t.TempDir(), "plain.json")
	if err := os.WriteFile(plain, bytes.Replace(b, []byte(`"ignore_illegal": true`), []byte(`"ignore_illegal": false`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	var o, e bytes.Buffer
	if code := Main([]string{"replay", plain}, nil, &o, &e); code != ExitNoReplay {
		t.Errorf("replay without the trap: exit %d, want %d: %s", code, ExitNoReplay, e.String())
	}

	// The swarm, and the symbolic engine, agree.
	r, code := runJSON(t, "check", illopTrapELF, "--ignore", "illegal-opcode", "--json")
	if code != ExitViolation || r.Violation == nil || r.Violation.Kind != "error" || r.TraceLength != 14 {
		t.Errorf("swarm: exit %d %+v, trace %d", code, r.Violation, r.TraceLength)
	}
	r, code = runJSON(t, "check", illopTrapELF, "--ignore", "illegal-opcode", "--engine", "hmc", "--json")
	if code != ExitViolation || r.Violation == nil || r.Violation.Kind != "error" {
		t.Errorf("--engine hmc: exit %d %+v", code, r.Violation)
	}
	r, code = runJSON(t, "check", illopTrapELF, "--engine", "hmc", "--json")
	if code != ExitViolation || r.Violation == nil || r.Violation.Kind != "illegal-opcode" {
		t.Errorf("--engine hmc without --ignore: exit %d %+v", code, r.Violation)
	}
}

// SWI through a vector the image leaves 0 is an illegal-opcode violation;
// ignored, the path ends there and nothing else is wrong.
func TestSWIUnprogrammed(t *testing.T) {
	out := run(t, ExitViolation, "check", swiUnsetELF, "--search", "bfs", "-q")
	wantLines(t, out, "violation: illegal-opcode",
		"swi through the SWI vector at 0xFFF6, which is not programmed: it holds 0x0000")
	out = run(t, ExitVerified, "check", swiUnsetELF, "--ignore", "illegal-opcode", "-q")
	wantLines(t, out, "verified (properties checked:", "not checked: illegal-opcode (--ignore)")
}
