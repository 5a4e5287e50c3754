package loader

// Intel HEX record types.
const (
	ihexData         = 0x00
	ihexEOF          = 0x01
	ihexSegment      = 0x02 // extended segment address: base = value << 4
	ihexStartSegment = 0x03 // start segment address CS:IP
	ihexLinear       = 0x04 // extended linear address: base = value << 16
	ihexStartLinear  = 0x05 // start linear address (32-bit EIP)
)

// loadIHex reads Intel HEX into img.
func loadIHex(name string, data []byte, img *Image) error {
	ri := &recordImage{file: name}
	var base uint32
	eofLine, entryLine, lastLine := 0, 0, 0
	for _, l := range splitLines(data) {
		t := l.text
		lastLine = l.n
		if eofLine != 0 {
			if len(t) == 1 && t[0] == 0x1A { // MS-DOS end-of-file mark
				continue
			}
			return lineErr(name, l.n, "record after the end-of-file record on line %d; is this two files joined together?", eofLine)
		}
		if t[0] != ':' {
			return lineErr(name, l.n, "line does not start with ':': not an Intel HEX record")
		}
		b, err := unhex(name, l.n, t[1:], 2)
		if err != nil {
			return err
		}
		if len(b) < 5 {
			return lineErr(name, l.n, "truncated record: %d bytes, a record has at least 5 (count, address, type, checksum)", len(b))
		}
		count := int(b[0])
		if have := len(b) - 5; have != count {
			if have < count {
				return lineErr(name, l.n, "truncated record: the count says %d data bytes, the line has %d", count, have)
			}
			return lineErr(name, l.n, "record is longer than its count: the count says %d data bytes, the line has %d", count, have)
		}
		var sum byte
		for _, c := range b {
			sum += c
		}
		if sum != 0 {
			got := b[len(b)-1]
			return lineErr(name, l.n, "bad checksum: the record says 0x%02X, its bytes need 0x%02X", got, got-sum)
		}
		offset := uint32(b[1])<<8 | uint32(b[2])
		typ := b[3]
		payload := b[4 : len(b)-1]
		wantLen := func(n int) error {
			if count != n {
				return lineErr(name, l.n, "record type %02X must carry %d data bytes, not %d", typ, n, count)
			}
			return nil
		}
		word := func() uint32 {
			var v uint32
			for _, c := range payload {
				v = v<<8 | uint32(c)
			}
			return v
		}
		switch typ {
		case ihexData:
			if err := ri.put(l.n, base+offset, payload); err != nil {
				return err
			}
		case ihexEOF:
			if err := wantLen(0); err != nil {
				return err
			}
			eofLine = l.n
		case ihexSegment:
			if err := wantLen(2); err != nil {
				return err
			}
			base = word() << 4
		case ihexLinear:
			if err := wantLen(2); err != nil {
				return err
			}
			base = word() << 16
		case ihexStartSegment, ihexStartLinear:
			if err := wantLen(4); err != nil {
				return err
			}
			v := word()
			entry := v // 05: a linear address
			if typ == ihexStartSegment {
				entry = ((v >> 16) << 4) + (v & 0xFFFF) // 03: CS:IP, linear CS*16+IP
			}
			if entry > 0xFFFF {
				return lineErr(name, l.n, "start address 0x%X is beyond 0xFFFF", entry)
			}
			if entryLine != 0 && uint32(img.FileEntry) != entry {
				return lineErr(name, l.n, "start address 0x%04X differs from 0x%04X given on line %d", entry, img.FileEntry, entryLine)
			}
			entryLine = l.n
			if entry != 0 {
				img.FileEntry, img.HasFileEntry = uint16(entry), true
			}
		default:
			return lineErr(name, l.n, "unknown record type %02X: Intel HEX has types 00-05", typ)
		}
	}
	if eofLine == 0 {
		return lineErr(name, max(lastLine, 1), "no end-of-file record (:00000001FF): the file is truncated")
	}
	img.Segments = ri.segments()
	return nil
}
