package check

import (
	"fmt"
	"github.com/hc11mc/hc11mc/verdict"
	"io"
	"strings"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// The text of a result, as check prints it without --json: each violation
// with its counterexample, the verdict line with what it covers, the
// counts, and the conditions the verdict holds under. The JSON form is
// Result.JSON.

// TextOptions are what the text of a result says beyond the result
// itself: how the run was asked for.
type TextOptions struct {
	Full    bool   // list every step of a counterexample's loops (cex.Listing.Full)
	Resumed bool   // the search went on from a saved frontier: say the time of all its runs
	MaxRun  int    // the bound on a transition's instructions (sim.Config.MaxRun), named when it cut one
	SavedTo string // the file an incomplete search saved its frontier to
	Trace   string // the file the first counterexample was written to
	Mode    string // the symbolic engine's mode (WriteSymbolicText): "bmc" reports an unrolling
	Time    string // a line on the time of the exact clock at the crystal's rate, after the conditions
}

// Stopped says what stopped an incomplete check whose stop is s:
// "stopped by --max-states 10", or "interrupted" (Ctrl-C).
func Stopped(s verdict.Stop) string {
	text := s.String()
	if s.Kind == verdict.StopInterrupted || strings.HasPrefix(text, "interrupted") || strings.HasPrefix(text, "stopped") {
		return text
	}
	return "stopped by " + text
}

// VerdictNote is the part of a verdict line that says what it covers.
func VerdictNote(r Report) string {
	return "properties checked: " + strings.Join(r.Checked, ", ")
}

// WriteText writes the result of an explicit search, or of the swarm, found
// on m for the firmware img, as text.
func (res *Result) WriteText(w io.Writer, img *loader.Image, m *sim.Machine, rep Report, o TextOptions) {
	for i, f := range res.Found {
		if i > 0 {
			fmt.Fprintln(w)
		}
		writeViolation(w, img, m, f.Violation, f.Trace, o.Full)
	}
	st := res.Stats
	switch res.Verdict {
	case Violated:
		if m.HasDevice() {
			// What the search reached before it stopped at the
			// violation: on firmware, which of its routines (the
			// commands of a monitor, say) the input took it to.
			fmt.Fprintf(w, "  covered before the violation: %d states, %s\n", st.StatesStored, Coverage(img, res.Covered))
			WriteUncovered(w, img, res.Covered)
		}
	case Verified:
		fmt.Fprintf(w, "verified (%s): no violation in any reachable state\n", VerdictNote(rep))
		rep.WriteText(w)
		res.writeFirmwareCoverage(w, img, m, true)
	case Incomplete:
		fmt.Fprintf(w, "incomplete (%s): %s\n", VerdictNote(rep), Stopped(res.Limit))
		rep.WriteText(w)
		fmt.Fprintf(w, "  covered: %d states stored, depth %d, %s\n", st.StatesStored, st.MaxDepth, Coverage(img, res.Covered))
		fmt.Fprintf(w, "  left: %d states in the frontier, not expanded\n", st.Frontier)
		if p := res.Proved(m, rep); p != nil {
			fmt.Fprintf(w, "  proved: %s\n", p.Claim)
		}
		WriteUncovered(w, img, res.Covered)
		res.writeFirmwareCoverage(w, img, m, false)
		rep.writeWhere(w)
	}
	secs := fmt.Sprintf("%.2fs", st.Seconds)
	if o.Resumed {
		secs += fmt.Sprintf(" (%.2fs in all runs)", st.SecondsTotal)
	}
	fmt.Fprintf(w, "%d states stored, %d expanded, %d transitions, max depth %d, %s, peak memory %d MiB\n",
		st.StatesStored, st.StatesExpanded, st.Transitions, st.MaxDepth, secs, st.PeakMemory>>20)
	res.writeConditions(w, m, rep.Reductions)
	if o.Time != "" {
		fmt.Fprintln(w, o.Time)
	}
	if res.Omission > 0 {
		fmt.Fprintf(w, "hash compaction: probability that a state was missed ≤ %.3g\n", res.Omission)
	}
	if st.RunBoundHits > 0 {
		fmt.Fprintf(w, "note: %d transitions were cut at --max-run %d instructions between scheduling points, or at %d in all (a batch: see --batch) (a long local loop)\n", st.RunBoundHits, o.MaxRun, sim.BatchCap)
	}
	if res.Verdict == Incomplete && o.SavedTo != "" {
		fmt.Fprintf(w, "frontier saved to %s: continue with --resume %s\n", o.SavedTo, o.SavedTo)
	}
	if len(res.Found) > 0 && o.Trace != "" {
		fmt.Fprintf(w, "counterexample written to %s (hc11mc replay %s)\n", o.Trace, o.Trace)
	}
}

// WriteSymbolicText writes the result of the symbolic engine (--engine hmc
// or auto; res.HMC set) as text.
func (res *Result) WriteSymbolicText(w io.Writer, img *loader.Image, m *sim.Machine, rep Report, o TextOptions) {
	st, first := *res.HMC, res.First()
	if first != nil {
		writeViolation(w, img, m, first.Violation, first.Trace, o.Full)
	}
	bmc := o.Mode == "bmc"
	switch res.Verdict {
	case Verified:
		fmt.Fprintf(w, "verified (%s): no violation in any reachable state, for every value of every nondeterministic choice\n", VerdictNote(rep))
		rep.WriteText(w)
	case Incomplete:
		fmt.Fprintf(w, "incomplete (%s): %s\n", VerdictNote(rep), Stopped(res.Limit))
		rep.WriteText(w)
		if bmc {
			fmt.Fprintf(w, "  covered: no violation within %d transitions of the initial state (every path that long)\n", st.MaxDepth)
			fmt.Fprintf(w, "  left: the paths longer than that; %d states at depth %d, not expanded\n", st.Frontier, st.MaxDepth)
		} else {
			fmt.Fprintf(w, "  covered: %d symbolic states, %d images computed, depth %d\n", st.States, st.Images, st.MaxDepth)
			fmt.Fprintf(w, "  left: %d symbolic states in the frontier, not expanded\n", st.Frontier)
		}
	}
	if bmc {
		fmt.Fprintf(w, "%d states unrolled, %d instructions executed, max depth %d, %.2fs, peak memory %d MiB\n",
			st.Unrolled, st.Instructions, st.MaxDepth, st.Elapsed.Seconds(), st.PeakMemory>>20)
		fmt.Fprintf(w, "bmc: at most %d states at one depth; %d forks, %d solver queries in %.2fs\n",
			st.PeakFrontier, st.Forks, st.Queries, st.SolverTime.Seconds())
	} else {
		fmt.Fprintf(w, "%d symbolic states, %d instructions executed, max depth %d, %.2fs, peak memory %d MiB\n",
			st.States, st.Instructions, st.MaxDepth, st.Elapsed.Seconds(), st.PeakMemory>>20)
		fmt.Fprintf(w, "%s: %d switches PR/ST, %d images, peak frontier %d, %d partitions, %d groups; %d bounded model checks (%d states done by them, %d states unrolled); %d forks, %d solver queries in %.2fs\n",
			o.Mode, st.Switches, st.Images, st.PeakFrontier, st.Partitions, st.Groups, st.PRChecks, st.PRRemoved, st.Unrolled, st.Forks, st.Queries, st.SolverTime.Seconds())
	}
	res.writeConditions(w, m, rep.Reductions)
	if first != nil && o.Trace != "" {
		fmt.Fprintf(w, "counterexample written to %s (hc11mc replay %s)\n", o.Trace, o.Trace)
	}
}

// maxProcLines bounds the procedures the text compares with a plain run.
const maxProcLines = 12

// writeWhere writes where the states of an incomplete check went and its
// coverage per procedure against a plain run.
func (r Report) writeWhere(w io.Writer) {
	for _, f := range r.Frontier {
		at := f.PC
		if f.Symbol != "" {
			at += " " + f.Symbol
		}
		if f.Line != "" {
			at += " (" + f.Line + ")"
		}
		fmt.Fprintf(w, "  frontier: %d states at %s", f.States, at)
		if len(f.Differ) > 0 {
			fmt.Fprintf(w, ", differing in %s", strings.Join(f.Differ, "; "))
		}
		fmt.Fprintln(w)
		if f.Advice != "" {
			fmt.Fprintf(w, "    advice: %s\n", f.Advice)
		}
	}
	if len(r.Procedures) == 0 {
		return
	}
	fmt.Fprintf(w, "  instructions reached per procedure, by the check and by a plain run of at most %d instructions (check, run, of):\n", RunSteps)
	for i, p := range r.Procedures {
		if i == maxProcLines {
			fmt.Fprintf(w, "    %d more procedures (--json lists them)\n", len(r.Procedures)-i)
			break
		}
		fmt.Fprintf(w, "    %-24s %5d %5d %5d\n", p.Procedure, p.Check, p.Run, p.Instructions)
	}
}

// writeViolation writes a violation and its counterexample's listing.
func writeViolation(w io.Writer, img *loader.Image, m *sim.Machine, v *sim.Violation, trace []sim.Label, full bool) {
	fmt.Fprintf(w, "violation: %s\n  %s\n", v.Kind, cex.Describe(img, v))
	c := cex.Replay(img, m, trace)
	c.Full = full
	c.WriteListing(w)
}

// maxHeldLines bounds the lines the text output gives held inputs.
const maxHeldLines = 16

// WriteText writes one line per property that could not be checked, and
// per input held constant (HeldInput) with the flag that gives it every
// value.
func (r Report) WriteText(w io.Writer) {
	for _, u := range r.Unchecked {
		fmt.Fprintf(w, "  not checked: %s (%s)\n", u.Property, u.Reason)
	}
	WriteHeld(w, r.Held)
	if r.Count != nil {
		fmt.Fprintf(w, "  condition: %s\n", r.Count)
	}
	if r.Input != nil && !r.inLimit {
		fmt.Fprintf(w, "  input: %s\n", r.Input.Line())
	}
}

// WriteHeld writes a line per input held constant: at most maxHeldLines
// of them, --json lists them all.
func WriteHeld(w io.Writer, held []HeldInput) {
	for i, h := range held {
		if i == maxHeldLines {
			fmt.Fprintf(w, "  input held: %d more (--json lists them)\n", len(held)-i)
			return
		}
		fmt.Fprintf(w, "  input held: %s\n", h)
	}
}

// writeConditions says, after a verdict, which reductions ran and under
// which model of atomicity the verdict holds (Result.Conditions).
func (res *Result) writeConditions(w io.Writer, m *sim.Machine, reductions []string) {
	for _, l := range res.Conditions(m, reductions) {
		fmt.Fprintln(w, l)
	}
}

// writeFirmwareCoverage reports, for firmware with its peripherals, what
// of its code the search reached and where it waits, so that a verdict on
// a firmware that only ever waited cannot pass unnoticed. verified adds
// what the incomplete report already has.
func (res *Result) writeFirmwareCoverage(w io.Writer, img *loader.Image, m *sim.Machine, verified bool) {
	if !m.HasDevice() {
		return
	}
	if verified {
		fmt.Fprintf(w, "  covered: %d states, %s\n", res.Stats.StatesStored, Coverage(img, res.Covered))
		WriteUncovered(w, img, res.Covered)
	}
	waits := WaitSites(m, res.Covered, res.Waits...)
	if len(waits) == 0 {
		fmt.Fprintf(w, "  waits: the firmware never waited (no WAI, STOP or polling loop reached)\n")
		return
	}
	fmt.Fprintf(w, "  waits: %s\n", strings.Join(waits, "; "))
}

// WriteUncovered names the procedures no expanded state was in.
func WriteUncovered(w io.Writer, img *loader.Image, covered map[uint16]bool) {
	if never := Uncovered(img, covered); len(never) > 0 {
		fmt.Fprintf(w, "  procedures never entered: %s\n", strings.Join(never, ", "))
	}
}
