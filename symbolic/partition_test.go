package symbolic

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// TestPartition: a state merged from two (on a branch condition, and on a
// fresh variable) is bi-partitioned back into two parts; under every
// assignment of the variables, a part's path holds exactly where its
// side's path does (with the guard's value), and there its registers and
// memory have that side's values; each part's trace is its side's.
func TestPartition(t *testing.T) {
	m := machineFor(t, filepath.Join("..", "testdata", "models", "symbolic", "secret4.elf"), []string{"--preempt", "every"})
	e, err := NewEngine(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := e.B
	x, y := e.newVar("x", 8), e.newVar("y", 8)
	init := e.Initial()
	side := func(a, mem *term.Term, path []*term.Term, l sim.Label) *State {
		n := init.derive(init.S.Clone())
		c := e.cpuOf(n, 0)
		c.A = a
		e.setCPU(n, 0, c)
		e.setMem(n, 0x0010, mem)
		n.Path = path
		n.Trace = &Step{Label: l}
		return n
	}
	cond := b.Ult(x, e.k8(5))
	cases := []struct {
		name string
		a, c *State
	}{
		{"branch", side(b.Add(x, y), y, []*term.Term{cond}, sim.Label{Thread: 0, Steps: 1}),
			side(b.Sub(x, e.k8(1)), e.k8(7), []*term.Term{b.Not(cond), b.Ult(e.k8(9), y)}, sim.Label{Thread: 0, Steps: 2})},
		{"variable", side(b.Add(x, y), y, []*term.Term{b.Ult(y, e.k8(3))}, sim.Label{Thread: 0, Steps: 1}),
			side(b.Xor(x, y), e.k8(7), []*term.Term{b.Ult(e.k8(9), y)}, sim.Label{Thread: 0, Steps: 2})},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		merged := e.merge(c.a, c.c)
		pa, pb, ok := e.bipartition(merged)
		if !ok || pa == nil || pb == nil {
			t.Fatalf("%s: not partitioned (%v, %v, %v)", c.name, ok, pa, pb)
		}
		if pa.Trace.Label != c.a.Trace.Label || pb.Trace.Label != c.c.Trace.Label {
			t.Errorf("%s: the parts' traces are not their sides'", c.name)
		}
		if got := e.partition(merged, 1); len(got) != 2 {
			t.Errorf("%s: partition below every size gives %d parts, want 2", c.name, len(got))
		}
		holds := func(st *State, env []uint64) bool {
			for _, p := range st.Path {
				if b.Eval(p, env) == 0 {
					return false
				}
			}
			return true
		}
		val := func(st *State, env []uint64) (uint64, uint64) {
			cpu := e.cpuOf(st, 0)
			return b.Eval(cpu.A, env), b.Eval(e.byteAt(st, 0x0010), env)
		}
		env := make([]uint64, len(b.Vars()))
		for range 2000 {
			for i, v := range b.Vars() {
				env[i] = r.Uint64() & (1<<v.W - 1)
			}
			for _, s := range [][2]*State{{pa, c.a}, {pb, c.c}} {
				part, orig := s[0], s[1]
				// A fresh merge variable no longer occurs in the part:
				// its path is the side's.
				if holds(part, env) != holds(orig, env) {
					t.Fatalf("%s: under %v the part's path is %v, its side's %v", c.name, env, holds(part, env), holds(orig, env))
				}
				if !holds(part, env) {
					continue
				}
				a1, m1 := val(part, env)
				if a2, m2 := val(orig, env); a1 != a2 || m1 != m2 {
					t.Fatalf("%s: under %v the part has A=%d mem=%d, its side A=%d mem=%d", c.name, env, a1, m1, a2, m2)
				}
			}
		}
	}
	// A state with no merge in its trace cannot be split.
	if _, _, ok := e.bipartition(cases[0].a); ok {
		t.Error("a state without a merge was partitioned")
	}
}
