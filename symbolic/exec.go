package symbolic

import (
	"fmt"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/sim/alu"
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// This file is the data half of one instruction over terms: what it
// computes into registers, flags and memory, with the arithmetic of
// package sim/alu instantiated with terms. It routes operands exactly as
// sim/exec.go does (which register, which memory byte, in which order);
// the control half — the next PC, the shadow call stack, cycles, faults —
// is the concrete simulator's, run beside it (step.go). Tests run random
// programs through both.

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

// dataStep is the instruction's effect on data.
type dataStep struct {
	e      *Engine
	c      cpu
	read   func(a uint16) *term.Term // the byte at a; an --input read makes a choice
	writes []memWrite
	// cond is, for a conditional branch, BRSET and BRCLR, the 1-bit
	// condition under which the branch is taken.
	cond *term.Term
}

func (x *dataStep) k8(v uint8) *term.Term   { return x.e.B.Const(8, uint64(v)) }
func (x *dataStep) k16(v uint16) *term.Term { return x.e.B.Const(16, uint64(v)) }
func (x *dataStep) d() *term.Term           { return x.e.D.Pair(x.c.A, x.c.B) }
func (x *dataStep) setD(w *term.Term)       { x.c.A, x.c.B = x.e.D.Hi(w), x.e.D.Lo(w) }

func (x *dataStep) write8(a uint16, v *term.Term) {
	x.writes = append(x.writes, memWrite{a, v})
}

func (x *dataStep) read16(a uint16) *term.Term {
	h := x.read(a)
	return x.e.D.Pair(h, x.read(a+1))
}

func (x *dataStep) write16(a uint16, v *term.Term) {
	x.write8(a, x.e.D.Hi(v))
	x.write8(a+1, x.e.D.Lo(v))
}

func (x *dataStep) push8(v *term.Term) { x.write8(x.c.SP, v); x.c.SP-- }
func (x *dataStep) pull8() *term.Term  { x.c.SP++; return x.read(x.c.SP) }
func (x *dataStep) push16(v *term.Term) {
	x.push8(x.e.D.Lo(v))
	x.push8(x.e.D.Hi(v))
}
func (x *dataStep) pull16() *term.Term { h := x.pull8(); return x.e.D.Pair(h, x.pull8()) }

// pushFrame stacks the interrupt frame: PC, Y, X, A, B, CCR.
func (x *dataStep) pushFrame(pc uint16) {
	x.push16(x.k16(pc))
	x.push16(x.c.Y)
	x.push16(x.c.X)
	x.push8(x.c.A)
	x.push8(x.c.B)
	x.push8(x.c.CCR)
}

// vector sets I (and X for XIRQ) as taking a vector does.
func (x *dataStep) vector(v int) {
	m := isa.FlagI
	if v == isa.VecXIRQ {
		m |= isa.FlagX
	}
	x.c.CCR = x.e.B.Or(x.c.CCR, x.k8(m))
}

func (x *dataStep) op8(in *isa.Inst, ea uint16) *term.Term {
	if in.Mode == isa.Imm8 {
		return x.k8(uint8(in.Operand))
	}
	return x.read(ea)
}

func (x *dataStep) op16(in *isa.Inst, ea uint16) *term.Term {
	if in.Mode == isa.Imm16 {
		return x.k16(in.Operand)
	}
	return x.read16(ea)
}

func (x *dataStep) carry() *term.Term { return x.e.B.And(x.c.CCR, x.k8(isa.FlagC)) }

type un8 func(d term.Domain, ccr, b *term.Term) (*term.Term, *term.Term)

func (x *dataStep) rmw(ea uint16, f un8) {
	var v *term.Term
	v, x.c.CCR = f(x.e.D, x.c.CCR, x.read(ea))
	x.write8(ea, v)
}

// exec computes the data effect of in at pc with effective address ea.
// trap says the instruction traps through the illegal-opcode vector (an
// undefined opcode or TEST where sim.Machine.TrapsIllegal): only the frame
// is stacked.
func (x *dataStep) exec(in *isa.Inst, pc, ea uint16, trap bool) {
	d := x.e.D
	c := &x.c
	if trap {
		x.pushFrame(pc)
		x.vector(isa.VecIllegal)
		return
	}
	next := pc + uint16(in.Len)
	switch in.Op {
	case isa.LDAA:
		c.A = x.op8(in, ea)
		c.CCR = alu.Logic8(d, c.CCR, c.A)
	case isa.LDAB:
		c.B = x.op8(in, ea)
		c.CCR = alu.Logic8(d, c.CCR, c.B)
	case isa.LDD:
		v := x.op16(in, ea)
		x.setD(v)
		c.CCR = alu.Logic16(d, c.CCR, v)
	case isa.LDX:
		c.X = x.op16(in, ea)
		c.CCR = alu.Logic16(d, c.CCR, c.X)
	case isa.LDY:
		c.Y = x.op16(in, ea)
		c.CCR = alu.Logic16(d, c.CCR, c.Y)
	case isa.LDS:
		// SP itself is the concrete simulator's (step.go made the
		// operand concrete); the flags are computed here.
		c.CCR = alu.Logic16(d, c.CCR, x.op16(in, ea))
	case isa.STAA:
		x.write8(ea, c.A)
		c.CCR = alu.Logic8(d, c.CCR, c.A)
	case isa.STAB:
		x.write8(ea, c.B)
		c.CCR = alu.Logic8(d, c.CCR, c.B)
	case isa.STD:
		x.write16(ea, x.d())
		c.CCR = alu.Logic16(d, c.CCR, x.d())
	case isa.STX:
		x.write16(ea, c.X)
		c.CCR = alu.Logic16(d, c.CCR, c.X)
	case isa.STY:
		x.write16(ea, c.Y)
		c.CCR = alu.Logic16(d, c.CCR, c.Y)
	case isa.STS:
		x.write16(ea, x.k16(c.SP))
		c.CCR = alu.Logic16(d, c.CCR, x.k16(c.SP))
	case isa.TAB:
		c.B = c.A
		c.CCR = alu.Logic8(d, c.CCR, c.B)
	case isa.TBA:
		c.A = c.B
		c.CCR = alu.Logic8(d, c.CCR, c.A)
	case isa.TAP:
		// X can be cleared but not set by TAP.
		b := x.e.B
		c.CCR = b.Or(b.AndNot(c.A, x.k8(isa.FlagX)), b.And(b.And(c.A, c.CCR), x.k8(isa.FlagX)))
	case isa.TPA:
		c.A = c.CCR
	case isa.TSX:
		c.X = x.k16(c.SP + 1)
	case isa.TSY:
		c.Y = x.k16(c.SP + 1)
	case isa.TXS, isa.TYS, isa.INS, isa.DES:
		// SP only: the concrete simulator's.
	case isa.XGDX:
		v := x.d()
		x.setD(c.X)
		c.X = v
	case isa.XGDY:
		v := x.d()
		x.setD(c.Y)
		c.Y = v

	case isa.ADDA:
		c.A, c.CCR = alu.Add8(d, c.CCR, c.A, x.op8(in, ea), x.k8(0))
	case isa.ADDB:
		c.B, c.CCR = alu.Add8(d, c.CCR, c.B, x.op8(in, ea), x.k8(0))
	case isa.ADCA:
		c.A, c.CCR = alu.Add8(d, c.CCR, c.A, x.op8(in, ea), x.carry())
	case isa.ADCB:
		c.B, c.CCR = alu.Add8(d, c.CCR, c.B, x.op8(in, ea), x.carry())
	case isa.ABA:
		c.A, c.CCR = alu.Add8(d, c.CCR, c.A, c.B, x.k8(0))
	case isa.SUBA:
		c.A, c.CCR = alu.Sub8(d, c.CCR, c.A, x.op8(in, ea), x.k8(0))
	case isa.SUBB:
		c.B, c.CCR = alu.Sub8(d, c.CCR, c.B, x.op8(in, ea), x.k8(0))
	case isa.SBCA:
		c.A, c.CCR = alu.Sub8(d, c.CCR, c.A, x.op8(in, ea), x.carry())
	case isa.SBCB:
		c.B, c.CCR = alu.Sub8(d, c.CCR, c.B, x.op8(in, ea), x.carry())
	case isa.SBA:
		c.A, c.CCR = alu.Sub8(d, c.CCR, c.A, c.B, x.k8(0))
	case isa.CMPA:
		_, c.CCR = alu.Sub8(d, c.CCR, c.A, x.op8(in, ea), x.k8(0))
	case isa.CMPB:
		_, c.CCR = alu.Sub8(d, c.CCR, c.B, x.op8(in, ea), x.k8(0))
	case isa.CBA:
		_, c.CCR = alu.Sub8(d, c.CCR, c.A, c.B, x.k8(0))
	case isa.ANDA:
		c.A = d.And8(c.A, x.op8(in, ea))
		c.CCR = alu.Logic8(d, c.CCR, c.A)
	case isa.ANDB:
		c.B = d.And8(c.B, x.op8(in, ea))
		c.CCR = alu.Logic8(d, c.CCR, c.B)
	case isa.ORAA:
		c.A = d.Or8(c.A, x.op8(in, ea))
		c.CCR = alu.Logic8(d, c.CCR, c.A)
	case isa.ORAB:
		c.B = d.Or8(c.B, x.op8(in, ea))
		c.CCR = alu.Logic8(d, c.CCR, c.B)
	case isa.EORA:
		c.A = d.Xor8(c.A, x.op8(in, ea))
		c.CCR = alu.Logic8(d, c.CCR, c.A)
	case isa.EORB:
		c.B = d.Xor8(c.B, x.op8(in, ea))
		c.CCR = alu.Logic8(d, c.CCR, c.B)
	case isa.BITA:
		c.CCR = alu.Logic8(d, c.CCR, d.And8(c.A, x.op8(in, ea)))
	case isa.BITB:
		c.CCR = alu.Logic8(d, c.CCR, d.And8(c.B, x.op8(in, ea)))
	case isa.DAA:
		c.A, c.CCR = alu.Daa(d, c.CCR, c.A)
	case isa.MUL:
		var p *term.Term
		p, c.CCR = alu.Mul(d, c.CCR, c.A, c.B)
		x.setD(p)
	case isa.IDIV:
		q, r, ccr := alu.Idiv(d, c.CCR, x.d(), c.X)
		c.X, c.CCR = q, ccr
		x.setD(r)
	case isa.FDIV:
		q, r, ccr := alu.Fdiv(d, c.CCR, x.d(), c.X)
		c.X, c.CCR = q, ccr
		x.setD(r)

	case isa.ADDD:
		var v *term.Term
		v, c.CCR = alu.Add16(d, c.CCR, x.d(), x.op16(in, ea))
		x.setD(v)
	case isa.SUBD:
		var v *term.Term
		v, c.CCR = alu.Sub16(d, c.CCR, x.d(), x.op16(in, ea))
		x.setD(v)
	case isa.CPD:
		_, c.CCR = alu.Sub16(d, c.CCR, x.d(), x.op16(in, ea))
	case isa.CPX:
		_, c.CCR = alu.Sub16(d, c.CCR, c.X, x.op16(in, ea))
	case isa.CPY:
		_, c.CCR = alu.Sub16(d, c.CCR, c.Y, x.op16(in, ea))
	case isa.ASLD:
		var v *term.Term
		v, c.CCR = alu.Asl16(d, c.CCR, x.d())
		x.setD(v)
	case isa.LSRD:
		var v *term.Term
		v, c.CCR = alu.Lsr16(d, c.CCR, x.d())
		x.setD(v)
	case isa.ABX:
		c.X = d.Add16(c.X, d.Wide(c.B))
	case isa.ABY:
		c.Y = d.Add16(c.Y, d.Wide(c.B))
	case isa.INX:
		c.X = d.Add16(c.X, x.k16(1))
		c.CCR = alu.ZOnly(d, c.CCR, c.X)
	case isa.DEX:
		c.X = d.Sub16(c.X, x.k16(1))
		c.CCR = alu.ZOnly(d, c.CCR, c.X)
	case isa.INY:
		c.Y = d.Add16(c.Y, x.k16(1))
		c.CCR = alu.ZOnly(d, c.CCR, c.Y)
	case isa.DEY:
		c.Y = d.Sub16(c.Y, x.k16(1))
		c.CCR = alu.ZOnly(d, c.CCR, c.Y)

	case isa.NEGA:
		c.A, c.CCR = alu.Neg8(d, c.CCR, c.A)
	case isa.NEGB:
		c.B, c.CCR = alu.Neg8(d, c.CCR, c.B)
	case isa.NEG:
		x.rmw(ea, alu.Neg8[term.Domain])
	case isa.COMA:
		c.A, c.CCR = alu.Com8(d, c.CCR, c.A)
	case isa.COMB:
		c.B, c.CCR = alu.Com8(d, c.CCR, c.B)
	case isa.COM:
		x.rmw(ea, alu.Com8[term.Domain])
	case isa.LSRA:
		c.A, c.CCR = alu.Lsr8(d, c.CCR, c.A)
	case isa.LSRB:
		c.B, c.CCR = alu.Lsr8(d, c.CCR, c.B)
	case isa.LSR:
		x.rmw(ea, alu.Lsr8[term.Domain])
	case isa.RORA:
		c.A, c.CCR = alu.Ror8(d, c.CCR, c.A)
	case isa.RORB:
		c.B, c.CCR = alu.Ror8(d, c.CCR, c.B)
	case isa.ROR:
		x.rmw(ea, alu.Ror8[term.Domain])
	case isa.ASRA:
		c.A, c.CCR = alu.Asr8(d, c.CCR, c.A)
	case isa.ASRB:
		c.B, c.CCR = alu.Asr8(d, c.CCR, c.B)
	case isa.ASR:
		x.rmw(ea, alu.Asr8[term.Domain])
	case isa.ASLA:
		c.A, c.CCR = alu.Asl8(d, c.CCR, c.A)
	case isa.ASLB:
		c.B, c.CCR = alu.Asl8(d, c.CCR, c.B)
	case isa.ASL:
		x.rmw(ea, alu.Asl8[term.Domain])
	case isa.ROLA:
		c.A, c.CCR = alu.Rol8(d, c.CCR, c.A)
	case isa.ROLB:
		c.B, c.CCR = alu.Rol8(d, c.CCR, c.B)
	case isa.ROL:
		x.rmw(ea, alu.Rol8[term.Domain])
	case isa.DECA:
		c.A, c.CCR = alu.Dec8(d, c.CCR, c.A)
	case isa.DECB:
		c.B, c.CCR = alu.Dec8(d, c.CCR, c.B)
	case isa.DEC:
		x.rmw(ea, alu.Dec8[term.Domain])
	case isa.INCA:
		c.A, c.CCR = alu.Inc8(d, c.CCR, c.A)
	case isa.INCB:
		c.B, c.CCR = alu.Inc8(d, c.CCR, c.B)
	case isa.INC:
		x.rmw(ea, alu.Inc8[term.Domain])
	case isa.TSTA:
		c.CCR = alu.Tst8(d, c.CCR, c.A)
	case isa.TSTB:
		c.CCR = alu.Tst8(d, c.CCR, c.B)
	case isa.TST:
		c.CCR = alu.Tst8(d, c.CCR, x.read(ea))
	case isa.CLRA:
		c.A = x.k8(0)
		c.CCR = alu.Clr8(d, c.CCR)
	case isa.CLRB:
		c.B = x.k8(0)
		c.CCR = alu.Clr8(d, c.CCR)
	case isa.CLR:
		x.write8(ea, x.k8(0))
		c.CCR = alu.Clr8(d, c.CCR)

	case isa.BSET:
		v := d.Or8(x.read(ea), x.k8(in.Mask))
		x.write8(ea, v)
		c.CCR = alu.Logic8(d, c.CCR, v)
	case isa.BCLR:
		v := d.AndNot8(x.read(ea), x.k8(in.Mask))
		x.write8(ea, v)
		c.CCR = alu.Logic8(d, c.CCR, v)
	case isa.BRSET:
		x.cond = d.Eq8(d.AndNot8(x.k8(in.Mask), x.read(ea)), x.k8(0))
	case isa.BRCLR:
		x.cond = d.Eq8(d.And8(x.read(ea), x.k8(in.Mask)), x.k8(0))

	case isa.CLC:
		c.CCR = d.AndNot8(c.CCR, x.k8(isa.FlagC))
	case isa.SEC:
		c.CCR = d.Or8(c.CCR, x.k8(isa.FlagC))
	case isa.CLV:
		c.CCR = d.AndNot8(c.CCR, x.k8(isa.FlagV))
	case isa.SEV:
		c.CCR = d.Or8(c.CCR, x.k8(isa.FlagV))
	case isa.CLI:
		c.CCR = d.AndNot8(c.CCR, x.k8(isa.FlagI))
	case isa.SEI:
		c.CCR = d.Or8(c.CCR, x.k8(isa.FlagI))

	case isa.PSHA:
		x.push8(c.A)
	case isa.PSHB:
		x.push8(c.B)
	case isa.PSHX:
		x.push16(c.X)
	case isa.PSHY:
		x.push16(c.Y)
	case isa.PULA:
		c.A = x.pull8()
	case isa.PULB:
		c.B = x.pull8()
	case isa.PULX:
		c.X = x.pull16()
	case isa.PULY:
		c.Y = x.pull16()

	case isa.BRA, isa.BRN, isa.BHI, isa.BLS, isa.BCC, isa.BCS, isa.BNE, isa.BEQ,
		isa.BVC, isa.BVS, isa.BPL, isa.BMI, isa.BGE, isa.BLT, isa.BGT, isa.BLE:
		x.cond = alu.BranchTaken(d, in.Opcode, c.CCR)
	case isa.JMP:
	case isa.BSR, isa.JSR:
		x.push16(x.k16(next))
	case isa.RTS:
		// The return address is the concrete simulator's (made concrete
		// before the step).
	case isa.RTI:
		b := x.e.B
		ccr := x.pull8()
		c.CCR = b.Or(b.AndNot(ccr, x.k8(isa.FlagX)), b.And(b.And(ccr, c.CCR), x.k8(isa.FlagX)))
		c.B = x.pull8()
		c.A = x.pull8()
		c.X = x.pull16()
		c.Y = x.pull16()
	case isa.SWI:
		x.pushFrame(next)
		x.vector(isa.VecSWI)
	case isa.WAI:
		x.pushFrame(next)
	case isa.STOP, isa.TEST, isa.NOP:
	default:
		panic(fmt.Sprintf("symbolic: no semantics for %v", in.Op))
	}
}
