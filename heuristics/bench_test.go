package heuristics

import (
	"fmt"
	"testing"

	"github.com/hc11mc/hc11mc/icfg"
	"github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// chain builds a program whose main calls p0, p0 calls p1, … p(depth-1),
// the innermost procedure runs a few NOPs, and main calls __mc_error after
// the chain has returned. It returns the program, the PCs of the innermost
// procedure and the return addresses of a thread there.
func chain(tb testing.TB, depth int) (*icfg.Program, []uint16, []uint16) {
	tb.Helper()
	const org = 0xD000
	code := []byte{0x39} // __mc_error: rts
	syms := []loader.Symbol{{Name: "__mc_error", Addr: org, Kind: loader.SymNone, Global: true}}
	main := uint16(org + len(code))
	pc := func() uint16 { return uint16(org + len(code)) }
	entry := func(i int) uint16 { return main + 8 + uint16(4*i) } // main is 8 bytes, each link 4
	// main: jsr p0; jsr __mc_error; bra .
	code = append(code, 0xBD, byte(entry(0)>>8), byte(entry(0)))
	returns := []uint16{pc()}
	code = append(code, 0xBD, byte(org>>8), byte(org&0xFF), 0x20, 0xFE)
	for i := 0; i < depth-1; i++ { // p_i: jsr p_{i+1}; rts
		if pc() != entry(i) {
			tb.Fatalf("layout: %04X != %04X", pc(), entry(i))
		}
		code = append(code, 0xBD, byte(entry(i+1)>>8), byte(entry(i+1)))
		returns = append([]uint16{pc()}, returns...)
		code = append(code, 0x39)
	}
	var leaf []uint16
	for j := 0; j < 4; j++ {
		leaf = append(leaf, pc())
		code = append(code, 0x01)
	}
	code = append(code, 0x39)
	img := &loader.Image{Path: "chain"}
	img.Segments = []loader.Segment{{Addr: org, Data: code, Name: ".text", Exec: true}}
	img.Symbols = syms
	img.Vectors[m68hc11.VecReset], img.VectorLoaded[m68hc11.VecReset] = main, true
	img.Entry, img.HasEntry = main, true
	prog, err := icfg.Build(img, icfg.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	if len(returns) != depth {
		tb.Fatalf("stack depth %d, want %d", len(returns), depth)
	}
	return prog, leaf, returns
}

// BenchmarkEstimate measures the extended FSM distance of one thread whose
// stack the memo table has seen (the common case in a search: the PC moves,
// the stack stays), by stack depth.
func BenchmarkEstimate(b *testing.B) {
	for _, depth := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			prog, leaf, returns := chain(b, depth)
			h, err := NewFromProgram(prog, Config{Kind: EFSM, K: 1, Property: Error})
			if err != nil {
				b.Fatal(err)
			}
			want := 4 + 1 + (depth - 1) + 1 // the NOPs and the leaf's RTS, one RTS per other frame, jsr __mc_error
			if got := h.Estimate(leaf[0], returns); got != want {
				b.Fatalf("estimate %d, want %d", got, want)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				h.Estimate(leaf[i&3], returns)
			}
		})
	}
}

// TestEstimateAllocs: an estimate on a stack the memo table has seen does
// not allocate.
func TestEstimateAllocs(t *testing.T) {
	for _, depth := range []int{1, 8, 32} {
		prog, leaf, returns := chain(t, depth)
		for k := 0; k <= 2; k++ {
			h, err := NewFromProgram(prog, Config{Kind: EFSM, K: k, Property: Error})
			if err != nil {
				t.Fatal(err)
			}
			h.Estimate(leaf[0], returns)
			i := 0
			if n := testing.AllocsPerRun(100, func() { h.Estimate(leaf[i&3], returns); i++ }); n != 0 {
				t.Errorf("depth %d, k=%d: %v allocations per estimate", depth, k, n)
			}
		}
	}
}
