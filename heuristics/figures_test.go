package heuristics

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/hc11mc/hc11mc/icfg"
	"github.com/hc11mc/hc11mc/loader"
)

// loadFig loads one of the paper's examples from testdata/heuristics.
func loadFig(t testing.TB, name string) *icfg.Program {
	t.Helper()
	img, err := loader.Load(filepath.Join("..", "testdata", "heuristics", name), loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prog, err := icfg.Build(img, icfg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// addr returns a symbol's address.
func addr(t testing.TB, prog *icfg.Program, name string) uint16 {
	t.Helper()
	s, ok := prog.Image.Lookup(name)
	if !ok {
		t.Fatalf("no symbol %s", name)
	}
	return s.Addr
}

// estimate builds a heuristic and evaluates one thread.
func estimate(t testing.TB, prog *icfg.Program, cfg Config, pc uint16, returns []uint16) int {
	t.Helper()
	h, err := NewFromProgram(prog, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h.Estimate(pc, returns)
}

// TestFigure1 checks the numbers of Section 2 and 3.1 for Figure 1: at the
// first entry to foo the FSM distance is 3 (06 07 08 → 05 over a false
// return edge) and the extended FSM distance is the true 8.
func TestFigure1(t *testing.T) {
	prog := loadFig(t, "fig1.elf")
	foo := addr(t, prog, "foo")
	stack := []uint16{addr(t, prog, "ret1")}
	reach := func(k Kind, kk int) Config { return Config{Kind: k, K: kk, Property: Reach, Reach: "error"} }
	cases := []struct {
		name string
		cfg  Config
		want int
	}{
		{"fsm", reach(FSM, 0), 3},
		{"aicfg k=0", reach(AICFG, 0), 3},
		{"aicfg k=1", reach(AICFG, 1), 8},
		{"efsm k=0", reach(EFSM, 0), 8},
		{"efsm k=1", reach(EFSM, 1), 8},
		{"efsm k=2", reach(EFSM, 2), 8},
		// The error property aims at __mc_error, one step further.
		{"fsm error", Config{Kind: FSM, Property: Error}, 4},
		{"efsm error", Config{Kind: EFSM, K: 1, Property: Error}, 9},
	}
	for _, c := range cases {
		if got := estimate(t, prog, c.cfg, foo, stack); got != c.want {
			t.Errorf("%s at foo: got %d, want %d", c.name, got, c.want)
		}
	}
	// At the second entry the false return is the true one.
	second := []uint16{addr(t, prog, "error")}
	for _, c := range cases[:6] {
		if got := estimate(t, prog, c.cfg, foo, second); got != 3 {
			t.Errorf("%s at the second entry to foo: got %d, want 3", c.name, got)
		}
	}
}

// TestFigure4 checks Section 3.2's worked example: at the first entry to g
// (stack: into f, into x, into main) the FSM distance and AICFG(1) give 4,
// AICFG(2) and the extended FSM distance give the true 11.
func TestFigure4(t *testing.T) {
	prog := loadFig(t, "fig4.elf")
	g := addr(t, prog, "g")
	stack := []uint16{addr(t, prog, "ret_fg"), addr(t, prog, "ret_xf"), addr(t, prog, "ret_x")}
	reach := func(k Kind, kk int) Config { return Config{Kind: k, K: kk, Property: Reach, Reach: "error"} }
	cases := []struct {
		name string
		cfg  Config
		want int
	}{
		{"fsm", reach(FSM, 0), 4},
		{"aicfg k=1", reach(AICFG, 1), 4},
		{"aicfg k=2", reach(AICFG, 2), 11},
		{"aicfg k=3", reach(AICFG, 3), 11},
		{"efsm k=0", reach(EFSM, 0), 11},
		{"efsm k=1", reach(EFSM, 1), 11},
		{"efsm k=2", reach(EFSM, 2), 11},
	}
	for _, c := range cases {
		if got := estimate(t, prog, c.cfg, g, stack); got != c.want {
			t.Errorf("%s at g: got %d, want %d", c.name, got, c.want)
		}
	}
	// The memo table of Section 3.2: after the first estimate, the frames
	// below g are stored; moving to g's RTS (0a) with the same stack is
	// one step closer.
	h, err := NewFromProgram(prog, reach(EFSM, 1))
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Estimate(g, stack); got != 11 {
		t.Fatalf("efsm at g: %d", got)
	}
	if got := h.Estimate(g+1, stack); got != 10 {
		t.Errorf("efsm at g's rts: got %d, want 10", got)
	}
	// The paper's table entries: (04, 02 := 9) at f's return vertex is the
	// distance from f's RTS, that is 1 + V at ret_xf.
	if got := h.Estimate(addr(t, prog, "ret_fg"), stack[1:]); got != 9 {
		t.Errorf("efsm at f's rts: got %d, want 9", got)
	}
}

// TestNoTarget checks that a property without a target says so.
func TestNoTarget(t *testing.T) {
	prog := loadFig(t, "fig1.elf")
	for _, p := range []Property{Assert, Mutex, Deadlock} {
		_, err := NewFromProgram(prog, Config{Kind: EFSM, K: 1, Property: p})
		if !errors.Is(err, ErrNoTarget) {
			t.Errorf("%s: got %v, want ErrNoTarget", p, err)
		}
	}
	if _, err := NewFromProgram(prog, Config{Kind: EFSM, Property: Reach, Reach: "nosuch"}); !errors.Is(err, ErrUnknownSymbol) {
		t.Errorf("reach nosuch: got %v, want ErrUnknownSymbol", err)
	}
	h, err := NewFromProgram(prog, Config{Kind: None, Property: Assert})
	if err != nil || h.Estimate(0xD000, nil) != 0 {
		t.Errorf("none: %v", err)
	}
}
