package loader

import "testing"

// rolesImage is laid out as the test firmware is: variables in RAM at 0,
// code in ROM at 0xD000, and an absolute constant among the symbols.
func rolesImage() *Image {
	return &Image{
		Map: MemoryMap{Regions: []Region{
			{Lo: 0x0000, Hi: 0x01FF, Kind: RegionRAM},
			{Lo: 0x1000, Hi: 0x103F, Kind: RegionIO},
			{Lo: 0xD000, Hi: 0xFFFF, Kind: RegionROM},
		}},
		Segments: []Segment{{Addr: 0xD000, Data: make([]byte, 0x20), Name: ".text", Exec: true}},
		Symbols: []Symbol{
			{Name: "fork", Addr: 0x0000, Kind: SymNone}, // 3 bytes up to "last"
			{Name: "last", Addr: 0x0003, Kind: SymNone}, // 1 byte up to "ticks"
			{Name: "ticks", Addr: 0x0004, Kind: SymObject, Size: 2},
			{Name: "TFLG1", Addr: 0x0023, Kind: SymNone, Abs: true, Global: true},
			{Name: "stack", Addr: 0x0040, Kind: SymNone},
			{Name: "PORTA", Addr: 0x1000, Kind: SymNone, Abs: true},
			{Name: "_start", Addr: 0xD000, Kind: SymNone, Global: true},
			{Name: "loop", Addr: 0xD010, Kind: SymNone},
		},
	}
}

func TestDataSymbols(t *testing.T) {
	img := rolesImage()
	for i, want := range []bool{true, true, true, false, true, false, false, false} {
		if got := img.IsData(img.Symbols[i]); got != want {
			t.Errorf("IsData(%s) = %v, want %v", img.Symbols[i].Name, got, want)
		}
	}
	for i, want := range map[int]int{0: 3, 1: 1, 2: 2, 4: 0x200 - 0x40} {
		if got := img.Extent(i); got != min(want, maxExtent) {
			t.Errorf("Extent(%s) = %d, want %d", img.Symbols[i].Name, got, min(want, maxExtent))
		}
	}
	for _, tt := range []struct {
		addr uint16
		want string
	}{{0, "fork"}, {2, "fork"}, {3, "last"}, {5, "ticks"}, {6, ""}, {0x23, ""}, {0x41, "stack"}, {0xD000, ""}} {
		i, ok := img.DataSymbolAt(tt.addr)
		got := ""
		if ok {
			got = img.Symbols[i].Name
		}
		if got != tt.want {
			t.Errorf("DataSymbolAt(0x%04X) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// Memory operands are named after the variable that holds them; values
// only when they are an address in code or a data symbol's own address.
func TestRoleNames(t *testing.T) {
	img := rolesImage()
	name := func(f func(uint16) (string, uint16, bool), a uint16) string {
		n, base, ok := f(a)
		switch {
		case !ok:
			return ""
		case a != base:
			return n + "+" + string(rune('0'+a-base))
		}
		return n
	}
	for _, tt := range []struct {
		addr      uint16
		mem, imm  string
		code      string
		isCodeVal bool
	}{
		{0x0000, "fork", "fork", "", false},
		{0x0001, "fork+1", "", "", false}, // ldy #1 is a count, not &fork[1]
		{0x0005, "ticks+1", "ticks+1", "", false},
		{0x0033, "", "", "", false}, // not TFLG1+0x10: TFLG1 is a constant
		{0x1000, "PORTA", "", "", false},
		{0xD012, "loop+2", "loop+2", "loop+2", true},
	} {
		if got := name(img.MemoryName, tt.addr); got != tt.mem {
			t.Errorf("MemoryName(0x%04X) = %q, want %q", tt.addr, got, tt.mem)
		}
		if got := name(img.ValueName, tt.addr); got != tt.imm {
			t.Errorf("ValueName(0x%04X) = %q, want %q", tt.addr, got, tt.imm)
		}
		code := func(a uint16) (string, uint16, bool) { n, off, ok := img.CodeSymbolAt(a); return n, a - off, ok }
		if got := name(code, tt.addr); tt.isCodeVal && got != tt.code {
			t.Errorf("CodeSymbolAt(0x%04X) = %q, want %q", tt.addr, got, tt.code)
		}
	}
}

// Absolute symbols are marked in ELF files (the linker's __data_load).
func TestAbsoluteELFSymbol(t *testing.T) {
	img, err := Load("testdata/lma.elf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, ok := img.Lookup("__data_load")
	if !ok || !s.Abs {
		t.Errorf("__data_load = %+v %v, want an absolute symbol", s, ok)
	}
	if s, _ := img.Lookup("_start"); s.Abs {
		t.Errorf("_start is marked absolute")
	}
}
