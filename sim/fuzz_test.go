package sim

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzRun executes arbitrary bytes as firmware: a plain run, a random run
// and a bounded breadth-first exploration must never panic, every
// successor must replay to an equal state, and the parent of a transition
// must not change.
//
// The image: the fuzzed bytes at 0xD000 (up to 0x100 of them, so that the
// harness stubs at 0xD100-0xD13F stay intact), the toc1, SWI and
// illegal-opcode vectors pointing into the code, an input register and a
// stack range. The first byte picks the preemption mode (its low two
// bits) and whether illegal opcodes trap (Config.IgnoreIllegal, bit 2).
func FuzzRun(f *testing.F) {
	f.Add([]byte{0x00, 0x8E, 0x01, 0xFF, 0xCE, 0xFF, 0xFF, 0x09, 0x26, 0xFD, 0x20, 0xFE})
	f.Add(append([]byte{0x01}, cat(insLDS, b(0xCC, 0x00, 0x03), jsr(stubNondet), b(0x16), jsr(stubAssert), insBRA)...))
	f.Add(append([]byte{0x02}, lockProg()[:0x60]...))
	f.Add(append([]byte{0x03}, cat(insLDS, b(0x0E), b(0xB6, 0x10, 0x03), b(0x3E), b(0x3F), b(0x41), b(0x20, 0xF6))...))
	f.Add([]byte{0x00, 0x3B, 0x39, 0x3E, 0xCF, 0x02, 0x03, 0x18, 0x12})
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 4; i++ {
		f.Add(randomProgram(r, i%2 == 0, nil))
	}
	vectors := map[uint16][]byte{0xFFE8: {0xD0, 0x10}, 0xFFF6: {0xD0, 0x20}, 0xFFF8: {0xD0, 0x30}, 0xD100: stubBlock(0x39)}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		mode := Preempt(data[0] % 4)
		code := data[1:]
		if len(code) > 0x100 {
			code = code[:0x100]
		}
		if len(code) == 0 {
			code = []byte{0x01}
		}
		cfg := Config{
			Preempt: mode,
			IRQs:    []string{"toc1"},
			Inputs:  map[uint16][]uint8{0x1003: {0x00, 0x7F, 0x80}},
			Stacks:  []StackRange{{Thread: -1, Lo: 0x0100, Hi: 0x01FF}},
			MaxRun:  300,
			// Illegal opcodes trap through 0xFFF8 or end the path.
			IgnoreIllegal: data[0]&4 != 0,
		}
		m := testMachine(t, code, vectors, stubSyms, cfg)

		// A plain run, and the same run traced: they must end alike.
		s := m.Initial()
		s.Threads[0].SP = 0x01FF
		plain := m.Run(s, RunOptions{Steps: 2000})
		ts := m.Initial()
		ts.Threads[0].SP = 0x01FF
		var tr strings.Builder
		traced := m.Run(ts, RunOptions{Steps: 2000, Trace: &tr})
		if !s.Equal(ts) || plain.Steps != traced.Steps || (plain.Violation == nil) != (traced.Violation == nil) {
			t.Fatalf("traced and plain runs differ: %d vs %d steps, %v vs %v", traced.Steps, plain.Steps, traced.Violation, plain.Violation)
		}

		s = m.Initial()
		s.Threads[0].SP = 0x01FF
		m.Run(s, RunOptions{Steps: 2000, Rand: rand.New(rand.NewPCG(uint64(len(data)), 1))})

		init := m.Initial()
		init.Threads[0].SP = 0x01FF
		// Explore breadth first, stopping after a bounded number of
		// transitions (__mc_nondet may offer up to 65536 at once).
		budget := 3000
		queue := []*State{init}
		seen := map[uint64]bool{init.Hash(): true}
		for len(queue) > 0 && budget > 0 {
			parent := queue[0]
			queue = queue[1:]
			out, _ := m.Successors(parent, nil, nil)
			budget -= len(out)
			h := parent.Hash()
			for i, o := range out {
				if i >= 8 {
					break // nondet may offer many values; a few suffice
				}
				ns, v, ok := m.Replay(parent, o.Label)
				if !ok || !ns.Equal(o.State) || (v == nil) != (o.Violation == nil) {
					t.Fatalf("replay of %+v: ok=%v equal=%v violation %v vs %v", o.Label, ok, ok && ns.Equal(o.State), v, o.Violation)
				}
			}
			if parent.Hash() != h {
				t.Fatal("expansion changed the parent state")
			}
			for _, o := range out {
				if o.Violation == nil && !seen[o.State.Hash()] {
					seen[o.State.Hash()] = true
					queue = append(queue, o.State)
				}
			}
		}
	})
}
