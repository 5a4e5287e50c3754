package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/icfg"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// What a search reached of the code: the PCs at which its expanded states'
// threads were (Result.Covered), against the image's code, and, for
// firmware with its peripherals, where it waits — so that a verdict on
// firmware that only ever waited cannot pass unnoticed.

// Coverage says how much of the code covered reached: PCs at scheduling
// points, against the instructions of the ICFG (or, where the ICFG cannot
// be built, as a count of PCs).
func Coverage(img *loader.Image, covered map[uint16]bool) string {
	prog, err := icfg.Build(img, icfg.Options{})
	if err != nil || len(prog.Instrs) == 0 {
		return fmt.Sprintf("%d distinct PCs reached", len(covered))
	}
	n := 0
	for _, in := range prog.Instrs {
		if covered[in.Addr] {
			n++
		}
	}
	return fmt.Sprintf("%d of the %d instructions in the ICFG reached at scheduling points", n, len(prog.Instrs))
}

// Uncovered names, in order, the procedures never entered: the function
// symbols (harness stubs aside), and the global labels of no type that an
// assembler leaves on code, that no covered PC is the start of. A label
// of no type counts only where code can be, in read-only memory the image
// loads: absolute symbols (register offsets, sizes, equates) and labels
// in RAM are data, not procedures.
func Uncovered(img *loader.Image, covered map[uint16]bool) []string {
	var never []string
	for _, s := range img.Symbols {
		if strings.HasPrefix(s.Name, loader.StubPrefix) {
			continue
		}
		if s.Kind != loader.SymFunc {
			r, ok := img.Map.Lookup(s.Addr)
			if s.Kind != loader.SymNone || !s.Global || s.Abs || !ok || r.Kind != loader.RegionROM || !loaded(img, s.Addr) {
				continue
			}
		}
		if !covered[s.Addr] {
			never = append(never, s.Name)
		}
	}
	sort.Strings(never)
	return never
}

// WaitSites lists, by address, the reached places where the firmware on m
// waits, each with its symbol and how: WAI and STOP, loops that branch to
// themselves ("spins: INSTRUCTION", a BRSET or BRCLR polling a register,
// BRA *), and the loops --sci-timing idle found it waiting in ("polls in a
// loop: INSTRUCTION", sim.Machine.WaitPCs; a run of such instructions one
// after another, as a loop that waits for an armed interrupt has, "waits
// in a loop: FIRST … LAST (N instructions)"), with more such PCs found
// on other machines (Result.Waits).
func WaitSites(m *sim.Machine, covered map[uint16]bool, more ...uint16) []string {
	found := map[uint16]bool{}
	for _, pc := range append(m.WaitPCs(), more...) {
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
	// A run of found PCs, one instruction after another, is one loop
	// (one that waits for an armed interrupt has a wait at each state):
	// listed once, from its first instruction to its last.
	run, runAt, runEnd, runPC, runFirst := 0, -1, -1, uint16(0), ""
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
			if run > 0 && p == runEnd {
				run++
				out[runAt] = fmt.Sprintf("%s waits in a loop: %s … %s (%d instructions)", cex.SymAddr(m.Image, runPC), runFirst, text, run)
				runEnd = p + int(in.Len)
				continue
			}
			run, runAt, runEnd, runPC, runFirst = 1, len(out), p+int(in.Len), pc, text
			what = "polls in a loop: " + text
		default:
			run = 0
			continue
		}
		if !found[pc] {
			run = 0
		}
		out = append(out, cex.SymAddr(m.Image, pc)+" "+what)
	}
	return out
}

// loaded reports whether the image loads a byte at a.
func loaded(img *loader.Image, a uint16) bool {
	_, ok := img.Byte(a)
	return ok
}
