package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// A reference model of the 68HC11's arithmetic, written from the
// definitions of the M68HC11 Reference Manual, Appendix A: each flag is
// computed from what it means (carry out of bit 7 or bit 3, two's-complement
// overflow, borrow) with plain integer arithmetic, not from the simulator's
// bit formulas. The tests below execute real instructions on the simulator
// over every (or many random) operands and compare with this model.

// setFlags replaces the bits of mask in ccr with those of val.
func setFlags(ccr, mask, val uint8) uint8 { return ccr&^mask | val&mask }

func nzFlags8(r uint8) uint8 {
	f := uint8(0)
	if r&0x80 != 0 {
		f |= cN
	}
	if r == 0 {
		f |= cZ
	}
	return f
}

func nzFlags16(r uint16) uint8 {
	f := uint8(0)
	if r&0x8000 != 0 {
		f |= cN
	}
	if r == 0 {
		f |= cZ
	}
	return f
}

// refAdd8 is ADD/ADC/ABA: R = A + M + carry. H: carry from bit 3; V: the
// signed sum is outside -128..127; C: carry from bit 7.
func refAdd8(ccr, a, m uint8, carry int) (uint8, uint8) {
	sum := int(a) + int(m) + carry
	ssum := int(int8(a)) + int(int8(m)) + carry
	r := uint8(sum)
	f := nzFlags8(r)
	f |= b2flag(int(a&15)+int(m&15)+carry > 15, cH)
	f |= b2flag(ssum < -128 || ssum > 127, cV)
	f |= b2flag(sum > 255, cC)
	return r, setFlags(ccr, cH|cN|cZ|cV|cC, f)
}

// refSub8 is SUB/SBC/CMP/SBA/CBA: R = A - M - borrow. V: the signed
// difference is outside -128..127; C: a borrow (|M| + borrow > |A|).
func refSub8(ccr, a, m uint8, borrow int) (uint8, uint8) {
	d := int(a) - int(m) - borrow
	sd := int(int8(a)) - int(int8(m)) - borrow
	r := uint8(d)
	f := nzFlags8(r)
	f |= b2flag(sd < -128 || sd > 127, cV)
	f |= b2flag(d < 0, cC)
	return r, setFlags(ccr, cN|cZ|cV|cC, f)
}

// refLogic8 is AND/BIT/ORA/EOR/LDA/STA/TAB/TBA: N Z, V = 0, C unaffected.
func refLogic8(ccr, r uint8) uint8 { return setFlags(ccr, cN|cZ|cV, nzFlags8(r)) }

func refAdd16(ccr uint8, a, m uint16) (uint16, uint8) {
	sum := int(a) + int(m)
	ssum := int(int16(a)) + int(int16(m))
	r := uint16(sum)
	f := nzFlags16(r) | b2flag(ssum < -32768 || ssum > 32767, cV) | b2flag(sum > 0xFFFF, cC)
	return r, setFlags(ccr, cN|cZ|cV|cC, f)
}

func refSub16(ccr uint8, a, m uint16) (uint16, uint8) {
	d := int(a) - int(m)
	sd := int(int16(a)) - int(int16(m))
	r := uint16(d)
	f := nzFlags16(r) | b2flag(sd < -32768 || sd > 32767, cV) | b2flag(d < 0, cC)
	return r, setFlags(ccr, cN|cZ|cV|cC, f)
}

// refShift is the common tail of the shifts and rotates: N Z from the
// result, C the bit shifted out, V = N xor C (Appendix A, ASL..ROR).
func refShift(ccr, r uint8, cout bool) uint8 {
	f := nzFlags8(r) | b2flag(cout, cC)
	if (r&0x80 != 0) != cout {
		f |= cV
	}
	return setFlags(ccr, cN|cZ|cV|cC, f)
}

// refRMW computes the read-modify-write instructions.
func refRMW(op string, ccr, v uint8) (uint8, uint8) {
	cin := ccr&cC != 0
	switch op {
	case "neg":
		r := uint8(-int(v))
		f := nzFlags8(r) | b2flag(v == 0x80, cV) | b2flag(v != 0, cC)
		return r, setFlags(ccr, cN|cZ|cV|cC, f)
	case "com":
		r := 0xFF - v
		return r, setFlags(ccr, cN|cZ|cV|cC, nzFlags8(r)|cC)
	case "lsr":
		r := v / 2
		return r, refShift(ccr, r, v%2 == 1)
	case "ror":
		r := v / 2
		if cin {
			r += 0x80
		}
		return r, refShift(ccr, r, v%2 == 1)
	case "asr":
		r := uint8(int8(v) >> 1)
		return r, refShift(ccr, r, v%2 == 1)
	case "asl":
		r := uint8(int(v) * 2)
		return r, refShift(ccr, r, v >= 0x80)
	case "rol":
		r := uint8(int(v) * 2)
		if cin {
			r++
		}
		return r, refShift(ccr, r, v >= 0x80)
	case "dec":
		r := v - 1
		return r, setFlags(ccr, cN|cZ|cV, nzFlags8(r)|b2flag(int(int8(v))-1 < -128, cV))
	case "inc":
		r := v + 1
		return r, setFlags(ccr, cN|cZ|cV, nzFlags8(r)|b2flag(int(int8(v))+1 > 127, cV))
	case "tst":
		return v, setFlags(ccr, cN|cZ|cV|cC, nzFlags8(v))
	case "clr":
		return 0, setFlags(ccr, cN|cZ|cV|cC, cZ)
	}
	panic(op)
}

// refDAA is the manual's DAA table: C before, upper digit range, H before,
// lower digit range -> number added, C after. ok is false for inputs the
// table does not list (not the result of a BCD addition).
func refDAA(a uint8, h, c bool) (r uint8, cOut bool, ok bool) {
	type row struct {
		c          bool
		hiLo, hiHi uint8
		h          bool
		loLo, loHi uint8
		add        uint8
		cAfter     bool
	}
	table := [...]row{
		{false, 0x0, 0x9, false, 0x0, 0x9, 0x00, false},
		{false, 0x0, 0x8, false, 0xA, 0xF, 0x06, false},
		{false, 0x0, 0x9, true, 0x0, 0x3, 0x06, false},
		{false, 0xA, 0xF, false, 0x0, 0x9, 0x60, true},
		{false, 0x9, 0xF, false, 0xA, 0xF, 0x66, true},
		{false, 0xA, 0xF, true, 0x0, 0x3, 0x66, true},
		{true, 0x0, 0x2, false, 0x0, 0x9, 0x60, true},
		{true, 0x0, 0x2, false, 0xA, 0xF, 0x66, true},
		{true, 0x0, 0x3, true, 0x0, 0x3, 0x66, true},
	}
	hi, lo := a>>4, a&15
	for _, t := range table {
		if t.c == c && t.h == h && hi >= t.hiLo && hi <= t.hiHi && lo >= t.loLo && lo <= t.loHi {
			return a + t.add, t.cAfter, true
		}
	}
	return 0, false, false
}

// refBranch is each conditional branch's test from Appendix A.
func refBranch(op byte, ccr uint8) bool {
	n, z, v, c := ccr&cN != 0, ccr&cZ != 0, ccr&cV != 0, ccr&cC != 0
	switch op {
	case 0x20:
		return true
	case 0x21:
		return false
	case 0x22:
		return !(c || z) // BHI: C + Z = 0
	case 0x23:
		return c || z // BLS: C + Z = 1
	case 0x24:
		return !c
	case 0x25:
		return c
	case 0x26:
		return !z
	case 0x27:
		return z
	case 0x28:
		return !v
	case 0x29:
		return v
	case 0x2A:
		return !n
	case 0x2B:
		return n
	case 0x2C:
		return n == v // BGE: N xor V = 0
	case 0x2D:
		return n != v // BLT: N xor V = 1
	case 0x2E:
		return !(z || n != v) // BGT: Z + (N xor V) = 0
	case 0x2F:
		return z || n != v // BLE: Z + (N xor V) = 1
	}
	panic(op)
}

// exec1 executes the instruction at 0xD000 of m once from registers c,
// reusing s, and returns the thread afterwards.
func exec1(t testing.TB, m *Machine, s *State, c CPU) *Thread {
	th := &s.Threads[0]
	th.CPU = c
	th.PC = org
	th.Cycles = 0
	th.Status = Running
	res := m.Run(s, RunOptions{Steps: 1})
	if res.Violation != nil {
		t.Fatalf("unexpected violation from %s: %v", fmtCPU(c), res.Violation)
	}
	return &s.Threads[0]
}

// TestALU8Exhaustive runs every 8-bit accumulator instruction (A and B, the
// operand in direct memory) on every accumulator and operand value, with
// the carry in clear and set and the other CCR bits varied, and compares
// with the reference model.
func TestALU8Exhaustive(t *testing.T) {
	type op struct {
		name string
		n    byte
		f    func(ccr, acc, m uint8) (uint8, uint8) // result, ccr
		keep bool                                   // the accumulator is not written
	}
	carry := func(ccr uint8) int { return int(ccr & cC) }
	ops := []op{
		{"sub", 0x0, func(ccr, a, m uint8) (uint8, uint8) { return refSub8(ccr, a, m, 0) }, false},
		{"cmp", 0x1, func(ccr, a, m uint8) (uint8, uint8) { return refSub8(ccr, a, m, 0) }, true},
		{"sbc", 0x2, func(ccr, a, m uint8) (uint8, uint8) { return refSub8(ccr, a, m, carry(ccr)) }, false},
		{"and", 0x4, func(ccr, a, m uint8) (uint8, uint8) { return a & m, refLogic8(ccr, a&m) }, false},
		{"bit", 0x5, func(ccr, a, m uint8) (uint8, uint8) { return a & m, refLogic8(ccr, a&m) }, true},
		{"lda", 0x6, func(ccr, a, m uint8) (uint8, uint8) { return m, refLogic8(ccr, m) }, false},
		{"eor", 0x8, func(ccr, a, m uint8) (uint8, uint8) { return a ^ m, refLogic8(ccr, a^m) }, false},
		{"adc", 0x9, func(ccr, a, m uint8) (uint8, uint8) { return refAdd8(ccr, a, m, carry(ccr)) }, false},
		{"ora", 0xA, func(ccr, a, m uint8) (uint8, uint8) { return a | m, refLogic8(ccr, a|m) }, false},
		{"add", 0xB, func(ccr, a, m uint8) (uint8, uint8) { return refAdd8(ccr, a, m, 0) }, false},
	}
	ccrs := []uint8{0x00, 0xFF, 0xD1, 0x2E}
	if testing.Short() {
		ccrs = ccrs[:2]
	}
	for _, o := range ops {
		for _, isB := range []bool{false, true} {
			name := o.name + "a"
			opc := byte(0x90) | o.n
			if isB {
				name, opc = o.name+"b", 0xD0|o.n
			}
			t.Run(name, func(t *testing.T) {
				m := cachedMachine(t, b(opc, dirAddr), nil, Config{})
				s := m.Initial()
				bad := 0
				for acc := 0; acc < 256; acc++ {
					for mv := 0; mv < 256; mv++ {
						poke(t, m, s, dirAddr, uint8(mv))
						for _, ccr := range ccrs {
							in := CPU{CCR: ccr, A: 0x5A, B: 0xA5}
							if isB {
								in.B = uint8(acc)
							} else {
								in.A = uint8(acc)
							}
							th := exec1(t, m, s, in)
							r, cc := o.f(ccr, uint8(acc), uint8(mv))
							want := in
							want.PC, want.CCR = org+2, cc
							if !o.keep {
								if isB {
									want.B = r
								} else {
									want.A = r
								}
							}
							if th.CPU != want && bad < 5 {
								bad++
								t.Errorf("%s acc=%02X m=%02X\n got %s\nwant %s", name, acc, mv, fmtCPU(th.CPU), fmtCPU(want))
							}
						}
					}
				}
			})
		}
	}
}

// TestABA_SBA_CBA_Exhaustive covers the accumulator-to-accumulator forms.
func TestABA_SBA_CBA_Exhaustive(t *testing.T) {
	for _, o := range []struct {
		name string
		op   byte
	}{{"aba", 0x1B}, {"sba", 0x10}, {"cba", 0x11}} {
		t.Run(o.name, func(t *testing.T) {
			m := cachedMachine(t, b(o.op), nil, Config{})
			s := m.Initial()
			bad := 0
			for a := 0; a < 256; a++ {
				for bb := 0; bb < 256; bb++ {
					for _, ccr := range []uint8{0x00, 0xFF} {
						in := CPU{A: uint8(a), B: uint8(bb), CCR: ccr}
						th := exec1(t, m, s, in)
						want := in
						want.PC = org + 1
						switch o.name {
						case "aba":
							want.A, want.CCR = refAdd8(ccr, uint8(a), uint8(bb), 0)
						case "sba":
							want.A, want.CCR = refSub8(ccr, uint8(a), uint8(bb), 0)
						case "cba":
							_, want.CCR = refSub8(ccr, uint8(a), uint8(bb), 0)
						}
						if th.CPU != want && bad < 5 {
							bad++
							t.Errorf("A=%02X B=%02X\n got %s\nwant %s", a, bb, fmtCPU(th.CPU), fmtCPU(want))
						}
					}
				}
			}
		})
	}
}

// TestRMWExhaustive runs the read-modify-write instructions on A, B and
// extended memory for every operand and CCR value.
func TestRMWExhaustive(t *testing.T) {
	ops := []struct {
		name string
		n    byte
	}{{"neg", 0}, {"com", 3}, {"lsr", 4}, {"ror", 6}, {"asr", 7}, {"asl", 8}, {"rol", 9}, {"dec", 0xA}, {"inc", 0xC}, {"tst", 0xD}, {"clr", 0xF}}
	for _, o := range ops {
		for _, form := range []string{"a", "b", "ext"} {
			t.Run(o.name+form, func(t *testing.T) {
				var code []byte
				switch form {
				case "a":
					code = b(0x40 | o.n)
				case "b":
					code = b(0x50 | o.n)
				default:
					code = b(0x70|o.n, extAddr>>8, extAddr&0xff)
				}
				m := cachedMachine(t, code, nil, Config{})
				s := m.Initial()
				bad := 0
				for v := 0; v < 256; v++ {
					for ccr := 0; ccr < 256; ccr += 3 {
						in := CPU{A: 0x11, B: 0x22, CCR: uint8(ccr)}
						switch form {
						case "a":
							in.A = uint8(v)
						case "b":
							in.B = uint8(v)
						default:
							poke(t, m, s, extAddr, uint8(v))
						}
						th := exec1(t, m, s, in)
						r, cc := refRMW(o.name, uint8(ccr), uint8(v))
						want := in
						want.PC, want.CCR = org+uint16(len(code)), cc
						got := th.CPU
						switch form {
						case "a":
							want.A = r
						case "b":
							want.B = r
						default:
							if o.name == "tst" {
								r = uint8(v)
							}
							if mv := peek(m, s, extAddr); mv != r && bad < 5 {
								bad++
								t.Errorf("%s%s %02X ccr=%02X: memory %02X, want %02X", o.name, form, v, ccr, mv, r)
							}
						}
						if got != want && bad < 5 {
							bad++
							t.Errorf("%s%s %02X\n got %s\nwant %s", o.name, form, v, fmtCPU(got), fmtCPU(want))
						}
					}
				}
			})
		}
	}
}

// TestALU16Random compares ADDD, SUBD, CPD, CPX and CPY (operand in
// extended memory) with the reference on boundary and random values.
func TestALU16Random(t *testing.T) {
	vals := []uint16{0, 1, 2, 0x7F, 0x80, 0xFF, 0x100, 0x7FFE, 0x7FFF, 0x8000, 0x8001, 0xFFFE, 0xFFFF}
	r := rand.New(rand.NewPCG(1, 2))
	type pair struct{ a, m uint16 }
	var pairs []pair
	for _, a := range vals {
		for _, m := range vals {
			pairs = append(pairs, pair{a, m})
		}
	}
	for i := 0; i < 5000; i++ {
		pairs = append(pairs, pair{uint16(r.Uint32()), uint16(r.Uint32())})
	}
	ops := []struct {
		name string
		code []byte
		reg  byte
		add  bool
		keep bool
	}{
		{"addd", b(0xF3, 0x01, 0x50), 'D', true, false},
		{"subd", b(0xB3, 0x01, 0x50), 'D', false, false},
		{"cpd", b(0x1A, 0xB3, 0x01, 0x50), 'D', false, true},
		{"cpx", b(0xBC, 0x01, 0x50), 'X', false, true},
		{"cpy", b(0x18, 0xBC, 0x01, 0x50), 'Y', false, true},
	}
	for _, o := range ops {
		t.Run(o.name, func(t *testing.T) {
			m := cachedMachine(t, o.code, nil, Config{})
			s := m.Initial()
			bad := 0
			for i, p := range pairs {
				poke(t, m, s, 0x0150, uint8(p.m>>8))
				poke(t, m, s, 0x0151, uint8(p.m))
				ccr := uint8(i * 37)
				in := CPU{X: 0x1111, Y: 0x2222, A: 0x33, B: 0x44, CCR: ccr}
				set16(&in, o.reg, p.a)
				th := exec1(t, m, s, in)
				var res uint16
				var cc uint8
				if o.add {
					res, cc = refAdd16(ccr, p.a, p.m)
				} else {
					res, cc = refSub16(ccr, p.a, p.m)
				}
				want := in
				want.PC, want.CCR = org+uint16(len(o.code)), cc
				if !o.keep {
					set16(&want, o.reg, res)
				}
				if th.CPU != want && bad < 5 {
					bad++
					t.Errorf("%s %04X, %04X\n got %s\nwant %s", o.name, p.a, p.m, fmtCPU(th.CPU), fmtCPU(want))
				}
			}
		})
	}
}

// TestShift16Exhaustive covers ASLD and LSRD for every D and carry in.
func TestShift16Exhaustive(t *testing.T) {
	for _, o := range []struct {
		name string
		op   byte
	}{{"asld", 0x05}, {"lsrd", 0x04}} {
		t.Run(o.name, func(t *testing.T) {
			m := cachedMachine(t, b(o.op), nil, Config{})
			s := m.Initial()
			bad := 0
			for d := 0; d < 65536; d++ {
				for _, ccr := range []uint8{0x00, 0xFF} {
					in := CPU{CCR: ccr}
					in.SetD(uint16(d))
					th := exec1(t, m, s, in)
					var r uint16
					var cout bool
					if o.name == "asld" {
						r, cout = uint16(d*2), d >= 0x8000
					} else {
						r, cout = uint16(d/2), d%2 == 1
					}
					f := nzFlags16(r) | b2flag(cout, cC)
					if (r&0x8000 != 0) != cout {
						f |= cV
					}
					want := in
					want.SetD(r)
					want.PC, want.CCR = org+1, setFlags(ccr, cN|cZ|cV|cC, f)
					if th.CPU != want && bad < 5 {
						bad++
						t.Errorf("%s D=%04X\n got %s\nwant %s", o.name, d, fmtCPU(th.CPU), fmtCPU(want))
					}
				}
			}
		})
	}
}

// TestMULExhaustive: D = A * B, C = bit 7 of the result.
func TestMULExhaustive(t *testing.T) {
	m := cachedMachine(t, b(0x3D), nil, Config{})
	s := m.Initial()
	bad := 0
	for a := 0; a < 256; a++ {
		for bb := 0; bb < 256; bb++ {
			ccr := uint8(a ^ bb)
			th := exec1(t, m, s, CPU{A: uint8(a), B: uint8(bb), CCR: ccr})
			p := uint16(a * bb)
			want := CPU{PC: org + 1, CCR: setFlags(ccr, cC, b2flag(p&0x80 != 0, cC))}
			want.SetD(p)
			if th.CPU != want && bad < 5 {
				bad++
				t.Errorf("MUL %02X*%02X\n got %s\nwant %s", a, bb, fmtCPU(th.CPU), fmtCPU(want))
			}
		}
	}
}

// TestDivideRandom compares IDIV and FDIV with integer division. Where the
// manual calls the remainder indeterminate (division by zero, FDIV
// overflow) only the quotient and the flags are compared.
func TestDivideRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	type pair struct{ d, x uint16 }
	var pairs []pair
	edge := []uint16{0, 1, 2, 3, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF}
	for _, d := range edge {
		for _, x := range edge {
			pairs = append(pairs, pair{d, x})
		}
	}
	for i := 0; i < 20000; i++ {
		d, x := uint16(r.Uint32()), uint16(r.Uint32())
		if i%3 == 0 {
			x >>= r.IntN(16)
		}
		pairs = append(pairs, pair{d, x})
	}
	for _, o := range []struct {
		name string
		op   byte
	}{{"idiv", 0x02}, {"fdiv", 0x03}} {
		t.Run(o.name, func(t *testing.T) {
			m := cachedMachine(t, b(o.op), nil, Config{})
			s := m.Initial()
			bad := 0
			for i, p := range pairs {
				ccr := uint8(i * 11)
				in := CPU{X: p.x, CCR: ccr}
				in.SetD(p.d)
				th := exec1(t, m, s, in)
				var q, rem uint16
				var f uint8
				remKnown := true
				if o.name == "idiv" {
					if p.x == 0 {
						q, remKnown, f = 0xFFFF, false, cC
					} else {
						q, rem = p.d/p.x, p.d%p.x
					}
				} else {
					// V: X <= D (so also when X = 0); C: X = 0.
					f = b2flag(p.x <= p.d, cV) | b2flag(p.x == 0, cC)
					if p.x <= p.d {
						q, remKnown = 0xFFFF, false
					} else {
						n := uint32(p.d) << 16
						q, rem = uint16(n/uint32(p.x)), uint16(n%uint32(p.x))
					}
				}
				f |= b2flag(q == 0, cZ)
				want := CPU{X: q, PC: org + 1, CCR: setFlags(ccr, cZ|cV|cC, f)}
				want.SetD(rem)
				got := th.CPU
				if !remKnown {
					got.A, got.B = want.A, want.B
				}
				if got != want && bad < 5 {
					bad++
					t.Errorf("%s D=%04X X=%04X\n got %s\nwant %s", o.name, p.d, p.x, fmtCPU(got), fmtCPU(want))
				}
			}
		})
	}
}

// TestDAATable runs DAA on every accumulator value and H, C combination the
// manual's table lists. V is undefined and not compared.
func TestDAATable(t *testing.T) {
	m := cachedMachine(t, b(0x19), nil, Config{})
	s := m.Initial()
	n, bad := 0, 0
	for a := 0; a < 256; a++ {
		for _, hc := range []uint8{0, cH, cC, cH | cC} {
			for _, other := range []uint8{0x00, cS | cX | cI | cN | cZ | cV} {
				r, cout, ok := refDAA(uint8(a), hc&cH != 0, hc&cC != 0)
				if !ok {
					continue
				}
				n++
				ccr := hc | other
				th := exec1(t, m, s, CPU{A: uint8(a), CCR: ccr})
				want := CPU{A: r, PC: org + 1, CCR: setFlags(ccr, cN|cZ|cC, nzFlags8(r)|b2flag(cout, cC))}
				got := th.CPU
				got.CCR = got.CCR&^cV | want.CCR&cV
				if got != want && bad < 5 {
					bad++
					t.Errorf("DAA A=%02X %s\n got %s\nwant %s", a, ccrString(ccr), fmtCPU(got), fmtCPU(want))
				}
			}
		}
	}
	if n != 2*384 { // 256 + 64 + 48 + 16 table inputs, each with two settings of the other bits
		t.Errorf("%d table cases, want %d", n, 2*384)
	}
}

// TestDAAAfterAdd runs ADDA then DAA on BCD operands: the sum must be the
// decimal sum, C the decimal carry.
func TestDAAAfterAdd(t *testing.T) {
	cases := []struct {
		x, y, sum uint8
		carry     bool
	}{
		{0x38, 0x45, 0x83, false},
		{0x99, 0x01, 0x00, true},
		{0x58, 0x49, 0x07, true},
		{0x09, 0x09, 0x18, false},
		{0x50, 0x50, 0x00, true},
		{0x99, 0x99, 0x98, true},
		{0x00, 0x00, 0x00, false},
	}
	for _, c := range cases {
		code := b(0x86, c.x, 0x8B, c.y, 0x19) // ldaa #x; adda #y; daa
		m := cachedMachine(t, code, nil, Config{})
		s := m.Initial()
		if res := m.Run(s, RunOptions{Steps: 3}); res.Violation != nil {
			t.Fatal(res.Violation)
		}
		th := &s.Threads[0]
		if th.A != c.sum || (th.CCR&cC != 0) != c.carry {
			t.Errorf("%02X + %02X: A=%02X C=%v, want %02X C=%v", c.x, c.y, th.A, th.CCR&cC != 0, c.sum, c.carry)
		}
	}
	// Every pair of two-digit BCD numbers, the operands in RAM.
	code := b(0x96, 0x40, 0x9B, 0x41, 0x19) // ldaa *0x40; adda *0x41; daa
	m := cachedMachine(t, code, nil, Config{})
	for x := 0; x < 100; x++ {
		for y := 0; y < 100; y++ {
			s := m.Initial()
			poke(t, m, s, 0x40, uint8(x/10<<4|x%10))
			poke(t, m, s, 0x41, uint8(y/10<<4|y%10))
			m.Run(s, RunOptions{Steps: 3})
			sum := (x + y) % 100
			want := uint8(sum/10<<4 | sum%10)
			th := &s.Threads[0]
			if th.A != want || (th.CCR&cC != 0) != (x+y >= 100) {
				t.Fatalf("%d + %d: A=%02X C=%v, want %02X C=%v", x, y, th.A, th.CCR&cC != 0, want, x+y >= 100)
			}
		}
	}
}

// TestBranchesExhaustive runs every conditional branch under every CCR value.
func TestBranchesExhaustive(t *testing.T) {
	for op := byte(0x20); op <= 0x2F; op++ {
		m := cachedMachine(t, b(op, 0x20), nil, Config{})
		s := m.Initial()
		for ccr := 0; ccr < 256; ccr++ {
			th := exec1(t, m, s, CPU{CCR: uint8(ccr)})
			want := uint16(org + 2)
			if refBranch(op, uint8(ccr)) {
				want = org + 0x22
			}
			if th.PC != want || th.CCR != uint8(ccr) || th.Cycles != 3 {
				t.Errorf("%02X with CCR %s: PC=%04X CCR=%02X cycles=%d, want PC=%04X", op, ccrString(uint8(ccr)), th.PC, th.CCR, th.Cycles, want)
			}
		}
	}
}

// TestSignedBranches compares two values with CMPA and branches: the
// unsigned branches (BHI, BLS, BCC, BCS) and the signed ones (BGT, BGE,
// BLT, BLE) must follow the values' order, worked out by hand.
func TestSignedBranches(t *testing.T) {
	type want map[string]bool
	ops := map[string]byte{"bhi": 0x22, "bls": 0x23, "bcc": 0x24, "bcs": 0x25, "bne": 0x26, "beq": 0x27,
		"bge": 0x2C, "blt": 0x2D, "bgt": 0x2E, "ble": 0x2F}
	cases := []struct {
		a, m uint8
		w    want
	}{
		// -128 vs 1: signed less; unsigned 128 > 1.
		{0x80, 0x01, want{"bhi": true, "bls": false, "bcc": true, "bcs": false, "bge": false, "blt": true, "bgt": false, "ble": true, "bne": true, "beq": false}},
		// 1 vs -1: signed greater; unsigned 1 < 255.
		{0x01, 0xFF, want{"bhi": false, "bls": true, "bcc": false, "bcs": true, "bge": true, "blt": false, "bgt": true, "ble": false}},
		// 127 vs -128: signed greater (the subtraction overflows); unsigned less.
		{0x7F, 0x80, want{"bhi": false, "bls": true, "bge": true, "blt": false, "bgt": true, "ble": false}},
		// equal
		{0x05, 0x05, want{"bhi": false, "bls": true, "bcc": true, "bcs": false, "bge": true, "blt": false, "bgt": false, "ble": true, "beq": true, "bne": false}},
		// -2 vs -1: signed less; unsigned 254 < 255.
		{0xFE, 0xFF, want{"bhi": false, "bls": true, "bcs": true, "bge": false, "blt": true, "bgt": false, "ble": true}},
		// -1 vs -2: signed greater; unsigned greater.
		{0xFF, 0xFE, want{"bhi": true, "bls": false, "bge": true, "blt": false, "bgt": true, "ble": false}},
		// 0 vs 0x80 (-128): signed greater, overflow; unsigned less.
		{0x00, 0x80, want{"bhi": false, "bcs": true, "bge": true, "bgt": true, "blt": false, "ble": false}},
	}
	for _, c := range cases {
		for name, taken := range c.w {
			t.Run(fmt.Sprintf("%02X_%02X_%s", c.a, c.m, name), func(t *testing.T) {
				code := b(0x86, c.a, 0x81, c.m, ops[name], 0x10) // ldaa #a; cmpa #m; bxx +16
				m := cachedMachine(t, code, nil, Config{})
				s := m.Initial()
				m.Run(s, RunOptions{Steps: 3})
				pc := s.Threads[0].PC
				want := uint16(0xD006)
				if taken {
					want = 0xD016
				}
				if pc != want {
					t.Errorf("PC=%04X, want %04X (taken=%v)", pc, want, taken)
				}
			})
		}
	}
}
