package check

import (
	"fmt"
	"github.com/hc11mc/hc11mc/verdict"
	"sort"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/units"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// Report is what a check looked at: the properties it checked and those
// it could not, with the reason for each — a verdict is only as wide as
// the first list — and the conditions the verdict holds under. Its JSON
// is the fields of check --json of the same names.
type Report struct {
	Checked   []string    `json:"properties_checked"`
	Unchecked []Unchecked `json:"properties_unchecked,omitempty"`
	// Reductions are the state-space reductions that ran (they keep the
	// verdicts of --reduce none).
	Reductions []string `json:"reductions,omitempty"`
	// Bounds are the bounds put on the firmware's environment
	// (Machine.Bounds), "" for none.
	Bounds string `json:"bounds,omitempty"`
	// Held are the inputs the firmware read that nothing drove: a
	// verdict covers them at the values they held only. Known after the
	// search (HeldInputs).
	Held []HeldInput `json:"inputs_held,omitempty"`
	// Input is what arrived of the --sci-input on firmware with its
	// peripherals, nil without one. Known after the search (Received).
	Input *InputReceived `json:"sci_input_received,omitempty"`
	// Count is, under the abstract clock, where the firmware first read
	// the timer's count, nil where it did not: a condition of the
	// verdict (CountReadOf).
	Count *CountRead `json:"timer_count_read,omitempty"`

	// sciInput says the check was given an --sci-input; maxReceived is
	// its --max-received, nil for none.
	sciInput    bool
	maxReceived *int
	inLimit     bool // Bound named Input's condition in the limit
	resumed     bool // the search went on from a saved frontier (Resumed)
	// maxTimerEvents is the --max-timer-events, nil for none; sciIdle
	// says --sci-timing idle.
	maxTimerEvents *int
	sciIdle        bool
	sciFirst       bool // --sci-timing first
	// withinBounds says Bound made a verified verdict incomplete: the
	// search was exhaustive within the bounds.
	withinBounds bool
	// Frontier and Procedures are, on an incomplete check, where the
	// states went and the coverage per procedure against a plain run
	// (Check.Conclude).
	Frontier   []FrontierSite `json:"frontier,omitempty"`
	Procedures []ProcCoverage `json:"procedures,omitempty"`
}

// Resumed says that the search goes on from a saved frontier (check
// --resume): what arrived on the SCI is counted over this run only.
func (r *Report) Resumed() { r.resumed = true }

// InputReceived is what arrived on the SCI of its --sci-input, as check
// --json's "sci_input_received" gives it: a check in which no byte
// arrived says nothing about the firmware's input, and says so.
type InputReceived struct {
	// Arrivals counts the bytes that arrived, over every path explored
	// (a byte on two paths counts twice); 0: none ever did.
	Arrivals uint64 `json:"arrivals"`
	// Deepest is the most bytes that arrived along one execution, and
	// Bound the --max-received that bounds them (both left out
	// without one).
	Deepest *int `json:"deepest,omitempty"`
	Bound   *int `json:"bound,omitempty"`
	// ThisRun says the counts are this run's, which went on from a saved
	// frontier (--resume): the runs before are not counted.
	ThisRun bool `json:"this_run,omitempty"`
}

// Received fills r.Input with what arrived on the SCI on the machines (the
// members of a swarm each have one), when the check had an --sci-input.
func (r *Report) Received(ms ...*sim.Machine) {
	if !r.sciInput {
		return
	}
	in := &InputReceived{Bound: r.maxReceived, ThisRun: r.resumed}
	deepest := 0
	for _, m := range ms {
		if !m.HasDevice() {
			return
		}
		n, d := m.Received()
		in.Arrivals += n
		deepest = max(deepest, d)
	}
	if r.maxReceived != nil {
		in.Deepest = &deepest
	}
	r.Input = in
}

// Line is what the text of a result says of the input: its condition
// (String), or how much of it arrived.
func (in *InputReceived) Line() string {
	if c := in.String(); c != "" {
		return c
	}
	if in.Deepest != nil {
		return fmt.Sprintf("bytes of --sci-input arrived, up to %d along an execution (%d receive transitions explored)", *in.Deepest, in.Arrivals)
	}
	return fmt.Sprintf("bytes of --sci-input arrived (%d receive transitions explored)", in.Arrivals)
}

// String says what the condition on the input is, "" when every bound
// on the input was reached.
func (in *InputReceived) String() string {
	switch {
	case in == nil:
		return ""
	case in.Bound != nil && *in.Bound == 0:
		return "" // none was asked for
	case in.Arrivals == 0 && in.ThisRun:
		return "no byte of --sci-input arrived in the executions this run explored from the saved frontier (the runs before are not counted)"
	case in.Arrivals == 0:
		return "no byte of --sci-input arrived in any execution explored, so the verdict says nothing about what the firmware does with its input"
	case in.Bound != nil && in.Deepest != nil && *in.Deepest < *in.Bound:
		return fmt.Sprintf("at most %s of --sci-input arrived along any execution explored, fewer than --max-received %d", units.Of(*in.Deepest, "byte"), *in.Bound)
	}
	return ""
}

// Unchecked is a property a check could not look at, and why.
type Unchecked struct {
	Property string `json:"property"`
	Reason   string `json:"reason"`
}

// Properties is m's report (sim.Machine.Properties) with the properties
// ignore turns off moved to the unchecked ones.
func Properties(m *sim.Machine, ignore map[sim.Kind]bool) Report {
	checked, unchecked := m.Properties()
	var r Report
	for _, k := range checked {
		if ignore[k] {
			r.Unchecked = append(r.Unchecked, Unchecked{k.String(), "--ignore"})
			continue
		}
		r.Checked = append(r.Checked, k.String())
	}
	for _, u := range unchecked {
		r.Unchecked = append(r.Unchecked, Unchecked{u.Kind.String(), u.Reason})
	}
	return r
}

// Bound makes a verified result incomplete when the environment was
// bounded: the search was exhaustive within the bounds only — and, when
// fewer bytes of the --sci-input arrived than the bounds allow (none at
// all, say), within what did arrive, which the limit names (Received
// must have run).
func (r *Report) Bound(res *Result) {
	if r.Bounds != "" && res.Verdict == Verified {
		res.Verdict = Incomplete
		r.withinBounds = true
		if c := r.Input.String(); c != "" {
			res.Limit = verdict.Because("the bounds of the exploration (" + r.Bounds + "), within which " + c + ": every state within them was explored, no violation")
			r.inLimit = true
			return
		}
		res.Limit = verdict.Because("the bounds of the exploration (" + r.Bounds + "): every state within them was explored, no violation")
	}
}

// Inputs held constant (sim/held.go) are the input registers and board
// hardware the firmware read that no --input domain or --device value
// list drives. A verdict keeps its name — it is exhaustive for the inputs
// as they were — and states the condition, as it states the properties it
// could not check.

// HeldInput is an input held constant, as check --json's "inputs_held"
// lists it.
type HeldInput struct {
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

// HeldInputs lists the inputs held constant that the firmware read on any
// of the machines (the members of a swarm each have one), by address.
func HeldInputs(img *loader.Image, ms ...*sim.Machine) []HeldInput {
	var chip *devices.Chip
	if p, err := loader.FindChip(img.Chip); err == nil {
		chip, _ = devices.New(p, devices.Options{})
	}
	seen := map[uint16]bool{}
	var out []HeldInput
	for _, m := range ms {
		for _, h := range m.HeldInputs() {
			if seen[h.Addr] {
				continue
			}
			seen[h.Addr] = true
			j := HeldInput{Addr: fmt.Sprintf("0x%04X", h.Addr), Value: h.Value}
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

// String says which input was held and at what, and the setting that
// gives it every value: "the firmware read PORTE (0x100A), held at 0x00 —
// every value: --input 0x100A".
func (h HeldInput) String() string {
	at := fmt.Sprintf("held at 0x%02X", h.Value)
	if h.ReadsBackWrites {
		at = fmt.Sprintf("held at what the firmware last wrote there (0x%02X at power-up)", h.Value)
	}
	if h.Board != "" {
		return fmt.Sprintf("the firmware read board hardware at %s (--device %s), %s — its values: --device %s=v1,v2,...", h.Addr, h.Board, at, h.Board)
	}
	what := h.Addr
	if h.Name != "" {
		what = fmt.Sprintf("%s (%s)", h.Name, h.Addr)
	}
	return fmt.Sprintf("the firmware read %s, %s — every value: --input %s", what, at, h.Addr)
}

// CountRead is where the firmware read the timer's free-running count
// (TCNT, or a capture of it) under the abstract clock, as check --json's
// "timer_count_read" gives it.
type CountRead struct {
	Register string `json:"register"` // its name, e.g. TCNT
	PC       string `json:"pc"`       // the instruction that read it
}

// String is the condition the read puts on a verdict.
func (c *CountRead) String() string {
	return fmt.Sprintf("the firmware read %s (at %s), which the abstract clock sets only at its events "+
		"(0 at an overflow, a compare's value as it fires) and never to the counts between: "+
		"the verdict holds for those counts (--clock exact counts every E cycle)", c.Register, c.PC)
}

// CountReadOf is the first read of the timer's count on any of the
// machines (the members of a swarm each have one; sim.Machine.CountRead),
// nil for none.
func CountReadOf(img *loader.Image, ms ...*sim.Machine) *CountRead {
	var chip *devices.Chip
	if p, err := loader.FindChip(img.Chip); err == nil {
		chip, _ = devices.New(p, devices.Options{})
	}
	for _, m := range ms {
		off, pc, ok := m.CountRead()
		if !ok {
			continue
		}
		name := fmt.Sprintf("the register at offset 0x%02X", off)
		if chip != nil && chip.RegName(off) != "" {
			name = chip.RegName(off)
		}
		return &CountRead{Register: name, PC: fmt.Sprintf("0x%04X", pc)}
	}
	return nil
}
