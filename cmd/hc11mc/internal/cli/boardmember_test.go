package cli

import (
	"encoding/json"
	"github.com/hc11mc/hc11mc/check"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
)

// The board member of the default swarm (package portfolio, board.go):
// on firmware, member 1 searches breadth-first under the exact clock with
// each byte arriving at the first wait after the one before it. The
// inputs the tests expect are those the firmware's sources (and, for
// BUFFALO, the terminal) give: heater.inc's head works out `L' `4'; a
// carriage return is what BUFFALO's sign-on waits for before its prompt.

// boardArgs bound each member, so that a test ends whether or not a
// member decides: two members, the second the board member.
var boardArgs = []string{"--workers", "2", "--max-states", "20000", firmwareQuiet}

// TestBoardMemberHeater: the default check of the ring-buffer heater
// finds the bug of `L' `4' through its board member (the
// over-approximating member, depth-first, does not within its bound),
// and the counterexample replays: on the board member's machine, which
// the trace file records, and under the exact clock with a byte allowed
// at every moment (a violation of the board's model is one of the exact
// clock's).
func TestBoardMemberHeater(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "heater.json")
	out := run(t, ExitViolation, append([]string{"check", heaterELF, "--sci-input", "L,4", "--trace", trace}, boardArgs...)...)
	wantLines(t, out, "member 1/2: board: bfs, exact clock, each byte at the first wait", "violation: unmapped",
		"execution at unmapped address 0x4CD0", `serial input (SCI received): "L4"`,
		"found by member 1/2 (board: bfs, exact clock, each byte at the first wait)")
	out = run(t, ExitViolation, "replay", trace)
	wantLines(t, out, "reproduced: unmapped")

	var tf map[string]any
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &tf); err != nil {
		t.Fatal(err)
	}
	mach, _ := tf["machine"].(map[string]any)
	if mach["clock"] != "exact" || mach["sci_timing"] != "first" {
		t.Fatalf("the trace records the machine %v, want --clock exact --sci-timing first", mach)
	}
	mach["sci_timing"] = "any"
	if b, err = json.Marshal(tf); err != nil {
		t.Fatal(err)
	}
	anyTrace := filepath.Join(t.TempDir(), "heater-any.json")
	if err := os.WriteFile(anyTrace, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out = run(t, ExitViolation, "replay", anyTrace)
	wantLines(t, out, "reproduced: unmapped")
}

// TestBoardMemberBuffalo: the default check of BUFFALO on the EVB runs
// its start-up to the first wait for input and then receives a byte: a
// carriage return, after which BUFFALO prints its prompt (the output
// goal '>'). The over-approximating member, with a byte or a timer event
// at every instruction, does not get there within its bound.
func TestBoardMemberBuffalo(t *testing.T) {
	fw := needBuffalo(t)
	board := filepath.Join("..", "..", "..", "..", "testdata", "boards", "evb.board")
	trace := filepath.Join(t.TempDir(), "buffalo.json")
	out := run(t, ExitViolation, append([]string{"check", fw, "--board", board, "--expect-output", ">", "--trace", trace}, boardArgs...)...)
	wantLines(t, out, "violation: output", `serial input (SCI received): "\r"`,
		"found by member 1/2 (board: bfs, exact clock, each byte at the first wait)")
	out = run(t, ExitViolation, "replay", trace)
	wantLines(t, out, "reproduced: output")
}

// boardProofArgs check wai_tcnt, whose board model the board member
// searches exhaustively in 21,814 states, while the other member stops
// at its bound.
var boardProofArgs = []string{"check", "../../../../testdata/firmware/wai_tcnt.elf", "--workers", "2", "--max-states", "30000", firmwareQuiet}

// TestBoardMemberProofIsConditional: the board member's exhaustive end
// holds for its model only: the check is incomplete, its limit and its
// claim naming the model, never verified; alone (--swarm-member 1/2) as
// well.
func TestBoardMemberProofIsConditional(t *testing.T) {
	for _, args := range [][]string{boardProofArgs, {"check", "../../../../testdata/firmware/wai_tcnt.elf", "--swarm-member", "1/2", firmwareQuiet}} {
		out := run(t, ExitIncomplete, args...)
		wantLines(t, out, "stopped by the bounds of the exploration", "--sci-timing first", "no violation")
		var r struct {
			Verdict string `json:"verdict"`
			Limit   string `json:"limit"`
			Proved  *struct {
				Claim string `json:"claim"`
			} `json:"proved"`
		}
		var o, e strings.Builder
		if c := Main(append(args, "--json"), nil, &o, &e); c != ExitIncomplete {
			t.Fatalf("%v --json: exit %d: %s", args, c, e.String())
		}
		if err := json.Unmarshal([]byte(o.String()), &r); err != nil {
			t.Fatal(err)
		}
		if r.Verdict != "incomplete" || !strings.Contains(r.Limit, "--sci-timing first") || r.Proved == nil ||
			!strings.Contains(r.Proved.Claim, "first wait") {
			t.Errorf("%v --json: verdict %q, limit %q, proved %+v: want incomplete, the board's model named in both", args, r.Verdict, r.Limit, r.Proved)
		}
	}
}

// TestBoardProofCatches: with the fault board-proof (the board member's
// exhaustive end decides as a proof, without its model as a condition)
// the check says verified, which TestBoardMemberProofIsConditional
// refuses.
func TestBoardProofCatches(t *testing.T) {
	restore := mutation.Set(mutation.BoardProof)
	defer restore()
	out := run(t, ExitVerified, boardProofArgs...)
	wantLines(t, out, "verified")
}

// With no --sci-input the board member receives the keys a person types:
// alone (member 1 of the default swarm on the heater) it finds the bug of
// "L4" with no flag at all — over every byte it would take 5.2 million
// states (docs/firmware.md) — and its trace records that alphabet, in
// which every printable ASCII character, carriage return and line feed
// are, and NUL and the bytes above 0x7F are not; the trace replays.
func TestBoardMemberKeyboard(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "heater.json")
	out := run(t, ExitViolation, "check", heaterELF, "--swarm-member", "1/3", "--trace", trace)
	wantLines(t, out, "violation: unmapped", `serial input (SCI received): "L4"`)
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var tf struct {
		Machine struct {
			SCIInput string `json:"sci_input"`
		} `json:"machine"`
	}
	if err := json.Unmarshal(b, &tf); err != nil {
		t.Fatal(err)
	}
	alpha, err := check.ParseAlphabet(tf.Machine.SCIInput)
	if err != nil {
		t.Fatalf("the trace's alphabet %q: %v", tf.Machine.SCIInput, err)
	}
	in := map[byte]bool{}
	for _, c := range alpha {
		in[c] = true
	}
	for c := byte(' '); c <= '~'; c++ {
		if !in[c] {
			t.Errorf("the keyboard's alphabet lacks %q", c)
		}
	}
	if !in['\r'] || !in['\n'] || in[0] || in[0x80] || in[0xFF] {
		t.Errorf("the keyboard's alphabet %q: want \\r and \\n, no NUL, nothing above 0x7F", alpha)
	}
	wantLines(t, run(t, ExitViolation, "replay", trace), "reproduced: unmapped")
}
