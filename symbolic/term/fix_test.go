package term

import (
	"math/rand/v2"
	"testing"
)

// TestFix: a random term with a random 1-bit subterm c taken as v has the
// term's value under every assignment where c is v; and the if-then-else
// on c that a merge builds keeps the chosen side exactly.
func TestFix(t *testing.T) {
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
		for _, v := range []bool{false, true} {
			fixed := b.Fix(tm, c, v, nil)
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
		if m := b.Ite(c, x, y); b.Fix(m, c, true, nil) != b.Fix(x, c, true, nil) || b.Fix(m, c, false, nil) != b.Fix(y, c, false, nil) {
			t.Fatalf("ite(%v, %v, %v) does not keep its side", c, x, y)
		}
	}
	if checked < 10000 {
		t.Errorf("only %d assignments checked", checked)
	}
}
