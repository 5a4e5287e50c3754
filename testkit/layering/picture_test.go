package layering

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/imports.dot from the module's imports")

// moduleImports lists the module's packages with the module packages each
// imports (test files aside), from go list.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		p, ok := strings.CutPrefix(f[0], Module)
		if !ok {
			continue
		}
		imports[p] = []string{}
		for _, q := range f[1:] {
			if q, ok := strings.CutPrefix(q, Module); ok {
				imports[p] = append(imports[p], q)
			}
		}
		slices.Sort(imports[p])
	}
	return imports
}

// TestPicture: every package of the module has its row, every import
// points to a lower row, and docs/imports.dot is the picture of the
// imports as they are (go test -run TestPicture -update, or make imports,
// rewrites it).
func TestPicture(t *testing.T) {
	dot, err := Picture(moduleImports(t), Rows)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "docs", "imports.dot")
	if *update {
		if err := os.WriteFile(path, []byte(dot), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old, err := os.ReadFile(path)
	if err != nil || string(old) != dot {
		t.Errorf("docs/imports.dot is not the picture of the imports as they are: run make imports")
	}
}

// Picture refuses an arrow that points up or sideways, and a package in
// no row, naming them.
func TestPictureRefuses(t *testing.T) {
	rows := [][]string{{"a"}, {"b", "c"}, {"d"}}
	for _, c := range []struct {
		imports map[string][]string
		want    string
	}{
		{map[string][]string{"a": {"b"}, "b": {"d"}, "c": {}, "d": {}}, ""},
		{map[string][]string{"a": {"b"}, "b": {"a"}}, "b (row 1) imports a (row 0)"},
		{map[string][]string{"b": {"c"}, "c": {}}, "b (row 1) imports c (row 1)"},
		{map[string][]string{"a": {"e"}}, "package e is in no row"},
		{map[string][]string{"e": {}}, "package e is in no row"},
	} {
		dot, err := Picture(c.imports, rows)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.imports, err)
		case c.want == "" && !strings.Contains(dot, `"a" -> "b";`):
			t.Errorf("%v: no arrow a -> b in\n%s", c.imports, dot)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: error %v, want %q", c.imports, err, c.want)
		}
	}
}
