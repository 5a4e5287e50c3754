package devices

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
)

// The exact clock's rates against the M68HC11 Reference Manual
// (M68HC11RM/AD): each expectation below is the manual's, counted in E
// cycles, not what the code computes.

// exactChip is an E9 under the exact clock, just out of reset, with its
// counters counted (no dead-data elimination) and the COP off.
func exactChip(t *testing.T) (*Chip, *Block) {
	t.Helper()
	c, b := newChip(t, "e9", Options{Exact: true})
	return c, b
}

// TestManualPrescaler: TCNT counts at E divided by 1, 4, 8 or 16 as
// TMSK2's PR1:PR0 select, written within the first 64 E cycles (reference
// manual, section 10, 10.2.1, page 10-10, PR1:PR0 and Table 10-1
// "Crystal Frequency vs. PR1, PR0 Values": one count is 1, 4, 8, 16 E
// cycles; in normal modes PR1:PR0 change only within the first 64 bus
// cycles after reset).
func TestManualPrescaler(t *testing.T) {
	for pr, div := range []uint64{1, 4, 8, 16} {
		c, b := exactChip(t)
		c.Write(b, rTMSK2, uint8(pr))
		for n := uint64(1); n <= 300; n++ {
			c.Elapse(b, div-1)
			if got := tcnt(b); got != n-1 {
				t.Fatalf("PR=%d: %d E cycles: TCNT %d, want %d", pr, n*div-1, got, n-1)
			}
			c.Elapse(b, 1)
			if got := tcnt(b); got != n {
				t.Fatalf("PR=%d: %d E cycles: TCNT %d, want %d", pr, n*div, got, n)
			}
		}
		c.Write(b, rTMSK2, 3-uint8(pr)) // past 64 cycles: ignored
		if b.Reg[rTMSK2]&3 != uint8(pr) {
			t.Errorf("PR=%d: a write after the first 64 E cycles changed PR1:PR0 to %d", pr, b.Reg[rTMSK2]&3)
		}
	}
}

// TestManualOutputCompare: OCxF is set when TCNT comes to TOCx, not before
// (reference manual, section 10, output compare: the flag is set when
// the counter matches the compare register); TOF when TCNT passes from
// 0xFFFF to 0x0000 (10.2.1.2 Overflow, page 10-10).
func TestManualOutputCompare(t *testing.T) {
	c, b := exactChip(t)
	for i, toc := range []uint16{100, 101, 250, 251, 0x1234} {
		b.Reg[rTOC1+2*i], b.Reg[rTOC1+2*i+1] = uint8(toc>>8), uint8(toc)
	}
	for i, toc := range []uint16{100, 101, 250, 251, 0x1234} {
		bit := uint8(0x80) >> i // OC1F … OC5F
		c.Elapse(b, uint64(toc)-tcnt(b)-1)
		if b.Reg[rTFLG1]&bit != 0 {
			t.Errorf("OC%dF set at TCNT 0x%04X, before TOC%d = 0x%04X", i+1, tcnt(b), i+1, toc)
		}
		c.Elapse(b, 1)
		if b.Reg[rTFLG1]&bit == 0 {
			t.Errorf("OC%dF not set at TCNT = TOC%d = 0x%04X", i+1, i+1, toc)
		}
	}
	c.Elapse(b, 0xFFFF-tcnt(b))
	if tcnt(b) != 0xFFFF || b.Reg[rTFLG2]&0x80 != 0 {
		t.Errorf("TCNT 0x%04X, TFLG2 0x%02X: want 0xFFFF and TOF clear", tcnt(b), b.Reg[rTFLG2])
	}
	c.Elapse(b, 1)
	if tcnt(b) != 0 || b.Reg[rTFLG2]&0x80 == 0 {
		t.Errorf("TCNT 0x%04X, TFLG2 0x%02X: want 0x0000 and TOF set", tcnt(b), b.Reg[rTFLG2])
	}
}

// TestManualRTI: RTIF is set once every E÷2^13 period times 1, 2, 4 or 8
// as PACTL's RTR1:RTR0 select (reference manual, section 10, real-time
// interrupt, the table of RTI rates vs. RTR1, RTR0; the MC68HC11A8
// technical summary, Table 6 "Timer Summary": E/2^13 … E/2^16, 8.192 …
// 65.536 ms at E = 1 MHz).
func TestManualRTI(t *testing.T) {
	for rtr := range uint8(4) {
		c, b := exactChip(t)
		b.Reg[rPACTL] = rtr
		period := uint64(1) << (13 + rtr)
		c.Elapse(b, period)
		for k := range 3 {
			b.Reg[rTFLG2] = 0
			c.Elapse(b, period-1)
			if b.Reg[rTFLG2]&0x40 != 0 {
				t.Fatalf("RTR=%d: RTIF set %d E cycles into period %d, before its end (%d)", rtr, period-1, k+2, period)
			}
			c.Elapse(b, 1)
			if b.Reg[rTFLG2]&0x40 == 0 {
				t.Fatalf("RTR=%d: RTIF not set at the end of period %d (%d E cycles)", rtr, k+2, period)
			}
		}
	}
}

// TestManualSCIFrame: a frame of ten bits takes 10 × 16 × the prescaler
// (SCP1:SCP0: ÷1, 3, 4, 13) × 2^SCR E cycles: the prescaler's output is
// 16 times the highest baud rate and SCR2:SCR0 divide it by 1 … 128
// (reference manual, section 9, BAUD register, page 9-8: Table 9-1
// "Baud-Rate Prescale Selects": with an 8 MHz crystal SCP = 11 gives
// 9600 baud; Table 9-2 "Baud-Rate Selects": SCR = 000 divides by 1, 001
// by 2). So 9600 baud
// from 8 MHz (E = 2 MHz): 2 MHz ÷ 16 ÷ 13 per bit, 2080 E cycles a frame
// of ten bits (start, eight data bits, stop); with SCCR1's M bit set a
// frame has nine data bits, eleven bits, 2288 E cycles (section 9, data
// format, SCCR1). The transmitter sets TC when the byte has left, TDRE
// as it starts it. When TE goes from 0 to 1 the transmitter queues one
// idle character, a frame of ones, as a preamble (section 9.3, SCCR2's
// TE): a byte written at once waits in TDR (TDRE clear) until the
// preamble is out, and TC comes two frames after the enable.
func TestManualSCIFrame(t *testing.T) {
	if d := sciFrameDiff(t); d != "" {
		t.Error(d)
	}
}

// TestManualSCIFrameCatches: with mutation.SCITenBits (ten-bit frames,
// no preamble) the checks of TestManualSCIFrame fail.
func TestManualSCIFrameCatches(t *testing.T) {
	defer mutation.Set(mutation.SCITenBits)()
	if d := sciFrameDiff(t); d == "" {
		t.Errorf("fault %s switched on: the SCI's frames agree with the manual", mutation.SCITenBits)
	} else {
		t.Logf("caught: %s", d)
	}
}

// sciFrameDiff returns the first difference of the transmitter's frames
// from the manual's (TestManualSCIFrame), or "".
func sciFrameDiff(t *testing.T) string {
	var errs []string
	errorf := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	for _, tc := range []struct {
		baud  uint8
		frame uint64 // ten bits
	}{{0x30, 2080}, {0x31, 4160}, {0x00, 160}, {0x10, 480}, {0x20, 640}, {0x37, 2080 << 7}} {
		for _, m := range []bool{false, true} {
			frame, sccr1 := tc.frame, uint8(0)
			if m {
				frame, sccr1 = tc.frame/10*11, 0x10
			}
			// The preamble, then the byte.
			c, b := exactChip(t)
			c.Write(b, rBAUD, tc.baud)
			c.Write(b, rSCCR1, sccr1)
			c.Write(b, rSCCR2, 0x08) // TE: the preamble
			c.Read(b, rSCSR, 0)
			if eff := c.Write(b, rSCDR, 'U'); eff.Sent || b.Reg[rSCSR]&(scsrTDRE|scsrTC) != 0 {
				errorf("BAUD 0x%02X M %v: the byte written with the preamble on the line: sent %v, SCSR %02X, want it in TDR, TDRE and TC clear",
					tc.baud, m, eff.Sent, b.Reg[rSCSR])
			}
			if eff := c.Elapse(b, frame-1); eff.Sent || b.Reg[rSCSR]&scsrTDRE != 0 {
				errorf("BAUD 0x%02X M %v: the byte left TDR %d E cycles after the enable, before the preamble's frame of %d", tc.baud, m, frame-1, frame)
			}
			if eff := c.Elapse(b, 1); !eff.Sent || b.Reg[rSCSR]&scsrTDRE == 0 {
				errorf("BAUD 0x%02X M %v: the byte did not start a frame (%d E cycles) after the enable", tc.baud, m, frame)
			}
			c.Elapse(b, frame-1)
			if b.Reg[rSCSR]&scsrTC != 0 {
				errorf("BAUD 0x%02X M %v: TC set %d E cycles after the enable, before the preamble and the byte", tc.baud, m, 2*frame-1)
			}
			c.Elapse(b, 1)
			if b.Reg[rSCSR]&scsrTC == 0 {
				errorf("BAUD 0x%02X M %v: TC not set two frames (%d E cycles) after the enable", tc.baud, m, 2*frame)
			}

			// The byte alone, the preamble long gone.
			c, b = exactChip(t)
			c.Write(b, rBAUD, tc.baud)
			c.Write(b, rSCCR1, sccr1)
			c.Write(b, rSCCR2, 0x08)
			c.Elapse(b, frame)
			c.Read(b, rSCSR, 0)
			if eff := c.Write(b, rSCDR, 'U'); !eff.Sent {
				errorf("BAUD 0x%02X M %v: the byte did not start at once on an idle line", tc.baud, m)
			}
			c.Elapse(b, frame-1)
			if b.Reg[rSCSR]&scsrTC != 0 {
				errorf("BAUD 0x%02X M %v: TC set %d E cycles after the byte started, before its frame of %d", tc.baud, m, frame-1, frame)
			}
			c.Elapse(b, 1)
			if b.Reg[rSCSR]&scsrTC == 0 {
				errorf("BAUD 0x%02X M %v: TC not set a frame (%d E cycles) after the byte started", tc.baud, m, frame)
			}
		}
	}
	return strings.Join(errs, "\n")
}

// TestManualCOP: the COP times out 2^15, 2^17, 2^19 or 2^21 E cycles after
// its service as OPTION's CR1:CR0 select (reference manual, section 5,
// COP reset, page 5-8, Table 5-3, and section 10, page 10-14, Table 10-3
// "COP Time-Out vs. CR1, CR0 Values": E divided by 2^15, then by 1, 4, 16
// or 64; page 10-14 adds that the chip's time-out may come up to one
// E÷2^15 period later, and the model takes the earliest).
func TestManualCOP(t *testing.T) {
	for cr := range uint8(4) {
		c, b := exactChip(t)
		b.Reg[rCONFIG] &^= 0x04 // NOCOP clear: the COP on
		c.Write(b, rOPTION, b.Reg[rOPTION]|cr)
		c.Write(b, rCOPRST, 0x55)
		c.Write(b, rCOPRST, 0xAA) // served
		timeout := uint64(1) << (15 + 2*cr)
		if eff := c.Elapse(b, timeout-1); eff.Watchdog {
			t.Errorf("CR=%d: the COP timed out %d E cycles after its service, before %d", cr, timeout-1, timeout)
		}
		if eff := c.Elapse(b, 1); !eff.Watchdog {
			t.Errorf("CR=%d: the COP did not time out %d E cycles after its service", cr, timeout)
		}
	}
}

// TestManualSCIWriteCycle: a store writes in its last cycle (appendix A's
// cycle-by-cycle tables), so a frame that a write of SCDR starts begins
// at the store's last cycle: with the 4 cycles of a STAA counted as the
// transition's (Block.Elapsed) and elapsed after the write, TC sets a
// frame less one cycle after the store ends.
func TestManualSCIWriteCycle(t *testing.T) {
	const frame = 160 // BAUD 0, ten bits
	c, b := exactChip(t)
	c.Write(b, rBAUD, 0)
	c.Write(b, rSCCR2, 0x08)
	c.Elapse(b, frame) // the preamble
	c.Read(b, rSCSR, 0)
	b.Elapsed = 4
	c.Write(b, rSCDR, 'U')
	b.Elapsed = 0
	c.Elapse(b, 4)
	c.Elapse(b, frame-2)
	if b.Reg[rSCSR]&scsrTC != 0 {
		t.Errorf("TC set %d E cycles after the store's last cycle, before the frame of %d", frame-1, frame)
	}
	c.Elapse(b, 1)
	if b.Reg[rSCSR]&scsrTC == 0 {
		t.Errorf("TC not set a frame (%d E cycles) after the store's last cycle", frame)
	}
}
