package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
)

// verdictNote is the part of the verdict line that says what it covers.
func verdictNote(r check.Report) string {
	return "properties checked: " + strings.Join(r.Checked, ", ")
}

// printReport writes one line per property that could not be checked, and
// per input held constant.
func printReport(w io.Writer, r check.Report) {
	for _, u := range r.Unchecked {
		fmt.Fprintf(w, "  not checked: %s (%s)\n", u.Property, u.Reason)
	}
	printHeld(w, r.Held)
}

// addReportJSON adds the report's conditions on a verdict to a --json
// result.
func addReportJSON(out map[string]any, r check.Report) {
	if len(r.Unchecked) > 0 {
		out["properties_unchecked"] = r.Unchecked
	}
	if len(r.Held) > 0 {
		out["inputs_held"] = r.Held
	}
}

// warnSymbols warns, on stderr, of an image loaded without the symbols
// of its harness (check.SymbolWarning).
func warnSymbols(stderr io.Writer, img *loader.Image, o *checkOptions, path string) {
	if w := check.SymbolWarning(img, o.load.LoadSpec, path); w != "" {
		fmt.Fprintf(stderr, "hc11mc: warning: %s\n", w)
	}
}
