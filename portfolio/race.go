package portfolio

import (
	"context"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hc11mc/hc11mc/internal/memlimit"
	"github.com/hc11mc/hc11mc/search"
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
	}
	ch := make(chan done, n)
	var mu sync.Mutex
	stored := make([]int, n)
	cancels := make([]context.CancelFunc, n)
	running := make([]bool, n)
	if lim.stopFileExists() {
		// Decided before this swarm started: stop at once.
		for _, r := range runs {
			r.Stopped = "file"
		}
		cancelAll()
	}
	share := n > runtime.GOMAXPROCS(0)
	member := make([]func(), n)
	for i, r := range runs {
		mctx, cancel := context.WithCancel(ctx)
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
		end := func(res *search.Result) {
			rc.leave(i, res)
			ch <- done{i, res}
		}
		member[i] = func() {
			res := search.Run(mctx, r.Check.Machine, opts)
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
				cancels[d.i]()
				running[d.i] = false
				runs[d.i].Result = d.res
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
				mem, _ := memlimit.Held() // as the search's own limit measures it
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
						if running[j] && runs[j].Stopped == "" && (big < 0 || stored[j] >= stored[big]) {
							big = j
						}
					}
					mu.Unlock()
					if big >= 0 {
						runs[big].Stopped = "memory"
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
					progress(Progress{Stored: total, Running: live, Memory: mem, Elapsed: now.Sub(start)})
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
