// Package ops is what each 68HC11 instruction does, written once, over a
// machine: one generic function, Exec, dispatches on the operation and
// says which operand is read, which register, flag and memory byte
// changes, what is pushed and pulled, and where the control goes, with the
// condition-code arithmetic of package sim/alu.
//
// It is the single source of the instruction semantics for both engines.
// Package symbolic instantiates it with bit-vector terms (its Machine keeps
// registers and memory writes as terms and ignores the control, which the
// concrete simulator runs beside it). Package sim does not call it: `go
// generate` in sim turns this file into sim/ops.go over plain values,
// Exec's body written into the simulator's loop (sim/steps.in.go) and the
// other functions methods of sim's stepper, with each Machine method
// replaced by the Go code it stands for in the simulator (a register
// field, a memory access, the shadow call stack, a scheduling event), as
// it turns package alu into sim/alu.go and for the same reason: generic
// code calls a type parameter's methods through a dictionary, which the
// simulator's hot loop cannot afford. A test in sim/alu/gen fails when the
// generated file is out of date.
//
// It is not the place for what one engine alone needs: fetching and
// decoding, cycles, faults, interrupts' selection, the symbolic engine's
// concretisation of addresses. Those call in here (PushFrame, Vector,
// Interrupt, Trap) where they stack; the engine jumps.
//
// The rules of package alu hold here too: a function may branch only on Go
// values that are the same in every domain (an opcode, an address, the
// concrete stack pointer); a choice that depends on data goes through a
// Machine method (Branch) or is an Ite.
package ops

import (
	"fmt"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/sim/alu"
)

// Machine is one thread of a machine seen by an instruction: its
// registers and the condition codes as values of the domain (B bytes, W
// words, F truth values), its stack pointer as a plain address (both
// engines keep it concrete), memory, and the control it passes to. Methods
// an engine has no use for do nothing there (the symbolic engine's control
// methods). Only Exec calls the control methods that end or redirect the
// instruction (Branch, Jump, JumpVector, Sched, ReturnSub, ReturnInt,
// Wait, Stop, Test): the simulator's code for them sets its dispatch's
// results.
type Machine[B, W, F any] interface {
	alu.Domain[B, W, F]

	A() B       // accumulator A
	SetA(v B)   // A = v
	B() B       // accumulator B
	SetB(v B)   // B = v
	X() W       // index register X
	SetX(v W)   // X = v
	Y() W       // index register Y
	SetY(v W)   // Y = v
	CCR() B     // the condition codes
	SetCCR(v B) // CCR = v
	// SetMask is SetCCR by an instruction that may clear I (CLI, TAP,
	// RTI): an interrupt may be taken after it.
	SetMask(v B)
	SP() uint16 // the stack pointer

	Read8(a uint16) B     // the byte at a
	Write8(a uint16, v B) // store v at a
	Push8(v B)            // store v at SP, then SP--
	Pull8() B             // SP++, then the byte at SP

	// LoadSP sets SP to v (LDS, TXS, TYS), StackTop says that SP was just
	// loaded by LDS, IncSP and DecSP are INS and DES, and Pulled follows
	// the pulls of PULA … PULY: the stack pointer's moves other than
	// pushes and pulls, which the simulator watches.
	LoadSP(v W)
	StackTop()
	IncSP()
	DecSP()
	Pulled()

	// Branch goes to target if c holds; Jump goes there. Frame follows the
	// push of a return address (a call or an interrupt frame), Sched says
	// that a scheduling point follows the instruction.
	Branch(c F, target uint16)
	Jump(target uint16)
	Frame()
	Sched()
	// ReturnSub is RTS at pc, ReturnInt pulls RTI's return address once
	// the registers are pulled. JumpVector jumps through interrupt vector
	// v. SWI reports whether SWI at pc goes through its vector (rather than
	// being a fault). Wait is WAI after its frame, Stop is STOP, Test is
	// TEST at pc.
	ReturnSub(pc uint16)
	ReturnInt()
	JumpVector(v int)
	SWI(pc uint16) bool
	Wait()
	Stop()
	Test(pc uint16)
}

// Exec executes in, at pc with effective address ea (the operand plus the
// index register in the indexed modes).
func Exec[M Machine[B, W, F], B, W, F any](m M, in *isa.Inst, pc, ea uint16) {
	next := pc + uint16(in.Len)
	switch in.Op {
	// Loads, stores, transfers.
	case isa.LDAA:
		m.SetA(op8(m, in, ea))
		m.SetCCR(alu.Logic8(m, m.CCR(), m.A()))
	case isa.LDAB:
		m.SetB(op8(m, in, ea))
		m.SetCCR(alu.Logic8(m, m.CCR(), m.B()))
	case isa.LDD:
		v := op16(m, in, ea)
		setD(m, v)
		m.SetCCR(alu.Logic16(m, m.CCR(), v))
	case isa.LDX:
		m.SetX(op16(m, in, ea))
		m.SetCCR(alu.Logic16(m, m.CCR(), m.X()))
	case isa.LDY:
		m.SetY(op16(m, in, ea))
		m.SetCCR(alu.Logic16(m, m.CCR(), m.Y()))
	case isa.LDS:
		v := op16(m, in, ea)
		m.LoadSP(v)
		m.SetCCR(alu.Logic16(m, m.CCR(), v))
		m.StackTop()
	case isa.STAA:
		m.Write8(ea, m.A())
		m.SetCCR(alu.Logic8(m, m.CCR(), m.A()))
	case isa.STAB:
		m.Write8(ea, m.B())
		m.SetCCR(alu.Logic8(m, m.CCR(), m.B()))
	case isa.STD:
		write16(m, ea, d(m))
		m.SetCCR(alu.Logic16(m, m.CCR(), d(m)))
	case isa.STX:
		write16(m, ea, m.X())
		m.SetCCR(alu.Logic16(m, m.CCR(), m.X()))
	case isa.STY:
		write16(m, ea, m.Y())
		m.SetCCR(alu.Logic16(m, m.CCR(), m.Y()))
	case isa.STS:
		write16(m, ea, m.K16(m.SP()))
		m.SetCCR(alu.Logic16(m, m.CCR(), m.K16(m.SP())))
	case isa.TAB:
		m.SetB(m.A())
		m.SetCCR(alu.Logic8(m, m.CCR(), m.B()))
	case isa.TBA:
		m.SetA(m.B())
		m.SetCCR(alu.Logic8(m, m.CCR(), m.A()))
	case isa.TAP:
		m.SetMask(keepX(m, m.A(), m.CCR()))
	case isa.TPA:
		m.SetA(m.CCR())
	case isa.TSX:
		m.SetX(m.K16(m.SP() + 1))
	case isa.TSY:
		m.SetY(m.K16(m.SP() + 1))
	case isa.TXS:
		m.LoadSP(m.Sub16(m.X(), m.K16(1)))
	case isa.TYS:
		m.LoadSP(m.Sub16(m.Y(), m.K16(1)))
	case isa.XGDX:
		v := d(m)
		setD(m, m.X())
		m.SetX(v)
	case isa.XGDY:
		v := d(m)
		setD(m, m.Y())
		m.SetY(v)

	// 8-bit arithmetic.
	case isa.ADDA:
		r, c := alu.Add8(m, m.CCR(), m.A(), op8(m, in, ea), m.K8(0))
		m.SetA(r)
		m.SetCCR(c)
	case isa.ADDB:
		r, c := alu.Add8(m, m.CCR(), m.B(), op8(m, in, ea), m.K8(0))
		m.SetB(r)
		m.SetCCR(c)
	case isa.ADCA:
		r, c := alu.Add8(m, m.CCR(), m.A(), op8(m, in, ea), carry(m))
		m.SetA(r)
		m.SetCCR(c)
	case isa.ADCB:
		r, c := alu.Add8(m, m.CCR(), m.B(), op8(m, in, ea), carry(m))
		m.SetB(r)
		m.SetCCR(c)
	case isa.ABA:
		r, c := alu.Add8(m, m.CCR(), m.A(), m.B(), m.K8(0))
		m.SetA(r)
		m.SetCCR(c)
	case isa.SUBA:
		r, c := alu.Sub8(m, m.CCR(), m.A(), op8(m, in, ea), m.K8(0))
		m.SetA(r)
		m.SetCCR(c)
	case isa.SUBB:
		r, c := alu.Sub8(m, m.CCR(), m.B(), op8(m, in, ea), m.K8(0))
		m.SetB(r)
		m.SetCCR(c)
	case isa.SBCA:
		r, c := alu.Sub8(m, m.CCR(), m.A(), op8(m, in, ea), carry(m))
		m.SetA(r)
		m.SetCCR(c)
	case isa.SBCB:
		r, c := alu.Sub8(m, m.CCR(), m.B(), op8(m, in, ea), carry(m))
		m.SetB(r)
		m.SetCCR(c)
	case isa.SBA:
		r, c := alu.Sub8(m, m.CCR(), m.A(), m.B(), m.K8(0))
		m.SetA(r)
		m.SetCCR(c)
	case isa.CMPA:
		_, c := alu.Sub8(m, m.CCR(), m.A(), op8(m, in, ea), m.K8(0))
		m.SetCCR(c)
	case isa.CMPB:
		_, c := alu.Sub8(m, m.CCR(), m.B(), op8(m, in, ea), m.K8(0))
		m.SetCCR(c)
	case isa.CBA:
		_, c := alu.Sub8(m, m.CCR(), m.A(), m.B(), m.K8(0))
		m.SetCCR(c)
	case isa.ANDA:
		m.SetA(m.And8(m.A(), op8(m, in, ea)))
		m.SetCCR(alu.Logic8(m, m.CCR(), m.A()))
	case isa.ANDB:
		m.SetB(m.And8(m.B(), op8(m, in, ea)))
		m.SetCCR(alu.Logic8(m, m.CCR(), m.B()))
	case isa.ORAA:
		m.SetA(m.Or8(m.A(), op8(m, in, ea)))
		m.SetCCR(alu.Logic8(m, m.CCR(), m.A()))
	case isa.ORAB:
		m.SetB(m.Or8(m.B(), op8(m, in, ea)))
		m.SetCCR(alu.Logic8(m, m.CCR(), m.B()))
	case isa.EORA:
		m.SetA(m.Xor8(m.A(), op8(m, in, ea)))
		m.SetCCR(alu.Logic8(m, m.CCR(), m.A()))
	case isa.EORB:
		m.SetB(m.Xor8(m.B(), op8(m, in, ea)))
		m.SetCCR(alu.Logic8(m, m.CCR(), m.B()))
	case isa.BITA:
		m.SetCCR(alu.Logic8(m, m.CCR(), m.And8(m.A(), op8(m, in, ea))))
	case isa.BITB:
		m.SetCCR(alu.Logic8(m, m.CCR(), m.And8(m.B(), op8(m, in, ea))))
	case isa.DAA:
		r, c := alu.Daa(m, m.CCR(), m.A())
		m.SetA(r)
		m.SetCCR(c)
	case isa.MUL:
		p, c := alu.Mul(m, m.CCR(), m.A(), m.B())
		setD(m, p)
		m.SetCCR(c)
	case isa.IDIV:
		q, r, c := alu.Idiv(m, m.CCR(), d(m), m.X())
		m.SetX(q)
		setD(m, r)
		m.SetCCR(c)
	case isa.FDIV:
		q, r, c := alu.Fdiv(m, m.CCR(), d(m), m.X())
		m.SetX(q)
		setD(m, r)
		m.SetCCR(c)

	// 16-bit arithmetic.
	case isa.ADDD:
		r, c := alu.Add16(m, m.CCR(), d(m), op16(m, in, ea))
		setD(m, r)
		m.SetCCR(c)
	case isa.SUBD:
		r, c := alu.Sub16(m, m.CCR(), d(m), op16(m, in, ea))
		setD(m, r)
		m.SetCCR(c)
	case isa.CPD:
		_, c := alu.Sub16(m, m.CCR(), d(m), op16(m, in, ea))
		m.SetCCR(c)
	case isa.CPX:
		_, c := alu.Sub16(m, m.CCR(), m.X(), op16(m, in, ea))
		m.SetCCR(c)
	case isa.CPY:
		_, c := alu.Sub16(m, m.CCR(), m.Y(), op16(m, in, ea))
		m.SetCCR(c)
	case isa.ASLD:
		r, c := alu.Asl16(m, m.CCR(), d(m))
		setD(m, r)
		m.SetCCR(c)
	case isa.LSRD:
		r, c := alu.Lsr16(m, m.CCR(), d(m))
		setD(m, r)
		m.SetCCR(c)
	case isa.ABX:
		m.SetX(m.Add16(m.X(), m.Wide(m.B())))
	case isa.ABY:
		m.SetY(m.Add16(m.Y(), m.Wide(m.B())))
	case isa.INX:
		m.SetX(m.Add16(m.X(), m.K16(1)))
		m.SetCCR(alu.ZOnly(m, m.CCR(), m.X()))
	case isa.DEX:
		m.SetX(m.Sub16(m.X(), m.K16(1)))
		m.SetCCR(alu.ZOnly(m, m.CCR(), m.X()))
	case isa.INY:
		m.SetY(m.Add16(m.Y(), m.K16(1)))
		m.SetCCR(alu.ZOnly(m, m.CCR(), m.Y()))
	case isa.DEY:
		m.SetY(m.Sub16(m.Y(), m.K16(1)))
		m.SetCCR(alu.ZOnly(m, m.CCR(), m.Y()))
	case isa.INS:
		m.IncSP()
	case isa.DES:
		m.DecSP()

	// Read-modify-write on A, B or memory.
	case isa.NEGA:
		r, c := alu.Neg8(m, m.CCR(), m.A())
		m.SetA(r)
		m.SetCCR(c)
	case isa.NEGB:
		r, c := alu.Neg8(m, m.CCR(), m.B())
		m.SetB(r)
		m.SetCCR(c)
	case isa.NEG:
		r, c := alu.Neg8(m, m.CCR(), m.Read8(ea))
		m.Write8(ea, r)
		m.SetCCR(c)
	case isa.COMA:
		r, c := alu.Com8(m, m.CCR(), m.A())
		m.SetA(r)
		m.SetCCR(c)
	case isa.COMB:
		r, c := alu.Com8(m, m.CCR(), m.B())
		m.SetB(r)
		m.SetCCR(c)
	case isa.COM:
		r, c := alu.Com8(m, m.CCR(), m.Read8(ea))
		m.Write8(ea, r)
		m.SetCCR(c)
	case isa.LSRA:
		r, c := alu.Lsr8(m, m.CCR(), m.A())
		m.SetA(r)
		m.SetCCR(c)
	case isa.LSRB:
		r, c := alu.Lsr8(m, m.CCR(), m.B())
		m.SetB(r)
		m.SetCCR(c)
	case isa.LSR:
		r, c := alu.Lsr8(m, m.CCR(), m.Read8(ea))
		m.Write8(ea, r)
		m.SetCCR(c)
	case isa.RORA:
		r, c := alu.Ror8(m, m.CCR(), m.A())
		m.SetA(r)
		m.SetCCR(c)
	case isa.RORB:
		r, c := alu.Ror8(m, m.CCR(), m.B())
		m.SetB(r)
		m.SetCCR(c)
	case isa.ROR:
		r, c := alu.Ror8(m, m.CCR(), m.Read8(ea))
		m.Write8(ea, r)
		m.SetCCR(c)
	case isa.ASRA:
		r, c := alu.Asr8(m, m.CCR(), m.A())
		m.SetA(r)
		m.SetCCR(c)
	case isa.ASRB:
		r, c := alu.Asr8(m, m.CCR(), m.B())
		m.SetB(r)
		m.SetCCR(c)
	case isa.ASR:
		r, c := alu.Asr8(m, m.CCR(), m.Read8(ea))
		m.Write8(ea, r)
		m.SetCCR(c)
	case isa.ASLA:
		r, c := alu.Asl8(m, m.CCR(), m.A())
		m.SetA(r)
		m.SetCCR(c)
	case isa.ASLB:
		r, c := alu.Asl8(m, m.CCR(), m.B())
		m.SetB(r)
		m.SetCCR(c)
	case isa.ASL:
		r, c := alu.Asl8(m, m.CCR(), m.Read8(ea))
		m.Write8(ea, r)
		m.SetCCR(c)
	case isa.ROLA:
		r, c := alu.Rol8(m, m.CCR(), m.A())
		m.SetA(r)
		m.SetCCR(c)
	case isa.ROLB:
		r, c := alu.Rol8(m, m.CCR(), m.B())
		m.SetB(r)
		m.SetCCR(c)
	case isa.ROL:
		r, c := alu.Rol8(m, m.CCR(), m.Read8(ea))
		m.Write8(ea, r)
		m.SetCCR(c)
	case isa.DECA:
		r, c := alu.Dec8(m, m.CCR(), m.A())
		m.SetA(r)
		m.SetCCR(c)
	case isa.DECB:
		r, c := alu.Dec8(m, m.CCR(), m.B())
		m.SetB(r)
		m.SetCCR(c)
	case isa.DEC:
		r, c := alu.Dec8(m, m.CCR(), m.Read8(ea))
		m.Write8(ea, r)
		m.SetCCR(c)
	case isa.INCA:
		r, c := alu.Inc8(m, m.CCR(), m.A())
		m.SetA(r)
		m.SetCCR(c)
	case isa.INCB:
		r, c := alu.Inc8(m, m.CCR(), m.B())
		m.SetB(r)
		m.SetCCR(c)
	case isa.INC:
		r, c := alu.Inc8(m, m.CCR(), m.Read8(ea))
		m.Write8(ea, r)
		m.SetCCR(c)
	case isa.TSTA:
		m.SetCCR(alu.Tst8(m, m.CCR(), m.A()))
	case isa.TSTB:
		m.SetCCR(alu.Tst8(m, m.CCR(), m.B()))
	case isa.TST:
		m.SetCCR(alu.Tst8(m, m.CCR(), m.Read8(ea)))
	case isa.CLRA:
		m.SetA(m.K8(0))
		m.SetCCR(alu.Clr8(m, m.CCR()))
	case isa.CLRB:
		m.SetB(m.K8(0))
		m.SetCCR(alu.Clr8(m, m.CCR()))
	case isa.CLR:
		m.Write8(ea, m.K8(0))
		m.SetCCR(alu.Clr8(m, m.CCR()))

	// Bit manipulation.
	case isa.BSET:
		v := m.Or8(m.Read8(ea), m.K8(in.Mask))
		m.Write8(ea, v)
		m.SetCCR(alu.Logic8(m, m.CCR(), v))
	case isa.BCLR:
		v := m.AndNot8(m.Read8(ea), m.K8(in.Mask))
		m.Write8(ea, v)
		m.SetCCR(alu.Logic8(m, m.CCR(), v))
	case isa.BRSET:
		m.Branch(m.Eq8(m.AndNot8(m.K8(in.Mask), m.Read8(ea)), m.K8(0)), in.Target(pc))
	case isa.BRCLR:
		m.Branch(m.Eq8(m.And8(m.Read8(ea), m.K8(in.Mask)), m.K8(0)), in.Target(pc))

	// Condition codes.
	case isa.CLC:
		m.SetCCR(m.AndNot8(m.CCR(), m.K8(isa.FlagC)))
	case isa.SEC:
		m.SetCCR(m.Or8(m.CCR(), m.K8(isa.FlagC)))
	case isa.CLV:
		m.SetCCR(m.AndNot8(m.CCR(), m.K8(isa.FlagV)))
	case isa.SEV:
		m.SetCCR(m.Or8(m.CCR(), m.K8(isa.FlagV)))
	case isa.CLI:
		m.SetMask(m.AndNot8(m.CCR(), m.K8(isa.FlagI)))
	case isa.SEI:
		m.SetCCR(m.Or8(m.CCR(), m.K8(isa.FlagI)))

	// Stack.
	case isa.PSHA:
		m.Push8(m.A())
	case isa.PSHB:
		m.Push8(m.B())
	case isa.PSHX:
		push16(m, m.X())
	case isa.PSHY:
		push16(m, m.Y())
	case isa.PULA:
		m.SetA(m.Pull8())
		m.Pulled()
	case isa.PULB:
		m.SetB(m.Pull8())
		m.Pulled()
	case isa.PULX:
		m.SetX(pull16(m))
		m.Pulled()
	case isa.PULY:
		m.SetY(pull16(m))
		m.Pulled()

	// Control flow.
	case isa.BRA, isa.BRN, isa.BHI, isa.BLS, isa.BCC, isa.BCS, isa.BNE, isa.BEQ,
		isa.BVC, isa.BVS, isa.BPL, isa.BMI, isa.BGE, isa.BLT, isa.BGT, isa.BLE:
		m.Branch(alu.BranchTaken(m, in.Opcode, m.CCR()), in.Target(pc))
	case isa.JMP:
		m.Jump(ea)
	case isa.BSR:
		push16(m, m.K16(next))
		m.Frame()
		m.Jump(in.Target(pc))
		m.Sched()
	case isa.JSR:
		push16(m, m.K16(next))
		m.Frame()
		m.Jump(ea)
		m.Sched()
	case isa.RTS:
		m.ReturnSub(pc)
	case isa.RTI:
		c := m.Pull8()
		m.SetMask(keepX(m, c, m.CCR()))
		m.SetB(m.Pull8())
		m.SetA(m.Pull8())
		m.SetX(pull16(m))
		m.SetY(pull16(m))
		m.ReturnInt()
	case isa.SWI:
		if m.SWI(pc) {
			PushFrame(m, next)
			Vector(m, isa.VecSWI)
			m.JumpVector(isa.VecSWI)
		}
	case isa.WAI:
		PushFrame(m, next)
		m.Wait()
	case isa.STOP:
		m.Stop()
	case isa.TEST:
		m.Test(pc)
	case isa.NOP:
	default:
		panic(fmt.Sprintf("no semantics for %v", in.Op))
	}
}

// PushFrame stacks the nine-byte interrupt frame: the return address pc,
// Y, X, A, B and CCR.
func PushFrame[M Machine[B, W, F], B, W, F any](m M, pc uint16) {
	push16(m, m.K16(pc))
	m.Frame()
	push16(m, m.Y())
	push16(m, m.X())
	m.Push8(m.A())
	m.Push8(m.B())
	m.Push8(m.CCR())
}

// Vector sets I, and X for XIRQ, as an interrupt or a trap through vector
// v does once its frame is stacked, before it jumps.
func Vector[M Machine[B, W, F], B, W, F any](m M, v int) {
	f := isa.FlagI
	if v == isa.VecXIRQ {
		f |= isa.FlagX
	}
	m.SetCCR(m.Or8(m.CCR(), m.K8(f)))
}

// Interrupt takes interrupt v with the return address pc: the frame,
// unless WAI stacked it already (waiting), and the flags; the engine
// jumps through the vector.
func Interrupt[M Machine[B, W, F], B, W, F any](m M, pc uint16, v int, waiting bool) {
	if !waiting {
		PushFrame(m, pc)
	}
	Vector(m, v)
}

// Trap is the trap of an illegal opcode at pc: its frame, with pc as the
// return address, and the flags of the illegal-opcode vector; the engine
// jumps through it.
func Trap[M Machine[B, W, F], B, W, F any](m M, pc uint16) {
	PushFrame(m, pc)
	Vector(m, isa.VecIllegal)
}

// op8 is the 8-bit operand: the immediate byte or the byte at ea.
func op8[M Machine[B, W, F], B, W, F any](m M, in *isa.Inst, ea uint16) B {
	if in.Mode == isa.Imm8 {
		return m.K8(uint8(in.Operand))
	}
	return m.Read8(ea)
}

// op16 is the 16-bit operand: the immediate word or the word at ea.
func op16[M Machine[B, W, F], B, W, F any](m M, in *isa.Inst, ea uint16) W {
	if in.Mode == isa.Imm16 {
		return m.K16(in.Operand)
	}
	return read16(m, ea)
}

// read16 is the big-endian word at a.
func read16[M Machine[B, W, F], B, W, F any](m M, a uint16) W {
	h := m.Read8(a)
	return m.Pair(h, m.Read8(a+1))
}

// write16 stores v at a, the high byte first.
func write16[M Machine[B, W, F], B, W, F any](m M, a uint16, v W) {
	m.Write8(a, m.Hi(v))
	m.Write8(a+1, m.Lo(v))
}

// push16 pushes v, the low byte first, so that it reads big-endian.
func push16[M Machine[B, W, F], B, W, F any](m M, v W) {
	m.Push8(m.Lo(v))
	m.Push8(m.Hi(v))
}

// pull16 pulls what push16 pushed.
func pull16[M Machine[B, W, F], B, W, F any](m M) W {
	h := m.Pull8()
	return m.Pair(h, m.Pull8())
}

// d is the accumulator D, A:B.
func d[M Machine[B, W, F], B, W, F any](m M) W {
	return m.Pair(m.A(), m.B())
}

// setD sets D.
func setD[M Machine[B, W, F], B, W, F any](m M, v W) {
	m.SetA(m.Hi(v))
	m.SetB(m.Lo(v))
}

// carry is the C bit as a byte, 0 or 1.
func carry[M Machine[B, W, F], B, W, F any](m M) B {
	return m.And8(m.CCR(), m.K8(isa.FlagC))
}

// keepX is the CCR that TAP and RTI load from v over old: X can be cleared
// but not set.
func keepX[M Machine[B, W, F], B, W, F any](m M, v, old B) B {
	return m.Or8(m.AndNot8(v, m.K8(isa.FlagX)), m.And8(m.And8(v, old), m.K8(isa.FlagX)))
}
