package m68hc11

import "testing"

// TestAccess: the memory operand an instruction accesses, from its
// effects, at the address its mode forms from X and Y.
func TestAccess(t *testing.T) {
	const x, y = 0x1000, 0x2000
	for _, c := range []struct {
		code []byte
		want Access
		ok   bool
	}{
		{[]byte{0x96, 0x40}, Access{Addr: 0x40, Size: 1, Read: true}, true},                           // ldaa *0x40
		{[]byte{0xFD, 0x12, 0x34}, Access{Addr: 0x1234, Size: 2, Write: true}, true},                  // std 0x1234
		{[]byte{0x6C, 0x05}, Access{Addr: x + 5, Size: 1, Read: true, Write: true}, true},             // inc 5,x
		{[]byte{0x18, 0xEE, 0x02}, Access{Addr: y + 2, Size: 2, Read: true}, true},                    // ldx 2,y
		{[]byte{0x1A, 0xEF, 0x03}, Access{Addr: x + 3, Size: 2, Write: true}, true},                   // sty 3,x
		{[]byte{0x12, 0x40, 0x80, 0x02}, Access{Addr: 0x40, Size: 1, Read: true}, true},               // brset *0x40 #0x80 .+2
		{[]byte{0x18, 0x1C, 0x07, 0x01}, Access{Addr: y + 7, Size: 1, Read: true, Write: true}, true}, // bset 7,y #1
		{[]byte{0x7F, 0x01, 0x00}, Access{Addr: 0x100, Size: 1, Write: true}, true},                   // clr 0x100
		{[]byte{0x86, 0x40}, Access{}, false},                                                         // ldaa #0x40
		{[]byte{0x6E, 0x04}, Access{}, false},                                                         // jmp 4,x: goes there
		{[]byte{0xBD, 0xD0, 0x00}, Access{}, false},                                                   // jsr 0xd000
		{[]byte{0x36}, Access{}, false},                                                               // psha: the stack is no operand
	} {
		in, err := Decode(append(c.code, 0, 0, 0))
		if err != nil {
			t.Fatalf("% x: %v", c.code, err)
		}
		a, ok := in.Access(x, y)
		if a != c.want || ok != c.ok {
			t.Errorf("% x (%v): %+v %v, want %+v %v", c.code, in.Op, a, ok, c.want, c.ok)
		}
	}
}

// TestEA: the effective address adds the index register of the indexed
// modes, and nothing otherwise, on every page.
func TestEA(t *testing.T) {
	const x, y = 0x1000, 0x2000
	for _, pre := range [][]byte{nil, {0x18}, {0x1A}, {0xCD}} {
		for op := 0; op < 256; op++ {
			in, err := Decode(append(append([]byte(nil), pre...), byte(op), 0x12, 0x34, 0x56, 0x78))
			if err != nil {
				continue
			}
			want := in.Operand
			switch in.Mode {
			case IdxX, BitIdxX, BrIdxX:
				want += x
			case IdxY, BitIdxY, BrIdxY:
				want += y
			}
			if got := in.EA(x, y); got != want {
				t.Errorf("%v %v: EA %04x, want %04x", in.Op, in.Mode, got, want)
			}
		}
	}
}
