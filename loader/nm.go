package loader

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// readSymbolFile reads a symbol side file in the output format of
// m68hc11-nm and returns its defined symbols.
func readSymbolFile(path string) ([]Symbol, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("reading symbol file: %w", err)
	}
	return parseNM(path, data)
}

// parseNM parses m68hc11-nm output: "VALUE TYPE NAME" lines, or
// "VALUE SIZE TYPE NAME" from nm -S. Lines with only a type and a name
// (undefined symbols), "file.o:" headings and blank lines are skipped;
// fields after the name (nm -l) are ignored. Values that do not fit in 16
// bits are skipped with a warning.
func parseNM(path string, data []byte) ([]Symbol, []string, error) {
	var syms []Symbol
	var warnings []string
	for _, l := range splitLines(data) {
		f := strings.Fields(string(l.text))
		if len(f) == 1 && strings.HasSuffix(f[0], ":") {
			continue // "file.o:" heading of nm on several files
		}
		if len(f) == 2 && isNMType(f[0]) {
			continue // undefined: no value
		}
		var value, typ, symName, size string
		switch {
		case len(f) >= 3 && isNMType(f[1]):
			value, typ, symName = f[0], f[1], f[2]
		case len(f) >= 4 && isNMType(f[2]):
			value, size, typ, symName = f[0], f[1], f[2], f[3]
		default:
			return nil, nil, lineErr(path, l.n, "want \"VALUE TYPE NAME\" as m68hc11-nm prints it, got %q", string(l.text))
		}
		v, err := strconv.ParseUint(value, 16, 64)
		if err != nil {
			return nil, nil, lineErr(path, l.n, "bad symbol value %q: want hexadecimal digits", value)
		}
		var sz uint64
		if size != "" {
			if sz, err = strconv.ParseUint(size, 16, 32); err != nil {
				return nil, nil, lineErr(path, l.n, "bad symbol size %q: want hexadecimal digits", size)
			}
		}
		t := typ[0]
		if t == 'U' || t == 'u' {
			continue
		}
		if v > 0xFFFF {
			warnings = append(warnings, fmt.Sprintf("%s:%d: skipped symbol %s: value 0x%X does not fit in 16 bits", path, l.n, symName, v))
			continue
		}
		var kind SymKind
		switch t {
		case 'T', 't':
			kind = SymFunc
		case 'D', 'd', 'B', 'b', 'R', 'r', 'G', 'g', 'S', 's', 'C', 'c', 'V', 'v':
			kind = SymObject
		default:
			kind = SymNone
		}
		syms = append(syms, Symbol{
			Name:   symName,
			Addr:   uint16(v),
			Size:   uint32(sz),
			Kind:   kind,
			Global: t >= 'A' && t <= 'Z',
			Abs:    t == 'A' || t == 'a',
		})
	}
	return syms, warnings, nil
}

// isNMType reports whether s is an nm symbol type: one letter, or '?' or '-'.
func isNMType(s string) bool {
	if len(s) != 1 {
		return false
	}
	c := s[0]
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '?' || c == '-'
}
