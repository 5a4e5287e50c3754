package sim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
)

// srec builds Motorola S-records (S1 data, S9 end) for the given chunks.
func srec(chunks map[uint16][]byte) []byte {
	var b strings.Builder
	rec := func(typ byte, addr uint16, data []byte) {
		n := len(data) + 3
		sum := n + int(addr>>8) + int(addr&0xff)
		fmt.Fprintf(&b, "S%c%02X%04X", typ, n, addr)
		for _, d := range data {
			fmt.Fprintf(&b, "%02X", d)
			sum += int(d)
		}
		fmt.Fprintf(&b, "%02X\n", ^sum&0xff)
	}
	for addr, data := range chunks {
		for i := 0; i < len(data); i += 16 {
			rec('1', addr+uint16(i), data[i:min(i+16, len(data))])
		}
	}
	rec('9', 0, nil)
	return []byte(b.String())
}

// testImage loads code at 0xD000 with the reset vector pointing there, plus
// any extra chunks (vectors, data), on the default E9 memory map.
func testImage(t testing.TB, code []byte, extra map[uint16][]byte, syms map[string]uint16) *loader.Image {
	t.Helper()
	chunks := map[uint16][]byte{0xD000: code, 0xFFFE: {0xD0, 0x00}}
	for a, d := range extra {
		chunks[a] = d
	}
	img, err := loader.LoadBytes("test.s19", srec(chunks), loader.Options{Hooks: syms})
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// testMachine builds a machine for code without batches (Config.Unbatched):
// the tests that use it look at the transitions between scheduling
// points one by one. batch_test.go tests the batches.
func testMachine(t testing.TB, code []byte, extra map[uint16][]byte, syms map[string]uint16, cfg Config) *Machine {
	t.Helper()
	img := testImage(t, code, extra, syms)
	cfg.Entry = img.Entry
	cfg.Unbatched = true
	m, err := NewMachine(img, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
