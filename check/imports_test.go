package check

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports: a check's configuration sits on the engines and below
// everything that runs checks. Package check imports the engines and what
// lies below them — never the command line (internal/cli, cmd), the
// packages that run checks with it (hybrid, portfolio, bench), nor a
// package from outside the module such as a command-line library: they
// call check, not the other way round. Test files are held to it too.
func TestImports(t *testing.T) {
	below := []string{"search", "symbolic", "sim", "heuristics", "icfg", "devices", "loader", "isa", "internal"}
	above := []string{"internal/cli", "cmd", "hybrid", "portfolio", "bench"}
	checkImports(t, below, above)
}

// checkImports fails the test for each import of a Go file in this
// directory or under it that is not the standard library or a package of
// the module under one of below, or that is under one of above.
func checkImports(t *testing.T, below, above []string) {
	t.Helper()
	const mod = "github.com/hc11mc/hc11mc/"
	under := func(p string, list []string) bool {
		for _, l := range list {
			if p == l || strings.HasPrefix(p, l+"/") {
				return true
			}
		}
		return false
	}
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		n++
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			rest, ours := strings.CutPrefix(p, mod)
			switch {
			case !ours && strings.Contains(p, "."):
				t.Errorf("%s imports %s, from outside the module", path, p)
			case ours && under(rest, above):
				t.Errorf("%s imports %s, which is above it", path, p)
			case ours && !under(rest, below):
				t.Errorf("%s imports %s, which it may not depend on", path, p)
			}
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("%d files read: %v", n, err)
	}
}
