package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/hc11mc/hc11mc/cex"
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
  hc11mc replay cex.json --svg cex.svg   # also draw it: a lane per thread and interrupt handler`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if svg != "" {
				if err := replaySVG(args[0], svg); err != nil {
					return err
				}
			}
			return runReplay(args[0], stdout, ro)
		},
	}
	c.Flags().StringSliceVar(&ro.watch, "watch", nil, "SYM[:N],...: a column per variable (a symbol or an address; N bytes wide) at every step")
	c.Flags().BoolVar(&ro.json, "json", false, "print the steps, the watched values and the state at the violation as one JSON object")
	c.Flags().StringVar(&svg, "svg", "", "draw the counterexample as SVG into FILE: a lane per thread and interrupt handler, the accesses that matter highlighted")
	return c
}

func runReplay(path string, stdout io.Writer, o replayOptions) error {
	tf, img, m, labels, err := loadTrace(path)
	if err != nil {
		return err
	}
	ws, err := parseWatch(img, o.watch)
	if err != nil {
		return err
	}
	c := replayCex(img, m, labels)
	v := c.viol
	var fail string
	switch {
	case c.err != nil:
		fail = c.err.Error()
	case v == nil && tf.Violation != nil:
		fail = fmt.Sprintf("no violation at the end (expected %s)", tf.Violation.Kind)
	case v == nil:
		fail = "no violation at the end"
	case tf.Violation != nil && (v.Kind.String() != tf.Violation.Kind || fmt.Sprintf("0x%04X", v.PC) != tf.Violation.PC):
		fail = fmt.Sprintf("got %s at 0x%04X, expected %s at %s", v.Kind, v.PC, tf.Violation.Kind, tf.Violation.PC)
	}
	if o.json {
		r := &replayJSON{Trace: path, Firmware: tf.Firmware, Reproduced: fail == "", Expected: tf.Violation, Error: fail}
		if v != nil {
			r.Violation = cex.NewViolation(m, v)
		}
		c.writeReplayJSON(stdout, r, ws)
	} else {
		for i := range c.steps {
			if c.steps[i].after == nil {
				break
			}
			c.printReplayStep(stdout, i, ws)
		}
		if c.final != nil && len(ws) > 0 {
			fmt.Fprintf(stdout, "final%s\n", c.columns(ws, c.final))
		}
	}
	if fail != "" {
		return &exitError{code: ExitNoReplay, msg: fmt.Sprintf("%s does not replay: %s", path, fail)}
	}
	if !o.json {
		fmt.Fprintf(stdout, "reproduced: %s\n  %s\n", v.Kind, describe(img, v))
		c.printSerial(stdout)
		c.printThreads(stdout)
		c.printMemory(stdout)
	}
	return exitCode(ExitViolation)
}
