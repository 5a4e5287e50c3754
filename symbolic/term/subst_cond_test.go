package term

import (
	"math/rand/v2"
	"testing"
)

// TestSubstCondition: a random term with a random 1-bit subterm c (and its
// negation) replaced by v has the term's value under every assignment
// where c is v; and the if-then-else on c that a merge builds keeps the
// chosen side exactly (package symbolic's Partition).
func TestSubstCondition(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	b := NewBuilder()
	var vars []*Term
	for i, w := range varWidths {
		vars = append(vars, b.Var("v"+string(rune('0'+i)), w))
	}
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
