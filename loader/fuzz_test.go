package loader

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// addSeeds adds the test images whose names end in one of exts.
func addSeeds(f *testing.F, exts ...string) {
	f.Helper()
	files, err := os.ReadDir("testdata")
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range files {
		for _, ext := range exts {
			if strings.HasSuffix(e.Name(), ext) {
				b, err := os.ReadFile(filepath.Join("testdata", e.Name()))
				if err != nil {
					f.Fatal(err)
				}
				f.Add(b)
			}
		}
	}
}

// fuzzLoad loads data and, when that succeeds, checks the image is sane.
// Entry points are not required, so that more inputs get past loading.
func fuzzLoad(t *testing.T, name string, data []byte, format Format) {
	for _, chip := range []string{"e9", "flat"} {
		// In auto mode some inputs get a base, so that raw binaries load too.
		img, err := LoadBytes(name, data, Options{Format: format, Chip: chip, AllowNoEntry: true,
			Base: 0x8000, BaseSet: format == FormatBin || len(data)%3 == 0})
		if err != nil {
			if _, ok := err.(*FormatError); !ok {
				t.Fatalf("error %v is %T, not *FormatError", err, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error has several lines: %q", err)
			}
			continue
		}
		checkSane(t, img)
		for _, s := range img.Segments {
			for i := range s.Data {
				a := s.Addr + uint16(i)
				if b, ok := img.Byte(a); !ok || b != s.Data[i] {
					t.Fatalf("Byte(0x%04X) disagrees with its segment", a)
				}
				// Every loaded byte is RAM or, outside RAM, ROM.
				if r, ok := img.Map.Lookup(a); !ok || r.Kind != RegionRAM && r.Kind != RegionROM {
					t.Fatalf("loaded byte at 0x%04X is mapped %v %v", a, r, ok)
				}
			}
		}
		for a := 0; a < 0x10000; a += 0x101 {
			img.SymbolAt(uint16(a))
			img.LineAt(uint16(a))
		}
		for _, s := range img.Symbols {
			if _, ok := img.Lookup(s.Name); !ok {
				t.Fatalf("Lookup(%q) fails for a listed symbol", s.Name)
			}
		}
	}
}

func FuzzSRec(f *testing.F) {
	addSeeds(f, ".s19")
	f.Add(lines(srec(1, 0xD000, 1, 2), srec(5, 1), srec(9, 0xD000)))
	f.Add(lines(srec(3, 0xFFFE, 0xD0, 0x00), srec(7, 0xD000)))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.s19", data, FormatSRec)
	})
}

func FuzzIHex(f *testing.F) {
	addSeeds(f, ".hex")
	f.Add(lines(ihex(2, 0, 0x0D, 0x00), ihex(0, 0x0000, 1, 2), ihex(5, 0, 0, 0, 0xD0, 0), ihex(1, 0)))
	f.Add(lines(ihex(4, 0, 0, 0), ihex(0, 0xFFFE, 0xD0, 0), ihex(3, 0, 0, 0, 0xD0, 0), ihex(1, 0)))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.hex", data, FormatIHex)
	})
}

func FuzzELF(f *testing.F) {
	addSeeds(f, ".elf")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.elf", data, FormatELF)
	})
}

func FuzzLoadBytes(f *testing.F) {
	addSeeds(f, ".elf", ".s19", ".hex", ".bin", ".nm")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f", data, FormatAuto)
	})
}

func FuzzSymbolFile(f *testing.F) {
	addSeeds(f, ".nm")
	f.Fuzz(func(t *testing.T, data []byte) {
		syms, _, err := parseNM("f.nm", data)
		if err != nil {
			if _, ok := err.(*FormatError); !ok {
				t.Fatalf("error %v is %T", err, err)
			}
			return
		}
		for _, s := range syms {
			if s.Name == "" {
				t.Fatalf("symbol without a name")
			}
		}
	})
}
