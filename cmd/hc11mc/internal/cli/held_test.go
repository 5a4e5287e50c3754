package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/portfolio"
)

const (
	switchesELF = "../../../../testdata/firmware/switches.elf"
	portPollELF = "../../../../testdata/models/port_poll.elf"
)

// heldResult is the part of check's --json these tests read.
type heldResult struct {
	Verdict   string            `json:"verdict"`
	Violation *cex.Violation    `json:"violation"`
	Held      []check.HeldInput `json:"inputs_held"`
	raw       map[string]json.RawMessage
}

// checkHeld runs check with --json and reads inputs_held.
func checkHeld(t *testing.T, want int, args ...string) heldResult {
	t.Helper()
	out := run(t, want, append(append([]string{"check"}, args...), "--json")...)
	var r heldResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %v: %s", args, err, out)
	}
	if err := json.Unmarshal([]byte(out), &r.raw); err != nil {
		t.Fatal(err)
	}
	return r
}

// A real firmware that reads PORTE and ADR1, given no --input: verified,
// and the verdict says both inputs were held at 0 and how to give them
// every value; doing so finds the bug the held value hid.
func TestHeldInputsFirmware(t *testing.T) {
	out := run(t, ExitVerified, "check", switchesELF, "-q")
	wantLines(t, out, "verified (properties checked:",
		"input held: the firmware read PORTE (0x100A), held at 0x00 — every value: --input 0x100A",
		"input held: the firmware read ADR1 (0x1031), held at 0x00 — every value: --input 0x1031")

	for _, search := range [][]string{nil, {"--search", "bfs"}} {
		r := checkHeld(t, ExitVerified, append([]string{switchesELF}, search...)...)
		want := []check.HeldInput{{Addr: "0x100A", Name: "PORTE"}, {Addr: "0x1031", Name: "ADR1"}}
		if r.Verdict != "verified" || !slices.Equal(r.Held, want) {
			t.Errorf("%v: verdict %s, inputs_held %+v; want %+v", search, r.Verdict, r.Held, want)
		}
	}

	// --input covers PORTE, with one value or with every one.
	r := checkHeld(t, ExitVerified, switchesELF, "--input", "0x100A=0")
	if !slices.Equal(r.Held, []check.HeldInput{{Addr: "0x1031", Name: "ADR1"}}) {
		t.Errorf("--input 0x100A=0: inputs_held %+v, want ADR1 alone", r.Held)
	}
	// ADR1 given three values: an --input covers the register whatever
	// its values (every one of them, --input ADR1, multiplies the states
	// by each read of the converter: minutes, for the same question).
	r = checkHeld(t, ExitVerified, switchesELF, "--input", "0x100A=0", "--input", "ADR1=0,0x80,0xFF")
	if _, ok := r.raw["inputs_held"]; ok || r.Verdict != "verified" {
		t.Errorf("every input covered: verdict %s, inputs_held %s", r.Verdict, r.raw["inputs_held"])
	}
	out = run(t, ExitVerified, "check", switchesELF, "--input", "0x100A=0", "--input", "ADR1=0,0x80,0xFF", "-q")
	if strings.Contains(out, "input held") {
		t.Errorf("every input covered, and still a held input:\n%s", out)
	}
	r = checkHeld(t, ExitViolation, switchesELF, "--input", "0x100A")
	if r.Violation == nil || r.Violation.Kind != "rom-write" {
		t.Errorf("--input 0x100A: %+v", r.Violation)
	}
}

// A harness model: its register block is plain memory, so a read of PORTE
// is held at what was last written there; --engine hmc reports it too;
// a model that reads no input register reports none.
func TestHeldInputsHarnessModel(t *testing.T) {
	out := run(t, ExitVerified, "check", portPollELF, "-q")
	wantLines(t, out, "input held: the firmware read PORTE (0x100A), held at what the firmware last wrote there (0x00 at power-up) — every value: --input 0x100A")
	want := []check.HeldInput{{Addr: "0x100A", Name: "PORTE", ReadsBackWrites: true}}
	for _, args := range [][]string{{portPollELF}, {portPollELF, "--engine", "hmc"}, {portPollELF, "--engine", "auto"}} {
		r := checkHeld(t, ExitVerified, args...)
		if !slices.Equal(r.Held, want) {
			t.Errorf("%v: inputs_held %+v, want %+v", args[1:], r.Held, want)
		}
	}
	out = run(t, ExitVerified, "check", portPollELF, "--engine", "hmc", "-q")
	wantLines(t, out, "input held: the firmware read PORTE (0x100A)")
	r := checkHeld(t, ExitVerified, portPollELF, "--input", "0x100A=0,1")
	if _, ok := r.raw["inputs_held"]; ok {
		t.Errorf("--input 0x100A=0,1: inputs_held %s", r.raw["inputs_held"])
	}
	r = checkHeld(t, ExitVerified, "../../../../testdata/models/assert_ok.elf")
	if _, ok := r.raw["inputs_held"]; ok {
		t.Errorf("assert_ok reads RAM only: inputs_held %s", r.raw["inputs_held"])
	}
}

// Board hardware read without values is held at 0; with values it is not.
func TestHeldInputsBoard(t *testing.T) {
	args := []string{monitorS19, "--chip", "e9", "--sci-input", `L,S,\r`, "--sci-timing", "idle", "--max-received", "3", "--search", "bfs"}
	r := checkHeld(t, ExitIncomplete, append(args, "--device", "0x4000-0x4001")...)
	if !slices.Equal(r.Held, []check.HeldInput{{Addr: "0x4001", Board: "0x4000-0x4001"}}) {
		t.Errorf("inputs_held %+v, want the status byte at 0x4001", r.Held)
	}
	out := run(t, ExitIncomplete, append(append([]string{"check"}, args...), "--device", "0x4000-0x4001", "-q")...)
	wantLines(t, out, "input held: the firmware read board hardware at 0x4001 (--device 0x4000-0x4001), held at 0x00 — its values: --device 0x4000-0x4001=v1,v2,...")
	r = checkHeld(t, ExitIncomplete, append(args, "--device", "0x4000-0x4001=0,0x80")...)
	if _, ok := r.raw["inputs_held"]; ok {
		t.Errorf("with values: inputs_held %s", r.raw["inputs_held"])
	}
}

// The members of a swarm run apart report what they read; swarm merge
// unites it.
func TestHeldInputsSwarmMerge(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, member := range []string{"0/2", "1/2"} {
		// The abstract clock named: member 1 is then no board member,
		// whose proof would hold for the board's model only.
		out := run(t, ExitVerified, "check", switchesELF, "--swarm-member", member, "--clock", "abstract", "--json")
		f := filepath.Join(dir, strings.Replace(member, "/", "-", 1)+".json")
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var out, errb bytes.Buffer
	if c := Main(append([]string{"swarm", "merge", "--json"}, files...), nil, &out, &errb); c != ExitVerified {
		t.Fatalf("merge: exit %d: %s", c, errb.String())
	}
	var m portfolio.Merged
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Held, []check.HeldInput{{Addr: "0x100A", Name: "PORTE"}, {Addr: "0x1031", Name: "ADR1"}}) {
		t.Errorf("merged inputs_held %+v", m.Held)
	}
	out.Reset()
	Main(append([]string{"swarm", "merge"}, files...), nil, &out, &errb)
	wantLines(t, out.String(), "input held: the firmware read PORTE (0x100A)")
}
