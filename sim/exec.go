package sim

import (
	"fmt"

	"github.com/hc11mc/hc11mc/internal/mutation"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// Kind names a property; a Violation carries one.
type Kind uint8

// The properties of DESIGN.md.
const (
	KindNone Kind = iota
	KindAssert
	KindError
	KindDeadlock
	KindMutex
	KindUnlock
	KindIllegal
	KindROMWrite
	KindUnmapped
	KindStack
	KindReach
	KindWatchdog // the COP was not serviced in time (with a device)
	KindOutput   // the SCI sent what --expect-output looks for: a goal
)

var kindNames = [...]string{"", "assert", "error", "deadlock", "mutex", "unlock",
	"illegal-opcode", "rom-write", "unmapped", "stack", "reach", "watchdog", "output"}

// String returns the property's name as the CLI and JSON spell it.
func (k Kind) String() string { return kindNames[k] }

// KindNames lists the property names.
func KindNames() []string { return append([]string(nil), kindNames[1:]...) }

// ParseKind reads a property name.
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames[1:] {
		if n == s {
			return Kind(i + 1), true
		}
	}
	return KindNone, false
}

// Violation is a property found violated, or a goal reached.
type Violation struct {
	Kind    Kind
	Thread  int
	PC      uint16 // the instruction (for harness calls: the call) where it happened
	Addr    uint16 // the address involved, where there is one
	Message string
}

func (v *Violation) Error() string {
	return fmt.Sprintf("%s: thread %d at 0x%04X: %s", v.Kind, v.Thread, v.PC, v.Message)
}

// event is what one step did, beyond changing the state.
type event uint8

const (
	evOK         event = iota
	evViolation        // x.viol is set
	evBlocked          // the thread cannot move (lock held): no successor
	evInfeasible       // __mc_assume(0): the path is dropped
	evSched            // a harness call, a call or a return happened: a scheduling point follows
	evMismatch         // replay: the transition would have ended before the label says
)

// stepper executes instructions of one thread of one state.
type stepper struct {
	m    *Machine
	s    *State
	t    *Thread
	tid  int
	viol Violation
	bad  bool

	// With a device: the layout of s (layoutOf), whether the last step
	// accessed the register block, the thread's cycles when the
	// transition began, and where to record outputs (nil: nowhere).
	lay *layout
	io  bool
	c0  uint64
	fx  *[]Output

	// Nondeterminism: the choice index and the mixed-radix position of the
	// next choice within it; after a step, radix is the number of choices.
	choice uint64
	radix  uint64

	// g checks the privacy of stacks (private.go), when g.on.
	g guard
}

// violation returns a copy of the recorded violation, so that the stepper
// itself can stay on the stack.
func (x *stepper) violation() *Violation {
	v := x.viol
	return &v
}

func (x *stepper) fault(k Kind, pc, addr uint16, format string, args ...any) {
	if x.bad {
		return
	}
	x.bad = true
	x.viol = Violation{Kind: k, Thread: x.tid, PC: pc, Addr: addr, Message: fmt.Sprintf(format, args...)}
}

// choose returns a choice among n alternatives (0..n-1).
func (x *stepper) choose(n uint64) uint64 {
	c := (x.choice / x.radix) % n
	x.radix *= n
	return c
}

func (x *stepper) read8(a uint16) uint8 {
	if x.g.on {
		x.touch(a)
	}
	switch x.lay.attr[a] {
	case attrRAM:
		if x.m.Config.DeadStack {
			x.deadRead(a, "read")
		}
		return x.s.Pages[x.lay.pageOf[a/PageSize]].Data[a%PageSize]
	case attrROM:
		return x.m.rom[a]
	}
	return x.readSlow(a)
}

func (x *stepper) write8(a uint16, v uint8) {
	if x.g.on {
		x.touch(a)
	}
	if x.lay.attr[a] == attrRAM {
		x.s.page(int(x.lay.pageOf[a/PageSize])).Data[a%PageSize] = v
		return
	}
	x.writeSlow(a, v)
}

func (x *stepper) read16(a uint16) uint16 { return uint16(x.read8(a))<<8 | uint16(x.read8(a+1)) }
func (x *stepper) write16(a, v uint16)    { x.write8(a, uint8(v>>8)); x.write8(a+1, uint8(v)) }

func (x *stepper) push8(v uint8) { x.write8(x.t.SP, v); x.t.SP-- }
func (x *stepper) pull8() uint8 {
	v := x.read8(x.t.SP + 1)
	x.t.SP++
	if x.m.Config.DeadStack {
		x.m.pulled(x.t.SP)
		if mutation.On(mutation.ClearWrite) {
			x.write8(x.t.SP, 0)
		}
	}
	return v
}

// exposeTo is called before SP moves to sp without a write: the bytes
// it uncovers above the new SP hold what they held below the old one,
// which Config.DeadStack may have masked, so uncovering one is a read of
// a masked byte (deadstack.go).
func (x *stepper) exposeTo(sp uint16) {
	if !x.m.Config.DeadStack || sp >= x.t.SP || x.m.deadOff.Load() {
		return
	}
	for a := x.t.SP; a > sp && uint32(a)+1 >= x.m.lowPulled.Load(); a-- {
		if x.maskedBy(a) >= 0 {
			x.m.deadBroke(DeadBreak{What: "uncover", Thread: x.tid, PC: x.t.PC, Addr: a})
			return
		}
	}
}

func (x *stepper) push16(v uint16) {
	x.push8(uint8(v))
	x.push8(uint8(v >> 8))
}
func (x *stepper) pull16() uint16 { h := x.pull8(); return uint16(h)<<8 | uint16(x.pull8()) }

// pushFrame stacks the nine-byte interrupt frame: PC, Y, X, A, B, CCR.
func (x *stepper) pushFrame(pc uint16) {
	t := x.t
	x.push16(pc)
	x.t.pushShadow(t.SP + 1)
	x.push16(t.Y)
	x.push16(t.X)
	x.push8(t.A)
	x.push8(t.B)
	x.push8(t.CCR)
}

// vector jumps through interrupt vector v, after the frame is stacked.
func (x *stepper) vector(v int) {
	x.t.CCR |= isa.FlagI
	if v == isa.VecXIRQ {
		x.t.CCR |= isa.FlagX
	}
	x.t.PC = x.m.Image.Vectors[v]
	x.t.Cycles += 14
}

// fetch returns the instruction at pc.
func (x *stepper) fetch(pc uint16) (isa.Inst, error) {
	var buf [5]byte
	n := 0
gather:
	for ; n < 5; n++ {
		a := pc + uint16(n)
		switch x.lay.attr[a] {
		case attrRAM, attrInput, attrHeld:
			if x.g.on {
				x.touch(a)
			}
			buf[n] = x.s.Pages[x.lay.pageOf[a/PageSize]].Data[a%PageSize]
		case attrROM:
			buf[n] = x.m.rom[a]
		default:
			break gather
		}
	}
	if n == 0 {
		x.fault(KindUnmapped, pc, pc, "execution at unmapped address 0x%04X", pc)
		return isa.Inst{}, isa.ErrTruncated
	}
	in, err := isa.Decode(buf[:n])
	if x.m.Config.DeadStack && err == nil && !mutation.On(mutation.UnseenFetch) {
		for i := range uint16(in.Len) {
			if x.lay.attr[pc+i] == attrRAM {
				x.deadRead(pc+i, "fetch")
			}
		}
	}
	if err == isa.ErrTruncated {
		x.fault(KindUnmapped, pc, pc+uint16(n), "instruction at 0x%04X runs into unmapped address 0x%04X", pc, pc+uint16(n))
	}
	return in, err
}

// step executes one instruction, or one harness call, of thread x.t.
func (x *stepper) step() event {
	_, ev := x.steps(1)
	return ev
}

// steps executes up to limit instructions of thread x.t, stopping early
// after any that is not a plain instruction (a call, a return, a harness
// call, a violation, a blocked or infeasible step). It returns how many
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
			ea = in.Operand
			switch {
			case in.Mode.UsesY():
				ea += t.Y
			case in.Mode.Indexed():
				ea += t.X
			}
		}
		t.PrevPC = pc
		t.Cycles += uint64(in.Cycles)
		next := pc + uint16(in.Len)
		npc := next
		ev := evOK
		switch in.Op {
		// Loads, stores, transfers.
		case isa.LDAA:
			t.A = x.op8(in, ea)
			t.CCR = logic8(t.CCR, t.A)
		case isa.LDAB:
			t.B = x.op8(in, ea)
			t.CCR = logic8(t.CCR, t.B)
		case isa.LDD:
			d := x.op16(in, ea)
			t.SetD(d)
			t.CCR = logic16(t.CCR, d)
		case isa.LDX:
			t.X = x.op16(in, ea)
			t.CCR = logic16(t.CCR, t.X)
		case isa.LDY:
			t.Y = x.op16(in, ea)
			t.CCR = logic16(t.CCR, t.Y)
		case isa.LDS:
			x.exposeTo(x.op16(in, ea))
			t.SP = x.op16(in, ea)
			t.CCR = logic16(t.CCR, t.SP)
			t.dropDeadShadow()
			if t.InitSP == 0 {
				// Thread 0's first LDS sets the top of its stack.
				t.InitSP = t.SP
				if x.g.on {
					x.regionGiven(x.tid)
				}
			}
		case isa.STAA:
			x.write8(ea, t.A)
			t.CCR = logic8(t.CCR, t.A)
		case isa.STAB:
			x.write8(ea, t.B)
			t.CCR = logic8(t.CCR, t.B)
		case isa.STD:
			x.write16(ea, t.D())
			t.CCR = logic16(t.CCR, t.D())
		case isa.STX:
			x.write16(ea, t.X)
			t.CCR = logic16(t.CCR, t.X)
		case isa.STY:
			x.write16(ea, t.Y)
			t.CCR = logic16(t.CCR, t.Y)
		case isa.STS:
			x.write16(ea, t.SP)
			t.CCR = logic16(t.CCR, t.SP)
		case isa.TAB:
			t.B = t.A
			t.CCR = logic8(t.CCR, t.B)
		case isa.TBA:
			t.A = t.B
			t.CCR = logic8(t.CCR, t.A)
		case isa.TAP:
			// X can be cleared but not set by TAP.
			t.CCR = t.A&^isa.FlagX | t.A&t.CCR&isa.FlagX
		case isa.TPA:
			t.A = t.CCR
		case isa.TSX:
			t.X = t.SP + 1
		case isa.TSY:
			t.Y = t.SP + 1
		case isa.TXS:
			x.exposeTo(t.X - 1)
			t.SP = t.X - 1
			t.dropDeadShadow()
		case isa.TYS:
			x.exposeTo(t.Y - 1)
			t.SP = t.Y - 1
			t.dropDeadShadow()
		case isa.XGDX:
			d := t.D()
			t.SetD(t.X)
			t.X = d
		case isa.XGDY:
			d := t.D()
			t.SetD(t.Y)
			t.Y = d

		// 8-bit arithmetic.
		case isa.ADDA:
			t.A, t.CCR = add8(t.CCR, t.A, x.op8(in, ea), 0)
		case isa.ADDB:
			t.B, t.CCR = add8(t.CCR, t.B, x.op8(in, ea), 0)
		case isa.ADCA:
			t.A, t.CCR = add8(t.CCR, t.A, x.op8(in, ea), t.CCR&isa.FlagC)
		case isa.ADCB:
			t.B, t.CCR = add8(t.CCR, t.B, x.op8(in, ea), t.CCR&isa.FlagC)
		case isa.ABA:
			t.A, t.CCR = add8(t.CCR, t.A, t.B, 0)
		case isa.SUBA:
			t.A, t.CCR = sub8(t.CCR, t.A, x.op8(in, ea), 0)
		case isa.SUBB:
			t.B, t.CCR = sub8(t.CCR, t.B, x.op8(in, ea), 0)
		case isa.SBCA:
			t.A, t.CCR = sub8(t.CCR, t.A, x.op8(in, ea), t.CCR&isa.FlagC)
		case isa.SBCB:
			t.B, t.CCR = sub8(t.CCR, t.B, x.op8(in, ea), t.CCR&isa.FlagC)
		case isa.SBA:
			t.A, t.CCR = sub8(t.CCR, t.A, t.B, 0)
		case isa.CMPA:
			_, t.CCR = sub8(t.CCR, t.A, x.op8(in, ea), 0)
		case isa.CMPB:
			_, t.CCR = sub8(t.CCR, t.B, x.op8(in, ea), 0)
		case isa.CBA:
			_, t.CCR = sub8(t.CCR, t.A, t.B, 0)
		case isa.ANDA:
			t.A &= x.op8(in, ea)
			t.CCR = logic8(t.CCR, t.A)
		case isa.ANDB:
			t.B &= x.op8(in, ea)
			t.CCR = logic8(t.CCR, t.B)
		case isa.ORAA:
			t.A |= x.op8(in, ea)
			t.CCR = logic8(t.CCR, t.A)
		case isa.ORAB:
			t.B |= x.op8(in, ea)
			t.CCR = logic8(t.CCR, t.B)
		case isa.EORA:
			t.A ^= x.op8(in, ea)
			t.CCR = logic8(t.CCR, t.A)
		case isa.EORB:
			t.B ^= x.op8(in, ea)
			t.CCR = logic8(t.CCR, t.B)
		case isa.BITA:
			t.CCR = logic8(t.CCR, t.A&x.op8(in, ea))
		case isa.BITB:
			t.CCR = logic8(t.CCR, t.B&x.op8(in, ea))
		case isa.DAA:
			t.A, t.CCR = daa(t.CCR, t.A)
		case isa.MUL:
			var d uint16
			d, t.CCR = mul(t.CCR, t.A, t.B)
			t.SetD(d)
		case isa.IDIV:
			var q, r uint16
			q, r, t.CCR = idiv(t.CCR, t.D(), t.X)
			t.X = q
			t.SetD(r)
		case isa.FDIV:
			var q, r uint16
			q, r, t.CCR = fdiv(t.CCR, t.D(), t.X)
			t.X = q
			t.SetD(r)

		// 16-bit arithmetic.
		case isa.ADDD:
			var d uint16
			d, t.CCR = add16(t.CCR, t.D(), x.op16(in, ea))
			t.SetD(d)
		case isa.SUBD:
			var d uint16
			d, t.CCR = sub16(t.CCR, t.D(), x.op16(in, ea))
			t.SetD(d)
		case isa.CPD:
			_, t.CCR = sub16(t.CCR, t.D(), x.op16(in, ea))
		case isa.CPX:
			_, t.CCR = sub16(t.CCR, t.X, x.op16(in, ea))
		case isa.CPY:
			_, t.CCR = sub16(t.CCR, t.Y, x.op16(in, ea))
		case isa.ASLD:
			var d uint16
			d, t.CCR = asl16(t.CCR, t.D())
			t.SetD(d)
		case isa.LSRD:
			var d uint16
			d, t.CCR = lsr16(t.CCR, t.D())
			t.SetD(d)
		case isa.ABX:
			t.X += uint16(t.B)
		case isa.ABY:
			t.Y += uint16(t.B)
		case isa.INX:
			t.X++
			t.CCR = zOnly(t.CCR, t.X)
		case isa.DEX:
			t.X--
			t.CCR = zOnly(t.CCR, t.X)
		case isa.INY:
			t.Y++
			t.CCR = zOnly(t.CCR, t.Y)
		case isa.DEY:
			t.Y--
			t.CCR = zOnly(t.CCR, t.Y)
		case isa.INS:
			t.SP++
			t.dropDeadShadow()
		case isa.DES:
			x.exposeTo(t.SP - 1)
			t.SP--

		// Read-modify-write on A, B or memory.
		case isa.NEGA:
			t.A, t.CCR = neg8(t.CCR, t.A)
		case isa.NEGB:
			t.B, t.CCR = neg8(t.CCR, t.B)
		case isa.NEG:
			x.rmw(ea, neg8)
		case isa.COMA:
			t.A, t.CCR = com8(t.CCR, t.A)
		case isa.COMB:
			t.B, t.CCR = com8(t.CCR, t.B)
		case isa.COM:
			x.rmw(ea, com8)
		case isa.LSRA:
			t.A, t.CCR = lsr8(t.CCR, t.A)
		case isa.LSRB:
			t.B, t.CCR = lsr8(t.CCR, t.B)
		case isa.LSR:
			x.rmw(ea, lsr8)
		case isa.RORA:
			t.A, t.CCR = ror8(t.CCR, t.A)
		case isa.RORB:
			t.B, t.CCR = ror8(t.CCR, t.B)
		case isa.ROR:
			x.rmw(ea, ror8)
		case isa.ASRA:
			t.A, t.CCR = asr8(t.CCR, t.A)
		case isa.ASRB:
			t.B, t.CCR = asr8(t.CCR, t.B)
		case isa.ASR:
			x.rmw(ea, asr8)
		case isa.ASLA:
			t.A, t.CCR = asl8(t.CCR, t.A)
		case isa.ASLB:
			t.B, t.CCR = asl8(t.CCR, t.B)
		case isa.ASL:
			x.rmw(ea, asl8)
		case isa.ROLA:
			t.A, t.CCR = rol8(t.CCR, t.A)
		case isa.ROLB:
			t.B, t.CCR = rol8(t.CCR, t.B)
		case isa.ROL:
			x.rmw(ea, rol8)
		case isa.DECA:
			t.A, t.CCR = dec8(t.CCR, t.A)
		case isa.DECB:
			t.B, t.CCR = dec8(t.CCR, t.B)
		case isa.DEC:
			x.rmw(ea, dec8)
		case isa.INCA:
			t.A, t.CCR = inc8(t.CCR, t.A)
		case isa.INCB:
			t.B, t.CCR = inc8(t.CCR, t.B)
		case isa.INC:
			x.rmw(ea, inc8)
		case isa.TSTA:
			t.CCR = tst8(t.CCR, t.A)
		case isa.TSTB:
			t.CCR = tst8(t.CCR, t.B)
		case isa.TST:
			t.CCR = tst8(t.CCR, x.read8(ea))
		case isa.CLRA:
			t.A = 0
			t.CCR = clr8(t.CCR)
		case isa.CLRB:
			t.B = 0
			t.CCR = clr8(t.CCR)
		case isa.CLR:
			x.write8(ea, 0)
			t.CCR = clr8(t.CCR)

		// Bit manipulation.
		case isa.BSET:
			v := x.read8(ea) | in.Mask
			x.write8(ea, v)
			t.CCR = logic8(t.CCR, v)
		case isa.BCLR:
			v := x.read8(ea) &^ in.Mask
			x.write8(ea, v)
			t.CCR = logic8(t.CCR, v)
		case isa.BRSET:
			if ^x.read8(ea)&in.Mask == 0 {
				npc = in.Target(pc)
			}
		case isa.BRCLR:
			if x.read8(ea)&in.Mask == 0 {
				npc = in.Target(pc)
			}

		// Condition codes.
		case isa.CLC:
			t.CCR &^= isa.FlagC
		case isa.SEC:
			t.CCR |= isa.FlagC
		case isa.CLV:
			t.CCR &^= isa.FlagV
		case isa.SEV:
			t.CCR |= isa.FlagV
		case isa.CLI:
			t.CCR &^= isa.FlagI
		case isa.SEI:
			t.CCR |= isa.FlagI

		// Stack.
		case isa.PSHA:
			x.push8(t.A)
		case isa.PSHB:
			x.push8(t.B)
		case isa.PSHX:
			x.push16(t.X)
		case isa.PSHY:
			x.push16(t.Y)
		case isa.PULA:
			t.A = x.pull8()
			t.dropDeadShadow()
		case isa.PULB:
			t.B = x.pull8()
			t.dropDeadShadow()
		case isa.PULX:
			t.X = x.pull16()
			t.dropDeadShadow()
		case isa.PULY:
			t.Y = x.pull16()
			t.dropDeadShadow()

		// Control flow.
		case isa.BRA, isa.BRN, isa.BHI, isa.BLS, isa.BCC, isa.BCS, isa.BNE, isa.BEQ,
			isa.BVC, isa.BVS, isa.BPL, isa.BMI, isa.BGE, isa.BLT, isa.BGT, isa.BLE:
			if branchTab[in.Opcode&15]>>(t.CCR&15)&1 != 0 {
				npc = in.Target(pc)
			}
		case isa.JMP:
			npc = ea
		case isa.BSR:
			x.push16(next)
			t.pushShadow(t.SP + 1)
			npc = in.Target(pc)
			ev = evSched
		case isa.JSR:
			x.push16(next)
			t.pushShadow(t.SP + 1)
			npc = ea
			ev = evSched
		case isa.RTS:
			if t.SP == t.InitSP {
				// The thread's entry routine returns from an empty
				// stack: there is no return address, and the thread ends.
				t.Status = Exited
				return n + 1, evSched
			}
			slot := t.SP + 1
			npc = x.pull16()
			t.popShadow(slot)
			if x.m.live != nil && x.m.retSite[npc/64]&(1<<(npc%64)) == 0 {
				x.m.foreignReturn(x.tid, pc, npc)
			}
			ev = evSched
		case isa.RTI:
			ccr := x.pull8()
			t.CCR = ccr&^isa.FlagX | ccr&t.CCR&isa.FlagX
			t.B = x.pull8()
			t.A = x.pull8()
			t.X = x.pull16()
			t.Y = x.pull16()
			slot := t.SP + 1
			npc = x.pull16()
			t.popShadow(slot)
			ev = evSched
		case isa.SWI:
			if !x.m.swiOK {
				x.swiFault(pc)
				break
			}
			x.pushFrame(next)
			x.vector(isa.VecSWI)
			npc = t.PC
			t.Cycles -= 14 // counted in the instruction's own cycles
		case isa.WAI:
			x.pushFrame(next)
			t.Status = Waiting
			ev = evSched
		case isa.STOP:
			if t.CCR&isa.FlagS == 0 {
				t.Status = Stopped
				ev = evSched
			}
		case isa.TEST:
			t.PC = pc
			return n + 1, x.illegal(pc, *in, "TEST is legal only in test modes")
		case isa.NOP:
		default:
			panic(fmt.Sprintf("sim: no semantics for %v", in.Op))
		}
		t.PC = npc
		pc = npc
		if x.bad {
			return n + 1, evViolation
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

func (x *stepper) op8(in *isa.Inst, ea uint16) uint8 {
	if in.Mode == isa.Imm8 {
		return uint8(in.Operand)
	}
	return x.read8(ea)
}

func (x *stepper) op16(in *isa.Inst, ea uint16) uint16 {
	if in.Mode == isa.Imm16 {
		return in.Operand
	}
	return x.read16(ea)
}

func (x *stepper) rmw(ea uint16, f func(ccr, b uint8) (uint8, uint8)) {
	var v uint8
	v, x.t.CCR = f(x.t.CCR, x.read8(ea))
	x.write8(ea, v)
}

func (x *stepper) checkStack(pc uint16) {
	for _, r := range x.m.stacks {
		if r.Thread >= 0 && r.Thread != x.tid {
			continue
		}
		if int(x.t.SP) < int(r.Lo)-1 || x.t.SP > r.Hi {
			x.fault(KindStack, pc, x.t.SP, "SP = 0x%04X leaves the stack range 0x%04X-0x%04X", x.t.SP, r.Lo, r.Hi)
		}
		return
	}
}
