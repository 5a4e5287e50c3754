package term

import (
	"math/rand/v2"
	"testing"

	"github.com/hc11mc/hc11mc/sim/alu"
)

// The ALU of package sim/alu over terms agrees with the same functions
// over plain values: each operation is built once with variables for its
// operands and evaluated on every 8-bit operand (with a sample of CCR
// values for the binary ones), and on boundary and random 16-bit values.
// Every evaluation also checks the bits the builder claims to know.

var conc alu.Concrete

type d = Domain

// evalChecked evaluates t and checks its known bits.
func evalChecked(tb testing.TB, b *Builder, t *Term, env []uint64) uint64 {
	v := b.Eval(t, env)
	if k, kv := t.Known(); v&k != kv {
		tb.Fatalf("%v = %#x under %v, but the builder knows bits %#x to be %#x", t, v, env, k, kv)
	}
	return v
}

// ccrs is the sample of CCR values for the operations of two operands:
// all bits clear, all set, and mixtures of the carry, half-carry and the
// bits the operations keep.
var ccrs = []uint64{0x00, 0xff, 0xd1, 0x2e}

func TestALUUnary8(t *testing.T) {
	b := NewBuilder()
	dm := Domain{b}
	ccr, x := b.Var("ccr", 8), b.Var("x", 8)
	for _, f := range []struct {
		name string
		sym  func(Domain, *Term, *Term) (*Term, *Term)
		ref  func(alu.Concrete, uint8, uint8) (uint8, uint8)
	}{
		{"asl8", alu.Asl8[d, *Term, *Term, *Term], alu.Asl8[alu.Concrete, uint8, uint16, bool]},
		{"asr8", alu.Asr8[d, *Term, *Term, *Term], alu.Asr8[alu.Concrete, uint8, uint16, bool]},
		{"lsr8", alu.Lsr8[d, *Term, *Term, *Term], alu.Lsr8[alu.Concrete, uint8, uint16, bool]},
		{"rol8", alu.Rol8[d, *Term, *Term, *Term], alu.Rol8[alu.Concrete, uint8, uint16, bool]},
		{"ror8", alu.Ror8[d, *Term, *Term, *Term], alu.Ror8[alu.Concrete, uint8, uint16, bool]},
		{"neg8", alu.Neg8[d, *Term, *Term, *Term], alu.Neg8[alu.Concrete, uint8, uint16, bool]},
		{"com8", alu.Com8[d, *Term, *Term, *Term], alu.Com8[alu.Concrete, uint8, uint16, bool]},
		{"inc8", alu.Inc8[d, *Term, *Term, *Term], alu.Inc8[alu.Concrete, uint8, uint16, bool]},
		{"dec8", alu.Dec8[d, *Term, *Term, *Term], alu.Dec8[alu.Concrete, uint8, uint16, bool]},
		{"daa", alu.Daa[d, *Term, *Term, *Term], alu.Daa[alu.Concrete, uint8, uint16, bool]},
		{"logic8", func(d Domain, c, x *Term) (*Term, *Term) { return x, alu.Logic8(d, c, x) },
			func(d alu.Concrete, c, x uint8) (uint8, uint8) { return x, alu.Logic8(d, c, x) }},
		{"tst8", func(d Domain, c, x *Term) (*Term, *Term) { return x, alu.Tst8(d, c, x) },
			func(d alu.Concrete, c, x uint8) (uint8, uint8) { return x, alu.Tst8(d, c, x) }},
		{"clr8", func(d Domain, c, x *Term) (*Term, *Term) { return x, alu.Clr8(d, c) },
			func(d alu.Concrete, c, x uint8) (uint8, uint8) { return x, alu.Clr8(d, c) }},
	} {
		r, c := f.sym(dm, ccr, x)
		env := make([]uint64, 2)
		for cv := 0; cv < 256; cv++ {
			for xv := 0; xv < 256; xv++ {
				env[0], env[1] = uint64(cv), uint64(xv)
				gr, gc := evalChecked(t, b, r, env), evalChecked(t, b, c, env)
				wr, wc := f.ref(conc, uint8(cv), uint8(xv))
				if gr != uint64(wr) || gc != uint64(wc) {
					t.Fatalf("%s(ccr=%02x, %02x): terms give %02x %02x, values %02x %02x", f.name, cv, xv, gr, gc, wr, wc)
				}
			}
		}
	}
	for op := uint8(0x20); op < 0x30; op++ {
		c := alu.BranchTaken(dm, op, ccr)
		env := make([]uint64, 2)
		for cv := 0; cv < 256; cv++ {
			env[0] = uint64(cv)
			if g, w := evalChecked(t, b, c, env), alu.BranchTaken(conc, op, uint8(cv)); (g == 1) != w {
				t.Fatalf("branch %02x on ccr %02x: term %d, value %v", op, cv, g, w)
			}
		}
	}
}

func TestALUBinary8(t *testing.T) {
	b := NewBuilder()
	dm := Domain{b}
	ccr, x, y, cin := b.Var("ccr", 8), b.Var("x", 8), b.Var("y", 8), b.Var("c", 1)
	add, addc := alu.Add8(dm, ccr, x, y, dm.Bit(cin))
	sub, subc := alu.Sub8(dm, ccr, x, y, dm.Bit(cin))
	mul, mulc := alu.Mul(dm, ccr, x, y)
	env := make([]uint64, 4)
	for _, cv := range ccrs {
		for xv := uint64(0); xv < 256; xv++ {
			for yv := uint64(0); yv < 256; yv++ {
				for c := uint64(0); c < 2; c++ {
					env[0], env[1], env[2], env[3] = cv, xv, yv, c
					r, f := alu.Add8(conc, uint8(cv), uint8(xv), uint8(yv), uint8(c))
					if g, gf := evalChecked(t, b, add, env), evalChecked(t, b, addc, env); g != uint64(r) || gf != uint64(f) {
						t.Fatalf("add8(%02x, %02x, %02x, %d): terms %02x %02x, values %02x %02x", cv, xv, yv, c, g, gf, r, f)
					}
					r, f = alu.Sub8(conc, uint8(cv), uint8(xv), uint8(yv), uint8(c))
					if g, gf := evalChecked(t, b, sub, env), evalChecked(t, b, subc, env); g != uint64(r) || gf != uint64(f) {
						t.Fatalf("sub8(%02x, %02x, %02x, %d): terms %02x %02x, values %02x %02x", cv, xv, yv, c, g, gf, r, f)
					}
				}
				p, f := alu.Mul(conc, uint8(cv), uint8(xv), uint8(yv))
				if g, gf := evalChecked(t, b, mul, env), evalChecked(t, b, mulc, env); g != uint64(p) || gf != uint64(f) {
					t.Fatalf("mul(%02x, %02x, %02x): terms %04x %02x, values %04x %02x", cv, xv, yv, g, gf, p, f)
				}
			}
		}
	}
}

func words(r *rand.Rand, n int) []uint64 {
	w := []uint64{0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff}
	for range n {
		w = append(w, uint64(r.Uint32()&0xffff))
	}
	return w
}

func TestALU16(t *testing.T) {
	b := NewBuilder()
	dm := Domain{b}
	ccr, x, y := b.Var("ccr", 8), b.Var("x", 16), b.Var("y", 16)
	asl, aslc := alu.Asl16(dm, ccr, x)
	lsr, lsrc := alu.Lsr16(dm, ccr, x)
	add, addc := alu.Add16(dm, ccr, x, y)
	sub, subc := alu.Sub16(dm, ccr, x, y)
	iq, ir, ic := alu.Idiv(dm, ccr, x, y)
	fq, fr, fc := alu.Fdiv(dm, ccr, x, y)
	lg, zo := alu.Logic16(dm, ccr, x), alu.ZOnly(dm, ccr, x)
	r := rand.New(rand.NewPCG(3, 4))
	ws := words(r, 100)
	env := make([]uint64, 3)
	for _, cv := range ccrs {
		for _, xv := range ws {
			for _, yv := range ws {
				env[0], env[1], env[2] = cv, xv, yv
				c8, x16, y16 := uint8(cv), uint16(xv), uint16(yv)
				var want []uint64
				a1, a2 := alu.Asl16(conc, c8, x16)
				l1, l2 := alu.Lsr16(conc, c8, x16)
				d1, d2 := alu.Add16(conc, c8, x16, y16)
				s1, s2 := alu.Sub16(conc, c8, x16, y16)
				q1, q2, q3 := alu.Idiv(conc, c8, x16, y16)
				f1, f2, f3 := alu.Fdiv(conc, c8, x16, y16)
				want = append(want, uint64(a1), uint64(a2), uint64(l1), uint64(l2), uint64(d1), uint64(d2),
					uint64(s1), uint64(s2), uint64(q1), uint64(q2), uint64(q3), uint64(f1), uint64(f2), uint64(f3),
					uint64(alu.Logic16(conc, c8, x16)), uint64(alu.ZOnly(conc, c8, x16)))
				for i, tm := range []*Term{asl, aslc, lsr, lsrc, add, addc, sub, subc, iq, ir, ic, fq, fr, fc, lg, zo} {
					if g := evalChecked(t, b, tm, env); g != want[i] {
						t.Fatalf("16-bit result %d on ccr %02x, %04x, %04x: term %x, value %x", i, cv, xv, yv, g, want[i])
					}
				}
			}
		}
	}
}
