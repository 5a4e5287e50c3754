package loader

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// Addresses in testdata/prog.s as linked by ../testdata/hc11.ld (see prog.nm).
const (
	progStart   = 0xD000
	progLoop    = 0xD015
	progStrlen  = 0xD017
	progNext    = 0xD018
	progNondet  = 0xD021
	progSWI     = 0xD022
	progUnused  = 0xD023
	progMessage = 0xD024
	progTextEnd = 0xD029 // one past the last byte of .rodata
)

func TestFormatsAgree(t *testing.T) {
	elfImg := mustLoad(t, "prog.elf", Options{})
	cases := []struct {
		file string
		opts Options
		fmt  Format
	}{
		{"prog.elf", Options{}, FormatELF},
		{"prog.s19", Options{}, FormatSRec},
		{"prog.hex", Options{}, FormatIHex},
		{"prog.s19", Options{Format: FormatSRec}, FormatSRec},
		{"prog.hex", Options{Format: FormatIHex}, FormatIHex},
	}
	want := elfImg.Memory()
	for _, c := range cases {
		t.Run(c.file+"/"+c.opts.Format.String(), func(t *testing.T) {
			img := mustLoad(t, c.file, c.opts)
			checkSane(t, img)
			if img.Format != c.fmt {
				t.Errorf("Format = %v, want %v", img.Format, c.fmt)
			}
			if got := img.Memory(); *got != *want {
				t.Errorf("memory differs from prog.elf")
			}
			for a := 0; a < 0x10000; a++ {
				_, l1 := img.Byte(uint16(a))
				_, l2 := elfImg.Byte(uint16(a))
				if l1 != l2 {
					t.Fatalf("Byte(0x%04X) loaded = %v, prog.elf says %v", a, l1, l2)
				}
			}
			if !img.HasEntry || img.Entry != progStart {
				t.Errorf("Entry = 0x%04X (%v), want 0x%04X", img.Entry, img.HasEntry, progStart)
			}
			if !img.HasFileEntry || img.FileEntry != progStart {
				t.Errorf("FileEntry = 0x%04X (%v), want 0x%04X", img.FileEntry, img.HasFileEntry, progStart)
			}
			if img.Vectors != elfImg.Vectors || img.VectorLoaded != elfImg.VectorLoaded {
				t.Errorf("vectors differ from prog.elf")
			}
			if !reflect.DeepEqual(img.Map, elfImg.Map) {
				t.Errorf("memory map differs from prog.elf:\n%v\nwant\n%v", &img.Map, &elfImg.Map)
			}
		})
	}

	// Exact contents.
	for i, v := range elfImg.Vectors {
		w := uint16(progUnused)
		switch i {
		case isa.VecSWI:
			w = progSWI
		case isa.VecCOP, isa.VecCLM, isa.VecReset:
			w = progStart
		}
		if v != w || !elfImg.VectorLoaded[i] {
			t.Errorf("Vectors[%d] = 0x%04X loaded %v, want 0x%04X loaded", i, v, elfImg.VectorLoaded[i], w)
		}
	}
	if b, ok := elfImg.Byte(progStart); !ok || b != 0x8E { // lds #
		t.Errorf("Byte(0xD000) = 0x%02X, %v; want 0x8E (lds)", b, ok)
	}
	if b, ok := elfImg.Byte(0x0001); !ok || b != 0x34 { // counter = 0x1234
		t.Errorf("Byte(0x0001) = 0x%02X, %v; want 0x34", b, ok)
	}
	if _, ok := elfImg.Byte(0x0002); ok { // .bss is not loaded
		t.Errorf("Byte(0x0002) in .bss reports loaded")
	}
	if _, ok := elfImg.Byte(0xFFBF); ok {
		t.Errorf("Byte(0xFFBF) reports loaded")
	}
	if got := string(want[progMessage : progMessage+5]); got != "hc11\x00" {
		t.Errorf("message = %q", got)
	}

	type seg struct {
		Addr     uint16
		Len      int
		Name     string
		Writable bool
		Exec     bool
	}
	segs := func(img *Image) []seg {
		var out []seg
		for _, s := range img.Segments {
			out = append(out, seg{s.Addr, len(s.Data), s.Name, s.Writable, s.Exec})
		}
		return out
	}
	wantELF := []seg{
		{0x0000, 2, ".data", true, false},
		{0xD000, 0x24, ".text", false, true},
		{0xD024, 5, ".rodata", false, false},
		{0xFFC0, 0x40, ".vectors", false, false},
	}
	if got := segs(elfImg); !reflect.DeepEqual(got, wantELF) {
		t.Errorf("ELF segments = %+v\nwant %+v", got, wantELF)
	}
	wantRec := []seg{
		{0x0000, 2, "", false, true},
		{0xD000, 0x29, "", false, true},
		{0xFFC0, 0x40, "", false, true},
	}
	if got := segs(mustLoad(t, "prog.s19", Options{})); !reflect.DeepEqual(got, wantRec) {
		t.Errorf("S-record segments = %+v\nwant %+v", got, wantRec)
	}
}

func TestRawBinary(t *testing.T) {
	elfImg := mustLoad(t, "prog.elf", Options{})
	img := mustLoad(t, "prog.bin", Options{Base: 0xD000, BaseSet: true})
	checkSane(t, img)
	if img.Format != FormatBin {
		t.Errorf("Format = %v", img.Format)
	}
	if len(img.Segments) != 1 || img.Segments[0].Addr != 0xD000 || len(img.Segments[0].Data) != 0x3000 {
		t.Fatalf("segments = %+v", img.Segments)
	}
	m, w := img.Memory(), elfImg.Memory()
	if !bytes.Equal(m[0xD000:], w[0xD000:]) {
		t.Errorf("ROM bytes differ from prog.elf")
	}
	if img.Vectors != elfImg.Vectors || img.VectorLoaded != elfImg.VectorLoaded {
		t.Errorf("vectors differ from prog.elf")
	}
	if !img.HasEntry || img.Entry != progStart || img.HasFileEntry {
		t.Errorf("Entry = 0x%04X %v, FileEntry %v", img.Entry, img.HasEntry, img.HasFileEntry)
	}
	if _, ok := img.Byte(0x0000); ok {
		t.Errorf("RAM data loaded from a ROM-only binary")
	}
	// The bytes between .rodata and the vectors are loaded (as zeros):
	// a raw binary has no gaps.
	if b, ok := img.Byte(0xE000); !ok || b != 0 {
		t.Errorf("Byte(0xE000) = %02X %v", b, ok)
	}
	// With Format given, the name does not matter.
	data := testdata(t, "prog.bin")
	if _, err := LoadBytes("rom.img", data, Options{Format: FormatBin, Base: 0xD000, BaseSet: true}); err != nil {
		t.Error(err)
	}
	// A set Base makes an unknown file a raw binary.
	if img, err := LoadBytes("rom.img", data, Options{Base: 0xD000, BaseSet: true}); err != nil || img.Format != FormatBin {
		t.Errorf("auto with --base: %v", err)
	}
}

type symAt struct {
	addr uint16
	name string
	off  uint16
	ok   bool
}

func TestSymbols(t *testing.T) {
	elfImg := mustLoad(t, "prog.elf", Options{})
	s19 := mustLoad(t, "prog.s19", Options{Symbols: filepath.Join("testdata", "prog.nm")})
	for _, img := range []*Image{elfImg, s19} {
		t.Run(img.Format.String(), func(t *testing.T) {
			checkSane(t, img)
			lookups := []struct {
				name   string
				addr   uint16
				kind   SymKind
				global bool
			}{
				{"_start", progStart, SymFunc, true},
				{"strlen", progStrlen, SymFunc, false},
				{"__mc_nondet", progNondet, SymFunc, true},
				{"counter", 0x0000, SymObject, true},
			}
			for _, l := range lookups {
				s, ok := img.Lookup(l.name)
				if !ok || s.Addr != l.addr || s.Kind != l.kind || s.Global != l.global {
					t.Errorf("Lookup(%s) = %+v, %v; want addr 0x%04X kind %v global %v", l.name, s, ok, l.addr, l.kind, l.global)
				}
			}
			if _, ok := img.Lookup("nosuch"); ok {
				t.Errorf("Lookup(nosuch) succeeded")
			}
			// nm cannot tell untyped labels in data sections from
			// objects ("r", "b"), so they name nothing there.
			elf := img.Format == FormatELF
			at := []symAt{
				{progStart, "_start", 0, true},
				{progStart + 5, "_start", 5, true},
				{progLoop + 1, "loop", 1, true},
				{progNext + 2, "next", 2, true},
				{progUnused, "unused", 0, true},
				{0x0001, "", 0, false}, // only the object counter precedes it
			}
			if elf {
				at = append(at, []symAt{
					{progMessage + 3, "message", 3, true},
					{0xFFFE, "message", 0xFFFE - progMessage, true},
					{0x0003, "length", 1, true}, // an untyped label in .bss
				}...)
			} else {
				at = append(at, []symAt{
					{progMessage + 3, "unused", progMessage + 3 - progUnused, true},
					{0x0003, "", 0, false},
				}...)
			}
			for _, a := range at {
				name, off, ok := img.SymbolAt(a.addr)
				if name != a.name || off != a.off || ok != a.ok {
					t.Errorf("SymbolAt(0x%04X) = %q+%#x %v; want %q+%#x %v", a.addr, name, off, ok, a.name, a.off, a.ok)
				}
			}
		})
	}
	// ELF-only detail: sizes, local untyped labels, section and file symbols.
	if s, _ := elfImg.Lookup("_start"); s.Size != 23 {
		t.Errorf("_start size = %d, want 23", s.Size)
	}
	if s, _ := elfImg.Lookup("loop"); s.Kind != SymNone || s.Global {
		t.Errorf("loop = %+v, want a local untyped label", s)
	}
	if s, ok := elfImg.Lookup(".vectors"); !ok || s.Kind != SymSection || s.Addr != 0xFFC0 {
		t.Errorf("Lookup(.vectors) = %+v %v", s, ok)
	}
	if s, ok := elfImg.Lookup("prog.o"); !ok || s.Kind != SymFile {
		t.Errorf("Lookup(prog.o) = %+v %v", s, ok)
	}
	if _, ok := elfImg.Lookup(".debug_line"); ok {
		t.Errorf("symbols of non-allocated sections are kept")
	}
	// Without symbols, nothing names an address.
	if _, _, ok := mustLoad(t, "prog.s19", Options{}).SymbolAt(0xD005); ok {
		t.Errorf("SymbolAt without symbols succeeded")
	}
}

func TestSymbolAtPreference(t *testing.T) {
	img := &Image{Symbols: []Symbol{
		{Name: ".Lx", Addr: 0x10, Kind: SymNone},
		{Name: "a_local", Addr: 0x10, Kind: SymNone},
		{Name: "b_global", Addr: 0x10, Kind: SymNone, Global: true},
		{Name: "c_func", Addr: 0x10, Kind: SymFunc},
		{Name: "d_gfunc", Addr: 0x10, Kind: SymFunc, Global: true},
		{Name: "e_gfunc", Addr: 0x10, Kind: SymFunc, Global: true},
		{Name: "obj", Addr: 0x12, Kind: SymObject, Global: true},
		{Name: "sec", Addr: 0x13, Kind: SymSection},
		{Name: ".hidden", Addr: 0x14, Kind: SymFunc},
		{Name: "L0\x01", Addr: 0x15, Kind: SymNone},
	}}
	if n, off, ok := img.SymbolAt(0x16); n != "d_gfunc" || off != 6 || !ok {
		t.Errorf("SymbolAt(0x16) = %q+%d %v, want d_gfunc+6", n, off, ok)
	}
	img.Symbols = img.Symbols[:3]
	if n, _, _ := img.SymbolAt(0x10); n != "b_global" {
		t.Errorf("SymbolAt = %q, want b_global", n)
	}
	if _, _, ok := img.SymbolAt(0x0F); ok {
		t.Errorf("SymbolAt below all symbols succeeded")
	}
}

func TestSymbolFile(t *testing.T) {
	nm := []byte(`
prog.o:
0000d000 T _start
0000d017 0000000a t strlen
         U undefined_thing
         w weak_undefined
0000d100 A abs_sym
0000d200 W weak_fn	/src/x.s:12
00000010 b flag
00012345 A too_big
`)
	syms, warnings, err := parseNM("x.nm", nm)
	if err != nil {
		t.Fatal(err)
	}
	want := []Symbol{
		{Name: "_start", Addr: 0xD000, Kind: SymFunc, Global: true},
		{Name: "strlen", Addr: 0xD017, Size: 10, Kind: SymFunc},
		{Name: "abs_sym", Addr: 0xD100, Kind: SymNone, Global: true, Abs: true},
		{Name: "weak_fn", Addr: 0xD200, Kind: SymNone, Global: true},
		{Name: "flag", Addr: 0x0010, Kind: SymObject},
	}
	if !reflect.DeepEqual(syms, want) {
		t.Errorf("parseNM = %+v\nwant %+v", syms, want)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "x.nm:10: skipped symbol too_big") {
		t.Errorf("warnings = %q", warnings)
	}

	bad := []struct{ text, want string }{
		{"0000d000 T _start\nzzzz T foo\n", `x.nm:2: bad symbol value "zzzz"`},
		{"0000d000 _start\n", `x.nm:1: want "VALUE TYPE NAME"`},
		{"\n\n0000d000 xyz T foo\n", `x.nm:3: bad symbol size "xyz"`},
	}
	for _, b := range bad {
		_, _, err := parseNM("x.nm", []byte(b.text))
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), b.want) {
			t.Errorf("parseNM(%q) = %v, want %q", b.text, err, b.want)
		}
	}
	// Through Load: a missing file, a bad file.
	if _, err := Load("testdata/prog.s19", Options{Symbols: "testdata/nonexistent.nm"}); err == nil || !strings.Contains(err.Error(), "nonexistent.nm") {
		t.Errorf("missing symbol file: %v", err)
	}
	badNM := filepath.Join(t.TempDir(), "bad.nm")
	if err := os.WriteFile(badNM, []byte("0000d000 T ok\nnot a symbol line at all\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load("testdata/prog.s19", Options{Symbols: badNM})
	if err == nil || !strings.Contains(err.Error(), "bad.nm:2: ") {
		t.Errorf("bad symbol file: %v", err)
	}
}

func TestHooks(t *testing.T) {
	img := mustLoad(t, "prog.elf", Options{Hooks: map[string]uint16{
		"__mc_assert": 0xD022, // new
		"__mc_nondet": 0xD023, // replaces the ELF symbol
	}})
	checkSane(t, img)
	if s, ok := img.Lookup("__mc_assert"); !ok || s.Addr != 0xD022 || s.Kind != SymFunc || !s.Global {
		t.Errorf("hook __mc_assert = %+v %v", s, ok)
	}
	n := 0
	for _, s := range img.Symbols {
		if s.Name == "__mc_nondet" {
			n++
			if s.Addr != 0xD023 {
				t.Errorf("__mc_nondet at 0x%04X, want the hook's 0xD023", s.Addr)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d symbols named __mc_nondet, want 1", n)
	}
	// A raw binary with hooks only.
	img = mustLoad(t, "text.bin", Options{Base: 0xD000, BaseSet: true, Hooks: map[string]uint16{"_start": 0xD000}, Entry: "_start"})
	if img.Entry != 0xD000 {
		t.Errorf("Entry = 0x%04X", img.Entry)
	}
}

func TestEntry(t *testing.T) {
	nm := filepath.Join("testdata", "prog.nm")
	cases := []struct {
		file      string
		opts      Options
		entry     uint16
		has       bool
		fileEntry uint16
		hasFile   bool
	}{
		{"prog.elf", Options{}, progStart, true, progStart, true},
		{"prog.elf", Options{Entry: "strlen"}, progStrlen, true, progStart, true},
		{"prog.elf", Options{Entry: "0xD022"}, 0xD022, true, progStart, true},
		{"prog.elf", Options{Entry: "$d022"}, 0xD022, true, progStart, true},
		{"prog.elf", Options{Entry: "53282"}, 0xD022, true, progStart, true},
		{"prog.s19", Options{Entry: "swi_handler", Symbols: nm}, progSWI, true, progStart, true},
		{"text.bin", Options{Base: 0xD000, BaseSet: true, Entry: "_start", Symbols: nm}, progStart, true, 0, false},
		{"text.bin", Options{Base: 0xD000, BaseSet: true, AllowNoEntry: true}, 0, false, 0, false},
		{"lma.elf", Options{}, 0xD000, true, 0xD000, true},
	}
	for _, c := range cases {
		img := mustLoad(t, c.file, c.opts)
		if img.Entry != c.entry || img.HasEntry != c.has || img.FileEntry != c.fileEntry || img.HasFileEntry != c.hasFile {
			t.Errorf("%s %+v: Entry 0x%04X %v FileEntry 0x%04X %v; want 0x%04X %v, 0x%04X %v",
				c.file, c.opts, img.Entry, img.HasEntry, img.FileEntry, img.HasFileEntry, c.entry, c.has, c.fileEntry, c.hasFile)
		}
	}

	// The reset vector wins over the file's entry address.
	s19 := lines(
		srec(1, 0xD000, 0x01, 0x01, 0x20, 0xFE), // nop nop bra .
		srec(1, 0xFFFE, 0xD0, 0x01),
		srec(9, 0xD000),
	)
	img, err := LoadBytes("x.s19", s19, Options{})
	if err != nil || img.Entry != 0xD001 || img.FileEntry != 0xD000 {
		t.Errorf("reset vector vs S9: %v, Entry 0x%04X FileEntry 0x%04X", err, img.Entry, img.FileEntry)
	}
	// Without a reset vector the file's entry address is used.
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"s7.s19", lines(srec(3, 0xD000, 0x01), srec(7, 0xD000))},
		{"s8.s19", lines(srec(2, 0xD000, 0x01), srec(8, 0xD000))},
		{"s9.s19", lines(srec(1, 0xD000, 0x01), srec(9, 0xD000))},
		{"03.hex", lines(ihex(0, 0xD000, 0x01), ihex(3, 0, 0x00, 0x00, 0xD0, 0x00), ihex(1, 0))},
		{"03cs.hex", lines(ihex(0, 0xD000, 0x01), ihex(3, 0, 0x0D, 0x00, 0x00, 0x00), ihex(1, 0))}, // CS:IP = 0D00:0000
		{"05.hex", lines(ihex(0, 0xD000, 0x01), ihex(5, 0, 0x00, 0x00, 0xD0, 0x00), ihex(1, 0))},
	} {
		img, err := LoadBytes(c.name, c.data, Options{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !img.HasEntry || img.Entry != 0xD000 {
			t.Errorf("%s: Entry 0x%04X %v, want 0xD000", c.name, img.Entry, img.HasEntry)
		}
	}
	// An entry address of 0 counts as none.
	_, err = LoadBytes("zero.s19", lines(srec(1, 0xD000, 0x01), srec(9, 0)), Options{})
	if err == nil || !strings.Contains(err.Error(), "no entry point") {
		t.Errorf("S9 0000: %v", err)
	}
	// --entry naming nothing.
	_, err = Load("testdata/prog.elf", Options{Entry: "nosuch"})
	if err == nil || !strings.Contains(err.Error(), `no symbol "nosuch"`) {
		t.Errorf("--entry nosuch: %v", err)
	}
}

func TestLoadAddress(t *testing.T) {
	img := mustLoad(t, "lma.elf", Options{})
	checkSane(t, img)
	table := []byte{0xBE, 0xEF, 0xCA, 0xFE}
	var names []string
	for _, s := range img.Segments {
		names = append(names, s.Name)
	}
	if want := []string{".data", ".text", ".data@lma", ".vectors"}; !reflect.DeepEqual(names, want) {
		t.Errorf("segments %q, want %q", names, want)
	}
	m := img.Memory()
	if !bytes.Equal(m[0x0000:0x0004], table) {
		t.Errorf("run copy at 0x0000 = % X", m[0:4])
	}
	lma, _ := img.Lookup("__data_load")
	if lma.Addr != 0xD01F || !bytes.Equal(m[0xD01F:0xD023], table) {
		t.Errorf("load copy at 0x%04X = % X", lma.Addr, m[0xD01F:0xD023])
	}
	for addr, want := range map[uint16]RegionKind{0x0000: RegionRAM, 0xD01F: RegionROM, 0xFFFE: RegionROM} {
		if r, ok := img.Map.Lookup(addr); !ok || r.Kind != want {
			t.Errorf("map at 0x%04X = %v %v, want %v", addr, r, ok, want)
		}
	}
	// The S-record and Intel HEX files objcopy makes hold only the load copy.
	for _, f := range []string{"lma.s19", "lma.hex"} {
		rec := mustLoad(t, f, Options{})
		if _, ok := rec.Byte(0x0000); ok {
			t.Errorf("%s loads the run address", f)
		}
		if !bytes.Equal(rec.Memory()[0xD000:], m[0xD000:]) {
			t.Errorf("%s: ROM differs from lma.elf", f)
		}
	}
}

func TestLines(t *testing.T) {
	img := mustLoad(t, "prog_g.elf", Options{})
	checkSane(t, img)
	if len(img.Warnings) != 0 {
		t.Errorf("warnings: %q", img.Warnings)
	}
	cases := []struct {
		addr uint16
		line int
		ok   bool
	}{
		{progStart, 9, true},
		{progStart + 1, 9, true}, // inside the lds instruction
		{progStart + 3, 10, true},
		{progStrlen, 21, true},
		{progNext, 22, true},
		{0xD023, 43, true}, // unused: rti
		{0x0000, 0, false}, // data
		{0xCFFF, 0, false},
		{progMessage, 0, false}, // .rodata: another segment
	}
	for _, c := range cases {
		e, ok := img.LineAt(c.addr)
		if ok != c.ok || e.Line != c.line || ok && filepath.Base(e.File) != "prog.s" {
			t.Errorf("LineAt(0x%04X) = %+v %v, want line %d %v", c.addr, e, ok, c.line, c.ok)
		}
	}
	// No DWARF, no lines.
	if img := mustLoad(t, "prog.elf", Options{}); len(img.Lines) != 0 {
		t.Errorf("prog.elf has %d lines", len(img.Lines))
	}
	// A broken line table costs the line information, not the image.
	data := testdata(t, "prog_g.elf")
	off, _ := sectionRange(t, data, ".debug_line")
	broken := append([]byte(nil), data...)
	broken[off+4], broken[off+5] = 0x00, 0x63 // version 99
	img, err := LoadBytes("broken.elf", broken, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(img.Lines) != 0 || len(img.Warnings) != 1 || !strings.Contains(img.Warnings[0], "broken.elf: no source line information") {
		t.Errorf("broken DWARF: %d lines, warnings %q", len(img.Lines), img.Warnings)
	}
}

func TestMemoryMap(t *testing.T) {
	type reg = Region
	cases := []struct {
		name string
		file string
		opts Options
		want []reg
	}{
		{"e9 default", "prog.elf", Options{}, []reg{
			{0x0000, 0x01FF, RegionRAM, "ram"},
			{0x1000, 0x103F, RegionIO, "registers"},
			{0xB600, 0xB7FF, RegionEEPROM, "eeprom"},
			{0xD000, 0xFFFF, RegionROM, "rom"},
		}},
		{"e9 by full name", "prog.s19", Options{Chip: "MC68HC11E9"}, []reg{
			{0x0000, 0x01FF, RegionRAM, "ram"},
			{0x1000, 0x103F, RegionIO, "registers"},
			{0xB600, 0xB7FF, RegionEEPROM, "eeprom"},
			{0xD000, 0xFFFF, RegionROM, "rom"},
		}},
		{"e1: loaded bytes outside RAM become ROM", "prog.elf", Options{Chip: "e1"}, []reg{
			{0x0000, 0x01FF, RegionRAM, "ram"},
			{0x1000, 0x103F, RegionIO, "registers"},
			{0xB600, 0xB7FF, RegionEEPROM, "eeprom"},
			{0xD000, 0xD023, RegionROM, ".text"},
			{0xD024, 0xD028, RegionROM, ".rodata"},
			{0xFFC0, 0xFFFF, RegionROM, ".vectors"},
		}},
		{"a1 from S-records", "prog.s19", Options{Chip: "a1"}, []reg{
			{0x0000, 0x00FF, RegionRAM, "ram"},
			{0x1000, 0x103F, RegionIO, "registers"},
			{0xB600, 0xB7FF, RegionEEPROM, "eeprom"},
			{0xD000, 0xD028, RegionROM, "image"},
			{0xFFC0, 0xFFFF, RegionROM, "image"},
		}},
		{"a8", "prog.elf", Options{Chip: "a8"}, []reg{
			{0x0000, 0x00FF, RegionRAM, "ram"},
			{0x1000, 0x103F, RegionIO, "registers"},
			{0xB600, 0xB7FF, RegionEEPROM, "eeprom"},
			{0xD000, 0xD023, RegionROM, ".text"},
			{0xD024, 0xD028, RegionROM, ".rodata"},
			{0xE000, 0xFFFF, RegionROM, "rom"},
		}},
		{"flat ELF: writable sections stay RAM", "prog.elf", Options{Chip: "flat"}, []reg{
			{0x0000, 0x0001, RegionRAM, ".data"},
			{0x0002, 0xCFFF, RegionRAM, "ram"},
			{0xD000, 0xD023, RegionROM, ".text"},
			{0xD024, 0xD028, RegionROM, ".rodata"},
			{0xD029, 0xFFBF, RegionRAM, "ram"},
			{0xFFC0, 0xFFFF, RegionROM, ".vectors"},
		}},
		{"flat S-records: every loaded byte is ROM", "prog.s19", Options{Chip: "flat"}, []reg{
			{0x0000, 0x0001, RegionROM, "image"},
			{0x0002, 0xCFFF, RegionRAM, "ram"},
			{0xD000, 0xD028, RegionROM, "image"},
			{0xD029, 0xFFBF, RegionRAM, "ram"},
			{0xFFC0, 0xFFFF, RegionROM, "image"},
		}},
		{"a1: writable sections add RAM", "lma.elf", Options{Chip: "a1",
			RAM: []Range{{0x2000, 0x2FFF}, {0xD000, 0xD0FF}},
			ROM: []Range{{0x0080, 0x00FF}, {0x2800, 0x28FF}}}, []reg{
			{0x0000, 0x007F, RegionRAM, "ram"},
			{0x0080, 0x00FF, RegionROM, "--rom"},
			{0x1000, 0x103F, RegionIO, "registers"},
			{0x2000, 0x27FF, RegionRAM, "--ram"},
			{0x2800, 0x28FF, RegionROM, "--rom"}, // --rom after --ram
			{0x2900, 0x2FFF, RegionRAM, "--ram"},
			{0xB600, 0xB7FF, RegionEEPROM, "eeprom"},
			{0xD000, 0xD0FF, RegionRAM, "--ram"}, // overrides the loaded code
			{0xFFFE, 0xFFFF, RegionROM, ".vectors"},
		}},
		{"e9 --ram over I/O and EEPROM", "prog.hex", Options{RAM: []Range{{0x0F00, 0xB6FF}}}, []reg{
			{0x0000, 0x01FF, RegionRAM, "ram"},
			{0x0F00, 0xB6FF, RegionRAM, "--ram"},
			{0xB700, 0xB7FF, RegionEEPROM, "eeprom"},
			{0xD000, 0xFFFF, RegionROM, "rom"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			img := mustLoad(t, c.file, c.opts)
			checkSane(t, img)
			if !reflect.DeepEqual(img.Map.Regions, c.want) {
				t.Errorf("map:\n%v\nwant %+v", &img.Map, c.want)
			}
		})
	}

	img := mustLoad(t, "prog.elf", Options{})
	if img.Chip != "e9" {
		t.Errorf("Chip = %q, want e9", img.Chip)
	}
	for _, c := range []struct {
		addr uint16
		kind RegionKind
		ok   bool
	}{
		{0x0000, RegionRAM, true}, {0x01FF, RegionRAM, true}, {0x0200, 0, false},
		{0x1020, RegionIO, true}, {0x1040, 0, false}, {0xB600, RegionEEPROM, true},
		{0xCFFF, 0, false}, {0xD000, RegionROM, true}, {0xFFFF, RegionROM, true},
	} {
		r, ok := img.Map.Lookup(c.addr)
		if ok != c.ok || ok && r.Kind != c.kind {
			t.Errorf("Lookup(0x%04X) = %v %v, want %v %v", c.addr, r, ok, c.kind, c.ok)
		}
	}
	if _, err := Load("testdata/prog.elf", Options{Chip: "z80"}); err == nil || !strings.Contains(err.Error(), `unknown chip "z80"`) {
		t.Errorf("unknown chip: %v", err)
	}
}

func TestChips(t *testing.T) {
	cs := Chips()
	if len(cs) == 0 || cs[0].Name != DefaultChip {
		t.Fatalf("Chips()[0] is not the default")
	}
	for _, c := range cs {
		if c.Description == "" || len(c.Regions) == 0 {
			t.Errorf("profile %s is incomplete", c.Name)
		}
		for i := 1; i < len(c.Regions); i++ {
			if c.Regions[i].Lo <= c.Regions[i-1].Hi {
				t.Errorf("profile %s: regions overlap or are unsorted", c.Name)
			}
		}
	}
	cs[0].Regions[0].Hi = 0x7FFF // a copy: changing it changes nothing
	if Chips()[0].Regions[0].Hi != 0x01FF {
		t.Errorf("Chips returns shared regions")
	}
}

func TestParse(t *testing.T) {
	for s, want := range map[string]Format{"": FormatAuto, "auto": FormatAuto, "ELF": FormatELF, "s19": FormatSRec,
		"srec": FormatSRec, "ihex": FormatIHex, "hex": FormatIHex, "bin": FormatBin} {
		if f, err := ParseFormat(s); err != nil || f != want {
			t.Errorf("ParseFormat(%q) = %v, %v", s, f, err)
		}
	}
	if _, err := ParseFormat("coff"); err == nil || !strings.Contains(err.Error(), "auto, elf, s19, ihex or bin") {
		t.Errorf("ParseFormat(coff): %v", err)
	}
	for f, s := range map[Format]string{FormatAuto: "auto", FormatELF: "elf", FormatSRec: "s19", FormatIHex: "ihex", FormatBin: "bin"} {
		if f.String() != s {
			t.Errorf("%d.String() = %q", int(f), f.String())
		}
		if g, _ := ParseFormat(s); g != f {
			t.Errorf("ParseFormat(%q) does not round-trip", s)
		}
	}

	for s, want := range map[string]uint16{"0xD000": 0xD000, "0Xd000": 0xD000, "$D000": 0xD000, "53248": 0xD000,
		"0": 0, "0xFFFF": 0xFFFF, "65535": 0xFFFF, " $ff ": 0xFF} {
		if a, err := ParseAddr(s); err != nil || a != want {
			t.Errorf("ParseAddr(%q) = 0x%X, %v", s, a, err)
		}
	}
	for _, s := range []string{"", "0x", "$", "0x10000", "65536", "D000", "-1", "+5", "0x_1", "1e3", "$-1"} {
		if a, err := ParseAddr(s); err == nil {
			t.Errorf("ParseAddr(%q) = 0x%X, want an error", s, a)
		}
	}
	if _, err := ParseAddr("0x10000"); err == nil || !strings.Contains(err.Error(), "0x10000 is out of range 0x0000–0xFFFF") {
		t.Errorf("ParseAddr(0x10000): %v", err)
	}

	for s, want := range map[string]Range{"0x100-0x1ff": {0x100, 0x1FF}, "$100-$1FF": {0x100, 0x1FF},
		"256-511": {256, 511}, "0-65535": {0, 0xFFFF}, "5-5": {5, 5}} {
		if r, err := ParseRange(s); err != nil || r != want {
			t.Errorf("ParseRange(%q) = %v, %v", s, r, err)
		}
	}
	for _, s := range []string{"", "0x100", "0x200-0x100", "0x100-", "-0x100", "0x100-0x10000", "a-b"} {
		if r, err := ParseRange(s); err == nil {
			t.Errorf("ParseRange(%q) = %v, want an error", s, r)
		}
	}
	if r := (Range{0x100, 0x1FF}); r.String() != "0x0100-0x01FF" || !r.Contains(0x1FF) || r.Contains(0x200) {
		t.Errorf("Range methods wrong")
	}
}

func TestSymbolsMerge(t *testing.T) {
	// prog.nm repeats the ELF symbols: the ELF ones, with types and sizes, stay.
	img := mustLoad(t, "prog.elf", Options{Symbols: filepath.Join("testdata", "prog.nm")})
	plain := mustLoad(t, "prog.elf", Options{})
	if !reflect.DeepEqual(img.Symbols, plain.Symbols) {
		t.Errorf("a side file repeating the ELF symbols changed them:\n%+v\nwant\n%+v", img.Symbols, plain.Symbols)
	}
}

func TestProgramHeadersOnly(t *testing.T) {
	// lma.elf without its section headers loads from its program headers.
	data := append([]byte(nil), testdata(t, "lma.elf")...)
	copy(data[offShoff:], []byte{0, 0, 0, 0})
	copy(data[48:], []byte{0, 0, 0, 0}) // e_shnum, e_shstrndx
	img, err := LoadBytes("stripped.elf", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkSane(t, img)
	full := mustLoad(t, "lma.elf", Options{})
	if *img.Memory() != *full.Memory() {
		t.Errorf("memory differs from lma.elf")
	}
	var names []string
	for _, s := range img.Segments {
		names = append(names, s.Name)
	}
	if want := []string{"load1", "load0", "load1@lma", "load2"}; !reflect.DeepEqual(names, want) {
		t.Errorf("segments %q, want %q", names, want)
	}
	if len(img.Symbols) != 0 || img.Entry != 0xD000 {
		t.Errorf("symbols %v, entry 0x%04X", img.Symbols, img.Entry)
	}
	if !reflect.DeepEqual(img.Map, full.Map) {
		t.Errorf("map:\n%v\nwant\n%v", &img.Map, &full.Map)
	}
}

// CONFIG shapes the map as the chips' documents say (M68HC11 Reference
// Manual 3.2, MC68HC11F1 Technical Data): EEON clear removes the EEPROM,
// ROMON clear the on-chip ROM (the image's own bytes stay ROM: the
// external bus holds them), and on the F1 EE3–EE0 put the EEPROM at
// 0xXE00–0xXFFF. The value a chip is shipped with changes nothing.
func TestWithConfig(t *testing.T) {
	type reg = Region
	ram9, regs := reg{0x0000, 0x01FF, RegionRAM, "ram"}, reg{0x1000, 0x103F, RegionIO, "registers"}
	ramF, regsF := reg{0x0000, 0x03FF, RegionRAM, "ram"}, reg{0x1000, 0x105F, RegionIO, "registers"}
	cases := []struct {
		name   string
		file   string
		chip   string
		config uint8
		want   []reg
	}{
		{"e9 as shipped", "prog.s19", "e9", 0x0F, []reg{ram9, regs, {0xB600, 0xB7FF, RegionEEPROM, "eeprom"}, {0xD000, 0xFFFF, RegionROM, "rom"}}},
		{"e9 the COP on", "prog.s19", "e9", 0x0B, []reg{ram9, regs, {0xB600, 0xB7FF, RegionEEPROM, "eeprom"}, {0xD000, 0xFFFF, RegionROM, "rom"}}},
		{"e9 EEON clear", "prog.s19", "e9", 0x0E, []reg{ram9, regs, {0xD000, 0xFFFF, RegionROM, "rom"}}},
		{"e9 ROMON clear", "prog.s19", "e9", 0x0D, []reg{ram9, regs, {0xB600, 0xB7FF, RegionEEPROM, "eeprom"},
			{0xD000, 0xD028, RegionROM, "image"}, {0xFFC0, 0xFFFF, RegionROM, "image"}}},
		{"f1 as shipped", "prog.s19", "f1", 0xFF, []reg{ramF, regsF, {0xD000, 0xD028, RegionROM, "image"}, {0xFE00, 0xFFBF, RegionEEPROM, "eeprom"}, {0xFFC0, 0xFFFF, RegionROM, "image"}}},
		{"f1 EE=0", "prog.s19", "f1", 0x0F, []reg{ramF, {0x0E00, 0x0FFF, RegionEEPROM, "eeprom"}, regsF, {0xD000, 0xD028, RegionROM, "image"}, {0xFFC0, 0xFFFF, RegionROM, "image"}}},
		{"f1 EE=A", "prog.s19", "f1", 0xAF, []reg{ramF, regsF, {0xAE00, 0xAFFF, RegionEEPROM, "eeprom"}, {0xD000, 0xD028, RegionROM, "image"}, {0xFFC0, 0xFFFF, RegionROM, "image"}}},
		{"f1 EEON clear", "prog.s19", "f1", 0xFE, []reg{ramF, regsF, {0xD000, 0xD028, RegionROM, "image"}, {0xFFC0, 0xFFFF, RegionROM, "image"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			img := mustLoad(t, c.file, Options{Chip: c.chip})
			before := img.Map.String()
			got := img.WithConfig(c.config)
			if !reflect.DeepEqual(got.Map.Regions, c.want) {
				t.Errorf("map:\n%v\nwant %+v", &got.Map, c.want)
			}
			if img.Map.String() != before {
				t.Errorf("WithConfig changed the image's own map")
			}
			if again := got.WithConfig(c.config); again != got {
				t.Errorf("WithConfig of the same value again made a new image")
			}
		})
	}
}
