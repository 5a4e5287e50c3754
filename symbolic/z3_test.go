package symbolic

import (
	"testing"

	"github.com/aclements/go-z3/z3"
)

// TestZ3Links solves x + 1 == 0 over 8-bit vectors: the library is there
// and the bindings work.
func TestZ3Links(t *testing.T) {
	ctx := z3.NewContext(nil)
	s := z3.NewSolver(ctx)
	bv8 := ctx.BVSort(8)
	x := ctx.BVConst("x", 8)
	one := ctx.FromInt(1, bv8).(z3.BV)
	zero := ctx.FromInt(0, bv8).(z3.BV)
	s.Assert(x.Add(one).Eq(zero))
	sat, err := s.Check()
	if err != nil || !sat {
		t.Fatalf("x+1 == 0 over 8 bits: sat=%v err=%v", sat, err)
	}
	v, lit, ok := s.Model().Eval(x, true).(z3.BV).AsUint64()
	if !lit || !ok || v != 0xff {
		t.Fatalf("model x = %d (literal %v), want 255", v, lit)
	}
}
