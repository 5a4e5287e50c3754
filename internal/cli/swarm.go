package cli

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/internal/memlimit"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// The swarm: many diversified searches at once, the first violation wins
// (Holzmann, Joshi and Groce's swarm verification). No single search order
// suits every program: greedy best-first search on the extended FSM
// distance finds most of the benchmarks' errors first, but on a firmware
// whose interrupt handler increments a counter while the main loop passes
// its assertion over and over (testdata/bench/tick_counter.s) it explores
// millions of states near the assertion, one per value of the counter,
// while breadth-first search finds the torn read in a few hundred; on other
// models depth-first search is the lucky one.
//
// A member is a plain search.Run with options of its own and a visited set
// of its own. Its configuration is a function of its index, of --seed and
// of whether the firmware takes interrupts (below): member i of a swarm of
// N is the same search in every swarm of any size, on any machine, so that
// `check --swarm-member i/N` repeats it and an array job's tasks need
// nothing but their index. The order of the list puts first the two searches that, together,
// came nearest the best single strategy on every benchmark model, as a
// swarm of two (a small machine's default) runs only them. Depth-first
// search is one: it wins where the heuristics wander (moody3, dining3,
// prodcons, bakery_broken, peterson_broken). The other depends on the
// firmware. Where it takes interrupts (--irq, or the chip's peripherals),
// best-first search on the FSM distance: it finds the tick counter's torn
// read at once, where efsm and DFS never do (docs/swarm.md, "The
// heuristic's blind spot"), and irq_lostupdate's lost update first. Where it takes
// none, best-first search on efsm, the paper's heuristic and the fastest
// single strategy on six of the benchmark models, and members 0 and 2
// trade places. With best+fsm first everywhere, the swarm of two took up
// to 2.4 times the best single strategy's time (moody2: both of its
// members are 1.5 times slower than best+efsm there, and two searches at
// once on this two-processor machine run each about 1.4 times slower than
// one alone); with best+efsm and BFS first, 3 to 9 times on four models.
// The list, for firmware that takes interrupts:
//
//	0  best+fsm           the paper's context-insensitive distance
//	1  dfs                deep schedules early; cheap
//	2  best+efsm k=1      the single search's default
//	3  bfs                complete, shortest counterexamples; blind to the heuristic's traps
//	4  random seed S
//	5  astar+efsm k=1
//	6  best+efsm k=2
//	7  dfs shuffle S      depth-first with each state's successors shuffled
//	8… random seed S+1, dfs shuffle S+1, best+efsm shuffle S, best+fsm shuffle S, then S+2 …
//
// where S is --seed (default 1). "shuffle" is search.Options.Shuffle: the
// successors of each state enter the frontier in a seeded random order,
// which for best-first search breaks ties between equal estimates. When the
// firmware gives the heuristic no target, a guided member would be a copy
// of breadth-first search; it runs as depth-first search with shuffled
// successors instead, and says so.
//
// In one process (--search swarm, the default of check) the members run as
// goroutines, --workers of them (default: the processor count the Go
// runtime sees, which follows a cgroup's CPU limit). The first member that
// finds a violation wins and the others are stopped (see race); when a
// member ends its search exhaustively (verified), its verdict stands for
// the swarm, whatever the others had left to do: each member is a complete
// search of the same state space. When every member stops at a limit, the swarm is
// incomplete and reports the union of what the members covered. The
// verdict is the same whichever member wins; the counterexample is that of
// the winner, which the output names. Once every member has stopped, the
// swarm checks that no member's proof contradicts another's violation
// (selfcheck.go).
//
// Separate visited sets, not a shared one. A shared set would let a state
// that one member stored stop another member's search there: the members
// would no longer be diverse (each would see only the states no faster
// member reached), and a member that ran out of frontier would not have
// searched exhaustively, so its end would prove nothing. Measured on the
// benchmarks (docs/swarm.md), a set shared by first claim made a
// swarm of two need thirty times the states on naive3 and miss the tick
// counter's torn read within 2,000,000 states, while it helped on a few
// small models.
//
// Memory. The limits of search.Options measure the whole process, which the
// members share: each member gets the whole of --max-memory as its hard
// limit (so that nothing dies by the kernel's hand), and the swarm watches
// the process: when it passes seven eighths of the limit, the member that
// holds the most states is stopped, its memory is collected, and the others
// go on. --max-states and --timeout bound each member.

// swarmFlags are check's swarm flags.
type swarmFlags struct {
	workers  int
	member   string // --swarm-member i/N
	stopFile string
}

func (o *checkOptions) registerSwarm(fs *pflag.FlagSet) {
	countVar(fs, &o.swarm.workers, "workers", runtime.GOMAXPROCS(0), 1, 1024, "members of --search swarm, each a search of its own running in parallel; with --search bfs or dfs, the workers of one search, which share its visited set (default: the processors here; 1: a search in one thread)")
	fs.StringVar(&o.swarm.member, "swarm-member", "", "I/N: run member I of a swarm of N alone (0 ≤ I < N), as a task of an array job does; its JSON result is for hc11mc swarm merge")
	fs.StringVar(&o.swarm.stopFile, "stop-file", "", "stop the swarm (incomplete) when FILE exists, and create FILE when it decides: the members of an array job on a shared file system stop each other")
}

// swarmMember is one search of a swarm.
type swarmMember struct {
	Index, Size int
	Search      string // bfs, dfs, best, astar, random
	Heuristic   string // for best and astar
	K           int    // for efsm
	Seed        uint64 // for random
	Shuffle     uint64 // search.Options.Shuffle
	NoTarget    string // set when a guided member runs unguided: what it stands in for
}

// memberOf returns member i of a swarm of n with the swarm's seed, on
// firmware that takes interrupts or not.
func memberOf(i, n int, seed uint64, interrupts bool) swarmMember {
	m := swarmMember{Index: i, Size: n}
	if !interrupts && (i == 0 || i == 2) {
		i = 2 - i
	}
	switch i {
	case 0:
		m.Search, m.Heuristic = "best", "fsm"
	case 1:
		m.Search = "dfs"
	case 2:
		m.Search, m.Heuristic, m.K = "best", "efsm", 1
	case 3:
		m.Search = "bfs"
	case 4:
		m.Search, m.Seed = "random", seed
	case 5:
		m.Search, m.Heuristic, m.K = "astar", "efsm", 1
	case 6:
		m.Search, m.Heuristic, m.K = "best", "efsm", 2
	case 7:
		m.Search, m.Shuffle = "dfs", seed
	default:
		j := i - 8
		round := uint64(j / 4)
		switch j % 4 {
		case 0:
			m.Search, m.Seed = "random", seed+1+round
		case 1:
			m.Search, m.Shuffle = "dfs", seed+1+round
		case 2:
			m.Search, m.Heuristic, m.K, m.Shuffle = "best", "efsm", 1, seed+round
		case 3:
			m.Search, m.Heuristic, m.Shuffle = "best", "fsm", seed+round
		}
	}
	return m
}

// Describe names the member's search: best+efsm k=1, random seed 3, dfs
// shuffle 2, ...
func (m swarmMember) Describe() string {
	s := m.Search
	if m.Heuristic != "" {
		s += "+" + m.Heuristic
	}
	if m.Heuristic == "efsm" {
		s += fmt.Sprintf(" k=%d", m.K)
	}
	if m.Search == "random" {
		s += fmt.Sprintf(" seed %d", m.Seed)
	}
	if m.Shuffle != 0 {
		s += fmt.Sprintf(" shuffle %d", m.Shuffle)
	}
	if m.NoTarget != "" {
		s += " (for " + m.NoTarget + ": no target)"
	}
	return s
}

// String is the member as results name it: "1/4 (bfs)".
func (m swarmMember) String() string {
	return fmt.Sprintf("%d/%d (%s)", m.Index, m.Size, m.Describe())
}

// parseMember reads --swarm-member I/N.
func parseMember(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || strings.TrimLeft(a+b, "0123456789") != "" || n < 1 || i >= n {
		return 0, 0, usagef("--swarm-member %q: want I/N with 0 ≤ I < N, e.g. 3/8", s)
	}
	return i, n, nil
}

// setupMember builds member i of a swarm of n of the check cfg, from the
// firmware at path loaded as o's flags say.
func setupMember(o *checkOptions, cfg check.Config, path string, i, n int) (*check.Check, swarmMember, error) {
	sm := memberOf(i, n, cfg.Seed, true)
	cs, err := o.setup(path, memberConfig(cfg, sm))
	if err != nil {
		return nil, sm, err
	}
	if quiet := memberOf(i, n, cfg.Seed, takesInterrupts(cs.Machine)); quiet != sm {
		// Members 0 and 2 trade places on firmware that takes no
		// interrupt: both are best-first searches, on another distance.
		sm = quiet
		mc := memberConfig(cfg, sm)
		est, note, err := check.Estimator(cs.Image, cs.Machine, mc)
		if err != nil {
			return nil, sm, usagef("%v", err)
		}
		cs.Config.Heuristic, cs.Config.K = mc.Heuristic, mc.K
		cs.Note, cs.Options.Estimate = note, est
	}
	if cs.Options.Estimate == nil && sm.Heuristic != "" {
		// No target: the member would be breadth-first search again.
		sm.NoTarget = sm.Describe()
		sm.Search, sm.Heuristic, sm.K, sm.Shuffle = "dfs", "", 0, cfg.Seed+uint64(sm.Index)
		cs.Config.Strategy, cs.Options.Strategy = search.DFS, search.DFS
	}
	cs.Options.Shuffle = sm.Shuffle
	return cs, sm, nil
}

// memberConfig is the check of member sm: cfg with the member's search.
func memberConfig(cfg check.Config, sm swarmMember) check.Config {
	cfg.Strategy, _ = search.ParseStrategy(sm.Search) // the names of memberOf
	cfg.Heuristic, cfg.K, cfg.Seed = heuristics.None, 1, 1
	if sm.Heuristic != "" {
		cfg.Heuristic, _ = heuristics.ParseKind(sm.Heuristic)
	}
	if sm.K > 0 {
		cfg.K = sm.K
	}
	if sm.Search == "random" {
		cfg.Seed = sm.Seed
	}
	return cfg
}

// takesInterrupts says whether the firmware runs interrupt handlers: --irq
// names some, or the chip's peripherals raise them.
func takesInterrupts(m *sim.Machine) bool { return len(m.IRQs()) > 0 || m.HasDevice() }

// swarmKey names the firmware and every flag that the members' searches
// depend on, so that swarm merge combines only the results of one swarm.
func swarmKey(cs *check.Check, o *checkOptions, n int) string {
	b := fmt.Sprintf("%s|n=%d|seed=%d|aim=%s|ignore=%s|compact=%t|max-states=%d", machineKey(cs.Image, o), n, o.seed, o.aim,
		strings.Join(o.ignore, ","), o.compact, o.maxStates)
	return fmt.Sprintf("%016x", xxhash.Sum64String(b))
}

// memberRun is one member's search in a swarm.
type memberRun struct {
	member swarmMember
	cs     *check.Check
	res    *search.Result
	// stopped says why the swarm stopped the member: "won" (another
	// member decided), "memory" (to leave the memory to the others),
	// "file" (the stop file appeared).
	stopped string
}

// swarmOutcome is the result of a swarm run in this process.
type swarmOutcome struct {
	runs   []*memberRun
	winner int            // the member that decided, or -1; with a conflict, the member with the violation
	res    *search.Result // the swarm's result: the winner's verdict and counterexample, the members' totals
	// conflict, when not nil, names a member that proved verified and
	// one whose violation replays (selfcheck.go): a bug in hc11mc.
	conflict *swarmConflict
}

// swarmProgress is a snapshot for the progress line.
type swarmProgress struct {
	Stored, Running int
	Memory          int64
	Elapsed         time.Duration
}

// processMemory is the memory the Go runtime holds from the system, as the
// search's own limit measures it.
func processMemory() int64 {
	held, _ := memlimit.Held()
	return held
}

// setupSwarm builds the members of a swarm of n of the check cfg.
func setupSwarm(o *checkOptions, cfg check.Config, path string, n int) ([]*memberRun, error) {
	runs := make([]*memberRun, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs, sm, err := setupMember(o, cfg, path, i, n)
			runs[i], errs[i] = &memberRun{member: sm, cs: cs}, err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return runs, nil
}

// swarmLimits are what a swarm shares: the memory, and the stop file.
type swarmLimits struct {
	maxMemory int64
	stopFile  string
}

// stopFileExists says whether the stop file is there.
func (l swarmLimits) stopFileExists() bool {
	if l.stopFile == "" {
		return false
	}
	_, err := os.Stat(l.stopFile)
	return err == nil
}

// race is the swarm's rule for its winner: the first member to decide
// (a violation, or an exhaustive end) in time wins, and the others stop
// at their next expansion. The swarm's time to an error is then that of
// its fastest member, slowed only by sharing the processors, as in
// Holzmann, Joshi and Groce's swarm verification.
//
// Which member wins can differ from run to run when two are close, and
// with it the counterexample; the verdict cannot (every member is a
// complete search of the same state space). Each member is a deterministic
// search, so the output's "repeat it alone with --swarm-member I/N" gives
// the winner's counterexample again on every run. An earlier version made
// the winner deterministic: members counted their progress in expansions
// times a cost per search order, and the member that decided at the least
// progress won once every other member had got that far. Its price was
// the error in the costs, which no deterministic count measures within a
// factor of two on every firmware (expansions, transitions, states stored
// and instructions simulated, fitted per search order over the benchmarks,
// are off by 30 to 40% either way on some model), paid at every decision:
// the swarm waited for its slowest member to catch up. Measured on the
// benchmark models in one process (fifteen runs each, medians, the same
// members), a swarm of two took up to 2.8 times the best single
// strategy's time with the wait and up to 2.3 times as a race; a swarm of
// four up to 4.2 times with the wait, up to 2.9 as a race.
//
// When the members outnumber the processors, each yields its processor
// every sliceExpansions expansions (runtime.Gosched): the Go scheduler
// would otherwise let the first members run for 10 ms before it preempts
// them, while the others, the winner perhaps, wait their turn.
type race struct {
	done   atomic.Bool
	mu     sync.Mutex
	winner int
	decide func(winner int) // called once, with mu held, when a member decides
}

// sliceExpansions is the members' time slice when they outnumber the
// processors: 128 expansions, 60 to 130 µs on the benchmarks.
const sliceExpansions = 128

func newRace(decide func(int)) *race { return &race{winner: -1, decide: decide} }

// pauser returns the search.Options.Pause of a member: it stops the
// member once another has won and, when share is true, yields the
// processor every sliceExpansions expansions.
func (r *race) pauser(share bool) func() bool {
	n := 0
	return func() bool {
		if r.done.Load() {
			return true
		}
		if n++; share && n%sliceExpansions == 0 {
			runtime.Gosched()
		}
		return false
	}
}

// leave is member i's end of its search, with its result: a decision wins
// unless another member's came first.
func (r *race) leave(i int, res *search.Result) {
	if res.Err != nil || res.Verdict == search.Incomplete {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.winner >= 0 {
		return
	}
	r.winner = i
	r.done.Store(true)
	r.decide(i)
}

// result returns the winner, or -1, once every member has left.
func (r *race) result() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.winner
}

// runSwarm runs the members until one decides or all stop; progress, when
// not nil, is called about once a second.
func runSwarm(ctx context.Context, runs []*memberRun, lim swarmLimits, progress func(swarmProgress)) *swarmOutcome {
	maxMemory := lim.maxMemory
	start := time.Now()
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	n := len(runs)
	var decidedAt time.Duration
	rc := newRace(func(w int) {
		decidedAt = time.Since(start)
		cancelAll()
		if lim.stopFile != "" {
			os.WriteFile(lim.stopFile, []byte(runs[w].member.String()+"\n"), 0o644)
		}
	})
	type done struct {
		i   int
		res *search.Result
	}
	ch := make(chan done, n)
	var mu sync.Mutex
	stored := make([]int, n)
	cancels := make([]context.CancelFunc, n)
	running := make([]bool, n)
	if lim.stopFileExists() {
		// Decided before this swarm started: stop at once.
		for _, r := range runs {
			r.stopped = "file"
		}
		cancelAll()
	}
	share := n > runtime.GOMAXPROCS(0)
	member := make([]func(), n)
	for i, r := range runs {
		mctx, cancel := context.WithCancel(ctx)
		cancels[i], running[i] = cancel, true
		opts := r.cs.Options
		opts.Progress = func(p search.Progress) {
			mu.Lock()
			stored[i] = p.Stored
			mu.Unlock()
		}
		if n > 1 {
			opts.Pause = rc.pauser(share)
		}
		end := func(res *search.Result) {
			rc.leave(i, res)
			ch <- done{i, res}
		}
		member[i] = func() {
			res := search.Run(mctx, r.cs.Machine, opts)
			if memberEndHook != nil {
				memberEndHook(i, res, end)
				return
			}
			end(res)
		}
	}
	// Member 0 runs on this goroutine, at once. The others wait for a
	// thread to take them up, which, on an idle machine, must be woken
	// first: 10 to 100 µs, as long as some searches take.
	for i := n - 1; i > 0; i-- {
		go member[i]()
	}
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		lastStop, lastProgress := start, start
		for left := n; left > 0; {
			select {
			case d := <-ch:
				left--
				cancels[d.i]()
				running[d.i] = false
				runs[d.i].res = d.res
			case now := <-tick.C:
				decided := rc.done.Load()
				if !decided && lim.stopFileExists() {
					for j, r := range runs {
						if running[j] && r.stopped == "" {
							r.stopped = "file"
						}
					}
					cancelAll()
				}
				mem := processMemory()
				live := 0
				for _, r := range running {
					if r {
						live++
					}
				}
				if maxMemory > 0 && live > 1 && !decided && mem > maxMemory-maxMemory/8 && now.Sub(lastStop) >= time.Second {
					// The member with the most states leaves its memory
					// to the others; among equals the later one, so that
					// the first members run longest.
					big := -1
					mu.Lock()
					for j := range runs {
						if running[j] && runs[j].stopped == "" && (big < 0 || stored[j] >= stored[big]) {
							big = j
						}
					}
					mu.Unlock()
					if big >= 0 {
						runs[big].stopped = "memory"
						cancels[big]()
						lastStop = now
					}
				}
				if progress != nil && now.Sub(lastProgress) >= time.Second {
					lastProgress = now
					mu.Lock()
					total := 0
					for _, s := range stored {
						total += s
					}
					mu.Unlock()
					progress(swarmProgress{Stored: total, Running: live, Memory: mem, Elapsed: now.Sub(start)})
				}
			}
		}
	}()
	member[0]()
	<-watched
	winner := rc.result()
	seconds := time.Since(start)
	if winner >= 0 {
		seconds = decidedAt
		for i, r := range runs {
			if i != winner && r.stopped == "" && r.res.Verdict == search.Incomplete && r.res.Limit == "interrupted" {
				r.stopped = "won"
			}
		}
	}
	out := &swarmOutcome{runs: runs, winner: winner}
	if n > 1 {
		// Every member has stopped: the swarm checks itself (selfcheck.go).
		if out.conflict = selfCheck(runs, winner); out.conflict != nil {
			out.winner = out.conflict.violated
		}
	}
	out.res = combine(runs, out.winner, seconds.Seconds())
	return out
}

// memberEndHook, when not nil, takes the place of each member's end in
// runSwarm: it is called with the member's index, its result and end, and
// must call end once with the result the member reports. Only tests set
// it, to make a member unsound (a wrong result) or to order the members'
// ends.
var memberEndHook func(i int, res *search.Result, end func(*search.Result))

// combine makes the swarm's result: the winner's verdict, violation,
// counterexample and note on stack privacy (any member's, without a winner); the members' stored states, expansions and transitions
// added up, the deepest depth, the union of the PCs they covered.
func combine(runs []*memberRun, winner int, seconds float64) *search.Result {
	res := &search.Result{Covered: map[uint16]bool{}, Verdict: search.Incomplete}
	st := &res.Stats
	for _, r := range runs {
		s := r.res.Stats
		st.StatesStored += s.StatesStored
		st.StatesExpanded += s.StatesExpanded
		st.Transitions += s.Transitions
		st.MaxDepth = max(st.MaxDepth, s.MaxDepth)
		st.PeakMemory = max(st.PeakMemory, s.PeakMemory)
		st.Frontier += s.Frontier
		st.Instructions += s.Instructions
		st.RunBoundHits += s.RunBoundHits
		st.Reduced += s.Reduced
		st.Private += s.Private
		st.StoreBytes += s.StoreBytes
		for pc := range r.res.Covered {
			res.Covered[pc] = true
		}
	}
	st.Seconds, st.SecondsTotal = seconds, seconds
	if winner >= 0 {
		w := runs[winner].res
		res.Verdict, res.Found, res.Omission, res.Privacy, res.Dead = w.Verdict, w.Found, w.Omission, w.Privacy, w.Dead
		return res
	}
	res.Limit = swarmLimit(runs)
	for _, r := range runs {
		res.Privacy = cmp.Or(res.Privacy, r.res.Privacy)
		res.Dead = cmp.Or(res.Dead, r.res.Dead)
	}
	return res
}

// swarmLimit says what stopped the members of an incomplete swarm.
func swarmLimit(runs []*memberRun) string {
	var order []string
	who := map[string][]string{}
	for _, r := range runs {
		l := memberLimit(r)
		if _, ok := who[l]; !ok {
			order = append(order, l)
		}
		who[l] = append(who[l], strconv.Itoa(r.member.Index))
	}
	if len(order) == 1 {
		if len(runs) == 1 {
			return order[0]
		}
		return order[0] + " (every member)"
	}
	var parts []string
	for _, l := range order {
		parts = append(parts, fmt.Sprintf("%s (member %s)", l, strings.Join(who[l], ", ")))
	}
	return strings.Join(parts, "; ")
}

// memberLimit says what stopped one member.
func memberLimit(r *memberRun) string {
	switch {
	case r.stopped == "memory":
		return "stopped to leave the memory to the other members"
	case r.stopped == "won":
		return "stopped: another member decided"
	case r.stopped == "file":
		return "stopped: the stop file appeared (another member decided)"
	case r.res.Err != nil:
		return r.res.Err.Error()
	}
	return memberLimitText(r.res.Limit)
}

// memberSummary is one member's line in the results: its verdict, what
// stopped it, its counts.
type memberSummary struct {
	Member   string  `json:"member"`
	Verdict  string  `json:"verdict"`
	Limit    string  `json:"limit,omitempty"`
	Stored   int     `json:"states_stored"`
	Expanded int     `json:"states_expanded"`
	Depth    int     `json:"max_depth"`
	Seconds  float64 `json:"seconds"`
	Trace    int     `json:"trace_length,omitempty"`
}

func summarize(r *memberRun) memberSummary {
	s := memberSummary{Member: r.member.String(), Verdict: r.res.Verdict.String(), Stored: r.res.Stats.StatesStored,
		Expanded: r.res.Stats.StatesExpanded, Depth: r.res.Stats.MaxDepth, Seconds: r.res.Stats.Seconds}
	if r.res.Verdict == search.Incomplete {
		s.Limit = memberLimit(r)
	}
	if len(r.res.Found) > 0 {
		s.Trace = len(r.res.Found[0].Trace)
	}
	return s
}

// sortedPCs lists covered PCs in order.
func sortedPCs(c map[uint16]bool) []int {
	pcs := make([]int, 0, len(c))
	for pc := range c {
		pcs = append(pcs, int(pc))
	}
	sort.Ints(pcs)
	return pcs
}

// benchSwarm is bench's run of the swarm strategy: the states are those
// all members stored (the swarm's work), the time the swarm's wall-clock
// time from the members' start, without their set-up, as for the other
// strategies.
func benchSwarm(co *checkOptions, cfg check.Config, path string, bm benchModel, workers int) (benchRecord, error) {
	runs, err := setupSwarm(co, cfg, path, workers)
	if err != nil {
		return benchRecord{}, err
	}
	freshHeap()
	out := runSwarm(context.Background(), runs, swarmLimits{maxMemory: co.maxMemory}, nil)
	res := out.res
	r := benchRecord{Model: bm.Name, Verdict: res.Verdict.String(), States: res.Stats.StatesStored,
		Seconds: res.Stats.Seconds, PeakMemory: res.Stats.PeakMemory, Limit: res.Limit}
	if out.winner >= 0 {
		r.Member = runs[out.winner].member.String()
	}
	if len(res.Found) > 0 {
		r.Kind = res.Found[0].Violation.Kind.String()
		r.TraceLength = len(res.Found[0].Trace)
	}
	r.Expected = r.Verdict == bm.Expect && (bm.Expect != "violation" || r.Kind == bm.Property)
	return r, nil
}
