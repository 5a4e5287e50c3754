package devices

import isa "github.com/hc11mc/hc11mc/isa/m68hc11"

// source is one interrupt source of the timer: its flag and mask bits.
type source struct {
	name     string
	vec      int
	flag     int   // TFLG1 or TFLG2
	mask     int   // TMSK1 or TMSK2
	bit      uint8 // in both
	periodic bool  // fires as time passes (else: an external edge)
}

// sources lists the timer's sources in the hardware's priority order,
// highest first (the reference manual's interrupt priority table); SPI
// and SCI follow, below the pulse accumulator.
var sources = [...]source{
	{"rti", isa.VecRTI, rTFLG2, rTMSK2, 0x40, true},
	{"ic1", isa.VecTIC1, rTFLG1, rTMSK1, 0x04, false},
	{"ic2", isa.VecTIC2, rTFLG1, rTMSK1, 0x02, false},
	{"ic3", isa.VecTIC3, rTFLG1, rTMSK1, 0x01, false},
	{"oc1", isa.VecTOC1, rTFLG1, rTMSK1, 0x80, true},
	{"oc2", isa.VecTOC2, rTFLG1, rTMSK1, 0x40, true},
	{"oc3", isa.VecTOC3, rTFLG1, rTMSK1, 0x20, true},
	{"oc4", isa.VecTOC4, rTFLG1, rTMSK1, 0x10, true},
	{"oc5", isa.VecTOC5, rTFLG1, rTMSK1, 0x08, true},
	{"tof", isa.VecTOF, rTFLG2, rTMSK2, 0x80, true},
	{"paov", isa.VecPAO, rTFLG2, rTMSK2, 0x20, false},
	{"pai", isa.VecPAIE, rTFLG2, rTMSK2, 0x10, false},
}

// Indexes into sources.
const (
	srcRTI = iota
	srcIC1
	srcIC2
	srcIC3
	srcOC1
	srcOC2
	srcOC3
	srcOC4
	srcOC5
	srcTOF
)

// psel maps HPRIO's PSEL3-PSEL0 to the vector it promotes to the top of
// the I-masked interrupts (-1: none; 0101 is reserved and 0110 is the IRQ
// pin, which is already the highest).
var psel = [16]int{
	isa.VecTOF, isa.VecPAO, isa.VecPAIE, isa.VecSPI, isa.VecSCI, -1, -1, isa.VecRTI,
	isa.VecTIC1, isa.VecTIC2, isa.VecTIC3, isa.VecTOC1, isa.VecTOC2, isa.VecTOC3, isa.VecTOC4, isa.VecTOC5,
}

// touch activates the timer sources whose registers the access of
// register off concerns (see "The abstract clock" in docs/devices.md).
func (c *Chip) touch(b *Block, off int) {
	if c.exact && isTimerReg(off) {
		b.Hid[hX] |= xObserved
	}
	var bits uint16
	switch {
	case off == rTCNT || off == rTCNT+1:
		bits = 1 << srcTOF
	case off >= rTOC1 && off <= rTOC5+1:
		bits = 1 << (srcOC1 + (off-rTOC1)/2)
	case off == rTMSK1 || off == rTFLG1:
		bits = 1<<srcOC1 | 1<<srcOC2 | 1<<srcOC3 | 1<<srcOC4 | 1<<srcOC5
	case off == rTMSK2 || off == rTFLG2:
		bits = 1<<srcRTI | 1<<srcTOF
	case off == rPACTL:
		bits = 1 << srcRTI
	case off == rTCTL1:
		bits = 1<<srcOC2 | 1<<srcOC3 | 1<<srcOC4 | 1<<srcOC5
	case off == rOC1M || off == rOC1D || off == rCFORC:
		bits = 1 << srcOC1
	default:
		return
	}
	a := uint16(b.Hid[hActive])<<8 | uint16(b.Hid[hActive+1])
	a |= bits
	b.Hid[hActive], b.Hid[hActive+1] = uint8(a>>8), uint8(a)
}

func (c *Chip) active(b *Block, i int) bool {
	a := uint16(b.Hid[hActive])<<8 | uint16(b.Hid[hActive+1])
	return a&(1<<i) != 0
}

// oc5IsIC4 reports whether TI4/O5 is input capture 4 (PACTL's I4/O5 on
// the E series and the F1).
func (c *Chip) oc5IsIC4(b *Block) bool { return c.series != "a" && b.Reg[rPACTL]&0x04 != 0 }

// timerEvent reports whether source i may fire in b.
func (c *Chip) timerEvent(b *Block, i int) bool {
	s := &sources[i]
	if c.maxTime >= 0 && int(b.Hid[hTimeN]) >= c.maxTime {
		return false
	}
	if b.Reg[s.flag]&s.bit != 0 {
		// A compare with its flag still set shows only on a pin it acts
		// on; one that would change no pin is not offered.
		if !s.periodic || i < srcOC1 || i > srcOC5 || c.exact || !c.active(b, i) || !c.pinAction(b, i) {
			return false
		}
		set := b.Reg[rPORTA]
		c.ocActionsOn(b, &set, 1<<(i-srcOC1))
		return set != b.Reg[rPORTA]
	}
	if s.periodic {
		// Under the exact clock time sets these flags (Elapse).
		return !c.exact && c.active(b, i) && !(i == srcOC5 && c.oc5IsIC4(b))
	}
	if i >= srcIC1 && i <= srcIC3 {
		// An edge is selected for ICx in TCTL2: bits 5:4 IC1, 3:2 IC2, 1:0 IC3.
		return b.Reg[rTCTL2]>>(2*(srcIC3-i))&3 != 0
	}
	return false
}

// fire makes source i fire.
func (c *Chip) fire(b *Block, i int) {
	s := &sources[i]
	b.Reg[s.flag] |= s.bit
	switch {
	case i == srcTOF:
		b.Reg[rTCNT], b.Reg[rTCNT+1] = 0, 0
	case i >= srcOC1 && i <= srcOC5:
		o := rTOC1 + 2*(i-srcOC1)
		b.Reg[rTCNT], b.Reg[rTCNT+1] = b.Reg[o], b.Reg[o+1]
		c.ocActions(b, 1<<(i-srcOC1))
	case i >= srcIC1 && i <= srcIC3:
		o := rTIC1 + 2*(i-srcIC1)
		b.Reg[o], b.Reg[o+1] = b.Reg[rTCNT], b.Reg[rTCNT+1]
	}
}

// Pending returns the vector of the highest-priority interrupt requested:
// XIRQ when a wired pin holds it low and b.CCR's X bit is clear; then
// among the I-masked ones IRQ when a wired pin holds it low, a flag set
// with its enable bit, in the fixed order of sources, then SPI and SCI,
// with HPRIO's PSEL promoting one source to the top.
func (c *Chip) Pending(b *Block) int {
	if b.CCR&isa.FlagX == 0 && c.xirqLow(b) {
		return isa.VecXIRQ
	}
	best := -1
	promoted := psel[b.Reg[rHPRIO]&0x0F]
	try := func(v int) bool {
		if v == promoted {
			best = v
			return true
		}
		if best < 0 {
			best = v
		}
		return false
	}
	if c.irqLow(b) && try(isa.VecIRQ) {
		return best
	}
	for i := range sources {
		s := &sources[i]
		if b.Reg[s.flag]&b.Reg[s.mask]&s.bit != 0 && try(s.vec) {
			return best
		}
	}
	if b.Reg[rSPCR]&0x80 != 0 && b.Reg[rSPSR]&0xD0 != 0 && try(isa.VecSPI) {
		return best
	}
	if c.sciPending(b) && try(isa.VecSCI) {
		return best
	}
	return best
}

// RegHPRIO is the offset of HPRIO in the register block.
const RegHPRIO = rHPRIO

// Promoted returns the vector that HPRIO's PSEL3-PSEL0 (in hprio, the
// register's value) promote to the top of the I-masked interrupts, or -1
// when they promote none (the Reference Manual's section 5, resets and
// interrupts: HPRIO and the interrupt priority table).
func Promoted(hprio uint8) int { return psel[hprio&0x0F] }

// ShowsCount reports whether register off shows the timer's count: TCNT,
// TIC1-TIC3, and TI4/O5 when PACTL's I4/O5 makes it input capture 4 (the
// E series and the F1; reference manual, section 10, the main timer).
func (c *Chip) ShowsCount(b *Block, off int) bool {
	switch {
	case off >= rTCNT && off < rTIC1+6:
		return true
	case off == rTOC5 || off == rTOC5+1:
		return c.oc5IsIC4(b)
	}
	return false
}
