package term

import (
	"math/rand/v2"
	"testing"
)

// TestSubst: substituting constants for some variables keeps a term's
// value under every assignment that gives those variables those values,
// and substituting all of them leaves a constant; comparisons with a
// constant, which eqConst rewrites, keep theirs too.
func TestSubst(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	b, vars := testVars()
	env := make([]uint64, len(varWidths))
	for range 3000 {
		w := []uint8{1, 8, 16}[r.IntN(3)]
		e := randExpr(r, w, 5)
		if r.IntN(2) == 0 {
			// A comparison with a constant.
			k := &rexpr{op: OpConst, w: w, val: r.Uint64() & ones(w)}
			e = &rexpr{op: OpEq, w: 1, args: []*rexpr{e, k}}
		}
		tm := e.build(b, vars)
		vals := map[*Term]uint64{}
		for i, vw := range varWidths {
			env[i] = r.Uint64() & ones(vw)
			if r.IntN(2) == 0 {
				vals[vars[i]] = env[i]
			}
		}
		st := b.Subst(tm, vals, nil)
		for k := range 20 {
			for i, vw := range varWidths {
				if _, ok := vals[vars[i]]; !ok && k > 0 {
					env[i] = r.Uint64() & ones(vw)
				}
			}
			want := e.eval(env)
			if got := evalChecked(t, b, st, env); got != want {
				t.Fatalf("%v with %v is %v = %#x under %v, the expression gives %#x", tm, vals, st, got, env, want)
			}
		}
		for i := range varWidths {
			vals[vars[i]] = env[i]
		}
		if c, ok := b.Subst(tm, vals, nil).IsConst(); !ok || c != e.eval(env) {
			t.Fatalf("%v with every variable a constant (%v) is not the constant %#x", tm, vals, e.eval(env))
		}
	}
}

// TestSubstTerm: a term replaced by its value, as a path condition
// t == k allows, makes what depends on it alone constant.
func TestSubstTerm(t *testing.T) {
	b := NewBuilder()
	n, m, c := b.Var("n", 8), b.Var("m", 8), b.Var("c", 1)
	cnt := b.Ite(c, b.Sub(n, b.Const(8, 1)), b.Add(m, b.Const(8, 3)))
	z := b.Eq(cnt, b.Const(8, 0))
	flags := b.Concat(b.Extract(cnt, 7, 1), z)
	// The sign bit of an if-then-else is an if-then-else of the sign
	// bits: replaced as a term of its own.
	repl := map[*Term]uint64{cnt: 0, z: 1, b.Extract(cnt, 7, 1): 0}
	if got := b.Subst(flags, repl, nil); got != b.Const(2, 1) {
		t.Fatalf("%v with %v = 0 is %v, want #b01", flags, cnt, got)
	}
	if got := b.Subst(b.Add(cnt, n), repl, nil); got != n {
		t.Fatalf("cnt + n with cnt = 0 is %v, want n", got)
	}
}

// TestEqConst: the test of one flag of a condition code register is the
// flag, and a decremented counter found zero names the variable's value.
func TestEqConst(t *testing.T) {
	b := NewBuilder()
	n := b.Var("n", 8)
	z := b.Var("z", 1)
	ccr := b.Concat(b.Concat(b.Const(5, 0x1a), z), b.Const(2, 0))
	if got := b.Eq(b.And(ccr, b.Const(8, 0x04)), b.Const(8, 0)); got != b.Not(z) {
		t.Fatalf("(ccr & 4) == 0 is %v, want (not z)", got)
	}
	if got := b.Eq(b.Sub(b.Sub(n, b.Const(8, 1)), b.Const(8, 1)), b.Const(8, 0)); got != b.Eq(n, b.Const(8, 2)) {
		t.Fatalf("n-1-1 == 0 is %v, want n == 2", got)
	}
	if got := b.Eq(b.Concat(b.Const(8, 0), n), b.Const(16, 0x0103)); got != b.Const(1, 0) {
		t.Fatalf("0:n == 0x103 is %v, want false", got)
	}
}

// TestSubstCondition: a random term with a random 1-bit subterm c (and its
// negation) replaced by v has the term's value under every assignment
// where c is v; and the if-then-else on c that a merge builds keeps the
// chosen side exactly (package symbolic's Partition).
func TestSubstCondition(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	b, vars := testVars()
	env := make([]uint64, len(varWidths))
	checked := 0
	for range 2000 {
		w := []uint8{1, 8, 16}[r.IntN(3)]
		tm := randExpr(r, w, 5).build(b, vars)
		c := randExpr(r, 1, 3).build(b, vars)
		if r.IntN(3) == 0 {
			c = vars[3] // the 1-bit variable, as a merge's
		}
		if _, ok := c.IsConst(); ok {
			continue
		}
		fix := func(x *Term, v bool) *Term {
			k := uint64(0)
			if v {
				k = 1
			}
			return b.Subst(x, map[*Term]uint64{c: k, b.Not(c): k ^ 1}, nil)
		}
		for _, v := range []bool{false, true} {
			fixed := fix(tm, v)
			for range 30 {
				for i, vw := range varWidths {
					env[i] = r.Uint64() & ones(vw)
				}
				if (b.Eval(c, env) == 1) != v {
					continue
				}
				checked++
				if got, want := evalChecked(t, b, fixed, env), b.Eval(tm, env); got != want {
					t.Fatalf("%v with %v = %v is %v = %#x under %v, want %#x", tm, c, v, fixed, got, env, want)
				}
			}
		}
		x, y := randExpr(r, 8, 3).build(b, vars), randExpr(r, 8, 3).build(b, vars)
		if m := b.Ite(c, x, y); fix(m, true) != fix(x, true) || fix(m, false) != fix(y, false) {
			t.Fatalf("ite(%v, %v, %v) does not keep its side", c, x, y)
		}
	}
	if checked < 10000 {
		t.Errorf("only %d assignments checked", checked)
	}
}
