package cli

import (
	"context"
	"fmt"
	"github.com/hc11mc/hc11mc/settings"
	"io"

	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/sim"
)

// Timing properties (check --max-masked, --deadline, --latency,
// --report-timing, --timing-cap): sim/timing.go defines them, check/timing.go
// reads them; here are the flags and the report.

const maskedHelp = "N: after the firmware's first CLI, interrupts (CCR.I) are never masked for more than N E cycles (property max-masked); " +
	"an interval runs from the end of the instruction that sets I (SEI, TAP, an interrupt's entry: their own cycles not counted) " +
	"to the end of the one that clears it (CLI, TAP, RTI: their cycles counted), every instruction of every thread and handler " +
	"in between, as the GNU simulator counts its interrupts masked sequences"

// registerTiming defines check's timing flags, kept in the machine's
// settings (a trace records them).
func registerTiming(fs *pflag.FlagSet, s *settings.MachineSpec) {
	fs.StringVar(&s.MaxMasked, "max-masked", "", maskedHelp)
	fs.StringArrayVar(&s.Deadline, "deadline", nil, "FROM:TO:N: whenever a thread reaches TO after FROM (symbols or addresses; the latest FROM), "+
		"at most N E cycles have passed, counting every instruction of every thread and interrupt handler, every interrupt entry "+
		"(14 cycles; 2 from WAI; 14 after the oscillator's restart from STOP) and, under --clock exact, the waits in WAI "+
		"(property deadline; N may be left out with --report-timing) (repeatable, up to 4)")
	fs.StringArrayVar(&s.Latency, "latency", nil, "IRQ:N: from the request of interrupt IRQ to the first instruction of its handler, at most N E cycles, "+
		"the entry included (14 cycles; 2 from WAI, which stacked the frame) (property latency). A harness interrupt (one of --irq) is requested at any scheduling point and taken at the "+
		"first point where a context can take it, pending requests by the chip's priority; a timer source of the chip (toc1-toc5, tof, rti) is requested "+
		"from the E cycle its flag and enable bit are both set (under the abstract clock the flag may set at any moment: from the first cycle "+
		"of the instruction it sets in), and a request withdrawn (flag or enable cleared) within N ends without "+
		"a violation (repeatable, up to 8)")
	fs.BoolVar(&s.ReportTiming, "report-timing", false, "report the largest interrupts-masked interval, the largest latency of each --irq interrupt "+
		"(under --clock exact, of each timer source the firmware arms) "+
		"and the largest FROM->TO of each --deadline the search found, each with a path to it; exact maxima when the search is exhaustive")
	fs.Uint32Var(&s.TimingCap, "timing-cap", 0, fmt.Sprintf("with --report-timing, the count of a property without a bound stops at N cycles, "+
		"reported as at least N (default %d)", sim.DefaultTimingCap))
}

// timingReport is check --report-timing's result: the largest values
// with their paths, from the searches on ms.
func timingReport(o *checkOptions, cs *check.Check, ms []*sim.Machine, res *check.Result) []check.TimingResult {
	if !o.machine.ReportTiming || !cs.Machine.HasTiming() {
		return nil
	}
	why := res.Limit.String()
	if res.Verdict == check.Violated {
		why = "it stopped at a violation"
	}
	return cs.TimingReport(context.Background(), ms, res.Verdict == check.Verified, why)
}

// timingJSON is one value of check --json's "timing".
type timingJSON struct {
	Property string  `json:"property"`
	Cycles   uint64  `json:"cycles"`
	AtLeast  bool    `json:"at_least,omitempty"`
	Exact    bool    `json:"exact"`
	Lower    string  `json:"lower_bound_because,omitempty"`
	Bound    *uint32 `json:"bound,omitempty"`
	// From and To are the interval of global time on the path, Path its
	// transitions (as a trace file's steps).
	From     uint64     `json:"from_cycle,omitempty"`
	To       uint64     `json:"to_cycle,omitempty"`
	Path     []cex.Step `json:"path,omitempty"`
	PathNote string     `json:"path_note,omitempty"`
}

// timingJSONOf is the report as check --json's "timing".
func timingJSONOf(o *checkOptions, path string, rs []check.TimingResult) []timingJSON {
	var out []timingJSON
	for _, r := range rs {
		j := timingJSON{Property: r.Property, Cycles: r.Value, AtLeast: r.AtLeast, Exact: r.Exact, Lower: r.LowerBecause, PathNote: r.PathNote}
		if r.Bounded {
			b := r.Bound
			j.Bound = &b
		}
		if r.Found != nil {
			j.From, j.To = r.Found.From, r.Found.To
			j.Path = cex.NewTrace(path, o.load.LoadSpec, o.machine.MachineSpec, r.Machine, r.Trace, r.Found).Steps
		}
		out = append(out, j)
	}
	return out
}

// printTiming writes the report as text, each value with its path.
func printTiming(w io.Writer, rs []check.TimingResult) {
	if len(rs) == 0 {
		return
	}
	fmt.Fprintln(w, "timing (E cycles; the interval conventions: check --help):")
	for _, r := range rs {
		what := "exact: the largest over every execution"
		if !r.Exact {
			what = "a lower bound: " + r.LowerBecause
		}
		at := ""
		if r.AtLeast {
			at = "at least "
		}
		fmt.Fprintf(w, "  %s: %s%d cycles (%s)\n", r.Property, at, r.Value, what)
		switch {
		case r.Trace != nil:
			c := cex.Replay(r.Machine.Image, r.Machine, r.Trace)
			c.Violation = r.Found
			if c.Err == nil {
				// The path was found with the property bounded below
				// its value; the replay on this machine shows the
				// interval the search found.
				fmt.Fprintf(w, "  a path to it, %d transitions:\n", len(r.Trace))
				c.WriteSteps(w)
			}
		case r.PathNote != "":
			fmt.Fprintf(w, "  (no path: %s)\n", r.PathNote)
		}
	}
}
