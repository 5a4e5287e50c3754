package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

func newReplay(stdout, stderr io.Writer) *cobra.Command {
	var svg string
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
			return runReplay(args[0], stdout)
		},
	}
	c.Flags().StringVar(&svg, "svg", "", "draw the counterexample as SVG into FILE: a lane per thread and interrupt handler, the accesses that matter highlighted")
	return c
}

func runReplay(path string, stdout io.Writer) error {
	tf, err := readTrace(path)
	if err != nil {
		return err
	}
	img, err := tf.Load.load(tf.Firmware, tf.Machine.Entry, false)
	if err != nil {
		return err
	}
	m, err := newMachine(img, &tf.Machine)
	if err != nil {
		return err
	}
	var labels []sim.Label
	for i := range tf.Steps {
		l, err := tf.Steps[i].label()
		if err != nil {
			return usagef("%s: step %d: %v", path, i+1, err)
		}
		labels = append(labels, l)
	}
	states, v, err := search.Replay(m, labels)
	for i, l := range labels {
		if i+1 >= len(states) {
			break
		}
		s := states[i]
		t := &s.Threads[l.Thread]
		if l.IRQ >= 0 {
			fmt.Fprintf(stdout, "%4d  %s  interrupt %s\n", i+1, sim.TraceFields(s, l.Thread, t.Cycles), sim.IRQName(l.IRQ))
			continue
		}
		hb, text := m.Disasm(s, t.PC)
		fmt.Fprintf(stdout, "%4d  %s  %-14s %s", i+1, sim.TraceFields(s, l.Thread, t.Cycles), hb, text)
		if l.Steps > 1 {
			fmt.Fprintf(stdout, "  (+%d more)", l.Steps-1)
		}
		fmt.Fprintln(stdout)
	}
	if err != nil {
		return &exitError{code: ExitNoReplay, msg: fmt.Sprintf("%s does not replay: %v", path, err)}
	}
	if v == nil {
		return &exitError{code: ExitNoReplay, msg: fmt.Sprintf("%s does not replay: no violation at the end (expected %s)", path, tf.Violation.Kind)}
	}
	if tf.Violation != nil && (v.Kind.String() != tf.Violation.Kind || fmt.Sprintf("0x%04X", v.PC) != tf.Violation.PC) {
		return &exitError{code: ExitNoReplay, msg: fmt.Sprintf("%s does not replay: got %s at 0x%04X, expected %s at %s", path, v.Kind, v.PC, tf.Violation.Kind, tf.Violation.PC)}
	}
	fmt.Fprintf(stdout, "reproduced: %s\n  %s\n", v.Kind, describe(img, v))
	return exitCode(ExitViolation)
}
