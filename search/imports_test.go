package search

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports: search knows nothing of the 68HC11 beyond package sim's
// state API — no decoder, loader, control-flow graph or heuristic — so a
// state's identity has one definition (sim's key.go), not a second one
// here.
func TestImports(t *testing.T) {
	allowed := map[string]bool{
		"github.com/hc11mc/hc11mc/sim":               true,
		"github.com/hc11mc/hc11mc/internal/prefetch": true,
		"github.com/hc11mc/hc11mc/internal/memlimit": true,
		"github.com/hc11mc/hc11mc/internal/proviso":  true,
		// The verdicts and stops every engine gives.
		"github.com/hc11mc/hc11mc/verdict": true,
		// The switches of known faults (the proved depth's, levels.go).
		"github.com/hc11mc/hc11mc/internal/mutation": true,
		"github.com/cespare/xxhash/v2":               true,
	}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range ast.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if strings.Contains(p, ".") && !allowed[p] {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}
