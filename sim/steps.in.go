//go:build ignore

// This file is not compiled: it is an input of go generate, which writes
// it to ops.go with the instruction dispatch of package ops (sim/ops) in
// place of the statement that calls exec, and the other functions of
// package ops after it (sim/alu/gen). The dispatch sets npc, the next PC,
// and ev, the step's event, or returns from steps. Edit the loop here and
// run go generate; a test fails when ops.go is out of date.

package sim

import (
	"fmt"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// steps executes up to limit instructions of thread x.t, stopping early
// after any that is not a plain instruction (a call, a return, a harness
// call, a violation, a blocked or infeasible step, an access to the
// register block, a write of CCR that may clear I). It returns how many
// ran and the last event. Keeping the loop here, around the dispatch,
// lets the compiler hold the hot values in registers.
func (x *stepper) steps(limit uint64) (uint64, event) {
	t := x.t
	t.Tag = 0
	code := x.lay.code
	stackCheck := len(x.m.stacks) > 0
	pc := t.PC
	for n := uint64(0); n < limit; n++ {
		x.radix = 1
		ce := &code[pc]
		if ce.hook != loader.NoStub {
			return n + 1, x.harness(ce.hook)
		}
		var in *isa.Inst
		var ea uint16
		if ce.ok {
			in = &ce.in
			ea = in.Operand
			switch ce.base {
			case 1:
				ea += t.X
			case 2:
				ea += t.Y
			}
		} else {
			slow, err := x.fetch(pc)
			if err != nil {
				if x.bad {
					return n + 1, evViolation
				}
				return n + 1, x.illegal(pc, slow, "undefined opcode")
			}
			in = &slow
			ea = in.EA(t.X, t.Y)
		}
		t.PrevPC = pc
		t.Cycles += uint64(in.Cycles)
		npc, ev := pc+uint16(in.Len), evOK
		exec(in, pc, ea)
		t.PC = npc
		pc = npc
		if x.stop {
			// A violation, an access to the register block or a write
			// of CCR that may clear I (stepper.stop) ends the run here.
			if x.bad {
				return n + 1, evViolation
			}
			x.stop = false
			if stackCheck {
				x.checkStack(t.PrevPC)
				if x.bad {
					return n + 1, evViolation
				}
			}
			return n + 1, ev
		}
		if stackCheck {
			x.checkStack(t.PrevPC)
			if x.bad {
				return n + 1, evViolation
			}
		}
		if ev != evOK {
			return n + 1, ev
		}
	}
	return limit, evOK
}
