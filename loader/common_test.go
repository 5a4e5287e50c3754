package loader

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func testdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustLoad(t testing.TB, name string, opts Options) *Image {
	t.Helper()
	img, err := Load(filepath.Join("testdata", name), opts)
	if err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	return img
}

// srec builds one S-record line with a correct count and checksum.
func srec(typ int, addr uint32, data ...byte) string {
	alen := srecAddrLen[typ]
	b := []byte{byte(alen + len(data) + 1)}
	for i := alen - 1; i >= 0; i-- {
		b = append(b, byte(addr>>(8*i)))
	}
	b = append(b, data...)
	var sum byte
	for _, c := range b {
		sum += c
	}
	return fmt.Sprintf("S%d%X%02X", typ, b, ^sum)
}

// ihex builds one Intel HEX line with a correct count and checksum.
func ihex(typ byte, addr uint16, data ...byte) string {
	b := append([]byte{byte(len(data)), byte(addr >> 8), byte(addr), typ}, data...)
	var sum byte
	for _, c := range b {
		sum += c
	}
	return fmt.Sprintf(":%X%02X", b, -sum)
}

func lines(l ...string) []byte { return []byte(strings.Join(l, "\n") + "\n") }

// replaceLine replaces the 1-based line n of text.
func replaceLine(t testing.TB, text []byte, n int, with string) []byte {
	t.Helper()
	ls := strings.Split(string(text), "\n")
	if n < 1 || n > len(ls) {
		t.Fatalf("no line %d", n)
	}
	ls[n-1] = with
	return []byte(strings.Join(ls, "\n"))
}

// lineOf returns the 1-based line n of text.
func lineOf(t testing.TB, text []byte, n int) string {
	t.Helper()
	ls := strings.Split(string(text), "\n")
	if n < 1 || n > len(ls) {
		t.Fatalf("no line %d", n)
	}
	return strings.TrimSuffix(ls[n-1], "\r")
}

// elfSectionHeader returns the file offset of the header of the named
// section in an ELF32 big-endian image.
func elfSectionHeader(t testing.TB, data []byte, name string) int {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	shoff := int(binary.BigEndian.Uint32(data[32:]))
	shentsize := int(binary.BigEndian.Uint16(data[46:]))
	for i, s := range f.Sections {
		if s.Name == name {
			return shoff + i*shentsize
		}
	}
	t.Fatalf("no section %s", name)
	return 0
}

// setSectionAddr returns a copy of an ELF image with the named section's
// sh_addr changed.
func setSectionAddr(t testing.TB, data []byte, name string, addr uint32) []byte {
	t.Helper()
	out := append([]byte(nil), data...)
	binary.BigEndian.PutUint32(out[elfSectionHeader(t, data, name)+12:], addr)
	return out
}

// sectionRange returns the file range of the named section.
func sectionRange(t testing.TB, data []byte, name string) (off, size int) {
	t.Helper()
	h := elfSectionHeader(t, data, name)
	return int(binary.BigEndian.Uint32(data[h+16:])), int(binary.BigEndian.Uint32(data[h+20:]))
}

// checkSane asserts the invariants every loaded image keeps.
func checkSane(t testing.TB, img *Image) {
	t.Helper()
	end := -1
	for _, s := range img.Segments {
		if len(s.Data) == 0 {
			t.Fatalf("empty segment %+v", s)
		}
		if s.End() > 0x10000 {
			t.Fatalf("segment at 0x%04X of %d bytes runs past 0xFFFF", s.Addr, len(s.Data))
		}
		if int(s.Addr) < end {
			t.Fatalf("segments not sorted or overlapping at 0x%04X", s.Addr)
		}
		end = s.End()
	}
	for i := 1; i < len(img.Symbols); i++ {
		a, b := img.Symbols[i-1], img.Symbols[i]
		if a.Addr > b.Addr || a.Addr == b.Addr && a.Name > b.Name {
			t.Fatalf("symbols not sorted: %+v before %+v", a, b)
		}
	}
	next := 0
	for _, r := range img.Map.Regions {
		if int(r.Lo) < next || r.Hi < r.Lo {
			t.Fatalf("map regions not sorted or overlapping: %v", img.Map.Regions)
		}
		next = int(r.Hi) + 1
	}
	for i := 1; i < len(img.Lines); i++ {
		if img.Lines[i-1].Addr >= img.Lines[i].Addr {
			t.Fatalf("lines not sorted by address")
		}
	}
	if img.Format == FormatAuto {
		t.Fatalf("image format not decided")
	}
	m := img.Memory()
	for _, s := range img.Segments {
		if !bytes.Equal(m[s.Addr:s.End()], s.Data) {
			t.Fatalf("Memory() disagrees with segment at 0x%04X", s.Addr)
		}
	}
}
