package portfolio

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
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
	EndHook func(i int, res *search.Result, end func(*search.Result))
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
// members stored, the members still running, the memory the process
// holds, the time since the start.
type Progress struct {
	Stored, Running int
	Memory          int64
	Elapsed         time.Duration
}

// Outcome is the result of a swarm run in this process.
type Outcome struct {
	Runs []*Run
	// Winner is the member that decided, or -1; with a conflict, the
	// member with the violation.
	Winner int
	// Result is the swarm's: the winner's verdict and counterexample, the
	// members' totals (combine).
	Result *search.Result
	// Conflict, when not nil, names a member that proved verified and
	// one whose violation replays (selfcheck.go): a bug in hc11mc.
	Conflict *Conflict
}

// race is the swarm's rule for its winner: the first member to decide
// (a violation, or an exhaustive end) wins, and the others stop at their
// next expansion. See the package doc for why the first, and not the
// member that decided at the least progress.
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

// Race runs the members until one decides or all stop; progress, when not
// nil, is called about once a second. Member 0 runs on the calling
// goroutine.
func Race(ctx context.Context, runs []*Run, lim Limits, progress func(Progress)) *Outcome {
	maxMemory := lim.MaxMemory
	start := time.Now()
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	n := len(runs)
	var decidedAt time.Duration
	rc := newRace(func(w int) {
		decidedAt = time.Since(start)
		cancelAll()
		if lim.StopFile != "" {
			os.WriteFile(lim.StopFile, []byte(runs[w].Member.String()+"\n"), 0o644)
		}
	})
	type done struct {
		i   int
		res *search.Result
		hmc *symbolic.Stats
	}
	ch := make(chan done, n)
	var mu sync.Mutex
	stored := make([]int, n)
	cancels := make([]context.CancelCauseFunc, n)
	running := make([]bool, n)
	if lim.stopFileExists() {
		// Decided before this swarm started: stop at once.
		for _, r := range runs {
			r.Stopped = "file"
		}
		cancelAll()
	}
	share := n > runtime.GOMAXPROCS(0)
	withZ3, z3 := false, int64(0) // a symbolic member, and what Z3 holds
	for _, r := range runs {
		withZ3 = withZ3 || r.Member.Engine != ""
	}
	member := make([]func(), n)
	for i, r := range runs {
		mctx, cancel := context.WithCancelCause(ctx)
		cancels[i], running[i] = cancel, true
		opts := r.Check.Options
		opts.Progress = func(p search.Progress) {
			mu.Lock()
			stored[i] = p.Stored
			mu.Unlock()
		}
		if n > 1 {
			opts.Pause = rc.pauser(share)
		}
		member[i] = func() {
			// The member writes nothing but its own locals: the
			// watcher keeps its result (a symbolic member may still be
			// leaving when Race returns).
			var res *search.Result
			var hmc *symbolic.Stats
			if r.Member.Engine != "" && n > 1 && !startLate(mctx) {
				res = &search.Result{Verdict: search.Incomplete, Limit: "interrupted"}
			} else {
				res, hmc = r.search(mctx, opts)
			}
			end := func(res *search.Result) {
				if !(r.Member.Board && res.Verdict == search.Verified) || mutation.On(mutation.BoardProof) {
					// The board member's exhaustive end decides nothing
					// while another member runs (board.go).
					rc.leave(i, res)
				}
				ch <- done{i, res, hmc}
			}
			if hmc != nil && !rc.done.Load() && (memoryLimited(res) || errors.Is(context.Cause(mctx), errMemory)) {
				// Stopped for memory while the others go on: Z3's
				// memory, which finalizers free, goes back before the
				// member leaves the race.
				symbolic.ReleaseMemory()
			}
			if lim.EndHook != nil {
				lim.EndHook(i, res, end)
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
				cancels[d.i](nil)
				running[d.i] = false
				runs[d.i].Result, runs[d.i].HMC = d.res, d.hmc
				if rc.done.Load() {
					// Decided: a symbolic member still in a call of Z3
					// that cannot be interrupted (making its context,
					// taking in a formula) is not waited for. It stops
					// as soon as it returns, and nothing of it is read.
					left -= detach(runs, running)
				}
			case now := <-tick.C:
				decided := rc.done.Load()
				if !decided && lim.stopFileExists() {
					for j, r := range runs {
						if running[j] && r.Stopped == "" {
							r.Stopped = "file"
						}
					}
					cancelAll()
				}
				held, _ := memlimit.Held() // as the search's own limit measures it
				mem := held
				if withZ3 {
					// Z3's memory is C memory, outside the runtime's count.
					z3 = symbolic.Z3Memory()
					mem += z3
				}
				live := 0
				for _, r := range running {
					if r {
						live++
					}
				}
				if maxMemory > 0 && live > 1 && !decided && mem > maxMemory-maxMemory/8 && now.Sub(lastStop) >= time.Second {
					// The member that holds the most memory leaves it to
					// the others; among equals the later one, so that the
					// first members run longest.
					mu.Lock()
					big := biggest(runs, running, stored, held, z3)
					mu.Unlock()
					if big >= 0 {
						runs[big].Stopped = "memory"
						cancels[big](errMemory)
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
					progress(Progress{Stored: total, Running: live, Memory: mem, Elapsed: now.Sub(start)})
				}
			}
		}
	}()
	member[0]()
	<-watched
	winner := rc.result()
	if winner < 0 {
		// No other member decided: the board member's exhaustive end,
		// if it had one, is the result, a bounded one (board.go).
		for i, r := range runs {
			if r.Member.Board && r.Result != nil && r.Result.Err == nil && r.Result.Verdict == search.Verified {
				winner = i
				decidedAt = time.Since(start)
			}
		}
	}
	seconds := time.Since(start)
	if winner >= 0 {
		seconds = decidedAt
		for i, r := range runs {
			if i != winner && r.Stopped == "" && r.Result.Verdict == search.Incomplete && r.Result.Limit == "interrupted" {
				r.Stopped = "won"
			}
		}
	}
	out := &Outcome{Runs: runs, Winner: winner}
	if n > 1 {
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

// detach leaves out of the race the symbolic members still running once
// every explicit member has left: each is stopped (its context is
// cancelled), counts as interrupted, and is not read again. It returns
// how many it left out.
func detach(runs []*Run, running []bool) int {
	for j, r := range runs {
		if running[j] && r.Member.Engine == "" {
			return 0
		}
	}
	n := 0
	for j, r := range runs {
		if running[j] {
			running[j], r.detached = false, true
			r.Result = &search.Result{Verdict: search.Incomplete, Limit: "interrupted"}
			n++
		}
	}
	return n
}

// errMemory is why the swarm stops a member to leave the memory to the
// others.
var errMemory = errors.New("stopped to leave the memory to the other members")

// memoryLimited says whether a memory limit ended the search of res.
func memoryLimited(res *search.Result) bool {
	return strings.HasPrefix(res.Limit, "--max-memory")
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
