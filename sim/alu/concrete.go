package alu

// Concrete is the domain of plain values: uint8, uint16 and bool. Package
// sim runs the code generated from this package rather than this
// instantiation (see the package doc); tests compare the two.
type Concrete struct{}

// K8 returns v.
func (Concrete) K8(v uint8) uint8 { return v }

// K16 returns v.
func (Concrete) K16(v uint16) uint16 { return v }

// KF returns v.
func (Concrete) KF(v bool) bool { return v }

// Add8 returns a + b.
func (Concrete) Add8(a, b uint8) uint8 { return a + b }

// Sub8 returns a - b.
func (Concrete) Sub8(a, b uint8) uint8 { return a - b }

// And8 returns a & b.
func (Concrete) And8(a, b uint8) uint8 { return a & b }

// Or8 returns a | b.
func (Concrete) Or8(a, b uint8) uint8 { return a | b }

// Xor8 returns a ^ b.
func (Concrete) Xor8(a, b uint8) uint8 { return a ^ b }

// AndNot8 returns a &^ b.
func (Concrete) AndNot8(a, b uint8) uint8 { return a &^ b }

// Not8 returns ^a.
func (Concrete) Not8(a uint8) uint8 { return ^a }

// Shl8 returns a << n.
func (Concrete) Shl8(a uint8, n uint) uint8 { return a << n }

// Shr8 returns a >> n.
func (Concrete) Shr8(a uint8, n uint) uint8 { return a >> n }

// Eq8 returns a == b.
func (Concrete) Eq8(a, b uint8) bool { return a == b }

// Ult8 returns a < b.
func (Concrete) Ult8(a, b uint8) bool { return a < b }

// Ite8 returns a if c, else b.
func (Concrete) Ite8(c bool, a, b uint8) uint8 {
	if c {
		return a
	}
	return b
}

// Add16 returns a + b.
func (Concrete) Add16(a, b uint16) uint16 { return a + b }

// Sub16 returns a - b.
func (Concrete) Sub16(a, b uint16) uint16 { return a - b }

// And16 returns a & b.
func (Concrete) And16(a, b uint16) uint16 { return a & b }

// Or16 returns a | b.
func (Concrete) Or16(a, b uint16) uint16 { return a | b }

// AndNot16 returns a &^ b.
func (Concrete) AndNot16(a, b uint16) uint16 { return a &^ b }

// Not16 returns ^a.
func (Concrete) Not16(a uint16) uint16 { return ^a }

// Shl16 returns a << n.
func (Concrete) Shl16(a uint16, n uint) uint16 { return a << n }

// Shr16 returns a >> n.
func (Concrete) Shr16(a uint16, n uint) uint16 { return a >> n }

// Eq16 returns a == b.
func (Concrete) Eq16(a, b uint16) bool { return a == b }

// Ult16 returns a < b.
func (Concrete) Ult16(a, b uint16) bool { return a < b }

// Ite16 returns a if c, else b.
func (Concrete) Ite16(c bool, a, b uint16) uint16 {
	if c {
		return a
	}
	return b
}

// Mul16 returns a * b.
func (Concrete) Mul16(a, b uint16) uint16 { return a * b }

// UDiv16 returns a / b, 0xFFFF when b = 0.
func (Concrete) UDiv16(a, b uint16) uint16 {
	if b == 0 {
		return 0xffff
	}
	return a / b
}

// URem16 returns a % b, a when b = 0.
func (Concrete) URem16(a, b uint16) uint16 {
	if b == 0 {
		return a
	}
	return a % b
}

// FracQuo16 returns the low 16 bits of (a << 16) / b, 0xFFFF when b = 0.
func (Concrete) FracQuo16(a, b uint16) uint16 {
	if b == 0 {
		return 0xffff
	}
	return uint16(uint32(a) << 16 / uint32(b))
}

// FracRem16 returns (a << 16) % b, 0 when b = 0.
func (Concrete) FracRem16(a, b uint16) uint16 {
	if b == 0 {
		return 0
	}
	return uint16(uint32(a) << 16 % uint32(b))
}

// Wide returns a as 16 bits.
func (Concrete) Wide(a uint8) uint16 { return uint16(a) }

// Lo returns the low byte of a.
func (Concrete) Lo(a uint16) uint8 { return uint8(a) }

// Hi returns the high byte of a.
func (Concrete) Hi(a uint16) uint8 { return uint8(a >> 8) }

// Pair returns hi:lo.
func (Concrete) Pair(hi, lo uint8) uint16 { return uint16(hi)<<8 | uint16(lo) }

// Bit returns 1 if c, else 0.
func (Concrete) Bit(c bool) uint8 {
	if c {
		return 1
	}
	return 0
}

// Not returns !a.
func (Concrete) Not(a bool) bool { return !a }

// And returns a && b.
func (Concrete) And(a, b bool) bool { return a && b }

// Or returns a || b.
func (Concrete) Or(a, b bool) bool { return a || b }

// Xor returns a != b.
func (Concrete) Xor(a, b bool) bool { return a != b }
