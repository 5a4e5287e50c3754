package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// propertyReport is what a check looked at: the properties it checked and
// those it could not, with the reason for each — a verdict is only as wide
// as the first list.
type propertyReport struct {
	Checked   []string        `json:"properties_checked"`
	Unchecked []uncheckedJSON `json:"properties_unchecked,omitempty"`
	// Reductions are the state-space reductions that ran (they keep the
	// verdicts of --reduce none).
	Reductions []string `json:"reductions,omitempty"`
	// Bounds are the bounds put on the firmware's environment
	// (--max-received, --max-timer-events, --sci-timing idle), "" for none.
	Bounds string `json:"bounds,omitempty"`
	// Held are the inputs the firmware read that nothing drove (held.go):
	// a verdict covers them at the values they held only. Known after the
	// search.
	Held []heldJSON `json:"inputs_held,omitempty"`
}

type uncheckedJSON struct {
	Property string `json:"property"`
	Reason   string `json:"reason"`
}

// propertiesOf is m's report (sim.Machine.Properties) with the properties
// --ignore turned off moved to the unchecked ones.
func propertiesOf(m *sim.Machine, ignore map[sim.Kind]bool) propertyReport {
	checked, unchecked := m.Properties()
	var r propertyReport
	for _, k := range checked {
		if ignore[k] {
			r.Unchecked = append(r.Unchecked, uncheckedJSON{k.String(), "--ignore"})
			continue
		}
		r.Checked = append(r.Checked, k.String())
	}
	for _, u := range unchecked {
		r.Unchecked = append(r.Unchecked, uncheckedJSON{u.Kind.String(), u.Reason})
	}
	return r
}

// verdictNote is the part of the verdict line that says what it covers.
func (r propertyReport) verdictNote() string {
	return "properties checked: " + strings.Join(r.Checked, ", ")
}

// print writes one line per property that could not be checked, and per
// input held constant.
func (r propertyReport) print(w io.Writer) {
	for _, u := range r.Unchecked {
		fmt.Fprintf(w, "  not checked: %s (%s)\n", u.Property, u.Reason)
	}
	printHeld(w, r.Held)
}

// addJSON adds the report's conditions on a verdict to a --json result.
func (r propertyReport) addJSON(out map[string]any) {
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
