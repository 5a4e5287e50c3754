package sim

import (
	"testing"

	"github.com/hc11mc/hc11mc/devices"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// sourceMachine runs code under the exact clock with the latency of OC1
// measured (Latency.Source); its handler at 0xD100 clears OC1F.
func sourceMachine(t *testing.T, code []byte) *Machine {
	t.Helper()
	isr := b(0x86, 0x80, 0xB7, 0x10, 0x23, 0x3B) // ldaa #OC1F; staa TFLG1; rti
	cfg := Config{ExactClock: true, Timing: &Timing{Latencies: []Latency{
		{IRQ: isa.VecTOC1, Source: true, TimingBound: TimingBound{Track: true}}}}}
	return deviceMachine(t, code, map[uint16][]byte{0xD100: isr, 0xFFE8: {0xD1, 0x00}}, devices.Options{Exact: true}, cfg)
}

// oc1Armed: the stack set, OC1F cleared, TOC1 = TCNT + 12, so that OC1F sets at the
// 12th cycle from the LDD's first, inside the STD (ldd 5 + addd 4 +
// std 5), with OC1I clear; two NOPs and LDAA #OC1F follow (t = 20).
var oc1Armed = b(0x8E, 0x01, 0xFF, // lds #0x01FF
	0x86, 0x80, 0xB7, 0x10, 0x23, // ldaa #OC1F; staa TFLG1
	0xFC, 0x10, 0x0E, // ldd TCNT
	0xC3, 0x00, 0x0C, // addd #12
	0xFD, 0x10, 0x16, // std TOC1
	0x01, 0x01, // nop; nop
	0x86, 0x80) // ldaa #OC1F

// TestSourceEnableWrite: OC1I written while OC1F is set requests the
// interrupt with the write, counted from the first cycle of the STAA
// (4 cycles, the earliest the write can be), not from the cycle the
// flag set: staa 4 + cli 2 + nop 2 + entry 14 = 22.
func TestSourceEnableWrite(t *testing.T) {
	code := cat(oc1Armed, b(0xB7, 0x10, 0x22, // staa TMSK1: OC1I
		0x0E, 0x01, // cli; nop
		0x20, 0xFE)) // bra .
	m := sourceMachine(t, code)
	s := advance(t, m, m.Initial(), 9+3+1) // through the interrupt's entry
	if pc := s.Threads[0].PC; pc != 0xD100 {
		t.Fatalf("PC %04X, want the handler at D100", pc)
	}
	if v := m.TimingValues(); len(v) != 1 || v[0].Value != 4+2+2+14 {
		t.Errorf("latency %+v, want 22 cycles", v)
	}
}

// TestSourceWithdrawn: OC1I set while OC1F is set, then cleared before
// I is: the request ends without its handler after staa 4 + clr 6
// cycles, and the flag left set requests nothing more.
func TestSourceWithdrawn(t *testing.T) {
	code := cat(oc1Armed, b(0xB7, 0x10, 0x22, // staa TMSK1: OC1I
		0x7F, 0x10, 0x22, // clr TMSK1: withdrawn
		0x0E, 0x01, // cli; nop
		0x20, 0xFE)) // bra .
	m := sourceMachine(t, code)
	s := advance(t, m, m.Initial(), 9+4)
	if pc := s.Threads[0].PC; pc != 0xD01D {
		t.Fatalf("PC %04X, want bra . at D01D", pc)
	}
	if p := m.timingPage(s, false); p[offLatency] != 0 || get32(p[offLatency+1:]) != 0 {
		t.Errorf("the withdrawn request's page %v, want none", p[offLatency:offLatency+5])
	}
	if v := m.TimingValues(); len(v) != 1 || v[0].Value != 4+6 {
		t.Errorf("latency %+v, want 10 cycles", v)
	}
}
