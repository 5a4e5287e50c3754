package m68hc11

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var objdumpFlag = flag.Bool("objdump", false, "run the long differential test against m68hc11-objdump")

// objdumpPath finds m68hc11-objdump or skips the test, saying how to get it.
func objdumpPath(t *testing.T) string {
	p, err := exec.LookPath("m68hc11-objdump")
	if err != nil {
		t.Skip("m68hc11-objdump not found: install the GNU binutils for the 68HC11 " +
			"(Debian: apt-get install binutils-m68hc1x, or `make tools`)")
	}
	return p
}

// TestObjdumpDifferential decodes every first byte on every page, each with
// several operand patterns, and compares length and text with
// `m68hc11-objdump -D -b binary -m m68hc11` on the same bytes. The two must
// agree on every defined opcode and on which opcodes are undefined.
//
//	go test ./isa/m68hc11 -run ObjdumpDifferential -objdump -v
func TestObjdumpDifferential(t *testing.T) {
	if !*objdumpFlag || testing.Short() {
		t.Skip("long differential test: run with -objdump")
	}
	objdump := objdumpPath(t)
	const base = 0x1000
	operands := [][]byte{
		{0x00, 0x00, 0x00},
		{0xff, 0xff, 0xff},
		{0x80, 0x7f, 0x80},
		{0x7f, 0x80, 0x7f},
		{0x12, 0x34, 0x56},
		{0x01, 0xfe, 0x02},
	}
	var stream []byte
	want := map[int]string{} // offset → our text
	lens := map[int]int{}
	for _, prefix := range []byte{0, 0x18, 0x1a, 0xcd} {
		for op := 0; op < 256; op++ {
			for _, ops := range operands {
				var b []byte
				if prefix != 0 {
					b = append(b, prefix)
				}
				b = append(b, byte(op))
				b = append(b, ops...)
				in, err := Decode(b)
				if err != nil && in.Len == 0 {
					t.Fatalf("% x: %v", b, err)
				}
				off := len(stream)
				want[off] = GNUSyntax(in, uint16(base+off), nil)
				lens[off] = int(in.Len)
				stream = append(stream, b[:in.Len]...)
			}
		}
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "all.bin")
	if err := os.WriteFile(bin, stream, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(objdump, "-D", "-b", "binary", "-m", "m68hc11",
		fmt.Sprintf("--adjust-vma=%#x", base), bin).Output()
	if err != nil {
		t.Fatalf("objdump: %v", err)
	}
	got := map[int]string{}
	gotLen := map[int]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	last := -1
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 2 || !strings.HasSuffix(f[0], ":") {
			continue
		}
		addr, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(f[0], ":")), 16, 32)
		if err != nil {
			continue
		}
		off := int(addr) - base
		nb := len(strings.Fields(f[1]))
		if len(f) < 3 { // continuation line with the rest of a long instruction
			gotLen[last] += nb
			continue
		}
		text := strings.Join(f[2:], "\t")
		text = strings.TrimRight(text, " ")
		text = strings.ReplaceAll(text, "0x0x", "0x") // objdump's doubled prefix without symbols
		if text == "bgnd" {
			text = "test" // the 68HC11's name for 0x00; see the package doc
		}
		got[off] = text
		gotLen[off] = nb
		last = off
	}
	bad := 0
	for off, w := range want {
		g, ok := got[off]
		switch {
		case !ok:
			t.Errorf("%#x (% x): objdump has no instruction here (lengths disagree before this point)", base+off, stream[off:off+lens[off]])
		case g != w || gotLen[off] != lens[off]:
			t.Errorf("%#x (% x): objdump %q (%d bytes), Decode %q (%d bytes)", base+off, stream[off:off+lens[off]], g, gotLen[off], w, lens[off])
		default:
			continue
		}
		if bad++; bad > 30 {
			t.Fatal("too many differences")
		}
	}
	t.Logf("%d instructions compared", len(want))
}
