package layering

import (
	"fmt"
	"slices"
	"strings"
)

// Rows are the module's packages in the rows of the picture of its
// imports, top to bottom: the command, the command line, the packages that
// run checks (and, beside the choice of engine, the one that renders
// their findings), the check's configuration (and, beside it, serving a
// counterexample to GDB), counterexamples, the engines and
// what they search with, the simulator and what it executes, the loader,
// and at the bottom the instruction set and the leaf helpers. A package
// imports only packages of rows below its own (Picture checks it), so
// every arrow of the picture points down. A package in no row is refused:
// a new package takes its place here.
var Rows = [][]string{
	{"cmd/hc11mc"},
	{"cmd/hc11mc/internal/cli"},
	{"bench"},
	{"plan", "findings"},
	{"portfolio", "hybrid"},
	{"check", "cex/gdbremote"},
	{"cex"},
	{"search", "symbolic", "heuristics", "testkit/randprog", "testkit/timeoracle"},
	{"sim", "icfg", "sim/ops", "cmd/hc11mc/internal/listing"},
	{"devices", "verdict", "sim/alu", "internal/proviso", "cex/internal/tracesvg"},
	{"loader", "settings", "internal/memlimit", "internal/prefetch", "internal/mutation", "internal/units", "symbolic/term"},
	{"isa/m68hc11", "sim/alu/gen", "testkit/docscheck", "testkit/layering"},
}

// Picture returns the imports of the module's packages (imports maps a
// package, by its path inside the module, to the module packages it
// imports) as a Graphviz graph in the rows of rows, and an error naming
// the first package in no row, or the first import that does not point
// to a lower row.
func Picture(imports map[string][]string, rows [][]string) (string, error) {
	row := map[string]int{}
	for i, r := range rows {
		for _, p := range r {
			row[p] = i
		}
	}
	var pkgs []string
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, p := range pkgs {
		if _, ok := row[p]; !ok {
			return "", fmt.Errorf("package %s is in no row of the picture: give it its place in layering.Rows", p)
		}
		for _, q := range imports[p] {
			if _, ok := row[q]; !ok {
				return "", fmt.Errorf("package %s is in no row of the picture: give it its place in layering.Rows", q)
			}
			if row[q] <= row[p] {
				return "", fmt.Errorf("%s (row %d) imports %s (row %d): an arrow that does not point down", p, row[p], q, row[q])
			}
		}
	}
	var b strings.Builder
	b.WriteString("// The imports of hc11mc's packages, in the rows of testkit/layering.Rows:\n")
	b.WriteString("// every arrow points down. Made by make imports; drawn as docs/imports.svg.\n")
	b.WriteString("digraph imports {\n\trankdir=TB; nodesep=0.25; ranksep=0.45;\n")
	b.WriteString("\tnode [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f1ea\", fontname=\"Helvetica\", fontsize=11];\n")
	b.WriteString("\tedge [color=\"#8a8a8a\", arrowsize=0.6];\n")
	for i, r := range rows {
		var in []string
		for _, p := range r {
			if _, ok := imports[p]; ok {
				in = append(in, fmt.Sprintf("%q", p))
			}
		}
		if len(in) > 0 {
			fmt.Fprintf(&b, "\t{ rank=same; %s } // row %d\n", strings.Join(in, "; "), i)
		}
	}
	for _, p := range pkgs {
		for _, q := range imports[p] {
			fmt.Fprintf(&b, "\t%q -> %q;\n", p, q)
		}
	}
	b.WriteString("}\n")
	return b.String(), nil
}
