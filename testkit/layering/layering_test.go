package layering

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that counts what Check reports.
type recorder struct {
	testing.TB
	errs int
}

func (r *recorder) Errorf(string, ...any) { r.errs++ }
func (r *recorder) Helper()               {}

// TestCheck: in a directory of Go files, an import of a package below
// passes; one of a package above, one from outside the module and one of
// a module package that is neither each fail, in a file under a
// subdirectory too.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\nimport (\n\t\"fmt\"\n\t\""+Module+"sim\"\n\t\""+Module+"sim/alu\"\n)\n")
	t.Chdir(dir)
	r := &recorder{TB: t}
	Check(r, []string{"sim", "internal"}, []string{"cmd/hc11mc/internal/cli"})
	if r.errs != 0 {
		t.Fatalf("imports of the standard library and of packages below: %d errors", r.errs)
	}
	write("sub/b_test.go", "package b\nimport (\n\t\""+Module+"cmd/hc11mc/internal/cli\"\n\t\"github.com/spf13/cobra\"\n\t\""+Module+"search\"\n)\n")
	r = &recorder{TB: t}
	Check(r, []string{"sim", "internal"}, []string{"cmd/hc11mc/internal/cli"})
	if r.errs != 3 {
		t.Errorf("an import from above, one from outside the module and one of a package neither below nor above: %d errors, want 3", r.errs)
	}
}
