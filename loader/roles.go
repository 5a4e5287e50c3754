package loader

import "sort"

// Naming addresses by the role they play. SymbolAt names an address the way
// objdump does, whatever the address is; the functions here are for
// traces, where an address is known to be code (a branch target), data (a
// memory operand) or a value that may or may not be an address (an
// immediate), and a data variable should be named even where objdump would
// not (nm types b, d and other data objects).

// maxExtent bounds the extent of a symbol of unknown size.
const maxExtent = 256

// IsData reports whether s names data: a data object (ELF STT_OBJECT, nm
// types b, d and the other data letters), or an untyped label outside the
// code — in RAM, the I/O registers, or a segment that is not executable.
// Absolute symbols are constants, not data.
func (img *Image) IsData(s Symbol) bool {
	if s.Abs {
		return false
	}
	switch s.Kind {
	case SymObject:
		return true
	case SymNone:
		if r, ok := img.Map.Lookup(s.Addr); ok && (r.Kind == RegionRAM || r.Kind == RegionIO) {
			return true
		}
		i := img.segmentIndex(s.Addr)
		return i < 0 || !img.Segments[i].Exec
	}
	return false
}

// Extent returns the number of bytes symbol i of img.Symbols covers: its
// size when the symbol table gives one, else the distance to the next
// symbol above it (at most 256 bytes, and not past the end of its memory
// region).
func (img *Image) Extent(i int) int {
	s := img.Symbols[i]
	if s.Size > 0 {
		return int(min(s.Size, 0x10000-uint32(s.Addr)))
	}
	end := int(s.Addr) + maxExtent
	if r, ok := img.Map.Lookup(s.Addr); ok && int(r.Hi)+1 < end {
		end = int(r.Hi) + 1
	}
	for _, t := range img.Symbols[i+1:] {
		if int(t.Addr) >= end {
			break
		}
		if t.Addr > s.Addr && t.Kind != SymSection && t.Kind != SymFile && !t.Abs {
			end = int(t.Addr)
			break
		}
	}
	return max(end-int(s.Addr), 1)
}

// DataSymbolAt returns the index in img.Symbols of the data symbol whose
// extent holds addr (see IsData and Extent); ok is false when none does.
// Among symbols at one address it prefers data objects, then global ones,
// then the first by name.
func (img *Image) DataSymbolAt(addr uint16) (i int, ok bool) {
	j := sort.Search(len(img.Symbols), func(j int) bool { return img.Symbols[j].Addr > addr })
	for j--; j >= 0; j-- {
		s := img.Symbols[j]
		if !img.IsData(s) || !labelName(s.Name) {
			continue
		}
		best := j
		for k := j - 1; k >= 0 && img.Symbols[k].Addr == s.Addr; k-- {
			t := img.Symbols[k]
			if img.IsData(t) && labelName(t.Name) && dataRank(t) >= dataRank(img.Symbols[best]) {
				best = k
			}
		}
		if int(addr)-int(s.Addr) < img.Extent(best) {
			return best, true
		}
		return 0, false
	}
	return 0, false
}

func dataRank(s Symbol) int {
	r := 0
	if s.Kind == SymObject {
		r += 2
	}
	if s.Global {
		r++
	}
	return r
}

// CodeSymbolAt names a code address for a trace: as SymbolAt, but only
// with labels that are neither data (IsData) nor absolute constants.
func (img *Image) CodeSymbolAt(addr uint16) (name string, off uint16, ok bool) {
	j := sort.Search(len(img.Symbols), func(j int) bool { return img.Symbols[j].Addr > addr })
	for j--; j >= 0; j-- {
		s := img.Symbols[j]
		if !labelSymbol(s) || s.Abs || img.IsData(s) {
			continue
		}
		best := s
		for k := j - 1; k >= 0 && img.Symbols[k].Addr == s.Addr; k-- {
			t := img.Symbols[k]
			if labelSymbol(t) && !t.Abs && !img.IsData(t) && labelRank(t) >= labelRank(best) {
				best = t
			}
		}
		return best.Name, addr - best.Addr, true
	}
	return "", 0, false
}

// InCode reports whether addr lies in an executable segment outside RAM.
func (img *Image) InCode(addr uint16) bool {
	if r, ok := img.Map.Lookup(addr); ok && (r.Kind == RegionRAM || r.Kind == RegionIO) {
		return false
	}
	i := img.segmentIndex(addr)
	return i >= 0 && img.Segments[i].Exec
}

// MemoryName names the address of a memory operand in a trace: the data
// symbol whose extent holds it, else an absolute symbol equal to it (an
// I/O register's name), else the code label before it when it lies in
// code.
func (img *Image) MemoryName(addr uint16) (name string, base uint16, ok bool) {
	if i, ok := img.DataSymbolAt(addr); ok {
		return img.Symbols[i].Name, img.Symbols[i].Addr, true
	}
	if n, ok := img.exactAbs(addr); ok {
		return n, addr, true
	}
	if img.InCode(addr) {
		n, off, ok := img.CodeSymbolAt(addr)
		return n, addr - off, ok
	}
	return "", 0, false
}

// ValueName names a 16-bit immediate in a trace, only where the value is
// an address in the image's code or data: in code, after the code label
// before it; in data, only when it is exactly a data symbol's address or
// lies within a data symbol's declared size. A value that merely equals
// some address (a small count, an absolute constant plus an offset) is
// not named.
func (img *Image) ValueName(v uint16) (name string, base uint16, ok bool) {
	if img.InCode(v) {
		n, off, ok := img.CodeSymbolAt(v)
		return n, v - off, ok
	}
	i, ok := img.DataSymbolAt(v)
	if !ok {
		return "", 0, false
	}
	s := img.Symbols[i]
	if s.Addr == v || uint32(v-s.Addr) < s.Size {
		return s.Name, s.Addr, true
	}
	return "", 0, false
}

func (img *Image) exactAbs(addr uint16) (string, bool) {
	j := sort.Search(len(img.Symbols), func(j int) bool { return img.Symbols[j].Addr >= addr })
	for ; j < len(img.Symbols) && img.Symbols[j].Addr == addr; j++ {
		if s := img.Symbols[j]; s.Abs && labelName(s.Name) {
			return s.Name, true
		}
	}
	return "", false
}

// labelName reports whether a symbol name can label an address: not
// empty, not starting with ".", no control characters.
func labelName(n string) bool {
	if n == "" || n[0] == '.' {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < ' ' || n[i] == 0x7f {
			return false
		}
	}
	return true
}
