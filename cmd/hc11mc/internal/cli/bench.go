package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/bench"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/icfg"
	"github.com/hc11mc/hc11mc/loader"
)

type benchOptions struct {
	strategies []string
	runs       int
	repeat     int // --repeat: rounds of every run, for the median time
	maxStates  int
	timeout    time.Duration
	format     string
	plot       string
	models     []string
	kinds      []string
	k          int
	reduce     []string // --reduce: settings, each none or reductions joined by +
	workers    int
}

func newBench(stdout, stderr io.Writer) *cobra.Command {
	o := &benchOptions{}
	c := &cobra.Command{
		Use:   "bench [DIR]",
		Short: "run a benchmark suite under several search strategies and compare them",
		Long: `bench reads DIR/manifest.json (default testdata/bench): one entry per model
with its firmware, its check flags, the expected verdict and, where the model
is one of the paper's, its row of Rungta & Mercer's Table 1. It runs every
model under every strategy and prints the states generated before the error
(Table 1) and the time taken (Table 2), with the paper's figures beside ours,
then trace lengths and peak memory. Each run stops at --max-states, at
--timeout, and at check's default memory limit (see check --help) unless
the model's flags give --max-memory.

Strategies are SEARCH or SEARCH+HEURISTIC: bfs, dfs, random, best+fsm,
best+efsm, best+aicfg, astar+efsm, ... Random runs use seeds 1..--runs and
report the median and the spread (min-max). Every other strategy is
deterministic: its counts are the same on every run. swarm is check's
default, --workers searches at once and, where the firmware draws
nondeterministic data, the symbolic engine beside them (see check --help): its states are
those all members stored, its time that to the winner's decision; the
tables then say on how many models the swarm took at most --workers
times the time of the fastest other strategy. Which member wins a close
race, and so the swarm's counts, can differ from run to run.

Times of a few milliseconds vary from run to run by more than the
differences between strategies: --repeat N runs everything N times, in
rounds (each round runs every strategy on the model once, so that what
else the machine does weighs on all alike), and the tables give the
median of the rounds and, when it is not one value, the spread.

--reduce runs each strategy under each reduction setting: settings are
separated by commas, each none or check's reductions joined by + (por,
dead, por+dead; the default is check's, por+dead). With more than one
setting each column is STRATEGY/SETTING: --reduce none,por+dead puts the
states of every interleaving beside those of the reduced search.

The symbolic engine's configurations (check --engine hmc) are strategies
too: bmc (--hmc-mode bmc: bounded model checking alone), st or st+dfs
(--hmc-mode st: state traversal alone), hmc+glh and hmc+dfs (HMC with
--hmc-priority glh or dfs). With any of them the table is the comparison
of Table I of the HMC paper (Ganai, Wang & Li): per configuration the time
T, the peak memory M (the Go runtime's and Z3's) and the witness depth wd,
the counterexample's length, or d*, the deepest state reached without one;
--plot draws time and memory. testdata/models/symbolic holds data-heavy
models, four nondeterministic bytes each, for it.`,
		Example: "  hc11mc bench\n  hc11mc bench --format markdown --plot results.svg\n  hc11mc bench --strategies bfs,dfs,best+fsm,best+efsm,swarm --workers 4 --repeat 9\n  hc11mc bench --strategies bfs,best+efsm --models naive2,dining2\n  hc11mc bench --strategies bfs,dfs --reduce none,por,por+dead\n  hc11mc bench testdata/models/symbolic --strategies bmc,st,hmc+dfs,hmc+glh --plot hmc.svg",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "testdata/bench"
			if len(args) == 1 {
				dir = args[0]
			}
			if err := o.refuseIdle(cmd.Flags()); err != nil {
				return err
			}
			return runBench(o, dir, stdout, stderr)
		},
	}
	fs := c.Flags()
	fs.StringSliceVar(&o.strategies, "strategies", []string{"bfs", "dfs", "best+fsm", "best+efsm", "astar+efsm", "swarm"}, "strategies to compare, SEARCH or SEARCH+HEURISTIC, or swarm; or the symbolic engine's bmc, st, st+dfs, hmc+glh, hmc+dfs")
	countVar(fs, &o.runs, "runs", 5, 1, math.MaxInt, "runs of each randomised strategy (seeds 1..N)")
	countVar(fs, &o.repeat, "repeat", 1, 1, 1000, "rounds of runs: each round runs every strategy on a model once; the tables give the median")
	countVar(fs, &o.maxStates, "max-states", 2000000, 0, math.MaxInt, "per-run limit on stored states (0: no bound)")
	durationVar(fs, &o.timeout, "timeout", 60*time.Second, "per-run time limit, e.g. 30s, 5m (0: no limit)")
	fs.StringVar(&o.format, "format", "text", "text, csv, json or markdown")
	fs.StringVar(&o.plot, "plot", "", "write a grouped bar chart (log scale) of states per strategy per model to FILE.svg (with the symbolic engine's configurations: time and peak memory)")
	fs.StringSliceVar(&o.models, "models", nil, "run only these models (names from the manifest)")
	fs.StringSliceVar(&o.kinds, "kinds", []string{"bug", "exhaustive"}, "manifest kinds to run (bug, exhaustive, throughput)")
	countVar(fs, &o.k, "k", 1, 0, icfg.MaxK, "calling-context bound for aicfg and efsm")
	fs.StringSliceVar(&o.reduce, "reduce", []string{"por+dead"}, "reduction settings to run each strategy under, each none or reductions joined by +, e.g. none,por,por+dead")
	countVar(fs, &o.workers, "workers", runtime.GOMAXPROCS(0), 1, 1024, "members of the strategy swarm (check --search swarm), run in parallel, and the symbolic member beside them where the firmware draws nondeterministic data")
	return c
}

func runBench(o *benchOptions, dir string, stdout, stderr io.Writer) error {
	switch o.format {
	case "text", "csv", "json", "markdown":
	default:
		return usagef("--format %q: use text, csv, json or markdown", o.format)
	}
	bo := bench.Options{Dir: dir, Models: o.models, Kinds: o.kinds, Strategies: o.strategies, Reduce: o.reduce, Runs: o.runs,
		Repeat: o.repeat, MaxStates: o.maxStates, Timeout: o.timeout, K: o.k, Workers: o.workers, Setup: benchSetup(dir)}
	progress := isTerminal(stderr)
	if progress {
		bo.Progress = func(model, column string, round int) {
			fmt.Fprintf(stderr, "\r\033[K%s: %s", model, column)
			if o.repeat > 1 {
				fmt.Fprintf(stderr, " (round %d of %d)", round, o.repeat)
			}
		}
	}
	res, err := bench.Run(bo)
	if err != nil {
		return err
	}
	if progress {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if o.plot != "" {
		if err := res.WritePlot(o.plot); err != nil {
			return usagef("--plot: %v", err)
		}
	}
	switch o.format {
	case "json":
		b, _ := json.MarshalIndent(res.Records, "", "  ")
		fmt.Fprintln(stdout, string(b))
	case "csv":
		res.WriteCSV(stdout)
	default:
		res.WriteText(stdout, o.format == "markdown")
	}
	if r, ok := res.Unexpected(); ok {
		return &exitError{code: ExitViolation, msg: fmt.Sprintf("bench: %s under %s: verdict %s %s, the manifest expects otherwise", r.Model, r.Column(), r.Verdict, r.Kind)}
	}
	return nil
}

// benchSetup reads a model's check flags, as check does, into its
// configuration, and loads its firmware from dir (bench.Setup).
func benchSetup(dir string) bench.Setup {
	return func(m bench.Model, hmcMode, hmcPriority string) (check.Config, *loader.Image, error) {
		co := &checkOptions{}
		fs := pflag.NewFlagSet("check", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		co.register(fs)
		if err := fs.Parse(m.Flags); err != nil {
			return check.Config{}, nil, usagef("%s/manifest.json: model %s: flags: %v", dir, m.Name, err)
		}
		if hmcMode != "" {
			co.engine, co.hmc.mode, co.hmc.priority = "hmc", hmcMode, hmcPriority
			if err := co.hmc.refuse(co.engine); err != nil {
				return check.Config{}, nil, usagef("%s/manifest.json: model %s: %v", dir, m.Name, err)
			}
		}
		cfg, err := co.config()
		if err != nil {
			return cfg, nil, err
		}
		img, err := co.load.load(filepath.Join(dir, m.File), co.machine.Entry, false)
		return cfg, img, err
	}
}
