package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
)

// Waiting in the shapes firmware is written in, under --sci-timing idle
// (sim/wait.go), and what a check says when no input arrived. The bugs
// and the inputs that reach them are those the sources' heads work out by
// hand.

const (
	heaterELF   = "../../../../testdata/firmware/heater.elf"
	heaterFixed = "../../../../testdata/firmware/heater_fixed.elf"
	tickWaitELF = "../../../../testdata/firmware/tick_wait.elf"
	subPollELF  = "../../../../testdata/firmware/sub_poll.elf"
	tickPollELF = "../../../../testdata/firmware/tick_poll.elf"
	rxCountELF  = "../../../../testdata/firmware/rx_count.elf"
)

// idleJSON is what these tests read of check --json.
type idleJSON struct {
	Verdict   string `json:"verdict"`
	Limit     string `json:"limit"`
	Violation *struct {
		Kind string `json:"kind"`
	} `json:"violation"`
	Input *struct {
		Arrivals uint64 `json:"arrivals"`
		Deepest  *int   `json:"deepest"`
		Bound    *int   `json:"bound"`
	} `json:"sci_input_received"`
}

func runIdleJSON(t *testing.T, code int, args ...string) idleJSON {
	t.Helper()
	var out, errb bytes.Buffer
	if c := Main(append(args, "--json"), nil, &out, &errb); c != code {
		t.Fatalf("hc11mc %s --json: exit %d, want %d: %s%s", strings.Join(args, " "), c, code, errb.String(), lastLines(out.String()))
	}
	var r idleJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, lastLines(out.String()))
	}
	return r
}

// heaterIdle checks the heater controller under --sci-timing idle with
// the level command's alphabet.
var heaterIdle = []string{"--sci-input", "L,4", "--sci-timing", "idle", "--max-timer-events", "0", "--search", "bfs", firmwareQuiet}

// TestIdleRingBuffer: the main loop polls a ring buffer in RAM that the
// receive interrupt fills; --sci-timing idle delivers bytes while it
// waits there, and finds the bug of `L' `4' (heater.inc's head); the
// trace replays. The fixed twin ends within its bounds, and says that
// bytes arrived, as many as the bound allows.
func TestIdleRingBuffer(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "heater.json")
	out := run(t, ExitViolation, append([]string{"check", heaterELF, "--trace", trace}, heaterIdle...)...)
	wantLines(t, out, "violation: unmapped", "execution at unmapped address 0x4CD0", `serial input (SCI received): "L4"`)
	out = run(t, ExitViolation, "replay", trace)
	wantLines(t, out, "reproduced: unmapped")

	fixed := append([]string{"check", heaterFixed, "--max-received", "3"}, heaterIdle...)
	out = run(t, ExitIncomplete, fixed...)
	wantLines(t, out, "stopped by the bounds of the exploration", "no violation",
		"input: bytes of --sci-input arrived, up to 3 along an execution",
		// main's seven instructions, from the COP's service to the BEQ.
		"waits: 0xD01C <main> waits in a loop: ldaa #0x55 … beq 0xd01c <main> (7 instructions)")
	if strings.Contains(out, "no byte of --sci-input arrived") {
		t.Errorf("the fixed twin received bytes, but the result says none arrived:\n%s", lastLines(out))
	}
	r := runIdleJSON(t, ExitIncomplete, fixed...)
	if r.Input == nil || r.Input.Arrivals == 0 || r.Input.Deepest == nil || *r.Input.Deepest != 3 || r.Input.Bound == nil || *r.Input.Bound != 3 {
		t.Errorf("sci_input_received: %+v, want arrivals, 3 deep of the bound 3", r.Input)
	}
}

// TestIdleWaitShapes: a main loop waiting for a flag the timer handler
// sets (tick_wait.s; tick_poll.s, which then polls the receiver once a
// tick), and one polling through subroutines that read a count the
// receive interrupt raises (sub_poll.s), are waits: a `2' arrives there
// and reaches the bug of each source's head.
func TestIdleWaitShapes(t *testing.T) {
	for _, c := range []struct {
		elf  string
		more []string
	}{
		{tickWaitELF, []string{"--max-timer-events", "2"}},
		{tickPollELF, []string{"--max-timer-events", "2"}},
		{subPollELF, nil},
	} {
		args := append([]string{"check", c.elf, "--sci-input", "1,2", "--sci-timing", "idle", "--search", "bfs", firmwareQuiet}, c.more...)
		out := run(t, ExitViolation, args...)
		wantLines(t, out, "violation: unmapped", "execution at unmapped address 0x6F6B", `serial input (SCI received): "2"`)
	}
}

// TestIdleNoInputSays: rx_count.s keeps its transmitter busy, so under
// --sci-timing idle (a byte arrives only with the output gone) none ever
// arrives; the bounded result says so, in the limit and in --json.
func TestIdleNoInputSays(t *testing.T) {
	args := []string{"check", rxCountELF, "--sci-input", "A", "--sci-timing", "idle", "--search", "bfs", firmwareQuiet}
	out := run(t, ExitIncomplete, args...)
	wantLines(t, out, "within which no byte of --sci-input arrived in any execution explored")
	r := runIdleJSON(t, ExitIncomplete, args...)
	if r.Input == nil || r.Input.Arrivals != 0 || !strings.Contains(r.Limit, "no byte of --sci-input arrived") {
		t.Errorf("sci_input_received %+v, limit %q: want no arrival, said in the limit", r.Input, r.Limit)
	}
}

// TestInputShortOfBound: a search stopped long before --max-received 200
// bytes could arrive (3000 states, a line of 8 bytes and its processing
// take hundreds) says how many arrived along an execution, and that the
// bound was not reached.
func TestInputShortOfBound(t *testing.T) {
	args := []string{"check", serialFixELF, "--sci-input", `A,\r`, "--sci-timing", "idle", "--max-timer-events", "0",
		"--max-received", "200", "--search", "bfs", "--max-states", "3000", firmwareQuiet}
	out := run(t, ExitIncomplete, args...)
	wantLines(t, out, "stopped by --max-states 3000", "of --sci-input arrived along any execution explored, fewer than --max-received 200")
	r := runIdleJSON(t, ExitIncomplete, args...)
	if r.Input == nil || r.Input.Arrivals == 0 || r.Input.Deepest == nil || *r.Input.Deepest == 0 || *r.Input.Deepest >= 200 {
		t.Errorf("sci_input_received %+v: want some bytes, fewer than 200 along an execution", r.Input)
	}
}

// TestArmedWaitCatches: with the fault armed-wait (a loop that waits for
// an armed interrupt is not a wait) the heater's bug is missed, and the
// check says that no byte arrived: TestIdleRingBuffer catches the fault.
func TestArmedWaitCatches(t *testing.T) {
	restore := mutation.Set(mutation.ArmedWait)
	defer restore()
	r := runIdleJSON(t, ExitIncomplete, append([]string{"check", heaterELF}, heaterIdle...)...)
	if r.Violation != nil || r.Input == nil || r.Input.Arrivals != 0 {
		t.Errorf("armed-wait on: violation %v, sci_input_received %+v; want the bug missed and no byte arrived", r.Violation, r.Input)
	}
}

// TestReceiveOnlyCatches: with the fault receive-only (a byte arrives only
// at a wait the receiver could end) tick_poll.s, which waits for the timer
// and then polls the receiver, never receives its byte: TestIdleWaitShapes
// catches the fault.
func TestReceiveOnlyCatches(t *testing.T) {
	restore := mutation.Set(mutation.ReceiveOnly)
	defer restore()
	r := runIdleJSON(t, ExitIncomplete, "check", tickPollELF, "--sci-input", "1,2", "--sci-timing", "idle", "--max-timer-events", "2", "--search", "bfs", firmwareQuiet)
	if r.Violation != nil || r.Input == nil || r.Input.Arrivals != 0 {
		t.Errorf("receive-only on: violation %v, sci_input_received %+v; want the bug missed and no byte arrived", r.Violation, r.Input)
	}
}
