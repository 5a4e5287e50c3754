package cex

import (
	"path/filepath"
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
