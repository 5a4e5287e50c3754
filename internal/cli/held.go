package cli

import (
	"fmt"
	"io"

	"github.com/hc11mc/hc11mc/check"
)

// Inputs held constant (check.HeldInputs) are stated with a verdict as the
// properties it could not check are: a line per input with the flag that
// gives it every value, and "inputs_held" in --json.

// maxHeldLines bounds the lines the text output gives held inputs.
const maxHeldLines = 16

// printHeld writes a line per input held constant, each with the flag
// that gives it every value.
func printHeld(w io.Writer, held []check.HeldInput) {
	for i, h := range held {
		if i == maxHeldLines {
			fmt.Fprintf(w, "  input held: %d more (--json lists them)\n", len(held)-i)
			return
		}
		at := fmt.Sprintf("held at 0x%02X", h.Value)
		if h.ReadsBackWrites {
			at = fmt.Sprintf("held at what the firmware last wrote there (0x%02X at power-up)", h.Value)
		}
		if h.Board != "" {
			fmt.Fprintf(w, "  input held: the firmware read board hardware at %s (--device %s), %s — its values: --device %s=v1,v2,...\n",
				h.Addr, h.Board, at, h.Board)
			continue
		}
		what := h.Addr
		if h.Name != "" {
			what = fmt.Sprintf("%s (%s)", h.Name, h.Addr)
		}
		fmt.Fprintf(w, "  input held: the firmware read %s, %s — every value: --input %s\n", what, at, h.Addr)
	}
}
