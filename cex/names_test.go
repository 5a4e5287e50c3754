package cex

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
)

// TestSymAddrOutsideCode: an address in the image's code is named after
// the code label before it; one outside the code and the loaded bytes
// (a PC that ran off into unmapped memory) is plain hex, not an offset
// from some unrelated label or equate far below it.
func TestSymAddrOutsideCode(t *testing.T) {
	img, err := loader.Load(filepath.Join("..", "testdata", "firmware", "monitor.elf"), loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	img.Symbols = append([]loader.Symbol{{Name: "stack_top", Addr: 0x003C, Kind: loader.SymNone, Global: true}}, img.Symbols...)
	if got := SymAddr(img, 0x4135); got != "0x4135" {
		t.Errorf("SymAddr(0x4135) = %q, want plain hex", got)
	}
	if got := SymAddr(img, 0xD001); got != "0xD001 <_start+0x1>" {
		t.Errorf("SymAddr(0xD001) = %q, want after _start", got)
	}
}

// The bytes lost to overruns are counted in words: "1 byte", "2 bytes".
func TestLostToOverruns(t *testing.T) {
	for n, want := range map[int]string{1: " and 1 byte lost to overruns", 2: " and 2 bytes lost to overruns", 304: " and 304 bytes lost to overruns"} {
		if got := lostToOverruns(n); got != want {
			t.Errorf("lostToOverruns(%d) = %q, want %q", n, got, want)
		}
	}
}

// The drawing names a code address as the text does: with the text's
// name where SymAddr gives one, in hex alone where it does not (a PC in
// RAM far past an absolute symbol is not "<COPRST+0x380b>"), for every
// address of the bundled images.
func TestSVGNamesAsText(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/firmware/*.elf")
	if len(paths) == 0 {
		t.Fatal("no images")
	}
	mismatches := 0
	for _, p := range paths {
		img, err := loader.Load(p, loader.Options{})
		if err != nil {
			continue
		}
		b := &svgBuilder{img: img}
		for a := 0; a < 0x10000; a++ {
			text := SymAddr(img, uint16(a))
			want := text
			if i := strings.IndexByte(text, ' '); i >= 0 {
				want = text[i+1:]
			}
			if got := b.sym(uint16(a)); got != want {
				if mismatches++; mismatches <= 5 {
					t.Errorf("%s: 0x%04X drawn %s, written %s", p, a, got, text)
				}
			}
		}
	}
	if mismatches > 5 {
		t.Errorf("%d more", mismatches-5)
	}
}
