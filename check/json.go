package check

import (
	"os"
	"runtime/debug"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
)

// JSON is the result as check --json gives it, one object (docs/cli.md
// names every field): the verdict, the statistics, what the verdict
// covers (rep), the violations found on m with the first one's trace
// length, the limit and the notes of the reductions; for firmware with
// its peripherals, the bounds and where it waits. Fields that do not
// apply are left out. The engines and the swarm add fields of their own.
func (r *Result) JSON(m *sim.Machine, rep Report) map[string]any {
	out := map[string]any{"verdict": r.Verdict.String(), "stats": r.Stats, "properties_checked": rep.Checked}
	if len(rep.Unchecked) > 0 {
		out["properties_unchecked"] = rep.Unchecked
	}
	if len(rep.Held) > 0 {
		out["inputs_held"] = rep.Held
	}
	if len(rep.Reductions) > 0 {
		out["reductions"] = rep.Reductions
	}
	if rep.Bounds != "" {
		out["bounds"] = rep.Bounds
	}
	if rep.Count != nil {
		out["timer_count_read"] = rep.Count
	}
	if rep.Input != nil {
		out["sci_input_received"] = rep.Input
	}
	if p := r.Proved(m, rep); p != nil {
		out["proved"] = p
	}
	if len(rep.Frontier) > 0 {
		out["frontier"] = rep.Frontier
	}
	if len(rep.Procedures) > 0 {
		out["procedures"] = rep.Procedures
	}
	if c := ClockName(m); c != "" {
		out["clock"] = c
		cs := ClockConditions(m)
		if rep.Count != nil {
			cs = append(cs, rep.Count.String())
		}
		out["clock_conditions"] = cs
	}
	if m.HasDevice() && r.Verdict != Violated {
		out["waits"] = WaitSites(m, r.Covered, r.Waits...)
	}
	if f := r.First(); f != nil {
		out["violation"] = cex.NewViolation(m, f.Violation)
		out["trace_length"] = len(f.Trace)
	}
	if len(r.Found) > 1 {
		var all []*cex.Violation
		for _, f := range r.Found {
			all = append(all, cex.NewViolation(m, f.Violation))
		}
		out["violations"] = all
	}
	for k, v := range map[string]string{"limit": r.Limit.String(), "stack_privacy": r.Privacy, "dead_data": r.Dead} {
		if v != "" {
			out[k] = v
		}
	}
	if r.Omission > 0 {
		out["omission_probability"] = r.Omission
	}
	return out
}

// First is the first violation found, nil for none.
func (r *Result) First() *search.Found {
	if len(r.Found) == 0 {
		return nil
	}
	return &r.Found[0]
}

// HMCStats are the symbolic engine's statistics as check --json gives
// them ("hmc"): those of Table II of the HMC paper, and the solver's.
type HMCStats struct {
	Switches      int     `json:"switches"`
	Images        int     `json:"images"`
	PeakFrontier  int     `json:"peak_frontier"`
	Partitions    int     `json:"partitions"`
	Groups        int     `json:"groups"`
	PRChecks      int     `json:"pr_checks"`
	PRRemoved     int     `json:"pr_removed"`
	Unrolled      int     `json:"unrolled"`
	Forks         uint64  `json:"forks"`
	Queries       uint64  `json:"solver_queries"`
	SolverSeconds float64 `json:"solver_seconds"`
}

// NewHMCStats picks the statistics of s that check --json gives.
func NewHMCStats(s symbolic.Stats) HMCStats {
	return HMCStats{s.Switches, s.Images, s.PeakFrontier, s.Partitions, s.Groups, s.PRChecks, s.PRRemoved, s.Unrolled,
		s.Forks, s.Queries, s.SolverTime.Seconds()}
}

// Conclude completes res, the check's result: the memory limit that
// stopped it named as the default when it was (Config.NamedStop) and, on a bounded
// exploration, its verified verdict made incomplete (Report.Bound). It
// returns what the verdict covers, with the inputs the machine held
// constant.
func (c *Check) Conclude(res *Result) Report {
	res.Limit = c.Config.NamedStop(res.Limit)
	rep := c.Properties
	rep.Held = HeldInputs(c.Image, c.Machine)
	rep.Received(c.Machine)
	rep.Count = CountReadOf(c.Image, c.Machine)
	rep.Bound(res)
	if res.Verdict == Incomplete && res.HMC == nil {
		// Where the states went, and how far the check got against
		// a plain run.
		rep.Frontier = FrontierSites(c.Image, c.Machine, c.Config.Machine, res.Frontier)
		rep.Procedures = ProcCoverages(c.Image, res.Covered, RunCovered(c.Image, c.Config.Machine, RunSteps))
	}
	return rep
}

// SaveFrontier saves what is left of the incomplete search r to the file
// at path (check --save-frontier), with limit, the search's memory limit,
// as the garbage collector's soft limit: saving makes garbage too.
func SaveFrontier(path string, r *search.Result, limit int64) error {
	if limit > 0 {
		if prev := debug.SetMemoryLimit(-1); limit < prev {
			debug.SetMemoryLimit(limit)
			defer debug.SetMemoryLimit(prev)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := r.SaveFrontier(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
