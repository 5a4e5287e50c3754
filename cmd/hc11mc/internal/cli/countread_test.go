package cli

import (
	"debug/elf"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestTimerCountCondition: under the abstract clock, which sets TCNT only
// at its events, a verdict on firmware that read TCNT names the read as a
// condition (text and --json), and the exact clock's does not: on
// testdata/firmware/wai_tcnt the abstract clock verifies what the exact
// clock finds violated, and only the condition keeps that verified from
// being a wrong one. Firmware that never reads the count gets no such
// condition.
func TestTimerCountCondition(t *testing.T) {
	const fw = "../../../../testdata/firmware/wai_tcnt.elf"
	// The first read of TCNT is _start's fourth instruction, after LDS
	// and LDX immediate (3 bytes each) and CLR indexed (2 bytes): the
	// Reference Manual's instruction lengths, from the symbol table's
	// _start.
	f, err := elf.Open(fw)
	if err != nil {
		t.Fatal(err)
	}
	syms, err := f.Symbols()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var start uint64
	for _, s := range syms {
		if s.Name == "_start" {
			start = s.Value
		}
	}
	if start == 0 {
		t.Fatal("no _start in wai_tcnt.elf")
	}
	wantPC := fmt.Sprintf("0x%04X", start+3+3+2)

	type result struct {
		Verdict    string   `json:"verdict"`
		Conditions []string `json:"clock_conditions"`
		Count      *struct {
			Register string `json:"register"`
			PC       string `json:"pc"`
		} `json:"timer_count_read"`
	}
	check := func(code int, args ...string) result {
		t.Helper()
		var r result
		out := run(t, code, append(append([]string{"check"}, args...), "--json", "-q")...)
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("check %v: %v", args, err)
		}
		return r
	}

	r := check(ExitVerified, fw, "--sci-input", "A")
	if r.Count == nil || r.Count.Register != "TCNT" || r.Count.PC != wantPC {
		t.Errorf("abstract clock: timer_count_read %+v, want TCNT at %s", r.Count, wantPC)
	}
	if !strings.Contains(strings.Join(r.Conditions, "\n"), "read TCNT (at "+wantPC+")") {
		t.Errorf("abstract clock: clock_conditions lack the read of TCNT: %q", r.Conditions)
	}
	if text := run(t, ExitVerified, "check", fw, "--sci-input", "A"); !strings.Contains(text, "condition: the firmware read TCNT (at "+wantPC+")") {
		t.Errorf("abstract clock: the text's conditions lack the read of TCNT:\n%s", lastLines(text))
	}

	if r := check(ExitViolation, fw, "--sci-input", "A", "--clock", "exact"); r.Count != nil || r.Verdict != "violation" {
		t.Errorf("exact clock: verdict %s, timer_count_read %+v: want a violation and no condition on the count", r.Verdict, r.Count)
	}
	if r := check(ExitViolation, "../../../../testdata/firmware/rx_count.elf", "--sci-input", "A"); r.Count != nil {
		t.Errorf("rx_count reads no count: timer_count_read %+v", r.Count)
	}
}
