package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/findings"
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

// writeFindings prints the violations of res, found on m for img, as
// compiler-style lines after the text of the result (not with --json,
// whose stdout is one object), and writes them to --sarif where it is
// given, whatever the verdict.
func writeFindings(o *checkOptions, stdout io.Writer, img *loader.Image, m *sim.Machine, res *check.Result, rep check.Report) error {
	if o.sarif == "" && (len(res.Found) == 0 || o.json) {
		return nil // nothing to print, or nowhere: findings replay each trace
	}
	fs := findings.New(img, m, res)
	if !o.json && len(fs) > 0 {
		fmt.Fprintln(stdout)
		findings.WriteLines(stdout, fs)
	}
	if o.sarif == "" {
		return nil
	}
	f, err := os.Create(o.sarif)
	if err != nil {
		return usagef("--sarif: %v", err)
	}
	err = findings.WriteSARIF(f, findings.Run{Version: Version, InformationURI: "https://github.com/hc11mc/hc11mc", Result: res, Report: rep, Findings: fs})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return usagef("--sarif: %v", err)
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

// text is what the text of check's result says of how it was asked for.
func (o *checkOptions) text() check.TextOptions {
	return check.TextOptions{Full: o.full, Resumed: o.resume != "", MaxRun: o.machine.MaxRun,
		Trace: o.trace, Mode: o.hmc.mode}
}

// resultText is text with the file the search saved its frontier to and,
// under the exact clock, the line that gives its time at --xtal.
func (o *checkOptions) resultText(img *loader.Image, m *sim.Machine, res *check.Result) check.TextOptions {
	t := o.text()
	t.SavedTo = res.SavedTo
	if m.Config.ExactClock {
		t.Time = fmt.Sprintf("  time: at --xtal %s an E cycle is %s%s", formatFreq(o.xtal), formatSeconds(4/o.xtal), frameTime(img, m, res, o.xtal))
	}
	return t
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
