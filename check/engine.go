package check

import (
	"context"
	"fmt"
	"os"

	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/symbolic"
)

// Engine is one way to run a check: the explicit-state search (Explicit),
// the symbolic engine (Symbolic), the explicit search that hands its wide
// choices to HMC (package hybrid), or a swarm that races engines (package
// portfolio). Each gives its result as a check's Result, the one result
// that leaves an engine.
type Engine interface {
	// Describe names the engine for the line that opens a check's
	// output: "search bfs", "HMC", "swarm of 4".
	Describe() string
	// Run explores until the engine decides, a limit stops it or ctx
	// ends (an incomplete result). An error is a check that could not
	// run (a frontier that cannot be resumed or saved) or whose result
	// cannot be trusted (a *NotReplayed counterexample), never a verdict.
	Run(ctx context.Context) (*Result, error)
}

// Explicit is the explicit-state search (package search) of a check.
type Explicit struct {
	Check *Check
	// Options are the search's: the check's, with the caller's progress,
	// pause and workers.
	Options search.Options
	// Resume, when not "", is the file of a saved frontier the search
	// goes on from (--resume); OpenResume opens it.
	Resume string
	// SaveTo, when not "", is where an incomplete search saves its
	// frontier (--save-frontier); the result says so in SavedTo.
	SaveTo string

	resume *os.File
}

// Explicit and Symbolic are engines.
var _, _ Engine = (*Explicit)(nil), (*Symbolic)(nil)

// Explicit is the explicit search of the check with its options.
func (c *Check) Explicit() *Explicit { return &Explicit{Check: c, Options: c.Options} }

// Describe names the search: "search bfs".
func (e *Explicit) Describe() string { return "search " + e.Options.Strategy.String() }

// OpenResume opens the frontier to resume, when there is one: Run reads
// and closes it.
func (e *Explicit) OpenResume() error {
	if e.Resume == "" {
		return nil
	}
	f, err := os.Open(e.Resume)
	if err != nil {
		return fmt.Errorf("--resume: %v", err)
	}
	e.resume = f
	return nil
}

// Run runs the search and, when a limit stopped it and SaveTo is set,
// saves its frontier.
func (e *Explicit) Run(ctx context.Context) (*Result, error) {
	opts := e.Options
	if e.resume == nil {
		if err := e.OpenResume(); err != nil {
			return nil, err
		}
	}
	if e.resume != nil {
		defer e.resume.Close()
		opts.Resume = e.resume
	}
	opts.SaveReserve = e.SaveTo != ""
	sr := search.Run(ctx, e.Check.Machine, opts)
	if sr.Err != nil {
		return nil, fmt.Errorf("--resume %s: %v", e.Resume, sr.Err)
	}
	res := FromSearch(sr)
	// A search whose reduction broke an assumption under what it stored
	// has nothing to go on with (its limit says why).
	if e.SaveTo != "" && sr.Verdict == Incomplete && sr.CanSave() {
		if err := SaveFrontier(e.SaveTo, sr, opts.MaxMemory); err != nil {
			return nil, fmt.Errorf("--save-frontier: %v", err)
		}
		res.SavedTo = e.SaveTo
	}
	return res, nil
}

// Symbolic is the symbolic engine (package symbolic) running HMC from
// the initial state of a check's machine.
type Symbolic struct {
	Check *Check
	// Config is HMC's configuration: the check's (SymbolicConfig), with
	// the caller's progress.
	Config symbolic.Config

	engine *symbolic.Engine
}

// Symbolic is the symbolic engine of the check with its configuration.
// The engine itself (a Z3 context) is made by Prepare, or by Run.
func (c *Check) Symbolic() *Symbolic { return &Symbolic{Check: c, Config: c.SymbolicConfig()} }

// Describe names the engine: "HMC".
func (s *Symbolic) Describe() string { return "HMC" }

// Prepare makes the engine on the check's machine; it fails on a machine
// the engine does not model (the chip's peripherals, board hardware).
func (s *Symbolic) Prepare() error {
	if s.engine != nil {
		return nil
	}
	e, err := s.Check.SymbolicEngine()
	s.engine = e
	return err
}

// Run runs HMC. A counterexample is replayed on the simulator first:
// one that does not replay is a *NotReplayed error, with the result
// incomplete beside it (FromSymbolic).
func (s *Symbolic) Run(ctx context.Context) (*Result, error) {
	if err := s.Prepare(); err != nil {
		return nil, err
	}
	sr := s.engine.Check(ctx, []*symbolic.State{s.engine.Initial()}, s.Config)
	return FromSymbolic(s.Check.Machine, &sr)
}
