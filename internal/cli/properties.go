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

// symbolWarning is the warning for an image whose format carries no
// symbols, loaded without a symbol file or hooks: its harness calls are
// plain RTS, and the properties they raise cannot be checked.
func symbolWarning(img *loader.Image, l *loadFlags, path string) string {
	if img.Format == loader.FormatELF || l.Symbols != "" || len(l.Hooks) > 0 || len(img.Symbols) > 0 {
		return ""
	}
	return fmt.Sprintf("%s is %s image without symbols: the harness stubs (__mc_assert, __mc_lock, ...) are unknown, "+
		"so assert, error, deadlock, mutex and unlock cannot be checked; give --symbols FILE (the output of m68hc11-nm on the ELF) or --hook NAME=ADDR",
		path, formatArticle(img.Format))
}

func formatArticle(f loader.Format) string {
	switch f {
	case loader.FormatSRec:
		return "an S-record"
	case loader.FormatIHex:
		return "an Intel HEX"
	}
	return "a raw"
}
