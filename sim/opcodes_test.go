package sim

import (
	"fmt"
	"strings"
	"testing"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// The opcode tests: one row per instruction form and operand case, from the
// M68HC11 Reference Manual, Appendix A (operation and Boolean CCR formulas
// of each instruction) and Table A-1 (opcodes, lengths, cycles). Every
// expected value below is a literal worked out by hand from those
// definitions; nothing is computed by the simulator's own arithmetic.

// opRow is one instruction executed once from a given machine state.
type opRow struct {
	name string
	code []byte // the instruction, loaded at 0xD000
	in   CPU    // registers before (PC is 0xD000 whatever in.PC says)
	mem  []mb   // RAM bytes before
	out  CPU    // registers after
	want []mb   // RAM bytes after; every other RAM byte must be unchanged
	cyc  uint64 // cycles of Table A-1

	extra  map[uint16][]byte          // more image chunks (vectors)
	setup  func(m *Machine, s *State) // last touches before the step
	status uint8                      // the thread's status after (Running by default)
	viol   Kind                       // the expected violation, if any
	undefD bool                       // D is indeterminate after (the manual says so)
	undefX bool                       // X is indeterminate after
	undefC uint8                      // CCR bits the manual leaves undefined
}

func (r opRow) run(t *testing.T) {
	t.Helper()
	m := cachedMachine(t, r.code, r.extra, Config{})
	s := m.Initial()
	th := &s.Threads[0]
	th.CPU = r.in
	th.PC = org
	for _, w := range r.mem {
		poke(t, m, s, w.a, w.v)
	}
	if r.setup != nil {
		r.setup(m, s)
	}
	before := ramOf(m, s)
	res := m.Run(s, RunOptions{Steps: 1})
	th = &s.Threads[0]
	if r.viol != KindNone {
		if res.Violation == nil || res.Violation.Kind != r.viol {
			t.Fatalf("want a %s violation, got %v (%s)", r.viol, res.Violation, res.Reason)
		}
		if res.Violation.PC != org {
			t.Errorf("violation at PC 0x%04X, want 0x%04X", res.Violation.PC, org)
		}
		return
	}
	if res.Violation != nil {
		t.Fatalf("unexpected violation: %v", res.Violation)
	}
	if res.Steps != 1 {
		t.Errorf("ran %d steps", res.Steps)
	}
	got, want := th.CPU, r.out
	got.CCR &^= r.undefC
	want.CCR &^= r.undefC
	if r.undefD {
		got.A, got.B = want.A, want.B
	}
	if r.undefX {
		got.X = want.X
	}
	if got != want {
		t.Errorf("registers\n got %s\nwant %s", fmtCPU(got), fmtCPU(want))
	}
	if th.Cycles != r.cyc {
		t.Errorf("cycles %d, want %d (Table A-1)", th.Cycles, r.cyc)
	}
	if th.Status != r.status {
		t.Errorf("status %d, want %d", th.Status, r.status)
	}
	exp := before
	for _, w := range r.want {
		exp[w.a] = w.v
	}
	after := ramOf(m, s)
	for a, v := range exp {
		if after[a] != v {
			t.Errorf("memory[0x%04X] = 0x%02X, want 0x%02X", a, after[a], v)
		}
	}
}

// --- Operand placement for the memory addressing modes -------------------

type amode uint8

const (
	mImm amode = iota
	mDir
	mExt
	mIdx
	mIdy
	numModes
)

var modeName = [numModes]string{"imm", "dir", "ext", "idx", "idy"}

// Where the memory operand lives in each mode. The index offsets are above
// 0x7F so that a signed offset would land elsewhere (the manual: the offset
// is an unsigned 8-bit value).
const (
	dirAddr = 0x0040
	extAddr = 0x0150
	idxBase = 0x0100 // X
	idxOff  = 0xC0   // ea 0x01C0
	idyBase = 0x0080 // Y
	idyOff  = 0xC8   // ea 0x0148
)

// eaOf returns the effective address the mode's operand bytes name, the
// bytes themselves, and sets the index register.
func eaOf(md amode, c *CPU) (ea uint16, operand []byte) {
	switch md {
	case mDir:
		return dirAddr, []byte{dirAddr}
	case mExt:
		return extAddr, []byte{extAddr >> 8, extAddr & 0xff}
	case mIdx:
		c.X = idxBase
		return idxBase + idxOff, []byte{idxOff}
	case mIdy:
		c.Y = idyBase
		return idyBase + idyOff, []byte{idyOff}
	}
	panic("no effective address in immediate mode")
}

// forms lists an instruction's opcode bytes (prefix included) and cycles
// (Table A-1) per addressing mode; nil where the mode does not exist.
type forms struct {
	enc [numModes][]byte
	cyc [numModes]uint64
}

func b(x ...byte) []byte { return x }

// --- 8-bit accumulator operations: ADD, ADC, SUB, SBC, CMP, AND, BIT, OR, EOR, LDA

// v8 is one operand case: accumulator and operand in, result and CCR out.
type v8 struct {
	acc, m, ccr, res, ccrOut uint8
}

var (
	addV = []v8{
		{0x3A, 0x25, 0xD0, 0x5F, 0xD0},
		{0x08, 0x08, 0x00, 0x10, cH},           // carry out of bit 3
		{0x7F, 0x01, 0x00, 0x80, cH | cN | cV}, // signed overflow
		{0xFF, 0x01, 0x00, 0x00, cH | cZ | cC}, // carry, zero
		{0x80, 0x80, cH, 0x00, cZ | cV | cC},   // H cleared, V and C
		{0xC0, 0x50, cN | cZ | cV, 0x10, cC},   // carry without overflow
		{0x01, 0x01, cC, 0x02, 0x00},           // the carry in is not added
		{0x0F, 0x01, cS | cX | cI, 0x10, 0xD0 | cH},
	}
	adcV = []v8{
		{0x3A, 0x25, cC, 0x60, cH}, // the carry in reaches bit 4
		{0x7F, 0x00, cC, 0x80, cH | cN | cV},
		{0xFF, 0x00, cC, 0x00, cH | cZ | cC},
		{0x10, 0x20, 0xD0, 0x30, 0xD0},
		{0x0F, 0xF0, 0xD0 | cC, 0x00, 0xD0 | cH | cZ | cC},
		{0x80, 0xFF, 0x00, 0x7F, cV | cC},
	}
	subV = []v8{
		{0x50, 0x20, 0xF0, 0x30, 0xF0}, // H unaffected
		{0x20, 0x50, 0x00, 0xD0, cN | cC},
		{0x80, 0x01, 0x00, 0x7F, cV},
		{0x7F, 0xFF, 0x00, 0x80, cN | cV | cC},
		{0x42, 0x42, cN | cV | cC, 0x00, cZ},
		{0x00, 0x01, 0x00, 0xFF, cN | cC},
		{0x05, 0x03, cC, 0x02, 0x00}, // the borrow in is not subtracted
	}
	sbcV = []v8{
		{0x50, 0x20, cC, 0x2F, 0x00},
		{0x00, 0x00, cC, 0xFF, cN | cC},
		{0x80, 0x00, cC, 0x7F, cV},
		{0x01, 0x00, cC, 0x00, cZ},
		{0x10, 0x10, 0xD0, 0x00, 0xD0 | cZ},
		{0x00, 0xFF, cC, 0x00, cZ | cC},
	}
	andV = []v8{
		{0xF0, 0x3C, cV | cC, 0x30, cC}, // V cleared, C kept
		{0x0F, 0xF0, cN, 0x00, cZ},
		{0xFF, 0x80, 0xF0, 0x80, 0xF0 | cN},
	}
	oraV = []v8{
		{0x50, 0x0A, cZ | cV, 0x5A, 0x00},
		{0x00, 0x00, cC, 0x00, cZ | cC},
		{0x01, 0x80, cV, 0x81, cN},
	}
	eorV = []v8{
		{0xFF, 0x0F, cV | cC, 0xF0, cN | cC},
		{0x55, 0x55, 0x00, 0x00, cZ},
		{0x0F, 0x01, 0xF0 | cN, 0x0E, 0xF0},
	}
	ldaV = []v8{
		{0x11, 0x80, cZ | cV | cC, 0x80, cN | cC},
		{0x22, 0x00, cN | cV, 0x00, cZ},
		{0x33, 0x35, 0xF0 | cV, 0x35, 0xF0},
	}
)

// acc8Forms returns the five forms of the A or B instruction with low
// opcode nibble n (Table A-1: A at 0x8n/0x9n/0xBn/0xAn/18 An, B at
// 0xCn/0xDn/0xFn/0xEn/18 En), cycles 2, 3, 4, 4, 5.
func acc8Forms(isB bool, n byte) forms {
	hi := byte(0x80)
	if isB {
		hi = 0xC0
	}
	return forms{
		enc: [numModes][]byte{b(hi | n), b(hi | 0x10 | n), b(hi | 0x30 | n), b(hi | 0x20 | n), b(0x18, hi|0x20|n)},
		cyc: [numModes]uint64{2, 3, 4, 4, 5},
	}
}

func acc8Rows() []opRow {
	type fam struct {
		name  string
		n     byte
		vs    []v8
		store bool // the result goes back to the accumulator
	}
	fams := []fam{
		{"sub", 0x0, subV, true}, {"cmp", 0x1, subV, false}, {"sbc", 0x2, sbcV, true},
		{"and", 0x4, andV, true}, {"bit", 0x5, andV, false}, {"lda", 0x6, ldaV, true},
		{"eor", 0x8, eorV, true}, {"adc", 0x9, adcV, true}, {"ora", 0xA, oraV, true},
		{"add", 0xB, addV, true},
	}
	var rows []opRow
	for _, f := range fams {
		for _, isB := range []bool{false, true} {
			reg := "a"
			if isB {
				reg = "b"
			}
			fm := acc8Forms(isB, f.n)
			for md := mImm; md < numModes; md++ {
				for i, v := range f.vs {
					var in CPU
					var code []byte
					var mem []mb
					if md == mImm {
						code = cat(fm.enc[md], b(v.m))
					} else {
						ea, op := eaOf(md, &in)
						code = cat(fm.enc[md], op)
						mem = []mb{{ea, v.m}}
					}
					in.CCR = v.ccr
					// the other accumulator holds a value that must survive
					if isB {
						in.B, in.A = v.acc, 0x5A
					} else {
						in.A, in.B = v.acc, 0xA5
					}
					out := in
					out.PC = org + uint16(len(code))
					out.CCR = v.ccrOut
					if f.store {
						if isB {
							out.B = v.res
						} else {
							out.A = v.res
						}
					}
					rows = append(rows, opRow{
						name: fmt.Sprintf("%s%s_%s_%d", f.name, reg, modeName[md], i),
						code: code, in: in, mem: mem, out: out, want: mem, cyc: fm.cyc[md],
					})
				}
			}
		}
	}
	// STAA / STAB: dir, ext, idx, idy (0x97/B7/A7/18 A7 and 0xD7/F7/E7/18 E7), cycles 3, 4, 4, 5.
	type st8 struct{ acc, ccr, ccrOut uint8 }
	stV := []st8{
		{0x80, cZ | cV, cN},
		{0x00, cN | cC, cZ | cC},
		{0x12, 0xF0 | cN | cZ | cV, 0xF0},
	}
	for _, isB := range []bool{false, true} {
		fm := acc8Forms(isB, 0x7)
		reg := "a"
		if isB {
			reg = "b"
		}
		for md := mDir; md < numModes; md++ {
			for i, v := range stV {
				var in CPU
				ea, op := eaOf(md, &in)
				code := cat(fm.enc[md], op)
				if isB {
					in.B, in.A = v.acc, 0x77
				} else {
					in.A, in.B = v.acc, 0x77
				}
				in.CCR = v.ccr
				out := in
				out.CCR = v.ccrOut
				out.PC = org + uint16(len(code))
				rows = append(rows, opRow{
					name: fmt.Sprintf("sta%s_%s_%d", reg, modeName[md], i),
					code: code, in: in, out: out,
					mem:  []mb{{ea, 0xEE}},
					want: []mb{{ea, v.acc}},
					cyc:  fm.cyc[md],
				})
			}
		}
	}
	return rows
}

// --- 16-bit operations: ADDD, SUBD, CPD, CPX, CPY, LDD, LDS, LDX, LDY and the stores

type v16 struct {
	r, m   uint16
	ccr    uint8
	res    uint16
	ccrOut uint8
}

var (
	adddV = []v16{
		{0x1234, 0x1111, 0xF0, 0x2345, 0xF0},
		{0x7FFF, 0x0001, 0x00, 0x8000, cN | cV},
		{0xFFFF, 0x0001, 0x00, 0x0000, cZ | cC},
		{0x8000, 0x8000, 0x00, 0x0000, cZ | cV | cC},
		{0x00FF, 0x0001, cN | cZ | cV | cC, 0x0100, 0x00}, // carry from B into A
	}
	subdV = []v16{
		{0x5000, 0x2000, cN | cZ | cV | cC, 0x3000, 0x00},
		{0x2000, 0x5000, 0x00, 0xD000, cN | cC},
		{0x8000, 0x0001, 0x00, 0x7FFF, cV},
		{0x1234, 0x1234, 0xF0, 0x0000, 0xF0 | cZ},
		{0x0100, 0x0001, 0x00, 0x00FF, 0x00}, // borrow from A into B
		{0x7FFF, 0xFFFF, 0x00, 0x8000, cN | cV | cC},
		{0x0001, 0x0100, 0x00, 0xFF01, cN | cC},
	}
	ld16V = []v16{
		{0x1111, 0x8000, cZ | cV | cC, 0x8000, cN | cC},
		{0x2222, 0x0000, cN | cV, 0x0000, cZ},
		{0x3333, 0x00FF, 0xF0 | cV | cC, 0x00FF, 0xF0 | cC}, // Z looks at both bytes
	}
)

func get16(c *CPU, reg byte) uint16 {
	switch reg {
	case 'D':
		return c.D()
	case 'X':
		return c.X
	case 'Y':
		return c.Y
	}
	return c.SP
}

func set16(c *CPU, reg byte, v uint16) {
	switch reg {
	case 'D':
		c.SetD(v)
	case 'X':
		c.X = v
	case 'Y':
		c.Y = v
	default:
		c.SP = v
	}
}

func wide16Rows() []opRow {
	type fam struct {
		name  string
		reg   byte
		fm    forms
		vs    []v16
		store bool // the result goes to the register
		load  bool // the register's old value does not matter
	}
	fams := []fam{
		{"subd", 'D', forms{[numModes][]byte{b(0x83), b(0x93), b(0xB3), b(0xA3), b(0x18, 0xA3)}, [numModes]uint64{4, 5, 6, 6, 7}}, subdV, true, false},
		{"addd", 'D', forms{[numModes][]byte{b(0xC3), b(0xD3), b(0xF3), b(0xE3), b(0x18, 0xE3)}, [numModes]uint64{4, 5, 6, 6, 7}}, adddV, true, false},
		{"cpd", 'D', forms{[numModes][]byte{b(0x1A, 0x83), b(0x1A, 0x93), b(0x1A, 0xB3), b(0x1A, 0xA3), b(0xCD, 0xA3)}, [numModes]uint64{5, 6, 7, 7, 7}}, subdV, false, false},
		{"cpx", 'X', forms{[numModes][]byte{b(0x8C), b(0x9C), b(0xBC), b(0xAC), b(0xCD, 0xAC)}, [numModes]uint64{4, 5, 6, 6, 7}}, subdV, false, false},
		{"cpy", 'Y', forms{[numModes][]byte{b(0x18, 0x8C), b(0x18, 0x9C), b(0x18, 0xBC), b(0x1A, 0xAC), b(0x18, 0xAC)}, [numModes]uint64{5, 6, 7, 7, 7}}, subdV, false, false},
		{"ldd", 'D', forms{[numModes][]byte{b(0xCC), b(0xDC), b(0xFC), b(0xEC), b(0x18, 0xEC)}, [numModes]uint64{3, 4, 5, 5, 6}}, ld16V, true, true},
		{"lds", 'S', forms{[numModes][]byte{b(0x8E), b(0x9E), b(0xBE), b(0xAE), b(0x18, 0xAE)}, [numModes]uint64{3, 4, 5, 5, 6}}, ld16V, true, true},
		{"ldx", 'X', forms{[numModes][]byte{b(0xCE), b(0xDE), b(0xFE), b(0xEE), b(0xCD, 0xEE)}, [numModes]uint64{3, 4, 5, 5, 6}}, ld16V, true, true},
		{"ldy", 'Y', forms{[numModes][]byte{b(0x18, 0xCE), b(0x18, 0xDE), b(0x18, 0xFE), b(0x1A, 0xEE), b(0x18, 0xEE)}, [numModes]uint64{4, 5, 6, 6, 6}}, ld16V, true, true},
	}
	var rows []opRow
	for _, f := range fams {
		for md := mImm; md < numModes; md++ {
			base := byte(0)
			switch md {
			case mIdx:
				base = 'X'
			case mIdy:
				base = 'Y'
			}
			if base == f.reg && !f.load {
				continue // CPX n,X and CPY n,Y: hand-written rows below
			}
			for i, v := range f.vs {
				in := CPU{A: 0x13, B: 0x57, X: 0x2468, Y: 0x9BDF, SP: 0x0A0B, CCR: v.ccr}
				var code []byte
				var mem []mb
				if md == mImm {
					code = cat(f.fm.enc[md], b(byte(v.m>>8), byte(v.m)))
				} else {
					ea, op := eaOf(md, &in)
					code = cat(f.fm.enc[md], op)
					mem = []mb{{ea, byte(v.m >> 8)}, {ea + 1, byte(v.m)}}
				}
				if !(f.load && base == f.reg) {
					set16(&in, f.reg, v.r)
				}
				out := in
				out.PC = org + uint16(len(code))
				out.CCR = v.ccrOut
				if f.store {
					set16(&out, f.reg, v.res)
				}
				rows = append(rows, opRow{
					name: fmt.Sprintf("%s_%s_%d", f.name, modeName[md], i),
					code: code, in: in, mem: mem, out: out, want: mem, cyc: f.fm.cyc[md],
				})
			}
		}
	}
	// CPX n,X and CPY n,Y: the register is both the base and the operand.
	rows = append(rows,
		opRow{name: "cpx_idx_eq", code: b(0xAC, 0x10), in: CPU{X: 0x0120, CCR: cN | cV | cC},
			mem: []mb{{0x0130, 0x01}, {0x0131, 0x20}}, out: CPU{X: 0x0120, CCR: cZ, PC: 0xD002}, cyc: 6},
		opRow{name: "cpx_idx_lt", code: b(0xAC, 0x10), in: CPU{X: 0x0120, CCR: 0xF0},
			mem: []mb{{0x0130, 0x80}, {0x0131, 0x00}}, out: CPU{X: 0x0120, CCR: 0xF0 | cN | cV | cC, PC: 0xD002}, cyc: 6},
		opRow{name: "cpy_idy_eq", code: b(0x18, 0xAC, 0x10), in: CPU{Y: 0x0120, CCR: cN | cV | cC},
			mem: []mb{{0x0130, 0x01}, {0x0131, 0x20}}, out: CPU{Y: 0x0120, CCR: cZ, PC: 0xD003}, cyc: 7},
		opRow{name: "cpy_idy_gt", code: b(0x18, 0xAC, 0x10), in: CPU{Y: 0x0120, CCR: cZ},
			mem: []mb{{0x0130, 0x00}, {0x0131, 0x20}}, out: CPU{Y: 0x0120, CCR: 0x00, PC: 0xD003}, cyc: 7},
	)

	// 16-bit stores: STD, STS, STX, STY in dir, ext, idx, idy.
	type st16 struct {
		v           uint16
		ccr, ccrOut uint8
	}
	stV := []st16{
		{0x8001, cZ | cV, cN},
		{0x0000, cN | cC, cZ | cC},
		{0x00FF, 0xF0 | cV, 0xF0},
	}
	type sfam struct {
		name string
		reg  byte
		enc  [numModes][]byte
		cyc  [numModes]uint64
	}
	sfams := []sfam{
		{"std", 'D', [numModes][]byte{nil, b(0xDD), b(0xFD), b(0xED), b(0x18, 0xED)}, [numModes]uint64{0, 4, 5, 5, 6}},
		{"sts", 'S', [numModes][]byte{nil, b(0x9F), b(0xBF), b(0xAF), b(0x18, 0xAF)}, [numModes]uint64{0, 4, 5, 5, 6}},
		{"stx", 'X', [numModes][]byte{nil, b(0xDF), b(0xFF), b(0xEF), b(0xCD, 0xEF)}, [numModes]uint64{0, 4, 5, 5, 6}},
		{"sty", 'Y', [numModes][]byte{nil, b(0x18, 0xDF), b(0x18, 0xFF), b(0x1A, 0xEF), b(0x18, 0xEF)}, [numModes]uint64{0, 5, 6, 6, 6}},
	}
	for _, f := range sfams {
		for md := mDir; md < numModes; md++ {
			for i, v := range stV {
				in := CPU{A: 0x13, B: 0x57, X: 0x2468, Y: 0x9BDF, SP: 0x0A0B, CCR: v.ccr}
				ea, op := eaOf(md, &in)
				code := cat(f.enc[md], op)
				val := v.v
				switch {
				case md == mIdx && f.reg == 'X', md == mIdy && f.reg == 'Y':
					// the stored register is the base: it stores itself
					val = get16(&in, f.reg)
					if i > 0 {
						continue
					}
				default:
					set16(&in, f.reg, v.v)
				}
				out := in
				out.PC = org + uint16(len(code))
				out.CCR = v.ccrOut
				if val != v.v {
					out.CCR = v.ccr&^(cN|cZ|cV) | b2flag(val&0x8000 != 0, cN) | b2flag(val == 0, cZ)
				}
				rows = append(rows, opRow{
					name: fmt.Sprintf("%s_%s_%d", f.name, modeName[md], i),
					code: code, in: in, out: out,
					mem:  []mb{{ea, 0xEE}, {ea + 1, 0xEE}},
					want: []mb{{ea, byte(val >> 8)}, {ea + 1, byte(val)}},
					cyc:  f.cyc[md],
				})
			}
		}
	}
	return rows
}

func b2flag(c bool, f uint8) uint8 {
	if c {
		return f
	}
	return 0
}

// --- Read-modify-write: NEG COM LSR ROR ASR ASL ROL DEC INC TST CLR on A, B and memory

type vrmw struct{ v, ccr, res, ccrOut uint8 }

func rmwRows() []opRow {
	type fam struct {
		name   string
		n      byte
		vs     []vrmw
		noSave bool // TST writes nothing
	}
	fams := []fam{
		{"neg", 0x0, []vrmw{
			{0x01, 0x00, 0xFF, cN | cC},
			{0x80, 0x00, 0x80, cN | cV | cC}, // NEG of 0x80 overflows
			{0x00, cN | cV | cC, 0x00, cZ},   // NEG of 0x00: no borrow
			{0x7F, 0xF0, 0x81, 0xF0 | cN | cC},
		}, false},
		{"com", 0x3, []vrmw{
			{0x55, cV, 0xAA, cN | cC},
			{0xFF, cN | cV, 0x00, cZ | cC},
			{0x0F, 0xF0, 0xF0, 0xF0 | cN | cC},
		}, false},
		{"lsr", 0x4, []vrmw{
			{0x01, cN, 0x00, cZ | cV | cC}, // V = N xor C = 0 xor 1
			{0x80, cN | cZ | cV | cC, 0x40, 0x00},
			{0x03, 0xF0, 0x01, 0xF0 | cV | cC},
		}, false},
		{"ror", 0x6, []vrmw{
			{0x01, 0x00, 0x00, cZ | cV | cC},
			{0x01, cC, 0x80, cN | cC}, // V = 1 xor 1
			{0x02, cC, 0x81, cN | cV},
			{0x00, cN | cV, 0x00, cZ},
		}, false},
		{"asr", 0x7, []vrmw{
			{0x81, 0x00, 0xC0, cN | cC},
			{0x80, cC, 0xC0, cN | cV},
			{0x01, 0x00, 0x00, cZ | cV | cC},
			{0x40, cN | cZ | cV | cC, 0x20, 0x00},
		}, false},
		{"asl", 0x8, []vrmw{
			{0x40, 0x00, 0x80, cN | cV},
			{0x80, 0x00, 0x00, cZ | cV | cC},
			{0xC0, 0x00, 0x80, cN | cC},
			{0x01, cN | cZ | cV | cC, 0x02, 0x00}, // the carry is not shifted in
		}, false},
		{"rol", 0x9, []vrmw{
			{0x80, 0x00, 0x00, cZ | cV | cC},
			{0x80, cC, 0x01, cV | cC},
			{0x40, cC, 0x81, cN | cV},
			{0xC0, 0x00, 0x80, cN | cC},
		}, false},
		{"dec", 0xA, []vrmw{
			{0x80, cC, 0x7F, cV | cC}, // V; C unaffected
			{0x01, cN | cV, 0x00, cZ},
			{0x00, cC, 0xFF, cN | cC},
		}, false},
		{"inc", 0xC, []vrmw{
			{0x7F, cC, 0x80, cN | cV | cC}, // V; C unaffected
			{0xFF, cN | cV, 0x00, cZ},      // no carry out
			{0x10, 0xF0 | cN | cZ | cV | cC, 0x11, 0xF0 | cC},
		}, false},
		{"tst", 0xD, []vrmw{
			{0x80, cZ | cV | cC, 0x80, cN},
			{0x00, cN | cV | cC, 0x00, cZ},
			{0x01, 0xFF, 0x01, 0xF0},
		}, true},
		{"clr", 0xF, []vrmw{
			{0x5A, cN | cV | cC, 0x00, cZ},
			{0x00, 0xF0, 0x00, 0xF0 | cZ},
		}, false},
	}
	var rows []opRow
	for _, f := range fams {
		for _, form := range []string{"a", "b", "ext", "idx", "idy"} {
			for i, v := range f.vs {
				in := CPU{A: 0x3C, B: 0xC3, X: 0x1357, Y: 0x2468, SP: 0x0100, CCR: v.ccr}
				out := in
				out.CCR = v.ccrOut
				var code []byte
				var cyc uint64
				var mem, want []mb
				switch form {
				case "a":
					code, cyc = b(0x40|f.n), 2
					in.A, out.A = v.v, v.res
				case "b":
					code, cyc = b(0x50|f.n), 2
					in.B, out.B = v.v, v.res
				default:
					md := map[string]amode{"ext": mExt, "idx": mIdx, "idy": mIdy}[form]
					ea, op := eaOf(md, &in)
					out.X, out.Y = in.X, in.Y
					switch md {
					case mExt:
						code, cyc = cat(b(0x70|f.n), op), 6
					case mIdx:
						code, cyc = cat(b(0x60|f.n), op), 6
					case mIdy:
						code, cyc = cat(b(0x18, 0x60|f.n), op), 7
					}
					mem = []mb{{ea, v.v}}
					want = []mb{{ea, v.res}}
					if f.noSave {
						want = mem
					}
				}
				out.PC = org + uint16(len(code))
				name := fmt.Sprintf("%s_%s_%d", f.name, form, i)
				if form == "a" || form == "b" {
					name = fmt.Sprintf("%s%s_%d", f.name, form, i)
				}
				rows = append(rows, opRow{
					name: name,
					code: code, in: in, mem: mem, out: out, want: want, cyc: cyc,
				})
			}
		}
	}
	return rows
}

// --- Branches ---------------------------------------------------------------

// branchCase gives, for each conditional branch, CCR values under which it
// is taken and not taken (Appendix A's branch tests, e.g. BHI: C + Z = 0).
var branchCases = []struct {
	name     string
	op       byte
	taken    []uint8
	notTaken []uint8
}{
	{"bra", 0x20, []uint8{0x00, 0x0F}, nil},
	{"brn", 0x21, nil, []uint8{0x00, 0x0F}},
	{"bhi", 0x22, []uint8{0x00, cN | cV}, []uint8{cC, cZ, cZ | cC}},
	{"bls", 0x23, []uint8{cC, cZ, cZ | cC}, []uint8{0x00, cN | cV}},
	{"bcc", 0x24, []uint8{cN | cZ | cV}, []uint8{cC, 0x0F}},
	{"bcs", 0x25, []uint8{cC}, []uint8{cN | cZ | cV}},
	{"bne", 0x26, []uint8{cN | cV | cC}, []uint8{cZ}},
	{"beq", 0x27, []uint8{cZ}, []uint8{cN | cV | cC}},
	{"bvc", 0x28, []uint8{cN | cZ | cC}, []uint8{cV}},
	{"bvs", 0x29, []uint8{cV}, []uint8{cN | cZ | cC}},
	{"bpl", 0x2A, []uint8{cZ | cV | cC}, []uint8{cN}},
	{"bmi", 0x2B, []uint8{cN}, []uint8{cZ | cV | cC}},
	{"bge", 0x2C, []uint8{0x00, cN | cV, cZ}, []uint8{cN, cV}},
	{"blt", 0x2D, []uint8{cN, cV, cN | cZ}, []uint8{0x00, cN | cV}},
	{"bgt", 0x2E, []uint8{0x00, cN | cV}, []uint8{cZ, cN, cV, cZ | cN | cV}},
	{"ble", 0x2F, []uint8{cZ, cN, cV, cZ | cN | cV}, []uint8{0x00, cN | cV}},
}

func branchRows() []opRow {
	var rows []opRow
	for _, bc := range branchCases {
		for i, c := range bc.taken {
			ccr := c | 0xD0
			rows = append(rows,
				opRow{name: fmt.Sprintf("%s_taken_fwd_%d", bc.name, i), code: b(bc.op, 0x10),
					in: CPU{CCR: ccr}, out: CPU{CCR: ccr, PC: 0xD012}, cyc: 3},
				opRow{name: fmt.Sprintf("%s_taken_back_%d", bc.name, i), code: b(bc.op, 0xFE),
					in: CPU{CCR: ccr}, out: CPU{CCR: ccr, PC: 0xD000}, cyc: 3})
		}
		for i, c := range bc.notTaken {
			rows = append(rows, opRow{name: fmt.Sprintf("%s_not_taken_%d", bc.name, i), code: b(bc.op, 0x10),
				in: CPU{CCR: c}, out: CPU{CCR: c, PC: 0xD002}, cyc: 3})
		}
	}
	return rows
}

// --- Bit manipulation: BSET BCLR BRSET BRCLR in direct, n,X and n,Y --------

func bitRows() []opRow {
	x := CPU{X: idxBase}
	y := CPU{Y: idyBase}
	with := func(c CPU, ccr uint8, pc uint16) CPU { c.CCR, c.PC = ccr, pc; return c }
	const eX, eY = idxBase + idxOff, idyBase + idyOff
	return []opRow{
		{name: "bset_dir", code: b(0x14, 0x40, 0x81), in: with(CPU{}, cZ|cV|cC, 0), mem: []mb{{0x40, 0x10}},
			out: with(CPU{}, cN|cC, 0xD003), want: []mb{{0x40, 0x91}}, cyc: 6},
		{name: "bset_idx", code: b(0x1C, idxOff, 0x03), in: with(x, cN|cV, 0), mem: []mb{{eX, 0x00}},
			out: with(x, 0x00, 0xD003), want: []mb{{eX, 0x03}}, cyc: 7},
		{name: "bset_idy_mask0", code: b(0x18, 0x1C, idyOff, 0x00), in: with(y, 0xF0, 0), mem: []mb{{eY, 0x00}},
			out: with(y, 0xF0|cZ, 0xD004), want: []mb{{eY, 0x00}}, cyc: 8},
		{name: "bset_idy", code: b(0x18, 0x1C, idyOff, 0x80), in: with(y, cZ, 0), mem: []mb{{eY, 0x01}},
			out: with(y, cN, 0xD004), want: []mb{{eY, 0x81}}, cyc: 8},
		{name: "bclr_dir", code: b(0x15, 0x40, 0x0F), in: with(CPU{}, cZ|cV, 0), mem: []mb{{0x40, 0x3C}},
			out: with(CPU{}, 0x00, 0xD003), want: []mb{{0x40, 0x30}}, cyc: 6},
		{name: "bclr_idx", code: b(0x1D, idxOff, 0xFF), in: with(x, cN|cC, 0), mem: []mb{{eX, 0xA5}},
			out: with(x, cZ|cC, 0xD003), want: []mb{{eX, 0x00}}, cyc: 7},
		{name: "bclr_idy", code: b(0x18, 0x1D, idyOff, 0x01), in: with(y, cV, 0), mem: []mb{{eY, 0x81}},
			out: with(y, cN, 0xD004), want: []mb{{eY, 0x80}}, cyc: 8},

		// BRSET branches when every mask bit is set in the operand: (M)' . mm = 0.
		{name: "brset_dir_taken", code: b(0x12, 0x40, 0x81, 0x10), in: with(CPU{}, 0x0F, 0), mem: []mb{{0x40, 0x81}},
			out: with(CPU{}, 0x0F, 0xD014), cyc: 6},
		{name: "brset_dir_not", code: b(0x12, 0x40, 0x81, 0x10), in: with(CPU{}, 0x0F, 0), mem: []mb{{0x40, 0x80}},
			out: with(CPU{}, 0x0F, 0xD004), cyc: 6},
		{name: "brset_dir_mask0", code: b(0x12, 0x40, 0x00, 0x10), in: with(CPU{}, 0, 0), mem: []mb{{0x40, 0x00}},
			out: with(CPU{}, 0, 0xD014), cyc: 6},
		{name: "brset_idx_taken", code: b(0x1E, idxOff, 0x03, 0x10), in: with(x, 0, 0), mem: []mb{{eX, 0xFF}},
			out: with(x, 0, 0xD014), cyc: 7},
		{name: "brset_idx_not", code: b(0x1E, idxOff, 0x03, 0x10), in: with(x, 0, 0), mem: []mb{{eX, 0x02}},
			out: with(x, 0, 0xD004), cyc: 7},
		{name: "brset_idy_taken", code: b(0x18, 0x1E, idyOff, 0x03, 0x10), in: with(y, 0, 0), mem: []mb{{eY, 0x07}},
			out: with(y, 0, 0xD015), cyc: 8},
		{name: "brset_idy_not", code: b(0x18, 0x1E, idyOff, 0x03, 0x10), in: with(y, 0, 0), mem: []mb{{eY, 0x01}},
			out: with(y, 0, 0xD005), cyc: 8},

		// BRCLR branches when every mask bit is clear: (M) . mm = 0.
		{name: "brclr_dir_taken", code: b(0x13, 0x40, 0x81, 0x10), in: with(CPU{}, 0xF0, 0), mem: []mb{{0x40, 0x7E}},
			out: with(CPU{}, 0xF0, 0xD014), cyc: 6},
		{name: "brclr_dir_not", code: b(0x13, 0x40, 0x81, 0x10), in: with(CPU{}, 0xF0, 0), mem: []mb{{0x40, 0x01}},
			out: with(CPU{}, 0xF0, 0xD004), cyc: 6},
		{name: "brclr_dir_mask0", code: b(0x13, 0x40, 0x00, 0x10), in: with(CPU{}, 0, 0), mem: []mb{{0x40, 0xFF}},
			out: with(CPU{}, 0, 0xD014), cyc: 6},
		{name: "brclr_idx_taken_back", code: b(0x1F, idxOff, 0x0C, 0xFE), in: with(x, 0, 0), mem: []mb{{eX, 0xF3}},
			out: with(x, 0, 0xD002), cyc: 7},
		{name: "brclr_idx_not", code: b(0x1F, idxOff, 0x0C, 0xFE), in: with(x, 0, 0), mem: []mb{{eX, 0x04}},
			out: with(x, 0, 0xD004), cyc: 7},
		{name: "brclr_idy_taken", code: b(0x18, 0x1F, idyOff, 0x80, 0x10), in: with(y, 0, 0), mem: []mb{{eY, 0x7F}},
			out: with(y, 0, 0xD015), cyc: 8},
		{name: "brclr_idy_not", code: b(0x18, 0x1F, idyOff, 0x80, 0x10), in: with(y, 0, 0), mem: []mb{{eY, 0x80}},
			out: with(y, 0, 0xD005), cyc: 8},
	}
}

// --- Jumps, calls, returns, interrupts ---------------------------------------

// pushShadowOf records a return address slot as a JSR would have, so that a
// lone RTS returns instead of ending the thread.
func pushShadowOf(slot uint16) func(*Machine, *State) {
	return func(_ *Machine, s *State) { s.Threads[0].pushShadow(slot) }
}

func controlRows() []opRow {
	swiVec := map[uint16][]byte{0xFFF6: {0xD1, 0x00}, 0xD100: b(0x3B)} // a programmed vector: the handler (rti) is loaded
	regs := CPU{A: 0x11, B: 0x22, X: 0x3344, Y: 0x5566, SP: 0x01FF}
	frame := func(pcNext uint16, ccr uint8) []mb {
		return []mb{
			{0x01FF, byte(pcNext)}, {0x01FE, byte(pcNext >> 8)},
			{0x01FD, 0x66}, {0x01FC, 0x55}, // IYL, IYH
			{0x01FB, 0x44}, {0x01FA, 0x33}, // IXL, IXH
			{0x01F9, 0x11}, {0x01F8, 0x22}, // A, B
			{0x01F7, ccr},
		}
	}
	regsOut := func(pc, sp uint16, ccr uint8) CPU {
		c := regs
		c.PC, c.SP, c.CCR = pc, sp, ccr
		return c
	}
	withCCR := func(c CPU, ccr uint8) CPU { c.CCR = ccr; return c }
	return []opRow{
		{name: "jmp_ext", code: b(0x7E, 0xD1, 0x23), in: CPU{CCR: 0x0F}, out: CPU{CCR: 0x0F, PC: 0xD123}, cyc: 3},
		{name: "jmp_idx", code: b(0x6E, 0x05), in: CPU{X: 0xD100}, out: CPU{X: 0xD100, PC: 0xD105}, cyc: 3},
		{name: "jmp_idx_unsigned", code: b(0x6E, 0xF0), in: CPU{X: 0xD100}, out: CPU{X: 0xD100, PC: 0xD1F0}, cyc: 3},
		{name: "jmp_idy", code: b(0x18, 0x6E, 0x05), in: CPU{Y: 0xD100}, out: CPU{Y: 0xD100, PC: 0xD105}, cyc: 4},

		// JSR/BSR: the return address, high byte at the lower address.
		{name: "jsr_dir", code: b(0x9D, 0x40), in: CPU{SP: 0x01FF}, out: CPU{SP: 0x01FD, PC: 0x0040},
			want: []mb{{0x01FF, 0x02}, {0x01FE, 0xD0}}, cyc: 5},
		{name: "jsr_ext", code: b(0xBD, 0xD1, 0x00), in: CPU{SP: 0x01FF, CCR: 0xFF}, out: CPU{SP: 0x01FD, PC: 0xD100, CCR: 0xFF},
			want: []mb{{0x01FF, 0x03}, {0x01FE, 0xD0}}, cyc: 6},
		{name: "jsr_idx", code: b(0xAD, 0x10), in: CPU{X: 0xD100, SP: 0x0150}, out: CPU{X: 0xD100, SP: 0x014E, PC: 0xD110},
			want: []mb{{0x0150, 0x02}, {0x014F, 0xD0}}, cyc: 6},
		{name: "jsr_idy", code: b(0x18, 0xAD, 0x10), in: CPU{Y: 0xD200, SP: 0x01FF}, out: CPU{Y: 0xD200, SP: 0x01FD, PC: 0xD210},
			want: []mb{{0x01FF, 0x03}, {0x01FE, 0xD0}}, cyc: 7},
		{name: "bsr_fwd", code: b(0x8D, 0x10), in: CPU{SP: 0x01FF}, out: CPU{SP: 0x01FD, PC: 0xD012},
			want: []mb{{0x01FF, 0x02}, {0x01FE, 0xD0}}, cyc: 6},
		{name: "bsr_back", code: b(0x8D, 0xFE), in: CPU{SP: 0x01FF}, out: CPU{SP: 0x01FD, PC: 0xD000},
			want: []mb{{0x01FF, 0x02}, {0x01FE, 0xD0}}, cyc: 6},
		{name: "rts", code: b(0x39), in: CPU{SP: 0x01FD, CCR: 0x0F}, mem: []mb{{0x01FE, 0xD1}, {0x01FF, 0x23}},
			out: CPU{SP: 0x01FF, PC: 0xD123, CCR: 0x0F}, cyc: 5, setup: pushShadowOf(0x01FE)},

		// RTI pulls CCR, B, A, X, Y, PC. X can be cleared but not set.
		{name: "rti_x_stays_clear", code: b(0x3B), in: CPU{SP: 0x01F6, CCR: cS},
			mem: frame(0xD123, 0xFF),
			out: regsOut(0xD123, 0x01FF, 0xBF), cyc: 12},
		{name: "rti_x_cleared", code: b(0x3B), in: CPU{SP: 0x01F6, CCR: cS | cX | cI},
			mem: frame(0xD123, cZ|cC),
			out: regsOut(0xD123, 0x01FF, cZ|cC), cyc: 12},

		// SWI stacks PCL PCH IYL IYH IXL IXH A B CCR (high to low address),
		// sets I and jumps through 0xFFF6.
		{name: "swi", code: b(0x3F), in: withCCR(regs, cH|cC), extra: swiVec,
			out: regsOut(0xD100, 0x01F6, cH|cI|cC), want: frame(0xD001, cH|cC), cyc: 14},
		// WAI stacks the same frame (return address: the next instruction) and waits.
		// Table A-1's 14 + n: 12 cycles stack the frame, n pass waiting,
		// and the entry's 2 fetch the vector (TestWaiEntry).
		{name: "wai", code: b(0x3E), in: withCCR(regs, cN), out: regsOut(0xD001, 0x01F6, cN),
			want: frame(0xD001, cN), cyc: 12, status: Waiting},

		// STOP: a NOP when S is set; otherwise the thread stops.
		{name: "stop_s_set", code: b(0xCF), in: CPU{CCR: cS | 0x0F}, out: CPU{CCR: cS | 0x0F, PC: 0xD001}, cyc: 2},
		{name: "stop_s_clear", code: b(0xCF), in: CPU{CCR: 0x0F}, out: CPU{CCR: 0x0F, PC: 0xD001}, cyc: 2, status: Stopped},

		// TEST is illegal outside the test modes.
		{name: "test", code: b(0x00), in: CPU{SP: 0x01FF}, viol: KindIllegal},
	}
}

// --- Stack operations -------------------------------------------------------------

func stackRows() []opRow {
	return []opRow{
		{name: "psha", code: b(0x36), in: CPU{A: 0x5A, SP: 0x01FF, CCR: 0x0F}, out: CPU{A: 0x5A, SP: 0x01FE, PC: 0xD001, CCR: 0x0F},
			want: []mb{{0x01FF, 0x5A}}, cyc: 3},
		{name: "pshb", code: b(0x37), in: CPU{B: 0xA5, SP: 0x0100}, out: CPU{B: 0xA5, SP: 0x00FF, PC: 0xD001},
			want: []mb{{0x0100, 0xA5}}, cyc: 3},
		{name: "pshx", code: b(0x3C), in: CPU{X: 0x1234, SP: 0x01FF}, out: CPU{X: 0x1234, SP: 0x01FD, PC: 0xD001},
			want: []mb{{0x01FF, 0x34}, {0x01FE, 0x12}}, cyc: 4},
		{name: "pshy", code: b(0x18, 0x3C), in: CPU{Y: 0xABCD, SP: 0x01FF}, out: CPU{Y: 0xABCD, SP: 0x01FD, PC: 0xD002},
			want: []mb{{0x01FF, 0xCD}, {0x01FE, 0xAB}}, cyc: 5},
		{name: "pula", code: b(0x32), in: CPU{SP: 0x01F0, CCR: 0xFF}, mem: []mb{{0x01F1, 0x77}},
			out: CPU{A: 0x77, SP: 0x01F1, PC: 0xD001, CCR: 0xFF}, cyc: 4},
		{name: "pula_zero_keeps_flags", code: b(0x32), in: CPU{A: 0x55, SP: 0x01F0, CCR: cN}, mem: []mb{{0x01F1, 0x00}},
			out: CPU{A: 0x00, SP: 0x01F1, PC: 0xD001, CCR: cN}, cyc: 4},
		{name: "pulb", code: b(0x33), in: CPU{SP: 0x01F0}, mem: []mb{{0x01F1, 0x88}},
			out: CPU{B: 0x88, SP: 0x01F1, PC: 0xD001}, cyc: 4},
		{name: "pulx", code: b(0x38), in: CPU{SP: 0x01F0}, mem: []mb{{0x01F1, 0xAB}, {0x01F2, 0xCD}},
			out: CPU{X: 0xABCD, SP: 0x01F2, PC: 0xD001}, cyc: 5},
		{name: "puly", code: b(0x18, 0x38), in: CPU{SP: 0x01F0}, mem: []mb{{0x01F1, 0x12}, {0x01F2, 0x34}},
			out: CPU{Y: 0x1234, SP: 0x01F2, PC: 0xD002}, cyc: 6},
		{name: "tsx", code: b(0x30), in: CPU{SP: 0x01FF, CCR: 0x0F}, out: CPU{SP: 0x01FF, X: 0x0200, PC: 0xD001, CCR: 0x0F}, cyc: 3},
		{name: "tsx_wrap", code: b(0x30), in: CPU{SP: 0xFFFF}, out: CPU{SP: 0xFFFF, X: 0x0000, PC: 0xD001}, cyc: 3},
		{name: "tsy", code: b(0x18, 0x30), in: CPU{SP: 0x01FF}, out: CPU{SP: 0x01FF, Y: 0x0200, PC: 0xD002}, cyc: 4},
		{name: "txs", code: b(0x35), in: CPU{X: 0x0100, CCR: cZ}, out: CPU{X: 0x0100, SP: 0x00FF, PC: 0xD001, CCR: cZ}, cyc: 3},
		{name: "txs_wrap", code: b(0x35), in: CPU{X: 0x0000}, out: CPU{X: 0x0000, SP: 0xFFFF, PC: 0xD001}, cyc: 3},
		{name: "tys", code: b(0x18, 0x35), in: CPU{Y: 0x0180}, out: CPU{Y: 0x0180, SP: 0x017F, PC: 0xD002}, cyc: 4},
		{name: "ins", code: b(0x31), in: CPU{SP: 0x01FE, CCR: 0x04}, out: CPU{SP: 0x01FF, PC: 0xD001, CCR: 0x04}, cyc: 3},
		{name: "ins_wrap", code: b(0x31), in: CPU{SP: 0xFFFF}, out: CPU{SP: 0x0000, PC: 0xD001}, cyc: 3},
		{name: "des", code: b(0x34), in: CPU{SP: 0x0100}, out: CPU{SP: 0x00FF, PC: 0xD001}, cyc: 3},
		{name: "des_zero_no_flags", code: b(0x34), in: CPU{SP: 0x0001}, out: CPU{SP: 0x0000, PC: 0xD001}, cyc: 3},
	}
}

// --- Other inherent instructions ---------------------------------------------------

func inherentRows() []opRow {
	d := func(v uint16) (uint8, uint8) { return uint8(v >> 8), uint8(v) }
	cpuD := func(dv, x, y uint16, ccr uint8, pc uint16) CPU {
		a, bb := d(dv)
		return CPU{A: a, B: bb, X: x, Y: y, CCR: ccr, PC: pc}
	}
	rows := []opRow{
		{name: "nop", code: b(0x01), in: CPU{A: 1, B: 2, X: 3, Y: 4, SP: 5, CCR: 0xD5}, out: CPU{A: 1, B: 2, X: 3, Y: 4, SP: 5, CCR: 0xD5, PC: 0xD001}, cyc: 2},

		// IDIV: X = D / X, D = D mod X; Z from the quotient, V = 0, C = (X = 0); N unaffected.
		{name: "idiv", code: b(0x02), in: cpuD(100, 7, 0, cN|cZ|cV|cC, 0), out: cpuD(2, 14, 0, cN, 0xD001), cyc: 41},
		{name: "idiv_zero_quotient", code: b(0x02), in: cpuD(5, 10, 0, 0, 0), out: cpuD(5, 0, 0, cZ, 0xD001), cyc: 41},
		{name: "idiv_by_one", code: b(0x02), in: cpuD(0xFFFF, 1, 0, 0xF0, 0), out: cpuD(0, 0xFFFF, 0, 0xF0, 0xD001), cyc: 41},
		{name: "idiv_large", code: b(0x02), in: cpuD(0x8000, 0x8001, 0, cC, 0), out: cpuD(0x8000, 0, 0, cZ, 0xD001), cyc: 41},
		{name: "idiv_by_zero", code: b(0x02), in: cpuD(0x1234, 0, 0, cZ|cV, 0), out: cpuD(0, 0xFFFF, 0, cC, 0xD001), cyc: 41, undefD: true},

		// FDIV: X = (D * 65536) / X, D = remainder; Z from the quotient,
		// V = (X <= D), C = (X = 0); overflow and /0 leave X = 0xFFFF.
		{name: "fdiv_half", code: b(0x03), in: cpuD(1, 2, 0, cN|cZ|cV|cC, 0), out: cpuD(0, 0x8000, 0, cN, 0xD001), cyc: 41},
		{name: "fdiv_third", code: b(0x03), in: cpuD(1, 3, 0, 0, 0), out: cpuD(1, 0x5555, 0, 0, 0xD001), cyc: 41},
		{name: "fdiv_zero", code: b(0x03), in: cpuD(0, 5, 0, 0, 0), out: cpuD(0, 0, 0, cZ, 0xD001), cyc: 41},
		{name: "fdiv_ffff", code: b(0x03), in: cpuD(0x1234, 0xFFFF, 0, 0, 0), out: cpuD(0x1234, 0x1234, 0, 0, 0xD001), cyc: 41},
		{name: "fdiv_overflow_equal", code: b(0x03), in: cpuD(5, 5, 0, cZ|cC, 0), out: cpuD(0, 0xFFFF, 0, cV, 0xD001), cyc: 41, undefD: true},
		{name: "fdiv_overflow_greater", code: b(0x03), in: cpuD(0x8000, 0x0100, 0, 0, 0), out: cpuD(0, 0xFFFF, 0, cV, 0xD001), cyc: 41, undefD: true},
		{name: "fdiv_by_zero", code: b(0x03), in: cpuD(5, 0, 0, cZ, 0), out: cpuD(0, 0xFFFF, 0, cV|cC, 0xD001), cyc: 41, undefD: true},
		{name: "fdiv_zero_by_zero", code: b(0x03), in: cpuD(0, 0, 0, 0, 0), out: cpuD(0, 0xFFFF, 0, cV|cC, 0xD001), cyc: 41, undefD: true},

		// LSRD: N = 0, C = D0, V = N xor C.
		{name: "lsrd_to_zero", code: b(0x04), in: cpuD(0x0001, 0, 0, cN, 0), out: cpuD(0, 0, 0, cZ|cV|cC, 0xD001), cyc: 3},
		{name: "lsrd_msb", code: b(0x04), in: cpuD(0x8000, 0, 0, 0x0F, 0), out: cpuD(0x4000, 0, 0, 0, 0xD001), cyc: 3},
		{name: "lsrd_across", code: b(0x04), in: cpuD(0x0101, 0, 0, 0xF0, 0), out: cpuD(0x0080, 0, 0, 0xF0|cV|cC, 0xD001), cyc: 3},
		// ASLD: C = D15, V = N xor C.
		{name: "asld_overflow", code: b(0x05), in: cpuD(0x4000, 0, 0, 0, 0), out: cpuD(0x8000, 0, 0, cN|cV, 0xD001), cyc: 3},
		{name: "asld_to_zero", code: b(0x05), in: cpuD(0x8000, 0, 0, 0, 0), out: cpuD(0, 0, 0, cZ|cV|cC, 0xD001), cyc: 3},
		{name: "asld_across", code: b(0x05), in: cpuD(0x0080, 0, 0, 0x0F, 0), out: cpuD(0x0100, 0, 0, 0, 0xD001), cyc: 3},
		{name: "asld_nc", code: b(0x05), in: cpuD(0xC000, 0, 0, 0xF0, 0), out: cpuD(0x8000, 0, 0, 0xF0|cN|cC, 0xD001), cyc: 3},

		// TAP: A -> CCR, except that X cannot be set.
		{name: "tap_clears_x", code: b(0x06), in: CPU{A: 0x00, CCR: 0xD0}, out: CPU{A: 0x00, CCR: 0x00, PC: 0xD001}, cyc: 2},
		{name: "tap_cannot_set_x", code: b(0x06), in: CPU{A: 0xFF, CCR: 0x00}, out: CPU{A: 0xFF, CCR: 0xBF, PC: 0xD001}, cyc: 2},
		{name: "tap_keeps_x", code: b(0x06), in: CPU{A: 0x41, CCR: 0x40}, out: CPU{A: 0x41, CCR: 0x41, PC: 0xD001}, cyc: 2},
		{name: "tpa", code: b(0x07), in: CPU{A: 0x00, CCR: 0xD5}, out: CPU{A: 0xD5, CCR: 0xD5, PC: 0xD001}, cyc: 2},

		// INX/DEX/INY/DEY: only Z.
		{name: "inx_wrap", code: b(0x08), in: CPU{X: 0xFFFF, CCR: cN | cV | cC}, out: CPU{X: 0, CCR: cN | cZ | cV | cC, PC: 0xD001}, cyc: 3},
		{name: "inx", code: b(0x08), in: CPU{X: 0x00FF, CCR: cZ}, out: CPU{X: 0x0100, CCR: 0, PC: 0xD001}, cyc: 3},
		{name: "dex_zero", code: b(0x09), in: CPU{X: 0x0001}, out: CPU{X: 0, CCR: cZ, PC: 0xD001}, cyc: 3},
		{name: "dex_wrap", code: b(0x09), in: CPU{X: 0, CCR: cZ | cN}, out: CPU{X: 0xFFFF, CCR: cN, PC: 0xD001}, cyc: 3},
		{name: "iny_wrap", code: b(0x18, 0x08), in: CPU{Y: 0xFFFF, CCR: cC}, out: CPU{Y: 0, CCR: cZ | cC, PC: 0xD002}, cyc: 4},
		{name: "iny", code: b(0x18, 0x08), in: CPU{Y: 0x1234, CCR: cZ}, out: CPU{Y: 0x1235, PC: 0xD002}, cyc: 4},
		{name: "dey_zero", code: b(0x18, 0x09), in: CPU{Y: 1, CCR: cV}, out: CPU{Y: 0, CCR: cZ | cV, PC: 0xD002}, cyc: 4},
		{name: "dey_wrap", code: b(0x18, 0x09), in: CPU{Y: 0, CCR: cZ}, out: CPU{Y: 0xFFFF, PC: 0xD002}, cyc: 4},

		// The flag instructions.
		{name: "clv", code: b(0x0A), in: CPU{CCR: 0xFF}, out: CPU{CCR: 0xFD, PC: 0xD001}, cyc: 2},
		{name: "sev", code: b(0x0B), in: CPU{CCR: 0x00}, out: CPU{CCR: cV, PC: 0xD001}, cyc: 2},
		{name: "clc", code: b(0x0C), in: CPU{CCR: 0xFF}, out: CPU{CCR: 0xFE, PC: 0xD001}, cyc: 2},
		{name: "sec", code: b(0x0D), in: CPU{CCR: 0x00}, out: CPU{CCR: cC, PC: 0xD001}, cyc: 2},
		{name: "cli", code: b(0x0E), in: CPU{CCR: 0xFF}, out: CPU{CCR: 0xEF, PC: 0xD001}, cyc: 2},
		{name: "sei", code: b(0x0F), in: CPU{CCR: 0x00}, out: CPU{CCR: cI, PC: 0xD001}, cyc: 2},

		// SBA, CBA.
		{name: "sba_borrow", code: b(0x10), in: CPU{A: 0x20, B: 0x50}, out: CPU{A: 0xD0, B: 0x50, CCR: cN | cC, PC: 0xD001}, cyc: 2},
		{name: "sba_overflow", code: b(0x10), in: CPU{A: 0x80, B: 0x01, CCR: cH}, out: CPU{A: 0x7F, B: 0x01, CCR: cH | cV, PC: 0xD001}, cyc: 2},
		{name: "sba_zero", code: b(0x10), in: CPU{A: 0x42, B: 0x42, CCR: cC}, out: CPU{A: 0, B: 0x42, CCR: cZ, PC: 0xD001}, cyc: 2},
		{name: "cba_less", code: b(0x11), in: CPU{A: 0x20, B: 0x50}, out: CPU{A: 0x20, B: 0x50, CCR: cN | cC, PC: 0xD001}, cyc: 2},
		{name: "cba_equal", code: b(0x11), in: CPU{A: 0x99, B: 0x99, CCR: cN | cV | cC}, out: CPU{A: 0x99, B: 0x99, CCR: cZ, PC: 0xD001}, cyc: 2},
		{name: "cba_signed", code: b(0x11), in: CPU{A: 0x7F, B: 0x80}, out: CPU{A: 0x7F, B: 0x80, CCR: cN | cV | cC, PC: 0xD001}, cyc: 2},

		// TAB, TBA: N Z, V cleared, C kept.
		{name: "tab_neg", code: b(0x16), in: CPU{A: 0x80, B: 0x00, CCR: cV | cC}, out: CPU{A: 0x80, B: 0x80, CCR: cN | cC, PC: 0xD001}, cyc: 2},
		{name: "tab_zero", code: b(0x16), in: CPU{A: 0x00, B: 0x55, CCR: cN}, out: CPU{CCR: cZ, PC: 0xD001}, cyc: 2},
		{name: "tba_zero", code: b(0x17), in: CPU{A: 0x55, B: 0x00, CCR: cN | cV}, out: CPU{CCR: cZ, PC: 0xD001}, cyc: 2},
		{name: "tba_pos", code: b(0x17), in: CPU{A: 0x00, B: 0x7F, CCR: 0xF0 | cZ}, out: CPU{A: 0x7F, B: 0x7F, CCR: 0xF0, PC: 0xD001}, cyc: 2},

		// ABA: A + B, with H.
		{name: "aba_h", code: b(0x1B), in: CPU{A: 0x08, B: 0x08}, out: CPU{A: 0x10, B: 0x08, CCR: cH, PC: 0xD001}, cyc: 2},
		{name: "aba_overflow", code: b(0x1B), in: CPU{A: 0x7F, B: 0x01}, out: CPU{A: 0x80, B: 0x01, CCR: cH | cN | cV, PC: 0xD001}, cyc: 2},
		{name: "aba_carry", code: b(0x1B), in: CPU{A: 0x80, B: 0x80, CCR: cH}, out: CPU{A: 0x00, B: 0x80, CCR: cZ | cV | cC, PC: 0xD001}, cyc: 2},
		{name: "aba_no_carry_in", code: b(0x1B), in: CPU{A: 0x01, B: 0x02, CCR: cC}, out: CPU{A: 0x03, B: 0x02, PC: 0xD001}, cyc: 2},

		// ABX, ABY: B is unsigned; no flags.
		{name: "abx", code: b(0x3A), in: CPU{X: 0x01F0, B: 0xFF, CCR: 0x0F}, out: CPU{X: 0x02EF, B: 0xFF, CCR: 0x0F, PC: 0xD001}, cyc: 3},
		{name: "aby_wrap", code: b(0x18, 0x3A), in: CPU{Y: 0xFFF0, B: 0x20}, out: CPU{Y: 0x0010, B: 0x20, PC: 0xD002}, cyc: 4},
		{name: "aby_unsigned", code: b(0x18, 0x3A), in: CPU{Y: 0x0100, B: 0x80}, out: CPU{Y: 0x0180, B: 0x80, PC: 0xD002}, cyc: 4},

		// MUL: D = A * B, C = bit 7 of the result (bit 7 of B); N Z V unaffected.
		{name: "mul", code: b(0x3D), in: CPU{A: 0x10, B: 0x10, CCR: 0x0F}, out: CPU{A: 0x01, B: 0x00, CCR: 0x0E, PC: 0xD001}, cyc: 10},
		{name: "mul_c", code: b(0x3D), in: CPU{A: 0x0C, B: 0x0B}, out: CPU{A: 0x00, B: 0x84, CCR: cC, PC: 0xD001}, cyc: 10},
		{name: "mul_max", code: b(0x3D), in: CPU{A: 0xFF, B: 0xFF, CCR: cC}, out: CPU{A: 0xFE, B: 0x01, PC: 0xD001}, cyc: 10},
		{name: "mul_zero", code: b(0x3D), in: CPU{A: 0x00, B: 0x80, CCR: cZ | cC}, out: CPU{CCR: cZ, PC: 0xD001}, cyc: 10},

		// XGDX, XGDY: no flags.
		{name: "xgdx", code: b(0x8F), in: CPU{A: 0x12, B: 0x34, X: 0xABCD, CCR: 0x0F}, out: CPU{A: 0xAB, B: 0xCD, X: 0x1234, CCR: 0x0F, PC: 0xD001}, cyc: 3},
		{name: "xgdy", code: b(0x18, 0x8F), in: CPU{A: 0x12, B: 0x34, Y: 0x0000, CCR: cZ}, out: CPU{A: 0x00, B: 0x00, Y: 0x1234, CCR: cZ, PC: 0xD002}, cyc: 4},
	}

	// DAA after a BCD addition, per the manual's correction table
	// (C before, upper digit, H, lower digit -> correction, C after).
	// V is undefined after DAA; H is unaffected.
	type daaCase struct {
		name          string
		a, ccr, r, cc uint8
	}
	for _, dc := range []daaCase{
		{"c0_u09_h0_l09", 0x45, 0x00, 0x45, 0x00},
		{"c0_u08_h0_lAF", 0x3B, 0x00, 0x41, 0x00},
		{"c0_u08_h0_lAF_n", 0x8F, 0x00, 0x95, cN},
		{"c0_u09_h1_l03", 0x92, cH, 0x98, cH | cN},
		{"c0_u09_h1_l03_low", 0x03, cH, 0x09, cH},
		{"c0_uAF_h0_l09", 0xA3, 0x00, 0x03, cC},
		{"c0_u9F_h0_lAF", 0x9A, 0x00, 0x00, cZ | cC},
		{"c0_u9F_h0_lAF_ff", 0xFF, 0x00, 0x65, cC},
		{"c0_uAF_h1_l03", 0xB1, cH, 0x17, cH | cC},
		{"c1_u02_h0_l09", 0x15, cC, 0x75, cC},
		{"c1_u02_h0_lAF", 0x2B, cC, 0x91, cN | cC},
		{"c1_u03_h1_l03", 0x33, cH | cC, 0x99, cH | cN | cC},
		{"c0_99", 0x99, 0x00, 0x99, cN},
		{"c0_00", 0x00, 0xD0 | cN, 0x00, 0xD0 | cZ},
	} {
		rows = append(rows, opRow{name: "daa_" + dc.name, code: b(0x19),
			in: CPU{A: dc.a, B: 0x33, CCR: dc.ccr}, out: CPU{A: dc.r, B: 0x33, CCR: dc.cc, PC: 0xD001},
			cyc: 2, undefC: cV})
	}
	return rows
}

// undefinedRows are opcodes with no instruction on each page: the
// illegal-opcode property (traps_test.go has them with the vector at
// 0xFFF8 programmed).
func undefinedRows() []opRow {
	var rows []opRow
	for _, code := range [][]byte{b(0x41), b(0x87), b(0x18, 0x00), b(0x18, 0x12), b(0x1A, 0x00), b(0x1A, 0x8C), b(0xCD, 0x00), b(0xCD, 0xA4)} {
		rows = append(rows, opRow{name: fmt.Sprintf("undefined_% x", code), code: code, in: CPU{SP: 0x01FF}, viol: KindIllegal})
	}
	return rows
}

func allOpRows() []opRow {
	var rows []opRow
	for _, f := range []func() []opRow{acc8Rows, wide16Rows, rmwRows, branchRows, bitRows, controlRows, stackRows, inherentRows, undefinedRows} {
		rows = append(rows, f()...)
	}
	return rows
}

// TestOpcodes runs every row.
func TestOpcodes(t *testing.T) {
	for _, r := range allOpRows() {
		t.Run(r.name, r.run)
	}
}

// rowKey is the page and opcode a row's first instruction uses.
func rowKey(code []byte) (isa.Page, byte) {
	switch code[0] {
	case 0x18, 0x1A, 0xCD:
		return isa.Page(code[0]), code[1]
	}
	return isa.Page0, code[0]
}

// TestOpcodeCoverage fails when a defined opcode on any page has no row,
// or when a row's bytes decode to another mnemonic than its name says.
func TestOpcodeCoverage(t *testing.T) {
	covered := map[[2]byte]int{}
	for _, r := range allOpRows() {
		p, op := rowKey(r.code)
		covered[[2]byte{byte(p), op}]++
		in, err := isa.Decode(r.code)
		if r.viol == KindIllegal && err != nil {
			continue
		}
		if err != nil {
			t.Errorf("%s: % x does not decode: %v", r.name, r.code, err)
			continue
		}
		if int(in.Len) != len(r.code) {
			t.Errorf("%s: % x decodes with length %d", r.name, r.code, in.Len)
		}
		mn := in.Op.String()
		if name := strings.SplitN(r.name, "_", 2)[0]; name != mn {
			t.Errorf("%s: % x decodes as %s", r.name, r.code, mn)
		}
	}
	defined, missing := 0, 0
	for _, p := range []isa.Page{isa.Page0, isa.Page18, isa.Page1A, isa.PageCD} {
		for op := 0; op < 256; op++ {
			if !isa.Lookup(p, byte(op)).Defined() {
				continue
			}
			defined++
			if covered[[2]byte{byte(p), byte(op)}] == 0 {
				missing++
				t.Errorf("no test row for page %02X opcode %02X (%s)", byte(p), op, isa.Lookup(p, byte(op)).Op)
			}
		}
	}
	if defined != 308 {
		t.Errorf("%d defined opcodes, the 68HC11 has 308", defined)
	}
	t.Logf("%d rows cover %d of %d defined opcodes", len(allOpRows()), defined-missing, defined)
}
