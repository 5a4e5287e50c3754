package devices

import isa "github.com/hc11mc/hc11mc/isa/m68hc11"

// Sources is a set of the environment's sources of events: what firmware
// that waits may be waiting for. The simulator finds that the firmware
// waits (its execution without events would cycle) and asks the device
// what the loop could notice: the registers it reads (Observes) and the
// interrupts it has enabled (Armed).
type Sources uint8

// The sources of events.
const (
	SrcReceive  Sources = 1 << iota // a byte arriving on the SCI
	SrcTransmit                     // the SCI's transmitter finishing a byte
	SrcTimer                        // a timer source firing, an edge on an input capture pin
)

// Observes returns the sources whose events change what a read of
// register off returns: SCSR shows the receiver (RDRF, OR) and the
// transmitter (TDRE, TC), SCDR the byte received, and the timer's flag
// registers, its counter and the input-capture registers TIC1-TIC3 show
// the timer.
func (c *Chip) Observes(off int) Sources {
	switch {
	case off == rSCSR:
		return SrcReceive | SrcTransmit
	case off == rSCDR:
		return SrcReceive
	case off == rTFLG1 || off == rTFLG2 || off == rTCNT || off == rTCNT+1:
		return SrcTimer
	case off >= rTIC1 && off < rTOC1:
		return SrcTimer
	}
	return 0
}

// Armed returns the sources whose events would request an interrupt the
// firmware has enabled in b and the CPU context whose condition codes are
// b.CCR takes: with the I bit clear, RIE with the receiver on for a byte
// arriving, TIE or TCIE with the transmitter on for it finishing, a timer
// source's mask bit for the timer, and an output compare acting on a pin
// wired to IRQ; with the X bit clear, one acting on a pin wired to XIRQ.
func (c *Chip) Armed(b *Block) Sources {
	var s Sources
	if b.CCR&isa.FlagX == 0 && c.ocDriven(b)&c.xirqPin != 0 {
		s |= SrcTimer
	}
	if b.CCR&isa.FlagI != 0 {
		return s
	}
	if c.ocDriven(b)&c.irqPin != 0 {
		s |= SrcTimer
	}
	cr := b.Reg[rSCCR2]
	if cr&sccr2RIE != 0 && cr&sccr2RE != 0 {
		s |= SrcReceive
	}
	if cr&(sccr2TIE|sccr2TCIE) != 0 && cr&sccr2TE != 0 {
		s |= SrcTransmit
	}
	for i := range sources {
		if src := &sources[i]; b.Reg[src.mask]&src.bit != 0 {
			s |= SrcTimer
		}
	}
	return s
}

// Sending reports whether the SCI's transmitter is shifting a byte out in
// b, and how many E cycles one frame takes at the rate BAUD sets: ten
// bits (start, eight data bits, stop), eleven with SCCR1's M, of sixteen
// E cycles times the prescaler (SCP1:SCP0) and the rate divider
// (SCR2:SCR0) each. The
// crystal does not enter: the E clock paces both the CPU and the line.
func (c *Chip) Sending(b *Block) (busy bool, cycles uint64) {
	return b.Hid[hSCITx]&txBusy != 0, frame(b)
}
