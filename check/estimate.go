package check

import (
	"fmt"
	"github.com/hc11mc/hc11mc/settings"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// A heuristic's value at one concrete state (hc11mc estimate), and the
// targets a distance is to (estimate and cfg --target).

// TargetForms says what a target may be.
const TargetForms = "a symbol, a property whose harness calls are the targets (assert, error, mutex, deadlock), or the address a symbol starts at"

// ParseTarget reads a target of cfg and estimate, which mean the same: a
// symbol of the image; else a property name, whose targets are the calls
// of its harness stub (and for deadlock the WAI instructions too); else an
// address a symbol starts at. A symbol comes first so that a label named
// like a property (the paper's figures call theirs error) is the label.
// It returns the property and, for heuristics.Reach, the symbol.
func ParseTarget(img *loader.Image, s string) (heuristics.Property, string, error) {
	if _, ok := img.Lookup(s); ok {
		return heuristics.Reach, s, nil
	}
	if p, err := heuristics.ParseProperty(s); err == nil && p != heuristics.Reach {
		return p, "", nil
	}
	a, err := loader.ParseAddr(s)
	if err != nil {
		return 0, "", fmt.Errorf("--target %s: no symbol %q in %s; a target is %s", s, s, img.Path, TargetForms)
	}
	if name, off, ok := img.SymbolAt(a); ok && off == 0 {
		return heuristics.Reach, name, nil
	}
	return 0, "", fmt.Errorf("--target %s: no symbol starts at 0x%04X in %s; a target is %s", s, a, img.Path, TargetForms)
}

// RunToBreak builds the machine spec describes on img and runs it along
// run's default schedule (sim.Machine.Run) until the nth time thread 0's
// PC is at, the address of the break brk; steps bounds the instructions
// (0: no bound). It returns the machine and the state there; the error
// says how far the run got when it stopped first.
func RunToBreak(img *loader.Image, spec settings.MachineSpec, brk string, at uint16, nth int, steps uint64) (*sim.Machine, *sim.State, error) {
	spec.Reach = []string{fmt.Sprintf("0x%04X", at)}
	m, err := BuildMachine(img, spec)
	if err != nil {
		return nil, nil, err
	}
	s := m.Initial()
	hits, done := 0, uint64(0)
	if s.Threads[0].PC == at {
		hits++
	}
	for hits < nth {
		var res sim.RunResult
		if steps == 0 || done < steps {
			res = m.Run(s, sim.RunOptions{Steps: steps - done}) // 0: no bound
			done += res.Steps
		}
		if res.Violation == nil && steps != 0 && done >= steps {
			res.Reason = fmt.Sprintf("--steps %d reached", steps)
		}
		if res.Violation == nil || res.Violation.Kind != sim.KindReach {
			why := res.Reason
			if res.Violation != nil {
				why = cex.Describe(img, res.Violation)
			}
			return nil, nil, fmt.Errorf("thread 0 reached --break %s %d time(s), not %d: the run stopped after %d instructions: %s", brk, hits, nth, done, why)
		}
		if res.Violation.Thread == 0 {
			hits++
		}
	}
	return m, s, nil
}
