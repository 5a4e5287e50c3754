package m68hc11

import "testing"

// Each address in an instruction is named by the lookup for its role.
func TestGNUSyntaxRoles(t *testing.T) {
	role := func(name string) Symbolizer {
		return func(a uint16) (string, uint16, bool) { return name, a, true }
	}
	syms := Symbols{Value: role("value"), Memory: role("mem"), Code: role("code")}
	for _, tt := range []struct {
		bytes []byte
		pc    uint16
		want  string
	}{
		{[]byte{0xCC, 0xD0, 0x00}, 0xD000, "ldd\t#0xd000 <value>"},
		{[]byte{0x96, 0x10}, 0xD000, "ldaa\t*0x10 <mem>"},
		{[]byte{0xB6, 0x10, 0x00}, 0xD000, "ldaa\t0x1000 <mem>"},
		{[]byte{0xBD, 0xD1, 0x00}, 0xD000, "jsr\t0xd100 <code>"},
		{[]byte{0x9D, 0x40}, 0xD000, "jsr\t*0x40 <code>"},
		{[]byte{0x20, 0x02}, 0xD000, "bra\t0xd004 <code>"},
		{[]byte{0x12, 0x10, 0x01, 0x00}, 0xD000, "brset\t*0x10 <mem>, #0x01, 0xd004 <code>"},
		{[]byte{0x14, 0x10, 0x01}, 0xD000, "bset\t*0x10 <mem>, #0x01"},
	} {
		in, err := Decode(tt.bytes)
		if err != nil {
			t.Fatalf("% x: %v", tt.bytes, err)
		}
		if got := GNUSyntaxRoles(in, tt.pc, syms); got != tt.want {
			t.Errorf("% x: %q, want %q", tt.bytes, got, tt.want)
		}
	}
	// GNUSyntax is the same printer with one lookup for every role.
	in, _ := Decode([]byte{0x12, 0x10, 0x01, 0x00})
	if got := GNUSyntax(in, 0xD000, role("s")); got != "brset\t*0x10 <s>, #0x01, 0xd004 <s>" {
		t.Errorf("GNUSyntax: %q", got)
	}
}
