package check

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
)

// TestUncoveredCodeOnly: the procedures never entered are the function
// symbols and the global untyped labels in the code the image loads —
// not absolute symbols (equates, register offsets), labels in RAM or data
// objects, which an S-record's symbol file lists by the hundred.
func TestUncoveredCodeOnly(t *testing.T) {
	img, err := loader.Load(filepath.Join("..", "testdata", "firmware", "monitor.s19"), loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	img.Symbols = append(img.Symbols,
		loader.Symbol{Name: "REGS", Addr: 0x1000, Kind: loader.SymNone, Global: true, Abs: true},
		loader.Symbol{Name: "ramvar", Addr: 0x0040, Kind: loader.SymNone, Global: true},
		loader.Symbol{Name: "BAUD9600", Addr: 0xD030, Kind: loader.SymNone, Global: true, Abs: true},
		loader.Symbol{Name: "table", Addr: 0xD040, Kind: loader.SymObject, Global: true},
		loader.Symbol{Name: "far", Addr: 0x8000, Kind: loader.SymNone, Global: true},
		loader.Symbol{Name: "entry", Addr: 0xD000, Kind: loader.SymNone, Global: true},
		loader.Symbol{Name: "fn", Addr: 0xD010, Kind: loader.SymFunc},
		loader.Symbol{Name: "reached", Addr: 0xD020, Kind: loader.SymFunc},
	)
	got := Uncovered(img, map[uint16]bool{0xD020: true})
	if want := []string{"entry", "fn"}; !slices.Equal(got, want) {
		t.Errorf("procedures never entered: %v, want %v", got, want)
	}
}
