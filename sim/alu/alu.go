package alu

import isa "github.com/hc11mc/hc11mc/isa/m68hc11"

// The arithmetic of the 68HC11, one function per operation, each returning
// the result and the new condition codes. These are the definitions of the
// M68HC11 Reference Manual, Appendix A (the Boolean formulas under each
// instruction). This file is the input of gen/main.go: it may use the
// domain's methods, calls of its own functions, and Go control flow on
// values that are not data (an opcode); see the package doc.

// mask is m where c holds, else 0.
func mask[D Domain[B, W, F], B, W, F any](d D, c F, m uint8) B {
	return d.Ite8(c, d.K8(m), d.K8(0))
}

// flag reports whether the CCR bit m is set.
func flag[D Domain[B, W, F], B, W, F any](d D, ccr B, m uint8) F {
	return d.Not(d.Eq8(d.And8(ccr, d.K8(m)), d.K8(0)))
}

// nz8 sets N and Z from an 8-bit result, keeping the other bits of ccr.
func nz8[D Domain[B, W, F], B, W, F any](d D, ccr, r B) B {
	ccr = d.AndNot8(ccr, d.K8(isa.FlagN|isa.FlagZ))
	ccr = d.Or8(ccr, d.Shl8(d.Shr8(r, 7), 3))
	return d.Or8(ccr, mask(d, d.Eq8(r, d.K8(0)), isa.FlagZ))
}

// nz16 sets N and Z from a 16-bit result.
func nz16[D Domain[B, W, F], B, W, F any](d D, ccr B, r W) B {
	ccr = d.AndNot8(ccr, d.K8(isa.FlagN|isa.FlagZ))
	ccr = d.Or8(ccr, d.Shl8(d.Shr8(d.Hi(r), 7), 3))
	return d.Or8(ccr, mask(d, d.Eq16(r, d.K16(0)), isa.FlagZ))
}

// Add8 is ADDA/ADDB/ADCA/ADCB/ABA: r = a + b + c (c is 0 or 1), flags H N Z V C.
func Add8[D Domain[B, W, F], B, W, F any](d D, ccr, a, b, c B) (B, B) {
	r := d.Add8(d.Add8(a, b), c)
	carries := d.Or8(d.Or8(d.And8(a, b), d.AndNot8(b, r)), d.AndNot8(a, r))
	v := d.Shr8(d.Or8(d.AndNot8(d.And8(a, b), r), d.AndNot8(r, d.Or8(a, b))), 7)
	ccr = d.AndNot8(ccr, d.K8(isa.FlagH|isa.FlagV|isa.FlagC))
	h := d.Shl8(d.And8(d.Shr8(carries, 3), d.K8(1)), 5)
	ccr = d.Or8(ccr, d.Or8(d.Or8(h, d.Shl8(v, 1)), d.Shr8(carries, 7)))
	return r, nz8(d, ccr, r)
}

// Sub8 is SUBA/SUBB/SBCA/SBCB/SBA/CMPA/CMPB/CBA: r = a - b - c, flags N Z V C.
func Sub8[D Domain[B, W, F], B, W, F any](d D, ccr, a, b, c B) (B, B) {
	r := d.Sub8(d.Sub8(a, b), c)
	borrow := d.Or8(d.Or8(d.AndNot8(b, a), d.And8(b, r)), d.AndNot8(r, a))
	v := d.Shr8(d.Or8(d.AndNot8(d.AndNot8(a, b), r), d.And8(d.AndNot8(b, a), r)), 7)
	ccr = d.AndNot8(ccr, d.K8(isa.FlagV|isa.FlagC))
	ccr = d.Or8(ccr, d.Or8(d.Shl8(v, 1), d.Shr8(borrow, 7)))
	return r, nz8(d, ccr, r)
}

// Add16 is ADDD: flags N Z V C.
func Add16[D Domain[B, W, F], B, W, F any](d D, ccr B, a, b W) (W, B) {
	r := d.Add16(a, b)
	carries := d.Or16(d.Or16(d.And16(a, b), d.AndNot16(b, r)), d.AndNot16(a, r))
	v := d.Shr16(d.Or16(d.AndNot16(d.And16(a, b), r), d.AndNot16(r, d.Or16(a, b))), 15)
	ccr = d.AndNot8(ccr, d.K8(isa.FlagV|isa.FlagC))
	ccr = d.Or8(ccr, d.Or8(d.Shl8(d.Lo(v), 1), d.Lo(d.Shr16(carries, 15))))
	return r, nz16(d, ccr, r)
}

// Sub16 is SUBD/CPD/CPX/CPY: flags N Z V C.
func Sub16[D Domain[B, W, F], B, W, F any](d D, ccr B, a, b W) (W, B) {
	r := d.Sub16(a, b)
	borrow := d.Or16(d.Or16(d.AndNot16(b, a), d.And16(b, r)), d.AndNot16(r, a))
	v := d.Shr16(d.Or16(d.AndNot16(d.AndNot16(a, b), r), d.And16(d.AndNot16(b, a), r)), 15)
	ccr = d.AndNot8(ccr, d.K8(isa.FlagV|isa.FlagC))
	ccr = d.Or8(ccr, d.Or8(d.Shl8(d.Lo(v), 1), d.Lo(d.Shr16(borrow, 15))))
	return r, nz16(d, ccr, r)
}

// Logic8 sets N Z and clears V: AND, OR, EOR, BIT, LDA, STA, TAB, TBA, BSET, BCLR.
func Logic8[D Domain[B, W, F], B, W, F any](d D, ccr, r B) B {
	return nz8(d, d.AndNot8(ccr, d.K8(isa.FlagV)), r)
}

// Logic16 sets N Z and clears V: LDD, LDX, LDY, LDS and the 16-bit stores.
func Logic16[D Domain[B, W, F], B, W, F any](d D, ccr B, r W) B {
	return nz16(d, d.AndNot8(ccr, d.K8(isa.FlagV)), r)
}

// shiftFlags sets N Z from r, C from c (0 or 1), and V = N xor C, as every
// shift and rotate does.
func shiftFlags[D Domain[B, W, F], B, W, F any](d D, ccr, r, c B) B {
	ccr = nz8(d, d.AndNot8(ccr, d.K8(isa.FlagV|isa.FlagC)), r)
	n := d.Shr8(r, 7)
	return d.Or8(d.Or8(ccr, c), d.Shl8(d.Xor8(n, c), 1))
}

// Asl8 is ASL (LSL).
func Asl8[D Domain[B, W, F], B, W, F any](d D, ccr, b B) (B, B) {
	r := d.Shl8(b, 1)
	return r, shiftFlags(d, ccr, r, d.Shr8(b, 7))
}

// Asr8 is ASR: bit 7 stays.
func Asr8[D Domain[B, W, F], B, W, F any](d D, ccr, b B) (B, B) {
	r := d.Or8(d.Shr8(b, 1), d.And8(b, d.K8(0x80)))
	return r, shiftFlags(d, ccr, r, d.And8(b, d.K8(1)))
}

// Lsr8 is LSR.
func Lsr8[D Domain[B, W, F], B, W, F any](d D, ccr, b B) (B, B) {
	r := d.Shr8(b, 1)
	return r, shiftFlags(d, ccr, r, d.And8(b, d.K8(1)))
}

// Rol8 is ROL: C enters at bit 0.
func Rol8[D Domain[B, W, F], B, W, F any](d D, ccr, b B) (B, B) {
	r := d.Or8(d.Shl8(b, 1), d.And8(ccr, d.K8(isa.FlagC)))
	return r, shiftFlags(d, ccr, r, d.Shr8(b, 7))
}

// Ror8 is ROR: C enters at bit 7.
func Ror8[D Domain[B, W, F], B, W, F any](d D, ccr, b B) (B, B) {
	r := d.Or8(d.Shr8(b, 1), d.Shl8(d.And8(ccr, d.K8(isa.FlagC)), 7))
	return r, shiftFlags(d, ccr, r, d.And8(b, d.K8(1)))
}

// Asl16 is ASLD (LSLD): N Z V C with V = N xor C.
func Asl16[D Domain[B, W, F], B, W, F any](d D, ccr B, v W) (W, B) {
	r := d.Shl16(v, 1)
	c := d.Lo(d.Shr16(v, 15))
	ccr = nz16(d, d.AndNot8(ccr, d.K8(isa.FlagV|isa.FlagC)), r)
	return r, d.Or8(d.Or8(ccr, c), d.Shl8(d.Xor8(d.Lo(d.Shr16(r, 15)), c), 1))
}

// Lsr16 is LSRD: N cleared, Z, C = bit 0, V = N xor C = C.
func Lsr16[D Domain[B, W, F], B, W, F any](d D, ccr B, v W) (W, B) {
	r := d.Shr16(v, 1)
	c := d.Lo(d.And16(v, d.K16(1)))
	ccr = nz16(d, d.AndNot8(ccr, d.K8(isa.FlagV|isa.FlagC)), r)
	return r, d.Or8(d.Or8(ccr, c), d.Shl8(c, 1))
}

// Neg8 is NEG: r = 0 - b; V set when the result is 0x80, C set unless it is 0.
func Neg8[D Domain[B, W, F], B, W, F any](d D, ccr, b B) (B, B) {
	r := d.Sub8(d.K8(0), b)
	ccr = nz8(d, d.AndNot8(ccr, d.K8(isa.FlagV|isa.FlagC)), r)
	ccr = d.Or8(ccr, d.Or8(mask(d, d.Eq8(r, d.K8(0x80)), isa.FlagV), mask(d, d.Not(d.Eq8(r, d.K8(0))), isa.FlagC)))
	return r, ccr
}

// Com8 is COM: one's complement, V cleared, C set.
func Com8[D Domain[B, W, F], B, W, F any](d D, ccr, b B) (B, B) {
	r := d.Not8(b)
	return r, d.Or8(nz8(d, d.AndNot8(ccr, d.K8(isa.FlagV)), r), d.K8(isa.FlagC))
}

// Inc8 is INC: V set when the operand was 0x7F; C unaffected.
func Inc8[D Domain[B, W, F], B, W, F any](d D, ccr, b B) (B, B) {
	r := d.Add8(b, d.K8(1))
	return r, d.Or8(nz8(d, d.AndNot8(ccr, d.K8(isa.FlagV)), r), mask(d, d.Eq8(b, d.K8(0x7f)), isa.FlagV))
}

// Dec8 is DEC: V set when the operand was 0x80; C unaffected.
func Dec8[D Domain[B, W, F], B, W, F any](d D, ccr, b B) (B, B) {
	r := d.Sub8(b, d.K8(1))
	return r, d.Or8(nz8(d, d.AndNot8(ccr, d.K8(isa.FlagV)), r), mask(d, d.Eq8(b, d.K8(0x80)), isa.FlagV))
}

// ZOnly sets Z from a 16-bit result, keeping the other bits: INX, DEX, INY, DEY.
func ZOnly[D Domain[B, W, F], B, W, F any](d D, ccr B, r W) B {
	return d.Or8(d.AndNot8(ccr, d.K8(isa.FlagZ)), mask(d, d.Eq16(r, d.K16(0)), isa.FlagZ))
}

// Tst8 is TST: N Z from the operand, V and C cleared.
func Tst8[D Domain[B, W, F], B, W, F any](d D, ccr, b B) B {
	return nz8(d, d.AndNot8(ccr, d.K8(isa.FlagV|isa.FlagC)), b)
}

// Clr8 is CLR: N V C cleared, Z set.
func Clr8[D Domain[B, W, F], B, W, F any](d D, ccr B) B {
	return d.Or8(d.AndNot8(ccr, d.K8(isa.FlagN|isa.FlagV|isa.FlagC)), d.K8(isa.FlagZ))
}

// Daa is DAA after a BCD addition, following the manual's correction
// table: 0x06 is added when H is set or the low digit exceeds 9; 0x60 when
// C is set, the high digit exceeds 9, or it is 9 with a low digit above 9
// — and then C is set. V is not defined by the manual; it is left
// unchanged.
func Daa[D Domain[B, W, F], B, W, F any](d D, ccr, a B) (B, B) {
	lo, hi := d.And8(a, d.K8(0x0f)), d.Shr8(a, 4)
	loBig := d.Ult8(d.K8(9), lo)
	low := d.Or(flag(d, ccr, isa.FlagH), loBig)
	high := d.Or(flag(d, ccr, isa.FlagC), d.Or(d.Ult8(d.K8(9), hi), d.And(d.Ult8(d.K8(8), hi), loBig)))
	r := d.Add8(a, d.Or8(mask(d, low, 0x06), mask(d, high, 0x60)))
	return r, d.Or8(nz8(d, d.AndNot8(ccr, d.K8(isa.FlagC)), r), mask(d, high, isa.FlagC))
}

// Mul is MUL: D = A * B, C = bit 7 of the result (so that ADCA #0 rounds).
func Mul[D Domain[B, W, F], B, W, F any](d D, ccr, a, b B) (W, B) {
	p := d.Mul16(d.Wide(a), d.Wide(b))
	return p, d.Or8(d.AndNot8(ccr, d.K8(isa.FlagC)), d.And8(d.Shr8(d.Lo(p), 7), d.K8(1)))
}

// Idiv is IDIV: X = D / X, D = D mod X. Z is set when the quotient is 0, V
// is cleared, C is set on division by zero, which leaves a quotient of
// 0xFFFF (the remainder is indeterminate in the manual; D is left
// unchanged).
func Idiv[D Domain[B, W, F], B, W, F any](d D, ccr B, n, x W) (q, r W, ccrOut B) {
	ccr = d.AndNot8(ccr, d.K8(isa.FlagZ|isa.FlagV|isa.FlagC))
	q, r = d.UDiv16(n, x), d.URem16(n, x)
	ccr = d.Or8(ccr, d.Or8(mask(d, d.Eq16(x, d.K16(0)), isa.FlagC), mask(d, d.Eq16(q, d.K16(0)), isa.FlagZ)))
	return q, r, ccr
}

// Fdiv is FDIV: X = (D << 16) / X, D = the remainder, for a fraction D/X <
// 1. V is set when X <= D (the quotient would not be a fraction — division
// by zero included), C on division by zero; in both cases the quotient is
// 0xFFFF and D is left unchanged. Z is set when the quotient is 0.
func Fdiv[D Domain[B, W, F], B, W, F any](d D, ccr B, n, x W) (q, r W, ccrOut B) {
	ccr = d.AndNot8(ccr, d.K8(isa.FlagZ|isa.FlagV|isa.FlagC))
	over := d.Not(d.Ult16(n, x))
	q = d.Ite16(over, d.K16(0xffff), d.FracQuo16(n, x))
	r = d.Ite16(over, n, d.FracRem16(n, x))
	ccr = d.Or8(ccr, d.Or8(mask(d, over, isa.FlagV), mask(d, d.Eq16(x, d.K16(0)), isa.FlagC)))
	return q, r, d.Or8(ccr, mask(d, d.Eq16(q, d.K16(0)), isa.FlagZ))
}

// BranchTaken evaluates a conditional branch's test (opcode 0x20–0x2F) on ccr.
func BranchTaken[D Domain[B, W, F], B, W, F any](d D, op uint8, ccr B) F {
	c := flag(d, ccr, isa.FlagC)
	v := flag(d, ccr, isa.FlagV)
	z := flag(d, ccr, isa.FlagZ)
	n := flag(d, ccr, isa.FlagN)
	var t F
	switch op & 0x0e {
	case 0x00: // BRA / BRN
		t = d.KF(true)
	case 0x02: // BHI / BLS
		t = d.Not(d.Or(c, z))
	case 0x04: // BCC / BCS
		t = d.Not(c)
	case 0x06: // BNE / BEQ
		t = d.Not(z)
	case 0x08: // BVC / BVS
		t = d.Not(v)
	case 0x0a: // BPL / BMI
		t = d.Not(n)
	case 0x0c: // BGE / BLT
		t = d.Not(d.Xor(n, v))
	case 0x0e: // BGT / BLE
		t = d.Not(d.Or(z, d.Xor(n, v)))
	}
	if op&1 != 0 {
		return d.Not(t)
	}
	return t
}
