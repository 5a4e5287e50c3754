package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/hc11mc/hc11mc/sim/alu"
)

// The arithmetic in alu.go is generated from package alu (go generate);
// these tests check that the generated functions compute what the generic
// ones do on the concrete domain: every 8-bit operand (with a sample of CCR
// values), and boundary and random values for the 16-bit operations.

var conc alu.Concrete

// ccrSample is every CCR value for unary operations, and these for binary ones.
var ccrSample = []uint8{0x00, 0xff, 0x01, 0x20, 0x21, 0xd0, 0x2f, 0xd1}

func TestALUGenerated8(t *testing.T) {
	unary := []struct {
		name string
		gen  func(ccr, b uint8) (uint8, uint8)
		ref  func(d alu.Concrete, ccr, b uint8) (uint8, uint8)
	}{
		{"asl8", asl8, alu.Asl8[alu.Concrete, uint8, uint16, bool]},
		{"asr8", asr8, alu.Asr8[alu.Concrete, uint8, uint16, bool]},
		{"lsr8", lsr8, alu.Lsr8[alu.Concrete, uint8, uint16, bool]},
		{"rol8", rol8, alu.Rol8[alu.Concrete, uint8, uint16, bool]},
		{"ror8", ror8, alu.Ror8[alu.Concrete, uint8, uint16, bool]},
		{"neg8", neg8, alu.Neg8[alu.Concrete, uint8, uint16, bool]},
		{"com8", com8, alu.Com8[alu.Concrete, uint8, uint16, bool]},
		{"inc8", inc8, alu.Inc8[alu.Concrete, uint8, uint16, bool]},
		{"dec8", dec8, alu.Dec8[alu.Concrete, uint8, uint16, bool]},
		{"daa", daa, alu.Daa[alu.Concrete, uint8, uint16, bool]},
	}
	for _, f := range unary {
		for ccr := 0; ccr < 256; ccr++ {
			for b := 0; b < 256; b++ {
				r1, c1 := f.gen(uint8(ccr), uint8(b))
				r2, c2 := f.ref(conc, uint8(ccr), uint8(b))
				if r1 != r2 || c1 != c2 {
					t.Fatalf("%s(ccr=%02x, %02x) = %02x %02x, generic %02x %02x", f.name, ccr, b, r1, c1, r2, c2)
				}
			}
		}
	}
	for ccr := 0; ccr < 256; ccr++ {
		for b := 0; b < 256; b++ {
			c, x := uint8(ccr), uint8(b)
			if g, r := logic8(c, x), alu.Logic8(conc, c, x); g != r {
				t.Fatalf("logic8(%02x, %02x) = %02x, generic %02x", c, x, g, r)
			}
			if g, r := tst8(c, x), alu.Tst8(conc, c, x); g != r {
				t.Fatalf("tst8(%02x, %02x) = %02x, generic %02x", c, x, g, r)
			}
			if g, r := clr8(c), alu.Clr8(conc, c); g != r {
				t.Fatalf("clr8(%02x) = %02x, generic %02x", c, g, r)
			}
		}
		for op := 0x20; op < 0x30; op++ {
			if g, r := branchTaken(uint8(op), uint8(ccr)), alu.BranchTaken(conc, uint8(op), uint8(ccr)); g != r {
				t.Fatalf("branchTaken(%02x, %02x) = %v, generic %v", op, ccr, g, r)
			}
		}
	}
	binary := []struct {
		name string
		gen  func(ccr, a, b, c uint8) (uint8, uint8)
		ref  func(d alu.Concrete, ccr, a, b, c uint8) (uint8, uint8)
	}{
		{"add8", add8, alu.Add8[alu.Concrete, uint8, uint16, bool]},
		{"sub8", sub8, alu.Sub8[alu.Concrete, uint8, uint16, bool]},
	}
	for _, ccr := range ccrSample {
		for a := 0; a < 256; a++ {
			for b := 0; b < 256; b++ {
				for _, f := range binary {
					for c := uint8(0); c < 2; c++ {
						r1, c1 := f.gen(ccr, uint8(a), uint8(b), c)
						r2, c2 := f.ref(conc, ccr, uint8(a), uint8(b), c)
						if r1 != r2 || c1 != c2 {
							t.Fatalf("%s(ccr=%02x, %02x, %02x, %d) = %02x %02x, generic %02x %02x", f.name, ccr, a, b, c, r1, c1, r2, c2)
						}
					}
				}
				p1, c1 := mul(ccr, uint8(a), uint8(b))
				p2, c2 := alu.Mul(conc, ccr, uint8(a), uint8(b))
				if p1 != p2 || c1 != c2 {
					t.Fatalf("mul(%02x, %02x, %02x) = %04x %02x, generic %04x %02x", ccr, a, b, p1, c1, p2, c2)
				}
			}
		}
	}
}

// words16 returns boundary values and random ones.
func words16(r *rand.Rand, n int) []uint16 {
	w := []uint16{0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff}
	for range n {
		w = append(w, uint16(r.Uint32()))
	}
	return w
}

func TestALUGenerated16(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ws := words16(r, 300)
	for _, ccr := range ccrSample {
		for _, a := range ws {
			for _, f := range []struct {
				name string
				gen  func(ccr uint8, v uint16) (uint16, uint8)
				ref  func(d alu.Concrete, ccr uint8, v uint16) (uint16, uint8)
			}{
				{"asl16", asl16, alu.Asl16[alu.Concrete, uint8, uint16, bool]},
				{"lsr16", lsr16, alu.Lsr16[alu.Concrete, uint8, uint16, bool]},
			} {
				r1, c1 := f.gen(ccr, a)
				r2, c2 := f.ref(conc, ccr, a)
				if r1 != r2 || c1 != c2 {
					t.Fatalf("%s(%02x, %04x) = %04x %02x, generic %04x %02x", f.name, ccr, a, r1, c1, r2, c2)
				}
			}
			if g, r := logic16(ccr, a), alu.Logic16(conc, ccr, a); g != r {
				t.Fatalf("logic16(%02x, %04x) = %02x, generic %02x", ccr, a, g, r)
			}
			if g, r := zOnly(ccr, a), alu.ZOnly(conc, ccr, a); g != r {
				t.Fatalf("zOnly(%02x, %04x) = %02x, generic %02x", ccr, a, g, r)
			}
			for _, b := range ws {
				for _, f := range []struct {
					name string
					gen  func(ccr uint8, a, b uint16) (uint16, uint8)
					ref  func(d alu.Concrete, ccr uint8, a, b uint16) (uint16, uint8)
				}{
					{"add16", add16, alu.Add16[alu.Concrete, uint8, uint16, bool]},
					{"sub16", sub16, alu.Sub16[alu.Concrete, uint8, uint16, bool]},
				} {
					r1, c1 := f.gen(ccr, a, b)
					r2, c2 := f.ref(conc, ccr, a, b)
					if r1 != r2 || c1 != c2 {
						t.Fatalf("%s(%02x, %04x, %04x) = %04x %02x, generic %04x %02x", f.name, ccr, a, b, r1, c1, r2, c2)
					}
				}
				for _, f := range []struct {
					name string
					gen  func(ccr uint8, a, b uint16) (uint16, uint16, uint8)
					ref  func(d alu.Concrete, ccr uint8, a, b uint16) (uint16, uint16, uint8)
				}{
					{"idiv", idiv, alu.Idiv[alu.Concrete, uint8, uint16, bool]},
					{"fdiv", fdiv, alu.Fdiv[alu.Concrete, uint8, uint16, bool]},
				} {
					q1, r1, c1 := f.gen(ccr, a, b)
					q2, r2, c2 := f.ref(conc, ccr, a, b)
					if q1 != q2 || r1 != r2 || c1 != c2 {
						t.Fatalf("%s(%02x, %04x, %04x) = %04x %04x %02x, generic %04x %04x %02x", f.name, ccr, a, b, q1, r1, c1, q2, r2, c2)
					}
				}
			}
		}
	}
}

// aluLoopCode exercises the arithmetic in a loop: an addition, a
// subtraction, a compare, a rotate and a negation.
var aluLoopCode = []byte{
	0x8B, 0x03, // adda #3
	0xC0, 0x01, // subb #1
	0x81, 0x05, // cmpa #5
	0x46,       // rora
	0x50,       // negb
	0x20, 0xF6, // bra back to adda
}

// BenchmarkRunALU is BenchmarkRunLoop's companion for the generated
// arithmetic.
func BenchmarkRunALU(b *testing.B) {
	m := testMachine(b, aluLoopCode, nil, nil, Config{})
	s := m.Initial()
	b.ReportAllocs()
	b.ResetTimer()
	res := m.Run(s, RunOptions{Steps: uint64(b.N)})
	b.ReportMetric(float64(res.Steps)/b.Elapsed().Seconds()/1e6, "Minstr/s")
}
