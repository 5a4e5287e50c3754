package hybrid

import (
	"context"
	"fmt"
	"github.com/hc11mc/hc11mc/verdict"
	"io"
	"time"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
)

// Config is a check by the two engines together.
type Config struct {
	// Search is the explicit search's options. Its Timeout and MaxStates
	// bound the whole check: HMC's part gets what the explicit part left.
	// The search runs in one worker.
	Search search.Options
	// MaxBranch is the widest choice the explicit search enumerates; a
	// wider one is handed to HMC.
	MaxBranch int
	// HMC is HMC's configuration for the handed transitions (its
	// Timeout and MaxStates are set from Search's).
	HMC symbolic.Config
	// Between, when not nil, is called after each part, explicit or
	// symbolic, that another follows: a progress display clears its line
	// there for the other part's.
	Between func()
}

// Hybrid is the hand-off on one machine, an engine of a check
// (check.Engine).
type Hybrid struct {
	m      *sim.Machine
	e      *symbolic.Engine
	cfg    Config
	alone  string
	report *Report
}

// New prepares the hand-off on m, whose Config.MaxBranch it sets. Where
// HMC cannot model m (the chip's peripherals, board hardware), the
// explicit search enumerates every choice alone, and Alone says so.
func New(m *sim.Machine, cfg Config) *Hybrid {
	h := &Hybrid{m: m, cfg: cfg}
	e, err := symbolic.NewEngine(m, symbolic.Options{MaxBranch: cfg.MaxBranch, Reduce: cfg.Search.Reduce})
	if err != nil {
		h.alone = "HMC does not model the chip's peripherals or board hardware"
		return h
	}
	h.e = e
	m.Config.MaxBranch = cfg.MaxBranch
	return h
}

// Alone says why HMC takes no part, "" when it does.
func (h *Hybrid) Alone() string { return h.alone }

// The engine is a check.Engine.
var _ check.Engine = (*Hybrid)(nil)

// Describe names the engine: "auto".
func (h *Hybrid) Describe() string { return "auto" }

// Report is what the symbolic part of the last Run did; nil before Run.
func (h *Hybrid) Report() *Report { return h.report }

// Report is what the symbolic part did.
type Report struct {
	// States are the handed transitions, each a start state of HMC.
	States  int
	Verdict verdict.Verdict
	Limit   verdict.Stop
	Stats   symbolic.Stats
	// Ran is false when the explicit part ended the check: a violation,
	// or no choice too wide to enumerate.
	Ran bool
	// Alone, when not empty, says why HMC could not take part: the
	// explicit search enumerated every choice.
	Alone string
}

// Line says, after the check's result, what HMC did, maxBranch being
// the widest choice the explicit search enumerated (check's text output).
func (r *Report) Line(maxBranch int) string {
	if r.Alone != "" {
		return "auto: every choice enumerated by the explicit search: " + r.Alone
	}
	if !r.Ran {
		return fmt.Sprintf("auto: no choice of more than %d values was met; the explicit search decided alone", maxBranch)
	}
	s := r.Stats
	what := "transitions"
	if r.States == 1 {
		what = "transition"
	}
	return fmt.Sprintf("auto: %d %s with a choice of more than %d values handed to HMC: %s; %d symbolic states, %d images, %d bounded model checks, %d solver queries in %.2fs",
		r.States, what, maxBranch, r.Verdict, s.States, s.Images, s.PRChecks, s.Queries, s.SolverTime.Seconds())
}

// JSON is the report as check --json gives it ("auto").
func (r *Report) JSON() map[string]any {
	out := map[string]any{"handed": r.States}
	if r.Alone != "" {
		out["enumerated_all"] = r.Alone
	}
	if r.Ran {
		out["verdict"] = r.Verdict.String()
		out["symbolic_states"] = r.Stats.States
		out["hmc"] = check.NewHMCStats(r.Stats)
		if r.Limit.Stopped() {
			out["limit"] = r.Limit.String()
		}
	}
	return out
}

// Run runs the check: the explicit search, then HMC from each transition
// it handed over, and again both without stack privacy when HMC's part
// broke it; Report then says what HMC did. A violation of HMC's part that
// does not replay on the simulator is a *check.NotReplayed error.
func (h *Hybrid) Run(ctx context.Context) (*check.Result, error) {
	res, rep, err := h.run(ctx)
	h.report = rep
	return res, err
}

func (h *Hybrid) run(ctx context.Context) (*check.Result, *Report, error) {
	opts := h.cfg.Search
	opts.Workers = 1
	if c, ok := opts.Resume.(io.Closer); ok {
		defer c.Close()
	}
	begin := time.Now()
	res := search.Run(ctx, h.m, opts)
	if res.Err != nil {
		return nil, nil, fmt.Errorf("--resume: %v", res.Err)
	}
	opts.Resume = nil // read: a search again starts from the initial state
	if h.e == nil {
		return check.FromSearch(res), &Report{Alone: h.alone}, nil
	}
	h.between()
	for {
		rep, again, err := h.handOver(ctx, res, begin)
		if err != nil {
			return nil, nil, err
		}
		if again == "" {
			return check.FromSearch(res), rep, nil
		}
		h.between()
		// The explicit part again, within what is left of the time.
		o := opts
		if o.Timeout > 0 {
			o.Timeout = max(time.Nanosecond, opts.Timeout-time.Since(begin))
		}
		res = search.Run(ctx, h.m, o)
		res.Privacy = again
	}
}

// handOver follows the transitions res handed over with HMC and folds
// what it finds into res. again, when not empty, says that HMC's part
// broke a stack's privacy that the explicit part assumed: both must run
// again without it.
func (h *Hybrid) handOver(ctx context.Context, res *search.Result, begin time.Time) (rep *Report, again string, err error) {
	m, opts := h.m, h.cfg.Search
	private := m.Intrusion() == nil && opts.Reduce && m.CheckPrivate()
	if res.Verdict == search.Violated || len(res.Handed) == 0 {
		return &Report{}, "", nil
	}
	cfg := h.cfg.HMC
	if opts.Timeout > 0 {
		cfg.Timeout = opts.Timeout - time.Since(begin)
		if cfg.Timeout <= 0 {
			cfg.Timeout = time.Nanosecond
		}
	}
	if opts.MaxStates > 0 {
		cfg.MaxStates = max(1, opts.MaxStates-res.Stats.StatesStored)
	}
	var start []*symbolic.State
	for _, hd := range res.Handed {
		for _, t := range hd.Threads {
			start = append(start, h.e.Handoff(hd.State, hd.Trace, t))
		}
	}
	var sr symbolic.Result
	if mutation.On(mutation.SkipHandoff) {
		sr = symbolic.Result{Verdict: symbolic.Verified}
	} else {
		sr = h.e.Check(ctx, start, cfg)
	}
	rep = &Report{States: len(start), Verdict: sr.Verdict, Limit: sr.Limit, Stats: sr.Stats, Ran: true}
	res.Stats.Seconds += sr.Stats.Elapsed.Seconds()
	res.Stats.SecondsTotal += sr.Stats.Elapsed.Seconds()
	res.Stats.PeakMemory = max(res.Stats.PeakMemory, sr.Stats.PeakMemory)
	if sr.Verdict != symbolic.Violated && private && m.Intrusion() != nil {
		return rep, fmt.Sprintf("%v (after a choice handed to HMC), so stack accesses were not taken as private; searched again without it", m.Intrusion()), nil
	}
	switch sr.Verdict {
	case symbolic.Violated:
		if err := check.Confirm(m, sr.Violation, sr.Trace); err != nil {
			return nil, "", err
		}
		res.Verdict, res.Limit = search.Violated, verdict.Stop{}
		res.Found = []search.Found{{Violation: sr.Violation, Trace: sr.Trace}}
	case symbolic.Verified:
		if res.Limit.Kind == verdict.StopHanded {
			res.Verdict, res.Limit = search.Verified, verdict.Stop{}
		}
	default:
		if res.Limit.Kind == verdict.StopHanded {
			res.Limit = sr.Limit.In(fmt.Sprintf("in HMC's part (the %d transitions with choices of more than %d values)", len(start), h.cfg.MaxBranch))
		}
	}
	return rep, "", nil
}

func (h *Hybrid) between() {
	if h.cfg.Between != nil {
		h.cfg.Between()
	}
}
