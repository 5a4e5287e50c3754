// Package search explores the state space of a firmware image: it keeps the
// frontier (FIFO, LIFO, priority or random order), the set of visited
// states with parent links, the limits, and turns what it finds into a
// Result with a replayable counterexample.
//
// It knows nothing about the 68HC11: states, transitions and properties
// come from package sim, estimates from a function the caller passes
// (package heuristics). What makes two states the same is sim's alone: the
// store keeps the canonical key sim.State.AppendKey writes (with ids from
// the store's intern tables, which make it a sim.Interner), and frontiers
// keep sim.State.AppendPacked's form; TestImports keeps it that way. Ties in best-first and A* search are broken in
// first-in first-out order, so equal estimates are explored breadth-first.
//
// The visited set is exact by default (see store): a fingerprint collision
// is resolved by comparing the stored states, never by guessing. With
// Options.Compact only fingerprints are kept, as SPIN's hash compaction
// does, and the result reports the probability that a state was missed.
// Frontiers that grow wide (every order but depth-first) keep their states
// packed into a few bytes per thread (sim.State.AppendPacked) once they hold
// packAbove of them.
//
// With Options.Workers, breadth-first and depth-first searches run on
// several cores: each worker owns the states whose memory hashes to it,
// with a store of its own, and sends the others to their owners
// (parallel.go says why, and what it costs).
package search

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"
	"unsafe"

	"github.com/hc11mc/hc11mc/internal/prefetch"
	"github.com/hc11mc/hc11mc/internal/proviso"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/verdict"
)

// Strategy is the order in which the frontier is explored (--search).
type Strategy uint8

// The strategies.
const (
	BFS    Strategy = iota // breadth-first: shortest counterexamples
	DFS                    // depth-first
	Best                   // greedy best-first on the estimate
	AStar                  // A*: depth + estimate
	Random                 // a random frontier state each time (seeded)
)

var strategyNames = []string{"bfs", "dfs", "best", "astar", "random"}

func (s Strategy) String() string { return strategyNames[s] }

// ParseStrategy reads a --search value.
func ParseStrategy(s string) (Strategy, error) {
	for i, n := range strategyNames {
		if n == s {
			return Strategy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown --search %q: use bfs, dfs, best, astar or random", s)
}

// Options configure a search.
type Options struct {
	Strategy Strategy
	// Estimate ranks states for best and astar: a smaller estimate is
	// explored first (nil: none, and both behave as bfs). The search only
	// compares estimates: a heuristic's value for "no target reachable"
	// (heuristics.Inf) is simply larger than all others, so those states
	// come last and are never dropped; A*'s depth + estimate saturates at
	// math.MaxInt.
	Estimate  func(s *sim.State) int
	Seed      uint64
	MaxStates int           // stop after this run stores this many states (0: no bound); see Resume
	Timeout   time.Duration // this run's time; 0: none
	MaxMemory int64         // bytes the process may hold (see memory.go); 0: none
	Compact   bool          // hash compaction
	All       bool          // keep going after a violation, reporting each kind once
	// Workers is the number of goroutines that search at once, each
	// owning a share of the states (see parallel.go); 0 or 1 is one.
	// Breadth-first and depth-first searches only: the other orders, a
	// resumed search, one that may save its frontier and a swarm member
	// (Shuffle) run one.
	Workers int
	// Reduce turns on partial-order reduction: where the machine offers
	// a transition that may stand for all of a state's
	// (sim.Expander.AmpleCandidates), the search follows it alone,
	// provided the state it leads to is new (the cycle proviso).
	Reduce bool
	// private is set by Run when the reduction may take stack accesses
	// as private, which the search must stop to withdraw once broken.
	private bool
	// dead is set by Run when the machine eliminates dead data, whose
	// assumptions the search must stop to withdraw once broken.
	dead bool
	// resumed is the saved search Run read from Resume, for run.
	resumed *resumed
	// Shuffle, when not 0, seeds a generator that permutes each batch
	// of a state's successors (sim.Expander.ExpandBatch) before they
	// enter the frontier: depth-first search then follows them in that
	// order, and the other orders break their ties by it. The members of
	// a swarm differ by it; 0 keeps the simulator's order.
	Shuffle  uint64
	Ignore   map[sim.Kind]bool
	Progress func(Progress) // called about once a second
	// Pause, when not nil, is called after each expansion: a swarm
	// holds its members there so that the member that decides first is
	// the same on every run. It returns true to stop the search, as an
	// interrupt does.
	Pause func() (stop bool)

	// SaveReserve keeps room under MaxMemory to save the frontier
	// (Result.SaveFrontier) when a limit stops the search, and to resume
	// it under the same limit: the search then stops when it holds four
	// fifths of MaxMemory (see memory.go).
	SaveReserve bool

	// Resume continues the search saved by Result.SaveFrontier instead of
	// starting from the initial state; Key must be the key it was saved
	// with (it names the firmware and every option that shapes the states).
	// The limits apply to the run they are given to: the states and the
	// time of the runs before do not count against MaxStates and Timeout.
	Resume io.Reader
	Key    string
}

// Progress is a snapshot for the progress line.
type Progress struct {
	Stored, Expanded int
	Depth            int
	Frontier         int
	Memory           int64
	Elapsed          time.Duration
}

// Verdict is the outcome of a search: package verdict's, which every
// engine gives.
type Verdict = verdict.Verdict

// The verdicts, package verdict's.
const (
	Verified   = verdict.Verified
	Violated   = verdict.Violated
	Incomplete = verdict.Incomplete
)

// Stats are the counters of a search.
type Stats struct {
	StatesStored   int     `json:"states_stored"`
	StatesExpanded int     `json:"states_expanded"`
	Transitions    int     `json:"transitions"`
	MaxDepth       int     `json:"max_depth"`
	Seconds        float64 `json:"seconds"`       // this run's
	SecondsTotal   float64 `json:"seconds_total"` // with the runs before a resume
	PeakMemory     int64   `json:"peak_memory_bytes"`
	Frontier       int     `json:"frontier"`
	Instructions   uint64  `json:"instructions"`
	RunBoundHits   uint64  `json:"run_bound_hits,omitempty"`
	// Reduced counts the states expanded by one transition alone
	// (partial-order reduction) instead of all of theirs.
	Reduced int `json:"states_reduced,omitempty"`
	// Private counts those of them whose transition accessed its
	// thread's stack (sim/private.go).
	Private    int   `json:"states_reduced_private,omitempty"`
	StoreBytes int64 `json:"store_bytes"`
	// Workers is the number of workers that searched, when more than one
	// (Options.Workers).
	Workers int `json:"workers,omitempty"`
}

// Found is one violation with the path to it.
type Found struct {
	Violation *sim.Violation
	Trace     []sim.Label // from the initial state
}

// Result is what a search found.
type Result struct {
	Verdict Verdict
	Found   []Found // the violations, first found first
	Stats   Stats
	Limit   verdict.Stop // why an incomplete search stopped
	// Covered lists the PCs of every expanded state's threads, for the
	// coverage report of an incomplete search.
	Covered map[uint16]bool
	// Omission is, in compact mode, the probability that some state was
	// wrongly taken for visited (the birthday bound over 64-bit fingerprints).
	Omission float64
	// Err is set when the search could not start (a frontier that cannot
	// be resumed).
	Err error
	// Privacy, when not empty, says which transition broke the privacy of
	// a stack that partial-order reduction assumed (sim/private.go), and
	// what the search did about it.
	Privacy string
	// Dead, when not empty, says which transition broke an assumption of
	// dead-data elimination (sim.DeadBreak: a read of a masked stack
	// byte, a return liveness did not expect) and what the search did
	// about it.
	Dead string
	// Handed lists the states whose transitions offered a choice wider
	// than the machine's Config.MaxBranch: those transitions were not
	// followed (sim.Expander.Wide), and a search that would otherwise
	// have been exhaustive is Incomplete, stopped by verdict.StopHanded. The
	// caller may follow them with another engine (check --engine auto).
	Handed []Handed

	// Levels, on an incomplete search, is the number of breadth-first
	// levels it expanded completely: every state fewer than Levels
	// transitions from the initial state was expanded, so no execution of
	// at most Levels-1 transitions reaches a violation that was not
	// found (a violation on one of its transitions, or a deadlock at its
	// end). 0 says nothing; LevelsNote then says why, where a limit
	// stopped a search whose order would otherwise make the claim. See
	// "Proved depth" at the top of levels.go for why it holds.
	Levels     int
	LevelsNote string
	// Frontier, on an incomplete search, are the PCs most states of its
	// frontier have a thread at, most first: where the states went.
	Frontier []FrontierPC

	save func(io.Writer) error
}

// Handed is a state with transitions the search did not follow.
type Handed struct {
	State   *sim.State
	Trace   []sim.Label // from the initial state to State
	Threads []int       // whose transitions out of State were not followed
}

// The stops of a search (Result.Limit) that have no bound: a search that
// followed every transition but those of Result.Handed, an interrupt (or
// Options.Pause), a broken assumption of a reduction, a full store.
var (
	noStop          verdict.Stop
	stopHanded      = verdict.Stop{Kind: verdict.StopHanded}
	stopInterrupted = verdict.Stop{Kind: verdict.StopInterrupted}
	stopPrivacy     = verdict.Stop{Kind: verdict.StopPrivacy}
	stopDead        = verdict.Stop{Kind: verdict.StopDead}
	stopFull        = verdict.Because(fullLimit)
)

// CanSave reports whether SaveFrontier has a search to save: the search
// was stopped by a limit, and no assumption of a reduction broke under
// what it stored.
func (r *Result) CanSave() bool { return r.save != nil }

// SaveFrontier writes what an incomplete search leaves to do, for
// Options.Resume. It fails for a search that was not incomplete.
func (r *Result) SaveFrontier(w io.Writer) error {
	if r.save == nil {
		return fmt.Errorf("nothing to save: the search was not stopped by a limit")
	}
	return r.save(w)
}

type node struct {
	s      *sim.State // the state, unless it is packed
	packed []byte     // the state packed (sim.State.AppendPacked), in wide frontiers
	id     uint32     // exact mode: the state's id in the store
	trail  *trail     // compact mode: the path to the state
	depth  int
	key    int
	seq    uint64
}

// pq is a binary min-heap of nodes on (key, seq): the smallest estimate
// first, and among equal estimates the oldest (first in, first out).
type pq []node

func (q pq) less(i, j int) bool {
	if q[i].key != q[j].key {
		return q[i].key < q[j].key
	}
	return q[i].seq < q[j].seq
}

func (q *pq) push(n node) {
	*q = append(*q, n)
	h := *q
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *pq) pop() node {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h[last] = node{}
	h = h[:last]
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		c := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			c = r
		}
		if !h.less(c, i) {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	*q = h
	return top
}

// frontier holds the states still to expand, in the strategy's order.
type frontier struct {
	strat Strategy
	list  []node // bfs (queue from head), dfs (stack), random
	head  int
	heap  pq
	rnd   *rand.Rand
}

func newFrontier(opts *Options) *frontier {
	return &frontier{strat: opts.Strategy, rnd: rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))}
}

// all returns the frontier's states, in no particular order.
func (f *frontier) all() []node {
	if f.strat == Best || f.strat == AStar {
		return f.heap
	}
	return f.list[f.head:]
}

func (f *frontier) len() int {
	if f.strat == Best || f.strat == AStar {
		return len(f.heap)
	}
	return len(f.list) - f.head
}

// next returns the node pop would return now, to prefetch, in BFS and
// best-first order: it was stored long ago, and its memory has left the
// processor's caches. (DFS pops what it just pushed, and random order
// cannot tell.)
func (f *frontier) next() *node {
	switch {
	case f.len() == 0:
		return nil
	case f.strat == Best || f.strat == AStar:
		return &f.heap[0]
	case f.strat == BFS:
		return &f.list[f.head]
	}
	return nil
}

func (f *frontier) push(n node) {
	switch f.strat {
	case Best, AStar:
		f.heap.push(n)
	default:
		f.list = append(f.list, n)
	}
}

func (f *frontier) pop() node {
	switch f.strat {
	case Best, AStar:
		return f.heap.pop()
	case DFS:
		n := f.list[len(f.list)-1]
		f.list = f.list[:len(f.list)-1]
		return n
	case Random:
		i := f.head + f.rnd.IntN(len(f.list)-f.head)
		n := f.list[i]
		f.list[i] = f.list[len(f.list)-1]
		f.list = f.list[:len(f.list)-1]
		return n
	}
	n := f.list[f.head]
	f.list[f.head] = node{}
	f.head++
	if f.head > 1024 && f.head*2 > len(f.list) {
		f.list = append(f.list[:0], f.list[f.head:]...)
		f.head = 0
	}
	return n
}

// packAbove is the frontier size from which new states are kept packed:
// 8,192 full states take about 6 MiB with a few threads. (At 65,536, about
// 50 MiB, the unpacked part was 20 bytes a state of the peak on searches
// of 1–3 million states: philo5_above 109 → 88, philo5_rom 87 → 70
// breadth-first under --reduce none, at no measurable cost in speed.)
var packAbove = 1 << 13

// packFrom is the frontier size from which states like s are kept packed:
// packAbove, or fewer when s is large, so that the unpacked part of a
// frontier stays under about 50 MiB (a state of firmware on 48 KiB of
// RAM holds 768 page pointers: 6 KiB).
func packFrom(s *sim.State) int {
	size := int(unsafe.Sizeof(sim.State{})) + len(s.Threads)*int(unsafe.Sizeof(sim.Thread{})) + len(s.Pages)*8
	return min(packAbove, max(256, 50<<20/size))
}

// Run searches the states of m reachable from its initial state.
//
// The reductions assume what they cannot prove in advance — that stacks
// are private (sim/private.go), that nothing reads the data they leave
// out of states (sim/live.go, sim/deadstack.go) — and the machine checks
// it on every transition. When a run sees an assumption break, a
// violation it found stands (every path of the reduced graph is a path
// of the firmware's, and the states that executed were never changed);
// otherwise Run withdraws what was assumed and searches again, and the
// result says so (Privacy, Dead). A resumed search (Options.Resume)
// starts on a machine that has learned what the saved one had
// (snapshot.go: the resume rule); where an assumption breaks, it
// searches again from the initial state, since the saved part rests on
// the assumption too.
func Run(ctx context.Context, m *sim.Machine, opts Options) *Result {
	start := time.Now()
	privNote, deadNote := "", ""
	if opts.Resume != nil {
		// The machine learns what the saved search had learned before
		// anything is decided by it (snapshot.go: the resume rule).
		r, err := load(opts.Resume, opts.Key, &opts, len(m.Initial().Pages))
		if err == nil {
			// The violations found before are reported again: each must
			// replay (before Restore, which leaves m as saved).
			for i, f := range r.sn.Found {
				if f.Violation == nil {
					err = fmt.Errorf("not a saved frontier, or an inconsistent one: violation %d is empty", i)
					break
				}
				if _, v, rerr := Replay(m, f.Trace); rerr != nil || v == nil || v.Kind != f.Violation.Kind {
					err = fmt.Errorf("not a saved frontier, or an inconsistent one: violation %d (%s) does not replay", i, f.Violation.Kind)
					break
				}
			}
		}
		if err == nil {
			if err = m.Restore(r.sn.Learned); err != nil {
				err = fmt.Errorf("not a saved frontier, or an inconsistent one: %v", err)
			}
		}
		if err != nil {
			return &Result{Verdict: Incomplete, Err: err, Covered: map[uint16]bool{}}
		}
		opts.resumed = r
		privNote, deadNote = r.sn.Privacy, r.sn.Dead
	}
	opts.private = opts.Reduce && m.CheckPrivate()
	var earlier float64
	if m.EliminatesDead() && m.DeadBroken() != nil {
		// An earlier search of m saw the elimination break.
		m.WithdrawDead()
		deadNote = fmt.Sprintf("%v (in an earlier search), so no dead data was left out of states", m.DeadBroken())
	}
	opts.dead = m.EliminatesDead()
	for {
		res := run(ctx, m, opts)
		res.Stats.Seconds += earlier
		res.Stats.SecondsTotal += earlier
		res.Privacy, res.Dead = privNote, deadNote
		in, db := m.Intrusion(), m.DeadBroken()
		brokeP, brokeD := opts.private && in != nil, opts.dead && db != nil
		if !brokeP && !brokeD {
			// Counterexamples are the machine's without batches,
			// instruction by instruction (sim/batch.go).
			for i := range res.Found {
				res.Found[i].Trace = Unbatch(m, res.Found[i].Trace)
				if res.Found[i].Violation.Kind == sim.KindDeadlock {
					res.Found[i].Trace = FinishWait(m, res.Found[i].Trace)
				}
			}
			return res
		}
		if brokeP {
			res.Privacy = fmt.Sprintf("%v after a transition followed alone relied on that byte being private", in)
		}
		if brokeD {
			res.Dead = fmt.Sprintf("%v, so no dead data was left out of states", db)
		}
		if len(res.Found) > 0 && !opts.All {
			res.Verdict, res.Limit = Violated, noStop
			return res
		}
		again := "searched again"
		if opts.Resume != nil {
			// What the saved search stored rests on the assumption that
			// broke, as does the part resumed: search again from the
			// initial state, with what the machine has learned.
			opts.Resume = nil
			again = "searched again from the initial state, not from the saved frontier,"
		}
		if opts.Timeout > 0 {
			if opts.Timeout -= time.Since(start); opts.Timeout <= 0 {
				opts.Timeout = time.Nanosecond
			}
		}
		start = time.Now()
		earlier = res.Stats.Seconds
		if brokeP {
			if m.RestartPrivacy() {
				privNote = res.Privacy + "; " + again + " with that stack's region shrunk to exclude it"
			} else {
				opts.private = false
				privNote = res.Privacy + "; " + again + " without taking stacks as private"
			}
		}
		if brokeD {
			m.WithdrawDead()
			opts.dead = false
			deadNote = res.Dead + "; " + again + " without it"
		}
	}
}

// The cycle proviso of partial-order reduction is package proviso's, on
// the flags of a state's record (store.flags). Compared with taking only
// new states (the proviso of a hash-compact store, which keeps no records
// to flag), far fewer states are expanded in full: on
// testdata/bench/philo5_ordered, a chain of private steps that joins one
// already stored no longer expands its last state in full.

// acceptAmple decides on an ample transition to state id, already stored.
func acceptAmple(st *store, id uint32) bool {
	if st.compact {
		return false
	}
	return proviso.Accept(st.flags(id))
}

// run is Run for one search.
func run(ctx context.Context, m *sim.Machine, opts Options) *Result {
	start := time.Now()
	defer setGCLimit(opts.MaxMemory)() // from the start: a resumed search's load makes garbage
	if nw := parallelWorkers(&opts); nw > 1 && m.Config.MaxBranch == 0 {
		return runParallel(ctx, m, opts, nw, start)
	}
	x := newSearcher(ctx, m, opts, start)
	for x.f.len() > 0 {
		if res := x.expand(); res != nil {
			return res
		}
		if res := x.limits(); res != nil {
			return res
		}
	}
	if len(x.res.Found) > 0 {
		return x.finish(Violated, noStop)
	}
	return x.finish(Verified, noStop)
}

// searcher is one search of one worker (run), in the shape of the
// parallel search's workers (parallel.go): it expands the frontier's
// states one by one (expand), inserts their successors into the store
// and the frontier (insert, push), reports the violations found (report),
// checks its limits after each state (limits) and makes the result
// (finish).
type searcher struct {
	ctx      context.Context
	m        *sim.Machine
	opts     Options
	start    time.Time
	res      *Result
	st       *store
	f        *frontier
	seq      uint64
	reported map[sim.Kind]bool
	// earlier is the time of the runs before a resume, resumed the states
	// they stored: neither counts against this run's limits.
	earlier float64
	resumed int
	// lv follows what the search proves of the levels it expanded
	// (levels.go).
	lv *levels
	// simStats.Through collects the PCs of the states batches passed
	// without storing them (sim/batch.go): covered too.
	simStats  sim.Stats
	exp       *sim.Expander
	par       sim.ParentKey
	covered   coverage
	peak      int64
	mw        memWatch
	lastCheck time.Time
	deadline  time.Time
	// Frontiers other than depth-first ones can grow wide: once one holds
	// packAt states, new states are kept packed, and unpacked into cur
	// when their turn comes. Packing costs about a tenth of the search's
	// time; below the threshold the frontier's memory does not matter.
	packing bool
	packAt  int
	cur     *sim.State
	packBuf []byte
	shuffle *rand.Rand
	order   []int
	made    int // successors made since the collector's hold was last looked at

	// The state being expanded, and whether a violation found in its
	// successors ends the search.
	n    node
	stop bool
	// insertFn and ampleFn are insert and ample as function values, made
	// once.
	insertFn func([]sim.Succ)
	ampleFn  func(*sim.State, sim.Label) bool
}

// newSearcher starts a search of m: from the initial state, or from the
// saved frontier opts resumes.
func newSearcher(ctx context.Context, m *sim.Machine, opts Options, start time.Time) *searcher {
	x := &searcher{ctx: ctx, m: m, opts: opts, start: start, res: &Result{Covered: map[uint16]bool{}},
		st: newStore(opts.Compact), reported: map[sim.Kind]bool{}}
	x.st.view = keyView(m)
	x.f = newFrontier(&x.opts)
	x.lv = newLevels(&x.opts)
	if x.opts.Resume != nil {
		x.resume()
	} else {
		x.st.canon = m.CanonicalKey
		init := m.Initial()
		id, _ := x.st.insert(init, 0, sim.Label{})
		x.f.push(node{s: init, id: id, key: x.key(init, 0)})
	}
	x.simStats = sim.Stats{Through: new(sim.PCSet)}
	x.exp = m.NewExpander()
	x.par.View = x.st.view
	x.mw = memWatch{save: opts.SaveReserve}
	x.mw.start(x.st, x.f)
	x.lastCheck = time.Now()
	if opts.Timeout > 0 {
		x.deadline = start.Add(opts.Timeout)
	}
	x.packing = opts.Strategy != DFS
	x.packAt = packFrom(m.Initial())
	x.cur = &sim.State{}
	if opts.Shuffle != 0 {
		x.shuffle = rand.New(rand.NewPCG(opts.Shuffle, opts.Shuffle^0x2545f4914f6cdd1d))
	}
	x.insertFn, x.ampleFn = x.insert, x.ample
	return x
}

// resume takes over the saved search opts.resumed loaded.
func (x *searcher) resume() {
	res := x.res
	sn := x.opts.resumed.sn
	x.st, x.f = x.opts.resumed.st, x.opts.resumed.f
	x.opts.resumed = nil // taken over by this run
	x.seq = sn.Seq
	res.Stats = sn.Stats
	for _, pc := range sn.Covered {
		res.Covered[pc] = true
	}
	for _, k := range sn.Reported {
		x.reported[k] = true
	}
	res.Found = append(res.Found, sn.Found...)
	x.lv.resume(sn)
	x.earlier = sn.Stats.SecondsTotal
	if x.earlier == 0 {
		x.earlier = sn.Stats.Seconds // saved when Seconds was the total
	}
	x.resumed = x.st.n
	// The load leaves garbage (the file's pieces, the pages it copied
	// into the store): collect it, so that the memory limit measures
	// what the search holds.
	runtime.GC()
	x.st.canon = x.m.CanonicalKey
}

// key is the frontier's key of s at depth.
func (x *searcher) key(s *sim.State, depth int) int { return frontierKey(&x.opts, s, depth) }

// expand expands the frontier's next state: its ample transition, or
// every transition out of it; a result when the search ends there.
func (x *searcher) expand() *Result {
	res, st, f, exp := x.res, x.st, x.f, x.exp
	x.n = f.pop()
	n := &x.n
	if n.packed != nil {
		st.unpack(x.cur, n.packed)
		n.s = x.cur
	}
	// The state after this one (most likely) is fetched while this
	// one is expanded.
	if nx := f.next(); nx != nil && nx.packed != nil {
		prefetch.Slice(nx.packed)
	} else if nx != nil {
		prefetch.Value(nx.s)
	}
	res.Stats.StatesExpanded++
	if n.depth > res.Stats.MaxDepth {
		res.Stats.MaxDepth = n.depth
	}
	for i := range n.s.Threads {
		if n.s.Threads[i].Status != sim.Exited {
			x.covered.add(n.s.Threads[i].PC)
		}
	}
	x.stop = false
	x.par.Set(n.s, st)
	var fl *uint8
	if x.opts.Reduce && !x.opts.Compact {
		fl = st.flags(n.id)
	}
	if x.opts.Reduce && proviso.Try(fl) && exp.AmpleCandidates(n.s, &x.simStats, x.ampleFn) {
		res.Stats.Transitions++
		res.Stats.Reduced++
	} else {
		proviso.Expand(fl)
		dl := exp.ExpandBatch(n.s, &x.simStats, x.insertFn)
		if x.stop || dl != nil && x.report(dl, n, nil) {
			return x.finish(Violated, noStop)
		}
		if w := exp.Wide(); len(w) > 0 {
			res.Handed = append(res.Handed, Handed{State: n.s.Clone(), Trace: x.trace(n), Threads: slices.Clone(w)})
			x.lv.handed(n.depth)
		}
	}
	if nx := f.next(); nx != nil && nx.s != nil {
		prefetch.Slice(nx.s.Threads)
		prefetch.Slice(nx.s.Pages)
	}
	// Nothing refers to an expanded state any more: its memory can
	// hold a successor (or the next state unpacked).
	if n.s != x.cur {
		exp.Release(n.s)
	}
	return nil
}

// ample takes the ample transition to next by l, when it is new or the
// cycle proviso accepts it.
func (x *searcher) ample(next *sim.State, l sim.Label) bool {
	st := x.st
	st.prepareFrom(0, next, &x.par, l.Thread)
	cid, isNew := st.insertKey(0, x.n.id, l)
	if isNew {
		x.push(next, l, cid)
		return true
	}
	return acceptAmple(st, cid)
}

// insert stores the new states of a batch of transitions out of the
// state being expanded, and reports their violations.
func (x *searcher) insert(b []sim.Succ) {
	if x.stop {
		return
	}
	st := x.st
	if x.made += len(b); x.made >= 1024 && gcHeld() {
		// One expansion can make more than the hold allows (a choice
		// among 65536 values), before the check every 1024 expansions
		// would release it.
		x.made = 0
		mem, _ := memoryInUse()
		gcGrown(mem)
	}
	st.reserve(len(b))
	for i := range b {
		if b[i].Violation == nil {
			st.prepareFrom(i, b[i].State, &x.par, b[i].Label.Thread)
		}
	}
	if x.shuffle != nil {
		x.order = x.order[:0]
		for i := range b {
			x.order = append(x.order, i)
		}
		x.shuffle.Shuffle(len(x.order), func(i, j int) { x.order[i], x.order[j] = x.order[j], x.order[i] })
	}
	for k := range b {
		i := k
		if x.shuffle != nil {
			i = x.order[k]
		}
		sc := &b[i]
		x.res.Stats.Transitions++
		if sc.Violation != nil {
			if x.stop = x.report(sc.Violation, &x.n, &sc.Label); x.stop {
				return
			}
			continue
		}
		cid, isNew := st.insertKey(i, x.n.id, sc.Label)
		if isNew {
			x.push(sc.State, sc.Label, cid)
		}
	}
}

// push stores the new state sc, the successor by l with id cid of the
// state being expanded, in the frontier.
func (x *searcher) push(sc *sim.State, l sim.Label, cid uint32) {
	n := &x.n
	x.seq++
	nn := node{id: cid, depth: n.depth + 1, key: x.key(sc, n.depth+1), seq: x.seq}
	if x.packing && x.f.len() >= x.packAt {
		x.packBuf = x.st.pack(x.packBuf[:0], sc)
		nn.packed = bytes.Clone(x.packBuf)
	} else {
		nn.s = x.exp.Keep(sc)
	}
	if x.opts.Compact {
		nn.trail = &trail{parent: n.trail, label: l}
	}
	x.f.push(nn)
}

// trace is the path to n.
func (x *searcher) trace(n *node) []sim.Label {
	if x.opts.Compact {
		return n.trail.path()
	}
	return x.st.path(n.id)
}

// report records violation v, found on the transition l out of from (nil:
// at from itself), unless its kind is ignored or was reported; true when
// the search stops there.
func (x *searcher) report(v *sim.Violation, from *node, l *sim.Label) bool {
	if x.opts.Ignore[v.Kind] || x.reported[v.Kind] {
		return false
	}
	x.reported[v.Kind] = true
	tr := x.trace(from)
	if l != nil {
		tr = append(tr, *l)
	}
	x.res.Found = append(x.res.Found, Found{Violation: TrueInterval(x.m, tr, v), Trace: tr})
	return !x.opts.All
}

// limits checks the search's limits after a state's expansion; a result
// when one ends it.
func (x *searcher) limits() *Result {
	opts, res, st, m := &x.opts, x.res, x.st, x.m
	if st.full {
		return x.finish(Incomplete, stopFull)
	}
	if opts.Pause != nil && opts.Pause() {
		return x.finish(Incomplete, stopInterrupted)
	}
	if opts.private && m.Intrusion() != nil {
		return x.finish(Incomplete, stopPrivacy)
	}
	if opts.dead && m.DeadBroken() != nil {
		return x.finish(Incomplete, stopDead)
	}
	if res.Stats.StatesExpanded&1023 != 0 {
		if opts.MaxStates > 0 && st.n-x.resumed >= opts.MaxStates {
			return x.finish(Incomplete, verdict.MaxStates(opts.MaxStates))
		}
		return nil
	}
	if x.ctx.Err() != nil {
		return x.finish(Incomplete, stopInterrupted)
	}
	if opts.MaxStates > 0 && st.n-x.resumed >= opts.MaxStates {
		return x.finish(Incomplete, verdict.MaxStates(opts.MaxStates))
	}
	now := time.Now()
	if !x.deadline.IsZero() && now.After(x.deadline) {
		return x.finish(Incomplete, verdict.Timeout(opts.Timeout))
	}
	progress := now.Sub(x.lastCheck) >= time.Second
	if progress || opts.MaxMemory > 0 || gcHeld() {
		mem, free := memoryInUse()
		gcGrown(mem)
		x.peak = max(x.peak, mem)
		if opts.MaxMemory > 0 && x.mw.need(st, x.f, mem-free) > opts.MaxMemory {
			return x.finish(Incomplete, verdict.MaxMemory(opts.MaxMemory))
		}
		if progress {
			x.lastCheck = now
			if opts.Progress != nil {
				opts.Progress(Progress{Stored: st.n, Expanded: res.Stats.StatesExpanded, Depth: res.Stats.MaxDepth,
					Frontier: x.f.len(), Memory: mem, Elapsed: now.Sub(x.start)})
			}
		}
	}
	return nil
}

// finish makes the search's result, with verdict v and, for an
// incomplete search, the limit that stopped it.
func (x *searcher) finish(v Verdict, limit verdict.Stop) *Result {
	res, st, f, opts, m := x.res, x.st, x.f, &x.opts, x.m
	x.simStats.Through.Each(x.covered.add)
	x.covered.into(res.Covered)
	res.Verdict = v
	res.Limit = limit
	res.Stats.StatesStored = st.n
	res.Stats.Seconds = time.Since(x.start).Seconds()
	res.Stats.SecondsTotal = x.earlier + res.Stats.Seconds
	res.Stats.Frontier = f.len()
	res.Stats.Instructions = x.simStats.Instructions
	res.Stats.RunBoundHits = x.simStats.RunBoundHits
	res.Stats.Private = int(x.simStats.Private)
	res.Stats.StoreBytes = st.usedBytes()
	if b := st.bytes(); b > x.peak {
		x.peak = b
	}
	mem, _ := memoryInUse()
	res.Stats.PeakMemory = max(x.peak, mem)
	if opts.Compact {
		n := float64(st.n)
		res.Omission = n * n / 2 / math.Pow(2, 64)
	}
	if len(res.Found) > 0 && v != Incomplete {
		res.Verdict = Violated
	}
	if res.Verdict == Verified && len(res.Handed) > 0 {
		res.Verdict, res.Limit = Incomplete, stopHanded
	}
	if res.Verdict == Incomplete {
		res.Levels, res.LevelsNote = x.lv.proved(f)
		res.Frontier = frontierPCs(m, st, f)
	}
	if v == Incomplete {
		stats := res.Stats
		cov := res.Covered
		lvs := x.lv.snap(res.Levels)
		seq, reported := x.seq, x.reported
		// What the machine learned, and the notes Run makes on res, as
		// they are when the frontier is saved.
		res.save = func(w io.Writer) error {
			return save(w, opts.Key, opts, st, f, stats, seq, reported, cov, m.Learned(), res.Privacy, res.Dead, res.Found, lvs)
		}
	}
	return res
}
