package bench

import (
	"context"
	"fmt"
	"github.com/hc11mc/hc11mc/plan"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/internal/memlimit"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/portfolio"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/symbolic"
)

// Options are a benchmark's settings: which models, which strategies
// under which reductions, how often, within which limits.
type Options struct {
	// Dir is the benchmark directory, with its manifest.json.
	Dir string
	// Models names the models to run; empty: those of the Kinds.
	Models []string
	Kinds  []string
	// Strategies are SEARCH or SEARCH+HEURISTIC, swarm, or the symbolic
	// engine's bmc, st, st+PRIO, hmc, hmc+PRIO (SymbolicStrategy).
	Strategies []string
	// Reduce are the reduction settings each explicit strategy runs
	// under: none, or reductions joined by + (por, dead, por+dead).
	Reduce []string
	// Runs is the runs of a randomised strategy (seeds 1..Runs); Repeat
	// the rounds of every run, for the median time.
	Runs, Repeat int
	// MaxStates and Timeout bound each run; K is the calling-context
	// bound of aicfg and efsm; Workers the members of the swarm, and
	// one more where it races the symbolic engine, as in check's default
	// swarm (package plan).
	MaxStates int
	Timeout   time.Duration
	K         int
	Workers   int
	// Setup gives a model's check (the command line's part).
	Setup Setup
	// Progress, when not nil, is told of each run before it starts: the
	// model, the column and the round.
	Progress func(model, column string, round int)
}

// Setup reads model m's check flags (Model.Flags, check's command line)
// into the configuration of its check and loads its firmware from the
// benchmark's directory. For a strategy of the symbolic engine hmcMode
// and hmcPriority are its --hmc-mode and --hmc-priority, so that flags of
// the model the engine does not take are refused; "" for the explicit
// searches. The command line provides it: bench reads no flags.
type Setup func(m Model, hmcMode, hmcPriority string) (check.Config, *loader.Image, error)

// Record is one run of one model under one strategy, its fields named as
// bench --format json names them.
type Record struct {
	Model       string  `json:"model"`
	Strategy    string  `json:"strategy"`
	Reduce      string  `json:"reduce"` // the reduction setting
	column      string  // in the tables: Strategy, or Strategy/Reduce with several settings
	Seed        uint64  `json:"seed,omitempty"`
	Round       int     `json:"round,omitempty"` // with Repeat: which round (1..N)
	Verdict     string  `json:"verdict"`
	Kind        string  `json:"violation,omitempty"`
	Expected    bool    `json:"as_expected"`
	States      int     `json:"states"`
	Seconds     float64 `json:"seconds"`
	TraceLength int     `json:"trace_length"`
	PeakMemory  int64   `json:"peak_memory_bytes"`
	// MaxDepth is the deepest state reached (the paper's d* in Table I
	// of HMC); the symbolic engine's runs add the states expanded (ST's
	// images and the states unrolled; BMC stores none) and the solver's
	// queries and time.
	MaxDepth    int     `json:"max_depth"`
	Expanded    int     `json:"states_expanded,omitempty"`
	Queries     uint64  `json:"solver_queries,omitempty"`
	SolverSecs  float64 `json:"solver_seconds,omitempty"`
	Limit       string  `json:"limit,omitempty"`
	PaperStates int     `json:"paper_states,omitempty"`
	PaperSecs   float64 `json:"paper_seconds,omitempty"`
	// Member is the swarm's member that decided (strategy swarm).
	Member string `json:"member,omitempty"`
}

// Column is the name of the record's column in the tables.
func (r Record) Column() string {
	if r.column != "" {
		return r.column
	}
	return r.Strategy
}

// expected says whether r's verdict is the manifest's for m.
func (r *Record) expected(m Model) {
	r.Expected = r.Verdict == m.Expect && (m.Expect != "violation" || r.Kind == m.Property)
}

// Results are a benchmark's: the models run, the tables' columns, the
// records in the order they ran.
type Results struct {
	Models []Model
	// Columns are the tables' columns (a strategy, or STRATEGY/SETTING).
	Columns []string
	// Records are the runs, in the order they ran.
	Records []Record
	// Symbolic says that a strategy ran on the symbolic engine: the
	// tables are then the comparison of Table I of the HMC paper.
	Symbolic bool
	// Workers is the swarm's, for its bound (swarmBound).
	Workers int
}

// Unexpected returns the first record whose verdict is not the
// manifest's although no limit stopped it.
func (r *Results) Unexpected() (Record, bool) {
	for _, rec := range r.Records {
		if !rec.Expected && rec.Limit == "" {
			return rec, true
		}
	}
	return Record{}, false
}

// Run runs every selected model under every column, o.Repeat rounds (a
// round runs every column on a model once), a randomised strategy once
// per seed.
func Run(o Options) (*Results, error) {
	models, err := ReadManifest(o.Dir)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, n := range o.Models {
		want[n] = true
	}
	kinds := map[string]bool{}
	for _, k := range o.Kinds {
		kinds[k] = true
	}
	res := &Results{Symbolic: AnySymbolic(o.Strategies), Workers: o.Workers}
	found := map[string]bool{}
	for _, m := range models {
		if len(want) > 0 && !want[m.Name] || len(want) == 0 && !kinds[m.Kind] {
			continue
		}
		found[m.Name] = true
		res.Models = append(res.Models, m)
	}
	for _, n := range o.Models {
		if !found[n] {
			return nil, fmt.Errorf("--models: no model %q in %s/manifest.json", n, o.Dir)
		}
	}
	for _, s := range o.Strategies {
		if _, _, err := splitStrategy(s); err != nil {
			return nil, err
		}
	}
	for _, r := range o.Reduce {
		if _, _, err := check.ParseReduce(strings.ReplaceAll(r, "+", ",")); err != nil {
			return nil, fmt.Errorf("--reduce %q: each setting is none or reductions joined by + (por, dead, por+dead); commas separate settings", r)
		}
	}
	cols := columns(o.Strategies, o.Reduce)
	for _, c := range cols {
		res.Columns = append(res.Columns, c.name)
	}
	for _, m := range res.Models {
		for round := 1; round <= o.Repeat; round++ {
			for _, col := range cols {
				if err := o.runColumn(m, col, round, &res.Records); err != nil {
					return nil, err
				}
			}
		}
	}
	return res, nil
}

// runColumn runs model m under column col once (a randomised strategy
// once per seed) in round round, appending the records to recs.
func (o Options) runColumn(m Model, col column, round int, recs *[]Record) error {
	strat := col.strategy
	srch, heur, _ := splitStrategy(strat)
	seeds := []uint64{0}
	if srch == "random" {
		seeds = nil
		for i := 1; i <= o.Runs; i++ {
			seeds = append(seeds, uint64(i))
		}
	}
	for _, seed := range seeds {
		if o.Progress != nil {
			o.Progress(m.Name, col.name, round)
		}
		var r Record
		var err error
		if mode, prio, ok := SymbolicStrategy(strat); ok {
			r, err = o.runSymbolic(m, mode, prio)
		} else {
			r, err = o.runExplicit(m, srch, heur, col.reduce, seed)
		}
		if err != nil {
			return err
		}
		r.Strategy, r.Reduce, r.column = strat, col.reduce, col.name
		if o.Repeat > 1 {
			r.Round = round
		}
		if row, ok := heuristics.PaperRowNamed(m.PaperRow); ok {
			if i := paperColumn(strat); i >= 0 {
				r.PaperStates, r.PaperSecs = row.States[i], row.Seconds[i]
			}
		}
		*recs = append(*recs, r)
	}
	return nil
}

// column is a column of the tables: a strategy under one reduction
// setting.
type column struct{ name, strategy, reduce string }

// columns crosses the strategies with the reduction settings, the
// settings of a strategy side by side; with one setting a column is named
// after its strategy, with more STRATEGY/SETTING. The symbolic engine's
// strategies, which have no reductions, have one column each.
func columns(strats, reduce []string) []column {
	var cols []column
	for _, s := range strats {
		if _, _, ok := SymbolicStrategy(s); ok {
			cols = append(cols, column{name: s, strategy: s, reduce: "none"})
			continue
		}
		for _, r := range reduce {
			name := s
			if len(reduce) > 1 {
				name += "/" + r
			}
			cols = append(cols, column{name: name, strategy: s, reduce: r})
		}
	}
	return cols
}

// paperColumn returns the column of the paper's Tables 1 and 2 that the
// strategy SEARCH[+HEURISTIC] (or the column SEARCH[+HEURISTIC]/SETTING)
// corresponds to, or -1.
func paperColumn(strat string) int {
	strat, _, _ = strings.Cut(strat, "/")
	sr, h, err := splitStrategy(strat)
	if err != nil {
		return -1
	}
	k, err := heuristics.ParseKind(h)
	if err != nil {
		return -1
	}
	return heuristics.PaperColumnOf(sr, k)
}

// splitStrategy reads SEARCH[+HEURISTIC] (a strategy of the symbolic
// engine, or the swarm, is itself, without a heuristic).
func splitStrategy(s string) (string, string, error) {
	if _, _, ok := SymbolicStrategy(s); ok || s == plan.Swarm {
		return s, "", nil
	}
	sr, h, _ := strings.Cut(s, "+")
	if _, err := search.ParseStrategy(sr); err != nil {
		return "", "", fmt.Errorf("--strategies %q: %v", s, err)
	}
	if h == "" {
		h = "none"
	}
	switch h {
	case "none", "fsm", "aicfg", "efsm":
	default:
		return "", "", fmt.Errorf("--strategies %q: unknown heuristic %q (none, fsm, aicfg, efsm)", s, h)
	}
	return sr, h, nil
}

// SymbolicStrategy reads a strategy of the symbolic engine: its mode and
// priority, ok false for the explicit searches' strategies.
func SymbolicStrategy(s string) (mode, priority string, ok bool) {
	m, p, _ := strings.Cut(s, "+")
	switch {
	case m == "bmc" && p == "":
		return m, "glh", true
	case (m == "st" || m == "hmc") && (p == "" || p == "glh" || p == "dfs"):
		if p == "" {
			p = "glh"
		}
		return m, p, true
	}
	return "", "", false
}

// AnySymbolic reports whether a strategy runs on the symbolic engine.
func AnySymbolic(strats []string) bool {
	for _, s := range strats {
		if _, _, ok := SymbolicStrategy(s); ok {
			return true
		}
	}
	return false
}

// freshHeap collects the garbage of the runs before, and when the process
// still holds more than a fresh one would (16 MiB), returns the free memory
// to the operating system. The searches hold their collector back only
// while the process holds less than that (search package, memory.go): after
// a run of hundreds of megabytes, a small run that followed ran with the
// collector, as it would in no process of its own (a search of 456 states
// took 1.5 ms instead of 0.4). Memory is returned only then: a run on
// memory just returned takes a page fault for every page it touches, and
// two members of a swarm faulting at once ran each 1.6 times slower than
// alone (on memory the process held, 1.1 times).
func freshHeap() {
	runtime.GC()
	if held, _ := memlimit.Held(); held > 16<<20 {
		debug.FreeOSMemory()
	}
}

// runExplicit runs model m under an explicit search (or the swarm) with
// the reduction setting reduce: the model's flags shape the machine, the
// column and the benchmark's options the search, and package plan
// chooses the engine as it does for check.
func (o Options) runExplicit(m Model, strat, heur, reduce string, seed uint64) (Record, error) {
	cfg, img, err := o.Setup(m, "", "")
	if err != nil {
		return Record{}, err
	}
	if cfg.Reduce, cfg.Machine.Dead, err = check.ParseReduce(strings.ReplaceAll(reduce, "+", ",")); err != nil {
		return Record{}, err
	}
	cfg.K, cfg.MaxStates, cfg.Timeout = o.K, o.MaxStates, o.Timeout
	if seed > 0 {
		cfg.Seed = seed
	}
	// The swarm has Workers members, and one more where it races the
	// symbolic engine (as check's, with --workers not given); a search
	// runs in one worker.
	req := plan.Request{Config: cfg, Search: strat, Workers: 1}
	if strat == plan.Swarm {
		req.Workers, req.Limits = o.Workers, portfolio.Limits{MaxMemory: cfg.MaxMemory}
	} else {
		req.Config.Heuristic, _ = heuristics.ParseKind(heur) // read by splitStrategy
	}
	p, err := plan.Choose(img, req)
	if err != nil {
		return Record{}, err
	}
	freshHeap()
	res, err := p.Engine.Run(context.Background())
	if err != nil {
		return Record{}, err
	}
	r := Record{Model: m.Name, Seed: seed, Verdict: res.Verdict.String(), States: res.Stats.StatesStored,
		Seconds: res.Stats.Seconds, PeakMemory: res.Stats.PeakMemory, Limit: res.Limit.String(), MaxDepth: res.Stats.MaxDepth}
	if p.Swarm != nil {
		// The states are those all members stored (the swarm's work),
		// the time the swarm's wall-clock time from the members' start,
		// without their set-up, as for the other strategies.
		r.Seed, r.MaxDepth = 0, 0
		if d := p.Swarm.Decision(); d.Winner != nil {
			r.Member = d.Winner.Member.String()
		}
	}
	if len(res.Found) > 0 {
		r.Kind = res.Found[0].Violation.Kind.String()
		r.TraceLength = len(res.Found[0].Trace)
	}
	r.expected(m)
	return r, nil
}

// runSymbolic runs model m under one configuration of the symbolic
// engine (check --engine hmc --hmc-mode mode --hmc-priority priority),
// with partial-order reduction as the model's flags say.
func (o Options) runSymbolic(m Model, mode, priority string) (Record, error) {
	cfg, img, err := o.Setup(m, mode, priority)
	if err != nil {
		return Record{}, err
	}
	cfg.K, cfg.MaxStates, cfg.Timeout = o.K, o.MaxStates, o.Timeout
	symbolic.ReleaseMemory() // before the engine: its solver counts Z3's memory from then
	p, err := plan.Choose(img, plan.Request{Config: cfg, Engine: check.EngineHMC, EngineGiven: true})
	if err != nil {
		return Record{}, err
	}
	res, err := p.Engine.Run(context.Background())
	if err != nil {
		return Record{}, err
	}
	st := res.HMC
	r := Record{Model: m.Name, Verdict: res.Verdict.String(), States: st.States, Expanded: st.Images + st.Unrolled,
		Seconds: st.Elapsed.Seconds(), PeakMemory: st.PeakMemory, Limit: cfg.NamedStop(res.Limit).String(), MaxDepth: st.MaxDepth,
		Queries: st.Queries, SolverSecs: st.SolverTime.Seconds()}
	if len(res.Found) > 0 {
		r.Kind = res.Found[0].Violation.Kind.String()
		r.TraceLength = len(res.Found[0].Trace)
	}
	r.expected(m)
	return r, nil
}
