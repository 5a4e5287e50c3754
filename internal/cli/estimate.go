package cli

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/icfg"
	"github.com/hc11mc/hc11mc/sim"
)

type estimateOptions struct {
	load      loadFlags
	machine   machineFlags
	target    string
	heuristic string
	k         int
	brk       string
	maxSteps  uint64
}

func newEstimate(stdout io.Writer) *cobra.Command {
	o := &estimateOptions{}
	c := &cobra.Command{
		Use:   "estimate FIRMWARE --target SYM --break SYM[#n]",
		Short: "print a heuristic's value at one concrete state",
		Long: `estimate runs thread 0 from its entry until the n-th time (default the first)
its PC reaches --break, then prints the heuristic's estimate of the distance
to --target there, as h=<value> (h=inf when the target cannot be reached).

The unit is instructions executed: the number of transitions from the current
PC until the PC equals the target address. efsm and aicfg read the thread's
return addresses from its runtime stack, innermost first.`,
		Example: "  hc11mc estimate testdata/heuristics/fig1.elf --target error --heuristic efsm --break foo\n  hc11mc estimate fw.elf --target done --heuristic aicfg --k 2 --break loop#3",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEstimate(o, args[0], stdout)
		},
	}
	fs := c.Flags()
	o.load.register(fs)
	o.machine.register(fs, "every")
	fs.StringVar(&o.target, "target", "", "the symbol or address the distance is to (required)")
	fs.StringVar(&o.heuristic, "heuristic", "efsm", "fsm, aicfg or efsm")
	countVar(fs, &o.k, "k", 1, 0, icfg.MaxK, "calling-context bound of the AICFG")
	fs.StringVar(&o.brk, "break", "", "SYM[#n] or ADDR[#n]: where to stop, the n-th time thread 0 gets there (required)")
	uintVar(fs, &o.maxSteps, nil, "max-steps", 100000000, 0, math.MaxUint64, "give up after this many instructions (0: no bound)")
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
	img, err := o.load.load(path, o.machine.Entry, false)
	if err != nil {
		return err
	}
	at, err := resolve(img, brk)
	if err != nil {
		return usagef("--break: %v", err)
	}
	h, err := heuristics.New(img, heuristics.Config{Kind: kind, K: o.k, Property: heuristics.Reach, Reach: o.target})
	if err != nil {
		return usagef("--target %s: %v", o.target, err)
	}
	mf := o.machine
	mf.Reach = []string{fmt.Sprintf("0x%04X", at)}
	m, err := newMachine(img, &mf)
	if err != nil {
		return err
	}
	s := m.Initial()
	hits, steps := 0, uint64(0)
	if s.Threads[0].PC == at {
		hits++
	}
	for hits < nth {
		var res sim.RunResult
		if o.maxSteps == 0 || steps < o.maxSteps {
			res = m.Run(s, sim.RunOptions{Steps: o.maxSteps - steps}) // 0: no bound
			steps += res.Steps
		} else {
			res.Reason = fmt.Sprintf("--max-steps %d reached", o.maxSteps)
		}
		if res.Violation == nil || res.Violation.Kind != sim.KindReach {
			why := res.Reason
			if res.Violation != nil {
				why = describe(img, res.Violation)
			}
			return usagef("thread 0 reached --break %s %d time(s), not %d: the run stopped after %d instructions: %s", brk, hits, nth, steps, why)
		}
		if res.Violation.Thread == 0 {
			hits++
		}
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
