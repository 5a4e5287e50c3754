package loader

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// ELF32 header field offsets used in positions of error messages.
const (
	elfHeaderSize = 52
	offClass      = 4
	offData       = 5
	offType       = 16
	offMachine    = 18
	offEntry      = 24
	offPhoff      = 28
	offShoff      = 32
	offPhentsize  = 42
	offShentsize  = 46
)

// maxLineRows bounds the DWARF line rows read, so that a hostile file cannot
// make the loader hold an unbounded table.
const maxLineRows = 1 << 20

// maxUnits bounds the top-level DWARF entries (compilation units) read.
const maxUnits = 1 << 16

// placed is an address range some part of the ELF file occupies, for the
// overlap check; end is exclusive.
type placed struct {
	lo, end int
	what    string
	off     int64 // file position of its header, for the error
}

// loadELF reads an ELF32 EM_68HC11 executable into img and returns the
// ranges that are RAM by the file's own account (writable and NOBITS
// sections).
func loadELF(name string, data []byte, img *Image) ([]area, error) {
	if err := elfHeader(name, data); err != nil {
		return nil, err
	}
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return nil, elfErr(name, data, err)
	}
	ram, spans, err := elfSections(name, data, f, img)
	if err != nil {
		return nil, err
	}
	if len(spans) == 0 {
		// No allocated sections (section headers stripped): use the
		// program headers.
		if ram, spans, err = elfProgs(name, data, f, img); err != nil {
			return nil, err
		}
	}
	if err := noOverlap(name, spans); err != nil {
		return nil, err
	}
	if f.Entry > 0xFFFF {
		return nil, offsetErr(name, offEntry, "entry point 0x%X is beyond 0xFFFF", f.Entry)
	}
	if f.Entry != 0 {
		img.FileEntry, img.HasFileEntry = uint16(f.Entry), true
	}

	if err := elfSymbols(name, f, img); err != nil {
		return nil, err
	}
	if f.Section(".debug_line") != nil {
		lines, err := elfLines(f)
		if err != nil {
			img.Warnings = append(img.Warnings, fmt.Sprintf("%s: no source line information: %v", name, err))
		}
		img.Lines = lines
	}
	return ram, nil
}

// elfHeader checks the ELF header: a 32-bit big-endian executable for
// the 68HC11.
func elfHeader(name string, data []byte) error {
	if !bytes.HasPrefix(data, elfMagic) {
		return offsetErr(name, 0, "not an ELF file: it does not start with \\x7fELF")
	}
	if len(data) < elfHeaderSize {
		return offsetErr(name, int64(len(data)), "truncated ELF header: the file has %d bytes, an ELF32 header needs %d", len(data), elfHeaderSize)
	}
	switch data[offClass] {
	case byte(elf.ELFCLASS32):
	case byte(elf.ELFCLASS64):
		return offsetErr(name, offClass, "64-bit ELF file: 68HC11 firmware is ELF32 (as m68hc11-ld writes it)")
	default:
		return offsetErr(name, offClass, "bad ELF class %d", data[offClass])
	}
	switch data[offData] {
	case byte(elf.ELFDATA2MSB):
	case byte(elf.ELFDATA2LSB):
		return offsetErr(name, offData, "little-endian ELF file: 68HC11 ELF files are big-endian; is this firmware for another machine?")
	default:
		return offsetErr(name, offData, "bad ELF data encoding %d", data[offData])
	}
	if m := elf.Machine(binary.BigEndian.Uint16(data[offMachine:])); m != elf.EM_68HC11 {
		return offsetErr(name, offMachine, "ELF file is for machine %v (%d), not the 68HC11 (EM_68HC11, %d)", m, uint16(m), uint16(elf.EM_68HC11))
	}
	switch t := elf.Type(binary.BigEndian.Uint16(data[offType:])); t {
	case elf.ET_EXEC:
	case elf.ET_REL:
		return offsetErr(name, offType, "relocatable object file, not an executable: link it with m68hc11-ld first")
	default:
		return offsetErr(name, offType, "ELF type %v is not an executable (ET_EXEC)", t)
	}
	return nil
}

// elfSections reads the allocated sections into img: the RAM they make
// and the address ranges they occupy.
func elfSections(name string, data []byte, f *elf.File, img *Image) (ram []area, spans []placed, err error) {
	be := binary.BigEndian
	shoff := int64(be.Uint32(data[offShoff:]))
	shentsize := int64(be.Uint16(data[offShentsize:]))
	for i, s := range f.Sections {
		if s.Flags&elf.SHF_ALLOC == 0 || s.Size == 0 || s.Type == elf.SHT_NULL {
			continue
		}
		hdr := shoff + int64(i)*shentsize
		if s.Addr+s.Size > 0x10000 {
			return nil, nil, offsetErr(name, hdr, "section %s at 0x%X-0x%X lies beyond 0xFFFF; the 68HC11 addresses 64 KiB", s.Name, s.Addr, s.Addr+s.Size-1)
		}
		lo, end := int(s.Addr), int(s.Addr+s.Size)
		spans = append(spans, placed{lo, end, "section " + s.Name, hdr})
		if s.Type == elf.SHT_NOBITS || s.Flags&elf.SHF_WRITE != 0 {
			ram = append(ram, area{lo, end, s.Name})
		}
		if s.Type == elf.SHT_NOBITS {
			continue
		}
		b, err := s.Data()
		if err != nil {
			return nil, nil, offsetErr(name, hdr, "cannot read section %s: %v (is the file truncated?)", s.Name, err)
		}
		if uint64(len(b)) != s.Size {
			return nil, nil, offsetErr(name, hdr, "section %s holds %d bytes, its header says %d", s.Name, len(b), s.Size)
		}
		img.Segments = append(img.Segments, Segment{
			Addr:     uint16(s.Addr),
			Data:     b,
			Name:     s.Name,
			Writable: s.Flags&elf.SHF_WRITE != 0,
			Exec:     s.Flags&elf.SHF_EXECINSTR != 0,
		})
		lma, ok := sectionLMA(f, s)
		if !ok || lma == s.Addr {
			continue
		}
		if lma+s.Size > 0x10000 {
			return nil, nil, offsetErr(name, hdr, "section %s has its load address 0x%X-0x%X beyond 0xFFFF", s.Name, lma, lma+s.Size-1)
		}
		spans = append(spans, placed{int(lma), int(lma + s.Size), "the load image of section " + s.Name, hdr})
		img.Segments = append(img.Segments, Segment{
			Addr: uint16(lma),
			Data: append([]byte(nil), b...),
			Name: s.Name + "@lma",
		})
	}
	return ram, spans, nil
}

// elfProgs reads the loaded program segments into img, for a file whose
// section headers are stripped: the RAM they make and the address ranges
// they occupy.
func elfProgs(name string, data []byte, f *elf.File, img *Image) (ram []area, spans []placed, err error) {
	be := binary.BigEndian
	phoff := int64(be.Uint32(data[offPhoff:]))
	phentsize := int64(be.Uint16(data[offPhentsize:]))
	for i, p := range f.Progs {
		if p.Type != elf.PT_LOAD || p.Memsz == 0 {
			continue
		}
		hdr := phoff + int64(i)*phentsize
		what := fmt.Sprintf("load segment %d", i)
		if p.Filesz > p.Memsz {
			return nil, nil, offsetErr(name, hdr, "%s has more bytes in the file (%d) than in memory (%d)", what, p.Filesz, p.Memsz)
		}
		if p.Vaddr+p.Memsz > 0x10000 {
			return nil, nil, offsetErr(name, hdr, "%s at 0x%X-0x%X lies beyond 0xFFFF; the 68HC11 addresses 64 KiB", what, p.Vaddr, p.Vaddr+p.Memsz-1)
		}
		lo, end := int(p.Vaddr), int(p.Vaddr+p.Memsz)
		spans = append(spans, placed{lo, end, what, hdr})
		if p.Flags&elf.PF_W != 0 {
			ram = append(ram, area{lo, end, fmt.Sprintf("load%d", i)})
		} else if p.Memsz > p.Filesz {
			ram = append(ram, area{lo + int(p.Filesz), end, fmt.Sprintf("load%d", i)})
		}
		if p.Filesz == 0 {
			continue
		}
		b := make([]byte, p.Filesz)
		if _, err := p.ReadAt(b, 0); err != nil {
			return nil, nil, offsetErr(name, hdr, "cannot read %s: %v (is the file truncated?)", what, err)
		}
		img.Segments = append(img.Segments, Segment{
			Addr:     uint16(p.Vaddr),
			Data:     b,
			Name:     fmt.Sprintf("load%d", i),
			Writable: p.Flags&elf.PF_W != 0,
			Exec:     p.Flags&elf.PF_X != 0,
		})
		if p.Paddr == p.Vaddr {
			continue
		}
		if p.Paddr+p.Filesz > 0x10000 {
			return nil, nil, offsetErr(name, hdr, "%s has its load address 0x%X-0x%X beyond 0xFFFF", what, p.Paddr, p.Paddr+p.Filesz-1)
		}
		spans = append(spans, placed{int(p.Paddr), int(p.Paddr + p.Filesz), "the load image of " + what, hdr})
		img.Segments = append(img.Segments, Segment{
			Addr: uint16(p.Paddr),
			Data: append([]byte(nil), b...),
			Name: fmt.Sprintf("load%d@lma", i),
		})
	}
	return ram, spans, nil
}

// noOverlap refuses address ranges of the file that overlap, naming the
// header of the later one.
func noOverlap(name string, spans []placed) error {
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	for i := 1; i < len(spans); i++ {
		a, b := spans[i-1], spans[i]
		if b.lo < a.end {
			return offsetErr(name, b.off, "%s (0x%04X-0x%04X) overlaps %s (0x%04X-0x%04X)",
				b.what, b.lo, b.end-1, a.what, a.lo, a.end-1)
		}
	}
	return nil
}

// elfErr turns an error from debug/elf into a FormatError.
func elfErr(name string, data []byte, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return offsetErr(name, int64(len(data)), "truncated ELF file: a header or table runs past the end of the file")
	}
	return fileErr(name, "malformed ELF file: %v", err)
}

// sectionLMA returns the load address of a section: where the program header
// that holds its file bytes puts them, p_paddr + (sh_offset - p_offset).
func sectionLMA(f *elf.File, s *elf.Section) (uint64, bool) {
	for _, p := range f.Progs {
		if p.Type != elf.PT_LOAD {
			continue
		}
		if s.Offset >= p.Off && s.Offset-p.Off < p.Filesz {
			return p.Paddr + (s.Offset - p.Off), true
		}
	}
	return 0, false
}

// elfSymbols adds the symbol table to img.
func elfSymbols(name string, f *elf.File, img *Image) error {
	syms, err := f.Symbols()
	if errors.Is(err, elf.ErrNoSymbols) {
		return nil
	}
	if err != nil {
		return fileErr(name, "unreadable symbol table: %v", err)
	}
	skipped := 0
	for _, s := range syms {
		typ := elf.ST_TYPE(s.Info)
		if s.Section == elf.SHN_UNDEF && typ != elf.STT_FILE {
			continue
		}
		n := s.Name
		if typ == elf.STT_SECTION {
			i := int(s.Section)
			if i >= len(f.Sections) || s.Section >= elf.SHN_LORESERVE || f.Sections[i].Flags&elf.SHF_ALLOC == 0 {
				continue // sections that are not part of the image
			}
			if n == "" {
				n = f.Sections[i].Name
			}
		}
		if n == "" {
			continue
		}
		if s.Value > 0xFFFF {
			skipped++
			continue
		}
		var kind SymKind
		switch typ {
		case elf.STT_FUNC:
			kind = SymFunc
		case elf.STT_OBJECT, elf.STT_COMMON, elf.STT_TLS:
			kind = SymObject
		case elf.STT_SECTION:
			kind = SymSection
		case elf.STT_FILE:
			kind = SymFile
		default:
			kind = SymNone
		}
		bind := elf.ST_BIND(s.Info)
		img.Symbols = append(img.Symbols, Symbol{
			Name:   n,
			Addr:   uint16(s.Value),
			Size:   uint32(min(s.Size, 0xFFFFFFFF)),
			Kind:   kind,
			Global: bind == elf.STB_GLOBAL || bind == elf.STB_WEAK,
			Abs:    s.Section == elf.SHN_ABS && kind != SymFile,
		})
	}
	if skipped > 0 {
		img.Warnings = append(img.Warnings, fmt.Sprintf("%s: skipped %d symbols whose values do not fit in 16 bits", name, skipped))
	}
	return nil
}

// elfLines reads the DWARF line table. A malformed table is reported as an
// error and whatever was read before it is kept.
func elfLines(f *elf.File) (lines []LineEntry, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("malformed DWARF: %v", r)
		}
	}()
	d, err := f.DWARF()
	if err != nil {
		return nil, err
	}
	r := d.Reader()
	rows := 0
	for units := 0; ; units++ {
		// Only the top-level entries are read: compilation units, whose
		// children are skipped. A hostile file can make the reader return
		// empty entries without advancing, so the count is bounded.
		if units >= maxUnits {
			return finishLines(lines), fmt.Errorf("more than %d top-level DWARF entries", maxUnits)
		}
		e, err := r.Next()
		if err != nil {
			return finishLines(lines), err
		}
		if e == nil {
			break
		}
		if e.Tag != dwarf.TagCompileUnit && e.Tag != dwarf.TagPartialUnit {
			if e.Children {
				r.SkipChildren()
			}
			continue
		}
		lr, err := d.LineReader(e)
		if err != nil {
			return finishLines(lines), err
		}
		if e.Children {
			r.SkipChildren()
		}
		if lr == nil {
			continue
		}
		var le dwarf.LineEntry
		for {
			err := lr.Next(&le)
			if err == io.EOF {
				break
			}
			if err != nil {
				return finishLines(lines), err
			}
			if rows++; rows > maxLineRows {
				return finishLines(lines), fmt.Errorf("more than %d line-table rows", maxLineRows)
			}
			if le.EndSequence || le.Address > 0xFFFF {
				continue
			}
			file := ""
			if le.File != nil {
				file = le.File.Name
			}
			lines = append(lines, LineEntry{Addr: uint16(le.Address), File: file, Line: le.Line})
		}
	}
	return finishLines(lines), nil
}

// finishLines sorts line rows by address and keeps one per address: the
// last, which is the row that describes the instruction there.
func finishLines(lines []LineEntry) []LineEntry {
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].Addr < lines[j].Addr })
	out := lines[:0]
	for i, l := range lines {
		if i+1 < len(lines) && lines[i+1].Addr == l.Addr {
			continue
		}
		out = append(out, l)
	}
	return out
}
