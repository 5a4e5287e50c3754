package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// The output of check: its result as text or as one JSON object
// (check.Result.JSON), the counterexample's files, and the warnings.

// reduceHelp describes --reduce for check's help.
const reduceHelp = `state-space reductions, each keeping the verdicts of --reduce none: por (partial-order reduction:
where a thread's next instruction touches only its own registers and its own stack, it runs alone; every access is
checked, and if one thread reaches another's stack the search starts again without taking stacks as private;
sim/reduce.go, sim/private.go), dead (dead-data
elimination: registers and flags no execution reads before writing them are left out of stored states; sim/live.go);
a comma-separated list, or none (every interleaving, plainly)`

// printJSON prints res, found on m, as check --json does, with the
// fields of more beside check.Result.JSON's.
func printJSON(w io.Writer, m *sim.Machine, res *check.Result, rep check.Report, more map[string]any) {
	out := res.JSON(m, rep)
	for k, v := range more {
		out[k] = v
	}
	b, _ := json.Marshal(out)
	fmt.Fprintln(w, string(b))
}

// printResult prints the result of an explicit search, or of the swarm,
// as text: each violation with its counterexample, the verdict with what
// it covers, the counts and the conditions it holds under.
func printResult(w io.Writer, img *loader.Image, m *sim.Machine, res *check.Result, o *checkOptions, props check.Report) {
	for i, f := range res.Found {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "violation: %s\n  %s\n", f.Violation.Kind, cex.Describe(img, f.Violation))
		c := cex.Replay(img, m, f.Trace)
		c.Full = o.full
		c.WriteListing(w)
	}
	st := res.Stats
	switch res.Verdict {
	case check.Verified:
		fmt.Fprintf(w, "verified (%s): no violation in any reachable state\n", verdictNote(props))
		printReport(w, props)
		printFirmwareCoverage(w, img, m, res, true)
	case check.Incomplete:
		fmt.Fprintf(w, "incomplete (%s): stopped by %s\n", verdictNote(props), res.Limit)
		printReport(w, props)
		fmt.Fprintf(w, "  covered: %d states stored, depth %d, %s\n", st.StatesStored, st.MaxDepth, check.Coverage(img, res.Covered))
		fmt.Fprintf(w, "  left: %d states in the frontier, not expanded\n", st.Frontier)
		printUncovered(w, img, res.Covered)
		printFirmwareCoverage(w, img, m, res, false)
	}
	secs := fmt.Sprintf("%.2fs", st.Seconds)
	if o.resume != "" {
		secs += fmt.Sprintf(" (%.2fs in all runs)", st.SecondsTotal)
	}
	fmt.Fprintf(w, "%d states stored, %d expanded, %d transitions, max depth %d, %s, peak memory %d MiB\n",
		st.StatesStored, st.StatesExpanded, st.Transitions, st.MaxDepth, secs, st.PeakMemory>>20)
	printConditions(w, m, res, props.Reductions)
	if m.Config.ExactClock {
		fmt.Fprintf(w, "  time: at --xtal %s an E cycle is %s%s\n", formatFreq(o.xtal), formatSeconds(4/o.xtal), frameTime(img, m, res, o.xtal))
	}
	if res.Omission > 0 {
		fmt.Fprintf(w, "hash compaction: probability that a state was missed ≤ %.3g\n", res.Omission)
	}
	if st.RunBoundHits > 0 {
		fmt.Fprintf(w, "note: %d transitions were cut at --max-run %d instructions (a long local loop)\n", st.RunBoundHits, o.machine.MaxRun)
	}
	if res.Verdict == check.Incomplete && o.saveTo != "" {
		fmt.Fprintf(w, "frontier saved to %s: continue with --resume %s\n", o.saveTo, o.saveTo)
	}
	if len(res.Found) > 0 && o.trace != "" {
		fmt.Fprintf(w, "counterexample written to %s (hc11mc replay %s)\n", o.trace, o.trace)
	}
}

// verdictNote is the part of the verdict line that says what it covers.
func verdictNote(r check.Report) string {
	return "properties checked: " + strings.Join(r.Checked, ", ")
}

// maxHeldLines bounds the lines the text output gives held inputs.
const maxHeldLines = 16

// printReport writes one line per property that could not be checked, and
// per input held constant (check.HeldInput) with the flag that gives it
// every value: at most maxHeldLines of those, --json lists them all.
func printReport(w io.Writer, r check.Report) {
	for _, u := range r.Unchecked {
		fmt.Fprintf(w, "  not checked: %s (%s)\n", u.Property, u.Reason)
	}
	printHeld(w, r.Held)
}

// printHeld writes a line per input held constant.
func printHeld(w io.Writer, held []check.HeldInput) {
	for i, h := range held {
		if i == maxHeldLines {
			fmt.Fprintf(w, "  input held: %d more (--json lists them)\n", len(held)-i)
			return
		}
		fmt.Fprintf(w, "  input held: %s\n", h)
	}
}

// printConditions says, after a verdict, which reductions ran and under
// which model of atomicity the verdict holds (check.Result.Conditions).
func printConditions(w io.Writer, m *sim.Machine, res *check.Result, reductions []string) {
	for _, l := range res.Conditions(m, reductions) {
		fmt.Fprintln(w, l)
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
	waits := check.WaitSites(m, res.Covered)
	if len(waits) == 0 {
		fmt.Fprintf(w, "  waits: the firmware never waited (no WAI, STOP or polling loop reached)\n")
		return
	}
	fmt.Fprintf(w, "  waits: %s\n", strings.Join(waits, "; "))
}

// printUncovered names the procedures no expanded state was in.
func printUncovered(w io.Writer, img *loader.Image, covered map[uint16]bool) {
	if never := check.Uncovered(img, covered); len(never) > 0 {
		fmt.Fprintf(w, "  procedures never entered: %s\n", strings.Join(never, ", "))
	}
}

// writeCounterexample writes check's counterexample first, found on m for
// the firmware at path, to --trace and --trace-svg where they are given;
// subtitle heads the drawing. Without a counterexample it writes nothing.
func writeCounterexample(o *checkOptions, path string, img *loader.Image, m *sim.Machine, first *search.Found, subtitle string) error {
	if first == nil {
		return nil
	}
	if o.trace != "" {
		tf := cex.NewTrace(path, o.load.LoadSpec, o.machine.MachineSpec, m, first.Trace, first.Violation)
		tf.Locate(o.trace)
		if err := tf.WriteFile(o.trace); err != nil {
			return usagef("--trace: %v", err)
		}
	}
	if o.traceSVG != "" {
		if err := os.WriteFile(o.traceSVG, cex.SVG(img, m, first.Trace, subtitle), 0o644); err != nil {
			return usagef("--trace-svg: %v", err)
		}
	}
	return nil
}

// warnSymbols warns, on stderr, of an image loaded without the symbols
// of its harness (check.SymbolWarning).
func warnSymbols(stderr io.Writer, img *loader.Image, o *checkOptions, path string) {
	if w := check.SymbolWarning(img, o.load.LoadSpec, path); w != "" {
		fmt.Fprintf(stderr, "hc11mc: warning: %s\n", w)
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// printEngineResult prints the result of --engine hmc as text.
func printEngineResult(w io.Writer, o *checkOptions, cs *check.Check, res *check.Result, props check.Report) {
	st, first := *res.HMC, res.First()
	if first != nil {
		fmt.Fprintf(w, "violation: %s\n  %s\n", first.Violation.Kind, cex.Describe(cs.Image, first.Violation))
		c := cex.Replay(cs.Image, cs.Machine, first.Trace)
		c.Full = o.full
		c.WriteListing(w)
	}
	switch res.Verdict {
	case check.Verified:
		fmt.Fprintf(w, "verified (%s): no violation in any reachable state, for every value of every nondeterministic choice\n", verdictNote(props))
		printReport(w, props)
	case check.Incomplete:
		fmt.Fprintf(w, "incomplete (%s): stopped by %s\n", verdictNote(props), res.Limit)
		printReport(w, props)
		if o.hmc.mode == "bmc" {
			fmt.Fprintf(w, "  covered: no violation within %d transitions of the initial state (every path that long)\n", st.MaxDepth)
			fmt.Fprintf(w, "  left: the paths longer than that; %d states at depth %d, not expanded\n", st.Frontier, st.MaxDepth)
		} else {
			fmt.Fprintf(w, "  covered: %d symbolic states, %d images computed, depth %d\n", st.States, st.Images, st.MaxDepth)
			fmt.Fprintf(w, "  left: %d symbolic states in the frontier, not expanded\n", st.Frontier)
		}
	}
	if o.hmc.mode == "bmc" {
		fmt.Fprintf(w, "%d states unrolled, %d instructions executed, max depth %d, %.2fs, peak memory %d MiB\n",
			st.Unrolled, st.Instructions, st.MaxDepth, st.Elapsed.Seconds(), st.PeakMemory>>20)
		fmt.Fprintf(w, "bmc: at most %d states at one depth; %d forks, %d solver queries in %.2fs\n",
			st.PeakFrontier, st.Forks, st.Queries, st.SolverTime.Seconds())
	} else {
		fmt.Fprintf(w, "%d symbolic states, %d instructions executed, max depth %d, %.2fs, peak memory %d MiB\n",
			st.States, st.Instructions, st.MaxDepth, st.Elapsed.Seconds(), st.PeakMemory>>20)
		fmt.Fprintf(w, "%s: %d switches PR/ST, %d images, peak frontier %d, %d partitions, %d groups; %d bounded model checks (%d states done by them, %d states unrolled); %d forks, %d solver queries in %.2fs\n",
			o.hmc.mode, st.Switches, st.Images, st.PeakFrontier, st.Partitions, st.Groups, st.PRChecks, st.PRRemoved, st.Unrolled, st.Forks, st.Queries, st.SolverTime.Seconds())
	}
	printConditions(w, cs.Machine, res, props.Reductions)
	if first != nil && o.trace != "" {
		fmt.Fprintf(w, "counterexample written to %s (hc11mc replay %s)\n", o.trace, o.trace)
	}
}

// frameTime gives, for the exact clock's line, the frame of the SCI at
// the rate BAUD holds in the state of the first violation, in E cycles
// and in time at the crystal xtal; "" without a violation.
func frameTime(img *loader.Image, m *sim.Machine, res *check.Result, xtal float64) string {
	f := res.First()
	if f == nil {
		return ""
	}
	c := cex.Replay(img, m, f.Trace)
	if c.Final == nil {
		return ""
	}
	regs, _, ok := m.DeviceRegisters(c.Final)
	if !ok {
		return ""
	}
	n := devices.FrameCycles(regs)
	return fmt.Sprintf("; at the violation a frame of the SCI's line takes %d E cycles, %s", n, formatSeconds(float64(n)*4/xtal))
}
