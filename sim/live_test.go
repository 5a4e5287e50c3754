package sim

import (
	"testing"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// TestLiveness: what is live before each instruction of a small program,
// worked out by hand from the manual's definitions of the instructions.
func TestLiveness(t *testing.T) {
	code := []byte{
		0x86, 0x01, // D000 ldaa #1: kills A, N Z V
		0x16,       // D002 tab: reads A, kills B
		0xC6, 0x02, // D003 ldab #2: kills B
		0x1B,       // D005 aba: reads A B, kills H N Z V C
		0x24, 0x00, // D006 bcc D008: reads C
		0x20, 0xFE, // D008 bra D008
	}
	m := testMachine(t, code, nil, nil, Config{Dead: true})
	for _, c := range []struct {
		pc         uint16
		live, dead uint16
	}{
		{0xD000, 0, liveA | liveB | liveX | liveY | 0xFF},
		{0xD002, liveA, liveB | liveX | liveY | 0xFF},
		{0xD003, liveA, liveB | liveX | liveY | 0xFF},
		{0xD005, liveA | liveB, liveX | liveY | 0xFF},
		{0xD006, uint16(isa.FlagC), liveA | liveB | liveX | liveY | 0xFF&^uint16(isa.FlagC)},
	} {
		if got := m.live[c.pc]; got&c.live != c.live || got&c.dead != 0 {
			t.Errorf("0x%04X: live %012b, want %012b live and %012b dead", c.pc, got, c.live, c.dead)
		}
	}
	// Keys: at D003 B is dead, A is not.
	a := Thread{CPU: CPU{A: 1, B: 5, CCR: 0xC0, PC: 0xD003, X: 9}}
	b := a
	b.B, b.CCR, b.X = 7, 0xC4, 3
	if m.CanonicalKey(&a) != m.CanonicalKey(&b) || a.Key() == b.Key() {
		t.Errorf("dead B, X and flags change the canonical key")
	}
	b.A = 2
	if m.CanonicalKey(&a) == m.CanonicalKey(&b) {
		t.Errorf("a live A does not change the canonical key")
	}
	// An exited thread's registers are all dead.
	a.Status, b.Status = Exited, Exited
	if m.CanonicalKey(&a) != m.CanonicalKey(&b) {
		t.Errorf("an exited thread's registers change the canonical key")
	}
	// Without Config.Dead, or with interrupts, registers are kept.
	plain := testMachine(t, code, nil, nil, Config{})
	a.Status, b.Status, b.A = Running, Running, 1
	if plain.CanonicalKey(&a) != a.Key() || plain.CanonicalKey(&a) == plain.CanonicalKey(&b) {
		t.Errorf("without Config.Dead the canonical key is not the key")
	}
	irq := testMachine(t, code, map[uint16][]byte{0xFFE8: {0xD0, 0x06}}, nil, Config{Dead: true, IRQs: []string{"toc1"}})
	if irq.CanonicalKey(&a) == irq.CanonicalKey(&b) {
		t.Errorf("with an interrupt, dead registers are still zeroed")
	}
}

// TestLivenessCalls: RTS flows to every return site; a harness call uses
// what the harness reads; a made-up return address is counted.
func TestLivenessCalls(t *testing.T) {
	code := at(0x40,
		0x00, []byte{
			0xBD, 0xD0, 0x20, // D000 jsr sub
			0x16,             // D003 tab: reads A after the call
			0xBD, 0xD0, 0x28, // D004 jsr clrb
			0x20, 0xFE, // D007 bra *
		},
		0x20, []byte{0x39}, // D020 sub: rts
		0x28, []byte{0x5F, 0x39}, // D028 clrb: clrb; rts
		0x30, []byte{0xCE, 0xD0, 0x30, 0x3C, 0x39}, // D030 ldx #D030; pshx; rts: a made-up return
	)
	m := testMachine(t, code, nil, nil, Config{Dead: true})
	if m.live[0xD020]&liveA == 0 {
		t.Errorf("A, read after the call returns, is not live at the callee's RTS")
	}
	if m.live[0xD028]&liveB != 0 {
		t.Errorf("B, cleared by the callee, is live at its entry")
	}
	s := m.Initial()
	s.Threads[0].PC, s.Threads[0].SP, s.Threads[0].InitSP = 0xD030, 0x01F0, 0x01FF
	before := m.ForeignReturns()
	for range 3 {
		s = only(t, m, s)
	}
	if m.ForeignReturns() != before+1 || s.Threads[0].PC != 0xD030 {
		t.Errorf("the made-up return to 0x%04X counted %d times", s.Threads[0].PC, m.ForeignReturns()-before)
	}
}
