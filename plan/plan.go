// Package plan decides how a check runs: which engine explores the
// firmware, and for the default swarm its size and whether the symbolic
// engine races its explicit searches. The command line reads its flags
// into a Request, calls Choose, runs the Plan's engine, prints the result
// and sets the exit code; bench calls Choose the same way for each of its
// runs. No other package makes these choices.
//
// The rules (check --help, docs/cli.md):
//
//   - --engine hmc runs the symbolic engine alone (check.Symbolic);
//     --engine auto runs one explicit search that hands the choices wider
//     than --max-branch to HMC (package hybrid), breadth-first unless a
//     flag of a heuristic (--heuristic, --k, --goal-mem) names best-first
//     search, or --search names another.
//   - Otherwise --search names one explicit search (check.Explicit), and
//     without --search the default is the swarm (package portfolio),
//     unless a flag that belongs to one search (--heuristic, --k,
//     --goal-mem, --all, --save-frontier, --resume) names best-first
//     search.
//   - The swarm has --workers members. Where the firmware draws
//     nondeterministic data and the symbolic engine models its machine
//     (portfolio.SymbolicMember, decided on member 0's machine), member 1
//     is the symbolic engine; when --workers is not given the swarm then
//     has one member more, so that a search per processor runs beside it.
//     --engine explicit leaves the symbolic member out.
//   - --swarm-member I/N builds member I of a swarm of N alone.
package plan

import (
	"fmt"
	"os"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/hybrid"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/portfolio"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/symbolic"
)

// Swarm is the search order of the default: the swarm.
const Swarm = "swarm"

// Request is a check as the command line asks for it: the configuration
// its flags give, and the flags that choose the engine, as given.
type Request struct {
	// Config is the check's configuration. Its Engine and Strategy are
	// chosen here, from Engine and Search.
	Config check.Config
	// Engine is --engine's engine; EngineGiven says --engine was given
	// (without it: the swarm, with its symbolic member where it may
	// race, or the one search --search names).
	Engine      check.EngineKind
	EngineGiven bool
	// Search is --search as given ("swarm" or an order), "" when not.
	Search string
	// Guided says a flag of a heuristic was given (--heuristic, --k,
	// --goal-mem); OneSearch a flag of one search that is not
	// (--all, --save-frontier, --resume).
	Guided, OneSearch bool
	// Workers is --workers: the swarm's members, or the workers of one
	// breadth-first or depth-first search; WorkersGiven says it was
	// given.
	Workers      int
	WorkersGiven bool
	// Member is --swarm-member I/N, "" for the whole swarm.
	Member string
	// SaveTo and Resume are --save-frontier's and --resume's files; Key
	// names the machine a saved frontier belongs to.
	SaveTo, Resume, Key string
	// Limits are what the members of a swarm in this process share.
	Limits portfolio.Limits
	// Watch are the progress reports, nil for none.
	Watch Watch
}

// Watch are the progress reports of the engines: Search of an explicit
// search, HMC of the symbolic engine, Swarm of a swarm; Between is called
// between the parts of --engine auto.
type Watch struct {
	Search  func(search.Progress)
	HMC     func(symbolic.Stats)
	Swarm   func(portfolio.Progress)
	Between func()
}

// Kind is what a plan runs.
type Kind uint8

// The plans: one explicit search, an explicit search handing wide choices
// to HMC (--engine auto), HMC alone (--engine hmc), the swarm, and one
// member of a swarm alone (--swarm-member).
const (
	KindExplicit Kind = iota
	KindAuto
	KindHMC
	KindSwarm
	KindMember
)

// Plan is a check ready to run: its engine, and what the command line
// says of it before and after.
type Plan struct {
	Kind Kind
	// Engine runs the check.
	Engine check.Engine
	// Check is the check built on the image: the swarm's member 0's.
	Check *check.Check
	// Explicit, Auto, Symbolic and Swarm are the engine as its own type,
	// the one of Kind (a member alone is a Swarm of one); the others nil.
	Explicit *check.Explicit
	Auto     *hybrid.Hybrid
	Symbolic *check.Symbolic
	Swarm    *portfolio.Swarm
	// Size is the swarm's, its N for a member alone; 0 for the others.
	Size int
	// WorkersNote, when not "", says why one search runs one worker
	// where --workers, not given, would have meant more.
	WorkersNote string
}

// SearchOrder is the search the request runs: Swarm, or the order of
// one explicit search (check --search's names).
func (r Request) SearchOrder() string {
	switch {
	case r.Search != "":
		return r.Search
	case r.EngineGiven && r.Engine == check.EngineAuto:
		// One explicit search, which hands its wide choices to HMC:
		// breadth-first, which no model of testdata/bench leads astray
		// (best-first with efsm misses tick_counter) and which gives
		// the shortest prefixes.
		if r.Guided {
			return "best"
		}
		return "bfs"
	case r.Guided || r.OneSearch:
		return "best"
	}
	return Swarm
}

// Choose makes the plan of the check req asks for on img: it chooses the
// engine and builds it, with the check's machine.
func Choose(img *loader.Image, req Request) (*Plan, error) {
	cfg := req.Config
	if req.EngineGiven {
		cfg.Engine = req.Engine
	}
	if cfg.Engine == check.EngineHMC {
		return chooseHMC(img, cfg, req)
	}
	order := req.SearchOrder()
	if order == Swarm && cfg.Engine == check.EngineExplicit {
		return chooseSwarm(img, cfg, req)
	}
	s, err := search.ParseStrategy(order)
	if err != nil {
		return nil, err
	}
	cfg.Strategy = s
	cs, err := check.New(img, cfg)
	if err != nil {
		return nil, err
	}
	cs.Options.Key = req.Key
	cs.Options.Progress = req.Watch.Search
	if cfg.Engine == check.EngineAuto {
		return chooseAuto(cs, req)
	}
	e := cs.Explicit()
	e.SaveTo, e.Resume = req.SaveTo, req.Resume
	p := &Plan{Kind: KindExplicit, Engine: e, Check: cs, Explicit: e}
	e.Options.Workers, p.WorkersNote = searchWorkers(order, req)
	// The frontier is opened before the check says anything.
	if err := e.OpenResume(); err != nil {
		return nil, err
	}
	return p, nil
}

// searchWorkers is the workers of one explicit search of order: --workers
// for breadth-first and depth-first search, which share one visited set,
// but one for a search that saves or resumes its frontier (with a note
// when --workers, not given, meant more); one for the other orders, which
// rank every frontier state against the others.
func searchWorkers(order string, req Request) (int, string) {
	if order != "bfs" && order != "dfs" {
		return 1, ""
	}
	if req.SaveTo != "" || req.Resume != "" {
		if req.Workers > 1 {
			return 1, "one worker: a search that saves or resumes its frontier runs one"
		}
		return 1, ""
	}
	return req.Workers, ""
}

// chooseHMC is the plan of --engine hmc: the symbolic engine alone, made
// at once, so that a machine it does not model is refused before the
// check starts.
func chooseHMC(img *loader.Image, cfg check.Config, req Request) (*Plan, error) {
	cs, err := check.New(img, cfg)
	if err != nil {
		return nil, err
	}
	s := cs.Symbolic()
	if err := s.Prepare(); err != nil {
		return nil, fmt.Errorf("--engine %s: %v", cfg.Engine, err)
	}
	s.Config.Progress = req.Watch.HMC
	return &Plan{Kind: KindHMC, Engine: s, Check: cs, Symbolic: s}, nil
}

// chooseAuto is the plan of --engine auto: one explicit search in one
// worker that hands its wide choices to HMC. With --resume its explicit
// part goes on from a frontier an explicit search saved (hybrid.Config).
func chooseAuto(cs *check.Check, req Request) (*Plan, error) {
	opts := cs.Options
	opts.Workers = 1
	if req.Resume != "" {
		f, err := os.Open(req.Resume)
		if err != nil {
			return nil, fmt.Errorf("--resume: %v", err)
		}
		opts.Resume = f
	}
	hc := hybrid.Config{Search: opts, MaxBranch: cs.Config.HMC.MaxBranch, HMC: cs.SymbolicConfig(), Between: req.Watch.Between}
	hc.HMC.Progress = req.Watch.HMC
	h := hybrid.New(cs.Machine, hc)
	return &Plan{Kind: KindAuto, Engine: h, Check: cs, Auto: h}, nil
}

// chooseSwarm is the plan of the swarm, or of one of its members alone:
// member 0 is built first, and on its machine the swarm's symbolic member
// and size are decided.
func chooseSwarm(img *loader.Image, cfg check.Config, req Request) (*Plan, error) {
	i, n := 0, req.Workers
	if req.Member != "" {
		var err error
		if i, n, err = portfolio.ParseMember(req.Member); err != nil {
			return nil, err
		}
	}
	first, err := portfolio.NewRun(img, cfg, i, n, false)
	if err != nil {
		return nil, err
	}
	sym := false
	if !req.EngineGiven { // --engine explicit: the explicit searches alone
		sym, _ = portfolio.SymbolicMember(img, cfg, first.Check.Machine)
	}
	if !sym {
		// On firmware, a member that models the board (portfolio.BoardMember).
		if cfg.BoardMember, err = portfolio.BoardMember(img, cfg, first.Check.Machine); err != nil {
			return nil, err
		}
	}
	sw := &portfolio.Swarm{Limits: req.Limits, Progress: req.Watch.Swarm, Seed: cfg.Seed}
	p := &Plan{Kind: KindSwarm, Engine: sw, Swarm: sw, Size: n}
	if req.Member != "" {
		// Member i of the swarm alone; with a symbolic member, member
		// i ≥ 1 is not the explicit search built above.
		if (sym || cfg.BoardMember) && i >= 1 {
			if first, err = portfolio.NewRun(img, cfg, i, n, sym); err != nil {
				return nil, err
			}
		}
		p.Kind, sw.Runs = KindMember, []*portfolio.Run{first}
	} else {
		if (sym || cfg.BoardMember) && !req.WorkersGiven {
			p.Size++ // the symbolic or the board member, beside one search per processor
		}
		if sw.Runs, err = portfolio.NewRuns(img, cfg, first, p.Size, sym); err != nil {
			return nil, err
		}
	}
	p.Check = sw.Runs[0].Check
	return p, nil
}
