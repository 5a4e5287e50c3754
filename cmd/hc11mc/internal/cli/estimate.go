package cli

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/icfg"
)

type estimateOptions struct {
	load      loadFlags
	machine   machineFlags
	target    string
	heuristic string
	k         int
	brk       string
	steps     uint64
}

func newEstimate(stdout io.Writer) *cobra.Command {
	o := &estimateOptions{}
	c := &cobra.Command{
		Use:   "estimate FIRMWARE --target SYM --break SYM[#n]",
		Short: "print a heuristic's value at one concrete state",
		Long: `estimate runs thread 0 from its entry until the n-th time (default the first)
its PC reaches --break, then prints the heuristic's estimate of the distance
to --target there, as h=<value> (h=inf when the target cannot be reached).
--target takes what cfg --target takes, with the same meaning: a symbol;
else a property (assert, error, mutex, deadlock: the calls of its harness
stub, and for deadlock the WAI instructions too); else the address a
symbol starts at.

The run is run's default schedule (see hc11mc run --help): other threads
move only while thread 0 cannot, every nondeterministic choice is 0, and an
interrupt of --irq is taken only when no thread can move (thread 0 waits
in WAI with CCR.I = 0). --preempt, --max-run and --reach shape a search,
not this run, and are refused.

The unit is instructions executed: the number of transitions from the current
PC until the PC equals the target address. efsm and aicfg read the thread's
return addresses from its runtime stack, innermost first.`,
		Example: "  hc11mc estimate testdata/heuristics/fig1.elf --target error --heuristic efsm --break foo\n  hc11mc estimate fw.elf --target done --heuristic aicfg --k 2 --break loop#3",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := refused(cmd.Flags(), estimateIgnores); err != nil {
				return err
			}
			if cmd.Flags().Changed("max-steps") {
				if cmd.Flags().Changed("steps") {
					return usagef("--max-steps is the old name of --steps: give one")
				}
				fmt.Fprintln(cmd.ErrOrStderr(), "hc11mc: warning: --max-steps is deprecated: use --steps, as run does")
			}
			if cmd.Flags().Changed("k") && o.heuristic == "fsm" {
				return usagef("--k: fsm is the distance on the ICFG, which has no calling contexts; --k is for aicfg and efsm")
			}
			return runEstimate(o, args[0], stdout)
		},
	}
	fs := c.Flags()
	o.load.register(fs)
	o.machine.register(fs, "every")
	fs.StringVar(&o.target, "target", "", "what the distance is to (required): "+check.TargetForms)
	fs.StringVar(&o.heuristic, "heuristic", "efsm", "fsm, aicfg or efsm")
	countVar(fs, &o.k, "k", 1, 0, icfg.MaxK, "calling-context bound of the AICFG")
	fs.StringVar(&o.brk, "break", "", "SYM[#n] or ADDR[#n]: where to stop, the n-th time thread 0 gets there (required)")
	uintVar(fs, &o.steps, nil, "steps", 100000000, 0, math.MaxUint64, "give up after N instructions (0: no bound), as run --steps")
	// --max-steps was this flag's first name; run's is --steps. It stays,
	// hidden, with a warning on stderr (pflag's MarkDeprecated would print
	// its notice through cobra onto stdout, among the results).
	uintVar(fs, &o.steps, nil, "max-steps", 100000000, 0, math.MaxUint64, "deprecated: use --steps")
	fs.MarkHidden("max-steps")
	hideIgnored(fs, estimateIgnores)
	return c
}

func runEstimate(o *estimateOptions, path string, stdout io.Writer) error {
	if o.target == "" || o.brk == "" {
		return usagef("estimate needs --target SYM and --break SYM[#n]")
	}
	kind, err := heuristics.ParseKind(o.heuristic)
	if err != nil || kind == heuristics.None || kind == heuristics.Hamming {
		return usagef("--heuristic %q: estimate takes fsm, aicfg or efsm", o.heuristic)
	}
	brk, nth := o.brk, 1
	if b, n, ok := strings.Cut(o.brk, "#"); ok {
		if nth, err = strconv.Atoi(n); err != nil || nth < 1 {
			return usagef("--break %q: the count after # must be a positive number", o.brk)
		}
		brk = b
	}
	if err := o.load.applyBoard(&o.machine.MachineSpec); err != nil {
		return err
	}
	img, err := o.load.load(path, o.machine.Entry, false)
	if err != nil {
		return err
	}
	at, err := check.Resolve(img, brk)
	if err != nil {
		return usagef("--break: %v", err)
	}
	prop, sym, err := check.ParseTarget(img, o.target)
	if err != nil {
		return err
	}
	h, err := heuristics.New(img, heuristics.Config{Kind: kind, K: o.k, Property: prop, Reach: sym})
	if err != nil {
		return usagef("--target %s: %v", o.target, err)
	}
	m, s, err := check.RunToBreak(img, o.machine.MachineSpec, brk, at, nth, o.steps)
	if err != nil {
		return err
	}
	rets := m.Returns(s, 0, nil)
	v := h.Estimate(s.Threads[0].PC, rets)
	if v >= heuristics.Inf {
		fmt.Fprintln(stdout, "h=inf")
	} else {
		fmt.Fprintf(stdout, "h=%d\n", v)
	}
	return nil
}
