package symbolic

import (
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/sim/ops"
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// This file is the data half of one instruction over terms: package
// sim/ops's dispatch, the one the simulator runs generated into plain Go,
// instantiated with a machine whose registers, flags and memory writes
// are terms. The control half — the next PC, the shadow call stack,
// cycles, faults — is the concrete simulator's, run beside it (step.go):
// the control methods of ops.Machine do nothing here but record a
// branch's condition. Tests run random programs through both.

// cpu is one thread's registers as terms (8, 8, 16, 16 and 8 bits) and
// its concrete stack pointer, which pushes and pulls move.
type cpu struct {
	A, B, X, Y, CCR *term.Term
	SP              uint16
}

type memWrite struct {
	addr uint16
	val  *term.Term
}

// dataStep is the instruction's effect on data: an ops.Machine over terms.
type dataStep struct {
	term.Domain
	e      *Engine
	c      cpu
	read   func(a uint16) *term.Term // the byte at a; an --input read makes a choice
	writes []memWrite
	// cond is, for a conditional branch, BRSET and BRCLR, the 1-bit
	// condition under which the branch is taken.
	cond *term.Term
}

// newDataStep returns the data half of a step of the registers c.
func (e *Engine) newDataStep(c cpu) *dataStep {
	return &dataStep{Domain: e.D, e: e, c: c}
}

// A returns accumulator A.
func (x *dataStep) A() *term.Term { return x.c.A }

// SetA sets A.
func (x *dataStep) SetA(v *term.Term) { x.c.A = v }

// B returns accumulator B.
func (x *dataStep) B() *term.Term { return x.c.B }

// SetB sets B.
func (x *dataStep) SetB(v *term.Term) { x.c.B = v }

// X returns index register X.
func (x *dataStep) X() *term.Term { return x.c.X }

// SetX sets X.
func (x *dataStep) SetX(v *term.Term) { x.c.X = v }

// Y returns index register Y.
func (x *dataStep) Y() *term.Term { return x.c.Y }

// SetY sets Y.
func (x *dataStep) SetY(v *term.Term) { x.c.Y = v }

// CCR returns the condition codes.
func (x *dataStep) CCR() *term.Term { return x.c.CCR }

// SetCCR sets the condition codes.
func (x *dataStep) SetCCR(v *term.Term) { x.c.CCR = v }

// SetMask sets the condition codes by CLI, TAP or RTI.
func (x *dataStep) SetMask(v *term.Term) { x.SetCCR(v) }

// SP returns the concrete stack pointer.
func (x *dataStep) SP() uint16 { return x.c.SP }

// Read8 returns the byte at a.
func (x *dataStep) Read8(a uint16) *term.Term { return x.read(a) }

// Write8 records the store of v at a.
func (x *dataStep) Write8(a uint16, v *term.Term) { x.writes = append(x.writes, memWrite{a, v}) }

// Push8 stores v at SP and moves SP down.
func (x *dataStep) Push8(v *term.Term) { x.Write8(x.c.SP, v); x.c.SP-- }

// Pull8 moves SP up and returns the byte there.
func (x *dataStep) Pull8() *term.Term { x.c.SP++; return x.read(x.c.SP) }

// The stack pointer's other moves and the control are the concrete
// simulator's: these do nothing.

// LoadSP does nothing: SP is the concrete simulator's.
func (x *dataStep) LoadSP(*term.Term) {}

// StackTop does nothing.
func (x *dataStep) StackTop() {}

// IncSP does nothing: SP is the concrete simulator's.
func (x *dataStep) IncSP() {}

// DecSP does nothing: SP is the concrete simulator's.
func (x *dataStep) DecSP() {}

// Pulled does nothing.
func (x *dataStep) Pulled() {}

// Branch records the condition c; the target is the concrete simulator's.
func (x *dataStep) Branch(c *term.Term, _ uint16) { x.cond = c }

// Jump does nothing.
func (x *dataStep) Jump(uint16) {}

// Frame does nothing.
func (x *dataStep) Frame() {}

// Sched does nothing.
func (x *dataStep) Sched() {}

// ReturnSub does nothing: the return address was made concrete before
// the step, and the concrete simulator pulls it.
func (x *dataStep) ReturnSub(uint16) {}

// ReturnInt does nothing, as ReturnSub.
func (x *dataStep) ReturnInt() {}

// JumpVector does nothing.
func (x *dataStep) JumpVector(int) {}

// SWI reports whether the SWI vector is programmed, as the concrete step
// decides (sim's vectorAt): by the image, or as a RAM pseudo-vector whose
// target holds a non-zero byte. Otherwise the concrete step is a fault,
// which stacks nothing.
func (x *dataStep) SWI(uint16) bool {
	if x.e.M.VectorProgrammed(isa.VecSWI) {
		return true
	}
	t, ok := x.e.M.PseudoVector(isa.VecSWI)
	if !ok {
		return false
	}
	v, known := x.read(t).IsConst()
	return known && v != 0
}

// Wait does nothing.
func (x *dataStep) Wait() {}

// Stop does nothing: the S bit it reads was made concrete.
func (x *dataStep) Stop() {}

// Test does nothing: TEST traps (trap in exec) or is the concrete step's
// violation.
func (x *dataStep) Test(uint16) {}

// exec computes the data effect of in at pc with effective address ea.
// trap says the instruction traps through the illegal-opcode vector (an
// undefined opcode or TEST where sim.Machine.TrapsIllegal): only the frame
// is stacked.
func (x *dataStep) exec(in *isa.Inst, pc, ea uint16, trap bool) {
	if trap {
		ops.Trap(x, pc)
		return
	}
	ops.Exec(x, in, pc, ea)
}
