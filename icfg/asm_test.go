package icfg

import (
	"fmt"
	"sort"

	"github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// asm is a small two-pass encoder for test programs: raw opcodes with
// label operands, no assembler needed.
type asm struct {
	org    uint16
	buf    []byte
	labels map[string]uint16
	syms   []loader.Symbol
	fixes  []fix
	data   int // bytes from here on form a read-only data segment; -1: none
}

type fix struct {
	pos   int
	label string
	rel   bool // an 8-bit displacement from pos+1, else a 16-bit address
	half  int  // 1: the high byte of the address, 2: the low byte
}

func newAsm(org uint16) *asm { return &asm{org: org, labels: map[string]uint16{}, data: -1} }

// rodata starts the read-only, non-executable part of the image.
func (a *asm) rodata() *asm { a.data = len(a.buf); return a }

func (a *asm) pc() uint16 { return a.org + uint16(len(a.buf)) }

// label defines a local untyped label.
func (a *asm) label(name string) *asm { return a.sym(name, loader.SymNone, false) }

// sym defines a label with a symbol kind and binding.
func (a *asm) sym(name string, kind loader.SymKind, global bool) *asm {
	a.labels[name] = a.pc()
	a.syms = append(a.syms, loader.Symbol{Name: name, Addr: a.pc(), Kind: kind, Global: global})
	return a
}

// b emits raw bytes.
func (a *asm) b(bytes ...byte) *asm { a.buf = append(a.buf, bytes...); return a }

// ext emits an opcode (with prefix bytes) and a 16-bit label operand.
func (a *asm) ext(label string, op ...byte) *asm {
	a.buf = append(a.buf, op...)
	a.fixes = append(a.fixes, fix{pos: len(a.buf), label: label})
	a.buf = append(a.buf, 0, 0)
	return a
}

// rel emits an opcode (and any operand bytes before the displacement) and
// an 8-bit displacement to label.
func (a *asm) rel(label string, op ...byte) *asm {
	a.buf = append(a.buf, op...)
	a.fixes = append(a.fixes, fix{pos: len(a.buf), label: label, rel: true})
	a.buf = append(a.buf, 0)
	return a
}

// hi and lo emit an opcode and the high or low byte of a label's address.
func (a *asm) hi(label string, op byte) *asm {
	a.buf = append(a.buf, op)
	a.fixes = append(a.fixes, fix{pos: len(a.buf), label: label, half: 1})
	a.buf = append(a.buf, 0)
	return a
}

func (a *asm) lo(label string, op byte) *asm {
	a.buf = append(a.buf, op)
	a.fixes = append(a.fixes, fix{pos: len(a.buf), label: label, half: 2})
	a.buf = append(a.buf, 0)
	return a
}

// word emits a 16-bit label value.
func (a *asm) word(label string) *asm { return a.ext(label) }

// Opcodes used by the tests.
const (
	opNOP  = 0x01
	opINX  = 0x08
	opBRA  = 0x20
	opBNE  = 0x26
	opBEQ  = 0x27
	opPULX = 0x38
	opRTS  = 0x39
	opABX  = 0x3A
	opRTI  = 0x3B
	opPSHX = 0x3C
	opWAI  = 0x3E
	opSWI  = 0x3F
	opASLB = 0x58
	opJMPX = 0x6E
	opJMP  = 0x7E
	opLDAA = 0x86
	opBSR  = 0x8D
	opLDS  = 0x8E
	opXGDX = 0x8F
	opJSRX = 0xAD
	opJSR  = 0xBD
	opLDAB = 0xC6
	opLDD  = 0xCC
	opLDX  = 0xCE
	opLDXX = 0xEE
)

// resolve patches the label operands.
func (a *asm) resolve() {
	for _, f := range a.fixes {
		t, ok := a.labels[f.label]
		if !ok {
			panic("undefined label " + f.label)
		}
		switch {
		case f.half == 1:
			a.buf[f.pos] = byte(t >> 8)
			continue
		case f.half == 2:
			a.buf[f.pos] = byte(t)
			continue
		}
		if f.rel {
			d := int(t) - (int(a.org) + f.pos + 1)
			if d < -128 || d > 127 {
				panic(fmt.Sprintf("branch to %s out of range", f.label))
			}
			a.buf[f.pos] = byte(int8(d))
		} else {
			a.buf[f.pos], a.buf[f.pos+1] = byte(t>>8), byte(t)
		}
	}
}

// stubs emits the harness stubs as global labels on RTS instructions.
func (a *asm) stubs(names ...string) *asm {
	for _, n := range names {
		a.sym(n, loader.SymNone, true).b(opRTS)
	}
	return a
}

// image builds an image with the code as one executable segment, the
// extra segments given, and the reset vector at reset.
func (a *asm) image(reset string, extra ...loader.Segment) *loader.Image {
	a.resolve()
	img := &loader.Image{Path: "test"}
	code := a.buf
	if a.data >= 0 {
		code = a.buf[:a.data]
		img.Segments = append(img.Segments, loader.Segment{Addr: a.org + uint16(a.data), Data: a.buf[a.data:], Name: ".rodata"})
	}
	img.Segments = append(img.Segments, loader.Segment{Addr: a.org, Data: code, Name: ".text", Exec: true})
	img.Segments = append(img.Segments, extra...)
	sort.Slice(img.Segments, func(i, j int) bool { return img.Segments[i].Addr < img.Segments[j].Addr })
	img.Symbols = append(img.Symbols, a.syms...)
	sort.Slice(img.Symbols, func(i, j int) bool {
		if img.Symbols[i].Addr != img.Symbols[j].Addr {
			return img.Symbols[i].Addr < img.Symbols[j].Addr
		}
		return img.Symbols[i].Name < img.Symbols[j].Name
	})
	if reset != "" {
		img.Vectors[m68hc11.VecReset] = a.labels[reset]
		img.VectorLoaded[m68hc11.VecReset] = true
		img.Entry, img.HasEntry = a.labels[reset], true
	}
	return img
}
