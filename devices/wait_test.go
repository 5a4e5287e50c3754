package devices

import "testing"

// TestSendingFrame: a byte occupies the transmitter for ten bit times;
// the reference manual's rate is E / (16 × prescaler × 2^SCR), with the
// prescaler 1, 3, 4 or 13 by SCP1:SCP0 and SCR by SCR2:SCR0, so a frame
// is 160 × prescaler × 2^SCR E cycles whatever the crystal.
func TestSendingFrame(t *testing.T) {
	c, b := newChip(t, "e9", Options{})
	for _, tc := range []struct {
		baud  uint8
		frame uint64
	}{
		{0x00, 160},            // prescaler 1, rate 1: 125 kbaud at E = 2 MHz
		{0x30, 2080},           // 13, 1: 9600 baud
		{0x31, 160 * 13 * 2},   // 13, 2: 4800 baud
		{0x33, 160 * 13 * 8},   // 13, 8: 1200 baud
		{0x37, 160 * 13 * 128}, // 13, 128: 75 baud
		{0x15, 160 * 3 * 32},   // 3, 32
		{0x22, 160 * 4 * 4},    // 4, 4
		{0x07, 160 * 128},      // 1, 128
		{0xB8, 2080},           // TCLR and RCKB (test bits) do not count
	} {
		b.Reg[rBAUD] = tc.baud
		if busy, frame := c.Sending(b); busy || frame != tc.frame {
			t.Errorf("BAUD %02x: busy %v, frame %d E cycles, want idle, %d", tc.baud, busy, frame, tc.frame)
		}
	}
	c.Write(b, rSCCR2, sccr2TE)
	rd(c, b, rSCSR)
	c.Write(b, rSCDR, 'x')
	if busy, _ := c.Sending(b); !busy {
		t.Errorf("a byte written to the idle transmitter: not sending")
	}
	c.Event(b, 0) // the transmitter finishes
	if busy, _ := c.Sending(b); busy {
		t.Errorf("after the transmitter finished: still sending")
	}
}

// TestObservesAndArmed: which events a read of each register can show,
// and which the firmware's enabled interrupts would see.
func TestObservesAndArmed(t *testing.T) {
	c, b := newChip(t, "e9", Options{})
	for off, want := range map[int]Sources{
		rSCSR: SrcReceive | SrcTransmit, rSCDR: SrcReceive,
		rTFLG1: SrcTimer, rTFLG2: SrcTimer, rTCNT: SrcTimer, rTCNT + 1: SrcTimer, rTIC1: SrcTimer, rTIC1 + 5: SrcTimer,
		rPORTA: 0, rSCCR2: 0, rBAUD: 0, rTOC1: 0, rTMSK1: 0, rCOPRST: 0,
	} {
		if got := c.Observes(off); got != want {
			t.Errorf("%s: observes %03b, want %03b", c.RegName(off), got, want)
		}
	}
	if a := c.Armed(b); a != 0 {
		t.Errorf("after reset: armed %03b", a)
	}
	c.Write(b, rSCCR2, sccr2RIE) // receiver off: no byte can arrive
	if a := c.Armed(b); a != 0 {
		t.Errorf("RIE without RE: armed %03b", a)
	}
	c.Write(b, rSCCR2, sccr2RIE|sccr2RE|sccr2TCIE|sccr2TE)
	if a := c.Armed(b); a != SrcReceive|SrcTransmit {
		t.Errorf("RIE, RE, TCIE, TE: armed %03b", a)
	}
	c.Write(b, rSCCR2, 0)
	c.Write(b, rTMSK2, 0x40) // RTII
	if a := c.Armed(b); a != SrcTimer {
		t.Errorf("RTII: armed %03b", a)
	}
}
