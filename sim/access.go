package sim

import (
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// Access is a memory access through an instruction's operand: what a
// counterexample shows as the variable a step read or wrote. It is the
// instruction set's rule (isa/m68hc11's Inst.Access, from the opcode
// table's effects), which the trace explainer and the symbolic engine
// share.
type Access = isa.Access

// NextAccess returns the access the next step of thread i in s makes
// through its operand: that of a load, store, read-modify-write, compare
// or bit instruction (Inst.Access, with the registers in s), or the lock
// byte of a call of __mc_lock or __mc_unlock. ok is false for a step
// without one. JMP and JSR go to their operand rather than read it, and
// stack pushes and pulls are not reported.
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
	return in.Access(t.X, t.Y)
}
