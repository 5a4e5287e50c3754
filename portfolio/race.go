package portfolio

import (
	"context"
	"errors"
	"fmt"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/verdict"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hc11mc/hc11mc/internal/memlimit"
	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/symbolic"
)

// Limits are what the members of a swarm in one process share: the
// memory, and the stop file.
type Limits struct {
	// MaxMemory is the whole process's limit, each member's hard limit
	// (search.Options.MaxMemory); the swarm stops members past seven
	// eighths of it. 0: none.
	MaxMemory int64
	// StopFile, when not "", stops the swarm (incomplete) when it exists,
	// and is created when the swarm decides: the members of an array job
	// on a shared file system stop each other.
	StopFile string
	// EndHook, when not nil, takes the place of each member's end: it is
	// called with the member's index, its result and end, and must call
	// end once with the result the member reports. Only tests set it, to
	// make a member unsound (a wrong result) or to order the members'
	// ends.
	EndHook func(i int, res *check.Result, end func(*check.Result))
}

// stopFileExists says whether the stop file is there.
func (l Limits) stopFileExists() bool {
	if l.StopFile == "" {
		return false
	}
	_, err := os.Stat(l.StopFile)
	return err == nil
}

// Progress is a snapshot of a swarm, for a progress line: the states the
// members stored, their deepest depth and their frontiers, the members
// still running, the memory the process holds, the time since the start.
type Progress struct {
	Stored, Running int
	// Depth is the deepest any member's search has gone, Frontier the
	// states the members have left to expand, together.
	Depth, Frontier int
	Memory          int64
	Elapsed         time.Duration
}

// outcome is what a race leaves: the members, the winner, the swarm's
// result and a contradiction between members.
type outcome struct {
	Runs []*Run
	// Winner is the member that decided, or -1; with a conflict, the
	// member with the violation.
	Winner int
	// Result is the swarm's: the winner's verdict and counterexample, the
	// members' totals (combine).
	Result *check.Result
	// Conflict, when not nil, names a member that proved verified and
	// one whose violation replays (selfcheck.go): a bug in hc11mc.
	Conflict *Conflict
}

// Swarm is the members of a swarm racing in this process: an engine of a
// check (check.Engine), whose Decision says, after Run, which member
// decided and what each did.
type Swarm struct {
	Runs   []*Run
	Limits Limits
	// Progress, when not nil, is called about once a second.
	Progress func(Progress)
	// Seed is the swarm's --seed, from which its members' settings
	// derive (an internal error names them).
	Seed uint64

	decision *Decision
}

// The engine is a check.Engine.
var _ check.Engine = (*Swarm)(nil)

// Describe names the engine: "swarm of 4".
func (s *Swarm) Describe() string { return fmt.Sprintf("swarm of %d", len(s.Runs)) }

// Run races the members until one decides or all stop, and returns the
// swarm's result (Decision.Result). Two members that contradict each
// other, or a counterexample of the symbolic member that does not replay,
// are in the Decision: the result is given all the same.
func (s *Swarm) Run(ctx context.Context) (*check.Result, error) {
	s.decision = runRace(ctx, s.Runs, s.Limits, s.Progress).decide(s.Seed)
	return s.decision.Result, nil
}

// Decision is what the last Run decided; nil before Run.
func (s *Swarm) Decision() *Decision { return s.decision }

// race is the swarm's rule for its winner: the first member to decide
// (a violation, or an exhaustive end) wins, and the others stop at their
// next expansion. See docs/swarm.md for why the first, and not the
// member that decided at the least progress. It holds the state of one
// race, which the members (member) and the watcher (watch) share.
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

	runs      []*Run
	lim       Limits
	progress  func(Progress)
	start     time.Time
	cancelAll context.CancelFunc
	decidedAt time.Duration
	ended     chan ended
	cancels   []context.CancelCauseFunc
	running   []bool // read and written by the watcher only
	// statsMu guards stored, depth and frontier: the states each member
	// has stored, its depth and its frontier.
	statsMu         sync.Mutex
	stored          []int
	depth, frontier []int
	withZ3          bool  // a symbolic member races
	z3              int64 // what Z3 holds, last measured
	// lastStop and lastProgress are when the watcher last stopped a
	// member for memory and last called progress.
	lastStop, lastProgress time.Time
}

// ended is a member's end: its result and its engine's error.
type ended struct {
	i   int
	res *check.Result
	err error
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

// leave is member i's end of its search, with its result and its
// engine's error: a decision wins unless another member's came first.
func (r *race) leave(i int, res *check.Result, err error) {
	if err != nil || res.Verdict == check.Incomplete {
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

// runRace runs the members until one decides or all stop; progress, when
// not nil, is called about once a second. Member 0 runs on the calling
// goroutine, the watcher (watch) on another.
func runRace(ctx context.Context, runs []*Run, lim Limits, progress func(Progress)) *outcome {
	n := len(runs)
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	rc := &race{winner: -1, runs: runs, lim: lim, progress: progress, start: time.Now(), cancelAll: cancelAll,
		ended: make(chan ended, n), cancels: make([]context.CancelCauseFunc, n), running: make([]bool, n), stored: make([]int, n),
		depth: make([]int, n), frontier: make([]int, n)}
	rc.lastStop, rc.lastProgress = rc.start, rc.start
	rc.decide = func(w int) {
		rc.decidedAt = time.Since(rc.start)
		cancelAll()
		if lim.StopFile != "" {
			os.WriteFile(lim.StopFile, []byte(runs[w].Member.String()+"\n"), 0o644)
		}
	}
	if lim.stopFileExists() {
		// Decided before this swarm started: stop at once.
		for _, r := range runs {
			r.Stopped = "file"
		}
		cancelAll()
	}
	for _, r := range runs {
		rc.withZ3 = rc.withZ3 || r.Member.Engine != ""
	}
	member := make([]func(), n)
	for i := range runs {
		mctx, cancel := context.WithCancelCause(ctx)
		rc.cancels[i], rc.running[i] = cancel, true
		member[i] = rc.member(mctx, i)
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
		rc.watch()
	}()
	member[0]()
	<-watched
	return rc.outcome()
}

// member returns the function that runs member i in its context mctx and
// sends its end to the watcher. The member writes nothing but its own
// locals: the watcher keeps its result (a symbolic member may still be
// leaving when the race returns).
func (rc *race) member(mctx context.Context, i int) func() {
	r, n := rc.runs[i], len(rc.runs)
	opts := r.Check.Options
	opts.Progress = func(p search.Progress) {
		rc.statsMu.Lock()
		rc.stored[i], rc.depth[i], rc.frontier[i] = p.Stored, p.Depth, p.Frontier
		rc.statsMu.Unlock()
	}
	if n > 1 {
		opts.Pause = rc.pauser(n > runtime.GOMAXPROCS(0))
	}
	return func() {
		var res *check.Result
		var err error
		if r.Member.Engine != "" && n > 1 && !startLate(mctx) {
			res = &check.Result{Verdict: check.Incomplete, Limit: interrupted}
		} else {
			res, err = r.engine(opts).Run(mctx)
		}
		r.searched.Store(true)
		if res == nil {
			res = &check.Result{Verdict: check.Incomplete}
		}
		end := func(res *check.Result) {
			if !(r.Member.Board && res.Verdict == check.Verified) || mutation.On(mutation.BoardProof) {
				// The board member's exhaustive end decides nothing
				// while another member runs (board.go).
				rc.leave(i, res, err)
			}
			rc.ended <- ended{i, res, err}
		}
		if r.Member.Engine != "" && !rc.done.Load() && (memoryLimited(res) || errors.Is(context.Cause(mctx), errMemory)) {
			// Stopped for memory while the others go on: Z3's
			// memory, which finalizers free, goes back before the
			// member leaves the race.
			symbolic.ReleaseMemory()
		}
		if rc.lim.EndHook != nil {
			rc.lim.EndHook(i, res, end)
			return
		}
		end(res)
	}
}

// watch keeps the race until every member has left: it takes each
// member's end and, every tenth of a second, looks at the stop file, the
// memory and the progress (tick).
func (rc *race) watch() {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for left := len(rc.runs); left > 0; {
		select {
		case d := <-rc.ended:
			left--
			rc.cancels[d.i](nil)
			rc.running[d.i] = false
			rc.runs[d.i].Result, rc.runs[d.i].Err = d.res, d.err
			if rc.done.Load() {
				// Decided: a symbolic member still in a call of Z3
				// that cannot be interrupted (making its context,
				// taking in a formula) is not waited for. It stops
				// as soon as it returns, and nothing of it is read.
				left -= detach(rc.runs, rc.running)
			}
			if watchedHook != nil {
				watchedHook(d.i)
			}
		case now := <-tick.C:
			rc.tick(now)
		}
	}
}

// tick is the watcher's look at the swarm at now: the stop file stops
// every member; past seven eighths of the memory limit the member that
// holds the most leaves it to the others; progress is told once a second.
func (rc *race) tick(now time.Time) {
	runs, lim := rc.runs, rc.lim
	decided := rc.done.Load()
	if !decided && lim.stopFileExists() {
		for j, r := range runs {
			if rc.running[j] && r.Stopped == "" {
				r.Stopped = "file"
			}
		}
		rc.cancelAll()
	}
	held, _ := memlimit.Held() // as the search's own limit measures it
	mem := held
	if rc.withZ3 {
		// Z3's memory is C memory, outside the runtime's count.
		rc.z3 = symbolic.Z3Memory()
		mem += rc.z3
	}
	live := 0
	for _, r := range rc.running {
		if r {
			live++
		}
	}
	maxMemory := lim.MaxMemory
	if maxMemory > 0 && live > 1 && !decided && mem > maxMemory-maxMemory/8 && now.Sub(rc.lastStop) >= time.Second {
		// The member that holds the most memory leaves it to the
		// others; among equals the later one, so that the first
		// members run longest.
		rc.statsMu.Lock()
		big := biggest(runs, rc.running, rc.stored, held, rc.z3)
		rc.statsMu.Unlock()
		if big >= 0 {
			runs[big].Stopped = "memory"
			rc.cancels[big](errMemory)
			rc.lastStop = now
		}
	}
	if rc.progress != nil && now.Sub(rc.lastProgress) >= time.Second {
		rc.lastProgress = now
		rc.statsMu.Lock()
		p := Progress{Running: live, Memory: mem, Elapsed: now.Sub(rc.start)}
		for j, s := range rc.stored {
			p.Stored += s
			p.Depth = max(p.Depth, rc.depth[j])
			p.Frontier += rc.frontier[j]
		}
		rc.statsMu.Unlock()
		rc.progress(p)
	}
}

// outcome is the race's once every member has left: the members the
// winner stopped say so, the swarm checks itself, and the members'
// results are combined.
func (rc *race) outcome() *outcome {
	runs := rc.runs
	winner := rc.result()
	if winner < 0 {
		// No other member decided: the board member's exhaustive end,
		// if it had one, is the result, a bounded one (board.go).
		for i, r := range runs {
			if r.Member.Board && r.Result != nil && r.Err == nil && r.Result.Verdict == check.Verified {
				winner = i
				rc.decidedAt = time.Since(rc.start)
			}
		}
	}
	seconds := time.Since(rc.start)
	if winner >= 0 {
		seconds = rc.decidedAt
		for i, r := range runs {
			if i != winner && r.Stopped == "" && r.Result.Verdict == check.Incomplete && r.Result.Limit.Kind == verdict.StopInterrupted {
				r.Stopped = "won"
			}
		}
	}
	out := &outcome{Runs: runs, Winner: winner}
	if len(runs) > 1 {
		// Every member has stopped: the swarm checks itself (selfcheck.go).
		if out.Conflict = selfCheck(runs, winner); out.Conflict != nil {
			out.Winner = out.Conflict.Violated
		}
	}
	out.Result = combine(runs, out.Winner, seconds.Seconds())
	return out
}

// biggest returns the running member, not yet stopped, that holds the
// most memory, or -1: the symbolic member holds what Z3 has allocated,
// z3, and the explicit members share held, what the Go runtime holds, in
// proportion to the states they have stored. Among equals it is the later
// member. Without a symbolic member that is the member with the most
// states.
func biggest(runs []*Run, running []bool, stored []int, held, z3 int64) int {
	total := 0
	for j, r := range runs {
		if r.Member.Engine == "" {
			total += stored[j]
		}
	}
	big, most := -1, -1.0
	for j, r := range runs {
		if !running[j] || r.Stopped != "" {
			continue
		}
		m := float64(z3)
		if r.Member.Engine == "" {
			m = 0
			if total > 0 {
				m = float64(held) * float64(stored[j]) / float64(total)
			}
		}
		if big < 0 || m >= most {
			big, most = j, m
		}
	}
	return big
}

// watchedHook, when not nil, is called by the race's watcher after it has
// taken in the end of member i. Only tests set it, to order a member's end
// after the others'.
var watchedHook func(i int)

// detach leaves out of the race the symbolic members still searching once
// every explicit member has left: each is stopped (its context is
// cancelled), counts as interrupted, and is not read again. It returns
// how many it left out. A member whose search has returned is not left
// out: its result is on its way (its end may come after the explicit
// members' ends, when a test's EndHook orders them so, or when the
// scheduler does), and a verdict it reached is the swarm's to compare —
// taken for interrupted, it read "stopped: another member decided".
func detach(runs []*Run, running []bool) int {
	for j, r := range runs {
		if running[j] && r.Member.Engine == "" {
			return 0
		}
	}
	n := 0
	for j, r := range runs {
		if running[j] && !r.searched.Load() {
			running[j], r.detached = false, true
			r.Result = &check.Result{Verdict: check.Incomplete, Limit: interrupted}
			n++
		}
	}
	return n
}

// interrupted is the stop of a member the swarm stopped.
var interrupted = verdict.Stop{Kind: verdict.StopInterrupted}

// errMemory is why the swarm stops a member to leave the memory to the
// others.
var errMemory = errors.New("stopped to leave the memory to the other members")

// memoryLimited says whether a memory limit ended the search of res.
func memoryLimited(res *check.Result) bool {
	return res.Limit.Kind == verdict.StopMaxMemory
}

// symbolicStart is how long the symbolic member of a swarm waits before
// it starts: the explicit searches decide most small models in less (the
// benchmark models take 0.1 to 30 ms to their error), where the symbolic
// member's set-up alone, a Z3 context, takes 7 ms of a processor and 17
// MiB, which they would share. Tests set it.
var symbolicStart = 5 * time.Millisecond

// startLate waits symbolicStart, and says whether the member is to start:
// false when ctx ended first (another member decided).
func startLate(ctx context.Context) bool {
	t := time.NewTimer(symbolicStart)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
