package m68hc11

import (
	"errors"
	"testing"
)

// Encodings and lengths from the M68HC11 Reference Manual, Table A-1.
var decodeTests = []struct {
	hex  []byte
	op   Op
	mode Mode
	len  uint8
	cyc  uint8
	text string
}{
	{[]byte{0x01}, NOP, Inh, 1, 2, "nop"},
	{[]byte{0x86, 0x7f}, LDAA, Imm8, 2, 2, "ldaa\t#0x7f"},
	{[]byte{0xcc, 0x12, 0x34}, LDD, Imm16, 3, 3, "ldd\t#0x1234"},
	{[]byte{0x96, 0x40}, LDAA, Dir, 2, 3, "ldaa\t*0x40"},
	{[]byte{0xb7, 0x10, 0x00}, STAA, Ext, 3, 4, "staa\t0x1000"},
	{[]byte{0xa6, 0x05}, LDAA, IdxX, 2, 4, "ldaa\t0x5,x"},
	{[]byte{0x18, 0xa6, 0xff}, LDAA, IdxY, 3, 5, "ldaa\t0xff,y"},
	{[]byte{0x26, 0xfe}, BNE, Rel, 2, 3, "bne\t0x100"},
	{[]byte{0x14, 0x20, 0x81}, BSET, BitDir, 3, 6, "bset\t*0x20, #0x81"},
	{[]byte{0x1d, 0x03, 0x01}, BCLR, BitIdxX, 3, 7, "bclr\t0x3,x, #0x01"},
	{[]byte{0x18, 0x1c, 0x00, 0x0f}, BSET, BitIdxY, 4, 8, "bset\t0x0,y, #0x0f"},
	{[]byte{0x12, 0x20, 0x01, 0x10}, BRSET, BrDir, 4, 6, "brset\t*0x20, #0x01, 0x114"},
	{[]byte{0x1f, 0x00, 0x80, 0xfc}, BRCLR, BrIdxX, 4, 7, "brclr\t0x0,x, #0x80, 0x100"},
	{[]byte{0x18, 0x1e, 0x07, 0x02, 0x00}, BRSET, BrIdxY, 5, 8, "brset\t0x7,y, #0x02, 0x105"},
	{[]byte{0x1a, 0x83, 0xab, 0xcd}, CPD, Imm16, 4, 5, "cpd\t#0xabcd"},
	{[]byte{0x1a, 0xee, 0x02}, LDY, IdxX, 3, 6, "ldy\t0x2,x"},
	{[]byte{0xcd, 0xac, 0x09}, CPX, IdxY, 3, 7, "cpx\t0x9,y"},
	{[]byte{0xcd, 0xef, 0x00}, STX, IdxY, 3, 6, "stx\t0x0,y"},
	{[]byte{0x18, 0x8f}, XGDY, Inh, 2, 4, "xgdy"},
	{[]byte{0x3f}, SWI, Inh, 1, 14, "swi"},
	{[]byte{0x3b}, RTI, Inh, 1, 12, "rti"},
	{[]byte{0x02}, IDIV, Inh, 1, 41, "idiv"},
	{[]byte{0x3d}, MUL, Inh, 1, 10, "mul"},
	{[]byte{0x00}, TEST, Inh, 1, 0, "test"},
	{[]byte{0x8d, 0x00}, BSR, Rel, 2, 6, "bsr\t0x102"},
	{[]byte{0x18, 0xad, 0x00}, JSR, IdxY, 3, 7, "jsr\t0x0,y"},
}

func TestDecode(t *testing.T) {
	for _, tt := range decodeTests {
		in, err := Decode(append(tt.hex, 0xee, 0xee)) // trailing bytes must not be read
		if err != nil {
			t.Errorf("% x: %v", tt.hex, err)
			continue
		}
		if in.Op != tt.op || in.Mode != tt.mode || in.Len != tt.len || in.Cycles != tt.cyc {
			t.Errorf("% x: got %v %v len %d cyc %d, want %v %v len %d cyc %d",
				tt.hex, in.Op, in.Mode, in.Len, in.Cycles, tt.op, tt.mode, tt.len, tt.cyc)
		}
		if got := GNUSyntax(in, 0x100, nil); got != tt.text {
			t.Errorf("% x: printed %q, want %q", tt.hex, got, tt.text)
		}
		for n := 0; n < len(tt.hex); n++ {
			if _, err := Decode(tt.hex[:n]); !errors.Is(err, ErrTruncated) {
				t.Errorf("% x cut to %d bytes: err = %v, want ErrTruncated", tt.hex, n, err)
			}
		}
	}
}

func TestUndefined(t *testing.T) {
	for _, tt := range []struct {
		hex  []byte
		len  uint8
		text string
	}{
		{[]byte{0x41}, 1, ".byte\t0x41"},
		{[]byte{0x87, 0x00}, 1, ".byte\t0x87"},
		{[]byte{0x18, 0x12}, 2, ".byte\t0x18, 0x12"},
		{[]byte{0x1a, 0x00}, 2, ".byte\t0x1a, 0x00"},
		{[]byte{0xcd, 0x83, 0, 0}, 2, ".byte\t0xcd, 0x83"},
	} {
		in, err := Decode(tt.hex)
		if !errors.Is(err, ErrUnrecognized) {
			t.Errorf("% x: err = %v, want ErrUnrecognized", tt.hex, err)
		}
		if in.Len != tt.len || in.Op != OpInvalid {
			t.Errorf("% x: len %d op %v", tt.hex, in.Len, in.Op)
		}
		if got := GNUSyntax(in, 0, nil); got != tt.text {
			t.Errorf("% x: printed %q, want %q", tt.hex, got, tt.text)
		}
	}
}

// The manual's opcode map has 308 defined opcodes: 233 unprefixed, 64 on
// page 0x18, 7 on page 0x1A and 4 on page 0xCD.
func TestTableCounts(t *testing.T) {
	want := map[Page]int{Page0: 233, Page18: 64, Page1A: 7, PageCD: 4}
	total := 0
	for p, n := range want {
		got := 0
		for op := 0; op < 256; op++ {
			if Lookup(p, byte(op)).Defined() {
				got++
			}
		}
		if got != n {
			t.Errorf("page %#x: %d opcodes, want %d", p, got, n)
		}
		total += got
	}
	if total != NumOpcodes {
		t.Errorf("NumOpcodes = %d, counted %d", NumOpcodes, total)
	}
	// The prefix bytes themselves are not opcodes on page 0.
	for _, p := range []byte{0x18, 0x1a, 0xcd} {
		if Lookup(Page0, p).Defined() {
			t.Errorf("prefix %#x is defined as an opcode", p)
		}
	}
}

// Flag effects the manual states for instructions the reference table gets
// wrong in some implementations.
func TestCCREffects(t *testing.T) {
	for _, tt := range []struct {
		page    Page
		op      byte
		changed uint8
		set     uint8
		cleared uint8
	}{
		{Page0, 0x4d, FlagN | FlagZ, 0, FlagV | FlagC},             // TSTA
		{Page0, 0x44, FlagZ | FlagV | FlagC, 0, FlagN},             // LSRA
		{Page18, 0x64, FlagZ | FlagV | FlagC, 0, FlagN},            // LSR n,Y
		{Page0, 0x02, FlagZ | FlagC, 0, FlagV},                     // IDIV
		{Page0, 0x03, FlagZ | FlagV | FlagC, 0, 0},                 // FDIV
		{Page0, 0x3d, FlagC, 0, 0},                                 // MUL
		{Page0, 0x43, FlagN | FlagZ, FlagC, FlagV},                 // COMA
		{Page0, 0x4f, 0, FlagZ, FlagN | FlagV | FlagC},             // CLRA
		{Page0, 0x1b, FlagH | FlagN | FlagZ | FlagV | FlagC, 0, 0}, // ABA
		{Page0, 0x08, FlagZ, 0, 0},                                 // INX
		{Page0, 0x31, 0, 0, 0},                                     // INS
	} {
		e := Lookup(tt.page, tt.op).CCR
		if e.Changed != tt.changed || e.Set != tt.set || e.Cleared != tt.cleared {
			t.Errorf("%#x/%#x: %+v", tt.page, tt.op, e)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, tt := range decodeTests {
		f.Add(tt.hex)
	}
	f.Add([]byte{0x18})
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := Decode(b)
		switch {
		case err == nil:
			if in.Len == 0 || int(in.Len) > len(b) || in.Len > 5 || in.Op == OpInvalid {
				t.Fatalf("% x: bad inst %+v", b, in)
			}
			if *in.Info() != *Lookup(in.Page, in.Opcode) || in.Info().Len != in.Len {
				t.Fatalf("% x: info mismatch", b)
			}
		case errors.Is(err, ErrUnrecognized):
			if in.Len == 0 || int(in.Len) > len(b) {
				t.Fatalf("% x: undefined with len %d", b, in.Len)
			}
		case errors.Is(err, ErrTruncated):
		default:
			t.Fatalf("% x: unexpected error %v", b, err)
		}
		_ = GNUSyntax(in, 0xfff0, nil)
	})
}

func TestDecodeAllocs(t *testing.T) {
	b := []byte{0x18, 0x1e, 0x07, 0x02, 0x00}
	if n := testing.AllocsPerRun(100, func() { _, _ = Decode(b) }); n != 0 {
		t.Errorf("Decode allocates %v times", n)
	}
}

func BenchmarkDecode(b *testing.B) {
	code := []byte{0x18, 0x1e, 0x07, 0x02, 0x00}
	for b.Loop() {
		_, _ = Decode(code)
	}
}
