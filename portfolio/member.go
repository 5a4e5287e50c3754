package portfolio

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// Member is one search of a swarm, a function of its index (the list
// and why in that order: docs/swarm.md).
type Member struct {
	// Index is the member's place in a swarm of Size members.
	Index, Size int
	// Engine is "" for an explicit-state search, "hmc" for the symbolic
	// engine (HMC from the initial state), whose member has no search
	// order, heuristic or seed of its own.
	Engine    string
	Search    string // bfs, dfs, best, astar, random
	Heuristic string // for best and astar
	K         int    // for efsm
	Seed      uint64 // for random
	Shuffle   uint64 // search.Options.Shuffle
	NoTarget  string // set when a guided member runs unguided: what it stands in for
	// Board says the member models the board (BoardMember): breadth-first
	// search under the exact clock, each byte arriving at the first wait
	// after the one before it (check --clock exact --sci-timing first).
	Board bool
}

// BoardMemberIn returns member i of a swarm of n with the swarm's seed,
// on firmware that takes interrupts or not, in a swarm with a board
// member (BoardMember): member 1 is the board member and member i > 1 is
// the explicit search MemberOf makes member i-1 (under the name i/n), as
// with a symbolic member, which a swarm with a board member never has.
func BoardMemberIn(i, n int, seed uint64, interrupts bool) Member {
	switch {
	case i < 1:
		return MemberOf(i, n, seed, interrupts)
	case i == 1:
		return Member{Index: i, Size: n, Search: "bfs", Board: true}
	}
	m := MemberOf(i-1, n, seed, interrupts)
	m.Index = i
	return m
}

// MemberIn returns member i of a swarm of n with the swarm's seed, on
// firmware that takes interrupts or not, in a swarm with a symbolic
// member or not. With one, member 1 is HMC and member i > 1 is the
// explicit search MemberOf makes member i-1 (under the name i/n).
func MemberIn(i, n int, seed uint64, interrupts, symbolic bool) Member {
	switch {
	case !symbolic || i < 1:
		return MemberOf(i, n, seed, interrupts)
	case i == 1:
		return Member{Index: i, Size: n, Engine: "hmc"}
	}
	m := MemberOf(i-1, n, seed, interrupts)
	m.Index = i
	return m
}

// MemberOf returns member i of a swarm of n explicit-state searches with
// the swarm's seed, on firmware that takes interrupts or not.
func MemberOf(i, n int, seed uint64, interrupts bool) Member {
	m := Member{Index: i, Size: n}
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
func (m Member) Describe() string {
	if m.Engine != "" {
		return m.Engine
	}
	if m.Board {
		return "board: " + m.Search + ", exact clock, each byte at the first wait"
	}
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
func (m Member) String() string {
	return fmt.Sprintf("%d/%d (%s)", m.Index, m.Size, m.Describe())
}

// ParseMember reads a member's name I/N (check --swarm-member).
func ParseMember(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || strings.TrimLeft(a+b, "0123456789") != "" || n < 1 || i >= n {
		return 0, 0, fmt.Errorf("--swarm-member %q: want I/N with 0 ≤ I < N, e.g. 3/8", s)
	}
	return i, n, nil
}

// Config is the check of member m: cfg with the member's search. The
// symbolic member's is --engine hmc's with its defaults: its bounded
// model checks start from the frontier state closest to a violation by
// the extended FSM distance (k = 1), and it reduces by partial-order
// reduction alone, as cfg says (check.New leaves dead-data elimination
// out).
func (m Member) Config(cfg check.Config) check.Config {
	if m.Engine == "hmc" {
		cfg.Engine, cfg.Strategy, cfg.Heuristic, cfg.K, cfg.Seed = check.EngineHMC, search.Best, heuristics.EFSM, 1, 1
		cfg.Compact, cfg.All = false, false
		return cfg
	}
	if m.Board {
		cfg.Machine = BoardMachine(cfg.Machine)
	}
	cfg.Strategy, _ = search.ParseStrategy(m.Search) // the names of MemberOf
	cfg.Heuristic, cfg.K, cfg.Seed = heuristics.None, 1, 1
	if m.Heuristic != "" {
		cfg.Heuristic, _ = heuristics.ParseKind(m.Heuristic)
	}
	if m.K > 0 {
		cfg.K = m.K
	}
	if m.Search == "random" {
		cfg.Seed = m.Seed
	}
	return cfg
}

// takesInterrupts says whether the firmware runs interrupt handlers: --irq
// names some, or the chip's peripherals raise them.
func takesInterrupts(m *sim.Machine) bool { return len(m.IRQs()) > 0 || m.HasDevice() }

// Run is one member's search in a swarm.
type Run struct {
	// Member is the member's search, Check the check it runs.
	Member Member
	Check  *check.Check
	// Result is the member's, once it has stopped: a check's result, the
	// symbolic member's as its decision for the swarm (symbolicResult).
	Result *check.Result
	// Err says why the member's engine gave no result it can stand by
	// (a symbolic engine that could not start, a counterexample that does
	// not replay: a *check.NotReplayed); its Result is then incomplete
	// and decides nothing.
	Err error
	// Stopped says why the swarm stopped the member: "won" (another
	// member decided), "memory" (to leave the memory to the others),
	// "file" (the stop file appeared); "" when it ended by itself.
	Stopped string
	// detached: the race was decided while this symbolic member was in
	// Z3, and did not wait for it (race.go); its machine may still be in
	// use.
	detached bool
	// searched is set by the member once its search has returned: its
	// result is on its way to the race, which waits for it rather than
	// detaching the member (detach).
	searched atomic.Bool
}

// NewRun builds member i of a swarm of n of the check cfg on img, sym
// saying whether the swarm has a symbolic member (SymbolicMember; false:
// explicit-state searches alone, check --engine explicit), and
// cfg.BoardMember whether it has a board member instead: the member's
// search takes the place of cfg's Strategy, Heuristic, K and Seed (the
// symbolic member's, of its Engine too), and cfg.Seed is the swarm's
// --seed, from which the member's own derives.
func NewRun(img *loader.Image, cfg check.Config, i, n int, sym bool) (*Run, error) {
	memberIn := func(i, n int, seed uint64, interrupts bool) Member {
		if cfg.BoardMember && !sym {
			return BoardMemberIn(i, n, seed, interrupts)
		}
		return MemberIn(i, n, seed, interrupts, sym)
	}
	sm := memberIn(i, n, cfg.Seed, true)
	cs, err := check.New(img, sm.Config(cfg))
	if err != nil {
		return nil, err
	}
	if sm.Engine != "" {
		return &Run{Member: sm, Check: cs}, nil
	}
	if quiet := memberIn(i, n, cfg.Seed, takesInterrupts(cs.Machine)); quiet != sm {
		// Members 0 and 2 trade places on firmware that takes no
		// interrupt: both are best-first searches, on another distance.
		sm = quiet
		mc := sm.Config(cfg)
		est, note, err := check.Estimator(cs.Image, cs.Machine, mc)
		if err != nil {
			return nil, err
		}
		cs.Config.Heuristic, cs.Config.K = mc.Heuristic, mc.K
		cs.Note, cs.Options.Estimate = note, est
	}
	if cs.Options.Estimate == nil && sm.Heuristic != "" {
		sm.NoTarget = sm.Describe()
		if cfg.Machine.Timing.On() {
			// A timing property (--max-masked, --deadline, --latency)
			// is no target of the distance heuristics, and its
			// violations are typically a few transitions from where an
			// interval opens, behind deep deterministic stretches a
			// depth-first search dives into: the member searches
			// breadth-first, beside member 1's depth-first search.
			sm.Search, sm.Heuristic, sm.K, sm.Shuffle = "bfs", "", 0, 0
			cs.Config.Strategy, cs.Options.Strategy = search.BFS, search.BFS
		} else {
			// No target: the member would be breadth-first search again.
			sm.Search, sm.Heuristic, sm.K, sm.Shuffle = "dfs", "", 0, cfg.Seed+uint64(sm.Index)
			cs.Config.Strategy, cs.Options.Strategy = search.DFS, search.DFS
		}
	}
	cs.Options.Shuffle = sm.Shuffle
	return &Run{Member: sm, Check: cs}, nil
}

// NewRuns builds the n members of a swarm of the check cfg on img, sym
// saying whether member 1 is the symbolic member (NewRun), in parallel.
// first, when not nil, is member 0 already built (with any size: it does
// not depend on it), on whose machine the caller decided the swarm's size
// and its symbolic member.
func NewRuns(img *loader.Image, cfg check.Config, first *Run, n int, sym bool) ([]*Run, error) {
	runs := make([]*Run, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range runs {
		if i == 0 && first != nil {
			runs[0] = first
			first.Member.Size = n
			continue
		}
		wg.Go(func() { runs[i], errs[i] = NewRun(img, cfg, i, n, sym) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return runs, nil
}
