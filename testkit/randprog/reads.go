package randprog

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// A random program of reads from every kind of source, for the symbolic
// engine's rule that a concrete step never reads a placeholder (package
// sim, placeholder.go): thread 0 starts at 0xD000 with its stack at
// 0x01FF, fills a RAM window (0x10-0x13) with constants, draws a value d
// with __mc_nondet (0-1 or 0-3) into byte 0x00, and runs one to three
// pieces, each an instruction drawn from the instruction table (isa,
// through the assembler's opcode map) in an addressing mode drawn for it,
// reading one source: a table in ROM (0xD800), the RAM window, an --input
// register (0x1003, or the A/D results 0x1031-0x1034), the drawn byte,
// each at a fixed address or indexed by d through X or Y, or a byte code
// patched from d (an immediate operand, an opcode, or the opcode after
// the page prefix 0x18, in a routine built in RAM at 0x40). The
// instructions are the loads, the arithmetic and logic that read memory
// into A, the compares and bit tests with a branch on their flags, BRSET
// and BRCLR, the read-modify-writes and BSET/BCLR on what may be written,
// the 16-bit loads, and the pulls (SP pointed at the source). The last
// piece leaves a value in A that depends on what it read, and the
// program asserts that A is not one of the values it may take (most often
// not the one the first listed input or the first table entry gives), so
// that an engine that read one value where it should have followed all
// of them says verified where the plain search finds the assertion.
const (
	readsDrawn  = 0x00   // the drawn value d
	readsWindow = 0x10   // 0x10-0x13: the RAM window
	readsSave   = 0x20   // 0x20-0x21: SP saved around a pull
	readsWord   = 0x30   // 0x30-0x31: a 16-bit result
	readsCode   = 0x40   // 0x40-0x43: the routine built in RAM
	readsTable  = 0xD800 // 0xD800-0xD803: the table in ROM
	readsOps    = 0xD810 // 0xD810-: opcodes patched into the routine, 4 a piece
	readsPort   = 0x1003 // PORTC, an --input register
	readsADR    = 0x1031 // ADR1-ADR4, --input registers the pulls read
)

// readsSource is where a piece reads: its address (for an indexed source,
// the base), whether d indexes it, and the values each byte may hold.
type readsSource struct {
	name     string
	addr     uint16
	indexed  bool
	writable bool
	vals     func(a uint16) []byte // the values the byte at a may hold
}

// readsGen holds what a program draws.
type readsGen struct {
	r      *rand.Rand
	n      int // d is 0..n
	table  [4]byte
	window [4]byte
	inputs map[uint16][]byte
	code   []byte
	feats  []string
}

// pool returns a small value, so that the results of different sources
// meet the assertion's constant.
func (g *readsGen) pool() byte {
	return []byte{0x00, 0x01, 0x02, 0x04, 0x7F, 0x80, 0x81, 0xFF}[g.r.IntN(8)]
}

// sources returns the sources a piece may read.
func (g *readsGen) sources() []readsSource {
	fixed := func(b byte) []byte { return []byte{b} }
	dvals := make([]byte, g.n+1)
	for i := range dvals {
		dvals[i] = byte(i)
	}
	tab := func(base uint16, arr *[4]byte, indexed bool) func(uint16) []byte {
		return func(a uint16) []byte {
			if !indexed {
				return fixed(arr[a-base])
			}
			var vs []byte
			for i := 0; i <= g.n; i++ {
				if int(a-base)+i < 4 {
					vs = append(vs, arr[int(a-base)+i])
				}
			}
			return vs
		}
	}
	in := func(a uint16) []byte { return g.inputs[a] }
	return []readsSource{
		{"rom", readsTable, false, false, tab(readsTable, &g.table, false)},
		{"rom[d]", readsTable, true, false, tab(readsTable, &g.table, true)},
		{"ram", readsWindow, false, true, tab(readsWindow, &g.window, false)},
		{"ram[d]", readsWindow, true, true, tab(readsWindow, &g.window, true)},
		{"input", readsPort, false, true, in},
		{"adr", readsADR, false, true, in},
		{"drawn", readsDrawn, false, true, func(uint16) []byte { return dvals }},
	}
}

// operand returns an address of s a piece reads (width bytes from it in
// the source), and the code that sets X or Y for an indexed mode.
func (g *readsGen) operand(s readsSource, width int) (a uint16, mode isa.Mode, off uint8, setup []byte) {
	r := g.r
	span := 4
	switch s.name {
	case "input", "drawn":
		span = 1
	case "adr":
		span = 4
	}
	if s.indexed {
		span = 4 - g.n
	}
	a = s.addr + uint16(r.IntN(max(span-width+1, 1)))
	reg := []string{"X", "Y"}[r.IntN(2)]
	mode = isa.IdxX
	ld, ab := "ldx", "abx"
	if reg == "Y" {
		mode, ld, ab = isa.IdxY, "ldy", "aby"
	}
	switch {
	case s.indexed:
		off = uint8(r.IntN(3))
		setup = cat(mem("ldab", readsDrawn, true), imm16(ld, a-uint16(off)), inh(ab))
	case r.IntN(3) == 0:
		off = uint8(r.IntN(4))
		setup = imm16(ld, a-uint16(off))
	case a < 0x100 && r.IntN(2) == 0:
		mode = isa.Dir
	default:
		mode = isa.Ext
	}
	return a, mode, off, setup
}

// in8 encodes mn on the operand (a, mode, off).
func in8(mn string, a uint16, mode isa.Mode, off uint8) []byte {
	switch mode {
	case isa.IdxX, isa.IdxY:
		return enc(mn, mode, uint16(off), 0, 0)
	case isa.Dir:
		if _, ok := opcodes[opKey{mn, isa.Dir}]; ok {
			return enc(mn, isa.Dir, a, 0, 0)
		}
	}
	return enc(mn, isa.Ext, a, 0, 0)
}

// sideways is the tail of a piece that branches on a condition: the
// branch's own bytes (with a displacement of 4), then A = 1 where it is
// not taken and A = 2 where it is.
func sideways() []byte {
	return cat(imm8("ldaa", 1), rel("bra", 2), imm8("ldaa", 2))
}

// each applies f to every value of vs.
func each(vs []byte, f func(byte) byte) []byte {
	out := make([]byte, 0, len(vs))
	for _, v := range vs {
		out = append(out, f(v))
	}
	return out
}

// side is the value sideways leaves for a branch taken or not.
func side(taken bool) byte {
	if taken {
		return 2
	}
	return 1
}

// piece returns one piece and the values A may hold after it.
func (g *readsGen) piece() ([]byte, []byte) {
	r := g.r
	srcs := g.sources()
	s := srcs[r.IntN(len(srcs))]
	switch r.IntN(12) {
	case 0:
		return g.patched()
	case 1:
		return g.pull(s)
	case 2:
		return g.word(s)
	case 3, 4:
		return g.fromTable(s)
	}
	a, mode, off, setup := g.operand(s, 1)
	vals := s.vals(a)
	c := g.pool()
	k := r.IntN(12)
	if !s.writable && k >= 9 {
		k = r.IntN(9)
	}
	switch k {
	case 0, 1:
		return g.loadA(s, a, mode, off, setup, vals, c)
	case 2, 3:
		return g.testBranch(s, a, mode, off, setup, vals, c)
	case 4, 5, 6, 7, 8:
		return g.bitBranch(s, a, mode, off, setup, vals)
	default:
		return g.modify(s, a, mode, off, setup, vals)
	}
}

// loadA reads the byte at a (through mode and off, after setup) into A by
// an instruction that loads or combines it with c; vals are its values.
func (g *readsGen) loadA(s readsSource, a uint16, mode isa.Mode, off uint8, setup []byte, vals []byte, c byte) ([]byte, []byte) {
	r := g.r
	// A = f(v) by an instruction that reads memory into A or B.
	type op struct {
		mn   string
		pre  []byte
		post []byte
		f    func(byte) byte
	}
	ops := []op{
		{"ldaa", nil, nil, func(v byte) byte { return v }},
		{"ldab", nil, inh("tba"), func(v byte) byte { return v }},
		{"adda", imm8("ldaa", c), nil, func(v byte) byte { return c + v }},
		{"adca", cat(inh("sec"), imm8("ldaa", c)), nil, func(v byte) byte { return c + v + 1 }},
		{"suba", imm8("ldaa", c), nil, func(v byte) byte { return c - v }},
		{"sbca", cat(inh("clc"), imm8("ldaa", c)), nil, func(v byte) byte { return c - v }},
		{"anda", imm8("ldaa", c), nil, func(v byte) byte { return c & v }},
		{"oraa", imm8("ldaa", c), nil, func(v byte) byte { return c | v }},
		{"eora", imm8("ldaa", c), nil, func(v byte) byte { return c ^ v }},
		{"addb", imm8("ldab", c), inh("tba"), func(v byte) byte { return c + v }},
		{"eorb", imm8("ldab", c), inh("tba"), func(v byte) byte { return c ^ v }},
	}
	o := ops[r.IntN(len(ops))]
	g.feats = append(g.feats, strings.ToLower(o.mn)+" "+s.name)
	return cat(setup, o.pre, in8(o.mn, a, mode, off), o.post), each(vals, o.f)
}

// testBranch compares or bit-tests the byte at a against c and branches
// on the flags.
func (g *readsGen) testBranch(s readsSource, a uint16, mode isa.Mode, off uint8, setup []byte, vals []byte, c byte) ([]byte, []byte) {
	r := g.r
	// a compare or bit test, and a branch on its flags
	type test struct {
		mn  string
		pre []byte
		br  string
		f   func(byte) bool
	}
	tests := []test{
		{"cmpa", imm8("ldaa", c), "beq", func(v byte) bool { return c == v }},
		{"cmpa", imm8("ldaa", c), "bhi", func(v byte) bool { return c > v }},
		{"cmpb", imm8("ldab", c), "bcs", func(v byte) bool { return c < v }},
		{"bita", imm8("ldaa", c), "bne", func(v byte) bool { return c&v != 0 }},
		{"bitb", imm8("ldab", c), "beq", func(v byte) bool { return c&v == 0 }},
		{"tst", nil, "bmi", func(v byte) bool { return v&0x80 != 0 }},
		{"tst", nil, "beq", func(v byte) bool { return v == 0 }},
	}
	o := tests[r.IntN(len(tests))]
	if o.mn == "tst" && (mode == isa.Dir) {
		mode = isa.Ext
	}
	g.feats = append(g.feats, strings.ToLower(o.mn)+" "+s.name)
	return cat(setup, o.pre, in8(o.mn, a, mode, off), rel(o.br, 4), sideways()),
		each(vals, func(v byte) byte { return side(o.f(v)) })
}

// bitBranch tests the byte at a by BRSET or BRCLR: direct mode on page
// zero, else indexed.
func (g *readsGen) bitBranch(s readsSource, a uint16, mode isa.Mode, off uint8, setup []byte, vals []byte) ([]byte, []byte) {
	r := g.r
	// BRSET or BRCLR: direct mode on page zero, else indexed
	mask := []byte{0x01, 0x04, 0x80, 0x81, 0xFF, 0x00}[r.IntN(6)]
	mn := []string{"brset", "brclr"}[r.IntN(2)]
	var b []byte
	switch mode {
	case isa.IdxX:
		b = enc(mn, isa.BrIdxX, uint16(off), mask, 4)
	case isa.IdxY:
		b = enc(mn, isa.BrIdxY, uint16(off), mask, 4)
	default:
		if a < 0x100 {
			b = enc(mn, isa.BrDir, a, mask, 4)
		} else {
			off = uint8(r.IntN(4))
			setup = imm16("ldx", a-uint16(off))
			b = enc(mn, isa.BrIdxX, uint16(off), mask, 4)
		}
	}
	g.feats = append(g.feats, strings.ToLower(mn)+" "+s.name)
	return cat(setup, b, sideways()), each(vals, func(v byte) byte {
		if mn == "brset" {
			return side(^v&mask == 0)
		}
		return side(v&mask == 0)
	})
}

// modify reads, modifies and writes the byte at a, then reads it back
// into A.
func (g *readsGen) modify(s readsSource, a uint16, mode isa.Mode, off uint8, setup []byte, vals []byte) ([]byte, []byte) {
	r := g.r
	// a read-modify-write of the byte, then A = what was written
	// (read back through the same mode; an --input register reads
	// its values again)
	type rmw struct {
		mn string
		f  func(byte) byte
	}
	m := []byte{0x01, 0x80, 0x0F}[r.IntN(3)]
	rmws := []rmw{
		{"inc", func(v byte) byte { return v + 1 }}, {"dec", func(v byte) byte { return v - 1 }},
		{"com", func(v byte) byte { return ^v }}, {"neg", func(v byte) byte { return -v }},
		{"lsr", func(v byte) byte { return v >> 1 }}, {"asl", func(v byte) byte { return v << 1 }},
		{"bset", func(v byte) byte { return v | m }}, {"bclr", func(v byte) byte { return v &^ m }},
	}
	o := rmws[r.IntN(len(rmws))]
	var b []byte
	switch {
	case o.mn == "bset" || o.mn == "bclr":
		switch mode {
		case isa.IdxX:
			b = enc(o.mn, isa.BitIdxX, uint16(off), m, 0)
		case isa.IdxY:
			b = enc(o.mn, isa.BitIdxY, uint16(off), m, 0)
		default:
			if a < 0x100 {
				b = enc(o.mn, isa.BitDir, a, m, 0)
			} else {
				off = 0
				mode = isa.IdxX
				setup = imm16("ldx", a)
				b = enc(o.mn, isa.BitIdxX, 0, m, 0)
			}
		}
	case mode == isa.Dir:
		mode = isa.Ext
		b = in8(o.mn, a, mode, off)
	default:
		b = in8(o.mn, a, mode, off)
	}
	g.feats = append(g.feats, strings.ToLower(o.mn)+" "+s.name)
	after := each(vals, o.f)
	if _, in := g.inputs[a]; in {
		after = vals
	}
	return cat(setup, b, in8("ldaa", a, mode, off)), after
}

// word returns a piece that loads 16 bits from s (LDD, LDX, LDY or the
// compare CPX), and the values A takes: the low byte.
func (g *readsGen) word(s readsSource) ([]byte, []byte) {
	r := g.r
	if s.name == "input" || s.name == "drawn" {
		s = g.sources()[5] // the A/D results: two inputs side by side
	}
	a, mode, off, setup := g.operand(s, 2)
	if s.indexed && int(a-s.addr)+g.n+1 >= 4 {
		a, mode, off, setup = s.addr, isa.Ext, 0, nil
		s.indexed = false
	}
	lo := s.vals(a + 1)
	if s.indexed {
		lo = nil
		for i := 0; i <= g.n; i++ {
			lo = append(lo, s.vals(a + 1 + uint16(i))[0])
		}
	}
	mn := []string{"ldd", "ldx", "ldy"}[r.IntN(3)]
	if mode == isa.IdxY && mn == "ldx" || mode == isa.IdxX && mn == "ldy" {
		mn = "ldd" // the index register is kept
	}
	g.feats = append(g.feats, strings.ToLower(mn)+" "+s.name)
	var post []byte
	switch mn {
	case "ldd":
		post = inh("tba")
	case "ldx":
		post = cat(mem("stx", readsWord, true), mem("ldaa", readsWord+1, true))
	default:
		post = cat(mem("sty", readsWord, true), mem("ldaa", readsWord+1, true))
	}
	return cat(setup, in8(mn, a, mode, off), post), lo
}

// pull returns a piece that pulls one or two bytes from s, SP pointed
// just below it and put back after, and the values A takes.
func (g *readsGen) pull(s readsSource) ([]byte, []byte) {
	r := g.r
	if s.indexed || s.name == "input" || s.name == "drawn" {
		s = g.sources()[5]
	}
	a := s.addr + uint16(r.IntN(3))
	save := cat(mem("sts", readsSave, true), imm16("lds", a-1))
	back := mem("lds", readsSave, true)
	switch r.IntN(4) {
	case 0:
		g.feats = append(g.feats, "pula "+s.name)
		return cat(save, inh("pula"), back), s.vals(a)
	case 1:
		g.feats = append(g.feats, "pulb "+s.name)
		return cat(save, inh("pula"), inh("pulb"), back, inh("tba")), s.vals(a + 1)
	case 2:
		g.feats = append(g.feats, "pulx "+s.name)
		return cat(save, inh("pulx"), back, mem("stx", readsWord, true), mem("ldaa", readsWord+1, true)), s.vals(a + 1)
	default:
		g.feats = append(g.feats, "puly "+s.name)
		return cat(save, inh("puly"), back, mem("sty", readsWord, true), mem("ldaa", readsWord, true)), s.vals(a)
	}
}

// patched returns a piece that builds a routine in RAM with a byte code
// patched from d, calls it, and the values A takes.
func (g *readsGen) patched() ([]byte, []byte) {
	r := g.r
	put := func(at uint16, b byte) []byte { return cat(imm8("ldaa", b), mem("staa", at, true)) }
	rts := put(readsCode+2, 0x39)
	dvals := make([]byte, g.n+1)
	for i := range dvals {
		dvals[i] = byte(i)
	}
	switch r.IntN(3) {
	case 0:
		// LDAA #(d + c)
		c := g.pool()
		g.feats = append(g.feats, "patched operand")
		return cat(put(readsCode, 0x86), mem("ldab", readsDrawn, true), imm8("addb", c), mem("stab", readsCode+1, true),
				put(readsCode+2, 0x39), ext("jsr", readsCode)),
			each(dvals, func(v byte) byte { return v + c })
	case 1:
		// one of four opcodes on A (the table at readsOps), RTS after it
		c := g.pool()
		ops := []struct {
			op byte
			f  func(byte) byte
		}{
			{0x4C, func(v byte) byte { return v + 1 }}, {0x4A, func(v byte) byte { return v - 1 }},
			{0x43, func(v byte) byte { return ^v }}, {0x40, func(v byte) byte { return -v }},
			{0x44, func(v byte) byte { return v >> 1 }}, {0x48, func(v byte) byte { return v << 1 }},
			{0x4F, func(byte) byte { return 0 }},
		}
		var vals []byte
		base := readsOps + uint16(len(g.code))
		for i := range 4 {
			o := ops[r.IntN(len(ops))]
			g.code = append(g.code, o.op)
			if i <= g.n {
				vals = append(vals, o.f(c))
			}
		}
		g.feats = append(g.feats, "patched opcode")
		return cat(mem("ldab", readsDrawn, true), imm16("ldx", base), inh("abx"), idx("ldab", 0), mem("stab", readsCode, true),
			put(readsCode+1, 0x39), imm8("ldaa", c), ext("jsr", readsCode)), vals
	default:
		// the page prefix 0x18, then INY or DEY by d's low bit
		y := uint16(g.pool())
		g.feats = append(g.feats, "patched page-2 opcode")
		return cat(put(readsCode, 0x18), mem("ldab", readsDrawn, true), imm8("andb", 1), imm8("addb", 0x08),
				mem("stab", readsCode+1, true), rts, imm16("ldy", y), ext("jsr", readsCode), mem("sty", readsWord, true),
				mem("ldaa", readsWord+1, true)),
			each(dvals, func(v byte) byte {
				if v&1 == 0 {
					return byte(y + 1)
				}
				return byte(y - 1)
			})
	}
}

// Reads draws a program of reads from every kind of source (see above).
func Reads(r *rand.Rand) *Prog {
	g := &readsGen{r: r, n: []int{1, 3}[r.IntN(2)], inputs: map[uint16][]byte{}}
	for i := range 4 {
		g.table[i], g.window[i] = g.pool(), g.pool()
	}
	listed := func() []byte {
		vs := []byte{g.pool()}
		for range 1 + r.IntN(2) {
			if v := g.pool(); !slices.Contains(vs, v) {
				vs = append(vs, v)
			}
		}
		return vs
	}
	g.inputs[readsPort] = listed()
	for a := uint16(readsADR); a < readsADR+4; a++ {
		g.inputs[a] = listed()
	}
	main := imm16("lds", 0x01FF)
	for i, v := range g.window {
		main = cat(main, imm8("ldaa", v), mem("staa", readsWindow+uint16(i), true))
	}
	main = cat(main, imm16("ldd", uint16(g.n)), wideJSR("__mc_nondet"), mem("stab", readsDrawn, true))
	var vals []byte
	for range 1 + r.IntN(3) {
		p, vs := g.piece()
		main = cat(main, p)
		vals = vs
	}
	// A must not be k: most often a value it takes other than the first.
	k := g.pool()
	switch x := r.IntN(4); {
	case len(vals) > 1 && x < 2:
		k = vals[1+r.IntN(len(vals)-1)]
	case len(vals) > 0 && x == 2:
		k = vals[0]
	}
	main = cat(main, imm8("suba", k), wideJSR("__mc_assert"), wideJSR("__mc_thread_exit"))
	rom := make([]byte, 0x10000-0xD000)
	put := func(a uint16, b []byte) { copy(rom[int(a)-0xD000:], b) }
	put(0xD000, main)
	put(readsTable, g.table[:])
	put(readsOps, g.code)
	for i := range wideStubNames {
		put(wideStubs+2*uint16(i), []byte{0x39})
	}
	put(0xFFFE, []byte{0xD0, 0x00})
	hooks := map[string]uint16{}
	for i, s := range wideStubNames {
		hooks[s] = wideStubs + 2*uint16(i)
	}
	inputs := map[string][]uint8{}
	for a, vs := range g.inputs {
		inputs[fmt.Sprintf("0x%04x", a)] = vs
	}
	return &Prog{Mode: Harness, Base: 0xD000, Bytes: rom, Hooks: hooks, Inputs: inputs, Features: g.feats,
		Listing: fmt.Sprintf("code %x\ntable %x, window %x, opcodes %x, d in 0..%d\n", main, g.table, g.window, g.code, g.n)}
}

// memReaders lists every instruction of the table (the four pages) that
// reads a memory operand in the direct, extended or indexed modes (bit
// operations included), and neither jumps, moves SP nor pulls.
var memReaders = func() []opKey {
	var ks []opKey
	for k, e := range opcodes {
		switch k.mode {
		case isa.Dir, isa.Ext, isa.IdxX, isa.IdxY, isa.BitDir, isa.BitIdxX, isa.BitIdxY:
		default:
			continue
		}
		eff := isa.EffectsOf(e.page, e.op)
		if !eff.MemRead || eff.StackPush > 0 || eff.StackPull > 0 || eff.Vector || eff.Halt || k.mn == "lds" {
			continue
		}
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b opKey) int {
		if c := strings.Compare(a.mn, b.mn); c != 0 {
			return c
		}
		return int(a.mode) - int(b.mode)
	})
	return ks
}()

// fromTable returns a piece of one instruction drawn from the whole table
// (memReaders) on s, in the addressing mode it was drawn with, followed by
// a conditional branch drawn from all of them on the flags it left: A is
// 1 or 2 by the side taken.
func (g *readsGen) fromTable(s readsSource) ([]byte, []byte) {
	r := g.r
	var k opKey
	var eff isa.Effects
	for {
		k = memReaders[r.IntN(len(memReaders))]
		e := opcodes[k]
		eff = isa.EffectsOf(e.page, e.op)
		if !eff.MemWritten || s.writable {
			break
		}
	}
	a, mode, off, setup := g.operand(s, int(eff.MemWidth))
	want := k.mode
	switch k.mode {
	case isa.BitDir, isa.BitIdxX, isa.BitIdxY:
		want = map[isa.Mode]isa.Mode{isa.BitDir: isa.Dir, isa.BitIdxX: isa.IdxX, isa.BitIdxY: isa.IdxY}[k.mode]
	}
	if mode != want {
		// the operand in the instruction's own mode
		switch want {
		case isa.Dir:
			if a >= 0x100 {
				a = s.addr & 0xFF // the drawn byte or the window
				if s.addr >= 0x100 {
					a, s = readsWindow, g.sources()[2]
				}
			}
			setup = nil
		case isa.Ext:
			setup = nil
		case isa.IdxX:
			off = uint8(r.IntN(4))
			setup = imm16("ldx", a-uint16(off))
		case isa.IdxY:
			off = uint8(r.IntN(4))
			setup = imm16("ldy", a-uint16(off))
		}
	}
	var b []byte
	switch k.mode {
	case isa.BitDir, isa.BitIdxX, isa.BitIdxY:
		operand := uint16(off)
		if k.mode == isa.BitDir {
			operand = a
		}
		b = enc(k.mn, k.mode, operand, []byte{0x01, 0x80, 0x0F, 0xFF}[r.IntN(4)], 0)
	case isa.IdxX, isa.IdxY:
		b = enc(k.mn, k.mode, uint16(off), 0, 0)
	default:
		b = enc(k.mn, k.mode, a, 0, 0)
	}
	br := []string{"beq", "bne", "bmi", "bpl", "bcs", "bcc", "bvs", "bvc", "bhi", "bls", "bge", "blt", "bgt", "ble"}[r.IntN(14)]
	g.feats = append(g.feats, fmt.Sprintf("%s %s %s", k.mn, strings.ToLower(k.mode.String()), s.name))
	return cat(setup, b, rel(br, 4), sideways()), []byte{1, 2}
}
