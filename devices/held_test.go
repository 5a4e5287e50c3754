package devices

import (
	"slices"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
)

// TestInputOffsets: the registers the outside world sets, by the data
// sheets' register lists: on the A and E series PORTA (0x00), PORTC
// (0x03), PORTCL (0x05), PORTD (0x08), PORTE (0x0A), SPDR (0x2A) and
// ADR1-ADR4 (0x31-0x34); on the F1 PORTA, PORTG (0x02), PORTC (0x06),
// PORTD, PORTE, SPDR and the A/D results. The flat profile has none.
func TestInputOffsets(t *testing.T) {
	ae := []int{0x00, 0x03, 0x05, 0x08, 0x0A, 0x2A, 0x31, 0x32, 0x33, 0x34}
	f1 := []int{0x00, 0x02, 0x06, 0x08, 0x0A, 0x2A, 0x31, 0x32, 0x33, 0x34}
	for _, tc := range []struct {
		chip string
		want []int
	}{{"a1", ae}, {"a8", ae}, {"e1", ae}, {"e9", ae}, {"f1", f1}, {"flat", nil}} {
		p, err := loader.FindChip(tc.chip)
		if err != nil {
			t.Fatal(err)
		}
		if got := InputOffsets(p); !slices.Equal(got, tc.want) {
			t.Errorf("%s: inputs %#x, want %#x", tc.chip, got, tc.want)
		}
	}
}

// TestHeldInput: an input register without a domain is held while any
// of its pins is an input; a domain (--input), or every pin an output,
// makes it not held; other registers never are.
func TestHeldInput(t *testing.T) {
	c, b := newChip(t, "e9", Options{})
	for off := 0; off < c.Size(); off++ {
		if got, want := c.HeldInput(b, off), c.isInput(off); got != want {
			t.Errorf("%s (0x%02X) after reset: held %v, want %v", c.RegName(off), off, got, want)
		}
	}
	// PORTC with every pin an output reads its latch: no input.
	c.Write(b, rDDRC, 0xFF)
	if c.HeldInput(b, rPORTC) {
		t.Error("PORTC with DDRC = 0xFF is held")
	}
	c.Write(b, rDDRC, 0x7F)
	if !c.HeldInput(b, rPORTC) {
		t.Error("PORTC with PC7 an input is not held")
	}
	// PORTD has six pins: DDRD = 0x3F makes them all outputs.
	c.Write(b, rDDRD, 0x3F)
	if c.HeldInput(b, rPORTD) {
		t.Error("PORTD with DDRD = 0x3F is held")
	}
	// A domain drives the register.
	c, b = newChip(t, "e9", Options{Inputs: map[int][]uint8{rPORTE: {0, 1}, rADR1 + 2: nil}})
	if c.HeldInput(b, rPORTE) || c.HeldInput(b, rADR1+2) || !c.HeldInput(b, rADR1) {
		t.Errorf("with domains for PORTE and ADR3: PORTE %v, ADR3 %v, ADR1 %v",
			c.HeldInput(b, rPORTE), c.HeldInput(b, rADR1+2), c.HeldInput(b, rADR1))
	}
}

// TestReadsBackWrites agrees with what the model does: write a value to
// each input register (with its pins inputs and no domain) and read it.
func TestReadsBackWrites(t *testing.T) {
	for _, chip := range []string{"a8", "e9", "f1"} {
		c, b := newChip(t, chip, Options{})
		p, _ := loader.FindChip(chip)
		for _, off := range InputOffsets(p) {
			c.Write(b, off, 0xA5)
			back := rd(c, b, off) == 0xA5
			if c.ReadsBackWrites(off) != back {
				t.Errorf("%s %s (0x%02X): ReadsBackWrites %v, the model reads back %v", chip, c.RegName(off), off, c.ReadsBackWrites(off), back)
			}
		}
	}
}
