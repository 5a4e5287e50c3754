package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/symbolic"
)

// check --engine auto: one explicit search (package search) on a machine
// whose Config.MaxBranch is --max-branch, so that a transition whose
// nondeterministic choice offers more values than that is not enumerated.
// The search returns the states where it met one (search.Result.Handed),
// and HMC (package symbolic) follows each such transition from its state
// with the choice a symbol (symbolic.Engine.Handoff), then everything
// after it. Neither package knows the other; this file composes them.
//
// Why the verdict is the one of enumerating every choice. The explicit
// search follows every transition of the states it expands but the wide
// ones, which HMC follows instead, exactly (a symbolic choice stands for
// each of its values, its range honoured) and with every interleaving
// after them (HMC does not reduce). With partial-order reduction the
// explicit part is the reduced graph of sim/reduce.go: a wide transition
// is never ample (it offers more than one successor), so the states that
// hand it over are expanded in full, and its successors' exploration by
// HMC contains what the reduced search would have explored from them.
// The proof of the reduction needs every intrusion into another thread's
// stack to be seen (sim/private.go): HMC steps through the machine, whose
// guard checks every byte it names, and a symbolic table lookup that
// could read a stack of another thread is split into named bytes
// (sim.Machine.PrivateOverlap). An intrusion in either part, with no
// violation found, means both run again without stack privacy. A
// violation HMC finds is replayed on the concrete simulator, from the
// initial state through the explicit prefix, before it is reported
// (check.Confirm); one that does not replay is an internal error, never a
// verdict.
// Dead-data elimination is not used (--reduce dead): it clears stack
// bytes that HMC, reading the state's memory, would take for values.

// autoReport is what the symbolic part of --engine auto did.
type autoReport struct {
	States  int // the handed transitions
	Verdict symbolic.Verdict
	Limit   string
	Stats   symbolic.Stats
	Ran     bool // false: the explicit part ended the check
	// Alone, when not empty, says why HMC could not take part (the
	// chip's peripherals): the explicit search enumerated every choice.
	Alone string
}

// handOver follows the transitions res handed over with HMC and returns
// the combined result. rerun searches again (without stack privacy, once
// an intrusion has withdrawn it). A violation of HMC's part that does not
// replay on the simulator is a *check.NotReplayed error.
func handOver(ctx context.Context, o *checkOptions, cs *check.Check, e *symbolic.Engine, res *search.Result,
	rerun func() *search.Result, begin time.Time, stderr io.Writer) (*search.Result, *autoReport, error) {
	m := cs.Machine
	for {
		private := m.Intrusion() == nil && cs.Options.Reduce && m.CheckPrivate()
		rep := &autoReport{}
		if res.Verdict == search.Violated || len(res.Handed) == 0 {
			return res, rep, nil
		}
		cfg := cs.SymbolicConfig()
		if o.timeout > 0 {
			cfg.Timeout = o.timeout - time.Since(begin)
			if cfg.Timeout <= 0 {
				cfg.Timeout = time.Nanosecond
			}
		}
		if o.maxStates > 0 {
			cfg.MaxStates = max(1, o.maxStates-res.Stats.StatesStored)
		}
		if !o.json && !o.quiet && isTerminal(stderr) {
			cfg.Progress = func(s symbolic.Stats) {
				fmt.Fprintf(stderr, "\rHMC: %d states, %d images, frontier %d, %d solver queries in %.1fs   ",
					s.States, s.Images, s.Frontier, s.Queries, s.SolverTime.Seconds())
			}
		}
		var start []*symbolic.State
		for _, h := range res.Handed {
			for _, t := range h.Threads {
				start = append(start, e.Handoff(h.State, h.Trace, t))
			}
		}
		sr := e.Check(ctx, start, cfg)
		if cfg.Progress != nil {
			fmt.Fprint(stderr, "\r\033[K")
		}
		rep = &autoReport{States: len(start), Verdict: sr.Verdict, Limit: sr.Limit, Stats: sr.Stats, Ran: true}
		res.Stats.Seconds += sr.Stats.Elapsed.Seconds()
		res.Stats.SecondsTotal += sr.Stats.Elapsed.Seconds()
		res.Stats.PeakMemory = max(res.Stats.PeakMemory, sr.Stats.PeakMemory)
		if sr.Verdict != symbolic.Violated && private && m.Intrusion() != nil {
			// HMC's part broke a stack's privacy that the explicit
			// part assumed: both again, without it.
			why := fmt.Sprintf("%v (after a choice handed to HMC), so stack accesses were not taken as private; searched again without it", m.Intrusion())
			res = rerun()
			res.Privacy = why
			continue
		}
		switch sr.Verdict {
		case symbolic.Violated:
			if err := check.Confirm(m, sr.Violation, sr.Trace); err != nil {
				return nil, nil, err
			}
			res.Verdict, res.Limit = search.Violated, ""
			res.Found = []search.Found{{Violation: sr.Violation, Trace: sr.Trace}}
		case symbolic.Verified:
			if res.Limit == search.LimitHanded {
				res.Verdict, res.Limit = search.Verified, ""
			}
		default:
			if res.Limit == search.LimitHanded {
				res.Limit = fmt.Sprintf("%s in HMC's part (the %d transitions with choices of more than %d values)", sr.Limit, len(start), o.hmc.maxBranch)
			}
		}
		return res, rep, nil
	}
}

// autoLine says, after an --engine auto result, what HMC did.
func (r *autoReport) line(maxBranch int) string {
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

// json is the symbolic part of --engine auto for --json.
func (r *autoReport) json() map[string]any {
	out := map[string]any{"handed": r.States}
	if r.Alone != "" {
		out["enumerated_all"] = r.Alone
	}
	if r.Ran {
		out["verdict"] = r.Verdict.String()
		out["symbolic_states"] = r.Stats.States
		out["hmc"] = hmcStats(r.Stats)
		if r.Limit != "" {
			out["limit"] = r.Limit
		}
	}
	return out
}
