package loader

// recordImage collects the data records of an S-record or Intel HEX file,
// remembering which line loaded each byte so that conflicts name both lines.
type recordImage struct {
	file string
	mem  [65536]byte
	line [65536]int32 // line that loaded the byte, 0 = not loaded
}

// put loads data at addr for the record on line. Writing a byte that an
// earlier record loaded with a different value is an error; rewriting the
// same value is not.
func (r *recordImage) put(line int, addr uint32, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	last := uint64(addr) + uint64(len(data)) - 1
	if last > 0xFFFF {
		return lineErr(r.file, line,
			"data at 0x%X-0x%X lies beyond 0xFFFF; a 68HC11 image must fit in the 64 KiB address space", addr, last)
	}
	for i, b := range data {
		a := int(addr) + i
		if prev := r.line[a]; prev != 0 && r.mem[a] != b {
			return lineErr(r.file, line,
				"record loads 0x%02X at 0x%04X, but line %d already loaded 0x%02X there (overlapping records with different data)",
				b, a, prev, r.mem[a])
		}
	}
	for i, b := range data {
		a := int(addr) + i
		r.mem[a] = b
		r.line[a] = int32(line)
	}
	return nil
}

// segments returns the loaded bytes as maximal runs of consecutive
// addresses.
func (r *recordImage) segments() []Segment {
	var segs []Segment
	for a := 0; a < len(r.line); {
		if r.line[a] == 0 {
			a++
			continue
		}
		b := a
		for b < len(r.line) && r.line[b] != 0 {
			b++
		}
		segs = append(segs, Segment{
			Addr: uint16(a),
			Data: append([]byte(nil), r.mem[a:b]...),
			Exec: true,
		})
		a = b
	}
	return segs
}

// textLine is one line of a text file with its 1-based number.
type textLine struct {
	n    int
	text []byte
}

// splitLines splits data at '\n', dropping a trailing '\r' and surrounding
// blanks from each line, and skipping blank lines.
func splitLines(data []byte) []textLine {
	var out []textLine
	n := 0
	for len(data) > 0 {
		n++
		var l []byte
		i := 0
		for i < len(data) && data[i] != '\n' {
			i++
		}
		l, data = data[:i], data[min(i+1, len(data)):]
		l = trimBlanks(l)
		if len(l) > 0 {
			out = append(out, textLine{n: n, text: l})
		}
	}
	return out
}

func trimBlanks(b []byte) []byte {
	isBlank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }
	for len(b) > 0 && isBlank(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isBlank(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// unhex decodes the hex digits of a record body; col is the 1-based column
// of body[0], used in error messages.
func unhex(file string, line int, body []byte, col int) ([]byte, error) {
	for i, c := range body {
		if _, ok := hexValue(c); !ok {
			return nil, lineErr(file, line, "bad hex digit %q at column %d", c, col+i)
		}
	}
	if len(body)%2 != 0 {
		return nil, lineErr(file, line, "odd number of hex digits (%d): the record is truncated or has a digit too many", len(body))
	}
	out := make([]byte, len(body)/2)
	for i := range out {
		hi, _ := hexValue(body[2*i])
		lo, _ := hexValue(body[2*i+1])
		out[i] = hi<<4 | lo
	}
	return out, nil
}

func hexValue(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}
