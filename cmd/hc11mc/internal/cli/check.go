package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hc11mc/hc11mc/plan"
	"github.com/hc11mc/hc11mc/portfolio"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/icfg"
	"github.com/hc11mc/hc11mc/internal/memlimit"
	"github.com/hc11mc/hc11mc/internal/units"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
)

type checkOptions struct {
	load      loadFlags
	machine   machineFlags
	strategy  string
	heuristic string
	k         int
	seed      uint64
	maxStates int
	timeout   time.Duration
	maxMemory int64
	trace     string
	traceSVG  string
	sarif     string // --sarif: the findings as a SARIF 2.1.0 log
	json      bool
	engine    string
	hmc       engineFlags
	compact   bool
	reduce    string
	all       bool
	ignore    []string
	quiet     bool
	full      bool // list every transition of a counterexample, loops unfolded
	aim       string
	saveTo    string
	resume    string
	goalMem   []string
	swarm     swarmFlags
	xtal      float64 // --xtal, in hertz

	// maxMemorySet says --max-memory was given; memoryNote says what its
	// default is a share of.
	maxMemorySet bool
	memoryNote   string
	// searchGiven is --search when given, "" when not; guided says a
	// flag of a heuristic was given (--heuristic, --k, --goal-mem),
	// oneSearch one of --all, --save-frontier, --resume (plan.Request).
	searchGiven       string
	guided, oneSearch bool
}

func newCheck(stdout, stderr io.Writer) *cobra.Command {
	o := &checkOptions{}
	c := &cobra.Command{
		Use:   "check FIRMWARE",
		Short: "search every schedule for a violation",
		Long: `check explores the states of the firmware — every interleaving of its threads
and interrupts under --preempt, every nondeterministic value — and reports the
first violation with a counterexample that replay re-executes.

By default it runs a swarm: --workers different searches at once (best-first
on the extended FSM distance, breadth-first, depth-first, the FSM distance,
random orders, ...), each with its own visited set, and where the firmware
draws nondeterministic data (it calls __mc_nondet, or --input names an
input) and runs without the chip's peripherals, the symbolic engine (HMC)
races them as member 1, one member more than --workers when it is not
given. On firmware — the chip's peripherals are its environment (it calls no
harness stub, or --peripherals on) and no --clock, no --sci-timing other than
any, no --max-timer-events and no timing property is given — member 1
models the board instead,
one member more likewise: breadth-first search under --clock exact
--sci-timing first (input as a person sends it: each byte at the first wait
after the one before it, or none after that); its violations replay under
that model, and its exhaustive end holds for that model only: it never makes
the check verified (incomplete, the model named as its bound). The first to find a violation wins and names itself (--swarm-member
I/N repeats it alone); a member that searches exhaustively proves the
verdict verified (HMC: only when it checks every property the check does;
its violation only once it replays on the simulator). The members check
each other: when one proves verified and another finds a violation that
replays on the simulator without reductions, check reports the violation,
names both members and exits 4 (a bug in hc11mc, to report). --engine
explicit runs the explicit searches alone, --search names one search. With --search bfs or dfs, --workers
threads share that one search, each owning a part of the states: the
verdict and, with --reduce none, the states stored are those of one thread
(--workers 1).

Properties, all on where the harness makes them meaningful: assert, error,
deadlock, mutex, unlock, illegal-opcode, rom-write, unmapped, stack (with
--stack), reach (with --reach: a goal, not an error).

Timing (E cycles of the Reference Manual's tables, 14 per interrupt entry —
2 from WAI, which stacked the frame, and 4064 more from STOP while OPTION's
DLY is set — every thread and handler along the path, and the waits in WAI
under --clock exact): --max-masked N, --deadline
FROM:TO:N, --latency IRQ:N, and --report-timing for the largest values with
a path to each (--latency of the chip's timer sources: from the E cycle the
flag and enable are both set; under the abstract clock the worst over every
moment the flag may set). A masked interval starts at the end of the instruction that
sets I (SEI, TAP, an interrupt's entry: its own cycles not counted) and ends
at the end of the one that clears it (CLI, TAP, RTI: counted). Timing
properties turn partial-order reduction off; the symbolic engine does not
check them.

States only where something can choose (--batch on, the default): where
no other thread can run, no interrupt can be taken and no event of the
environment can happen (under --clock exact the timer is no event), a
transition runs on, as run does, so that start-up code and delay loops
cost instructions, not stored states. Every instruction is still checked;
counterexamples list every instruction; --batch off stores a state at
every scheduling point (the reference). The transitions and depth counted
are then batches; "instructions" counts every instruction.

Data-heavy firmware: --engine hmc runs the symbolic engine alone: it makes
every nondeterministic value a symbol and lets Z3 decide (hybrid model checking: a traversal of symbolic
states interleaved with bounded model checks from its frontier, started
from the state --hmc-priority glh or dfs picks). --hmc-mode bmc runs the
bounded model checks alone, one unrolling from the initial state whose
bound grows until a violation is satisfiable (a shortest counterexample)
or no path is left (verified: only where every path of the firmware
ends); --hmc-mode st runs the traversal alone. hc11mc bench
testdata/models/symbolic --strategies bmc,st,hmc+dfs,hmc+glh compares them.

Limits: --max-states, --timeout, and --max-memory, which has a default: a
search that grows without bound stops with the incomplete report when it
would hold more than 75% of this machine's memory (or of its cgroup's
limit), before the kernel kills it. With --resume, --max-states and
--timeout count this run only.

Exit codes: 0 verified (exhaustive, nothing found), 1 violation,
2 bad usage or input, 3 incomplete (a limit stopped the search), 4 an
internal error (members of the swarm that contradict each other).`,
		Example: `  hc11mc check testdata/examples/philosophers.elf
  hc11mc check fw.elf --search bfs --preempt calls --trace cex.json
  hc11mc check fw.elf --workers 8            # a swarm of eight searches
  hc11mc check fw.elf --trace-svg cex.svg   # the counterexample as a picture
  hc11mc check fw.elf --engine hmc --hmc-mode bmc --timeout 5m   # symbolic data, BMC alone
  hc11mc check fw.elf --irq toc1 --input 0x1003=0,1,255 --max-states 1000000 --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.defaultSearch(cmd.Flags())
			o.swarm.workersSet = cmd.Flags().Changed("workers")
			warnWorkers(stderr, o.swarm.workers, o.swarm.workersSet, o.strategy)
			if err := o.refuseIdle(cmd.Flags()); err != nil {
				return err
			}
			// The board's settings become the flags' before any member
			// or engine copies them.
			if err := o.load.applyBoard(&o.machine.MachineSpec); err != nil {
				return err
			}
			return runCheck(o, args[0], stdout, stderr)
		},
	}
	o.register(c.Flags())
	return c
}

// register defines check's flags on fs.
func (o *checkOptions) register(fs *pflag.FlagSet) {
	o.load.register(fs)
	o.machine.register(fs, "every")
	fs.StringVar(&o.machine.Clock, "clock", "", "how the chip's peripherals keep time: abstract (the default: timer sources fire at any scheduling point, bytes arrive at any rate: "+
		"an over-approximation for an unknown crystal or line) or exact (the timer, the real-time interrupt, the SCI's line and the COP counted in E cycles; "+
		"bytes arrive no faster than the line carries them); the result names the clock its verdict holds for")
	o.xtal = 8e6
	fs.Var(freqValue{&o.xtal}, "xtal", "the crystal's frequency (the E clock is a quarter of it): under --clock exact the result gives an E cycle and the frame of the SCI's line in time at that rate (JSON: xtal_hz)")
	registerTiming(fs, &o.machine.MachineSpec)
	fs.StringVar(&o.strategy, "search", "swarm", "search order: swarm (--workers diversified searches at once, the first violation wins; the default unless --heuristic, --k, --goal-mem, --all, --save-frontier or --resume name one search, which then is best; bfs under --engine auto), bfs, dfs, best (greedy on the heuristic), astar (depth + heuristic), random")
	fs.StringVar(&o.heuristic, "heuristic", "efsm", "estimate for best/astar: none, hamming, fsm, aicfg, efsm")
	countVar(fs, &o.k, "k", 1, 0, icfg.MaxK, "calling-context bound of the AICFG for aicfg and efsm")
	uintVar(fs, &o.seed, nil, "seed", 1, 0, math.MaxUint64, "seed for --search random")
	countVar(fs, &o.maxStates, "max-states", 0, 0, math.MaxInt, "stop after this run stores N states (0: no bound); with --resume, N more than the saved search had")
	durationVar(fs, &o.timeout, "timeout", 0, "stop after this run has taken this long, e.g. 30s, 5m (0: no limit); with --resume the earlier runs' time does not count")
	o.registerMaxMemory(fs)
	fs.StringVar(&o.trace, "trace", "", "write the counterexample as JSON to FILE (for hc11mc replay)")
	fs.StringVar(&o.traceSVG, "trace-svg", "", "draw the counterexample as SVG into FILE: a lane per thread and interrupt handler, the accesses that matter highlighted")
	fs.BoolVar(&o.json, "json", false, "print the result as one JSON object on stdout")
	fs.StringVar(&o.sarif, "sarif", "", "write the result as a SARIF 2.1.0 log to FILE: a result per violation with its counterexample as a code flow, the properties not checked and the inputs held as notifications (written whatever the verdict)")
	fs.StringVar(&o.engine, "engine", "", "force one engine: explicit (the explicit-state searches alone), hmc (symbolic data: every nondeterministic value a symbol, Z3 decides; HMC) or auto (one explicit search that hands each choice among more than --max-branch values, with its state, to HMC); default: the swarm's explicit searches race HMC where the firmware draws nondeterministic data")
	o.hmc.register(fs)
	fs.StringVar(&o.reduce, "reduce", "por,dead", reduceHelp)
	fs.BoolVar(&o.compact, "hash-compact", false, "store 64-bit fingerprints only (less memory; a state may be missed with the printed probability)")
	fs.BoolVar(&o.all, "all", false, "keep going after a violation and report each kind once")
	fs.StringSliceVar(&o.ignore, "ignore", nil, "properties not to report: "+strings.Join(sim.KindNames(), ", ")+
		" (an ignored illegal opcode goes on through the firmware's illegal-opcode trap vector, as on the hardware)")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "no progress line")
	fs.BoolVar(&o.full, "full", false, "list every transition of a counterexample: a loop that comes round many times is otherwise listed once, with how often it ran")
	fs.StringVar(&o.saveTo, "save-frontier", "", "when a limit stops the search, save what is left to FILE (continue with --resume FILE)")
	fs.StringVar(&o.resume, "resume", "", "continue the search saved in FILE by --save-frontier (same firmware and flags; --search may name another order, --engine auto go on from it with --reduce por)")
	fs.StringArrayVar(&o.goalMem, "goal-mem", nil, "ADDR=v1,v2,...: the memory valuation --heuristic hamming aims at, bytes from ADDR on (repeatable)")
	o.registerSwarm(fs)
	fs.StringVar(&o.aim, "aim", "", "the property the heuristic aims at: reach, error, assert, mutex or deadlock (default: the first of these the firmware can violate)")
}

// config reads check's flags into the check's configuration. It records
// --ignore illegal-opcode in the machine flags, which a trace and a saved
// frontier's key keep.
func (o *checkOptions) config() (check.Config, error) {
	var cfg check.Config
	if err := o.load.applyBoard(&o.machine.MachineSpec); err != nil {
		return cfg, err
	}
	por, dead, err := check.ParseReduce(o.reduce)
	if err != nil {
		return cfg, err
	}
	if o.strategy != plan.Swarm { // each member of a swarm has its own
		if cfg.Strategy, err = search.ParseStrategy(o.strategy); err != nil {
			return cfg, usagef("%v", err)
		}
	}
	switch o.engine {
	case "", "explicit":
	case "hmc":
		cfg.Engine = check.EngineHMC
	case "auto":
		cfg.Engine = check.EngineAuto
	default:
		return cfg, usagef("--engine %q: use explicit, hmc or auto", o.engine)
	}
	cfg.Ignore = map[sim.Kind]bool{}
	for _, k := range o.ignore {
		kind, ok := sim.ParseKind(k)
		if !ok {
			return cfg, usagef("--ignore %q: properties are %s", k, strings.Join(sim.KindNames(), ", "))
		}
		cfg.Ignore[kind] = true
	}
	o.machine.IgnoreIllegal = cfg.Ignore[sim.KindIllegal]
	if cfg.Machine, err = o.machine.machine(); err != nil {
		return cfg, err
	}
	cfg.Machine.Dead, cfg.Reduce = dead, por
	if cfg.Heuristic, err = heuristics.ParseKind(o.heuristic); err != nil {
		return cfg, usagef("--heuristic: %v", err)
	}
	if o.aim != "" {
		p, err := heuristics.ParseProperty(o.aim)
		if err != nil {
			return cfg, usagef("--aim: %v", err)
		}
		cfg.Aims = []heuristics.Property{p}
	}
	cfg.K, cfg.GoalMem, cfg.Seed = o.k, o.goalMem, o.seed
	cfg.Compact, cfg.All = o.compact, o.all
	cfg.MaxStates, cfg.Timeout, cfg.MaxMemory = o.maxStates, o.timeout, o.maxMemory
	if !o.maxMemorySet {
		cfg.MaxMemoryDefault = o.memoryNote
	}
	cfg.HMC.Mode, _ = symbolic.ParseMode(o.hmc.mode) // refused when wrong (engineFlags.refuse)
	if o.hmc.priority == "dfs" {
		cfg.HMC.Priority = symbolic.DFS
	}
	cfg.HMC.PRDepth, cfg.HMC.MaxBranch = o.hmc.prDepth, o.hmc.maxBranch
	return cfg, nil
}

// request is the check the flags ask for on cfg, their configuration,
// for plan.Choose.
func (o *checkOptions) request(cfg check.Config, img *loader.Image) plan.Request {
	req := plan.Request{Config: cfg, Engine: cfg.Engine, EngineGiven: o.engine != "", Search: o.searchGiven,
		Guided: o.guided, OneSearch: o.oneSearch, Workers: o.swarm.workers, WorkersGiven: o.swarm.workersSet,
		Member: o.swarm.member, SaveTo: o.saveTo, Resume: o.resume,
		Limits: portfolio.Limits{MaxMemory: o.maxMemory, StopFile: o.swarm.stopFile, EndHook: memberEndHook}}
	if req.Resume != "" || req.SaveTo != "" {
		req.Key = machineKey(img, o)
	}
	return req
}

// watch are the progress lines check writes on stderr, a terminal.
func (o *checkOptions) watch(stderr io.Writer) plan.Watch {
	w := plan.Watch{
		Search: func(p search.Progress) { fmt.Fprint(stderr, "\r"+searchProgressLine(p)+"   ") },
		HMC: func(s symbolic.Stats) {
			fmt.Fprintf(stderr, "\r%d states, %d images, frontier %d, depth %d, %d solver queries in %.1fs   ",
				s.States, s.Images, s.Frontier, s.MaxDepth, s.Queries, s.SolverTime.Seconds())
		},
		Swarm:   func(p portfolio.Progress) { fmt.Fprint(stderr, "\r"+swarmProgressLine(p)+"   ") },
		Between: func() { fmt.Fprint(stderr, "\r\033[K") },
	}
	if o.engine == "auto" {
		w.HMC = func(s symbolic.Stats) {
			fmt.Fprintf(stderr, "\rHMC: %d states, %d images, frontier %d, %d solver queries in %.1fs   ",
				s.States, s.Images, s.Frontier, s.Queries, s.SolverTime.Seconds())
		}
	}
	return w
}

// runCheck is check: the flags read, the plan chosen (package plan), its
// engine run, its result printed and the exit code set.
func runCheck(o *checkOptions, path string, stdout, stderr io.Writer) error {
	if err := o.hmc.refuse(o.engine); err != nil {
		return err
	}
	// From the start: swarm run interrupts a member when another decides,
	// which may be while this one sets up.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg, err := o.config()
	if err != nil {
		return err
	}
	if o.swarm.member != "" {
		if _, _, err := portfolio.ParseMember(o.swarm.member); err != nil {
			return err
		}
	}
	img, err := o.load.load(path, o.machine.Entry, false)
	if err != nil {
		return err
	}
	req := o.request(cfg, img)
	progress := !o.json && !o.quiet && isTerminal(stderr)
	if progress {
		req.Watch = o.watch(stderr)
	}
	p, err := plan.Choose(img, req)
	if err != nil {
		return err
	}
	if p.Swarm == nil {
		img = p.Check.Image
	}
	warnSymbols(stderr, img, o, path)
	if !o.json {
		o.writeHeader(stdout, path, p)
	}
	res, err := p.Engine.Run(ctx)
	if progress {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return notReplayed(err)
	}
	switch p.Kind {
	case plan.KindHMC:
		return o.printSymbolic(stdout, path, p.Check, res)
	case plan.KindSwarm, plan.KindMember:
		return o.printSwarm(stdout, path, img, p)
	}
	return o.printExplicit(stdout, path, p, res)
}

// writeHeader writes the line that opens check's text output: the
// engine, the search and its notes, or the swarm's members.
func (o *checkOptions) writeHeader(w io.Writer, path string, p *plan.Plan) {
	switch p.Kind {
	case plan.KindHMC:
		o.writeSymbolicHeader(w, path, p)
		return
	case plan.KindSwarm, plan.KindMember:
		o.writeSwarmHeader(w, path, p)
		return
	}
	cs := p.Check
	opts := cs.Options
	fmt.Fprintf(w, "checking %s: search %s, preempt %s", path, opts.Strategy, cs.Machine.Config.Preempt)
	if a := p.Auto; a != nil && a.Alone() == "" {
		fmt.Fprintf(w, ", engine auto (choices of more than %d values to HMC, priority %s)", o.hmc.maxBranch, o.hmc.priority)
	} else if a != nil {
		fmt.Fprintf(w, ", engine auto (every choice enumerated: %s)", a.Alone())
	}
	if p.Explicit != nil && p.Explicit.Options.Workers > 1 {
		fmt.Fprintf(w, ", %d workers", p.Explicit.Options.Workers)
	}
	if opts.Estimate != nil {
		fmt.Fprintf(w, ", heuristic %s", o.heuristic)
		if o.heuristic == "aicfg" || o.heuristic == "efsm" {
			fmt.Fprintf(w, " (k=%d)", o.k)
		}
	}
	fmt.Fprintln(w)
	if cs.Note != "" {
		fmt.Fprintf(w, "note: %s\n", cs.Note)
	}
	if p.WorkersNote != "" {
		fmt.Fprintf(w, "note: %s\n", p.WorkersNote)
	}
}

// printExplicit prints the result res of one explicit search, alone or
// handing its wide choices to HMC (--engine auto), and returns the exit
// code of its verdict.
func (o *checkOptions) printExplicit(stdout io.Writer, path string, p *plan.Plan, res *check.Result) error {
	cs := p.Check
	img, m := cs.Image, cs.Machine
	if o.resume != "" {
		cs.Properties.Resumed()
	}
	props := cs.Conclude(res)
	if err := writeCounterexample(o, path, img, m, res.First(), fmt.Sprintf("check --search %s, --preempt %s", cs.Options.Strategy, m.Config.Preempt)); err != nil {
		return err
	}
	tr := timingReport(o, cs, []*sim.Machine{m}, res)
	if o.json {
		more := map[string]any{}
		if p.Auto != nil {
			more = map[string]any{"engine": "auto", "auto": p.Auto.Report().JSON()}
		}
		if m.Config.ExactClock {
			more["xtal_hz"] = o.xtal
		}
		if tr != nil {
			more["timing"] = timingJSONOf(o, path, tr)
		}
		printJSON(stdout, m, res, props, more)
	} else {
		res.WriteText(stdout, img, m, props, o.resultText(img, m, res))
		printTiming(stdout, tr)
		if p.Auto != nil {
			fmt.Fprintln(stdout, p.Auto.Report().Line(o.hmc.maxBranch))
		}
	}
	if err := writeFindings(o, stdout, img, m, res, props); err != nil {
		return err
	}
	return verdictExit(res.Verdict)
}

// searchProgressLine is the progress line of one search.
func searchProgressLine(p search.Progress) string {
	return fmt.Sprintf("%d states (%.0f/s), depth %d, frontier %d, %d MiB",
		p.Stored, float64(p.Stored)/p.Elapsed.Seconds(), p.Depth, p.Frontier, p.Memory>>20)
}

// verdictExit is the exit code of a verdict.
func verdictExit(v check.Verdict) error {
	switch v {
	case check.Violated:
		return exitCode(ExitViolation)
	case check.Incomplete:
		return exitCode(ExitIncomplete)
	}
	return nil
}

// notReplayed turns a counterexample of HMC that does not replay into
// the internal error it is; other errors pass.
func notReplayed(err error) error {
	var nr *check.NotReplayed
	if errors.As(err, &nr) {
		return &exitError{code: ExitNoReplay, msg: "internal error: " + nr.Error()}
	}
	return err
}

// machineKey names the firmware and every flag that shapes its states, so
// that a saved frontier is only resumed on the same machine.
func machineKey(img *loader.Image, o *checkOptions) string {
	mem := img.Memory()
	por, dead, _ := check.ParseReduce(o.reduce)
	mf := o.machine
	if mf.Batch == "on" {
		mf.Batch = "" // the default, as frontiers saved before --batch have it
	}
	flags, _ := json.Marshal(struct {
		L      loadFlags
		M      machineFlags
		Reduce bool `json:",omitempty"`
		Dead   bool `json:",omitempty"`
	}{o.load, mf, por, dead})
	return fmt.Sprintf("%s (image %016x, flags %016x)", img.Path, xxhash.Sum64(mem[:]), xxhash.Sum64(flags))
}

// detectMemory finds the memory this process may use. Tests replace it to
// give the machine a size of their choosing.
var detectMemory = memlimit.Detect

// registerMaxMemory defines --max-memory with its default: memlimit.Share
// percent of the machine's memory or of the cgroup's limit, so that a
// search that grows without bound stops with a report (exit 3) before the
// kernel kills it. The --help text says the figure on this machine.
func (o *checkOptions) registerMaxMemory(fs *pflag.FlagSet) {
	in := detectMemory()
	o.maxMemory = in.Default()
	o.memoryNote = fmt.Sprintf("%d%% of %s", memlimit.Share, in.Source())
	def := "default: none, as this machine's memory could not be read"
	if o.maxMemory > 0 {
		def = fmt.Sprintf("default: %s, %s here", o.memoryNote, units.Size(o.maxMemory))
	}
	fs.Var(&sizeValue{p: &o.maxMemory, set: &o.maxMemorySet}, "max-memory",
		"stop with a report (exit 3) when the search would hold more memory than SIZE: "+sizeForms+"; with --save-frontier the search stops at four fifths of it, to leave room to save and resume ("+def+")")
	fs.Lookup("max-memory").DefValue = "" // the usage says the default
}
