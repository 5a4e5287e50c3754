package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"

	"github.com/cespare/xxhash/v2"
	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/portfolio"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// check --search swarm, the default: the members of package portfolio
// race in this process, or with --swarm-member one of them runs alone, as
// a task of an array job does (swarmcmd.go).

// swarmFlags are check's swarm flags.
type swarmFlags struct {
	workers  int
	member   string // --swarm-member i/N
	stopFile string
	// workersSet says --workers was given: the swarm is that size,
	// without one more for the symbolic member.
	workersSet bool
}

func (o *checkOptions) registerSwarm(fs *pflag.FlagSet) {
	countVar(fs, &o.swarm.workers, "workers", runtime.GOMAXPROCS(0), 1, 1024, "members of --search swarm, each a search of its own running in parallel (member 1 the symbolic engine where the firmware draws nondeterministic data); with --search bfs or dfs, the workers of one search, which share its visited set (default: the processors here, and for the swarm one more where it has the symbolic member; 1: a search in one thread)")
	fs.StringVar(&o.swarm.member, "swarm-member", "", "I/N: run member I of a swarm of N alone (0 ≤ I < N), as a task of an array job does; its JSON result is for hc11mc swarm merge")
	fs.StringVar(&o.swarm.stopFile, "stop-file", "", "stop the swarm (incomplete) when FILE exists, and create FILE when it decides: the members of an array job on a shared file system stop each other")
}

// symbolic says whether check's swarm on img has a symbolic member: not
// under --engine explicit, else where the firmware draws nondeterministic
// data that the symbolic engine can follow (portfolio.SymbolicMember).
func (o *checkOptions) symbolic(img *loader.Image, cfg check.Config) (bool, error) {
	if o.engine == "explicit" {
		return false, nil
	}
	sym, _, err := portfolio.SymbolicMember(img, cfg)
	return sym, err
}

// memberEndHook, when not nil, is the swarm's portfolio.Limits.EndHook.
// Only tests set it, to make a member unsound or to order the members'
// ends.
var memberEndHook func(i int, res *search.Result, end func(*search.Result))

// swarmKey names the firmware and every flag that the members' searches
// depend on, so that swarm merge combines only the results of one swarm.
func swarmKey(img *loader.Image, o *checkOptions, n int) string {
	b := fmt.Sprintf("%s|n=%d|seed=%d|aim=%s|ignore=%s|compact=%t|max-states=%d|engine=%s", machineKey(img, o), n, o.seed, o.aim,
		strings.Join(o.ignore, ","), o.compact, o.maxStates, o.engine)
	return fmt.Sprintf("%016x", xxhash.Sum64String(b))
}

// singleSearchFlags name one search: given without --search, they make
// the default best-first search instead of the swarm.
var singleSearchFlags = []string{"heuristic", "k", "goal-mem", "all", "save-frontier", "resume"}

// defaultSearch picks best-first search when --search is not given but a
// flag of singleSearchFlags is: `check --heuristic fsm` means best-first
// search on the FSM distance, as it did before the swarm was the default.
func (o *checkOptions) defaultSearch(fs *pflag.FlagSet) {
	if (o.engine == "auto" || o.engine == "hmc") && !fs.Changed("reduce") {
		o.reduce = "por" // dead-data elimination clears bytes HMC would read
	}
	if fs.Changed("search") {
		return
	}
	if o.engine == "auto" {
		// One explicit search, which hands its wide choices to HMC:
		// breadth-first, which no model of testdata/bench leads astray
		// (best-first with efsm misses tick_counter) and which gives the
		// shortest prefixes.
		o.strategy = "bfs"
		for _, f := range singleSearchFlags {
			if fs.Changed(f) && f != "all" && f != "save-frontier" && f != "resume" {
				o.strategy = "best" // a heuristic's flag names best-first
			}
		}
		return
	}
	for _, f := range singleSearchFlags {
		if fs.Changed(f) {
			o.strategy = "best"
			return
		}
	}
}

// refuseSwarm refuses the flags of one search under --search swarm, and
// the swarm's flags under the other searches.
func (o *checkOptions) refuseSwarm(fs *pflag.FlagSet) error {
	if o.strategy != "swarm" {
		for _, f := range []string{"workers", "swarm-member", "stop-file"} {
			if f == "workers" {
				continue // the workers of one search, or refused (refuseWorkers)
			}
			if fs.Changed(f) {
				return usagef("--%s: only --search swarm runs several searches (the search is %s)", f, o.strategy)
			}
		}
		return o.refuseWorkers(fs)
	}
	for _, f := range singleSearchFlags {
		if fs.Changed(f) {
			return usagef("--%s: the members of --search swarm each have their own search and heuristic; --%s belongs to one search (--search best, astar, ...)", f, f)
		}
	}
	if fs.Changed("workers") && fs.Changed("swarm-member") {
		return usagef("--workers: --swarm-member runs one member alone")
	}
	return nil
}

// runSwarmCheck is check with --search swarm: the members in this process
// or, with --swarm-member, one of them alone.
func runSwarmCheck(o *checkOptions, path string, stdout, stderr io.Writer) error {
	// From the start: swarm run interrupts a member when another decides,
	// which may be while this one sets up.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	size, single := o.swarm.workers, o.swarm.member != ""
	cfg, err := o.config()
	if err != nil {
		return err
	}
	i := 0
	if single {
		if i, size, err = portfolio.ParseMember(o.swarm.member); err != nil {
			return err
		}
	}
	img, err := o.load.load(path, o.machine.Entry, false)
	if err != nil {
		return err
	}
	sym, err := o.symbolic(img, cfg)
	if err != nil {
		return err
	}
	if !sym {
		if cfg.BoardMember, err = portfolio.BoardMember(img, cfg); err != nil {
			return err
		}
	}
	if (sym || cfg.BoardMember) && !single && !o.swarm.workersSet {
		size++ // the symbolic or the board member, beside one search per processor
	}
	var runs []*portfolio.Run
	if single {
		r, err := portfolio.NewRun(img, cfg, i, size, sym)
		if err != nil {
			return err
		}
		runs = []*portfolio.Run{r}
	} else if runs, err = portfolio.NewRuns(img, cfg, size, sym); err != nil {
		return err
	}
	warnSymbols(stderr, img, o, path)
	if !o.json {
		if single {
			fmt.Fprintf(stdout, "checking %s: swarm member %s alone, preempt %s\n", path, runs[0].Member, runs[0].Check.Machine.Config.Preempt)
		} else {
			fmt.Fprintf(stdout, "checking %s: swarm of %d, preempt %s\n", path, size, runs[0].Check.Machine.Config.Preempt)
		}
		for _, r := range runs {
			note := ""
			if r.Check.Note != "" && r.Check.Options.Estimate != nil {
				note = " (" + r.Check.Note + ")"
			}
			if r.Member.Engine != "" {
				note = " (the symbolic engine: every value drawn a symbol; " + strings.TrimPrefix(note, " (")
				if r.Check.Options.Estimate == nil {
					note = strings.TrimSuffix(note, "; ") + ")"
				}
			}
			if !single {
				fmt.Fprintf(stdout, "  member %d/%d: %s%s\n", r.Member.Index, size, r.Member.Describe(), note)
			} else if note != "" {
				fmt.Fprintf(stdout, "note: %s\n", r.Check.Note)
			}
		}
	}
	var progress func(portfolio.Progress)
	if !o.json && !o.quiet && isTerminal(stderr) {
		progress = func(p portfolio.Progress) {
			fmt.Fprintf(stderr, "\r%d states (%.0f/s) in %d running members, %d MiB   ",
				p.Stored, float64(p.Stored)/p.Elapsed.Seconds(), p.Running, p.Memory>>20)
		}
	}
	out := portfolio.Race(ctx, runs, portfolio.Limits{MaxMemory: o.maxMemory, StopFile: o.swarm.stopFile, EndHook: memberEndHook}, progress)
	if progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	d := out.Decide(o.seed)
	res, m, first := d.Result, d.Machine, d.Found
	sub := ""
	if d.Winner != nil {
		sub = fmt.Sprintf("check --search swarm: member %s, --preempt %s", d.Winner.Member, m.Config.Preempt)
	}
	if err := writeWinner(o, d.Winner, path, img, m, first, sub); err != nil {
		return err
	}
	var tr []check.TimingResult
	if len(runs) > 0 {
		var ms []*sim.Machine
		for _, r := range runs {
			ms = append(ms, r.Check.Machine)
		}
		tr = timingReport(o, runs[0].Check, ms, res)
	}
	if o.json {
		extra := map[string]any{}
		if tr != nil {
			extra["timing"] = timingJSONOf(o, path, tr)
		}
		if d.Winner != nil {
			extra["member"] = d.Winner.Member.String()
		}
		if d.Internal != nil {
			extra["internal_error"] = d.Internal
		}
		if single {
			extra["member"] = runs[0].Member.String()
			extra["settings"] = portfolio.SettingsOf(runs[0], o.seed)
			extra["swarm_key"] = swarmKey(img, o, size)
			extra["firmware"] = path
			extra["load"] = o.load
			extra["covered_pcs"] = portfolio.SortedPCs(res.Covered)
			if o.trace != "" && first != nil {
				extra["trace_file"] = o.trace
			}
		} else {
			extra["members"] = d.Summaries()
		}
		if m.Config.ExactClock {
			extra["xtal_hz"] = o.xtal
		}
		printJSON(stdout, m, res, d.Report, extra)
	} else {
		res.WriteText(stdout, img, m, d.Report, o.resultText(img, m, res))
		printTiming(stdout, tr)
		d.WriteMembers(stdout, size, single)
	}
	if d.Internal != nil {
		return &exitError{code: ExitInternal, msg: d.Internal.Text()}
	}
	if d.NotReplayed != nil {
		return notReplayed(d.NotReplayed)
	}
	return verdictExit(res.Verdict)
}

// writeWinner writes the counterexample first of the winner w (nil for
// none) as writeCounterexample does, its trace file recording the machine
// w ran: the board member's clock and input timing.
func writeWinner(o *checkOptions, w *portfolio.Run, path string, img *loader.Image, m *sim.Machine, first *search.Found, sub string) error {
	if w == nil || !w.Member.Board {
		return writeCounterexample(o, path, img, m, first, sub)
	}
	spec := o.machine.MachineSpec
	defer func() { o.machine.MachineSpec = spec }()
	o.machine.MachineSpec = w.Member.Spec(spec)
	return writeCounterexample(o, path, img, m, first, sub)
}

// --workers has two meanings: the members of --search swarm (package
// portfolio), and the workers of one breadth-first or depth-first search,
// which share its visited set, each owning a part of the states
// (search.Options.Workers, search/parallel.go). The default is the
// processor count for both. The other searches rank every frontier state against the others
// and run one worker: --workers given with them is refused (refuseSwarm).
// A search that saves or resumes its frontier runs one worker too: with
// the default --workers it says so in a note, an explicit --workers above
// 1 is refused.

// parallelSearch reports whether --search s can run several workers.
func parallelSearch(s string) bool { return s == "bfs" || s == "dfs" }

// refuseWorkers refuses an explicit --workers above 1 that the search
// would not use.
func (o *checkOptions) refuseWorkers(fs *pflag.FlagSet) error {
	if !fs.Changed("workers") || o.swarm.workers == 1 {
		return nil
	}
	switch {
	case !parallelSearch(o.strategy):
		return usagef("--workers: --search %s runs one search in one worker (it ranks every frontier state against the others); --workers is for --search bfs, dfs and swarm", o.strategy)
	case o.saveTo != "":
		return usagef("--workers %d: a search that saves its frontier (--save-frontier) runs one worker; give --workers 1", o.swarm.workers)
	case o.resume != "":
		return usagef("--workers %d: a resumed search (--resume) runs one worker; give --workers 1", o.swarm.workers)
	}
	return nil
}

// searchWorkers sets the workers of a single search from --workers, and
// returns a note when it runs one worker where --workers, not given,
// would have meant more.
func (o *checkOptions) searchWorkers(opts *search.Options) (note string) {
	opts.Workers = 1
	if !parallelSearch(o.strategy) {
		return ""
	}
	if o.saveTo != "" || o.resume != "" {
		if o.swarm.workers > 1 {
			return "one worker: a search that saves or resumes its frontier runs one"
		}
		return ""
	}
	opts.Workers = o.swarm.workers
	return ""
}
