package portfolio

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// Member is one search of a swarm, a function of its index (see the
// package doc).
type Member struct {
	// Index is the member's place in a swarm of Size members.
	Index, Size int
	Search      string // bfs, dfs, best, astar, random
	Heuristic   string // for best and astar
	K           int    // for efsm
	Seed        uint64 // for random
	Shuffle     uint64 // search.Options.Shuffle
	NoTarget    string // set when a guided member runs unguided: what it stands in for
}

// MemberOf returns member i of a swarm of n with the swarm's seed, on
// firmware that takes interrupts or not.
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

// Config is the check of member m: cfg with the member's search.
func (m Member) Config(cfg check.Config) check.Config {
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
	// Result is the member's, once it has stopped.
	Result *search.Result
	// Stopped says why the swarm stopped the member: "won" (another
	// member decided), "memory" (to leave the memory to the others),
	// "file" (the stop file appeared); "" when it ended by itself.
	Stopped string
}

// NewRun builds member i of a swarm of n of the check cfg on img: the
// member's search takes the place of cfg's Strategy, Heuristic, K and
// Seed, and cfg.Seed is the swarm's --seed, from which the member's own
// derives.
func NewRun(img *loader.Image, cfg check.Config, i, n int) (*Run, error) {
	sm := MemberOf(i, n, cfg.Seed, true)
	cs, err := check.New(img, sm.Config(cfg))
	if err != nil {
		return nil, err
	}
	if quiet := MemberOf(i, n, cfg.Seed, takesInterrupts(cs.Machine)); quiet != sm {
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
		// No target: the member would be breadth-first search again.
		sm.NoTarget = sm.Describe()
		sm.Search, sm.Heuristic, sm.K, sm.Shuffle = "dfs", "", 0, cfg.Seed+uint64(sm.Index)
		cs.Config.Strategy, cs.Options.Strategy = search.DFS, search.DFS
	}
	cs.Options.Shuffle = sm.Shuffle
	return &Run{Member: sm, Check: cs}, nil
}

// NewRuns builds the n members of a swarm of the check cfg on img, in
// parallel.
func NewRuns(img *loader.Image, cfg check.Config, n int) ([]*Run, error) {
	runs := make([]*Run, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range runs {
		wg.Go(func() { runs[i], errs[i] = NewRun(img, cfg, i, n) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return runs, nil
}
