package sim

import (
	"github.com/hc11mc/hc11mc/internal/mutation"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// Dead-data elimination (--reduce dead).
//
// A register or condition-code bit whose value no execution reads before
// writing it again is dead: two states that differ only there have the same
// futures, violations included, so the key a store keeps (CanonicalKey)
// zeroes it, and the store takes them for one. Only the key is changed:
// states that execute keep every value, so a counterexample replays
// exactly ([mc]square's dead variable reduction, and the dead-value
// canonicalisation of the explicit-state checkers the design names).
//
// Liveness is computed once per machine, backwards over the decoded
// read-only code, for A, B, X, Y and each CCR bit (SP and PC are always
// kept), from the instruction set's effects table: an instruction uses
// what it reads (the index register of its address included) and kills
// what it writes without reading. Control flow:
//
//   - branches and BRSET/BRCLR go to their target and (when conditional)
//     the next instruction; JMP and JSR to a direct or extended address go
//     there; a call's callee returns, through its RTS, to the return sites;
//   - RTS goes to every return site of the program (the address after each
//     JSR and BSR): context-insensitive, so the union of what any caller
//     needs; a thread that returns from its entry routine ends;
//   - a harness stub is entered by a call (its return site is known), by
//     falling into it from the instruction before (it then returns where
//     the routine that fell into it returns: any return site), by an
//     indexed call (likewise), or by a jump to it (everything is live);
//     any other way in — a call from code in RAM, a computed jump — is
//     seen when the stub returns (below);
//   - a harness call uses what the harness reads (D for __mc_nondet, A for
//     __mc_assume and __mc_assert, X for __mc_lock and __mc_unlock, D, X, Y
//     and the whole CCR for __mc_thread_create), kills what it writes (D of
//     __mc_nondet and __mc_thread_create) and returns to the return site;
//     __mc_thread_exit ends the thread;
//   - RTI reloads every register: nothing is live after it;
//   - where the next instruction is not known — an indexed JMP or JSR,
//     code outside read-only memory, an undefined opcode, SWI, WAI, STOP,
//     a trap — everything is live.
//
// The one assumption is that an RTS returns to a return site (or ends its
// thread), and a harness stub to a return site of a call liveness knows
// for it (or, where it may be entered otherwise, to any return site).
// Firmware that makes up a return address (pushes an address and returns
// to it), code in RAM that calls a routine or a stub, or a computed jump
// into a stub breaks it: the simulator checks every return and counts
// such returns (Machine.ForeignReturns), and a search that saw one does
// not keep the elimination's verdict (package search runs it again
// without).
//
// With interrupts (--irq, or a device) nothing is eliminated from registers: taking an
// interrupt stacks every register, so each is live wherever the interrupt
// mask may be clear. The registers of an exited thread are all dead.

// live bits: the CCR bits in the low byte (as in the CCR), A, B, X, Y above.
const (
	liveA    = 1 << 8
	liveB    = 1 << 9
	liveX    = 1 << 10
	liveY    = 1 << 11
	liveAll  = 0x0FFF
	liveRegs = liveA | liveB | liveX | liveY
)

func regBits(r isa.Regs) uint16 {
	var b uint16
	if r&isa.RegA != 0 {
		b |= liveA
	}
	if r&isa.RegB != 0 {
		b |= liveB
	}
	if r&isa.RegX != 0 {
		b |= liveX
	}
	if r&isa.RegY != 0 {
		b |= liveY
	}
	return b
}

// harnessUse and harnessDef are what each harness routine reads and writes
// of the calling thread's registers.
var harnessUse = [loader.NumStubs]uint16{
	loader.StubNondet:       liveA | liveB,
	loader.StubAssume:       liveA,
	loader.StubAssert:       liveA,
	loader.StubThreadCreate: liveA | liveB | liveX | liveY | 0xFF,
	loader.StubLock:         liveX,
	loader.StubUnlock:       liveX,
}

var harnessDef = [loader.NumStubs]uint16{
	loader.StubNondet:       liveA | liveB,
	loader.StubThreadCreate: liveA | liveB,
}

// computeLiveness fills m.live: for every address, what is live when a
// thread is about to execute there.
func (m *Machine) computeLiveness() {
	m.live = make([]uint16, 65536)
	// The return sites: after each call of a routine that returns.
	var returnSites []uint16
	stubReturns := map[loader.Stub][]uint16{}
	jumpedTo := map[uint16]bool{} // stubs reached otherwise than by a call
	unknownCalls := false         // an indexed JSR: its callee may be a stub
	for pc := 0; pc < 65536; pc++ {
		c := &m.code[pc]
		if !c.ok || c.hook != loader.NoStub {
			continue
		}
		in := c.in
		ret := uint16(pc) + uint16(in.Len)
		switch {
		case in.Op == isa.JSR || in.Op == isa.BSR:
			t, ok := m.callTarget(uint16(pc))
			if ok && m.code[t].hook != loader.NoStub {
				stubReturns[m.code[t].hook] = append(stubReturns[m.code[t].hook], ret)
			} else {
				returnSites = append(returnSites, ret)
				m.retSite[ret/64] |= 1 << (ret % 64)
			}
			unknownCalls = unknownCalls || !ok
		case in.Op == isa.JMP && (in.Mode == isa.Ext || in.Mode == isa.Dir):
			jumpedTo[in.Operand] = true
		case in.IsBranch():
			jumpedTo[in.Target(uint16(pc))] = true
		}
	}
	// A stub that code falls into (the instruction before it runs on into
	// its address: a routine ending in its caller's stub) returns where
	// that routine returns: anywhere an RTS may go.
	for pc := 0; pc < 65536; pc++ {
		c := &m.code[pc]
		if !c.ok || c.hook != loader.NoStub || c.in.Mode == isa.ModeNone {
			continue
		}
		next := uint16(pc) + uint16(c.in.Len)
		if h := m.code[next].hook; h != loader.NoStub && fallsThrough(c.in.Op) && !mutation.On(mutation.StubEntry) {
			m.stubAnyRet[h] = true
		}
	}
	for a := range jumpedTo {
		if h := m.code[a].hook; h != loader.NoStub {
			m.stubAnyRet[h] = true // everything is live there (liveAt)
		}
	}
	if unknownCalls {
		for h := range m.stubAnyRet {
			m.stubAnyRet[h] = true
		}
	}
	m.stubRet = map[uint32]bool{}
	for h, rs := range stubReturns {
		for _, r := range rs {
			m.stubRet[uint32(h)<<16|uint32(r)] = true
		}
	}
	for changed := true; changed; {
		changed = false
		var afterRTS uint16
		for _, r := range returnSites {
			afterRTS |= m.live[r]
		}
		for pc := 65535; pc >= 0; pc-- {
			v := m.liveAt(uint16(pc), afterRTS, stubReturns, jumpedTo)
			if v != m.live[pc] {
				m.live[pc] = v
				changed = true
			}
		}
	}
}

// fallsThrough reports whether an instruction may go on to the next one
// (a call does, when its callee returns; so do SWI and WAI, after the
// interrupt's RTI).
func fallsThrough(op isa.Op) bool {
	switch op {
	case isa.BRA, isa.JMP, isa.RTS, isa.RTI:
		return false
	}
	return true
}

// stubReturned checks, for dead-data elimination, where the harness
// routine h returned to: a return site of a call of h that liveness
// knows, or, where h may be entered otherwise (fallsThrough, an indexed
// call), any return site. Anywhere else — code in RAM that called the
// stub, a computed jump into it — liveness did not account for, and the
// return counts as foreign (ForeignReturns).
func (m *Machine) stubReturned(tid int, h loader.Stub, to uint16) {
	if m.stubRet[uint32(h)<<16|uint32(to)] || m.stubAnyRet[h] && m.retSite[to/64]&(1<<(to%64)) != 0 ||
		mutation.On(mutation.StubEntry) {
		return
	}
	m.foreignReturn(tid, m.HookAddr[h], to)
}

// foreignReturn counts a return to an address liveness did not expect,
// by thread tid at pc (the RTS, or the stub), and records it as a
// break of the elimination's assumption.
func (m *Machine) foreignReturn(tid int, pc, to uint16) {
	m.foreignReturns.Add(1)
	if len(m.irqs) == 0 && m.dev == nil {
		// Only then are registers left out of keys (CanonicalKey).
		m.deadBroke(DeadBreak{What: "return", Thread: tid, PC: pc, Addr: to})
	}
}

// callTarget is the callee of the JSR or BSR at pc, when it is known.
func (m *Machine) callTarget(pc uint16) (uint16, bool) {
	in := m.code[pc].in
	switch in.Mode {
	case isa.Ext, isa.Dir:
		return in.Operand, true
	case isa.Rel:
		return in.Target(pc), true
	}
	return 0, false
}

// liveAt is one step of the fixpoint at pc.
func (m *Machine) liveAt(pc uint16, afterRTS uint16, stubReturns map[loader.Stub][]uint16, jumpedTo map[uint16]bool) uint16 {
	c := &m.code[pc]
	if h := c.hook; h != loader.NoStub {
		if h == loader.StubThreadExit {
			return 0
		}
		if jumpedTo[pc] {
			return liveAll
		}
		var out uint16
		for _, r := range stubReturns[h] {
			out |= m.live[r]
		}
		if m.stubAnyRet[h] {
			// An indexed call, or a routine falling into the stub,
			// may have brought the thread here.
			out |= afterRTS
		}
		return harnessUse[h] | out&^harnessDef[h]
	}
	if !c.ok || c.in.Mode == isa.ModeNone {
		return liveAll
	}
	in := c.in
	ef := in.Effects()
	if ef.Halt || ef.Vector {
		return liveAll
	}
	use := regBits(ef.RegsRead|ef.AddrRegs) | uint16(ef.CCRRead)
	def := regBits(ef.RegsWritten&^ef.RegsRead) | uint16(ef.CCRWritten&^ef.CCRRead)
	next := pc + uint16(in.Len)
	var out uint16
	switch {
	case in.Op == isa.RTI:
		out = 0
	case in.Op == isa.RTS:
		out = afterRTS
	case in.Op == isa.JSR || in.Op == isa.BSR:
		t, ok := m.callTarget(pc)
		if !ok {
			return liveAll
		}
		out = m.live[t]
	case in.Op == isa.JMP:
		if in.Mode != isa.Ext && in.Mode != isa.Dir {
			return liveAll
		}
		out = m.live[in.Operand]
	case in.Op == isa.BRA:
		out = m.live[in.Target(pc)]
	case in.Op == isa.BRN:
		out = m.live[next]
	case in.IsBranch():
		out = m.live[in.Target(pc)] | m.live[next]
	default:
		out = m.live[next]
	}
	return use | out&^def
}

// ForeignReturns is the number of RTS instructions, over every search of
// m, that returned elsewhere than after a call, breaking the assumption of
// dead-data elimination (see above); always 0 without Config.Dead.
func (m *Machine) ForeignReturns() uint64 { return m.foreignReturns.Load() }

// CanonicalKey is the key of t that a visited-state store keeps: t.Key()
// with the registers and CCR bits that are dead at t's PC zeroed (see
// above), when the machine eliminates dead data; t.Key() otherwise.
func (m *Machine) CanonicalKey(t *Thread) ThreadKey {
	if m.live == nil || m.deadOff.Load() {
		return t.Key()
	}
	if t.Status == Exited {
		c := Thread{Status: Exited, CS: t.CS, InitSP: t.InitSP}
		return c.Key()
	}
	lv := m.live[t.PC]
	if len(m.irqs) > 0 || m.dev != nil || m.timing != nil {
		lv |= liveRegs | 0xFF
	}
	if lv == liveAll {
		return t.Key()
	}
	c := *t
	if lv&liveA == 0 {
		c.A = 0
	}
	if lv&liveB == 0 {
		c.B = 0
	}
	if lv&liveX == 0 {
		c.X = 0
	}
	if lv&liveY == 0 {
		c.Y = 0
	}
	c.CCR &= uint8(lv)
	return c.Key()
}
