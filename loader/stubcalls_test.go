package loader

import (
	"slices"
	"testing"
)

// StubLikeCalls finds JSR extended and BSR whose target is a bare RTS
// (0x39), the shape of every harness stub, and nothing else: the bytes
// below are hand-assembled from the Reference Manual's opcode map
// (JSR ext 0xBD hh ll, BSR 0x8D rr with the offset from the next
// instruction, JSR indexed 0xAD ff, RTS 0x39, LDAA # 0x86).
func TestStubLikeCalls(t *testing.T) {
	code := []byte{
		0xBD, 0xD0, 0x10, // D000 jsr $D010 (a bare RTS)
		0x8D, 0x0C, //       D003 bsr $D011 (a bare RTS)
		0xBD, 0xD0, 0x12, // D005 jsr $D012 (ldaa #1; rts: not bare)
		0xAD, 0x00, //       D008 jsr 0,x (not resolved)
		0xBD, 0xD0, 0x10, // D00A jsr $D010 again
		0x20, 0xFE, //       D00D bra .
		0x01,       //       D00F nop
		0x39,       //       D010 rts
		0x39,       //       D011 rts
		0x86, 0x01, //       D012 ldaa #1
		0x39, //             D014 rts
	}
	img, err := LoadBytes("stubs.bin", code, Options{Format: FormatBin, Base: 0xD000, BaseSet: true, AllowNoEntry: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.StubLikeCalls(), []uint16{0xD010, 0xD011}; !slices.Equal(got, want) {
		t.Errorf("StubLikeCalls = %04X, want %04X", got, want)
	}
	code[1], code[2], code[4] = 0xD0, 0x12, 0x0D // both calls now go to ldaa #1; rts
	code[10], code[11], code[12] = 0x01, 0x01, 0x01
	img, err = LoadBytes("none.bin", code, Options{Format: FormatBin, Base: 0xD000, BaseSet: true, AllowNoEntry: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := img.StubLikeCalls(); len(got) != 0 {
		t.Errorf("StubLikeCalls = %04X, want none", got)
	}
}
