package listing

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// The tests run in the golden file's directory, because objdump prints the
// file name as it was given.
const (
	dir    = "../../../../isa/m68hc11/testdata"
	allops = "allops"
)

// normalize applies the one documented difference: objdump calls 0x00 bgnd.
func normalize(s string) string { return strings.ReplaceAll(s, "\tbgnd\n", "\ttest\n") }

func listing(t *testing.T, path string) string {
	img, err := loader.Load(path, loader.Options{AllowNoEntry: true})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func diff(t *testing.T, got, want string) {
	t.Helper()
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	bad := 0
	for i := 0; i < max(len(g), len(w)); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			t.Errorf("line %d:\n  hc11mc:  %q\n  objdump: %q", i+1, a, b)
			if bad++; bad > 10 {
				t.Fatal("too many differences")
			}
		}
	}
}

// TestGolden: the listing of allops.elf (every opcode in every form, built
// by the GNU assembler) equals the checked-in output of m68hc11-objdump -d.
func TestGolden(t *testing.T) {
	t.Chdir(dir)
	want, err := os.ReadFile(allops + ".objdump")
	if err != nil {
		t.Fatal(err)
	}
	diff(t, listing(t, allops+".elf"), normalize(string(want)))
}

// TestObjdumpNow re-runs objdump, so that the golden file cannot go stale.
func TestObjdumpNow(t *testing.T) {
	t.Chdir(dir)
	od, err := exec.LookPath("m68hc11-objdump")
	if err != nil {
		t.Skip("m68hc11-objdump not found (apt-get install binutils-m68hc1x, or make tools); the golden file still checks the listing")
	}
	out, err := exec.Command(od, "-d", allops+".elf").Output()
	if err != nil {
		t.Fatal(err)
	}
	golden, _ := os.ReadFile(allops + ".objdump")
	if string(out) != string(golden) {
		t.Error("allops.objdump is stale: run make -C isa/m68hc11/testdata")
	}
	diff(t, listing(t, allops+".elf"), normalize(string(out)))
}

// TestCoverage: the golden program exercises every row of the opcode table.
func TestCoverage(t *testing.T) {
	t.Chdir(dir)
	img, err := loader.Load(allops+".elf", loader.Options{AllowNoEntry: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]int]bool{}
	for _, seg := range img.Segments {
		if !seg.Exec {
			continue
		}
		for off := 0; off < len(seg.Data); {
			in, err := isa.Decode(seg.Data[off:])
			if err == nil {
				seen[[2]int{int(in.Page), int(in.Opcode)}] = true
			}
			off += max(int(in.Len), 1)
		}
	}
	missing := 0
	for _, p := range []isa.Page{isa.Page0, isa.Page18, isa.Page1A, isa.PageCD} {
		for op := 0; op < 256; op++ {
			if isa.Lookup(p, byte(op)).Defined() && !seen[[2]int{int(p), op}] {
				t.Errorf("opcode %#x/%#02x (%v) never appears in allops.s", p, op, isa.Lookup(p, byte(op)).Op)
				missing++
			}
		}
	}
	if len(seen) != isa.NumOpcodes {
		t.Errorf("saw %d distinct opcodes, the table has %d", len(seen), isa.NumOpcodes)
	}
}
