// Package layering checks, in a package's tests, that the package depends
// downward only: the layers of DESIGN.md (cmd → cli → check, portfolio,
// hybrid, plan, bench, cex → search, symbolic → heuristics → icfg, sim →
// devices, isa, loader), with no import from outside the module; the
// leaves verdict (one verdict and stop for every engine) and settings
// (the schema of the settings a trace records) lie below the engines.
//
// The packages of the layer between the command line and the engines are
// ordered too, each importing only those before it: cex (counterexamples
// and the trace that records them with their settings), check (which
// reads those settings into a check's configuration, and is the door
// every engine runs through), then hybrid and portfolio (engines that run
// checks with that configuration, and do not import each other), then
// plan (which chooses the engine), then bench (which asks plan for each of
// its runs).
//
// Rows puts every package of the module in a row of a picture of the
// imports (docs/imports.svg, drawn by make imports from what Picture
// writes): TestPicture fails on an arrow that does not point down, on a
// package in no row, and on a picture that is not the imports as they are.
//
// It is for tests: Check takes a testing.TB. Each package that guards its
// place in the layers calls it from a TestImports of its own, with the
// packages below it and those above it.
package layering

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Module is the module path the layers are named under.
const Module = "github.com/hc11mc/hc11mc/"

// Check fails t for each import of a Go file (test files included) in
// the current directory or under it that is neither the standard library
// nor a package of the module under one of below, or that is under one
// of above. Names are module-relative paths: "sim" stands for sim and the
// packages under it. A test file may import the test scaffolding
// (testkit) wherever it is.
func Check(t testing.TB, below, above []string) {
	t.Helper()
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
			rest, ours := strings.CutPrefix(p, Module)
			switch {
			case ours && under(rest, []string{"testkit"}) && strings.HasSuffix(path, "_test.go"):
				// The test scaffolding serves every package's tests.
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
