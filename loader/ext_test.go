package loader

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRebuild rebuilds the test images with the GNU tools and checks that the
// checked-in ones match, so that the sources and the images cannot drift
// apart. It is skipped with -short and where the tools are missing.
func TestRebuild(t *testing.T) {
	if testing.Short() {
		t.Skip("rebuilding test images is skipped with -short")
	}
	for _, tool := range []string{"make", "m68hc11-as", "m68hc11-ld", "m68hc11-objcopy", "m68hc11-nm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found (Debian package binutils-m68hc1x); the checked-in images are used as they are", tool)
		}
	}
	// The Makefile finds the shared linker script at ../../testdata/hc11.ld.
	hc11ld := filepath.Join("..", "testdata", "hc11.ld")
	if _, err := os.Stat(hc11ld); err != nil {
		t.Skipf("the shared linker script is missing: %v", err)
	}
	root := t.TempDir()
	dir := filepath.Join(root, "loader", "testdata")
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(hc11ld, filepath.Join(root, "testdata", "hc11.ld"))
	for _, f := range []string{"Makefile", "prog.s", "lma.s", "lma.ld"} {
		copyFile(filepath.Join("testdata", f), filepath.Join(dir, f))
	}
	cmd := exec.Command("make", "-s", "-C", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make: %v\n%s", err, out)
	}
	for _, f := range []string{"prog.elf", "prog.s19", "prog.hex", "prog.bin", "text.bin", "prog.nm", "prog_g.elf", "lma.elf", "lma.s19", "lma.hex"} {
		built, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(built, testdata(t, f)) {
			t.Errorf("testdata/%s differs from what its sources build; run make -C loader/testdata", f)
		}
	}
}
