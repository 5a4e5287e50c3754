package symbolic

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"github.com/hc11mc/hc11mc/verdict"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// Priority says which frontier state PR works from first (Section V-B).
type Priority uint8

// The prioritizations of HMC.
const (
	// GLH, goal-directed lighthouses: the state the estimate puts closest
	// to a violation first (without an estimate, the deepest).
	GLH Priority = iota
	// DFS: the deepest state first.
	DFS
)

// Mode says which of the paper's procedures run: the four configurations
// its experiments compare (Section VII, Table I) are BMC, ST, and HMC with
// each Priority.
type Mode uint8

// The modes.
const (
	// HMC interleaves path-based reasoning (PR) and state traversal (ST)
	// as Algorithm 1 does: ST computes images until the frontier's size
	// passes FSize, PR runs bounded model checks of PRDepth transitions
	// from frontier states for PRTime, and so on in turn.
	HMC Mode = iota
	// BMC is path-based reasoning alone, the stateless baseline of Table I
	// (the paper's "BMC", its reference [14]): one unrolling from the
	// start states whose bound grows a transition at a time, with one
	// solver query per depth k for a violation at k (BMC^k of Eq. 4),
	// until one is satisfiable (FAIL, with a shortest witness) or no path
	// is left at some depth: every path has ended, or the paths that reach
	// the depth are unsatisfiable together — the completeness check of
	// Section IV-B for terminating programs (NTP, Eq. 14; see bmcOnly for
	// when the solver is asked). No state is stored and no branch is
	// checked on the way (Engine.Lazy); states of one depth with one
	// control part are merged, as an unrolled transition relation would
	// hold them. Firmware that never stops (an idle loop) is never
	// complete: the run ends at a limit, incomplete, with the depth it
	// reached (Stats.MaxDepth, the paper's d*). Priority, PRDepth, PRTime,
	// FSize and TSize do not apply.
	BMC
	// ST is state traversal alone, the state-based baseline of Table I
	// (the paper's "MIX", its reference [12], a symbolic traversal of the
	// reachable states): here ST of Algorithm 1, with its frontier, Group
	// and the repeats recognised, never handing over to PR. It computes
	// images until the frontier is empty (PASS) or a violation is reached.
	// With GLH and an estimate, ST expands the state closest to a
	// violation first; otherwise Priority only breaks ties between states
	// equally far along the program. PRDepth, PRTime and FSize do not
	// apply.
	ST
)

var modeNames = [...]string{"hmc", "bmc", "st"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// ParseMode reads a mode by its name: hmc, bmc or st.
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if s == n {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("mode %q: use %s", s, strings.Join(modeNames[:], ", "))
}

// Config says how to run HMC.
type Config struct {
	// Mode picks HMC (the default), BMC alone or ST alone.
	Mode     Mode
	Priority Priority
	// Estimate is, for GLH, the distance from a state's concrete part to
	// a violation (false: none reachable); nil ranks by depth.
	Estimate func(s *sim.State) (int, bool)
	// PRDepth bounds each bounded model check from a frontier state, in
	// transitions (d; default 32). PRTime bounds one PR phase (default
	// 2s); after the first, a PR phase also lasts no longer than the ST
	// phase before it, nor less than a fortieth of PRTime.
	PRDepth int
	PRTime  time.Duration
	// FSize is the initial bound on the frontier's total size that makes
	// ST switch to PR (doubled at each switch; default 256). TSize bounds
	// the size of a state Group makes (default 4096).
	FSize, TSize int
	// MaxStates bounds the states expanded, by ST's images and by PR's
	// (or BMC's) unrolling (0: none); Timeout the run; MaxMemory the Go
	// heap, checked about once a second (the solver's own memory is not
	// counted).
	MaxStates int
	Timeout   time.Duration
	MaxMemory int64
	// Ignore lists properties whose violations are not reported.
	Ignore map[sim.Kind]bool
	// Progress is called about once a second.
	Progress func(Stats)
}

// Stats are HMC's counters, Table II of the paper and more.
type Stats struct {
	Switches     int // PR→ST→PR switches (#S)
	Images       int // image computations of ST: states expanded (#I)
	PeakFrontier int // the largest frontier (#F; BMC: the most states at one depth)
	Partitions   int // images split into several state-disjuncts (#P)
	Groups       int // merges of two state-disjuncts by Group
	Frontier     int // the frontier now (BMC: the states at the last depth)
	States       int // distinct states kept to recognise repeats
	PRChecks     int // bounded model checks run by PR (BMC: its unrollings)
	PRRemoved    int // frontier states PR proved to need no more work (BMC: unrollings complete)
	// Reduced counts the images of ST that followed one thread alone
	// (partial-order reduction, reduce.go).
	Reduced int
	// Unrolled counts the states PR (or BMC) expanded in its unrollings.
	Unrolled int
	// MaxDepth is the deepest state reached, by ST or by an unrolling, in
	// transitions from the start: the paper's d*.
	MaxDepth     int
	Instructions uint64
	Forks        uint64
	Queries      uint64
	SolverTime   time.Duration
	Elapsed      time.Duration
	// PeakMemory is the most memory seen in use, sampled at each solver
	// query and about every thousand expansions: what the Go runtime
	// holds from the system (the heap, garbage not yet collected, stacks)
	// plus what Z3 has allocated since the engine was made.
	PeakMemory int64
}

// Verdict is HMC's answer: package verdict's, which every engine gives.
type Verdict = verdict.Verdict

// The verdicts, package verdict's.
const (
	Verified   = verdict.Verified
	Violated   = verdict.Violated
	Incomplete = verdict.Incomplete
)

// Result is the outcome of Check.
type Result struct {
	Verdict   Verdict
	Violation *sim.Violation
	// Trace is the counterexample: the transitions from the first start
	// state to the violation, each choice a value of the solver's model.
	Trace []sim.Label
	// Start is the index of the start state the trace begins at.
	Start int
	// Limit says why the result is incomplete.
	Limit verdict.Stop
	Stats Stats
	// Privacy, when not empty, says which transition broke the privacy of
	// a stack that partial-order reduction assumed, and that the check ran
	// again without the assumption.
	Privacy string
}

// entry is a frontier state with what the frontier orders it by.
type entry struct {
	st    *State
	start int
	// pos and prio are the state's position in the program and its
	// priority, size its size; ctl the hash of its control part.
	pos, prio int64
	size      int
	ctl       uint64
	// side is the key of the state's side of the latest branch on its
	// path (see catchUp), 0 for a state with no path.
	side uint64
	// idx is the entry's index in the frontier's heap.
	idx int
}

// add puts st into the frontier, merged (Group) with a state of the same
// control part reached from the same start state when the result stays
// within TSize, neither is concrete (mergeable) and their data allow it
// (joinable, merge.go).
func (h *hmc) add(st *State, start int) {
	ctl := controlHash(st)
	n := size(st)
	for _, en := range h.byCtl[ctl] {
		if en.start == start && en.size+n <= h.cfg.TSize && mergeable(en.st, st) && sameControl(en.st, st) && h.e.joinable(en.st, st) {
			h.unside(en)
			en.st = h.e.merge(en.st, st)
			h.side(en)
			h.total -= en.size
			en.size = size(en.st)
			h.total += en.size
			h.stats.Groups++
			return
		}
	}
	en := &entry{st: st, start: start, pos: h.e.position(st), prio: h.priority(st), size: n, ctl: ctl}
	heap.Push(h.f, en)
	h.byCtl[ctl] = append(h.byCtl[ctl], en)
	h.side(en)
	h.total += n
}

// frontier is the frontier, a heap in the order ST expands its states:
// with the estimate of glh, the state closest to a violation first, its
// position in the program breaking ties; otherwise the state furthest
// behind in the program first (see docs/symbolic.md, "HMC here"), the priority
// breaking ties.
//
// Position first is for paths through an if-else to meet at the join,
// where Group merges them. On a concurrent model it did harm: every
// thread loops, the state furthest behind is one whose threads have gone
// round their loops back to the start, and ST ran ahead along the loops
// (to depths of tens of thousands of transitions on the dining
// philosophers of testdata/bench) and reached a violation a few hundred
// transitions deep late or never. With the estimate first, ST is the
// explicit engine's best-first search where the data are concrete, and
// found those violations after a few hundred to a few ten thousand
// images. The paths of an if-else on data met only where their estimates
// happened to (the CRC of testdata/models/symbolic/crc8.s merged 94
// times where position first merges 64, and took 892 images instead of
// 455; crc16_ok.s's never met), until the side behind was let catch up
// (catchUp below): now both take position first's 64 merges and 455
// images.
type frontier struct {
	l        []*entry
	estimate bool // order by the estimate (glh) first
}

func (f *frontier) Len() int { return len(f.l) }
func (f *frontier) Less(i, j int) bool {
	a, b := f.l[i], f.l[j]
	if f.estimate {
		return a.prio < b.prio || a.prio == b.prio && a.pos < b.pos
	}
	return a.pos < b.pos || a.pos == b.pos && a.prio < b.prio
}
func (f *frontier) Swap(i, j int) {
	f.l[i], f.l[j] = f.l[j], f.l[i]
	f.l[i].idx, f.l[j].idx = i, j
}
func (f *frontier) Push(x any) {
	en := x.(*entry)
	en.idx = len(f.l)
	f.l = append(f.l, en)
}
func (f *frontier) Pop() any {
	en := f.l[len(f.l)-1]
	f.l = f.l[:len(f.l)-1]
	return en
}

// remove takes the k-th state of the heap out of the frontier.
func (h *hmc) remove(k int) *entry {
	en := heap.Remove(h.f, k).(*entry)
	l := h.byCtl[en.ctl]
	for j, x := range l {
		if x == en {
			l[j] = l[len(l)-1]
			l = l[:len(l)-1]
			break
		}
	}
	if len(l) == 0 {
		delete(h.byCtl, en.ctl)
	} else {
		h.byCtl[en.ctl] = l
	}
	h.unside(en)
	h.total -= en.size
	return en
}

// The two sides of a branch on symbolic data meet at the join, where
// Group merges them, only when the side that is behind gets there before
// the other moves on. Position first (see frontier) does that by itself.
// Under glh, where the estimate comes first, the side closer to a
// violation went on alone, through the join and round the loop, every
// time: in a loop that branches on data at each turn (a CRC's bit loop)
// the paths never met again and their number doubled at each turn
// (crc16_ok.s: 2^16 paths, a minute and more where the explicit engine
// takes seconds). So ST lets the side behind catch up: when the state
// the frontier's order gives has its latest branch's other side in the
// frontier too — a state whose path is the same up to that branch and
// then takes the other way, with as many back edges taken (State.back:
// the same turn of a loop) — and that state is further behind in the
// program, ST expands that one first. Everything else keeps glh's order;
// in particular a state whose branch's other side has gone on (or is
// gone) is not held back.

// sideKey returns the key of st's side of the latest branch on its path:
// its start, its back edges, the path before the branch and the branch
// condition, whichever way it went; neg says which way. 0 when st has no
// path.
func sideKey(st *State, start int) (key uint64, neg bool) {
	n := len(st.Path)
	if n == 0 {
		return 0, false
	}
	c := st.Path[n-1]
	if c.Op == term.OpNot {
		c, neg = c.Args[0], true
	}
	h := uint64(start)*0x9e3779b97f4a7c15 ^ uint64(st.back)<<32 ^ uint64(c.ID())
	for _, p := range st.Path[:n-1] {
		h = h*1000003 ^ uint64(p.ID())
	}
	return h | 1, neg
}

// side files en under its branch side's key.
func (h *hmc) side(en *entry) {
	if !h.f.estimate {
		return
	}
	en.side, _ = sideKey(en.st, en.start)
	if en.side != 0 {
		h.bySide[en.side] = append(h.bySide[en.side], en)
	}
}

// unside takes en out of its branch side's list.
func (h *hmc) unside(en *entry) {
	if en.side == 0 {
		return
	}
	l := h.bySide[en.side]
	for j, x := range l {
		if x == en {
			l[j] = l[len(l)-1]
			l = l[:len(l)-1]
			break
		}
	}
	if len(l) == 0 {
		delete(h.bySide, en.side)
	} else {
		h.bySide[en.side] = l
	}
	en.side = 0
}

// catchUp returns the entry ST expands instead of en, the first in the
// frontier's order (see above): the state furthest behind in the program
// on the other side of en's latest branch, when it is behind en; else en.
func (h *hmc) catchUp(en *entry) *entry {
	if en.side == 0 {
		return en
	}
	_, neg := sideKey(en.st, en.start)
	n := len(en.st.Path)
	best := en
	for _, x := range h.bySide[en.side] {
		if x == en || len(x.st.Path) != n || x.pos >= best.pos {
			continue
		}
		if _, xneg := sideKey(x.st, x.start); xneg == neg || !complement(x.st.Path[n-1], en.st.Path[n-1]) ||
			!slices.Equal(x.st.Path[:n-1], en.st.Path[:n-1]) {
			continue
		}
		best = x
	}
	return best
}

type hmc struct {
	e     *Engine
	cfg   Config
	ctx   context.Context
	begin time.Time
	last  time.Time
	f     *frontier
	byCtl map[uint64][]*entry
	// bySide lists, under glh with an estimate, the frontier's states by
	// the key of their latest branch's side (catchUp).
	bySide  map[uint64][]*entry
	total   int // the frontier's size
	visited map[uint64][]*State
	// flags are the cycle proviso's on the concrete states seen (package
	// proviso, reduce.go), kept beside the states: a state's copies, made
	// as its successors are, must not take them along.
	flags map[*State]uint8
	stats Stats
	fsize int

	// stTime is how long the last ST phase took: the next PR phase's
	// time (0: no ST phase yet).
	stTime time.Duration
	checks int // calls of limit
	// private: partial-order reduction assumes stacks private (reduce.go).
	private bool
}

// Check runs HMC (Algorithm 1) from the start states: PR and ST in turn
// until a violation is found (FAIL), the frontier is empty (PASS), or a
// limit stops it; or, as cfg.Mode says, BMC or ST alone.
//
// With Options.Reduce, the state traversal follows one thread alone where
// partial-order reduction allows (reduce.go), assuming stacks private
// while the machine's checks hold that; when a transition breaks the
// assumption and no violation was found, Check runs again without it.
func (e *Engine) Check(ctx context.Context, start []*State, cfg Config) Result {
	begin := time.Now()
	private := e.Opts.Reduce && e.M.CheckPrivate()
	r := e.check(ctx, start, cfg, private)
	in := e.M.Intrusion()
	if !private || in == nil || r.Verdict == Violated {
		return r
	}
	if cfg.Timeout > 0 {
		cfg.Timeout = max(time.Nanosecond, cfg.Timeout-time.Since(begin))
	}
	first := r.Stats.Elapsed
	r = e.check(ctx, start, cfg, false)
	r.Privacy = privacyNote(in)
	r.Stats.Elapsed += first
	return r
}

// check is Check, assuming stacks private or not.
func (e *Engine) check(ctx context.Context, start []*State, cfg Config, private bool) Result {
	if cfg.PRDepth <= 0 {
		cfg.PRDepth = 32
	}
	if cfg.PRTime <= 0 {
		cfg.PRTime = 2 * time.Second
	}
	if cfg.FSize <= 0 {
		cfg.FSize = 256
	}
	if cfg.TSize <= 0 {
		cfg.TSize = 4096
	}
	if cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Timeout)
		defer cancel()
	}
	h := &hmc{e: e, cfg: cfg, ctx: ctx, begin: time.Now(), visited: map[uint64][]*State{}, flags: map[*State]uint8{}, fsize: cfg.FSize,
		byCtl: map[uint64][]*entry{}, bySide: map[uint64][]*entry{}, f: &frontier{estimate: cfg.Priority == GLH && cfg.Estimate != nil}, private: private}
	e.stop = func() bool { return ctx.Err() != nil }
	defer func() { e.stop = nil }()
	// Ctrl-C, --timeout: a solver query running then is interrupted.
	defer context.AfterFunc(ctx, e.Sol.Interrupt)()
	if dl, ok := ctx.Deadline(); ok {
		e.Sol.Deadline = dl
		defer func() { e.Sol.Deadline = time.Time{} }()
	}
	h.last = h.begin
	if cfg.Mode == BMC {
		return h.finish(h.bmcOnly(start))
	}
	for k, st := range start {
		if st = e.pin(st); h.fresh(st) {
			h.add(st, k)
		}
	}
	if cfg.Mode == ST {
		// ST alone: the frontier never grows past fsize, so ST does
		// not hand over; it ends with PASS, FAIL or a limit.
		h.fsize = math.MaxInt
		return h.finish(*h.st())
	}
	for {
		if r := h.pr(); r != nil {
			return h.finish(*r)
		}
		t := time.Now()
		r := h.st()
		h.stTime = time.Since(t)
		if r != nil {
			return h.finish(*r)
		}
		h.stats.Switches++
	}
}

func (h *hmc) finish(r Result) Result {
	s := &h.stats
	if h.cfg.Mode != BMC {
		s.Frontier = h.f.Len()
	}
	s.Instructions, s.Forks = h.e.Instructions, h.e.Forks
	s.Queries, s.SolverTime = h.e.Sol.Queries, h.e.Sol.Time
	s.PeakMemory = h.e.Sol.sampleMemory()
	s.Elapsed = time.Since(h.begin)
	r.Stats = *s
	return r
}

// seen reports whether st was seen before, and its hash.
func (h *hmc) seen(st *State) (bool, uint64) {
	o, k := h.lookup(st)
	return o != nil, k
}

// lookup returns the state seen before that equals st, or nil, and st's
// hash.
func (h *hmc) lookup(st *State) (*State, uint64) {
	k := st.Hash()
	for _, o := range h.visited[k] {
		if o.Equal(st) {
			return o, k
		}
	}
	return nil, k
}

// fresh reports whether st was not seen before, and remembers it.
func (h *hmc) fresh(st *State) bool {
	old, k := h.seen(st)
	if old {
		return false
	}
	h.visited[k] = append(h.visited[k], st)
	h.stats.States++
	return true
}

// limit returns the incomplete result when a limit is reached.
func (h *hmc) limit() *Result {
	if h.cfg.Progress != nil && time.Since(h.last) >= time.Second {
		h.last = time.Now()
		h.finish(Result{})
		h.cfg.Progress(h.stats)
	}
	if err := h.ctx.Err(); err != nil {
		why := verdict.Stop{Kind: verdict.StopInterrupted}
		if errors.Is(err, context.DeadlineExceeded) {
			why = verdict.Timeout(h.cfg.Timeout)
		}
		return &Result{Verdict: Incomplete, Limit: why}
	}
	if h.private && h.e.M.Intrusion() != nil {
		return &Result{Verdict: Incomplete, Limit: verdict.Stop{Kind: verdict.StopPrivacy}}
	}
	if h.checks++; h.checks%1024 == 0 {
		h.e.Sol.sampleMemory()
	}
	if h.cfg.MaxStates > 0 && h.stats.Images+h.stats.Unrolled >= h.cfg.MaxStates {
		return &Result{Verdict: Incomplete, Limit: verdict.MaxStates(h.cfg.MaxStates)}
	}
	// The memory the process holds, Z3's included (runtime/metrics and
	// Z3's estimate: no stopping of the world), every 64 steps.
	if h.cfg.MaxMemory > 0 && h.checks%64 == 0 {
		if h.e.Sol.memoryNow() > h.cfg.MaxMemory {
			return &Result{Verdict: Incomplete, Limit: verdict.MaxMemory(h.cfg.MaxMemory)}
		}
	}
	return nil
}

// failed turns an error of the engine into an incomplete result: the
// limit's when one is reached (a query given up at the deadline).
func (h *hmc) failed(err error) *Result {
	if r := h.limit(); r != nil {
		return r
	}
	if dl, ok := h.ctx.Deadline(); ok && errors.Is(err, ErrUnknown) && !time.Now().Before(dl) {
		// The query was given up at the deadline (Solver.Deadline), which
		// the context's timer has not announced yet: the timeout stopped
		// the search, not the solver.
		t := h.cfg.Timeout
		if t == 0 {
			t = dl.Sub(h.begin)
		}
		return &Result{Verdict: Incomplete, Limit: verdict.Timeout(t)}
	}
	return &Result{Verdict: Incomplete, Limit: verdict.Because(err.Error())}
}

// violation decides whether the violation v at st is feasible and, when
// it is, returns the FAIL result with a concrete trace.
func (h *hmc) violation(st *State, start int, v *sim.Violation) (*Result, error) {
	if h.cfg.Ignore[v.Kind] {
		return nil, nil
	}
	sat, m, err := h.e.Sol.Check(st.Path...)
	if err != nil || !sat {
		return nil, err
	}
	trace, err := h.e.labels(st, m)
	if err != nil {
		return nil, err
	}
	return &Result{Verdict: Violated, Violation: v, Trace: trace, Start: start}, nil
}

// priority orders entries for PR: smaller first.
func (h *hmc) priority(st *State) int64 {
	if h.cfg.Priority == GLH && h.cfg.Estimate != nil {
		d, ok := h.cfg.Estimate(st.S)
		if !ok {
			return 1 << 40
		}
		return int64(d)
	}
	return -int64(st.Depth)
}

// st is the state traversal: it computes images of frontier states until
// the frontier is empty (PASS), a violation is found, or the frontier
// grows past fsize (back to PR, nil).
func (h *hmc) st() *Result {
	e := h.e
	for {
		if h.f.Len() == 0 {
			return &Result{Verdict: Verified}
		}
		if r := h.limit(); r != nil {
			return r
		}
		if h.total > h.fsize {
			h.fsize *= 2
			return nil
		}
		// The first in the frontier's order (see frontier), or the
		// other side of its latest branch when that is behind it.
		en := h.remove(h.catchUp(h.f.l[0]).idx)
		// One thread alone where partial-order reduction allows it
		// (reduce.go), every successor new (the cycle proviso); else
		// every transition.
		var dl *Succ
		var succ []Succ
		var err error
		if h.provisoTry(en.st) {
			succ, err = e.ample(en.st, func(out []Succ) bool {
				ok := true
				for _, o := range out {
					parts, err := h.store(o.State, len(en.st.Path))
					if err != nil {
						return false // expanded in full, where the error comes back
					}
					for _, p := range parts {
						ok = h.provisoAccept(p) && ok
					}
				}
				return ok
			})
		}
		if succ != nil {
			h.stats.Reduced++
		} else if err == nil {
			succ, dl, err = e.Expand(en.st)
			h.provisoFull(en.st)
		}
		h.stats.Images++
		if errors.Is(err, errStopped) {
			h.add(en.st, en.start)
			if r := h.limit(); r != nil {
				return r
			}
		}
		if err != nil {
			return h.failed(err)
		}
		if dl != nil {
			if r, err := h.violation(dl.State, en.start, dl.Violation); err != nil {
				return h.failed(err)
			} else if r != nil {
				return r
			}
		}
		fresh := 0
		for _, s := range succ {
			if s.Violation != nil {
				if r, err := h.violation(s.State, en.start, s.Violation); err != nil {
					return h.failed(err)
				} else if r != nil {
					return r
				}
				continue
			}
			parts, err := h.store(s.State, len(en.st.Path))
			if err != nil {
				return h.failed(err)
			}
			if len(parts) > 1 {
				h.stats.Partitions++
			}
			for _, p := range parts {
				if h.fresh(p) {
					fresh++
					h.add(p, en.start)
					h.stats.MaxDepth = max(h.stats.MaxDepth, p.Depth)
				}
			}
		}
		if fresh > 1 {
			h.stats.Partitions++
		}
		h.stats.PeakFrontier = max(h.stats.PeakFrontier, h.f.Len())
	}
}

// store returns the states ST keeps for s, a successor of a state whose
// path had from conjuncts: s settled (pin.go, unjoin.go), then
// partitioned (Section V-A), a state that grew past TSize going into the
// frontier as parts below it.
func (h *hmc) store(s *State, from int) ([]*State, error) {
	settled, err := h.e.settle(s, from)
	if err != nil {
		return nil, err
	}
	var parts []*State
	for _, p := range settled {
		parts = append(parts, h.e.partition(p, h.cfg.TSize)...)
	}
	return parts, nil
}

// pr runs bounded model checks from frontier states, in priority order,
// until its time bound: a violation within PRDepth transitions is FAIL; a
// state all of whose paths end within the bound leaves the frontier.
//
// The bound is PRTime for the first phase, and then the time the ST phase
// before took, within PRTime/40 and PRTime: the two halves of Algorithm 1
// take turns of about equal length, and their turns grow together as
// ST's frontier bound doubles. With PRTime for every phase, a model whose
// violations lie deeper than PRDepth below the early frontiers spent
// PRTime per switch in checks that could not reach them, while ST, which
// reaches them, ran for milliseconds between (a concurrent model with
// concrete data: ST's states are cheap, PR's unrolled layers are not).
func (h *hmc) pr() *Result {
	order := append([]*entry(nil), h.f.l...)
	sort.SliceStable(order, func(i, j int) bool { return order[i].prio < order[j].prio })
	budget := h.cfg.PRTime
	if h.stTime > 0 {
		budget = min(budget, max(h.stTime, h.cfg.PRTime/40))
	}
	deadline := time.Now().Add(budget)
	for _, en := range order {
		if time.Now().After(deadline) {
			break
		}
		if r := h.limit(); r != nil {
			return r
		}
		done, r, err := h.bmc(en, deadline)
		h.stats.PRChecks++
		if err != nil && !errors.Is(err, errDeadline) && !errors.Is(err, errStopped) {
			return h.failed(err)
		}
		if r != nil {
			return r
		}
		if done {
			h.stats.PRRemoved++
			if en.idx < h.f.Len() && h.f.l[en.idx] == en {
				h.remove(en.idx)
			}
		}
	}
	return nil
}

var errDeadline = errors.New("PR time bound")

// bmc explores PRDepth transitions from en lazily (branches are not
// checked; states of one depth with one control part are merged, as an
// unrolled transition relation would be) and asks the solver, depth by
// depth, whether a violation is reachable (Eq. 12). done reports that
// every path from the state ended within the bound.
func (h *hmc) bmc(en *entry, deadline time.Time) (done bool, r *Result, err error) {
	e := h.e
	e.Lazy = true
	e.stop = func() bool { return h.ctx.Err() != nil || time.Now().After(deadline) }
	defer func() { e.Lazy, e.stop = false, func() bool { return h.ctx.Err() != nil } }()
	layer := []*State{en.st}
	for depth := 0; depth < h.cfg.PRDepth; depth++ {
		if time.Now().After(deadline) || h.ctx.Err() != nil {
			return false, nil, errDeadline
		}
		if r := h.limit(); r != nil {
			return false, r, nil
		}
		if layer, r, err = h.deepen(layer, en.start); err != nil || r != nil {
			return false, r, err
		}
		if len(layer) == 0 {
			return true, nil, nil
		}
	}
	return false, nil, nil
}

// deepen takes one depth of an unrolling from start state start: it
// expands the states of layer (lazily: the caller sets Engine.Lazy),
// asks the solver in one query whether a violation is reachable at the
// next depth (BMC^k of Eq. 4, or Eq. 12 from a frontier state), and
// returns that depth's states, those of one control part merged.
func (h *hmc) deepen(layer []*State, start int) (next []*State, r *Result, err error) {
	e := h.e
	var bad []Succ
	for _, st := range layer {
		succ, dl, err := e.Expand(st)
		h.stats.Unrolled++
		if err != nil {
			return nil, nil, err
		}
		if dl != nil && !h.cfg.Ignore[dl.Violation.Kind] {
			bad = append(bad, *dl)
		}
		for _, s := range succ {
			if s.Violation != nil {
				if !h.cfg.Ignore[s.Violation.Kind] {
					bad = append(bad, s)
				}
				continue
			}
			next = append(next, s.State)
		}
	}
	if len(bad) > 0 {
		any := e.B.Bool(false)
		for _, b := range bad {
			any = e.B.Or(any, conj(e, b.State.Path))
		}
		sat, m, err := e.Sol.Check(any)
		if err != nil {
			return nil, nil, err
		}
		if sat {
			for _, b := range bad {
				if e.B.Eval(conj(e, b.State.Path), m) == 1 {
					trace, err := e.labels(b.State, m)
					if err != nil {
						return nil, nil, err
					}
					return nil, &Result{Verdict: Violated, Violation: b.Violation, Trace: trace, Start: start}, nil
				}
			}
		}
	}
	next, _ = e.group(next, 1<<30)
	for _, st := range next {
		h.stats.MaxDepth = max(h.stats.MaxDepth, st.Depth)
	}
	return next, nil, nil
}

// bmcOnly is Mode BMC: an unrolling from each start state, in step, its
// bound grown a transition at a time, until a violation is satisfiable at
// some depth (FAIL) or every unrolling is complete (PASS): no state is
// left at its depth, or the states left are unsatisfiable together (the
// completeness check of Section IV-B, Eq. 14).
//
// Algorithm 1 asks the completeness query at every depth where SINK is
// reachable (PR, line 10). Here, where every path has ended the answer
// needs no solver; the query is for paths that go on unsatisfiable for
// ever (a loop on a symbolic counter past its last value), and it is
// asked only at depths that are powers of two, each time within the time
// the run has spent on everything else: undecided, it only postpones the
// answer. Asked at every depth, it was the costliest part of BMC on the
// data-heavy models: on crc8 one took 50 s at depth 389, where the
// violation query of that depth took 0.6 s.
func (h *hmc) bmcOnly(start []*State) Result {
	e := h.e
	e.Lazy = true
	defer func() { e.Lazy = false }()
	type unrolling struct {
		start int
		layer []*State
	}
	var runs []unrolling
	for k, st := range start {
		runs = append(runs, unrolling{k, []*State{st}})
	}
	h.stats.PRChecks = len(runs)
	var spent time.Duration // on completeness queries
	for depth := 1; len(runs) > 0; depth++ {
		var live []unrolling
		width := 0
		for _, u := range runs {
			if r := h.limit(); r != nil {
				return *r
			}
			next, r, err := h.deepen(u.layer, u.start)
			if err != nil {
				return *h.failed(err)
			}
			if r != nil {
				return *r
			}
			if len(next) == 0 {
				h.stats.PRRemoved++ // every path ended
				continue
			}
			if budget := time.Since(h.begin) - 2*spent; depth&(depth-1) == 0 && budget > 10*time.Millisecond {
				any := e.B.Bool(false)
				for _, st := range next {
					any = e.B.Or(any, conj(e, st.Path))
				}
				t := time.Now()
				sat, _, err := e.Sol.CheckWithin(budget, any)
				spent += time.Since(t)
				if err != nil && !errors.Is(err, ErrUnknown) {
					return *h.failed(err)
				}
				if err == nil && !sat {
					h.stats.PRRemoved++ // no path reaches this depth
					continue
				}
			}
			live = append(live, unrolling{u.start, next})
			width += len(next)
		}
		runs = live
		h.stats.Frontier = width
		h.stats.PeakFrontier = max(h.stats.PeakFrontier, width)
	}
	return Result{Verdict: Verified}
}

// String formats the statistics as Table II does, with the rest after.
func (s Stats) String() string {
	return fmt.Sprintf("#S %d  #I %d  #F %d  #P %d  groups %d  states %d  PR checks %d (removed %d)  depth %d  instructions %d  forks %d  solver %d queries %.2fs",
		s.Switches, s.Images, s.PeakFrontier, s.Partitions, s.Groups, s.States, s.PRChecks, s.PRRemoved,
		s.MaxDepth, s.Instructions, s.Forks, s.Queries, s.SolverTime.Seconds())
}
