package cli

import (
	"fmt"
	"github.com/hc11mc/hc11mc/plan"
	"io"
	"math"

	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/symbolic"
)

// check --engine hmc: the symbolic engine (package symbolic) runs HMC from
// the initial state, every nondeterministic value a fresh symbol. The
// explicit searches of package search (their orders, partial-order
// reduction, a saved frontier) are not part of it: the flags that only
// they use are refused. check --engine auto is an explicit search that
// hands its wide choices to HMC (package hybrid); it shares HMC's flags
// here.
//
// --hmc-mode picks among the four configurations the paper's Table I
// compares (symbolic.Mode): hmc, with --hmc-priority glh or dfs; bmc,
// bounded model checking alone from the initial state; st, state
// traversal alone. The flags that one mode does not use are refused with
// it.

// engineFlags are check's flags for the symbolic engine.
type engineFlags struct {
	fs        *pflag.FlagSet
	maxBranch int
	mode      string
	priority  string
	prDepth   int
}

func (f *engineFlags) register(fs *pflag.FlagSet) {
	f.fs = fs
	countVar(fs, &f.maxBranch, "max-branch", 16, 1, math.MaxInt32, "with --engine auto: a nondeterministic choice among more values than this is handed to HMC with its state, where it is a symbol; a narrower one is a successor per value, in both engines")
	fs.StringVar(&f.mode, "hmc-mode", "hmc", "with --engine hmc or auto: hmc (state traversal and bounded model checks from its frontier, interleaved), bmc (bounded model checking alone: one unrolling from the initial state, its bound grown until a violation or no path is left; shortest counterexamples, no state stored) or st (state traversal alone, no bounded model checks)")
	fs.StringVar(&f.priority, "hmc-priority", "glh", "with --engine hmc or auto: which frontier state the bounded model checks start from: glh (closest to a violation by --heuristic; the state traversal then expands the closest first too) or dfs (deepest; the traversal expands the state furthest behind in the program first)")
	countVar(fs, &f.prDepth, "pr-depth", 32, 1, 1<<20, "with --engine hmc or auto and --hmc-mode hmc: transitions each bounded model check explores from a frontier state")
}

// engineOnly are the flags that mean something to the symbolic engine only.
var engineOnly = []string{"max-branch", "hmc-mode", "hmc-priority", "pr-depth"}

// refuse returns the usage error for a flag the engine does not use.
func (f *engineFlags) refuse(engine string) error {
	switch {
	case f.fs == nil:
		return nil
	case engine != "" && engine != "explicit" && engine != "hmc" && engine != "auto":
		return usagef("--engine %q: use explicit, hmc or auto", engine)
	case engine == "" || engine == "explicit":
		// The default's symbolic member runs HMC with its defaults.
		for _, n := range engineOnly {
			if f.fs.Changed(n) {
				return usagef("--%s: it configures the symbolic engine when it runs alone (--engine hmc or auto)", n)
			}
		}
		return nil
	}
	if engine == "hmc" {
		for _, n := range []string{"search", "hash-compact", "all", "save-frontier", "resume", "workers",
			"swarm-member", "stop-file", "seed"} {
			if f.fs.Lookup(n) != nil && f.fs.Changed(n) {
				return usagef("--%s: the explicit engine's; --engine hmc runs HMC alone (use --engine explicit, or auto for an explicit search that hands wide choices to HMC)", n)
			}
		}
		if r := f.fs.Lookup("reduce"); r != nil && f.fs.Changed("reduce") {
			if _, dead, _ := check.ParseReduce(r.Value.String()); dead {
				return usagef("--reduce %s: --engine hmc reduces by por alone (dead-data elimination's cleared stack bytes are not followed by the symbolic engine); use --reduce por or none", r.Value.String())
			}
		}
	} else {
		// auto: one explicit search, handing its wide choices over.
		// --resume goes on from an explicit search's frontier (its
		// explicit part resumes it); it saves none of its own.
		for _, n := range []string{"all", "save-frontier", "swarm-member", "stop-file"} {
			if f.fs.Lookup(n) != nil && f.fs.Changed(n) {
				return usagef("--%s: --engine auto runs one explicit search and hands the choices wider than --max-branch to HMC; it has no %s (use --engine explicit)", n, map[string]string{
					"all": "list of every kind of violation", "save-frontier": "frontier to save",
					"swarm-member": "swarm", "stop-file": "swarm"}[n])
			}
		}
		if w := f.fs.Lookup("workers"); w != nil && f.fs.Changed("workers") && w.Value.String() != "1" {
			return usagef("--workers %s: --engine auto runs one search in one worker, which hands choices to HMC as it meets them", w.Value.String())
		}
		if f.fs.Lookup("search") != nil && f.fs.Lookup("search").Value.String() == "swarm" {
			return usagef("--search swarm: --engine auto runs one explicit search (bfs, dfs, best, astar or random; best when not given)")
		}
		if r := f.fs.Lookup("reduce"); r != nil {
			if _, dead, _ := check.ParseReduce(r.Value.String()); dead {
				if f.fs.Changed("reduce") {
					return usagef("--reduce %s: --engine auto cannot use dead (the symbolic engine does not follow cleared stack bytes); use --reduce por or none", r.Value.String())
				}
			}
		}
	}
	if engine == "hmc" && f.fs.Changed("max-branch") {
		return usagef("--max-branch: only --engine auto enumerates narrow choices; hmc makes every choice a symbol")
	}
	if f.priority != "glh" && f.priority != "dfs" {
		return usagef("--hmc-priority %q: use glh or dfs", f.priority)
	}
	mode, err := symbolic.ParseMode(f.mode)
	if err != nil {
		return usagef("--hmc-mode %q: use hmc (traversal and bounded model checks interleaved), bmc (bounded model checking alone) or st (traversal alone)", f.mode)
	}
	switch {
	case mode == symbolic.BMC && f.fs.Changed("hmc-priority"):
		return usagef("--hmc-priority: --hmc-mode bmc unrolls from the initial state alone and keeps no frontier to rank (use --hmc-mode hmc or st)")
	case mode != symbolic.HMC && f.fs.Changed("pr-depth"):
		return usagef("--pr-depth: it bounds the bounded model checks that --hmc-mode hmc runs from frontier states; %s", map[symbolic.Mode]string{
			symbolic.BMC: "bmc grows its bound until it decides (stop it with --timeout or --max-states)",
			symbolic.ST:  "st runs none"}[mode])
	}
	if engine == "hmc" && (mode == symbolic.BMC || f.priority == "dfs") {
		// (Under auto the explicit search follows the heuristic.)
		for _, n := range []string{"heuristic", "k", "aim", "goal-mem"} {
			if f.fs.Lookup(n) != nil && f.fs.Changed(n) {
				why := "--hmc-priority dfs ranks frontier states by depth"
				if mode == symbolic.BMC {
					why = "--hmc-mode bmc ranks no states"
				}
				return usagef("--%s: the heuristic ranks frontier states for --hmc-priority glh only; %s", n, why)
			}
		}
	}
	return nil
}

// writeSymbolicHeader writes the line that opens the output of check
// --engine hmc: the engine's configuration.
func (o *checkOptions) writeSymbolicHeader(w io.Writer, path string, p *plan.Plan) {
	switch p.Symbolic.Config.Mode {
	case symbolic.BMC:
		fmt.Fprintf(w, "checking %s: engine %s (bounded model checking alone, the bound grown until it decides", path, o.engine)
	case symbolic.ST:
		fmt.Fprintf(w, "checking %s: engine %s (state traversal alone, ties by %s", path, o.engine, o.hmc.priority)
	default:
		fmt.Fprintf(w, "checking %s: engine %s (HMC, priority %s", path, o.engine, o.hmc.priority)
	}
	fmt.Fprintf(w, "), preempt %s\n", p.Check.Machine.Config.Preempt)
}

// printSymbolic prints the result res of check --engine hmc on cs and
// returns the exit code of its verdict.
func (o *checkOptions) printSymbolic(stdout io.Writer, path string, cs *check.Check, res *check.Result) error {
	m := cs.Machine
	props := cs.Conclude(res)
	if err := writeCounterexample(o, path, cs.Image, m, res.First(), fmt.Sprintf("check --engine %s, --preempt %s", o.engine, m.Config.Preempt)); err != nil {
		return err
	}
	if o.json {
		more := map[string]any{"engine": o.engine, "hmc_mode": o.hmc.mode, "hmc": check.NewHMCStats(*res.HMC)}
		if o.hmc.mode != "bmc" {
			more["hmc_priority"] = o.hmc.priority
		}
		printJSON(stdout, m, res, props, more)
	} else {
		res.WriteSymbolicText(stdout, cs.Image, m, props, o.text())
	}
	if err := writeFindings(o, stdout, cs.Image, m, res, props); err != nil {
		return err
	}
	return verdictExit(res.Verdict)
}
