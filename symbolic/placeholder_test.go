package symbolic

import (
	"context"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/sim"
)

// TestPlaceholderUnsupported: a step whose control the terms cannot give
// and that would read a placeholder — RTS with its return address in
// --input addresses (SP pointed below them) — stops the run as
// unsupported: incomplete, never verified. The explicit engine follows
// each return address the inputs list.
func TestPlaceholderUnsupported(t *testing.T) {
	code := []byte{
		0x8E, 0x01, 0xFF, // lds #$01FF: the stack's top
		0x8E, 0x10, 0x30, // lds #$1030: RTS pulls 0x1031, 0x1032
		0x39, // rts, to 0xD000 or 0xD003
	}
	m := codeMachine(t, code, sim.Config{Preempt: sim.PreemptEvery, Inputs: map[uint16][]uint8{0x1031: {0xD0}, 0x1032: {0x00, 0x03}}}, nil)
	for _, branch := range []int{0, 16} {
		e, err := NewEngine(m, Options{MaxBranch: branch})
		if err != nil {
			t.Fatal(err)
		}
		res := e.Check(context.Background(), []*State{e.Initial()}, Config{MaxStates: 1000})
		if res.Verdict != Incomplete || !strings.Contains(res.Limit.String(), "placeholder") {
			t.Errorf("max-branch %d: %v (%s), want incomplete: the step would read a placeholder", branch, res.Verdict, res.Limit)

		}
	}
}
