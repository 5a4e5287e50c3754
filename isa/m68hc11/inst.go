// Package m68hc11 decodes and prints Motorola 68HC11 machine instructions.
//
// It knows the complete instruction set of the 68HC11 — every opcode on the
// unprefixed page and on the three prefix pages 0x18, 0x1A and 0xCD — with its
// addressing mode, length, cycle count, the condition-code bits it changes,
// and what it reads and writes.
// The tables come from opcodes.txt, a readable file with one row per opcode,
// through `go generate` (gen.go writes tables.go, which is checked in).
//
// Decode turns bytes into an Inst, a small value that never allocates;
// GNUSyntax prints an Inst the way `m68hc11-objdump -d` does, so that listings
// can be compared line by line. The package does not execute instructions:
// that is package sim, which uses these tables for lengths and cycles.
// It also holds the other facts of the chip that more than one package
// needs: the condition-code bit masks (FlagC … FlagS) and the interrupt
// vector table's layout and names (vectors.go).
//
// EffectsOf (or Inst.Effects) gives, per opcode, the registers, CCR bits,
// memory operand and stack bytes it reads and writes, written once for
// every analysis of the firmware that needs to know them, from
// opcodes.txt's last six columns; looking one up never allocates. The
// sets are exact, not just safe: package sim's TestEffectsAgainstSimulator
// checks on random states of every opcode that nothing outside them is
// read or changed and that every item listed is needed. The choices
// behind them (undefined CCR bits, TEST, the harness) are in the doc of
// Effects.
//
// Divergences from the GNU tools, both deliberate: opcode 0x00 prints as
// "test" (the 68HC11's name; objdump uses the 68HC12's "bgnd"), and undefined
// bytes print as objdump prints them (".byte 0x41", ".byte 0x18, 0x12").
package m68hc11

//go:generate go run gen.go

import "errors"

// Errors returned by Decode.
var (
	// ErrTruncated means the bytes end before the instruction does.
	ErrTruncated = errors.New("truncated instruction")
	// ErrUnrecognized means the bytes are not a defined 68HC11 opcode.
	ErrUnrecognized = errors.New("unrecognized instruction")
)

// Page identifies an opcode page by its prefix byte (0 for no prefix).
type Page uint8

// The four opcode pages.
const (
	Page0  Page = 0x00
	Page18 Page = 0x18
	Page1A Page = 0x1A
	PageCD Page = 0xCD
)

// pageIndex maps a prefix to its table index: 0 none, 1 0x18, 2 0x1A, 3 0xCD.
func pageIndex(p Page) int {
	switch p {
	case Page18:
		return 1
	case Page1A:
		return 2
	case PageCD:
		return 3
	}
	return 0
}

// Mode is an addressing mode.
type Mode uint8

// The addressing modes of the 68HC11.
const (
	ModeNone Mode = iota // not a defined opcode
	Inh                  // inherent: no operand
	Imm8                 // #ii
	Imm16                // #jjkk
	Dir                  // *dd, page-zero address
	Ext                  // hhll, 16-bit address
	IdxX                 // ff,X: unsigned 8-bit offset from X
	IdxY                 // ff,Y: unsigned 8-bit offset from Y
	Rel                  // rr: signed 8-bit branch offset
	BitDir               // BSET/BCLR *dd, #mm
	BitIdxX              // BSET/BCLR ff,X, #mm
	BitIdxY              // BSET/BCLR ff,Y, #mm
	BrDir                // BRSET/BRCLR *dd, #mm, rr
	BrIdxX               // BRSET/BRCLR ff,X, #mm, rr
	BrIdxY               // BRSET/BRCLR ff,Y, #mm, rr
)

var modeNames = [...]string{"none", "inh", "imm8", "imm16", "dir", "ext", "idx", "idy", "rel",
	"bdir", "bidx", "bidy", "brdir", "bridx", "bridy"}

// String returns the mode's name as opcodes.txt spells it.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "mode?"
}

// Indexed reports whether the mode addresses memory at an offset from X or Y.
func (m Mode) Indexed() bool {
	switch m {
	case IdxX, IdxY, BitIdxX, BitIdxY, BrIdxX, BrIdxY:
		return true
	}
	return false
}

// UsesY reports whether the mode indexes from Y.
func (m Mode) UsesY() bool { return m == IdxY || m == BitIdxY || m == BrIdxY }

// CCR bit positions, as in the condition code register.
const (
	FlagC uint8 = 1 << iota
	FlagV
	FlagZ
	FlagN
	FlagI
	FlagH
	FlagX
	FlagS
)

// CCREffect says what an instruction does to each condition-code bit.
// A bit is in at most one of the four masks; bits in none are unaffected.
type CCREffect struct {
	Changed   uint8 // set or cleared according to the result
	Set       uint8 // always set
	Cleared   uint8 // always cleared
	Undefined uint8 // left undefined by the manual
}

// Affected is the mask of every bit the instruction may alter.
func (e CCREffect) Affected() uint8 { return e.Changed | e.Set | e.Cleared | e.Undefined }

// Info is one row of the opcode tables.
type Info struct {
	Op     Op
	Mode   Mode
	Len    uint8 // bytes, prefix included
	Cycles uint8 // E-clock cycles
	CCR    CCREffect
}

// Defined reports whether the row describes a real opcode.
func (i *Info) Defined() bool { return i.Op != OpInvalid }

// Lookup returns the table row for opcode op on page p. The row's Op is
// OpInvalid for an undefined opcode.
func Lookup(p Page, op byte) *Info { return &tables[pageIndex(p)][op] }

// Inst is one decoded instruction. It is a plain value: decoding never allocates.
type Inst struct {
	Op     Op
	Mode   Mode
	Page   Page
	Opcode byte  // the opcode byte after any prefix
	Len    uint8 // bytes, prefix included
	Cycles uint8
	// Operand: the immediate value (Imm8, Imm16), the address (Dir, Ext,
	// BitDir, BrDir) or the unsigned index offset (IdxX, IdxY and the
	// indexed bit forms).
	Operand uint16
	Mask    uint8 // the bit mask of BSET/BCLR/BRSET/BRCLR
	Rel     int8  // the branch displacement of Rel and Br* modes
}

// Info returns the table row the instruction was decoded from.
func (i Inst) Info() *Info { return Lookup(i.Page, i.Opcode) }

// IsBranch reports whether the instruction has a relative branch target.
func (i Inst) IsBranch() bool {
	return i.Mode == Rel || i.Mode == BrDir || i.Mode == BrIdxX || i.Mode == BrIdxY
}

// Target returns the destination of a relative branch at pc: the address of
// the next instruction plus the signed displacement.
func (i Inst) Target(pc uint16) uint16 { return pc + uint16(i.Len) + uint16(int16(i.Rel)) }

// Decode decodes the instruction at the start of src.
//
// On ErrUnrecognized the returned Inst has Op == OpInvalid and Len set to the
// number of bytes a disassembler should skip: 1 for an undefined unprefixed
// opcode, 2 for a prefix followed by a byte that is undefined on its page.
// On ErrTruncated, Len is 0.
func Decode(src []byte) (Inst, error) {
	if len(src) == 0 {
		return Inst{}, ErrTruncated
	}
	page := Page0
	pi := 0
	op := src[0]
	n := 1
	switch op {
	case 0x18, 0x1A, 0xCD:
		if len(src) < 2 {
			return Inst{}, ErrTruncated
		}
		page = Page(op)
		pi = pageIndex(page)
		op = src[1]
		n = 2
	}
	info := &tables[pi][op]
	if info.Op == OpInvalid {
		return Inst{Op: OpInvalid, Page: page, Opcode: op, Len: uint8(n)}, ErrUnrecognized
	}
	if len(src) < int(info.Len) {
		return Inst{}, ErrTruncated
	}
	in := Inst{Op: info.Op, Mode: info.Mode, Page: page, Opcode: op, Len: info.Len, Cycles: info.Cycles}
	b := src[n:info.Len]
	switch info.Mode {
	case Imm8, Dir, IdxX, IdxY:
		in.Operand = uint16(b[0])
	case Imm16, Ext:
		in.Operand = uint16(b[0])<<8 | uint16(b[1])
	case Rel:
		in.Rel = int8(b[0])
	case BitDir, BitIdxX, BitIdxY:
		in.Operand = uint16(b[0])
		in.Mask = b[1]
	case BrDir, BrIdxX, BrIdxY:
		in.Operand = uint16(b[0])
		in.Mask = b[1]
		in.Rel = int8(b[2])
	}
	return in, nil
}
