package sim

import (
	"github.com/hc11mc/hc11mc/internal/mutation"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// Placeholders is what an engine that keeps some bytes' values outside
// the State (package symbolic: a term beside a placeholder 0) tells one
// step about them, and the rule the step keeps: a placeholder is never
// read. A data read (a load, a pull, a bit test, the read of a
// read-modify-write, either byte of a word, a harness routine's) of a
// byte Unknown reports, or of an --input address (whose value is a
// choice the engine makes itself), returns the engine's stand-in for it
// (Standins) or, where it gave none, breaks the rule; so does an
// instruction fetch of an Unknown byte among those the decoder looks at.
// A step that breaks the rule records where in Broken and At; its
// successor says nothing about the engine's state, which must not use it.
//
// The check is made in the stepper's read path (read8, fetch) itself, so
// that no instruction, addressing mode or harness routine can read around
// it; only steps given Placeholders make it (the explicit engine's steps
// are unchanged).
type Placeholders struct {
	// Unknown reports whether the byte at a holds a placeholder.
	Unknown func(a uint16) bool
	// Standins are the values data reads get in place of memory, by
	// address: the engine computes the instruction's data itself and
	// chooses these to steer the control the step computes (a BRSET's
	// side), never by writing memory.
	Standins map[uint16]uint8
	// Broken is set by a step that read a placeholder or an --input
	// address without a stand-in; At is the first such address and Fetch
	// says it was an instruction fetch.
	Broken bool
	At     uint16
	Fetch  bool
}

func (p *Placeholders) broke(a uint16, fetch bool) {
	if !p.Broken {
		p.Broken, p.At, p.Fetch = true, a, fetch
	}
}

// watchedRead is read8 on a stepper that watches its reads (privacy
// checked, or Placeholders given): ok says it answered, with v.
func (x *stepper) watchedRead(a uint16) (v uint8, ok bool) {
	if x.g.on {
		x.touchRead(a)
	}
	p := x.ph
	if p == nil {
		return 0, false
	}
	attr := x.lay.attr[a]
	if v, ok := p.Standins[a]; ok {
		if attr == attrRAM && x.m.Config.DeadStack {
			x.deadRead(a, "read")
		}
		return v, true
	}
	if (attr == attrInput || p.Unknown(a)) && !x.phLax {
		p.broke(a, false)
		return 0, true
	}
	return 0, false
}

// fetched checks the bytes an instruction fetch at pc decoded (in, err
// from isa.Decode over n gathered bytes) against x.ph.
func (x *stepper) fetched(pc uint16, in *isa.Inst, err error, n int) {
	need := n
	if err == nil || err == isa.ErrUnrecognized {
		need = int(in.Len)
	}
	for k := range uint16(need) {
		if x.ph.Unknown(pc+k) && !x.phLax {
			x.ph.broke(pc+k, true)
			return
		}
	}
}

// watchPlaceholders sets up x to keep the rule of p (nil: no rule).
func (x *stepper) watchPlaceholders(p *Placeholders) {
	x.ph = p
	x.phLax = p != nil && mutation.On(mutation.PlaceholderRead)
	x.watch = x.watch || p != nil
}
