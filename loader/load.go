package loader

import (
	"fmt"
	"os"
	"sort"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// maxFileSize bounds what Load reads: far more than any 68HC11 image with
// debug information needs.
const maxFileSize = 64 << 20

// Options control how an image is loaded. The zero value auto-detects the
// format and uses the default chip profile.
type Options struct {
	Format  Format // FormatAuto: decide by content
	Base    uint16 // load address of a raw binary (--base)
	BaseSet bool   // whether Base was given

	Symbols string            // path of a symbol side file in m68hc11-nm output format (--symbols)
	Hooks   map[string]uint16 // extra function symbols (--hook NAME=ADDR); they replace symbols of the same name

	Chip     string  // chip profile (--chip); "" means DefaultChip
	RAM, ROM []Range // extra RAM and ROM ranges (--ram, --rom), applied in that order

	Entry string // --entry: a symbol name or an address as ParseAddr reads it; "" for none

	// AllowNoEntry lets an image without any entry point load, with
	// HasEntry false, for commands that do not run it (disasm, cfg).
	AllowNoEntry bool
}

// Load reads the file at path and loads it with LoadBytes.
func Load(path string, opts Options) (*Image, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxFileSize {
		return nil, offsetErr(path, maxFileSize, "file of %d bytes is too large for a 68HC11 image", st.Size())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return LoadBytes(path, data, opts)
}

// LoadBytes loads the image held in data; name is used in messages and as
// Image.Path. With FormatAuto the format is chosen by content: the ELF magic
// means ELF, a first non-blank character 'S' followed by a digit means
// S-records, ':' means Intel HEX, and otherwise a name ending in ".bin" or a
// given Base means a raw binary.
//
// Problems with the file are reported as *FormatError. Problems with the
// options (unknown chip, an --entry that names no symbol, an unreadable
// symbol file) are plain errors, except where they are about a position in
// the symbol file.
func LoadBytes(name string, data []byte, opts Options) (*Image, error) {
	chip, err := findChip(opts.Chip)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, offsetErr(name, 0, "file is empty")
	}
	format := opts.Format
	if format == FormatAuto {
		if format, err = detect(name, data, opts); err != nil {
			return nil, err
		}
	}
	img := &Image{Path: name, Format: format, Chip: chip.Name}
	var ram []area
	switch format {
	case FormatELF:
		ram, err = loadELF(name, data, img)
	case FormatSRec:
		err = loadSRec(name, data, img)
	case FormatIHex:
		err = loadIHex(name, data, img)
	case FormatBin:
		if !opts.BaseSet {
			return nil, offsetErr(name, 0, "raw binary needs --base ADDR, the address its first byte loads at")
		}
		err = loadBin(name, data, opts.Base, img)
	default:
		return nil, fmt.Errorf("unknown format %v", format)
	}
	if err != nil {
		return nil, err
	}
	sort.SliceStable(img.Segments, func(i, j int) bool { return img.Segments[i].Addr < img.Segments[j].Addr })

	if opts.Symbols != "" {
		syms, warnings, err := readSymbolFile(opts.Symbols)
		if err != nil {
			return nil, err
		}
		img.Symbols = mergeSymbols(img.Symbols, syms)
		img.Warnings = append(img.Warnings, warnings...)
	}
	addHooks(img, opts.Hooks)
	sortSymbols(img)

	for i := range img.Vectors {
		a := isa.VectorAddr(i)
		hi, okHi := img.Byte(a)
		lo, okLo := img.Byte(a + 1)
		img.Vectors[i] = uint16(hi)<<8 | uint16(lo)
		img.VectorLoaded[i] = okHi && okLo
	}

	switch {
	case opts.Entry != "":
		e, err := resolveEntry(img, opts.Entry)
		if err != nil {
			return nil, err
		}
		img.Entry, img.HasEntry = e, true
	case img.VectorLoaded[isa.VecReset]:
		img.Entry, img.HasEntry = img.Vectors[isa.VecReset], true
	case img.HasFileEntry:
		img.Entry, img.HasEntry = img.FileEntry, true
	case !opts.AllowNoEntry:
		return nil, fileErr(name, "no entry point: the image loads no reset vector at 0xFFFE and has no %s; pass --entry SYM|ADDR", entryName(format))
	}

	img.mapIn = mapInputs{chip, ram, opts.RAM, opts.ROM}
	img.Map = buildMap(chip, img.Segments, ram, opts.RAM, opts.ROM)
	return img, nil
}

// mapInputs are what the memory map was built from, for WithConfig.
type mapInputs struct {
	chip     ChipProfile
	writable []area
	ram, rom []Range
}

// WithConfig returns the image with its memory map built for CONFIG value
// config instead of the value the chip is shipped with
// (ChipProfile.Configured): the same bytes and symbols, the on-chip EEPROM
// and ROM where that value puts them. The image itself is not changed.
func (img *Image) WithConfig(config uint8) *Image {
	if img.mapIn.chip.Name == "" || config == img.mapIn.chip.Config {
		return img
	}
	out := *img
	in := img.mapIn
	in.chip = in.chip.Configured(config)
	out.mapIn = in
	out.Map = buildMap(in.chip, img.Segments, in.writable, in.ram, in.rom)
	return &out
}

// entryName names the place a format keeps its entry address.
func entryName(f Format) string {
	switch f {
	case FormatELF:
		return "ELF entry"
	case FormatSRec:
		return "entry address in an S7/S8/S9 record"
	case FormatIHex:
		return "start address record (type 03 or 05)"
	}
	return "entry address (a raw binary has none)"
}

// addHooks adds the --hook symbols, replacing symbols of the same names.
func addHooks(img *Image, hooks map[string]uint16) {
	if len(hooks) == 0 {
		return
	}
	kept := img.Symbols[:0]
	for _, s := range img.Symbols {
		if _, ok := hooks[s.Name]; !ok {
			kept = append(kept, s)
		}
	}
	img.Symbols = kept
	for n, a := range hooks {
		img.Symbols = append(img.Symbols, Symbol{Name: n, Addr: a, Kind: SymFunc, Global: true})
	}
}

// mergeSymbols adds the side-file symbols extra to syms, leaving out those
// that repeat a symbol already there (same name and address): the ELF
// symbol table knows more (type, size) than nm's letters tell.
func mergeSymbols(syms, extra []Symbol) []Symbol {
	type key struct {
		name string
		addr uint16
	}
	have := make(map[key]bool, len(syms))
	for _, s := range syms {
		have[key{s.Name, s.Addr}] = true
	}
	for _, s := range extra {
		if k := (key{s.Name, s.Addr}); !have[k] {
			have[k] = true
			syms = append(syms, s)
		}
	}
	return syms
}

// sortSymbols sorts by address, then name, then the other fields, so that
// the order does not depend on the input's.
func sortSymbols(img *Image) {
	s := img.Symbols
	sort.Slice(s, func(i, j int) bool {
		a, b := s[i], s[j]
		if a.Addr != b.Addr {
			return a.Addr < b.Addr
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Global != b.Global {
			return a.Global
		}
		if a.Abs != b.Abs {
			return b.Abs
		}
		return a.Size < b.Size
	})
}

// resolveEntry reads --entry: an address if it parses as one, else a symbol.
func resolveEntry(img *Image, s string) (uint16, error) {
	if a, err := ParseAddr(s); err == nil {
		return a, nil
	}
	if sym, ok := img.Lookup(s); ok {
		return sym.Addr, nil
	}
	return 0, fmt.Errorf("--entry %s: %s has no symbol %q and it is not an address (0xD000, $D000 or decimal); symbols come from the ELF file, --symbols FILE or --hook NAME=ADDR", s, img.Path, s)
}
