package sim

import isa "github.com/hc11mc/hc11mc/isa/m68hc11"

// The arithmetic of the 68HC11, one function per operation, each returning
// the result and the new condition codes. These are the definitions of the
// M68HC11 Reference Manual, Appendix A (the Boolean formulas under each
// instruction); exec.go moves operands in and out and forms the results
// that are one Go operator (see the package doc). They work on concrete
// values only, and the tests check them against a reference model written
// in plain integer arithmetic (alu_test.go).

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// nz8 sets N and Z from an 8-bit result, keeping the other bits of ccr.
func nz8(ccr, r uint8) uint8 {
	ccr &^= isa.FlagN | isa.FlagZ
	ccr |= (r >> 7) << 3
	if r == 0 {
		ccr |= isa.FlagZ
	}
	return ccr
}

// nz16 sets N and Z from a 16-bit result.
func nz16(ccr uint8, r uint16) uint8 {
	ccr &^= isa.FlagN | isa.FlagZ
	ccr |= uint8(r>>15) << 3
	if r == 0 {
		ccr |= isa.FlagZ
	}
	return ccr
}

// add8 is ADDA/ADDB/ADCA/ADCB/ABA: r = a + b + c, flags H N Z V C.
func add8(ccr, a, b, c uint8) (uint8, uint8) {
	r := a + b + c
	carries := (a & b) | (b &^ r) | (^r & a)
	v := ((a & b &^ r) | (^a &^ b & r)) >> 7
	ccr &^= isa.FlagH | isa.FlagV | isa.FlagC
	ccr |= ((carries>>3)&1)<<5 | v<<1 | carries>>7
	return r, nz8(ccr, r)
}

// sub8 is SUBA/SUBB/SBCA/SBCB/SBA/CMPA/CMPB/CBA: r = a - b - c, flags N Z V C.
func sub8(ccr, a, b, c uint8) (uint8, uint8) {
	r := a - b - c
	borrow := (^a & b) | (b & r) | (r &^ a)
	v := ((a &^ b &^ r) | (^a & b & r)) >> 7
	ccr &^= isa.FlagV | isa.FlagC
	ccr |= v<<1 | borrow>>7
	return r, nz8(ccr, r)
}

// add16 is ADDD: flags N Z V C.
func add16(ccr uint8, a, b uint16) (uint16, uint8) {
	r := a + b
	carries := (a & b) | (b &^ r) | (^r & a)
	v := ((a & b &^ r) | (^a &^ b & r)) >> 15
	ccr &^= isa.FlagV | isa.FlagC
	ccr |= uint8(v)<<1 | uint8(carries>>15)
	return r, nz16(ccr, r)
}

// sub16 is SUBD/CPD/CPX/CPY: flags N Z V C.
func sub16(ccr uint8, a, b uint16) (uint16, uint8) {
	r := a - b
	borrow := (^a & b) | (b & r) | (r &^ a)
	v := ((a &^ b &^ r) | (^a & b & r)) >> 15
	ccr &^= isa.FlagV | isa.FlagC
	ccr |= uint8(v)<<1 | uint8(borrow>>15)
	return r, nz16(ccr, r)
}

// logic8 sets N Z and clears V: AND, OR, EOR, BIT, LDA, STA, TAB, TBA, BSET, BCLR.
func logic8(ccr, r uint8) uint8 { return nz8(ccr&^isa.FlagV, r) }

// logic16 sets N Z and clears V: LDD, LDX, LDY, LDS and the 16-bit stores.
func logic16(ccr uint8, r uint16) uint8 { return nz16(ccr&^isa.FlagV, r) }

// shiftFlags sets N Z from r, C from c, and V = N xor C, as every shift and rotate does.
func shiftFlags(ccr, r, c uint8) uint8 {
	ccr = nz8(ccr&^(isa.FlagV|isa.FlagC), r)
	n := r >> 7
	return ccr | c | (n^c)<<1
}

func asl8(ccr, b uint8) (uint8, uint8) { r := b << 1; return r, shiftFlags(ccr, r, b>>7) }
func asr8(ccr, b uint8) (uint8, uint8) { r := b>>1 | b&0x80; return r, shiftFlags(ccr, r, b&1) }
func lsr8(ccr, b uint8) (uint8, uint8) { r := b >> 1; return r, shiftFlags(ccr, r, b&1) }
func rol8(ccr, b uint8) (uint8, uint8) {
	r := b<<1 | ccr&isa.FlagC
	return r, shiftFlags(ccr, r, b>>7)
}
func ror8(ccr, b uint8) (uint8, uint8) {
	r := b>>1 | (ccr&isa.FlagC)<<7
	return r, shiftFlags(ccr, r, b&1)
}

// asl16 is ASLD (LSLD): N Z V C with V = N xor C.
func asl16(ccr uint8, d uint16) (uint16, uint8) {
	r := d << 1
	c := uint8(d >> 15)
	ccr = nz16(ccr&^(isa.FlagV|isa.FlagC), r)
	return r, ccr | c | (uint8(r>>15)^c)<<1
}

// lsr16 is LSRD: N cleared, Z, C = bit 0, V = N xor C = C.
func lsr16(ccr uint8, d uint16) (uint16, uint8) {
	r := d >> 1
	c := uint8(d & 1)
	ccr = nz16(ccr&^(isa.FlagV|isa.FlagC), r)
	return r, ccr | c | c<<1
}

// neg8 is NEG: r = 0 - b; V set when the result is 0x80, C set unless it is 0.
func neg8(ccr, b uint8) (uint8, uint8) {
	r := -b
	ccr = nz8(ccr&^(isa.FlagV|isa.FlagC), r)
	ccr |= b2u(r == 0x80)<<1 | b2u(r != 0)
	return r, ccr
}

// com8 is COM: one's complement, V cleared, C set.
func com8(ccr, b uint8) (uint8, uint8) {
	r := ^b
	return r, nz8(ccr&^isa.FlagV, r) | isa.FlagC
}

// inc8 is INC: V set when the operand was 0x7F; C unaffected.
func inc8(ccr, b uint8) (uint8, uint8) {
	r := b + 1
	return r, nz8(ccr&^isa.FlagV, r) | b2u(b == 0x7f)<<1
}

// dec8 is DEC: V set when the operand was 0x80; C unaffected.
func dec8(ccr, b uint8) (uint8, uint8) {
	r := b - 1
	return r, nz8(ccr&^isa.FlagV, r) | b2u(b == 0x80)<<1
}

// zOnly sets Z from a 16-bit result, keeping the other bits: INX, DEX, INY, DEY.
func zOnly(ccr uint8, r uint16) uint8 {
	ccr &^= isa.FlagZ
	if r == 0 {
		ccr |= isa.FlagZ
	}
	return ccr
}

// tst8 is TST: N Z from the operand, V and C cleared.
func tst8(ccr, b uint8) uint8 { return nz8(ccr&^(isa.FlagV|isa.FlagC), b) }

// clr8 is CLR: N V C cleared, Z set.
func clr8(ccr uint8) uint8 { return ccr&^(isa.FlagN|isa.FlagV|isa.FlagC) | isa.FlagZ }

// daa is DAA after a BCD addition, following the manual's correction table:
// 0x06 is added when H is set or the low digit exceeds 9; 0x60 when C is set,
// the high digit exceeds 9, or it is 9 with a low digit above 9 — and then C
// is set. V is not defined by the manual; it is left unchanged.
func daa(ccr, a uint8) (uint8, uint8) {
	lo, hi := a&0x0f, a>>4
	var cf uint8
	if ccr&isa.FlagH != 0 || lo > 9 {
		cf |= 0x06
	}
	c := ccr & isa.FlagC
	if c != 0 || hi > 9 || (hi >= 9 && lo > 9) {
		cf |= 0x60
		c = isa.FlagC
	}
	r := a + cf
	return r, nz8(ccr&^isa.FlagC, r) | c
}

// mul is MUL: D = A * B, C = bit 7 of the result (so that ADCA #0 rounds).
func mul(ccr, a, b uint8) (uint16, uint8) {
	d := uint16(a) * uint16(b)
	return d, ccr&^isa.FlagC | uint8(d>>7)&1
}

// idiv is IDIV: X = D / X, D = D mod X. Z is set when the quotient is 0, V
// is cleared, C is set on division by zero, which leaves a quotient of 0xFFFF
// (the remainder is indeterminate in the manual; D is left unchanged).
func idiv(ccr uint8, d, x uint16) (q, r uint16, ccrOut uint8) {
	ccr &^= isa.FlagZ | isa.FlagV | isa.FlagC
	if x == 0 {
		return 0xffff, d, ccr | isa.FlagC
	}
	q, r = d/x, d%x
	if q == 0 {
		ccr |= isa.FlagZ
	}
	return q, r, ccr
}

// fdiv is FDIV: X = (D << 16) / X, D = the remainder, for a fraction D/X < 1.
// V is set when X <= D (the quotient would not be a fraction — division by
// zero included), C on division by zero; in both cases the quotient is
// 0xFFFF and D is left unchanged. Z is set when the quotient is 0.
func fdiv(ccr uint8, d, x uint16) (q, r uint16, ccrOut uint8) {
	ccr &^= isa.FlagZ | isa.FlagV | isa.FlagC
	if x <= d {
		ccr |= isa.FlagV
		if x == 0 {
			ccr |= isa.FlagC
		}
		return 0xffff, d, ccr
	}
	n := uint32(d) << 16
	q, r = uint16(n/uint32(x)), uint16(n%uint32(x))
	if q == 0 {
		ccr |= isa.FlagZ
	}
	return q, r, ccr
}

// branchTaken evaluates a conditional branch's test (opcode 0x20–0x2F) on ccr.
func branchTaken(op uint8, ccr uint8) bool {
	c := ccr&isa.FlagC != 0
	v := ccr&isa.FlagV != 0
	z := ccr&isa.FlagZ != 0
	n := ccr&isa.FlagN != 0
	var t bool
	switch op & 0x0e {
	case 0x00: // BRA / BRN
		t = true
	case 0x02: // BHI / BLS
		t = !c && !z
	case 0x04: // BCC / BCS
		t = !c
	case 0x06: // BNE / BEQ
		t = !z
	case 0x08: // BVC / BVS
		t = !v
	case 0x0a: // BPL / BMI
		t = !n
	case 0x0c: // BGE / BLT
		t = n == v
	case 0x0e: // BGT / BLE
		t = !z && n == v
	}
	if op&1 != 0 {
		return !t
	}
	return t
}

// branchTab[op&15] has bit ccr&15 set when the conditional branch with
// that low opcode nibble is taken under those N Z V C bits.
var branchTab = func() (t [16]uint16) {
	for op := 0; op < 16; op++ {
		for c := 0; c < 16; c++ {
			if branchTaken(uint8(0x20|op), uint8(c)) {
				t[op] |= 1 << c
			}
		}
	}
	return t
}()
