package cli

import (
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/loader"
)

// targetForms says what cfg --target and estimate --target take.
const targetForms = "a symbol, a property whose harness calls are the targets (assert, error, mutex, deadlock), or the address a symbol starts at"

// parseTarget reads the --target of cfg and estimate, which mean the same:
// a symbol of the image; else a property name, whose targets are the
// calls of its harness stub (and for deadlock the WAI instructions too);
// else an address a symbol starts at. A symbol comes first so that a label
// named like a property (the paper's figures call theirs error) is the
// label; the output names what the distance is to. It returns the
// property and, for heuristics.Reach, the symbol.
func parseTarget(img *loader.Image, s string) (heuristics.Property, string, error) {
	if _, ok := img.Lookup(s); ok {
		return heuristics.Reach, s, nil
	}
	if p, err := heuristics.ParseProperty(s); err == nil && p != heuristics.Reach {
		return p, "", nil
	}
	a, err := loader.ParseAddr(s)
	if err != nil {
		return 0, "", usagef("--target %s: no symbol %q in %s; a target is %s", s, s, img.Path, targetForms)
	}
	if name, off, ok := img.SymbolAt(a); ok && off == 0 {
		return heuristics.Reach, name, nil
	}
	return 0, "", usagef("--target %s: no symbol starts at 0x%04X in %s; a target is %s", s, a, img.Path, targetForms)
}
