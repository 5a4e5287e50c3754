package loader

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestBadInput checks that each kind of bad file is a *FormatError that
// names the file and the position, with a message that says what is wrong.
func TestBadInput(t *testing.T) {
	s19 := testdata(t, "prog.s19")
	hex := testdata(t, "prog.hex")
	elfData := testdata(t, "prog.elf")
	bin := testdata(t, "prog.bin")
	withBase := Options{Base: 0xD000, BaseSet: true}

	s19Line3 := lineOf(t, s19, 3) // S113D000..., a full data record
	hexLine2 := lineOf(t, hex, 2) // :10D00000..., a full data record

	patchELF := func(off int, v ...byte) []byte {
		out := append([]byte(nil), elfData...)
		copy(out[off:], v)
		return out
	}
	be16 := func(v uint16) []byte { return binary.BigEndian.AppendUint16(nil, v) }
	dataHdr := elfSectionHeader(t, elfData, ".rodata")

	cases := []struct {
		name string
		file string
		data []byte
		opts Options
		want string // the whole message, or a prefix of it ending in "..."
		line int
		off  int64
	}{
		// S-records.
		{name: "s19 truncated record", file: "t.s19", data: replaceLine(t, s19, 3, s19Line3[:20]),
			want: "t.s19:3: truncated S1 record: the count says 19 bytes follow, the line has 8", line: 3},
		{name: "s19 truncated mid-byte", file: "t.s19", data: replaceLine(t, s19, 3, s19Line3[:21]),
			want: "t.s19:3: odd number of hex digits (19): the record is truncated or has a digit too many", line: 3},
		{name: "s19 longer than count", file: "t.s19", data: replaceLine(t, s19, 3, s19Line3+"00"),
			want: "t.s19:3: S1 record is longer than its count: the count says 19 bytes follow, the line has 20", line: 3},
		{name: "s19 bad checksum", file: "t.s19", data: replaceLine(t, s19, 3, s19Line3[:len(s19Line3)-2]+"00"),
			want: "t.s19:3: bad checksum: the record says 0x00, its bytes need 0xE3", line: 3},
		{name: "s19 bad hex digit", file: "t.s19", data: replaceLine(t, s19, 3, s19Line3[:10]+"G"+s19Line3[11:]),
			want: "t.s19:3: bad hex digit 'G' at column 11", line: 3},
		{name: "s19 missing S", file: "t.s19", data: replaceLine(t, s19, 4, "X"+lineOf(t, s19, 4)[1:]),
			want: "t.s19:4: line does not start with 'S': not an S-record", line: 4},
		{name: "s19 bad type", file: "t.s19", data: replaceLine(t, s19, 4, "SX"+lineOf(t, s19, 4)[2:]),
			want: "t.s19:4: bad S-record type: want S0-S9 after the 'S'", line: 4},
		{name: "s19 S4", file: "t.s19", data: lines(srec(1, 0xD000, 1), "S4030000FC"),
			want: "t.s19:2: S4 is a reserved record type", line: 2},
		{name: "s19 no count byte", file: "t.s19", data: lines(srec(1, 0xD000, 1), "S1"),
			want: "t.s19:2: truncated S1 record: no byte count", line: 2},
		{name: "s19 count too small", file: "t.s19", data: lines("S1020000"),
			want: "t.s19:1: S1 record too short: the count 2 leaves no room for a 2-byte address and the checksum", line: 1},
		{name: "s19 bad count record", file: "t.s19",
			data: lines(srec(1, 0xD000, 1), srec(1, 0xD001, 2), srec(5, 3), srec(9, 0xD000)),
			want: "t.s19:3: count record says 3 data records, but 2 precede it: records are missing or duplicated", line: 3},
		{name: "s19 S6 count record", file: "t.s19",
			data: lines(srec(1, 0xD000, 1), srec(6, 0x010000), srec(9, 0xD000)),
			want: "t.s19:2: count record says 65536 data records, but 1 precede it: records are missing or duplicated", line: 2},
		{name: "s19 beyond 0xFFFF", file: "t.s19", data: lines(srec(1, 0xD000, 1), srec(2, 0x010000, 1, 2), srec(9, 0xD000)),
			want: "t.s19:2: data at 0x10000-0x10001 lies beyond 0xFFFF; a 68HC11 image must fit in the 64 KiB address space", line: 2},
		{name: "s19 runs past 0xFFFF", file: "t.s19", data: lines(srec(1, 0xFFFF, 1, 2)),
			want: "t.s19:1: data at 0xFFFF-0x10000 lies beyond 0xFFFF; a 68HC11 image must fit in the 64 KiB address space", line: 1},
		{name: "s19 entry beyond 0xFFFF", file: "t.s19", data: lines(srec(1, 0xD000, 1), srec(7, 0x12345678)),
			want: "t.s19:2: entry address 0x12345678 is beyond 0xFFFF", line: 2},
		{name: "s19 overlapping records", file: "t.s19",
			data: lines(srec(1, 0xD000, 1, 2, 3), srec(1, 0xD001, 2, 9), srec(9, 0xD000)),
			want: "t.s19:2: record loads 0x09 at 0xD002, but line 1 already loaded 0x03 there (overlapping records with different data)", line: 2},
		{name: "s19 record after S9", file: "t.s19", data: append(append([]byte(nil), s19...), lines(srec(1, 0x0100, 1))...),
			want: "t.s19:12: record after the termination record on line 11; is this two files joined together?", line: 12},
		{name: "s19 data in count record", file: "t.s19", data: lines(srec(5, 0, 1)),
			want: "t.s19:1: S5 count record carries data", line: 1},
		{name: "s19 no entry", file: "t.s19", data: lines(srec(1, 0xD000, 0x01, 0x20, 0xFE)),
			want: "t.s19: no entry point: the image loads no reset vector at 0xFFFE and has no entry address in an S7/S8/S9 record; pass --entry SYM|ADDR", off: -1},

		// Intel HEX.
		{name: "ihex bad checksum", file: "t.hex", data: replaceLine(t, hex, 2, hexLine2[:len(hexLine2)-2]+"00"),
			want: "t.hex:2: bad checksum: the record says 0x00, its bytes need 0xE7", line: 2},
		{name: "ihex truncated record", file: "t.hex", data: replaceLine(t, hex, 2, hexLine2[:21]),
			want: "t.hex:2: truncated record: the count says 16 data bytes, the line has 5", line: 2},
		{name: "ihex too short", file: "t.hex", data: lines(":0000"),
			want: "t.hex:1: truncated record: 2 bytes, a record has at least 5 (count, address, type, checksum)", line: 1},
		{name: "ihex missing colon", file: "t.hex", data: replaceLine(t, hex, 2, hexLine2[1:]),
			want: "t.hex:2: line does not start with ':': not an Intel HEX record", line: 2},
		{name: "ihex missing EOF", file: "t.hex", data: lines(ihex(0, 0xD000, 1), ihex(3, 0, 0, 0, 0xD0, 0)),
			want: "t.hex:2: no end-of-file record (:00000001FF): the file is truncated", line: 2},
		{name: "ihex record after EOF", file: "t.hex", data: append(append([]byte(nil), hex...), lines(ihex(0, 0x100, 1))...),
			want: "t.hex:12: record after the end-of-file record on line 11; is this two files joined together?", line: 12},
		{name: "ihex unknown type", file: "t.hex", data: lines(ihex(6, 0, 1), ihex(1, 0)),
			want: "t.hex:1: unknown record type 06: Intel HEX has types 00-05", line: 1},
		{name: "ihex bad EOF length", file: "t.hex", data: lines(ihex(1, 0, 0)),
			want: "t.hex:1: record type 01 must carry 0 data bytes, not 1", line: 1},
		{name: "ihex linear beyond 0xFFFF", file: "t.hex", data: lines(ihex(4, 0, 0, 1), ihex(0, 0, 1), ihex(1, 0)),
			want: "t.hex:2: data at 0x10000-0x10000 lies beyond 0xFFFF; a 68HC11 image must fit in the 64 KiB address space", line: 2},
		{name: "ihex segment beyond 0xFFFF", file: "t.hex", data: lines(ihex(2, 0, 0x0F, 0xFF), ihex(0, 0x10, 1), ihex(1, 0)),
			want: "t.hex:2: data at 0x10000-0x10000 lies beyond 0xFFFF; a 68HC11 image must fit in the 64 KiB address space", line: 2},
		{name: "ihex start beyond 0xFFFF", file: "t.hex", data: lines(ihex(0, 0xD000, 1), ihex(3, 0, 0xF0, 0, 0x10, 0), ihex(1, 0)),
			want: "t.hex:2: start address 0xF1000 is beyond 0xFFFF", line: 2},
		{name: "ihex conflicting start", file: "t.hex",
			data: lines(ihex(0, 0xD000, 1), ihex(5, 0, 0, 0, 0xD0, 0), ihex(5, 0, 0, 0, 0xD0, 1), ihex(1, 0)),
			want: "t.hex:3: start address 0xD001 differs from 0xD000 given on line 2", line: 3},
		{name: "ihex overlapping records", file: "t.hex",
			data: lines(ihex(0, 0xD000, 1, 2), ihex(0, 0xD000, 7), ihex(1, 0)),
			want: "t.hex:2: record loads 0x07 at 0xD000, but line 1 already loaded 0x01 there (overlapping records with different data)", line: 2},
		{name: "ihex no entry", file: "t.hex", data: lines(ihex(0, 0xD000, 1), ihex(1, 0)),
			want: "t.hex: no entry point: the image loads no reset vector at 0xFFFE and has no start address record (type 03 or 05); pass --entry SYM|ADDR", off: -1},

		// ELF.
		{name: "elf other machine", file: "t.elf", data: patchELF(offMachine, be16(uint16(3))...),
			want: "t.elf: offset 0x12: ELF file is for machine EM_386 (3), not the 68HC11 (EM_68HC11, 70)", off: 0x12},
		{name: "elf 68HC12", file: "t.elf", data: patchELF(offMachine, be16(53)...),
			want: "t.elf: offset 0x12: ELF file is for machine EM_68HC12 (53), not the 68HC11 (EM_68HC11, 70)", off: 0x12},
		{name: "elf 64-bit", file: "t.elf", data: patchELF(offClass, 2),
			want: "t.elf: offset 0x4: 64-bit ELF file: 68HC11 firmware is ELF32 (as m68hc11-ld writes it)", off: 4},
		{name: "elf little-endian", file: "t.elf", data: patchELF(offData, 1),
			want: "t.elf: offset 0x5: little-endian ELF file: 68HC11 ELF files are big-endian; is this firmware for another machine?", off: 5},
		{name: "elf relocatable", file: "t.o", data: patchELF(offType, 0, 1),
			want: "t.o: offset 0x10: relocatable object file, not an executable: link it with m68hc11-ld first", off: 0x10},
		{name: "elf truncated header", file: "t.elf", data: elfData[:40],
			want: "t.elf: offset 0x28: truncated ELF header: the file has 40 bytes, an ELF32 header needs 52", off: 0x28},
		{name: "elf truncated", file: "t.elf", data: elfData[:0x1800],
			want: "t.elf: offset 0x1800: truncated ELF file: a header or table runs past the end of the file", off: 0x1800},
		{name: "elf bad header field", file: "t.elf", data: patchELF(offShentsize, 0, 7),
			want: "t.elf: malformed ELF file: invalid ELF shentsize...", off: -1},
		{name: "elf forced on S-records", file: "t.s19", data: s19, opts: Options{Format: FormatELF},
			want: `t.s19: offset 0x0: not an ELF file: it does not start with \x7fELF`, off: 0},
		{name: "elf section beyond 0xFFFF", file: "t.elf", data: setSectionAddr(t, elfData, ".rodata", 0xFFFFE),
			want: "t.elf: offset 0x" + hex32(dataHdr) + ": section .rodata at 0xFFFFE-0x100002 lies beyond 0xFFFF; the 68HC11 addresses 64 KiB", off: int64(dataHdr)},
		{name: "elf overlapping sections", file: "t.elf", data: setSectionAddr(t, elfData, ".rodata", 0xD020),
			want: "t.elf: offset 0x" + hex32(dataHdr) + ": section .rodata (0xD020-0xD024) overlaps section .text (0xD000-0xD023)", off: int64(dataHdr)},
		{name: "elf entry beyond 0xFFFF", file: "t.elf", data: patchELF(offEntry, 0, 1, 0, 0),
			want: "t.elf: offset 0x18: entry point 0x10000 is beyond 0xFFFF", off: 0x18},
		{name: "elf section data past the end", file: "t.elf",
			data: func() []byte {
				out := append([]byte(nil), elfData...)
				binary.BigEndian.PutUint32(out[dataHdr+16:], uint32(len(out)-2))
				return out
			}(),
			want: "t.elf: offset 0x" + hex32(dataHdr) + ": cannot read section .rodata: unexpected EOF (is the file truncated?)", off: int64(dataHdr)},
		{name: "elf no entry", file: "t.elf",
			data: func() []byte {
				out := patchELF(offEntry, 0, 0, 0, 0)
				// Shorten .vectors by the reset vector.
				binary.BigEndian.PutUint32(out[elfSectionHeader(t, out, ".vectors")+20:], 0x3E)
				return out
			}(),
			want: "t.elf: no entry point: the image loads no reset vector at 0xFFFE and has no ELF entry; pass --entry SYM|ADDR", off: -1},

		// Raw binaries and detection.
		{name: "bin without base", file: "t.bin", data: bin,
			want: "t.bin: offset 0x0: raw binary needs --base ADDR, the address its first byte loads at", off: 0},
		{name: "bin past 0xFFFF", file: "t.bin", data: bin, opts: Options{Base: 0xF000, BaseSet: true},
			want: "t.bin: offset 0x1000: raw binary of 12288 bytes loaded at 0xF000 runs past 0xFFFF: the byte at this offset would land at 0x10000; check --base", off: 0x1000},
		{name: "bin no entry", file: "text.bin", data: testdata(t, "text.bin"), opts: withBase,
			want: "text.bin: no entry point: the image loads no reset vector at 0xFFFE and has no entry address (a raw binary has none); pass --entry SYM|ADDR", off: -1},
		{name: "empty file", file: "t.s19", data: nil,
			want: "t.s19: offset 0x0: file is empty", off: 0},
		{name: "empty with format", file: "t.elf", data: []byte{}, opts: Options{Format: FormatELF},
			want: "t.elf: offset 0x0: file is empty", off: 0},
		{name: "random bytes", file: "noise.dat", data: []byte{0x9c, 0x11, 0xfe, 0x00, 0x42, 0x37},
			want: "noise.dat: offset 0x0: cannot tell the format of noise.dat (not ELF, S-records or Intel HEX); pass --format, and --base ADDR for a raw binary", off: 0},
		{name: "text that is no format", file: "notes.txt", data: []byte("hello\n"),
			want: "notes.txt: offset 0x0: cannot tell the format of notes.txt (not ELF, S-records or Intel HEX); pass --format, and --base ADDR for a raw binary", off: 0},
		{name: "s19 forced on ELF", file: "t.elf", data: elfData, opts: Options{Format: FormatSRec},
			want: "t.elf:1: line does not start with 'S': not an S-record", line: 1},
		{name: "ihex forced on S-records", file: "t.s19", data: s19, opts: Options{Format: FormatIHex},
			want: "t.s19:1: line does not start with ':': not an Intel HEX record", line: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			img, err := LoadBytes(c.file, c.data, c.opts)
			if err == nil {
				t.Fatalf("loaded %d segments, want error %q", len(img.Segments), c.want)
			}
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is %T, not *FormatError", err, err)
			}
			if w, ok := strings.CutSuffix(c.want, "..."); ok && !strings.HasPrefix(err.Error(), w) || !ok && err.Error() != c.want {
				t.Errorf("error\n  %s\nwant\n  %s", err, c.want)
			}
			if fe.File != c.file || fe.Line != c.line || (c.line == 0 && fe.Offset != c.off) {
				t.Errorf("position %s:%d offset %d, want %s:%d offset %d", fe.File, fe.Line, fe.Offset, c.file, c.line, c.off)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("message has several lines")
			}
		})
	}
}

func hex32(v int) string { return fmt.Sprintf("%x", v) }

// TestTolerated lists odd but valid input that loads.
func TestTolerated(t *testing.T) {
	s19 := testdata(t, "prog.s19")
	hex := testdata(t, "prog.hex")
	crlf := func(b []byte) []byte { return []byte(strings.ReplaceAll(string(b), "\n", "\r\n")) }
	cases := []struct {
		name string
		file string
		data []byte
	}{
		{"s19 CRLF", "t.s19", crlf(s19)},
		{"s19 blank lines and spaces", "t.s19", []byte("\n\n  " + strings.ReplaceAll(string(s19), "\n", "  \n\n"))},
		{"s19 lower-case hex", "t.s19", []byte(strings.ReplaceAll(strings.ToLower(string(s19)), "s", "S"))},
		{"s19 repeated record", "t.s19", append(append([]byte(nil), lineOf(t, s19, 3)+"\n"...), s19...)},
		{"s19 correct count record", "t.s19", []byte(strings.Replace(string(s19), "S903", srec(5, 9)+"\nS903", 1))},
		{"ihex CRLF", "t.hex", crlf(hex)},
		{"ihex DOS end-of-file mark", "t.hex", append(append([]byte(nil), hex...), 0x1A, '\n')},
		{"ihex blank lines after EOF", "t.hex", append(append([]byte(nil), hex...), "\n\n  \n"...)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			img, err := LoadBytes(c.file, c.data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkSane(t, img)
			if img.Entry != progStart {
				t.Errorf("Entry = 0x%04X", img.Entry)
			}
		})
	}
}
