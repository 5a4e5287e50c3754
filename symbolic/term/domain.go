package term

import "fmt"

// Domain is the Builder seen as a value domain of package sim/alu: bytes
// are 8-bit terms, words 16-bit terms and truth values 1-bit terms.
type Domain struct{ *Builder }

func check(t *Term, w uint8) *Term {
	if t.W != w {
		panic(fmt.Sprintf("term: a %d-bit term where %d bits are expected: %v", t.W, w, t))
	}
	return t
}

// K8 returns the 8-bit constant v.
func (d Domain) K8(v uint8) *Term { return d.Const(8, uint64(v)) }

// K16 returns the 16-bit constant v.
func (d Domain) K16(v uint16) *Term { return d.Const(16, uint64(v)) }

// KF returns the truth value v.
func (d Domain) KF(v bool) *Term { return d.Bool(v) }

// Add8 returns a + b.
func (d Domain) Add8(a, b *Term) *Term { return d.Add(check(a, 8), check(b, 8)) }

// Sub8 returns a - b.
func (d Domain) Sub8(a, b *Term) *Term { return d.Sub(check(a, 8), check(b, 8)) }

// And8 returns a & b.
func (d Domain) And8(a, b *Term) *Term { return d.Builder.And(check(a, 8), check(b, 8)) }

// Or8 returns a | b.
func (d Domain) Or8(a, b *Term) *Term { return d.Builder.Or(check(a, 8), check(b, 8)) }

// Xor8 returns a ^ b.
func (d Domain) Xor8(a, b *Term) *Term { return d.Builder.Xor(check(a, 8), check(b, 8)) }

// AndNot8 returns a &^ b.
func (d Domain) AndNot8(a, b *Term) *Term { return d.AndNot(check(a, 8), check(b, 8)) }

// Not8 returns ^a.
func (d Domain) Not8(a *Term) *Term { return d.Builder.Not(check(a, 8)) }

// Shl8 returns a << n.
func (d Domain) Shl8(a *Term, n uint) *Term { return d.Shl(check(a, 8), n) }

// Shr8 returns a >> n.
func (d Domain) Shr8(a *Term, n uint) *Term { return d.Shr(check(a, 8), n) }

// Eq8 returns a == b.
func (d Domain) Eq8(a, b *Term) *Term { return d.Eq(check(a, 8), check(b, 8)) }

// Ult8 returns a < b.
func (d Domain) Ult8(a, b *Term) *Term { return d.Ult(check(a, 8), check(b, 8)) }

// Ite8 returns a if c, else b.
func (d Domain) Ite8(c, a, b *Term) *Term { return d.Ite(check(c, 1), check(a, 8), check(b, 8)) }

// Add16 returns a + b.
func (d Domain) Add16(a, b *Term) *Term { return d.Add(check(a, 16), check(b, 16)) }

// Sub16 returns a - b.
func (d Domain) Sub16(a, b *Term) *Term { return d.Sub(check(a, 16), check(b, 16)) }

// And16 returns a & b.
func (d Domain) And16(a, b *Term) *Term { return d.Builder.And(check(a, 16), check(b, 16)) }

// Or16 returns a | b.
func (d Domain) Or16(a, b *Term) *Term { return d.Builder.Or(check(a, 16), check(b, 16)) }

// AndNot16 returns a &^ b.
func (d Domain) AndNot16(a, b *Term) *Term { return d.AndNot(check(a, 16), check(b, 16)) }

// Not16 returns ^a.
func (d Domain) Not16(a *Term) *Term { return d.Builder.Not(check(a, 16)) }

// Shl16 returns a << n.
func (d Domain) Shl16(a *Term, n uint) *Term { return d.Shl(check(a, 16), n) }

// Shr16 returns a >> n.
func (d Domain) Shr16(a *Term, n uint) *Term { return d.Shr(check(a, 16), n) }

// Eq16 returns a == b.
func (d Domain) Eq16(a, b *Term) *Term { return d.Eq(check(a, 16), check(b, 16)) }

// Ult16 returns a < b.
func (d Domain) Ult16(a, b *Term) *Term { return d.Ult(check(a, 16), check(b, 16)) }

// Ite16 returns a if c, else b.
func (d Domain) Ite16(c, a, b *Term) *Term { return d.Ite(check(c, 1), check(a, 16), check(b, 16)) }

// Mul16 returns a * b.
func (d Domain) Mul16(a, b *Term) *Term { return d.Mul(check(a, 16), check(b, 16)) }

// UDiv16 returns a / b, 0xFFFF when b = 0.
func (d Domain) UDiv16(a, b *Term) *Term { return d.UDiv(check(a, 16), check(b, 16)) }

// URem16 returns a % b, a when b = 0.
func (d Domain) URem16(a, b *Term) *Term { return d.URem(check(a, 16), check(b, 16)) }

// FracQuo16 returns the low 16 bits of (a << 16) / b, 0xFFFF when b = 0.
func (d Domain) FracQuo16(a, b *Term) *Term {
	n := d.Concat(check(a, 16), d.Const(16, 0))
	q := d.UDiv(n, d.ZeroExt(check(b, 16), 32))
	return d.Extract(q, 0, 16)
}

// FracRem16 returns (a << 16) % b, 0 when b = 0.
func (d Domain) FracRem16(a, b *Term) *Term {
	n := d.Concat(check(a, 16), d.Const(16, 0))
	return d.Extract(d.URem(n, d.ZeroExt(check(b, 16), 32)), 0, 16)
}

// Wide returns a zero-extended to 16 bits.
func (d Domain) Wide(a *Term) *Term { return d.ZeroExt(check(a, 8), 16) }

// Lo returns the low byte of a.
func (d Domain) Lo(a *Term) *Term { return d.Extract(check(a, 16), 0, 8) }

// Hi returns the high byte of a.
func (d Domain) Hi(a *Term) *Term { return d.Extract(check(a, 16), 8, 8) }

// Pair returns hi:lo.
func (d Domain) Pair(hi, lo *Term) *Term { return d.Concat(check(hi, 8), check(lo, 8)) }

// Bit returns the byte 1 if c, else 0.
func (d Domain) Bit(c *Term) *Term { return d.ZeroExt(check(c, 1), 8) }

// Not returns the negation of c.
func (d Domain) Not(c *Term) *Term { return d.Builder.Not(check(c, 1)) }

// And returns the conjunction.
func (d Domain) And(a, b *Term) *Term { return d.Builder.And(check(a, 1), check(b, 1)) }

// Or returns the disjunction.
func (d Domain) Or(a, b *Term) *Term { return d.Builder.Or(check(a, 1), check(b, 1)) }

// Xor returns a != b.
func (d Domain) Xor(a, b *Term) *Term { return d.Builder.Xor(check(a, 1), check(b, 1)) }
