package randprog

import (
	"fmt"
	"sort"
	"strings"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// A tiny assembler for the generator: instructions are encoded from the
// decoder's own opcode tables (isa.Lookup), looked up by mnemonic and
// addressing mode, so that every byte the generator writes decodes back to
// the instruction it meant (TestEncode checks each one it uses); labels
// may be used before they are placed, and are patched when the program is
// finished.

// opKey is an instruction's mnemonic and addressing mode.
type opKey struct {
	mn   string
	mode isa.Mode
}

// opEnc is how an opKey is encoded: the prefix byte (0: none) and the
// opcode.
type opEnc struct {
	page isa.Page
	op   byte
	len  uint8
}

// opcodes maps every defined instruction of the four pages to its
// encoding.
var opcodes = func() map[opKey]opEnc {
	t := map[opKey]opEnc{}
	for _, p := range []isa.Page{isa.Page0, isa.Page18, isa.Page1A, isa.PageCD} {
		for op := 0; op < 256; op++ {
			in := isa.Lookup(p, byte(op))
			if !in.Defined() {
				continue
			}
			t[opKey{in.Op.String(), in.Mode}] = opEnc{p, byte(op), in.Len}
		}
	}
	return t
}()

// enc encodes one instruction: operand is the immediate value, the
// address or the index offset; for the bit modes mask is the mask, and
// for relative branches rel the displacement. It panics on an instruction
// the 68HC11 does not have: a bug of the generator.
func enc(mn string, mode isa.Mode, operand uint16, mask uint8, rel int8) []byte {
	e, ok := opcodes[opKey{mn, mode}]
	if !ok {
		panic(fmt.Sprintf("randprog: no instruction %s in mode %s", mn, mode))
	}
	var b []byte
	if e.page != isa.Page0 {
		b = append(b, byte(e.page))
	}
	b = append(b, e.op)
	switch mode {
	case isa.Imm8, isa.Dir, isa.IdxX, isa.IdxY:
		b = append(b, byte(operand))
	case isa.Imm16, isa.Ext:
		b = append(b, byte(operand>>8), byte(operand))
	case isa.Rel:
		b = append(b, byte(rel))
	case isa.BitDir, isa.BitIdxX, isa.BitIdxY:
		b = append(b, byte(operand), mask)
	case isa.BrDir, isa.BrIdxX, isa.BrIdxY:
		b = append(b, byte(operand), mask, byte(rel))
	}
	if len(b) != int(e.len) {
		panic(fmt.Sprintf("randprog: %s %s encodes in %d bytes, the table says %d", mn, mode, len(b), e.len))
	}
	return b
}

// Shorthands for the modes the generator uses most.
func inh(mn string) []byte             { return enc(mn, isa.Inh, 0, 0, 0) }
func imm8(mn string, v uint8) []byte   { return enc(mn, isa.Imm8, uint16(v), 0, 0) }
func imm16(mn string, v uint16) []byte { return enc(mn, isa.Imm16, v, 0, 0) }
func ext(mn string, a uint16) []byte   { return enc(mn, isa.Ext, a, 0, 0) }
func idx(mn string, off uint8) []byte  { return enc(mn, isa.IdxX, uint16(off), 0, 0) }
func idy(mn string, off uint8) []byte  { return enc(mn, isa.IdxY, uint16(off), 0, 0) }
func rel(mn string, d int8) []byte     { return enc(mn, isa.Rel, 0, 0, d) }
func cat(parts ...[]byte) (out []byte) { // concatenates encoded instructions
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// mem encodes an instruction on the memory operand at a: direct mode where
// a is in page zero and dir says so, extended otherwise.
func mem(mn string, a uint16, dir bool) []byte {
	if dir && a < 0x100 {
		if _, ok := opcodes[opKey{mn, isa.Dir}]; ok {
			return enc(mn, isa.Dir, a, 0, 0)
		}
	}
	return ext(mn, a)
}

// fixKind says how a label's address is patched into the bytes.
type fixKind uint8

const (
	fixAbs16 fixKind = iota // two bytes, big-endian
	fixHi8                  // the high byte
	fixLo8                  // the low byte
	fixRel8                 // a branch displacement from the byte after it
)

type fixup struct {
	at    uint16 // the byte to patch
	next  uint16 // for fixRel8: the address the displacement counts from
	label string
	kind  fixKind
}

// span is a placed piece of the image, for the listing.
type span struct {
	at   uint16
	n    int
	code bool // instructions (disassembled) or data (.byte); notes are asm.notes
}

// asm places code and data into a 64 KiB memory image.
type asm struct {
	mem    [65536]byte
	used   [65536]bool
	pc     uint16
	labels map[string]uint16
	fixups []fixup
	spans  []span
	notes  map[uint16]string // comments by address, for the listing
}

func newAsm() *asm {
	return &asm{labels: map[string]uint16{}, notes: map[uint16]string{}}
}

// org moves the placement address.
func (a *asm) org(pc uint16) { a.pc = pc }

// label names the current address.
func (a *asm) label(name string) {
	if _, dup := a.labels[name]; dup {
		panic("randprog: label " + name + " placed twice")
	}
	a.labels[name] = a.pc
}

// put places bytes at the current address.
func (a *asm) put(b []byte, code bool) uint16 {
	at := a.pc
	for i, c := range b {
		p := at + uint16(i)
		if a.used[p] {
			panic(fmt.Sprintf("randprog: byte 0x%04X placed twice", p))
		}
		a.mem[p], a.used[p] = c, true
	}
	if len(b) > 0 {
		a.spans = append(a.spans, span{at: at, n: len(b), code: code})
	}
	a.pc += uint16(len(b))
	return at
}

// code places instructions.
func (a *asm) code(parts ...[]byte) { a.put(cat(parts...), true) }

// data places bytes that are not executed where they are.
func (a *asm) data(b ...byte) { a.put(b, false) }

// note comments the current address in the listing.
func (a *asm) note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if old := a.notes[a.pc]; old != "" {
		s = old + "; " + s
	}
	a.notes[a.pc] = s
}

// branch places a relative branch (mn in Rel mode) to a label.
func (a *asm) branch(mn, label string) {
	b := rel(mn, 0)
	at := a.pc
	a.code(b)
	a.fixups = append(a.fixups, fixup{at: at + uint16(len(b)) - 1, next: at + uint16(len(b)), label: label, kind: fixRel8})
}

// extL places an instruction in extended mode whose operand is a label's
// address (jmp, jsr, ldx #... use immL).
func (a *asm) extL(mn, label string) {
	at := a.pc
	a.code(ext(mn, 0))
	a.fixups = append(a.fixups, fixup{at: at + 1, label: label, kind: fixAbs16})
}

// immL places a 16-bit immediate load of a label's address.
func (a *asm) immL(mn, label string) {
	b := imm16(mn, 0)
	at := a.pc
	a.code(b)
	a.fixups = append(a.fixups, fixup{at: at + uint16(len(b)) - 2, label: label, kind: fixAbs16})
}

// imm8L places an 8-bit immediate load of the high (hi) or low byte of a
// label's address.
func (a *asm) imm8L(mn, label string, hi bool) {
	at := a.pc
	a.code(imm8(mn, 0))
	k := fixLo8
	if hi {
		k = fixHi8
	}
	a.fixups = append(a.fixups, fixup{at: at + 1, label: label, kind: k})
}

// word places a 16-bit data word holding a label's address.
func (a *asm) wordL(label string) {
	at := a.pc
	a.data(0, 0)
	a.fixups = append(a.fixups, fixup{at: at, label: label, kind: fixAbs16})
}

// resolve patches every label use; it panics on an unknown label or a
// branch out of range (bugs of the generator).
func (a *asm) resolve() {
	for _, f := range a.fixups {
		v, ok := a.labels[f.label]
		if !ok {
			panic("randprog: label " + f.label + " never placed")
		}
		switch f.kind {
		case fixAbs16:
			a.mem[f.at], a.mem[f.at+1] = byte(v>>8), byte(v)
		case fixHi8:
			a.mem[f.at] = byte(v >> 8)
		case fixLo8:
			a.mem[f.at] = byte(v)
		case fixRel8:
			d := int(v) - int(f.next)
			if d < -128 || d > 127 {
				panic(fmt.Sprintf("randprog: branch to %s out of range (%d)", f.label, d))
			}
			a.mem[f.at] = byte(int8(d))
		}
	}
	a.fixups = nil
}

// listing is the placed bytes as an assembly-like listing: instructions
// disassembled, data as .byte, labels and comments.
func (a *asm) listing() string {
	byAddr := map[uint16][]string{}
	for n, v := range a.labels {
		byAddr[v] = append(byAddr[v], n)
	}
	sp := append([]span(nil), a.spans...)
	sort.Slice(sp, func(i, j int) bool { return sp[i].at < sp[j].at })
	var b strings.Builder
	for _, s := range sp {
		for p := int(s.at); p < int(s.at)+s.n; {
			at := uint16(p)
			names := byAddr[at]
			sort.Strings(names)
			for _, n := range names {
				fmt.Fprintf(&b, "%s:\n", n)
			}
			n := 1
			text := fmt.Sprintf(".byte 0x%02x", a.mem[at])
			if s.code {
				in, err := isa.Decode(a.mem[p:min(p+5, int(s.at)+s.n)])
				if err == nil {
					n = int(in.Len)
					text = isa.GNUSyntax(in, at, nil)
				}
			}
			var hexb strings.Builder
			for i := 0; i < n; i++ {
				fmt.Fprintf(&hexb, "%02x ", a.mem[p+i])
			}
			line := fmt.Sprintf("  %04x  %-15s %s", at, hexb.String(), text)
			if c := a.notes[at]; c != "" {
				line = fmt.Sprintf("%-44s ; %s", line, c)
			}
			b.WriteString(line + "\n")
			p += n
		}
	}
	return b.String()
}
