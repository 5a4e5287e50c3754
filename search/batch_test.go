package search

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// Programs for the batches of steps (sim/batch.go): one thread that runs
// long stretches with interrupts masked — delay loops, shared bytes,
// assertions — opens windows (CLI … SEI) in which a TOC1 handler may
// change the shared bytes, and ends by looping back, exiting or spinning
// in place; sometimes it creates a second thread half-way.

const (
	batchStubs = 0xE000 // __mc_assert, __mc_thread_exit, __mc_thread_create: an RTS each
	batchISR   = 0xD800
	batchT1    = 0xD600
)

// batchBody is n random pieces of the main thread placed at org.
func batchBody(r *rand.Rand, n int, threads bool) []byte {
	shared := func() byte { return byte(r.IntN(4)) }
	var code []byte
	for range n {
		switch r.IntN(12) {
		case 0:
			code = append(code, 0x4C) // inca
		case 1:
			code = append(code, 0x16, 0x1B) // tab; aba
		case 2:
			code = append(code, 0x96, shared()) // ldaa dir
		case 3:
			code = append(code, 0x97, shared()) // staa dir
		case 4:
			code = append(code, 0x7C, 0x00, shared()) // inc ext
		case 5, 6:
			code = append(code, 0x0E, 0x01, 0x01, 0x0F) // cli; nop; nop; sei
		case 7, 8:
			code = append(code, 0x96, shared(), 0xBD, batchStubs>>8, 0x00) // ldaa dir; jsr __mc_assert
		case 9:
			code = append(code, 0xCE, 0x00, byte(1+r.IntN(40)), 0x09, 0x26, 0xFD) // ldx #n; dex; bne *-1
		case 10:
			code = append(code, 0x4D, 0x26, 0x02, 0x86, 0x01) // tsta; bne +2; ldaa #1
		default:
			if threads {
				// Thread 1 at batchT1 with its stack at 0x0180.
				code = append(code, 0xCC, batchT1>>8, batchT1&0xFF, 0xCE, 0x01, 0x80, 0x18, 0xCE, 0, 0, 0xBD, batchStubs>>8, 0x04)
				threads = false
			} else {
				code = append(code, 0x36, 0x32) // psha; pula
			}
		}
	}
	return code
}

// batchProgram builds a random program for the batches and the machine
// configuration to check it under (--preempt every, TOC1).
func batchProgram(r *rand.Rand) (*loader.Image, sim.Config, string) {
	rom := make([]byte, 0x10000-0xD000)
	put := func(a uint16, b []byte) { copy(rom[int(a)-0xD000:], b) }
	main := []byte{0x8E, 0x01, 0xFF, 0x86, 0x01, 0x97, 0x00, 0x97, 0x01} // lds #0x01FF; ldaa #1; staa 0; staa 1
	org := uint16(0xD000 + len(main))
	main = append(main, batchBody(r, 2+r.IntN(7), r.IntN(4) == 0)...)
	switch r.IntN(3) {
	case 0:
		main = append(main, 0x7E, byte(org>>8), byte(org)) // jmp org
	case 1:
		main = append(main, 0xBD, batchStubs>>8, 0x02) // jsr __mc_thread_exit
	default:
		main = append(main, 0x20, 0xFE) // bra *
	}
	put(0xD000, main)
	put(batchT1, append(batchBody(r, 1+r.IntN(3), false), 0xBD, batchStubs>>8, 0x02))
	var isr []byte
	for range 1 + r.IntN(2) {
		isr = append(isr, []byte{0x7F, 0x7C, 0x7A}[r.IntN(3)], 0x00, byte(r.IntN(4))) // clr, inc or dec ext
	}
	put(batchISR, append(isr, 0x3B))
	put(0xFFE8, []byte{batchISR >> 8, batchISR & 0xFF})
	put(0xFFFE, []byte{0xD0, 0x00})
	put(batchStubs, []byte{0x39, 0x01, 0x39, 0x01, 0x39})
	hooks := map[string]uint16{"__mc_assert": batchStubs, "__mc_thread_exit": batchStubs + 2, "__mc_thread_create": batchStubs + 4}
	img, err := loader.LoadBytes("batch.bin", rom, loader.Options{Format: loader.FormatBin, Base: 0xD000, BaseSet: true, Hooks: hooks})
	if err != nil {
		panic(err)
	}
	cfg := sim.Config{Entry: 0xD000, IRQs: []string{"toc1"}, Preempt: sim.PreemptEvery}
	return img, cfg, fmt.Sprintf("main %x, isr %x", main, isr)
}

// batchMachines builds a program's machine with and without batches.
func batchMachines(t *testing.T, img *loader.Image, cfg sim.Config) (batched, plain *sim.Machine) {
	t.Helper()
	var err error
	if batched, err = sim.NewMachine(img, cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Unbatched = true
	if plain, err = sim.NewMachine(img, cfg); err != nil {
		t.Fatal(err)
	}
	return batched, plain
}

// batchDiff compares, on n random programs, the search with batches
// (alone, with partial-order reduction, and with it and dead-data
// elimination) with the plain one without, and returns the first
// disagreement ("" for none) and how many comparisons had fewer states.
func batchDiff(t *testing.T, n int) (string, int, int) {
	r := rand.New(rand.NewPCG(32, 1))
	compared, fewer := 0, 0
	for i := range n {
		img, cfg, desc := batchProgram(r)
		m, plain := batchMachines(t, img, cfg)
		cfg.Dead = true
		md, _ := batchMachines(t, img, cfg)
		ref := Run(context.Background(), plain, Options{Strategy: BFS, All: true, MaxStates: 5000})
		if ref.Verdict == Incomplete {
			continue
		}
		for _, v := range []struct {
			name   string
			m      *sim.Machine
			reduce bool
			strat  Strategy
		}{{"batches", m, false, BFS}, {"batches, dfs", m, false, DFS}, {"batches, por", m, true, BFS}, {"batches, por,dead", md, true, DFS}} {
			got := Run(context.Background(), v.m, Options{Strategy: v.strat, All: true, MaxStates: 5000, Reduce: v.reduce})
			if got.Verdict != ref.Verdict || !maps.Equal(kinds(got), kinds(ref)) {
				return fmt.Sprintf("program %d (%s), %s: %s %v; without batches %s %v", i, desc, v.name, got.Verdict, kinds(got), ref.Verdict, kinds(ref)), compared, fewer
			}
			for _, f := range got.Found {
				// The counterexample replays, on the machine with
				// batches and, split (Unbatch), on the one without, to
				// its violation at the instruction it was found at.
				for _, rp := range []struct {
					m     *sim.Machine
					trace []sim.Label
				}{{v.m, f.Trace}, {plain, Unbatch(v.m, f.Trace)}} {
					_, vi, err := Replay(rp.m, rp.trace)
					if err != nil || vi == nil || vi.Kind != f.Violation.Kind || vi.PC != f.Violation.PC {
						return fmt.Sprintf("program %d (%s), %s: the %s counterexample at 0x%04X does not replay: %v, %v", i, desc, v.name, f.Violation.Kind, f.Violation.PC, vi, err), compared, fewer
					}
				}
			}
			if !v.reduce && got.Stats.StatesStored > ref.Stats.StatesStored {
				return fmt.Sprintf("program %d (%s), %s: %d states stored, %d without batches", i, desc, v.name, got.Stats.StatesStored, ref.Stats.StatesStored), compared, fewer
			}
			if got.Stats.StatesStored < ref.Stats.StatesStored {
				fewer++
			}
			compared++
		}
	}
	return "", compared, fewer
}

// TestBatchDifferential: on random programs that run long stretches with
// interrupts masked and open windows for a handler, the search with
// batches finds exactly the kinds of violation the search without finds
// (with --all: every kind), alone, with partial-order reduction and with
// dead-data elimination, in breadth- and depth-first order; every
// counterexample replays to its violation at the same instruction, with
// batches and, split into instructions, without; and batches never store
// more states.
func TestBatchDifferential(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 40
	}
	bad, compared, fewer := batchDiff(t, n)
	if bad != "" {
		t.Fatal(bad)
	}
	t.Logf("%d comparisons, %d with fewer states stored", compared, fewer)
	if compared < 2*n || fewer < compared/2 {
		t.Errorf("%d comparisons of exhaustive runs, %d with fewer states: the programs do not exercise the batches", compared, fewer)
	}
}

// TestBatchDifferentialCatches: the differential test above fails when a
// batch runs on through points at which an interrupt could be taken
// (mutation.BatchIRQ).
func TestBatchDifferentialCatches(t *testing.T) {
	defer mutation.Set(mutation.BatchIRQ)()
	if bad, _, _ := batchDiff(t, 70); bad == "" {
		t.Fatal("with batches running through interrupt windows, every program still agrees")
	} else {
		t.Log(bad)
	}
}

// A window of two instructions in which the handler may clear the byte
// the main thread then asserts on: the violation needs the interrupt
// inside the window; the stretch before it (a delay loop of 200 turns
// with I set) is one transition.
func TestBatchWindow(t *testing.T) {
	main := []byte{0x8E, 0x01, 0xFF, 0x86, 0x01, 0x97, 0x00, // lds #0x01FF; ldaa #1; staa 0
		0xCE, 0x00, 0xC8, 0x09, 0x26, 0xFD, // ldx #200; dex; bne *-1
		0x0E, 0x01, 0x0F, // cli; nop; sei
		0x96, 0x00, 0xBD, 0xE0, 0x00, // ldaa 0; jsr __mc_assert
		0x20, 0xFE} // bra *
	rom := make([]byte, 0x10000-0xD000)
	copy(rom, main)
	copy(rom[batchISR-0xD000:], []byte{0x7F, 0x00, 0x00, 0x3B}) // clr 0; rti
	copy(rom[0xFFE8-0xD000:], []byte{batchISR >> 8, batchISR & 0xFF})
	copy(rom[0xFFFE-0xD000:], []byte{0xD0, 0x00})
	copy(rom[batchStubs-0xD000:], []byte{0x39})
	img, err := loader.LoadBytes("window.bin", rom, loader.Options{Format: loader.FormatBin, Base: 0xD000, BaseSet: true,
		Hooks: map[string]uint16{"__mc_assert": batchStubs}})
	if err != nil {
		t.Fatal(err)
	}
	m, plain := batchMachines(t, img, sim.Config{Entry: 0xD000, IRQs: []string{"toc1"}, Preempt: sim.PreemptEvery})
	got := Run(context.Background(), m, Options{Strategy: BFS})
	ref := Run(context.Background(), plain, Options{Strategy: BFS})
	if got.Verdict != Violated || ref.Verdict != Violated || got.Found[0].Violation.Kind != sim.KindAssert {
		t.Fatalf("with batches %s, without %s: want the assertion violated in both", got.Verdict, ref.Verdict)
	}
	// Without batches: a state before each of the 3 + 2×200 + 1
	// instructions up to the window; with them, the initial state and
	// the window's.
	if got.Stats.StatesStored >= 10 || ref.Stats.StatesStored < 400 {
		t.Errorf("%d states stored with batches, %d without", got.Stats.StatesStored, ref.Stats.StatesStored)
	}
	if got.Stats.Instructions < 400 {
		t.Errorf("%d instructions executed with batches: the delay loop's are counted", got.Stats.Instructions)
	}
	tr := Unbatch(m, got.Found[0].Trace)
	if _, v, err := Replay(plain, tr); err != nil || v == nil || v.Kind != sim.KindAssert || v.PC != 0xD012 {
		t.Errorf("the split counterexample (%d transitions) replays without batches to %v, %v", len(tr), v, err)
	}
	for _, l := range tr {
		if l.Steps > 1 {
			t.Errorf("a transition of %d instructions in the split counterexample", l.Steps)
		}
	}
}

// A thread that spins with interrupts masked after its start-up ends the
// search: the batch finds the loop and the visited set closes it.
func TestBatchSpin(t *testing.T) {
	main := []byte{0x8E, 0x01, 0xFF, // lds #0x01FF
		0x7C, 0x00, 0x00, 0x20, 0xFB} // inc 0; bra to it: 256 turns before a state comes back
	rom := make([]byte, 0x10000-0xD000)
	copy(rom, main)
	copy(rom[0xFFFE-0xD000:], []byte{0xD0, 0x00})
	img, err := loader.LoadBytes("spin.bin", rom, loader.Options{Format: loader.FormatBin, Base: 0xD000, BaseSet: true})
	if err != nil {
		t.Fatal(err)
	}
	m, plain := batchMachines(t, img, sim.Config{Entry: 0xD000, Preempt: sim.PreemptEvery})
	got := Run(context.Background(), m, Options{Strategy: BFS})
	ref := Run(context.Background(), plain, Options{Strategy: BFS})
	if got.Verdict != Verified || ref.Verdict != Verified {
		t.Fatalf("with batches %s, without %s: want verified", got.Verdict, ref.Verdict)
	}
	// Without batches: the initial state, the one after LDS (whose
	// flags no INC of the loop leaves: Z clear with the byte 0), and
	// the loop's 2×256 (before INC and before BRA, for each value of
	// the byte); with them a handful.
	if ref.Stats.StatesStored != 2+2*256 || got.Stats.StatesStored > 4 {
		t.Errorf("%d states stored with batches, %d without (want 514)", got.Stats.StatesStored, ref.Stats.StatesStored)
	}
}

// A violation inside a batch is found at its instruction: after a delay
// loop with interrupts masked, a push leaves the --stack range (at
// 0xD00C, the fourth PSHA, which writes 0x01FC), and without the range a
// store writes ROM (at 0xD011); each is reported at that instruction, with few states, as
// without batches, and the counterexample replays there instruction by
// instruction without batches.
func TestBatchViolationInside(t *testing.T) {
	main := []byte{0x8E, 0x01, 0xFF, // lds #0x01FF
		0xCE, 0x00, 0x64, 0x09, 0x26, 0xFD, // ldx #100; dex; bne *-1
		0x36, 0x36, 0x36, 0x36, // psha x4: the fourth writes 0x01FC, below 0x01FD
		0x32, 0x32, 0x32, 0x32, // pula x4
		0xB7, 0xD0, 0x00, // staa 0xD000: ROM
		0x20, 0xFE} // bra *
	rom := make([]byte, 0x10000-0xD000)
	copy(rom, main)
	copy(rom[0xFFFE-0xD000:], []byte{0xD0, 0x00})
	img, err := loader.LoadBytes("inside.bin", rom, loader.Options{Format: loader.FormatBin, Base: 0xD000, BaseSet: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		stacks []sim.StackRange
		kind   sim.Kind
		pc     uint16
	}{{[]sim.StackRange{{Thread: 0, Lo: 0x01FD, Hi: 0x01FF}}, sim.KindStack, 0xD00C}, {nil, sim.KindROMWrite, 0xD011}} {
		m, plain := batchMachines(t, img, sim.Config{Entry: 0xD000, Preempt: sim.PreemptEvery, Stacks: c.stacks})
		for name, mm := range map[string]*sim.Machine{"batches": m, "without": plain} {
			r := Run(context.Background(), mm, Options{Strategy: BFS})
			if len(r.Found) != 1 || r.Found[0].Violation.Kind != c.kind || r.Found[0].Violation.PC != c.pc {
				t.Errorf("%s: %d violations found, want %s at 0x%04X", name, len(r.Found), c.kind, c.pc)
				for _, f := range r.Found {
					t.Errorf("%s: %s at 0x%04X", name, f.Violation.Kind, f.Violation.PC)
				}
				continue
			}
			f := r.Found[0]
			_, v, err := Replay(plain, f.Trace)
			if err != nil || v == nil || v.Kind != c.kind || v.PC != c.pc {
				t.Errorf("%s: the %s counterexample replays without batches to %v, %v", name, c.kind, v, err)
			}
			if name == "batches" && r.Stats.StatesStored > 2 {
				t.Errorf("%d states stored with batches", r.Stats.StatesStored)
			}
		}
	}
}
