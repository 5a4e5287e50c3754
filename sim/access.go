package sim

import (
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// Access is a memory access through an instruction's operand: what a
// counterexample shows as the variable a step read or wrote.
type Access struct {
	Addr        uint16
	Size        uint8 // bytes: 1 or 2
	Read, Write bool
}

// NextAccess returns the access the next step of thread i in s makes
// through its operand: the effective address of a load, store,
// read-modify-write, compare or bit instruction (from the registers in s,
// as the simulator computes it), or the lock byte of a call of __mc_lock
// or __mc_unlock. ok is false for a step without one. JMP and JSR go to
// their operand rather than read it, and stack pushes and pulls are not
// reported.
func (m *Machine) NextAccess(s *State, i int) (a Access, ok bool) {
	t := &s.Threads[i]
	if t.Status != Running {
		return a, false
	}
	switch m.code[t.PC].hook {
	case loader.NoStub:
	case loader.StubLock:
		return Access{Addr: t.X, Size: 1, Read: true, Write: m.ReadMem(s, t.X) == 0}, true
	case loader.StubUnlock:
		return Access{Addr: t.X, Size: 1, Read: true, Write: true}, true
	default:
		return a, false
	}
	var in isa.Inst
	if m.code[t.PC].ok {
		in = m.code[t.PC].in
	} else {
		var buf [5]byte
		for k := range buf {
			buf[k] = m.ReadMem(s, t.PC+uint16(k))
		}
		var err error
		if in, err = isa.Decode(buf[:]); err != nil {
			return a, false
		}
	}
	switch in.Mode {
	case isa.Dir, isa.Ext, isa.BitDir, isa.BrDir:
		a.Addr = in.Operand
	case isa.IdxX, isa.BitIdxX, isa.BrIdxX:
		a.Addr = t.X + in.Operand
	case isa.IdxY, isa.BitIdxY, isa.BrIdxY:
		a.Addr = t.Y + in.Operand
	default:
		return a, false
	}
	a.Size, a.Read, a.Write = operandUse(in.Op)
	return a, a.Size > 0
}

// operandUse says how an instruction with a memory operand uses it: the
// width, and whether it reads and writes it. Size 0: it does neither.
func operandUse(op isa.Op) (size uint8, read, write bool) {
	switch op {
	case isa.ADCA, isa.ADCB, isa.ADDA, isa.ADDB, isa.ANDA, isa.ANDB, isa.BITA, isa.BITB,
		isa.CMPA, isa.CMPB, isa.EORA, isa.EORB, isa.LDAA, isa.LDAB, isa.ORAA, isa.ORAB,
		isa.SBCA, isa.SBCB, isa.SUBA, isa.SUBB, isa.TST, isa.BRSET, isa.BRCLR:
		return 1, true, false
	case isa.ADDD, isa.SUBD, isa.CPD, isa.CPX, isa.CPY, isa.LDD, isa.LDX, isa.LDY, isa.LDS:
		return 2, true, false
	case isa.STAA, isa.STAB, isa.CLR:
		return 1, false, true
	case isa.STD, isa.STX, isa.STY, isa.STS:
		return 2, false, true
	case isa.ASL, isa.ASR, isa.COM, isa.DEC, isa.INC, isa.LSR, isa.NEG, isa.ROL, isa.ROR,
		isa.BSET, isa.BCLR:
		return 1, true, true
	}
	return 0, false, false
}
