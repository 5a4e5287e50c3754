package devices

import (
	"fmt"
	"strings"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// The output-compare pins (M68HC11 Reference Manual, Section 10, "Output
// Compare"; the E series technical data, port A and PACTL). OC2-OC5 drive
// PA6-PA3 by TCTL1's OMx:OLx at a successful compare: 00 leaves the pin to
// the port, 01 toggles it, 10 clears it, 11 sets it. OC1 drives, at its
// compare, each of PA7-PA3 that OC1M selects to the level of the same bit
// of OC1D, and it wins over OCx where both act on a pin at the same time.
// CFORC's FOC1-FOC5 (bits 7-3) force the actions of a compare now without
// setting the flags. A pin an output compare controls is an output: on the
// E series PA3 is bidirectional, DDRA3 in PACTL giving its direction as a
// port pin, and the data sheet's PACTL description has an output compare
// that controls PA3 override DDRA3 (BUFFALO's trace drives XIRQ from OC5
// without ever writing PACTL); with I4/O5 set, PA3 is input capture 4 and
// OC5 drives nothing. The levels are kept in PORTA's bits, which a read of
// PORTA returns for an output pin: a write of PORTA leaves the bits an
// output compare controls as they are.
//
// A board may wire such a pin to XIRQ or IRQ (Options.Wires): the line is
// low, requesting the interrupt, while the pin drives a low level; a pin
// that is an input drives nothing, and the line is high (the board's
// pull-up). Both lines are taken as level-sensitive (XIRQ always is; IRQ is
// unless OPTION's IRQE selects falling edges, which a wire does not model:
// New refuses nothing, the level is taken).

// Wire connects an output-compare pin of the chip to one of its interrupt
// inputs on the board.
type Wire struct {
	OC   int // 1-5: the pin of OCn (PA7 for OC1, PA6-PA3 for OC2-OC5)
	Line int // isa.VecXIRQ or isa.VecIRQ
}

// String writes the wire as --wire takes it: "oc5=xirq".
func (w Wire) String() string {
	line := "irq"
	if w.Line == isa.VecXIRQ {
		line = "xirq"
	}
	return fmt.Sprintf("oc%d=%s", w.OC, line)
}

// ParseWire reads a --wire value: ocN=xirq or ocN=irq, N from 1 to 5.
func ParseWire(s string) (Wire, error) {
	pin, line, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "=")
	if !ok {
		return Wire{}, fmt.Errorf("want PIN=LINE, e.g. oc5=xirq")
	}
	var w Wire
	if len(pin) != 3 || !strings.HasPrefix(pin, "oc") || pin[2] < '1' || pin[2] > '5' {
		return Wire{}, fmt.Errorf("%q is not an output-compare pin: oc1 to oc5", pin)
	}
	w.OC = int(pin[2] - '0')
	switch line {
	case "xirq":
		w.Line = isa.VecXIRQ
	case "irq":
		w.Line = isa.VecIRQ
	default:
		return Wire{}, fmt.Errorf("%q is not an interrupt line: xirq or irq", line)
	}
	return w, nil
}

// ocPin is the PORTA bit of OCn's pin.
func ocPin(n int) uint8 { return 0x80 >> (n - 1) }

// ocDriven is the PORTA bits the output compares control in b.
func (c *Chip) ocDriven(b *Block) uint8 {
	m := b.Reg[rOC1M] & 0xF8
	for n := 2; n <= 5; n++ {
		if n == 5 && c.oc5IsIC4(b) {
			continue
		}
		if b.Reg[rTCTL1]>>(2*(5-n))&3 != 0 {
			m |= ocPin(n)
		}
	}
	return m
}

// pinAction reports whether a compare of source i (srcOC1-srcOC5) would
// act on a pin in b.
func (c *Chip) pinAction(b *Block, i int) bool {
	n := i - srcOC1 + 1
	if n == 1 {
		return b.Reg[rOC1M]&0xF8 != 0
	}
	if n == 5 && c.oc5IsIC4(b) {
		return false
	}
	return b.Reg[rTCTL1]>>(2*(5-n))&3 != 0
}

// ocActions makes the pin actions of the compares in set (bit n-1 for
// OCn) at one moment: OC2-OC5's, then OC1's, which wins.
func (c *Chip) ocActions(b *Block, set uint8) {
	c.ocActionsOn(b, &b.Reg[rPORTA], set)
}

// ocActionsOn is ocActions on the port levels *port.
func (c *Chip) ocActionsOn(b *Block, port *uint8, set uint8) {
	p := *port
	for n := 2; n <= 5; n++ {
		if set&(1<<(n-1)) == 0 || n == 5 && c.oc5IsIC4(b) {
			continue
		}
		bit := ocPin(n)
		switch b.Reg[rTCTL1] >> (2 * (5 - n)) & 3 {
		case 1:
			p ^= bit
		case 2:
			p &^= bit
		case 3:
			p |= bit
		}
	}
	if set&1 != 0 {
		m := b.Reg[rOC1M] & 0xF8
		p = p&^m | b.Reg[rOC1D]&m
	}
	*port = p
}

// lineLow reports whether the wire from pin bit holds its line low in b:
// the pin is an output driving a low level.
func (c *Chip) lineLow(b *Block, bit uint8) bool {
	return bit != 0 && c.outMask(b, rPORTA)&bit != 0 && b.Reg[rPORTA]&bit == 0
}

// xirqLow and irqLow report whether a wired pin holds XIRQ or IRQ low.
func (c *Chip) xirqLow(b *Block) bool { return c.lineLow(b, c.xirqPin) }
func (c *Chip) irqLow(b *Block) bool  { return c.lineLow(b, c.irqPin) }

// forced is the set of compares (bit n-1 for OCn) that a write of v to
// CFORC forces: FOC1 is bit 7, FOC5 bit 3.
func forced(v uint8) uint8 {
	var set uint8
	for n := 1; n <= 5; n++ {
		if v&ocPin(n) != 0 {
			set |= 1 << (n - 1)
		}
	}
	return set
}
