package cli

import (
	"fmt"
	"github.com/hc11mc/hc11mc/plan"
	"io"
	"runtime"
	"strings"

	"github.com/cespare/xxhash/v2"
	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/internal/units"
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

// memberEndHook, when not nil, is the swarm's portfolio.Limits.EndHook.
// Only tests set it, to make a member unsound or to order the members'
// ends.
var memberEndHook func(i int, res *check.Result, end func(*check.Result))

// swarmKey names the firmware and every flag that the members' searches
// depend on, so that swarm merge combines only the results of one swarm.
func swarmKey(img *loader.Image, o *checkOptions, n int) string {
	b := fmt.Sprintf("%s|n=%d|seed=%d|aim=%s|ignore=%s|compact=%t|max-states=%d|engine=%s", machineKey(img, o), n, o.seed, o.aim,
		strings.Join(o.ignore, ","), o.compact, o.maxStates, o.engine)
	return fmt.Sprintf("%016x", xxhash.Sum64String(b))
}

// singleSearchFlags name one search: given without --search, they make
// best-first search instead of the swarm (plan.Request.SearchOrder).
var singleSearchFlags = []string{"heuristic", "k", "goal-mem", "all", "save-frontier", "resume"}

// defaultSearch reads which flags that choose the search were given, and
// sets --search to the search the check runs (plan.Request.SearchOrder):
// `check --heuristic fsm` means best-first search on the FSM distance,
// as it did before the swarm was the default.
func (o *checkOptions) defaultSearch(fs *pflag.FlagSet) {
	if (o.engine == "auto" || o.engine == "hmc") && !fs.Changed("reduce") {
		o.reduce = "por" // dead-data elimination clears bytes HMC would read
	}
	o.searchGiven, o.guided, o.oneSearch = "", false, false
	if fs.Changed("search") {
		o.searchGiven = o.strategy
	}
	for _, f := range singleSearchFlags {
		if !fs.Changed(f) {
			continue
		}
		if f == "all" || f == "save-frontier" || f == "resume" {
			o.oneSearch = true
		} else {
			o.guided = true
		}
	}
	req := plan.Request{EngineGiven: o.engine != "", Search: o.searchGiven, Guided: o.guided, OneSearch: o.oneSearch}
	if o.engine == "auto" {
		req.Engine = check.EngineAuto
	}
	o.strategy = req.SearchOrder()
}

// refuseSwarm refuses the flags of one search under --search swarm, and
// the swarm's flags under the other searches.
func (o *checkOptions) refuseSwarm(fs *pflag.FlagSet) error {
	if o.strategy != plan.Swarm {
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

// writeSwarmHeader writes the lines that open the output of the swarm:
// its size and its members, or the member that runs alone.
func (o *checkOptions) writeSwarmHeader(w io.Writer, path string, p *plan.Plan) {
	runs, single := p.Swarm.Runs, p.Kind == plan.KindMember
	if single {
		fmt.Fprintf(w, "checking %s: swarm member %s alone, preempt %s\n", path, runs[0].Member, runs[0].Check.Machine.Config.Preempt)
	} else {
		fmt.Fprintf(w, "checking %s: swarm of %d, preempt %s\n", path, p.Size, runs[0].Check.Machine.Config.Preempt)
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
			fmt.Fprintf(w, "  member %d/%d: %s%s\n", r.Member.Index, p.Size, r.Member.Describe(), note)
		} else if note != "" {
			fmt.Fprintf(w, "note: %s\n", r.Check.Note)
		}
	}
}

// printSwarm prints the decision of the swarm of p, or of its member
// that ran alone, on img and returns the exit code: an internal error
// when members contradict each other or a counterexample of the symbolic
// member does not replay, else that of the verdict.
func (o *checkOptions) printSwarm(stdout io.Writer, path string, img *loader.Image, p *plan.Plan) error {
	d := p.Swarm.Decision()
	runs, size, single := p.Swarm.Runs, p.Size, p.Kind == plan.KindMember
	res, m, first := d.Result, d.Machine, d.Found
	sub := ""
	if d.Winner != nil {
		sub = fmt.Sprintf("check --search swarm: member %s, --preempt %s", d.Winner.Member, m.Config.Preempt)
	}
	if err := writeWinner(o, d.Winner, path, img, m, first, sub); err != nil {
		return err
	}
	var ms []*sim.Machine
	for _, r := range runs {
		ms = append(ms, r.Check.Machine)
	}
	tr := timingReport(o, runs[0].Check, ms, res)
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
	if err := writeFindings(o, stdout, img, m, res, d.Report); err != nil {
		return err
	}
	if d.Internal != nil {
		return &exitError{code: ExitInternal, msg: d.Internal.Text()}
	}
	if d.NotReplayed != nil {
		return notReplayed(d.NotReplayed)
	}
	return verdictExit(res.Verdict)
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

// swarmProgressLine is the progress line of a swarm: the members' states
// together and their rate, the deepest depth, their frontiers together,
// the members still running and the memory.
func swarmProgressLine(p portfolio.Progress) string {
	return fmt.Sprintf("%d states (%.0f/s), depth %d, frontier %d in %d running members, %d MiB",
		p.Stored, float64(p.Stored)/p.Elapsed.Seconds(), p.Depth, p.Frontier, p.Running, p.Memory>>20)
}

// warnWorkers warns, on stderr, of a --workers given above the processors
// this process may use: they share the processors, and a swarm's members
// each keep a visited set of their own.
func warnWorkers(stderr io.Writer, workers int, set bool, strategy string) {
	procs := runtime.GOMAXPROCS(0)
	if !set || workers <= procs {
		return
	}
	what := "the workers share the processors, so a search does not run faster with more of them than processors"
	if strategy == "swarm" {
		what = "the members share the processors, and each keeps a visited set of its own, so the memory grows with their number (--max-memory still stops the check)"
	}
	fmt.Fprintf(stderr, "hc11mc: warning: --workers %d on %s: %s\n", workers, units.Of(procs, "processor"), what)
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
