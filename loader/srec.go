package loader

// S-record address field sizes by record type; 0 marks a type that does not
// exist (S4).
var srecAddrLen = [10]int{0: 2, 1: 2, 2: 3, 3: 4, 5: 2, 6: 3, 7: 4, 8: 3, 9: 2}

// loadSRec reads Motorola S-records into img.
func loadSRec(name string, data []byte, img *Image) error {
	ri := &recordImage{file: name}
	dataRecords := 0
	termLine := 0
	for _, l := range splitLines(data) {
		t := l.text
		if termLine != 0 {
			return lineErr(name, l.n, "record after the termination record on line %d; is this two files joined together?", termLine)
		}
		if t[0] != 'S' {
			return lineErr(name, l.n, "line does not start with 'S': not an S-record")
		}
		if len(t) < 2 || t[1] < '0' || t[1] > '9' {
			return lineErr(name, l.n, "bad S-record type: want S0-S9 after the 'S'")
		}
		typ := int(t[1] - '0')
		if typ == 4 {
			return lineErr(name, l.n, "S4 is a reserved record type")
		}
		if len(t) < 4 {
			return lineErr(name, l.n, "truncated S%d record: no byte count", typ)
		}
		b, err := unhex(name, l.n, t[2:], 3)
		if err != nil {
			return err
		}
		count := int(b[0])
		if have := len(b) - 1; have != count {
			if have < count {
				return lineErr(name, l.n, "truncated S%d record: the count says %d bytes follow, the line has %d", typ, count, have)
			}
			return lineErr(name, l.n, "S%d record is longer than its count: the count says %d bytes follow, the line has %d", typ, count, have)
		}
		alen := srecAddrLen[typ]
		if count < alen+1 {
			return lineErr(name, l.n, "S%d record too short: the count %d leaves no room for a %d-byte address and the checksum", typ, count, alen)
		}
		var sum byte
		for _, c := range b[:len(b)-1] {
			sum += c
		}
		if want, got := ^sum, b[len(b)-1]; want != got {
			return lineErr(name, l.n, "bad checksum: the record says 0x%02X, its bytes need 0x%02X", got, want)
		}
		var addr uint32
		for _, c := range b[1 : 1+alen] {
			addr = addr<<8 | uint32(c)
		}
		payload := b[1+alen : len(b)-1]
		switch typ {
		case 0: // header: free text, ignored
		case 1, 2, 3:
			dataRecords++
			if err := ri.put(l.n, addr, payload); err != nil {
				return err
			}
		case 5, 6:
			if len(payload) != 0 {
				return lineErr(name, l.n, "S%d count record carries data", typ)
			}
			if int(addr) != dataRecords {
				return lineErr(name, l.n, "count record says %d data records, but %d precede it: records are missing or duplicated", addr, dataRecords)
			}
		case 7, 8, 9:
			if len(payload) != 0 {
				return lineErr(name, l.n, "S%d termination record carries data", typ)
			}
			if addr > 0xFFFF {
				return lineErr(name, l.n, "entry address 0x%X is beyond 0xFFFF", addr)
			}
			termLine = l.n
			if addr != 0 {
				img.FileEntry, img.HasFileEntry = uint16(addr), true
			}
		}
	}
	img.Segments = ri.segments()
	return nil
}
