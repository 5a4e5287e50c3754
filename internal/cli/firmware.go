package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
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
		fmt.Fprintf(w, "  covered: %d states, %s\n", res.Stats.StatesStored, coverage(img, res.Covered))
		printUncovered(w, img, res.Covered)
	}
	waits := waitSites(img, m, res.Covered)
	if len(waits) == 0 {
		fmt.Fprintf(w, "  waits: the firmware never waited (no WAI, STOP or polling loop reached)\n")
		return
	}
	fmt.Fprintf(w, "  waits: %s\n", strings.Join(waits, "; "))
}

// waitSites lists the reached places where the firmware waits: WAI and
// STOP, loops that branch to themselves (a BRSET or BRCLR polling a
// register, BRA *), and the loops --sci-timing idle found it waiting in
// (sim.Machine.WaitPCs), each with its symbol.
func waitSites(img *loader.Image, m *sim.Machine, covered map[uint16]bool) []string {
	found := map[uint16]bool{}
	for _, pc := range m.WaitPCs() {
		found[pc] = true
	}
	var pcs []int
	for pc := range covered {
		pcs = append(pcs, int(pc))
	}
	for pc := range found {
		if !covered[pc] {
			pcs = append(pcs, int(pc))
		}
	}
	sort.Ints(pcs)
	s := m.Initial()
	var out []string
	for _, p := range pcs {
		pc := uint16(p)
		var buf [5]byte
		for i := range buf {
			buf[i] = m.ReadMem(s, pc+uint16(i))
		}
		in, err := isa.Decode(buf[:])
		if err != nil {
			continue
		}
		what := ""
		switch {
		case in.Op == isa.WAI:
			what = "WAI"
		case in.Op == isa.STOP:
			what = "STOP"
		case (in.Op == isa.BRSET || in.Op == isa.BRCLR || in.Op == isa.BRA) && in.Target(pc) == pc:
			_, text := m.Disasm(s, pc)
			what = "spins: " + text
		case found[pc]:
			_, text := m.Disasm(s, pc)
			what = "polls in a loop: " + text
		default:
			continue
		}
		out = append(out, fmt.Sprintf("%s %s", cex.SymAddr(img, pc), what))
	}
	return out
}
