package m68hc11

import "strings"

// Regs is a set of CPU registers, one bit per register. D is A and B.
type Regs uint8

// The registers. RegD is the pair A:B; the PC is not in any set.
const (
	RegA Regs = 1 << iota
	RegB
	RegX
	RegY
	RegSP

	RegD   = RegA | RegB
	RegAll = RegA | RegB | RegX | RegY | RegSP
)

// Has reports whether every register of o is in r.
func (r Regs) Has(o Regs) bool { return r&o == o }

// String lists the registers as opcodes.txt spells them ("A,B,X"), or "-".
func (r Regs) String() string {
	if r == 0 {
		return "-"
	}
	var b strings.Builder
	for i, n := range [...]string{"A", "B", "X", "Y", "SP"} {
		if r&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(n)
		}
	}
	return b.String()
}

// Effects is what an instruction reads and writes, apart from the PC and its
// own bytes (immediate values, masks, offsets). An input the instruction does
// not read cannot change anything it writes; a location it does not write
// keeps its value. Writes are "may" writes — IDIV by zero leaves D — but a
// location written and not read is always overwritten with a value computed
// from the read set alone, so a liveness analysis may treat it as killed.
// The choices behind the sets:
//
//   - Read means the instruction's results depend on the value; written
//     means it may change. The PC and the instruction's own bytes are
//     outside the sets.
//   - The index register of an indexed mode is AddrRegs, not RegsRead,
//     unless the result depends on it too (CPX n,X). JMP and JSR use
//     their effective address as the target: MemWidth 0.
//   - Stack traffic (StackPush, StackPull) is addressed by SP, which such
//     an instruction reads and writes; the return address that JSR, BSR,
//     SWI and WAI push is a pushed byte like any other.
//   - A CCR bit the manual leaves undefined (?, only DAA's V) is neither
//     read nor written: the simulator keeps its value, and the effects
//     describe what the checker executes. TAP and RTI read X, which they
//     can clear but not set; SWI reads I (it stacks the CCR) and sets it.
//   - TEST is described as the illegal-opcode trap it takes outside the
//     special test modes, which the checker does not model: it stacks the
//     registers, sets I and takes the PC from the vector table (Vector).
//     The vector table is image data, not a state read.
//   - WAI and STOP may halt the thread until an interrupt (Halt); STOP
//     reads S, which decides whether it does.
//   - What package sim keeps beside the registers for the harness — thread
//     0's stack top recorded by its first LDS, a thread ending on an RTS
//     from its empty stack, the shadow call stack — is not in the sets.
type Effects struct {
	RegsRead    Regs // registers the results depend on (the index register of the address aside)
	RegsWritten Regs // registers the instruction may change
	// AddrRegs is the index register added to the operand to form the
	// effective address (X or Y in the indexed modes, else none). It is read
	// for the address only; when it also feeds the result (CPX n,X) it is in
	// RegsRead too.
	AddrRegs   Regs
	CCRRead    uint8 // CCR bits the results depend on (FlagC, FlagZ ...)
	CCRWritten uint8 // CCR bits the instruction may change
	MemRead    bool  // the MemWidth bytes at the effective address are read
	MemWritten bool  // the MemWidth bytes at the effective address may be written
	// MemWidth is the number of bytes accessed at the effective address: 1
	// or 2, or 0 when the instruction has no memory operand. JMP and JSR
	// have an effective address but use it only as the target: width 0.
	MemWidth uint8
	// StackPush is the number of bytes stored at SP, SP-1, ...; SP goes
	// down by as many. StackPull is the number loaded from SP+1, SP+2, ...;
	// SP goes up by as many. Either implies SP in RegsRead and RegsWritten.
	StackPush, StackPull uint8
	// Halt: the thread may stop until an interrupt (WAI; STOP when S is
	// clear, which is why STOP reads S).
	Halt bool
	// Vector: the next PC comes from the vector table (SWI; TEST, which
	// outside the special test modes traps as an illegal opcode).
	Vector bool
}

// EffectsOf returns what opcode op on page p reads and writes: the zero
// Effects for an undefined opcode. It never allocates.
func EffectsOf(p Page, op byte) Effects { return effects[pageIndex(p)][op] }

// Effects returns what the instruction reads and writes.
func (i Inst) Effects() Effects { return effects[pageIndex(i.Page)][i.Opcode] }

// String formats the effects much as opcodes.txt's last six columns spell
// them (flags, reads, writes, mem, stack, other), followed by "addr X" or
// "addr Y" for an indexed mode. JMP and JSR's "ea" shows as "-".
func (e Effects) String() string {
	var b strings.Builder
	for i := 7; i >= 0; i-- {
		r, w := e.CCRRead>>i&1 != 0, e.CCRWritten>>i&1 != 0
		switch {
		case r && w:
			b.WriteByte('b')
		case r:
			b.WriteByte('r')
		case w:
			b.WriteByte('w')
		default:
			b.WriteByte('-')
		}
	}
	b.WriteString(" " + e.RegsRead.String() + " " + e.RegsWritten.String() + " ")
	mem := "-"
	if e.MemWidth > 0 {
		mem = ""
		if e.MemRead {
			mem += "r"
		}
		if e.MemWritten {
			mem += "w"
		}
		mem += string(rune('0' + e.MemWidth))
	}
	b.WriteString(mem)
	switch {
	case e.StackPush > 0:
		b.WriteString(" push" + string(rune('0'+e.StackPush)))
	case e.StackPull > 0:
		b.WriteString(" pull" + string(rune('0'+e.StackPull)))
	default:
		b.WriteString(" -")
	}
	switch {
	case e.Halt:
		b.WriteString(" halt")
	case e.Vector:
		b.WriteString(" vector")
	default:
		b.WriteString(" -")
	}
	if e.AddrRegs != 0 {
		b.WriteString(" addr " + e.AddrRegs.String())
	}
	return b.String()
}

// EA returns the instruction's effective address with index registers x
// and y: the operand plus the register Effects names in AddrRegs (the
// indexed modes), the operand itself otherwise (the direct or extended
// address; in the other modes a value that no instruction uses as one).
func (i Inst) EA(x, y uint16) uint16 {
	switch i.Effects().AddrRegs {
	case RegX:
		return i.Operand + x
	case RegY:
		return i.Operand + y
	}
	return i.Operand
}

// Access is an access to an instruction's memory operand: Size bytes (1
// or 2) at Addr, read, written or both.
type Access struct {
	Addr        uint16
	Size        uint8
	Read, Write bool
}

// Access returns the access the instruction makes to its memory operand
// with index registers x and y, as Effects says (MemWidth, MemRead,
// MemWritten) at EA. ok is false for an instruction without one: no
// memory operand, or JMP and JSR, which go to their effective address
// rather than access it. Stack pushes and pulls are not operands.
func (i Inst) Access(x, y uint16) (a Access, ok bool) {
	e := i.Effects()
	if e.MemWidth == 0 {
		return a, false
	}
	return Access{Addr: i.EA(x, y), Size: e.MemWidth, Read: e.MemRead, Write: e.MemWritten}, true
}
