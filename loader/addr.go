package loader

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseAddr parses a 16-bit address written as hexadecimal with a "0x" or "$"
// prefix ("0xD000", "$D000") or as decimal ("53248"). Values above 0xFFFF are
// an error.
func ParseAddr(s string) (uint16, error) {
	t := strings.TrimSpace(s)
	var v uint64
	var err error
	switch {
	case strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X"):
		v, err = parseDigits(t[2:], 16)
	case strings.HasPrefix(t, "$"):
		v, err = parseDigits(t[1:], 16)
	default:
		v, err = parseDigits(t, 10)
	}
	if err != nil {
		return 0, fmt.Errorf("bad address %q: want 0xHHHH, $HHHH or decimal", s)
	}
	if v > 0xFFFF {
		return 0, &RangeError{Text: s}
	}
	return uint16(v), nil
}

// RangeError is an address that reads as a number but lies beyond the
// 68HC11's 64 KiB.
type RangeError struct {
	Text string // as given
}

// Error says the address is out of range, and what the range is.
func (e *RangeError) Error() string {
	return fmt.Sprintf("address %s is out of range 0x0000–0xFFFF: the 68HC11 addresses 64 KiB", e.Text)
}

// parseDigits parses an unsigned number without sign or prefix.
func parseDigits(s string, base int) (uint64, error) {
	if s == "" || s[0] == '+' || s[0] == '-' || strings.Contains(s, "_") {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseUint(s, base, 64)
}

// Range is an inclusive address range, as given to --ram and --rom.
type Range struct {
	Lo, Hi uint16 // inclusive bounds, Lo <= Hi
}

// String formats the range as "0x0100-0x01FF", which ParseRange accepts.
func (r Range) String() string {
	return fmt.Sprintf("0x%04X-0x%04X", r.Lo, r.Hi)
}

// Contains reports whether addr lies in the range.
func (r Range) Contains(addr uint16) bool {
	return r.Lo <= addr && addr <= r.Hi
}

// ParseRange parses "LO-HI" with both bounds inclusive and written as
// ParseAddr accepts them ("0x100-0x1ff", "$100-$1FF", "256-511").
func ParseRange(s string) (Range, error) {
	lo, hi, ok := strings.Cut(s, "-")
	if !ok {
		return Range{}, fmt.Errorf("bad range %q: want LO-HI, e.g. 0x0100-0x01FF", s)
	}
	l, err := ParseAddr(lo)
	if err != nil {
		return Range{}, fmt.Errorf("bad range %q: %v", s, err)
	}
	h, err := ParseAddr(hi)
	if err != nil {
		return Range{}, fmt.Errorf("bad range %q: %v", s, err)
	}
	if l > h {
		return Range{}, fmt.Errorf("bad range %q: the low end is above the high end", s)
	}
	return Range{Lo: l, Hi: h}, nil
}
