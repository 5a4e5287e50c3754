package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// firmwareJSON adds to check's JSON result, for firmware with its
// peripherals, the bounds of the exploration and where the firmware waits.
func firmwareJSON(out map[string]any, img *loader.Image, m *sim.Machine, res *check.Result, props check.Report) {
	if props.Bounds != "" {
		out["bounds"] = props.Bounds
	}
	if m.HasDevice() && res.Verdict != check.Violated {
		out["waits"] = waitSites(img, m, res.Covered)
	}
}

// printFirmwareCoverage reports, for firmware with its peripherals, what
// of its code the search reached and where it waits, so that a verdict on
// a firmware that only ever waited cannot pass unnoticed. verified adds
// what the incomplete report already has.
func printFirmwareCoverage(w io.Writer, img *loader.Image, m *sim.Machine, res *check.Result, verified bool) {
	if !m.HasDevice() {
		return
	}
	if verified {
		fmt.Fprintf(w, "  covered: %d states, %s\n", res.Stats.StatesStored, check.Coverage(img, res.Covered))
		printUncovered(w, img, res.Covered)
	}
	waits := waitSites(img, m, res.Covered)
	if len(waits) == 0 {
		fmt.Fprintf(w, "  waits: the firmware never waited (no WAI, STOP or polling loop reached)\n")
		return
	}
	fmt.Fprintf(w, "  waits: %s\n", strings.Join(waits, "; "))
}

// waitSites names the places where the firmware waits (check.WaitSites),
// each with its symbol.
func waitSites(img *loader.Image, m *sim.Machine, covered map[uint16]bool) []string {
	var out []string
	for _, w := range check.WaitSites(m, covered) {
		out = append(out, cex.SymAddr(img, w.PC)+" "+w.What)
	}
	return out
}

// printUncovered names the procedures no expanded state was in.
func printUncovered(w io.Writer, img *loader.Image, covered map[uint16]bool) {
	if never := check.Uncovered(img, covered); len(never) > 0 {
		fmt.Fprintf(w, "  procedures never entered: %s\n", strings.Join(never, ", "))
	}
}
