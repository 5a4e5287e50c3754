package m68hc11

import (
	"strconv"
	"strings"
)

// String returns the mnemonic as the GNU tools spell it.
func (op Op) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return "op" + strconv.Itoa(int(op))
}

// Symbolizer names an address for printing: the symbol to print it
// relative to and that symbol's address. ok is false when the image has no
// symbols at all; then addresses print bare, as objdump prints them.
type Symbolizer func(addr uint16) (name string, base uint16, ok bool)

// GNUSyntax prints the instruction at pc in the syntax of m68hc11-objdump -d:
// the mnemonic, a tab, and the operands, with 16-bit immediates, direct and
// extended addresses and branch targets followed by <symbol+offset> when
// sym names them. An undefined opcode prints as objdump's .byte directive;
// for that the caller passes the Inst returned with ErrUnrecognized.
func GNUSyntax(in Inst, pc uint16, sym Symbolizer) string {
	return GNUSyntaxRoles(in, pc, Symbols{Value: sym, Memory: sym, Code: sym})
}

// Symbols names addresses by the role they play in an instruction, for
// printers that can tell more than objdump does (a trace names a memory
// operand after the variable there, but a 16-bit immediate only when it is
// an address). A nil field leaves addresses of that role bare.
type Symbols struct {
	Value  Symbolizer // 16-bit immediates
	Memory Symbolizer // direct and extended memory operands
	Code   Symbolizer // branch targets, and the destinations of JMP and JSR
}

// GNUSyntaxRoles is GNUSyntax with one symbol lookup per role.
func GNUSyntaxRoles(in Inst, pc uint16, syms Symbols) string {
	mem := syms.Memory
	if in.Op == JMP || in.Op == JSR {
		mem = syms.Code
	}
	var b strings.Builder
	if in.Op == OpInvalid {
		b.WriteString(".byte\t")
		if in.Page != Page0 {
			hex2(&b, uint8(in.Page))
			b.WriteString(", ")
		}
		hex2(&b, in.Opcode)
		return b.String()
	}
	b.WriteString(in.Op.String())
	if in.Mode == Inh {
		return b.String()
	}
	b.WriteByte('\t')
	switch in.Mode {
	case Imm8:
		b.WriteString("#" + hex(in.Operand))
	case Imm16:
		b.WriteByte('#')
		addr(&b, in.Operand, syms.Value)
	case Dir:
		b.WriteByte('*')
		addr(&b, in.Operand, mem)
	case Ext:
		addr(&b, in.Operand, mem)
	case IdxX:
		b.WriteString(hex(in.Operand) + ",x")
	case IdxY:
		b.WriteString(hex(in.Operand) + ",y")
	case Rel:
		addr(&b, in.Target(pc), syms.Code)
	case BitDir, BrDir:
		b.WriteByte('*')
		addr(&b, in.Operand, mem)
	case BitIdxX, BrIdxX:
		b.WriteString(hex(in.Operand) + ",x")
	case BitIdxY, BrIdxY:
		b.WriteString(hex(in.Operand) + ",y")
	}
	switch in.Mode {
	case BitDir, BitIdxX, BitIdxY, BrDir, BrIdxX, BrIdxY:
		b.WriteString(", #")
		hex2(&b, in.Mask)
	}
	switch in.Mode {
	case BrDir, BrIdxX, BrIdxY:
		b.WriteString(", ")
		addr(&b, in.Target(pc), syms.Code)
	}
	return b.String()
}

// hex2 writes a byte as objdump writes masks and .byte values: 0x and two digits.
func hex2(b *strings.Builder, v uint8) {
	const digits = "0123456789abcdef"
	b.WriteString("0x")
	b.WriteByte(digits[v>>4])
	b.WriteByte(digits[v&15])
}

func hex(v uint16) string { return "0x" + strconv.FormatUint(uint64(v), 16) }

// addr prints an address and, when there are symbols, " <name±off>".
func addr(b *strings.Builder, a uint16, sym Symbolizer) {
	b.WriteString(hex(a))
	if sym == nil {
		return
	}
	name, base, ok := sym(a)
	if !ok {
		return
	}
	b.WriteString(" <" + name)
	switch {
	case a > base:
		b.WriteString("+" + hex(a-base))
	case a < base:
		b.WriteString("-" + hex(base-a))
	}
	b.WriteByte('>')
}
