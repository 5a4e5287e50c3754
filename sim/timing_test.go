package sim

import (
	"testing"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// TestCLIDelay: the M68HC11 Reference Manual's CLI (appendix A): the I
// bit clears one E cycle late, so that when CLI — or TAP, which loads
// CCR from A — clears an I that was set, the next instruction executes
// before an interrupt is taken. RTI restores I with no such delay, and a
// CLI with I already clear delays nothing.
func TestCLIDelay(t *testing.T) {
	interrupts := func(out []Successor) int {
		n := 0
		for _, o := range out {
			if o.Label.IRQ >= 0 {
				n++
			}
		}
		return n
	}
	for _, tc := range []struct {
		name string
		code []byte
		pre  int // instructions before the one that clears I
	}{
		{"cli", cat(insLDS, b(0x0E), b(0x01), insBRA), 1},                // lds; cli; nop
		{"tap", cat(insLDS, b(0x86, 0xC0), b(0x06), b(0x01), insBRA), 2}, // lds; ldaa #S|X; tap; nop
	} {
		m := irqMachine(t, tc.code, Config{})
		s := advance(t, m, m.Initial(), tc.pre)
		if s.Threads[0].CCR&isa.FlagI == 0 {
			t.Fatalf("%s: I clear before it", tc.name)
		}
		s = advance(t, m, s, 1) // the instruction that clears I
		if s.Threads[0].CCR&isa.FlagI != 0 || s.Threads[0].Inhibit != 1 {
			t.Fatalf("%s: after it CCR=%02X inhibit %d", tc.name, s.Threads[0].CCR, s.Threads[0].Inhibit)
		}
		out, _ := successors(m, s)
		if len(out) != 1 || interrupts(out) != 0 {
			t.Errorf("%s: right after it, want the next instruction alone: %s", tc.name, describe(out))
		}
		if _, _, ok := m.Replay(s, Label{Thread: 0, IRQ: isa.VecTOC1}); ok {
			t.Errorf("%s: the interrupt replays right after it", tc.name)
		}
		s = pick(t, out, 0, -1).State // the nop
		if out, _ = successors(m, s); interrupts(out) != 1 || s.Threads[0].Inhibit != 0 {
			t.Errorf("%s: after the next instruction, want the interrupt offered: %s", tc.name, describe(out))
		}
	}

	// A CLI with I clear already: nothing to delay.
	m := irqMachine(t, cat(insLDS, b(0x0E), b(0x0E), insBRA), Config{}) // lds; cli; cli
	s := advance(t, m, m.Initial(), 2)
	s = only(t, m, s) // the second CLI runs (the first one's delay)
	if out, _ := successors(m, s); interrupts(out) != 1 {
		t.Errorf("after a CLI with I clear, want the interrupt offered: %s", describe(out))
	}

	// RTI: the handler returns to a context with I clear; the interrupt
	// may come again at once.
	m = harnessMachine(t, cat(insLDS, b(0x0E), b(0x01), insBRA), map[uint16][]byte{
		0xFFE8: {0xD2, 0x00},
		0xD200: b(0x3B), // rti
	}, Config{IRQs: []string{"toc1"}})
	s = advance(t, m, m.Initial(), 3) // lds, cli, nop
	out, _ := successors(m, s)
	s = pick(t, out, 0, isa.VecTOC1).State
	s = only(t, m, s) // rti (I set in the handler: the only move)
	if out, _ = successors(m, s); interrupts(out) != 1 {
		t.Errorf("after RTI, want the interrupt offered at once: %s", describe(out))
	}
}

// TestTimingPageOnlyWhenAsked: without a timing property a state has
// exactly the pages it had; with one, one page more.
func TestTimingPageOnlyWhenAsked(t *testing.T) {
	code := cat(insLDS, b(0x0E), insBRA)
	plain := irqMachine(t, code, Config{})
	timed := irqMachine(t, code, Config{Timing: &Timing{Masked: TimingBound{Track: true}}})
	if p, q := len(plain.Initial().Pages), len(timed.Initial().Pages); q != p+1 {
		t.Errorf("pages: %d without timing, %d with, want one more", p, q)
	}
	if plain.HasTiming() || plain.TimingValues() != nil {
		t.Error("a machine without timing properties has timing values")
	}
}

// explore visits every state reachable from m's initial state (by
// Hash: a test's small spaces) and returns the violations seen.
func explore(t *testing.T, m *Machine, limit int) []*Violation {
	t.Helper()
	seen := map[uint64]bool{}
	var viols []*Violation
	stack := []*State{m.Initial()}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s.Hash()] {
			continue
		}
		seen[s.Hash()] = true
		if len(seen) > limit {
			t.Fatalf("more than %d states", limit)
		}
		out, _ := successors(m, s)
		for _, o := range out {
			if o.Violation != nil {
				viols = append(viols, o.Violation)
				continue
			}
			stack = append(stack, o.State)
		}
	}
	return viols
}

// TestMaskedAcrossThreads: the CPU is masked while the context that runs
// has I set; a switch to a thread with I clear ends the interval, one to
// a thread with I set starts one. Thread 0 masks three NOPs and its CLI
// (2 + 2 + 2 + 2 = 8 cycles, the manual's NOP and CLI); thread 1 clears
// its own I (inherited set at its creation: its CLI is 2 masked cycles)
// and spins with I clear.
func TestMaskedAcrossThreads(t *testing.T) {
	code := cat(insLDS,
		b(0xCC, 0xD0, 0x40), b(0xCE, 0x01, 0x7F), b(0x18, 0xCE, 0x00, 0x00), jsr(stubCreate), // create thread 1 at 0xD040
		b(0x0E, 0x0F, 0x01, 0x01, 0x01, 0x0E), insBRA) // cli; sei; nop; nop; nop; cli; bra .
	extra := map[uint16][]byte{0xD040: cat(b(0x0E), insBRA)} // cli; bra .
	for _, n := range []uint32{8, 7} {
		m := harnessMachine(t, code, extra, Config{Timing: &Timing{Masked: TimingBound{Track: true, Bounded: true, N: n}}})
		viols := explore(t, m, 5000)
		if n == 8 && len(viols) > 0 {
			t.Errorf("--max-masked 8: %v", viols[0])
		}
		if n == 7 && (len(viols) == 0 || viols[0].Kind != KindMasked || viols[0].To-viols[0].From != 8) {
			t.Errorf("--max-masked 7: want an 8-cycle interval, got %v", viols)
		}
		if v := m.TimingValues()[0]; v.Value != 8 && n == 8 {
			t.Errorf("the largest masked interval seen: %d, want 8", v.Value)
		}
	}
}
