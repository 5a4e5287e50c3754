package symbolic

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/symbolic/term"
)

// TestTranslation: every operation's Z3 form has, for sampled operand
// values (zero divisors and boundary values included), the value the
// term package gives it: the solver finds the term equal to that value
// and cannot make it differ.
func TestTranslation(t *testing.T) {
	b := term.NewBuilder()
	s := NewSolver(b, 0)
	x8, y8 := b.Var("x8", 8), b.Var("y8", 8)
	x16, y16 := b.Var("x16", 16), b.Var("y16", 16)
	c := b.Var("c", 1)
	ops := []*term.Term{
		b.Add(x8, y8), b.Sub(x8, y8), b.Mul(x16, y16), b.UDiv(x16, y16), b.URem(x16, y16),
		b.UDiv(b.Concat(x16, y16), b.ZeroExt(y16, 32)),
		b.And(x8, y8), b.Or(x8, y8), b.Xor(x8, y8), b.Not(x8), b.Shl(x8, 3), b.Shr(x16, 9),
		b.Extract(x16, 4, 7), b.Concat(x8, y8), b.Ite(c, x8, y8), b.Eq(x8, y8), b.Ult(x16, y16),
		b.Ule(x8, y8), b.Extract(b.Add(x16, y16), 15, 1),
	}
	r := rand.New(rand.NewPCG(5, 6))
	vals := func(w uint8) uint64 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return 1<<w - 1
		}
		return r.Uint64() & (1<<w - 1)
	}
	for _, op := range ops {
		for range 6 {
			m := Model{vals(8), vals(8), vals(16), vals(16), vals(1)}
			want := b.Eval(op, m)
			fix := []*term.Term{
				b.Eq(x8, b.Const(8, m[0])), b.Eq(y8, b.Const(8, m[1])),
				b.Eq(x16, b.Const(16, m[2])), b.Eq(y16, b.Const(16, m[3])), b.Eq(c, b.Const(1, m[4])),
			}
			eq := b.Eq(op, b.Const(op.W, want))
			if sat, _, err := s.Check(append(fix, eq)...); err != nil || !sat {
				t.Fatalf("%v = %#x under %v: the solver says no (%v)", op, want, m, err)
			}
			if sat, got, err := s.Check(append(fix, b.Not(eq))...); err != nil || sat {
				t.Fatalf("%v under %v: the solver makes it %#x, not %#x (%v)", op, m, b.Eval(op, got), want, err)
			}
		}
	}
}

// TestInterrupt: a query too hard to finish soon (two 32-bit factors of
// the prime 2^63-25, which do not exist) ends with ErrUnknown when Interrupt is called
// from another goroutine, as Check does on Ctrl-C and --timeout.
func TestInterrupt(t *testing.T) {
	b := term.NewBuilder()
	s := NewSolver(b, 0)
	x, y := b.Var("x", 32), b.Var("y", 32)
	n := b.Const(64, 1<<63-25)
	hard := []*term.Term{b.Eq(b.Mul(b.ZeroExt(x, 64), b.ZeroExt(y, 64)), n),
		b.Ult(b.Const(32, 1), x), b.Ult(b.Const(32, 1), y)}
	done := make(chan error, 1)
	go func() {
		_, _, err := s.Check(hard...)
		done <- err
	}()
	// Interrupt stops the query running when it is called: it is called
	// until the query ends, in case the first came before the query began.
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	watchdog := time.After(time.Minute)
	for {
		select {
		case err := <-done:
			if err != ErrUnknown {
				t.Errorf("interrupted query: %v, want ErrUnknown", err)
			}
			return
		case <-tick.C:
			s.Interrupt()
		case <-watchdog:
			t.Fatal("the query was not interrupted")
		}
	}
}
