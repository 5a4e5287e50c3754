package loader

import (
	"sort"
	"strings"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// Segment is a run of bytes the image loads at consecutive addresses.
type Segment struct {
	Addr     uint16 // address of Data[0]
	Data     []byte // the bytes; Addr+len(Data) never exceeds 0x10000
	Name     string // ELF section name ("name@lma" for a load-address copy); "" for formats without sections
	Writable bool   // from ELF SHF_WRITE; false for other formats
	Exec     bool   // from ELF SHF_EXECINSTR; true for formats that cannot tell
}

// End returns the address one past the segment's last byte, as an int so
// that a segment ending at 0xFFFF does not wrap.
func (s Segment) End() int { return int(s.Addr) + len(s.Data) }

// SymKind is the kind of a symbol, after the ELF symbol types.
type SymKind uint8

// Symbol kinds. SymNone is ELF's STT_NOTYPE, which is what an assembler label
// without a .type directive gets.
const (
	SymFunc    SymKind = iota // code: STT_FUNC, nm types T and t, --hook
	SymObject                 // data: STT_OBJECT, nm types D, B, R and friends
	SymNone                   // no type: STT_NOTYPE, nm types A, N and others
	SymSection                // a section's start: STT_SECTION
	SymFile                   // a source file name: STT_FILE
)

var symKindNames = [...]string{"func", "object", "notype", "section", "file"}

// String returns "func", "object", "notype", "section" or "file".
func (k SymKind) String() string {
	if int(k) < len(symKindNames) {
		return symKindNames[k]
	}
	return "kind?"
}

// Symbol is a named address.
type Symbol struct {
	Name   string
	Addr   uint16
	Size   uint32 // from the ELF symbol table or nm -S; 0 when unknown
	Kind   SymKind
	Global bool // global or weak binding (upper-case nm type)
	// Abs marks an absolute symbol (ELF SHN_ABS, nm type A): a constant
	// such as a register offset or a size, not an address in a section.
	Abs bool
}

// LineEntry maps the instruction at Addr to a source line, from the DWARF
// line table.
type LineEntry struct {
	Addr uint16
	File string // as the DWARF line table names it, usually an absolute path
	Line int    // 1-based
}

// Image is a loaded firmware image: what memory holds at power-up, the
// symbols, the entry point, the interrupt vectors and the memory map.
type Image struct {
	Path     string    // the file name given to Load or LoadBytes
	Format   Format    // the format the image was read as (never FormatAuto)
	Segments []Segment // sorted by Addr, non-overlapping
	Symbols  []Symbol  // sorted by Addr, then Name

	// Entry is where thread 0 starts: --entry if given, else the reset
	// vector if the image loads it, else the file's own entry address
	// (FileEntry). HasEntry is false only when Options.AllowNoEntry let an
	// image without any of these load.
	Entry    uint16
	HasEntry bool

	// FileEntry is the entry address the file itself declares: ELF e_entry,
	// the S7/S8/S9 record, or the Intel HEX 03/05 record. A declared
	// address of 0 counts as none.
	FileEntry    uint16
	HasFileEntry bool

	Vectors      [isa.NumVectors]uint16 // the vector table's words (package isa/m68hc11: VectorAddr, VecReset), big-endian
	VectorLoaded [isa.NumVectors]bool   // whether the image loads both bytes of that vector

	Map      MemoryMap   // the resolved memory map
	Lines    []LineEntry // sorted by Addr, one per address; empty without DWARF line info
	Chip     string      // the chip profile the map starts from
	Warnings []string    // problems that did not stop loading, e.g. unreadable DWARF

	mapIn mapInputs // what Map was built from (WithConfig)
}

// segmentIndex returns the index of the segment that loads addr, or -1.
func (img *Image) segmentIndex(addr uint16) int {
	i := sort.Search(len(img.Segments), func(i int) bool { return img.Segments[i].End() > int(addr) })
	if i < len(img.Segments) && img.Segments[i].Addr <= addr {
		return i
	}
	return -1
}

// Byte returns the byte the image loads at addr; loaded is false (and b 0)
// where it loads nothing.
func (img *Image) Byte(addr uint16) (b byte, loaded bool) {
	i := img.segmentIndex(addr)
	if i < 0 {
		return 0, false
	}
	s := img.Segments[i]
	return s.Data[int(addr)-int(s.Addr)], true
}

// Memory returns a fresh flat copy of the 64 KiB address space with every
// loaded byte in place and 0 elsewhere: memory at power-up.
func (img *Image) Memory() *[65536]byte {
	m := new([65536]byte)
	for _, s := range img.Segments {
		copy(m[s.Addr:], s.Data)
	}
	return m
}

// Lookup finds a symbol by name. When several symbols share the name (local
// labels in different files), a global one is preferred, then one that is not
// a section or file symbol.
func (img *Image) Lookup(name string) (Symbol, bool) {
	best, found := Symbol{}, false
	rank := func(s Symbol) int {
		r := 0
		if s.Global {
			r += 2
		}
		if s.Kind != SymSection && s.Kind != SymFile {
			r++
		}
		return r
	}
	for _, s := range img.Symbols {
		if s.Name == name && (!found || rank(s) > rank(best)) {
			best, found = s, true
		}
	}
	return best, found
}

// labelSymbol reports whether s can name code addresses in SymbolAt.
func labelSymbol(s Symbol) bool {
	if s.Kind != SymFunc && s.Kind != SymNone {
		return false
	}
	if s.Name == "" || strings.HasPrefix(s.Name, ".") {
		return false
	}
	for i := 0; i < len(s.Name); i++ {
		if s.Name[i] < ' ' || s.Name[i] == 0x7f {
			return false // assembler-internal labels such as "L0\x01"
		}
	}
	return true
}

// labelRank orders symbols at one address for SymbolAt: functions before
// untyped labels, global before local.
func labelRank(s Symbol) int {
	r := 0
	if s.Kind == SymFunc {
		r += 2
	}
	if s.Global {
		r++
	}
	return r
}

// SymbolAt names addr the way objdump does in "<sym+off>": the nearest
// symbol at or before addr that is a function or an untyped label (section
// and file symbols, data objects, names starting with "." and
// assembler-internal names are skipped). Among symbols at the same address it
// prefers functions, then global ones, then the first by name. ok is false
// when no such symbol precedes addr.
func (img *Image) SymbolAt(addr uint16) (name string, off uint16, ok bool) {
	i := sort.Search(len(img.Symbols), func(i int) bool { return img.Symbols[i].Addr > addr })
	for i--; i >= 0; i-- {
		s := img.Symbols[i]
		if !labelSymbol(s) {
			continue
		}
		best := s
		for j := i - 1; j >= 0 && img.Symbols[j].Addr == s.Addr; j-- {
			t := img.Symbols[j]
			if labelSymbol(t) && labelRank(t) >= labelRank(best) {
				best = t // symbols are sorted by name, so ties go to the first
			}
		}
		return best.Name, addr - best.Addr, true
	}
	return "", 0, false
}

// LineAt returns the line-table entry that covers addr: the entry at the
// greatest address not above addr, provided both lie in the same loaded
// segment.
func (img *Image) LineAt(addr uint16) (LineEntry, bool) {
	i := sort.Search(len(img.Lines), func(i int) bool { return img.Lines[i].Addr > addr })
	if i == 0 {
		return LineEntry{}, false
	}
	e := img.Lines[i-1]
	if e.Addr != addr {
		si := img.segmentIndex(addr)
		if si < 0 || si != img.segmentIndex(e.Addr) {
			return LineEntry{}, false
		}
	}
	return e, true
}
