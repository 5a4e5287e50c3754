package cli

import (
	"github.com/hc11mc/hc11mc/plan"
	"strings"

	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/bench"
	"github.com/hc11mc/hc11mc/sim"
)

// A flag that a command would ignore is refused, with the reason, rather
// than accepted and dropped: a user who passes --preempt to run, or --k
// with a heuristic that has no context bound, believes it changes
// something. Flags a command registers as part of a group (the machine
// flags, the loading flags) but never uses are hidden from its --help;
// flags that matter only with some values of others are refused when
// those values make them idle.

// ignoredFlag is a flag of a group that a command does not use.
type ignoredFlag struct{ name, why string }

var runIgnores = []ignoredFlag{
	{"preempt", "run follows one schedule (see hc11mc run --help); scheduling points shape the transitions of a search (check)"},
	{"max-run", "run follows one schedule, an instruction at a time; --max-run bounds the transitions of a search (check)"},
	{"batch", "run executes in batches of its own between the environment's events; --batch shapes the transitions of a search (check)"},
}

var estimateIgnores = []ignoredFlag{
	{"preempt", "estimate follows one schedule, as run does; scheduling points shape the transitions of a search (check)"},
	{"max-run", "estimate follows one schedule, an instruction at a time; --max-run bounds the transitions of a search (check)"},
	{"batch", "estimate follows one schedule, as run does; --batch shapes the transitions of a search (check)"},
	{"reach", "estimate stops where --break says; a --reach goal would stop the run elsewhere"},
}

var disasmIgnores = []ignoredFlag{
	{"chip", "disasm lists the image's own segments; the memory map changes nothing in the listing"},
	{"ram", "disasm lists the image's own segments; the memory map changes nothing in the listing"},
	{"rom", "disasm lists the image's own segments; the memory map changes nothing in the listing"},
}

// hideIgnored hides a command's ignored flags from its --help.
func hideIgnored(fs *pflag.FlagSet, ign []ignoredFlag) {
	for _, f := range ign {
		fs.MarkHidden(f.name)
	}
}

// refused returns the usage error for the first ignored flag given.
func refused(fs *pflag.FlagSet, ign []ignoredFlag) error {
	for _, f := range ign {
		if fs.Changed(f.name) {
			return usagef("--%s: %s", f.name, f.why)
		}
	}
	return nil
}

// refuseIdle refuses check's flags that the other flags make idle.
func (o *checkOptions) refuseIdle(fs *pflag.FlagSet) error {
	guided := o.strategy == "best" || o.strategy == "astar"
	contexts := o.heuristic == "aicfg" || o.heuristic == "efsm"
	distance := contexts || o.heuristic == "fsm"
	here := "here: --search " + o.strategy + " --heuristic " + o.heuristic
	if err := o.refuseSwarm(fs); err != nil {
		return err
	}
	if o.strategy == plan.Swarm {
		guided, distance = true, true // the members' heuristics aim where --aim says
	}
	switch {
	case fs.Changed("seed") && o.strategy != "random" && o.strategy != plan.Swarm:
		return usagef("--seed: only --search random and the swarm's members make random choices (the search is %s)", o.strategy)
	case fs.Changed("heuristic") && o.heuristic != "none" && !guided:
		return usagef("--heuristic %s: only --search best and astar follow a heuristic (the search is %s)", o.heuristic, o.strategy)
	case fs.Changed("k") && !(guided && contexts):
		return usagef("--k: the calling-context bound belongs to --heuristic aicfg and efsm under --search best or astar (%s)", here)
	case fs.Changed("aim") && !(guided && distance):
		return usagef("--aim: the property to aim at belongs to --heuristic fsm, aicfg and efsm under --search best or astar (%s)", here)
	case fs.Changed("goal-mem") && !(guided && o.heuristic == "hamming"):
		return usagef("--goal-mem: the memory valuation to aim at belongs to --heuristic hamming under --search best or astar (%s)", here)
	case fs.Changed("max-run") && o.machine.Preempt == "every":
		return usagef("--max-run: with --preempt every each instruction is a scheduling point; --max-run bounds the runs between scheduling points of --preempt calls and yield (a batch runs at most %d instructions)", sim.BatchCap)
	}
	return nil
}

// refuseIdle refuses bench's flags that the other flags make idle.
func (o *benchOptions) refuseIdle(fs *pflag.FlagSet) error {
	random, contexts, swarm, explicit := false, false, false, false
	for _, s := range o.strategies {
		if mode, prio, ok := bench.SymbolicStrategy(s); ok {
			// glh ranks by check's default heuristic, efsm.
			contexts = contexts || mode != "bmc" && prio == "glh"
			continue
		}
		explicit = true
		sr, h, _ := strings.Cut(s, "+")
		random = random || sr == "random"
		swarm = swarm || sr == "swarm"
		contexts = contexts || h == "aicfg" || h == "efsm"
	}
	switch {
	case fs.Changed("reduce") && !explicit:
		return usagef("--reduce: every strategy in --strategies runs on the symbolic engine, which has no reductions")
	case fs.Changed("runs") && !random:
		return usagef("--runs: no strategy in --strategies is randomised (random, random+HEURISTIC); the others give the same counts on every run")
	case fs.Changed("k") && !contexts:
		return usagef("--k: no strategy in --strategies uses aicfg or efsm, the heuristics with a calling-context bound (the symbolic engine's: st and hmc+glh)")
	case fs.Changed("workers") && !swarm:
		return usagef("--workers: no strategy in --strategies is the swarm, whose members run in parallel")
	case fs.Changed("kinds") && fs.Changed("models"):
		return usagef("--kinds: --models names the models to run; --kinds selects them only without --models")
	}
	return nil
}
