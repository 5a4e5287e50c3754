package cli

import (
	"fmt"
	"io"
	"sort"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// Inputs held constant (sim/held.go): the input registers and board
// hardware the firmware read that no --input domain or --device value
// list drives. A verdict keeps its name — it is exhaustive for the inputs
// as they were — and states the condition, as it states the properties it
// could not check: a line per input with the flag that gives it every
// value, and "inputs_held" in --json.

// heldJSON is one input held constant, as --json's "inputs_held" lists it.
type heldJSON struct {
	// Addr is the address the firmware read (a register's with the
	// register block where reset puts it).
	Addr string `json:"addr"`
	// Name is the register's name; Board, for board hardware instead,
	// the --device range that holds Addr.
	Name  string `json:"name,omitempty"`
	Board string `json:"board,omitempty"`
	// Value is what the input reads as at power-up.
	Value uint8 `json:"value"`
	// ReadsBackWrites says the input reads what the firmware last wrote
	// there (Value until the first write): a port's output latch, or the
	// register block as plain memory of a harness model.
	ReadsBackWrites bool `json:"reads_back_writes,omitempty"`
}

// heldInputs lists the inputs held constant that the firmware read on any
// of the machines (the members of a swarm each have one), by address.
func heldInputs(img *loader.Image, ms ...*sim.Machine) []heldJSON {
	var chip *devices.Chip
	if p, err := loader.FindChip(img.Chip); err == nil {
		chip, _ = devices.New(p, devices.Options{})
	}
	seen := map[uint16]bool{}
	var out []heldJSON
	for _, m := range ms {
		for _, h := range m.HeldInputs() {
			if seen[h.Addr] {
				continue
			}
			seen[h.Addr] = true
			j := heldJSON{Addr: fmt.Sprintf("0x%04X", h.Addr), Value: h.Value}
			switch {
			case h.Reg < 0:
				for _, r := range m.Config.Board {
					if r.Lo <= h.Addr && h.Addr <= r.Hi {
						j.Board = fmt.Sprintf("0x%04X-0x%04X", r.Lo, r.Hi)
					}
				}
			case chip != nil:
				j.Name = chip.RegName(h.Reg)
				// Without the peripherals the register block is plain
				// memory: every register reads back what was written.
				j.ReadsBackWrites = !m.HasDevice() || chip.ReadsBackWrites(h.Reg)
			}
			out = append(out, j)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
	return out
}

// maxHeldLines bounds the lines the text output gives held inputs.
const maxHeldLines = 16

// printHeld writes a line per input held constant, each with the flag
// that gives it every value.
func printHeld(w io.Writer, held []heldJSON) {
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
