// Package listing prints the disassembly of a loaded image the way
// `m68hc11-objdump -d` prints an ELF file: the same header, section and
// symbol lines, address column, byte columns and instruction text, so the
// two can be compared line by line. Images without sections (S-records,
// Intel HEX, raw binaries) are listed segment by segment in the same style.
package listing

import (
	"fmt"
	"io"
	"sort"
	"strings"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// symbolizer returns objdump's choice of symbol for an address: the
// preferred symbol at the highest address not above it, or else the lowest
// symbol of all (printed with a negative offset).
func symbolizer(img *loader.Image) isa.Symbolizer {
	var syms []loader.Symbol
	for _, s := range img.Symbols {
		if s.Kind == loader.SymSection || s.Kind == loader.SymFile {
			continue
		}
		syms = append(syms, s)
	}
	if len(syms) == 0 {
		return nil
	}
	sort.SliceStable(syms, func(i, j int) bool {
		if syms[i].Addr != syms[j].Addr {
			return syms[i].Addr < syms[j].Addr
		}
		return better(syms[i], syms[j])
	})
	return func(a uint16) (string, uint16, bool) {
		i := sort.Search(len(syms), func(i int) bool { return syms[i].Addr > a })
		if i == 0 {
			return syms[0].Name, syms[0].Addr, true
		}
		// the first (preferred) symbol at the highest address <= a
		j := i - 1
		for j > 0 && syms[j-1].Addr == syms[j].Addr {
			j--
		}
		return syms[j].Name, syms[j].Addr, true
	}
}

// better is objdump's preference among symbols at one address: functions,
// then objects, then global before local, then names not starting with a
// dot, then by name.
func better(a, b loader.Symbol) bool {
	if (a.Kind == loader.SymFunc) != (b.Kind == loader.SymFunc) {
		return a.Kind == loader.SymFunc
	}
	if (a.Kind == loader.SymObject) != (b.Kind == loader.SymObject) {
		return a.Kind == loader.SymObject
	}
	if a.Global != b.Global {
		return a.Global
	}
	if (a.Name[0] == '.') != (b.Name[0] == '.') {
		return b.Name[0] == '.'
	}
	return a.Name < b.Name
}

// Write prints the listing of every executable segment of img.
func Write(w io.Writer, img *loader.Image) error {
	format := "elf32-m68hc11"
	switch img.Format {
	case loader.FormatSRec:
		format = "srec"
	case loader.FormatIHex:
		format = "ihex"
	case loader.FormatBin:
		format = "binary"
	}
	fmt.Fprintf(w, "\n%s:     file format %s\n\n", img.Path, format)
	sym := symbolizer(img)
	labels := map[uint16]string{}
	if sym != nil {
		for _, s := range img.Symbols {
			if s.Kind == loader.SymSection || s.Kind == loader.SymFile {
				continue
			}
			if name, base, _ := sym(s.Addr); base == s.Addr {
				labels[s.Addr] = name
			}
		}
	}
	for i, seg := range img.Segments {
		if !seg.Exec || strings.Contains(seg.Name, "@") {
			continue
		}
		name := seg.Name
		if name == "" {
			name = fmt.Sprintf(".sec%d", i+1)
		}
		fmt.Fprintf(w, "\nDisassembly of section %s:\n", name)
		end := seg.End()
		width := addrWidth(uint32(end))
		if _, ok := labels[seg.Addr]; !ok {
			fmt.Fprintf(w, "\n%08x <%s>:\n", seg.Addr, name)
		}
		for off := 0; off < len(seg.Data); {
			pc := seg.Addr + uint16(off)
			if l, ok := labels[pc]; ok {
				fmt.Fprintf(w, "\n%08x <%s>:\n", pc, l)
			}
			in, err := isa.Decode(seg.Data[off:])
			n := int(in.Len)
			var text string
			switch {
			case err == nil || err == isa.ErrUnrecognized:
				text = isa.GNUSyntax(in, pc, sym)
			default: // truncated at the end of the segment
				n = 1
				text = fmt.Sprintf(".byte\t0x%02x", seg.Data[off])
			}
			writeLine(w, width, pc, seg.Data[off:off+n], text)
			off += n
		}
	}
	return nil
}

// addrWidth is how many hex digits objdump prints for addresses in a
// section ending at end: all eight unless leading zeros can go in groups of four.
func addrWidth(end uint32) int {
	s := fmt.Sprintf("%08x", end)
	z := 0
	for z < len(s) && s[z] == '0' {
		z++
	}
	if z == len(s) {
		return 8
	}
	if z != 0 {
		z = (z - 1) &^ 3
	}
	return 8 - z
}

func writeLine(w io.Writer, width int, pc uint16, b []byte, text string) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%*x:\t", width+0, pc)
	first := min(len(b), 4)
	for i := 0; i < 4; i++ {
		if i < first {
			fmt.Fprintf(&sb, "%02x ", b[i])
		} else {
			sb.WriteString("   ")
		}
	}
	sb.WriteString("\t")
	sb.WriteString(text)
	sb.WriteString("\n")
	if len(b) > 4 {
		fmt.Fprintf(&sb, "%*x:\t", width, pc+4)
		for _, x := range b[4:] {
			fmt.Fprintf(&sb, "%02x ", x)
		}
		sb.WriteString("\n")
	}
	_, _ = io.WriteString(w, sb.String())
}
