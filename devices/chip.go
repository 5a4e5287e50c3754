package devices

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hc11mc/hc11mc/internal/mutation"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// Options are the user's description of the environment.
type Options struct {
	// SCIInput is the alphabet a received byte comes from; empty means
	// every byte.
	SCIInput []byte
	// Inputs gives, by register offset, the values an input register
	// (a port, PORTCL, ADR1-ADR4, SPDR) may read as; a port's output bits
	// read as the latch. A register not listed reads back its latch.
	Inputs map[int][]uint8
	// Config replaces the CONFIG value of the chip profile when ConfigSet.
	Config    uint8
	ConfigSet bool
	// ExpectOutput, if not nil, watches the bytes the SCI sends: an Effect
	// reports Matched when they first contain a match.
	ExpectOutput *Matcher
	// Bounds on one execution, for a bounded exploration: with
	// BoundReceived the SCI receives at most MaxReceived bytes, with
	// BoundTimer at most MaxTimer timer events happen (sources firing,
	// edges); each bound at most 254.
	BoundReceived, BoundTimer bool
	MaxReceived, MaxTimer     int
	// Exact counts the timer, the real-time interrupt and the SCI's line
	// in E cycles (see "The exact clock" in docs/devices.md) instead of
	// letting their events happen at any time.
	Exact bool
	// Wires connect output-compare pins to XIRQ or IRQ on the board
	// (pins.go): at most one pin to each line.
	Wires []Wire
}

// Chip is the peripherals of one chip profile: it implements Device.
type Chip struct {
	series  string // "a", "e" or "f"
	size    int    // bytes of the register block: 64 or 96
	names   [RegBytes]string
	reset   [RegBytes]uint8
	inputs  [RegBytes][]uint8
	alpha   []byte
	match   *Matcher
	maxRx   int // -1: unbounded
	maxTime int
	exact   bool
	// dropPhase is the fault mutation.PrescalerPhase, read once here.
	dropPhase bool
	// pinOrder is the fault mutation.PinOrder, read once here.
	pinOrder bool
	// xirqPin and irqPin are the PORTA bits wired to XIRQ and IRQ (0:
	// none).
	xirqPin, irqPin uint8
	// tenBits is the fault mutation.SCITenBits, read once here.
	tenBits bool
}

// New returns the peripherals of chip profile p, or an error when p has
// none (the flat profile) or an option does not fit the chip.
func New(p loader.ChipProfile, o Options) (*Chip, error) {
	regs, ok := p.Registers()
	if !ok {
		return nil, fmt.Errorf("chip profile %q has no on-chip peripherals", p.Name)
	}
	c := &Chip{series: p.Series, size: int(regs.Hi-regs.Lo) + 1, match: o.ExpectOutput,
		maxRx: -1, maxTime: -1, exact: o.Exact,
		dropPhase: mutation.On(mutation.PrescalerPhase), pinOrder: mutation.On(mutation.PinOrder),
		tenBits: mutation.On(mutation.SCITenBits)}
	if o.BoundReceived {
		c.maxRx = o.MaxReceived
	}
	if o.BoundTimer {
		c.maxTime = o.MaxTimer
	}
	if c.maxRx > 254 || c.maxTime > 254 || c.maxRx < -1 || c.maxTime < -1 {
		return nil, fmt.Errorf("a bound on received bytes or timer events is 0 to 254")
	}
	for i := range 64 {
		c.names[i] = aeNames[i]
		c.reset[i] = resetAE[i]
	}
	switch c.series {
	case "e":
		c.names[rBPROT] = "BPROT"
		c.reset[rBPROT] = 0x1F
		c.names[rTOC5] = "TI4/O5"
	case "f":
		for off, n := range f1Names {
			c.names[off] = n
		}
		c.names[rPIOC], c.names[rPORTCL] = "", ""
		c.names[rTOC5] = "TI4/O5"
		c.reset[rPIOC] = 0
		c.reset[rBPROT] = 0x1F
	}
	for _, w := range o.Wires {
		pin := &c.irqPin
		if w.Line == isa.VecXIRQ {
			pin = &c.xirqPin
		}
		if w.OC < 1 || w.OC > 5 || w.Line != isa.VecXIRQ && w.Line != isa.VecIRQ {
			return nil, fmt.Errorf("wire %s: no such pin or line", w)
		}
		if *pin != 0 {
			return nil, fmt.Errorf("wire %s: a second pin on the line", w)
		}
		*pin = ocPin(w.OC)
	}
	c.reset[rCONFIG] = p.Config
	if o.ConfigSet {
		c.reset[rCONFIG] = o.Config
	}
	c.alpha = o.SCIInput
	if len(c.alpha) == 0 {
		c.alpha = make([]byte, 256)
		for i := range c.alpha {
			c.alpha[i] = byte(i)
		}
	}
	offs := make([]int, 0, len(o.Inputs))
	for off := range o.Inputs {
		offs = append(offs, off)
	}
	sort.Ints(offs)
	for _, off := range offs {
		if off < 0 || off >= c.size || !c.isInput(off) {
			name := "unused offset"
			if off >= 0 && off < c.size && c.names[off] != "" {
				name = c.names[off]
			}
			return nil, fmt.Errorf("register offset 0x%02X (%s) of the %s is not an input: inputs are %s",
				off, name, p.Name, strings.Join(c.inputNames(), ", "))
		}
		d := o.Inputs[off]
		if len(d) == 0 {
			d = make([]uint8, 256)
			for i := range d {
				d[i] = uint8(i)
			}
		}
		c.inputs[off] = d
	}
	return c, nil
}

// isInput reports whether register off has pins or converted values the
// outside world sets.
func (c *Chip) isInput(off int) bool { return isInputReg(c.series, off) }

// isInputReg reports whether register off of a chip of the series ("a",
// "e" or "f") holds what the outside world sets, by the register lists of
// the data sheets: the ports' input pins (PORTA, PORTC and its latch
// PORTCL, PORTD, PORTE on the A and E series; PORTA, PORTG, PORTC, PORTD
// and PORTE on the F1), the byte the SPI shifted in (SPDR) and the A/D
// results (ADR1-ADR4).
func isInputReg(series string, off int) bool {
	if series == "f" {
		switch off {
		case rPORTA, rPORTG, rPORTCf, rPORTD, rPORTE, rSPDR:
			return true
		}
	} else {
		switch off {
		case rPORTA, rPORTC, rPORTCL, rPORTD, rPORTE, rSPDR:
			return true
		}
	}
	return off >= rADR1 && off <= rADR4
}

// InputOffsets returns the offsets, in the register block of chip profile
// p, of the registers the outside world sets (the ports' input pins, SPDR,
// ADR1-ADR4): those --input may give a domain; none for a profile without
// peripherals.
func InputOffsets(p loader.ChipProfile) []int {
	regs, ok := p.Registers()
	if !ok {
		return nil
	}
	var offs []int
	for off := 0; off <= int(regs.Hi-regs.Lo); off++ {
		if isInputReg(p.Series, off) {
			offs = append(offs, off)
		}
	}
	return offs
}

// pins is the bits of input register off that have a pin or a converted
// value behind them: PORTD has six pins, the others eight bits.
func pins(off int) uint8 {
	if off == rPORTD {
		return 0x3F
	}
	return 0xFF
}

// HeldInput reports whether a read of register off in b sees bits that the
// outside world sets but that the options give no domain (Options.Inputs):
// an input register without one, read while some of its pins are inputs.
// Those bits then read as what the register holds — a constant, or what
// the firmware last wrote there (ReadsBackWrites) — not as the world sets
// them.
func (c *Chip) HeldInput(b *Block, off int) bool {
	if off < 0 || off >= c.size || !c.isInput(off) || c.inputs[off] != nil {
		return false
	}
	return pins(off)&^c.outMask(b, off) != 0
}

// ReadsBackWrites reports whether input register off, without a domain,
// reads back what the firmware last wrote to it (a port's output latch,
// SPDR) rather than keeping its power-up value (PORTE, PORTCL and the A/D
// results, which are read-only).
func (c *Chip) ReadsBackWrites(off int) bool {
	if !c.isInput(off) {
		return false
	}
	switch off {
	case rPORTE, rPORTCL:
		return false
	}
	return off < rADR1 || off > rADR4
}

func (c *Chip) inputNames() []string {
	var n []string
	for off := 0; off < c.size; off++ {
		if c.isInput(off) {
			n = append(n, fmt.Sprintf("%s (0x%02X)", c.names[off], off))
		}
	}
	return n
}

// Size is the number of bytes of the register block.
func (c *Chip) Size() int { return c.size }

// RegName names register off ("" for an unused offset).
func (c *Chip) RegName(off int) string {
	if off < 0 || off >= c.size {
		return ""
	}
	return c.names[off]
}

// RegOffset returns the offset of the register named name (as RegName
// spells it, any case).
func (c *Chip) RegOffset(name string) (int, bool) {
	for off := 0; off < c.size; off++ {
		if c.names[off] != "" && strings.EqualFold(c.names[off], name) {
			return off, true
		}
	}
	return 0, false
}

// Reset fills b with the power-up state.
func (c *Chip) Reset(b *Block) {
	*b = Block{}
	copy(b.Reg[:], c.reset[:])
	b.Hid[HidFlags] = FlagClocked
}

func (c *Chip) copOn(b *Block) bool { return b.Reg[rCONFIG]&0x04 == 0 }

// window reports whether the time-protected registers are still writable:
// fewer than 64 E cycles since reset.
func (c *Chip) window(b *Block) bool { return uint64(b.Hid[hEarly])+b.Elapsed < 64 }

// outMask is the bits of port register off that are outputs: they read
// as the latch, the others as the pins.
func (c *Chip) outMask(b *Block, off int) uint8 {
	if c.series == "f" {
		switch off {
		case rPORTA:
			return b.Reg[rDDRA] | c.ocDriven(b)
		case rPORTG:
			return b.Reg[rDDRG]
		case rPORTCf:
			return b.Reg[rDDRC]
		case rPORTD:
			return b.Reg[rDDRD] & 0x3F
		}
		return 0
	}
	switch off {
	case rPORTA:
		m := uint8(0x70) | b.Reg[rPACTL]&0x80 | c.ocDriven(b) // PA4-PA6 out; PA7 by DDRA7; the pins the output compares control
		if c.series == "a" {
			m |= 0x08 // PA3 is an output on the A series
		} else {
			m |= b.Reg[rPACTL] & 0x08 // DDRA3 on the E series
		}
		return m
	case rPORTC:
		return b.Reg[rDDRC]
	case rPORTD:
		return b.Reg[rDDRD] & 0x3F
	}
	return 0
}

// Choices is the number of values register off may read as.
func (c *Chip) Choices(b *Block, off int) int {
	if off >= 0 && off < RegBytes && c.inputs[off] != nil {
		return len(c.inputs[off])
	}
	return 1
}

// Read returns value k of register off and makes the read's side effects.
func (c *Chip) Read(b *Block, off, k int) uint8 {
	if off < 0 || off >= c.size {
		return 0
	}
	v := b.Reg[off]
	if d := c.inputs[off]; d != nil {
		m := c.outMask(b, off)
		v = v&m | d[k]&^m
	}
	c.touch(b, off)
	switch off {
	case rTCNT, rTCNT + 1:
		if c.exact && b.At > 0 && c.counting(b) {
			// TCNT as kept is the count of the last cycle before the
			// boundary (a compare's flag sets in the elapse at whose end
			// TCNT comes to TOCx: exactElapse); in cycle At of the
			// instruction, from 0, the counter has counted At+1 cycles on.
			n := (tcnt(b) + (uint64(b.Hid[hPre])+b.At+1)/prescale(b)) & 0xFFFF
			v = uint8(n >> (8 * uint(rTCNT+1-off)))
		}
	case rSCSR:
		b.Hid[hSCIArm] |= v
	case rSCDR:
		clr := b.Hid[hSCIArm] & (scsrRDRF | scsrIDLE | scsrOR | scsrNF | scsrFE)
		b.Reg[rSCSR] &^= clr
		b.Hid[hSCIArm] &^= clr
	case rSPSR:
		b.Hid[hSPIArm] |= v
	case rSPDR:
		c.spiClear(b)
	}
	return v
}

// Write makes the firmware's write of v to register off.
func (c *Chip) Write(b *Block, off int, v uint8) Effect {
	var eff Effect
	if off < 0 || off >= c.size {
		return eff
	}
	c.touch(b, off)
	r := &b.Reg[off]
	if c.series == "f" {
		switch off {
		case rDDRA, rDDRG, rDDRC:
			*r = v
			return eff
		case rPORTA, rPORTG, rPORTB, rPORTF, rPORTCf, rPORTD:
			if off == rPORTA {
				v = v&^c.ocDriven(b) | *r&c.ocDriven(b)
			}
			*r = v
			return Effect{Port: true, PortReg: uint8(off), PortVal: v}
		}
	}
	switch off {
	case rPORTA, rPORTB, rPORTC, rPORTD:
		if off == rPORTA {
			v = v&^c.ocDriven(b) | *r&c.ocDriven(b) // the output compares' pins keep their levels
		}
		*r = v
		eff = Effect{Port: true, PortReg: uint8(off), PortVal: v}
	case rPIOC:
		*r = *r&0x80 | v&0x7F // STAF is read-only
	case rDDRD:
		*r = v & 0x3F
	case rPORTE, rPORTCL, rTCNT, rTCNT + 1, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
		rSCSR, rSPSR, rADR1, rADR1 + 1, rADR1 + 2, rADR4, rTEST1, rCONFIG:
		// Read-only (or writable only in test modes).
	case rCFORC:
		// FOC1-FOC5 force the pin actions of a compare (no flag); CFORC
		// reads as 0.
		c.ocActions(b, forced(v))
	case rTFLG1:
		*r &^= v
	case rTFLG2:
		*r &^= v & 0xF0
	case rTMSK2:
		p := *r & 0x03
		if c.window(b) && b.Hid[hOnce]&onceTMSK2 == 0 {
			p = v & 0x03
			b.Hid[hOnce] |= onceTMSK2
		}
		*r = v&0xF0 | p
	case rSCCR1:
		*r = *r&0x80 | v&0x58
	case rSCDR:
		eff = c.sciWrite(b, v)
	case rSPDR:
		c.spiClear(b)
		*r = v
		if b.Reg[rSPCR]&0x40 != 0 { // SPE: the transfer is done some time later; abstractly, now
			b.Reg[rSPSR] |= 0x80
		}
	case rADCTL:
		*r = 0x80 | v&0x3F // the conversion completes at once: CCF
	case rBPROT:
		if c.series == "a" {
			*r = v
		} else if c.window(b) {
			*r = v & 0x1F
		} else {
			*r |= v & 0x1F
		}
	case rOPTION:
		p := *r & 0x33
		if c.window(b) && b.Hid[hOnce]&onceOPTION == 0 {
			p = v & 0x33
			b.Hid[hOnce] |= onceOPTION
		}
		*r = v&0xC8 | p
	case rCOPRST:
		switch v {
		case 0x55:
			b.Hid[hCOPArm] = 1
		case 0xAA:
			if b.Hid[hCOPArm] != 0 {
				b.Hid[hCOPArm] = 0
				b.Hid[hCOP], b.Hid[hCOP+1], b.Hid[hCOP+2] = 0, 0, 0
			}
		}
	case rHPRIO:
		if b.CCR&isa.FlagI != 0 {
			*r = *r&0xF0 | v&0x0F
		}
	case rSCCR2:
		rxOn := c.exact && *r&sccr2RE == 0 && v&sccr2RE != 0
		txOn := c.exact && *r&sccr2TE == 0 && v&sccr2TE != 0
		*r = v
		if rxOn {
			c.rxOn(b)
		}
		if txOn {
			c.txOn(b)
		}
	case rINIT:
		if c.window(b) && b.Hid[hOnce]&onceINIT == 0 {
			*r = v
			b.Hid[hOnce] |= onceINIT
		}
	default:
		*r = v
	}
	return eff
}

// spiClear ends the SPIF/WCOL clearing sequence: an access of SPDR after
// a read of SPSR with the flag set.
func (c *Chip) spiClear(b *Block) {
	clr := b.Hid[hSPIArm] & 0xC0
	b.Reg[rSPSR] &^= clr
	b.Hid[hSPIArm] &^= clr
}

// Elapse counts E cycles the CPU executed.
func (c *Chip) Elapse(b *Block, cycles uint64) Effect {
	var eff Effect
	if c.exact {
		eff = c.exactElapse(b, cycles)
	}
	if e := uint64(b.Hid[hEarly]); e < 64 {
		b.Hid[hEarly] = uint8(min(64, e+cycles))
	}
	if c.copOn(b) {
		lim := c.copTimeout(b)
		n := uint64(b.Hid[hCOP])<<16 | uint64(b.Hid[hCOP+1])<<8 | uint64(b.Hid[hCOP+2])
		n = min(lim, n+cycles)
		if n >= lim {
			eff.Watchdog = true
		}
		b.Hid[hCOP], b.Hid[hCOP+1], b.Hid[hCOP+2] = uint8(n>>16), uint8(n>>8), uint8(n)
	}
	if b.Hid[hSCITx]&txBusy != 0 && !c.exact {
		n := uint64(b.Hid[hTxTime])<<8 | uint64(b.Hid[hTxTime+1])
		n = min(0xFFFF, n+cycles)
		b.Hid[hTxTime], b.Hid[hTxTime+1] = uint8(n>>8), uint8(n)
	}
	if b.Hid[hEarly] >= 64 && !c.copOn(b) && !c.exact {
		b.Hid[HidFlags] &^= FlagClocked
		b.Hid[hTxTime], b.Hid[hTxTime+1] = 0, 0
	}
	return eff
}

// Horizon is how many E cycles may elapse before the first 64 are over,
// the COP times out or the transmitter's byte is overdue (Device).
func (c *Chip) Horizon(b *Block) uint64 {
	h := ^uint64(0)
	if b.Hid[HidFlags]&FlagClocked == 0 {
		return h
	}
	if e := uint64(b.Hid[hEarly]); e < 64 {
		h = 64 - e
	}
	if c.copOn(b) {
		n := uint64(b.Hid[hCOP])<<16 | uint64(b.Hid[hCOP+1])<<8 | uint64(b.Hid[hCOP+2])
		h = min(h, c.copTimeout(b)-min(n, c.copTimeout(b)))
	}
	if c.exact {
		return min(h, c.exactHorizon(b))
	}
	if b.Hid[hSCITx]&txBusy != 0 {
		n := uint64(b.Hid[hTxTime])<<8 | uint64(b.Hid[hTxTime+1])
		due := min(frame(b), 0xFFFF)
		h = min(h, due-min(n, due))
	}
	return h
}

// copTimeout is the COP's period in E cycles: 2^15 times 4^CR (OPTION's
// CR1:CR0).
func (c *Chip) copTimeout(b *Block) uint64 { return 1 << (15 + 2*uint(b.Reg[rOPTION]&3)) }

// CopTimeout returns the COP timeout in E cycles in b.
func (c *Chip) CopTimeout(b *Block) uint64 { return c.copTimeout(b) }

var _ Device = (*Chip)(nil)
