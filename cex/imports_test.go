package cex

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports: counterexamples sit above the search and below the command
// line. Package cex and the packages under it import the simulator, the
// search and what lies below them — never internal/cli or cmd, nor a
// command-line library: the command line calls cex, not the other way
// round. Test files are held to it too.
func TestImports(t *testing.T) {
	const mod = "github.com/hc11mc/hc11mc/"
	below := []string{"sim", "search", "loader", "isa/", "icfg", "heuristics", "devices", "cex/", "internal/"}
	above := []string{"internal/cli", "cmd/"}
	allowed := func(p string) bool {
		rest, ok := strings.CutPrefix(p, mod)
		if !ok {
			return !strings.Contains(p, ".") // the standard library
		}
		for _, a := range above {
			if rest == strings.TrimSuffix(a, "/") || strings.HasPrefix(rest, a) {
				return false
			}
		}
		for _, b := range below {
			if rest == strings.TrimSuffix(b, "/") || strings.HasPrefix(rest, b) {
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
			if !allowed(p) {
				t.Errorf("%s imports %s", path, p)
			}
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("%d files read: %v", n, err)
	}
}
