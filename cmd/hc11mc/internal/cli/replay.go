package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

func newReplay(stdout, stderr io.Writer) *cobra.Command {
	var svg string
	var ro replayOptions
	c := &cobra.Command{
		Use:   "replay TRACE.json",
		Short: "re-execute a counterexample and confirm its violation",
		Long: `replay rebuilds the machine a trace was found on (the firmware and the flags
recorded in the trace), re-executes every transition on the simulator, showing
the registers and the instruction at each, and checks that the same violation
happens at the end.

Exit codes: 1 the violation is reproduced, 4 it is not (a bug in hc11mc),
2 the trace or the firmware cannot be read.`,
		Example: `  hc11mc replay cex.json
  hc11mc replay cex.json --svg cex.svg   # also draw it: a lane per thread and interrupt handler
  hc11mc replay cex.json --gdb :3333     # step through it in m68hc11-elf-gdb: target remote :3333`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if svg != "" {
				if err := replaySVG(args[0], svg); err != nil {
					return err
				}
			}
			if ro.gdb != "" {
				if ro.json || len(ro.watch) > 0 {
					return usagef("--gdb serves the trace to GDB, which shows the registers and variables: --json and --watch do not apply")
				}
				return serveGDB(args[0], ro.gdb, stdout)
			}
			return runReplay(args[0], stdout, ro)
		},
	}
	c.Flags().StringSliceVar(&ro.watch, "watch", nil, "SYM[:N],...: a column per variable (a symbol or an address; N bytes wide) at every step")
	c.Flags().BoolVar(&ro.json, "json", false, "print the steps, the watched values and the state at the violation as one JSON object")
	c.Flags().StringVar(&ro.gdb, "gdb", "", "serve the counterexample to GDB on [HOST]:PORT (host 127.0.0.1 by default) for one session: registers, memory, breakpoints, stepping forward and in reverse along the trace")
	c.Flags().StringVar(&svg, "svg", "", "draw the counterexample as SVG into FILE: a lane per thread and interrupt handler, the accesses that matter highlighted")
	return c
}

// replayOptions are replay's flags for what it shows.
type replayOptions struct {
	watch []string // --watch SYM[,SYM]: a column per variable
	json  bool     // --json: steps and watched values as one JSON object
	gdb   string   // --gdb [HOST]:PORT: serve the counterexample to GDB
}

func runReplay(path string, stdout io.Writer, o replayOptions) error {
	tf, img, m, labels, err := loadTrace(path)
	if err != nil {
		return err
	}
	var ws []cex.Watch
	for _, item := range o.watch {
		w, err := cex.ParseWatch(img, item)
		if err != nil {
			return usagef("--watch %q: %v", item, err)
		}
		ws = append(ws, w)
	}
	c := cex.Replay(img, m, labels)
	fail := c.Check(tf.Violation)
	if o.json {
		r := c.Report(tf.Violation, ws)
		r.Trace, r.Firmware = path, tf.Firmware
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false) // instructions print as "jsr 0xd002 <__mc_assert>"
		enc.SetIndent("", "  ")
		enc.Encode(r)
	} else {
		c.WriteReplay(stdout, ws)
	}
	if fail != nil {
		return &exitError{code: ExitNoReplay, msg: fmt.Sprintf("%s does not replay: %v", path, fail)}
	}
	if !o.json {
		fmt.Fprintf(stdout, "reproduced: %s\n  %s\n", c.Violation.Kind, cex.Describe(img, c.Violation))
		c.WriteExplanation(stdout)
	}
	return exitCode(ExitViolation)
}

// replaySVG draws the counterexample in the trace file tracePath into
// svgPath (replay --svg).
func replaySVG(tracePath, svgPath string) error {
	_, img, m, labels, err := loadTrace(tracePath)
	if err != nil {
		return err
	}
	if err := os.WriteFile(svgPath, cex.SVG(img, m, labels, "replay of "+filepath.Base(tracePath)), 0o644); err != nil {
		return usagef("--svg: %v", err)
	}
	return nil
}

// loadTrace reads the trace file at path and builds what replaying it
// needs (check.OpenTrace), showing the firmware's warnings.
func loadTrace(path string) (*cex.Trace, *loader.Image, *sim.Machine, []sim.Label, error) {
	tf, img, m, labels, err := check.OpenTrace(path)
	if img != nil {
		printWarnings(img)
	}
	return tf, img, m, labels, err
}
