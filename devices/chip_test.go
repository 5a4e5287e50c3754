package devices

import (
	"testing"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

func newChip(t *testing.T, name string, o Options) (*Chip, *Block) {
	t.Helper()
	p, err := loader.FindChip(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(p, o)
	if err != nil {
		t.Fatal(err)
	}
	b := new(Block)
	c.Reset(b)
	return c, b
}

// rd reads register off deterministically.
func rd(c *Chip, b *Block, off int) uint8 { return c.Read(b, off, 0) }

// TestPowerUp: the registers after reset, from the reference manual's
// register summary (undefined bits 0).
func TestPowerUp(t *testing.T) {
	for _, tc := range []struct {
		chip string
		want map[int]uint8
	}{
		{"a8", map[int]uint8{rPIOC: 0x03, rTOC1: 0xFF, rTOC1 + 1: 0xFF, rTOC5: 0xFF, rTOC5 + 1: 0xFF, rTCNT: 0, rTMSK1: 0, rTFLG1: 0,
			rSPCR: 0x04, rSCSR: 0xC0, rSCCR2: 0, rBAUD: 0, rOPTION: 0x10, rHPRIO: 0x25, rINIT: 0x01, rCONFIG: 0x0F, rBPROT: 0}},
		{"a1", map[int]uint8{rCONFIG: 0x0D, rINIT: 0x01}},
		{"e9", map[int]uint8{rPIOC: 0x03, rTOC4: 0xFF, rSCSR: 0xC0, rOPTION: 0x10, rBPROT: 0x1F, rINIT: 0x01, rCONFIG: 0x0F, rTMSK2: 0, rPACTL: 0}},
		{"e1", map[int]uint8{rCONFIG: 0x0D, rBPROT: 0x1F}},
		{"f1", map[int]uint8{rSCSR: 0xC0, rINIT: 0x01, rCONFIG: 0xFF, rDDRA: 0, rTOC1: 0xFF}},
	} {
		c, b := newChip(t, tc.chip, Options{})
		for off, v := range tc.want {
			if b.Reg[off] != v {
				t.Errorf("%s: %s = 0x%02X after reset, want 0x%02X", tc.chip, c.RegName(off), b.Reg[off], v)
			}
		}
		if c.Pending(b) != -1 || b.Hid[HidFlags]&FlagClocked == 0 {
			t.Errorf("%s: pending %d, flags %02x after reset", tc.chip, c.Pending(b), b.Hid[HidFlags])
		}
	}
	c, _ := newChip(t, "f1", Options{})
	if c.Size() != 96 || c.RegName(0x5D) != "CSCTL" || c.RegName(rPORTCf) != "PORTC" {
		t.Errorf("f1: size %d, 0x5D %q, 0x06 %q", c.Size(), c.RegName(0x5D), c.RegName(rPORTCf))
	}
}

const rTOC4 = rTOC1 + 6

// TestSCIReceive: RDRF is cleared by reading SCSR with RDRF set and then
// SCDR; a byte arriving while RDRF is set is an overrun; RIE requests the
// SCI interrupt.
func TestSCIReceive(t *testing.T) {
	c, b := newChip(t, "e9", Options{SCIInput: []byte("AB")})
	if n := c.Events(b); n != 0 {
		t.Fatalf("receiver off: %d events", n)
	}
	c.Write(b, rSCCR2, sccr2RE|sccr2TE)
	if n := c.Events(b); n != 2 {
		t.Fatalf("receiver on: %d events, want one per byte of the alphabet", n)
	}
	if e := c.Info(b, 1); e.Kind != EvReceive || e.Byte != 'B' {
		t.Fatalf("event 1: %+v", e)
	}
	c.Event(b, 1)
	if b.Reg[rSCSR]&scsrRDRF == 0 || rd(c, b, rSCDR) != 'B' {
		t.Fatalf("after a byte: SCSR %02x", b.Reg[rSCSR])
	}
	// SCDR read without the SCSR read first: RDRF stays.
	if b.Reg[rSCSR]&scsrRDRF == 0 {
		t.Errorf("RDRF cleared by SCDR alone")
	}
	// Overrun: one event, whatever the byte.
	if n := c.Events(b); n != 1 || c.Info(b, 0).Kind != EvOverrun {
		t.Fatalf("RDRF set: %d events, %v", n, c.Info(b, 0))
	}
	c.Event(b, 0)
	if b.Reg[rSCSR]&scsrOR == 0 || rd(c, b, rSCDR) != 'B' {
		t.Errorf("overrun: SCSR %02x SCDR %02x", b.Reg[rSCSR], b.Reg[rSCDR])
	}
	if n := c.Events(b); n != 0 {
		t.Errorf("RDRF and OR set: %d events, want none", n)
	}
	// The clearing sequence.
	if sr := rd(c, b, rSCSR); sr&(scsrRDRF|scsrOR) != scsrRDRF|scsrOR {
		t.Fatalf("SCSR %02x", sr)
	}
	rd(c, b, rSCDR)
	if b.Reg[rSCSR]&(scsrRDRF|scsrOR) != 0 {
		t.Errorf("SCSR then SCDR: SCSR %02x, want RDRF and OR clear", b.Reg[rSCSR])
	}
	// A flag that sets between the SCSR read and the SCDR read stays.
	c.Event(b, 0) // 'A'
	rd(c, b, rSCSR)
	c.Event(b, 0) // overrun after the status read
	rd(c, b, rSCDR)
	if b.Reg[rSCSR]&scsrOR == 0 || b.Reg[rSCSR]&scsrRDRF != 0 {
		t.Errorf("OR set after the SCSR read: SCSR %02x, want OR still set and RDRF clear", b.Reg[rSCSR])
	}
	rd(c, b, rSCSR)
	rd(c, b, rSCDR)
	// Interrupt enable.
	c.Event(b, 0)
	if c.Pending(b) != -1 {
		t.Errorf("RDRF with RIE clear: pending %d", c.Pending(b))
	}
	c.Write(b, rSCCR2, sccr2RE|sccr2TE|sccr2RIE)
	if c.Pending(b) != isa.VecSCI {
		t.Errorf("RDRF with RIE: pending %d, want SCI", c.Pending(b))
	}
}

// TestSCITransmit: TDRE and TC are cleared by reading SCSR and writing
// SCDR; a byte goes to the idle shift register at once; TIE and TCIE.
func TestSCITransmit(t *testing.T) {
	c, b := newChip(t, "e9", Options{})
	c.Write(b, rSCCR2, sccr2TE)
	rd(c, b, rSCSR)
	eff := c.Write(b, rSCDR, 'h')
	if !eff.Sent || eff.Byte != 'h' {
		t.Fatalf("write to the idle transmitter: %+v", eff)
	}
	if sr := b.Reg[rSCSR]; sr&scsrTDRE == 0 || sr&scsrTC != 0 {
		t.Errorf("one byte shifting: SCSR %02x, want TDRE set, TC clear", sr)
	}
	rd(c, b, rSCSR)
	if eff := c.Write(b, rSCDR, 'i'); eff.Sent {
		t.Errorf("second byte sent while the first shifts")
	}
	if sr := b.Reg[rSCSR]; sr&scsrTDRE != 0 {
		t.Errorf("byte in TDR: SCSR %02x, want TDRE clear", sr)
	}
	c.Write(b, rSCCR2, sccr2TE|sccr2TIE)
	if c.Pending(b) != -1 {
		t.Errorf("TIE with TDRE clear: pending")
	}
	if n := c.Events(b); n != 1 || c.Info(b, 0).Kind != EvTxDone {
		t.Fatalf("transmitter busy: %d events", n)
	}
	if eff := c.Event(b, 0); !eff.Sent || eff.Byte != 'i' || b.Reg[rSCSR]&scsrTDRE == 0 {
		t.Errorf("first byte done: %+v, SCSR %02x", eff, b.Reg[rSCSR])
	}
	if c.Pending(b) != isa.VecSCI {
		t.Errorf("TIE with TDRE set: not pending")
	}
	c.Event(b, 0)
	if b.Reg[rSCSR]&scsrTC == 0 || c.Events(b) != 0 {
		t.Errorf("all sent: SCSR %02x, %d events", b.Reg[rSCSR], c.Events(b))
	}
	// Without the SCSR read, TDRE is not cleared.
	c.Write(b, rSCCR2, sccr2TE)
	c.Write(b, rSCDR, 'x')
	c.Write(b, rSCDR, 'y')
	if b.Reg[rSCSR]&scsrTDRE == 0 {
		t.Errorf("SCDR written without reading SCSR: TDRE cleared")
	}
}

// TestTimerFlags: TFLG1 and TFLG2 are cleared by writing ones; a source
// fires only once the firmware touched it; the fixed priority and HPRIO.
func TestTimerFlags(t *testing.T) {
	c, b := newChip(t, "e9", Options{})
	if n := c.Events(b); n != 0 {
		t.Fatalf("untouched timer: %d events", n)
	}
	c.Write(b, rTMSK2, 0x40) // RTII
	if n := c.Events(b); n != 2 {
		t.Fatalf("TMSK2 touched: %d events, want RTI and TOF", n)
	}
	c.Event(b, 0) // RTI
	if b.Reg[rTFLG2] != 0x40 || c.Pending(b) != isa.VecRTI {
		t.Errorf("RTI: TFLG2 %02x pending %d", b.Reg[rTFLG2], c.Pending(b))
	}
	c.Write(b, rTFLG2, 0x80) // a 0 in RTIF's place leaves it
	if b.Reg[rTFLG2] != 0x40 {
		t.Errorf("writing 1 to TOF cleared RTIF: %02x", b.Reg[rTFLG2])
	}
	c.Write(b, rTFLG2, 0x40)
	if b.Reg[rTFLG2] != 0 {
		t.Errorf("writing 1 to RTIF: %02x", b.Reg[rTFLG2])
	}
	// Output compare 2 at 0x1234: TCNT goes there.
	c.Write(b, rTOC1+2, 0x12)
	c.Write(b, rTOC1+3, 0x34)
	c.Write(b, rTMSK1, 0x40)
	var oc2 = -1
	for k := range c.Events(b) {
		if c.Info(b, k).Source == "oc2" {
			oc2 = k
		}
	}
	if oc2 < 0 {
		t.Fatalf("no oc2 event")
	}
	c.Event(b, oc2)
	if b.Reg[rTFLG1] != 0x40 || b.Reg[rTCNT] != 0x12 || b.Reg[rTCNT+1] != 0x34 {
		t.Errorf("oc2: TFLG1 %02x TCNT %02x%02x", b.Reg[rTFLG1], b.Reg[rTCNT], b.Reg[rTCNT+1])
	}
	// Priority: RTI above OC2; HPRIO's PSEL promotes OC2 (1100) but only
	// while I is set.
	for k := range c.Events(b) {
		if c.Info(b, k).Source == "rti" {
			c.Event(b, k)
			break
		}
	}
	if c.Pending(b) != isa.VecRTI {
		t.Errorf("RTI and OC2: pending %d, want RTI", c.Pending(b))
	}
	c.Write(b, rHPRIO, 0x0C)
	if c.Pending(b) != isa.VecRTI {
		t.Errorf("PSEL written with I clear took effect")
	}
	b.CCR = isa.FlagI
	c.Write(b, rHPRIO, 0x0C)
	if b.Reg[rHPRIO] != 0x2C || c.Pending(b) != isa.VecTOC2 {
		t.Errorf("PSEL = OC2: HPRIO %02x pending %d", b.Reg[rHPRIO], c.Pending(b))
	}
	// Input capture 1 with an edge selected: TIC1 takes TCNT.
	c.Write(b, rTCTL2, 0x10)
	ic1 := -1
	for k := range c.Events(b) {
		if e := c.Info(b, k); e.Kind == EvCapture && e.Source == "ic1" {
			ic1 = k
		}
	}
	if ic1 < 0 {
		t.Fatal("no ic1 event")
	}
	c.Event(b, ic1)
	if b.Reg[rTFLG1]&0x04 == 0 || b.Reg[rTIC1] != 0x12 || b.Reg[rTIC1+1] != 0x34 {
		t.Errorf("ic1: TFLG1 %02x TIC1 %02x%02x", b.Reg[rTFLG1], b.Reg[rTIC1], b.Reg[rTIC1+1])
	}
}

// TestTimeProtected: INIT, OPTION's CR bits and TMSK2's prescaler take a
// write only once, within the first 64 E cycles.
func TestTimeProtected(t *testing.T) {
	c, b := newChip(t, "e9", Options{})
	b.Elapsed = 10
	c.Write(b, rINIT, 0x00)
	c.Write(b, rINIT, 0x11) // a second write is ignored
	if b.Reg[rINIT] != 0x00 {
		t.Errorf("INIT = %02x, want 00", b.Reg[rINIT])
	}
	c.Elapse(b, 70)
	b.Elapsed = 0
	c.Write(b, rOPTION, 0x93) // ADPU, DLY, CR = 3: the CR bits are too late
	if b.Reg[rOPTION] != 0x90 {
		t.Errorf("OPTION after 64 cycles = %02x, want 90 (DLY kept, CR ignored)", b.Reg[rOPTION])
	}
	c.Write(b, rTMSK2, 0x03)
	if b.Reg[rTMSK2] != 0x00 {
		t.Errorf("TMSK2 prescaler after 64 cycles: %02x", b.Reg[rTMSK2])
	}
	if b.Hid[HidFlags]&FlagClocked != 0 {
		t.Errorf("still clocked with the COP off")
	}
	c.Write(b, rBPROT, 0x00)
	if b.Reg[rBPROT] != 0x1F {
		t.Errorf("BPROT cleared after 64 cycles: %02x", b.Reg[rBPROT])
	}
	// Within the window it takes.
	_, b = newChip(t, "e9", Options{})
	b.Elapsed = 63
	c.Write(b, rOPTION, 0x03)
	c.Write(b, rBPROT, 0x00)
	if b.Reg[rOPTION] != 0x03 || b.Reg[rBPROT] != 0 {
		t.Errorf("in the window: OPTION %02x BPROT %02x", b.Reg[rOPTION], b.Reg[rBPROT])
	}
}

// TestCOP: with NOCOP clear the COP times out after 2^15 · 4^CR cycles
// unless 0x55 then 0xAA are written to COPRST.
func TestCOP(t *testing.T) {
	c, b := newChip(t, "e9", Options{Config: 0x0B, ConfigSet: true})
	if c.Elapse(b, 30000).Watchdog {
		t.Fatal("timeout before 2^15 cycles")
	}
	c.Write(b, rCOPRST, 0xAA) // without 0x55: no service
	c.Write(b, rCOPRST, 0x55)
	c.Write(b, rCOPRST, 0x00) // something else between is allowed
	c.Write(b, rCOPRST, 0xAA)
	if c.Elapse(b, 30000).Watchdog {
		t.Fatal("timeout after a service")
	}
	if !c.Elapse(b, 2768).Watchdog {
		t.Fatal("no timeout at 2^15 cycles")
	}
	_, b = newChip(t, "e9", Options{Config: 0x0B, ConfigSet: true})
	c.Write(b, rOPTION, 0x01) // CR = 1 in the window: 2^17
	if c.Elapse(b, 1<<16).Watchdog || !c.Elapse(b, 1<<16).Watchdog {
		t.Fatal("CR = 1: want the timeout at 2^17 cycles")
	}
	_, b = newChip(t, "e9", Options{})
	if c.Elapse(b, 1<<22).Watchdog {
		t.Fatal("NOCOP set: timeout")
	}
}

// TestPorts: outputs are recorded, inputs read from their domain through
// the data-direction register.
func TestPorts(t *testing.T) {
	c, b := newChip(t, "e9", Options{Inputs: map[int][]uint8{rPORTC: {0x0F, 0xF0}, rPORTE: nil}})
	if eff := c.Write(b, rPORTB, 0x5A); !eff.Port || eff.PortVal != 0x5A {
		t.Errorf("PORTB write: %+v", eff)
	}
	c.Write(b, rPORTC, 0xFF)
	c.Write(b, rDDRC, 0x0F) // low nibble out
	if c.Choices(b, rPORTC) != 2 || c.Read(b, rPORTC, 1) != 0xFF || c.Read(b, rPORTC, 0) != 0x0F {
		t.Errorf("PORTC: %d choices, %02x %02x", c.Choices(b, rPORTC), c.Read(b, rPORTC, 0), c.Read(b, rPORTC, 1))
	}
	if c.Choices(b, rPORTE) != 256 || c.Read(b, rPORTE, 0x42) != 0x42 {
		t.Errorf("PORTE: every value")
	}
	if c.Choices(b, rPORTB) != 1 || rd(c, b, rPORTB) != 0x5A {
		t.Errorf("PORTB reads its latch")
	}
	p, _ := loader.FindChip("e9")
	if _, err := New(p, Options{Inputs: map[int][]uint8{rSCSR: {0}}}); err == nil {
		t.Errorf("an input domain for SCSR was accepted")
	}
}

// TestMatcher: the output automaton finds a match anywhere.
func TestMatcher(t *testing.T) {
	m, err := CompileMatcher(`ERR[0-9]`)
	if err != nil {
		t.Fatal(err)
	}
	for out, want := range map[string]bool{"ERR1": true, "xxERR9yy": true, "ERRx": false, "EERR2": true, "": false} {
		if m.Match([]byte(out)) != want {
			t.Errorf("%q: %v", out, !want)
		}
	}
	if a, _ := CompileMatcher(`^>`); a.Match([]byte("a>")) || !a.Match([]byte(">")) {
		t.Errorf("^ anchors at the start of the output")
	}
	if _, err := CompileMatcher(`a$`); err == nil {
		t.Errorf("$ accepted")
	}
	c, b := newChip(t, "e9", Options{ExpectOutput: m})
	c.Write(b, rSCCR2, sccr2TE)
	var matched bool
	for _, ch := range []byte("ERR7") {
		for c.Events(b) > 0 {
			matched = matched || c.Event(b, 0).Matched
		}
		rd(c, b, rSCSR)
		matched = matched || c.Write(b, rSCDR, ch).Matched
	}
	if !matched {
		t.Errorf("ERR7 sent, no match")
	}
}

// TestHorizon: the cycles that may elapse before the device shows it —
// the end of the first 64, the COP's timeout, a byte overdue — and, once
// cycles no longer count, no bound; elapsing fewer changes no register.
func TestHorizon(t *testing.T) {
	c, b := newChip(t, "e9", Options{})
	if h := c.Horizon(b); h != 64 {
		t.Errorf("at reset: horizon %d, want 64 (the time-protected writes)", h)
	}
	c.Elapse(b, 64)
	if h := c.Horizon(b); h != ^uint64(0) {
		t.Errorf("COP off, after 64 cycles: horizon %d, want none", h)
	}

	c, b = newChip(t, "e9", Options{Config: 0x0B, ConfigSet: true}) // the COP on
	c.Elapse(b, 1000)
	if h := c.Horizon(b); h != 1<<15-1000 {
		t.Errorf("COP on after 1000 cycles: horizon %d, want %d", h, 1<<15-1000)
	}
	c.Write(b, rSCCR2, 0x08) // TE
	c.Write(b, rSCDR, 'A')
	fr := frame(b)
	c.Elapse(b, 10)
	if h := c.Horizon(b); h != min(fr-10, 1<<15-1010) {
		t.Errorf("sending, 10 cycles in: horizon %d, want %d", h, min(fr-10, 1<<15-1010))
	}
	regs := b.Reg
	h := c.Horizon(b)
	for range 3 {
		c.Elapse(b, (h-1)/3)
	}
	if b.Reg != regs || c.Overdue(b) || c.Horizon(b) != h-(h-1)/3*3 {
		t.Errorf("within the horizon: registers changed %v, overdue %v, horizon %d", b.Reg != regs, c.Overdue(b), c.Horizon(b))
	}
	if eff := c.Elapse(b, c.Horizon(b)); !c.Overdue(b) && !eff.Watchdog {
		t.Error("at the horizon: neither overdue nor the watchdog")
	}
}
