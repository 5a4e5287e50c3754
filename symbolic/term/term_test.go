package term

import (
	"math/rand/v2"
	"testing"
)

// rexpr is a random expression, evaluated directly (without the builder's
// simplifications) to check them.
type rexpr struct {
	op     Op
	w, aux uint8
	val    uint64 // constant value or variable index
	args   []*rexpr
}

func (e *rexpr) eval(env []uint64) uint64 {
	m := ones(e.w)
	a := func(i int) uint64 { return e.args[i].eval(env) }
	var r uint64
	switch e.op {
	case OpConst:
		r = e.val
	case OpVar:
		r = env[e.val]
	case OpAdd:
		r = a(0) + a(1)
	case OpSub:
		r = a(0) - a(1)
	case OpMul:
		r = a(0) * a(1)
	case OpUDiv:
		if a(1) == 0 {
			r = m
		} else {
			r = a(0) / a(1)
		}
	case OpURem:
		if a(1) == 0 {
			r = a(0)
		} else {
			r = a(0) % a(1)
		}
	case OpAnd:
		r = a(0) & a(1)
	case OpOr:
		r = a(0) | a(1)
	case OpXor:
		r = a(0) ^ a(1)
	case OpNot:
		r = ^a(0)
	case OpShl:
		r = a(0) << e.aux
	case OpShr:
		r = a(0) >> e.aux
	case OpExtract:
		r = a(0) >> e.aux
	case OpConcat:
		r = a(0)<<e.args[1].w | a(1)
	case OpIte:
		if a(0) != 0 {
			r = a(1)
		} else {
			r = a(2)
		}
	case OpEq:
		if a(0) == a(1) {
			r = 1
		}
	case OpUlt:
		if a(0) < a(1) {
			r = 1
		}
	}
	return r & m
}

func (e *rexpr) build(b *Builder, vars []*Term) *Term {
	a := func(i int) *Term { return e.args[i].build(b, vars) }
	switch e.op {
	case OpConst:
		return b.Const(e.w, e.val)
	case OpVar:
		return vars[e.val]
	case OpAdd:
		return b.Add(a(0), a(1))
	case OpSub:
		return b.Sub(a(0), a(1))
	case OpMul:
		return b.Mul(a(0), a(1))
	case OpUDiv:
		return b.UDiv(a(0), a(1))
	case OpURem:
		return b.URem(a(0), a(1))
	case OpAnd:
		return b.And(a(0), a(1))
	case OpOr:
		return b.Or(a(0), a(1))
	case OpXor:
		return b.Xor(a(0), a(1))
	case OpNot:
		return b.Not(a(0))
	case OpShl:
		return b.Shl(a(0), uint(e.aux))
	case OpShr:
		return b.Shr(a(0), uint(e.aux))
	case OpExtract:
		return b.Extract(a(0), e.aux, e.w)
	case OpConcat:
		return b.Concat(a(0), a(1))
	case OpIte:
		return b.Ite(a(0), a(1), a(2))
	case OpEq:
		return b.Eq(a(0), a(1))
	case OpUlt:
		return b.Ult(a(0), a(1))
	}
	panic("unreachable")
}

// varWidths are the widths of the test's variables, by index.
var varWidths = []uint8{8, 8, 16, 1, 8}

// testVars returns a builder with the variables of varWidths, by index.
func testVars() (*Builder, []*Term) {
	b := NewBuilder()
	var vars []*Term
	for i, w := range varWidths {
		vars = append(vars, b.Var("v"+string(rune('0'+i)), w))
	}
	return b, vars
}

func randExpr(r *rand.Rand, w uint8, depth int) *rexpr {
	if depth == 0 || r.IntN(5) == 0 {
		var vs []int
		for i, vw := range varWidths {
			if vw == w {
				vs = append(vs, i)
			}
		}
		if len(vs) > 0 && r.IntN(3) > 0 {
			return &rexpr{op: OpVar, w: w, val: uint64(vs[r.IntN(len(vs))])}
		}
		v := r.Uint64()
		switch r.IntN(4) {
		case 0:
			v = 0
		case 1:
			v = ones(w)
		}
		return &rexpr{op: OpConst, w: w, val: v & ones(w)}
	}
	sub := func(w uint8) *rexpr { return randExpr(r, w, depth-1) }
	switch k := r.IntN(14); {
	case k < 8:
		ops := []Op{OpAdd, OpSub, OpMul, OpUDiv, OpURem, OpAnd, OpOr, OpXor}
		return &rexpr{op: ops[k], w: w, args: []*rexpr{sub(w), sub(w)}}
	case k == 8:
		return &rexpr{op: OpNot, w: w, args: []*rexpr{sub(w)}}
	case k == 9:
		op := OpShl
		if r.IntN(2) == 0 {
			op = OpShr
		}
		return &rexpr{op: op, w: w, aux: uint8(r.IntN(int(w))), args: []*rexpr{sub(w)}}
	case k == 10 && w < 32:
		ws := []uint8{1, 8, 16}
		from := ws[r.IntN(3)]
		if from < w {
			from = w + uint8(r.IntN(int(8)))
		}
		lo := uint8(r.IntN(int(from-w) + 1))
		return &rexpr{op: OpExtract, w: w, aux: lo, args: []*rexpr{sub(from)}}
	case k == 11 && w > 1:
		hw := uint8(1 + r.IntN(int(w)-1))
		return &rexpr{op: OpConcat, w: w, args: []*rexpr{sub(hw), sub(w - hw)}}
	case k == 12:
		return &rexpr{op: OpIte, w: w, args: []*rexpr{sub(1), sub(w), sub(w)}}
	case k == 13 && w == 1:
		ow := []uint8{1, 8, 16}[r.IntN(3)]
		op := OpEq
		if r.IntN(2) == 0 {
			op = OpUlt
		}
		return &rexpr{op: op, w: 1, args: []*rexpr{sub(ow), sub(ow)}}
	}
	return sub(w)
}

// TestSimplifications builds random expressions and checks that the
// simplified term has the value the expression has, and the bits the
// builder claims to know, under random and boundary assignments.
func TestSimplifications(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	b, vars := testVars()
	env := make([]uint64, len(varWidths))
	for range 3000 {
		w := []uint8{1, 8, 16, 32}[r.IntN(4)]
		e := randExpr(r, w, 5)
		tm := e.build(b, vars)
		if tm.W != w {
			t.Fatalf("%v has %d bits, want %d", tm, tm.W, w)
		}
		for k := range 40 {
			for i, vw := range varWidths {
				switch k {
				case 0:
					env[i] = 0
				case 1:
					env[i] = ones(vw)
				default:
					env[i] = r.Uint64() & ones(vw)
				}
			}
			want := e.eval(env)
			if got := evalChecked(t, b, tm, env); got != want {
				t.Fatalf("simplified %v = %#x under %v, the expression gives %#x", tm, got, env, want)
			}
		}
	}
}

// TestHashConsing: equal terms are one pointer; variables are distinct.
func TestHashConsing(t *testing.T) {
	b := NewBuilder()
	x, y := b.Var("x", 8), b.Var("x", 8)
	if x == y {
		t.Fatal("two variables are one term")
	}
	if b.Add(x, y) != b.Add(y, x) || b.And(x, b.Const(8, 0x0f)) != b.And(b.Const(8, 0x0f), x) {
		t.Fatal("commutative operations are not canonical")
	}
	d := b.Concat(b.Extract(b.Add(x, y), 0, 4), b.Extract(b.Add(x, y), 0, 4))
	if d != b.Concat(b.Extract(b.Add(y, x), 0, 4), b.Extract(b.Add(x, y), 0, 4)) {
		t.Fatal("equal terms differ")
	}
	// D = A:B split and joined again is D.
	w := b.Var("w", 16)
	if b.Concat(b.Extract(w, 8, 8), b.Extract(w, 0, 8)) != w {
		t.Fatal("hi:lo of a word is not the word")
	}
	// Known bits: the S, X and I bits of a CCR survive an addition's flags.
	ccr := b.Or(b.And(b.Var("flags", 8), b.Const(8, 0x2f)), b.Const(8, 0xd0))
	_, c := Domain{b}.Add8(ccr, x), b.Extract(ccr, 4, 1)
	if v, ok := c.IsConst(); !ok || v != 1 {
		t.Fatalf("the I bit of %v is %v", ccr, c)
	}
}

// TestExtractShared: extracting bits of a term whose if-then-else
// branches share their subterms, as the data of states merged again and
// again do, takes time in the number of distinct subterms (a walk of the
// unshared tree would visit 2^60 of them), and gives the bits of the
// term's value.
func TestExtractShared(t *testing.T) {
	b := NewBuilder()
	x := b.Var("x", 8)
	tm := x
	for k := range 60 {
		c := b.Var("c", 1)
		tm = b.Ite(c, b.Xor(tm, b.Const(8, uint64(k)*37)), b.And(b.Not(tm), b.Const(8, 0xf7)))
	}
	n := b.Len()
	bit := b.Extract(tm, 3, 2)
	if grown := b.Len() - n; grown > 4*60 {
		t.Fatalf("extracting 2 bits built %d terms", grown)
	}
	r := rand.New(rand.NewPCG(3, 4))
	env := make([]uint64, len(b.Vars()))
	for range 200 {
		for i := range env {
			env[i] = r.Uint64() & ones(b.Vars()[i].W)
		}
		if got, want := b.Eval(bit, env), b.Eval(tm, env)>>3&3; got != want {
			t.Fatalf("bits 3-4 of %#x are %#x", b.Eval(tm, env), got)
		}
	}
}
