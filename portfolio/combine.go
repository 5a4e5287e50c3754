package portfolio

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/hc11mc/hc11mc/verdict"
	"sort"
	"strconv"
	"strings"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/internal/units"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// combine makes the swarm's result: the winner's verdict, violation,
// counterexample and notes on the reductions (any member's, without a
// winner); the members' stored states, expansions and transitions added
// up, the deepest depth, the union of the PCs they covered. Without a
// winner the swarm is incomplete and its limit says what stopped each
// member (limitOf).
func combine(runs []*Run, winner int, seconds float64) *check.Result {
	res := &check.Result{Covered: map[uint16]bool{}, Verdict: check.Incomplete}
	st := &res.Stats
	for _, r := range runs {
		s := r.Result.Stats
		st.StatesStored += s.StatesStored
		st.StatesExpanded += s.StatesExpanded
		st.Transitions += s.Transitions
		st.MaxDepth = max(st.MaxDepth, s.MaxDepth)
		st.PeakMemory = max(st.PeakMemory, s.PeakMemory)
		st.Frontier += s.Frontier
		st.Instructions += s.Instructions
		st.RunBoundHits += s.RunBoundHits
		st.Reduced += s.Reduced
		st.Private += s.Private
		st.StoreBytes += s.StoreBytes
		for pc := range r.Result.Covered {
			res.Covered[pc] = true
		}
	}
	st.Seconds, st.SecondsTotal = seconds, seconds
	if winner >= 0 {
		w := runs[winner].Result
		res.Verdict, res.Found, res.Omission, res.Privacy, res.Dead = w.Verdict, w.Found, w.Omission, w.Privacy, w.Dead
		return res
	}
	res.Limit = limitOf(runs)
	for _, r := range runs {
		res.Privacy = cmp.Or(res.Privacy, r.Result.Privacy)
		res.Dead = cmp.Or(res.Dead, r.Result.Dead)
	}
	return res
}

// limitOf says what stopped the members of an incomplete swarm: one
// limit for every member, or each limit with the members it stopped.
func limitOf(runs []*Run) verdict.Stop {
	var order []string
	who := map[string][]string{}
	for _, r := range runs {
		l := r.Limit()
		if _, ok := who[l]; !ok {
			order = append(order, l)
		}
		who[l] = append(who[l], strconv.Itoa(r.Member.Index))
	}
	if len(order) == 1 {
		if len(runs) == 1 {
			return runs[0].Stop()
		}
		return verdict.Because(order[0] + " (every member)")
	}
	var parts []string
	for _, l := range order {
		parts = append(parts, fmt.Sprintf("%s (member %s)", l, strings.Join(who[l], ", ")))
	}
	return verdict.Because(strings.Join(parts, "; "))
}

// Stop says what stopped the member: the swarm, an error, or its own
// limit.
func (r *Run) Stop() verdict.Stop {
	switch {
	case r.Stopped == "memory":
		return verdict.Because("stopped to leave the memory to the other members")
	case r.Stopped == "won":
		return verdict.Because("stopped: another member decided")
	case r.Stopped == "file":
		return verdict.Because("stopped: the stop file appeared (another member decided)")
	case r.Err != nil:
		return verdict.Because(r.Err.Error())
	}
	if r.Check == nil {
		return r.Result.Limit
	}
	return r.Check.Config.NamedStop(r.Result.Limit)
}

// Limit says what stopped the member, as its summary prints it.
func (r *Run) Limit() string { return r.Stop().String() }

// Summary is one member's line in the results: its name, its verdict,
// what stopped it, the states it stored and expanded, its deepest depth,
// its time and its counterexample's length, as the JSON names them.
type Summary struct {
	Member   string  `json:"member"`
	Verdict  string  `json:"verdict"`
	Limit    string  `json:"limit,omitempty"`
	Stored   int     `json:"states_stored"`
	Expanded int     `json:"states_expanded"`
	Depth    int     `json:"max_depth"`
	Seconds  float64 `json:"seconds"`
	Trace    int     `json:"trace_length,omitempty"`
}

// Summary is the member's summary, once it has stopped.
func (r *Run) Summary() Summary {
	s := Summary{Member: r.Member.String(), Verdict: r.Result.Verdict.String(), Stored: r.Result.Stats.StatesStored,
		Expanded: r.Result.Stats.StatesExpanded, Depth: r.Result.Stats.MaxDepth, Seconds: r.Result.Stats.Seconds}
	if r.Result.Verdict == check.Incomplete {
		s.Limit = r.Limit()
	}
	if r.Member.Board && r.Result.Verdict == search.Verified && !mutation.On(mutation.BoardProof) {
		// Exhaustive for the board's model only (board.go).
		s.Verdict, s.Limit = search.Incomplete.String(), "explored every state of the board's model (--clock exact --sci-timing first), no violation"
	}
	if len(r.Result.Found) > 0 {
		s.Trace = len(r.Result.Found[0].Trace)
	}
	return s
}

// Line is the summary as the text results give it: "member 1/2 (dfs):
// incomplete: --max-states 10; 10 states, 0.01s".
func (s Summary) Line() string {
	what := s.Verdict
	if s.Limit != "" {
		what += ": " + s.Limit
	}
	return fmt.Sprintf("member %s: %s; %s states, %.2fs", s.Member, what, units.Count(int64(s.Stored)), s.Seconds)
}

// SortedPCs lists covered PCs in order (a member result's "covered_pcs").
func SortedPCs(c map[uint16]bool) []int {
	pcs := make([]int, 0, len(c))
	for pc := range c {
		pcs = append(pcs, int(pc))
	}
	sort.Ints(pcs)
	return pcs
}

// Decision is what the swarm's outcome says as a check's result.
type Decision struct {
	// Result is the swarm's as a check's.
	Result *check.Result
	// Report is member 0's, with the inputs held constant on any
	// member's machine and the bounds applied to the verdict.
	Report check.Report
	// Machine is the winner's, or member 0's without one: the machine the
	// counterexample runs on.
	Machine *sim.Machine
	// Winner is the member that decided, nil for none; Found its
	// counterexample, nil for none.
	Winner *Run
	Found  *search.Found
	// Internal names two members that contradict each other (a bug in
	// hc11mc); nil when they do not.
	Internal *InternalError
	// NotReplayed is the symbolic member's counterexample that did not
	// replay on the simulator (a bug in hc11mc, which decided nothing);
	// nil when there is none.
	NotReplayed *check.NotReplayed
	// outcome is the race the decision was made of.
	outcome *outcome
	// Bounded says that the winner explored every state within the
	// bounds of the environment (--max-received, --max-timer-events):
	// the check is incomplete, and so is the winner's search, whose own
	// verdict said verified (check.Report.Bound).
	Bounded bool
}

// decide makes the check's result of the outcome of a swarm with --seed
// seed.
func (o *outcome) decide(seed uint64) *Decision {
	cs0 := o.Runs[0].Check
	d := &Decision{Result: o.Result, Report: cs0.Properties, Machine: cs0.Machine, outcome: o}
	if o.Winner >= 0 {
		d.Winner = o.Runs[o.Winner]
		d.Machine = d.Winner.Check.Machine
		if d.Winner.Member.Board && !mutation.On(mutation.BoardProof) {
			// The board's model is a bound of the exploration, which
			// the verdict names (board.go).
			d.Report = d.Winner.Check.Properties
		}
		// The reductions of the search that decided (the symbolic
		// member's are partial-order reduction alone).
		d.Report.Reductions = d.Winner.Check.Properties.Reductions
		if len(d.Result.Found) > 0 {
			d.Found = &d.Result.Found[0]
		}
	}
	for _, r := range o.Runs {
		if nr := (*check.NotReplayed)(nil); errors.As(r.Err, &nr) {
			d.NotReplayed = nr
		}
	}
	if c := o.Conflict; c != nil {
		proof, viol := o.Runs[c.Verified], o.Runs[c.Violated]
		d.Internal = newInternalError(SettingsOf(proof, seed), SettingsOf(viol, seed), viol.Result.Found[0].Violation.Kind.String(), proof.Result.Omission)
	}
	var ms []*sim.Machine
	for _, r := range o.Runs {
		if !r.detached {
			ms = append(ms, r.Check.Machine)
		}
	}
	for _, m := range ms {
		if m != d.Machine {
			d.Result.Waits = append(d.Result.Waits, m.WaitPCs()...)
		}
	}
	d.Report.Held = check.HeldInputs(cs0.Image, ms...)
	d.Report.Received(ms...)
	d.Report.Count = check.CountReadOf(cs0.Image, ms...)
	d.Report.Bound(d.Result)
	if d.Winner != nil && d.Winner.Result.Verdict == check.Verified && d.Result.Verdict == check.Incomplete {
		// Nothing is left of the winner's exploration: the frontiers of
		// the members it stopped are not what the verdict leaves out.
		d.Bounded = true
		d.Result.Stats.Frontier = d.Winner.Result.Stats.Frontier
	}
	return d
}

// Summaries are the members' summaries as the check reports them: the
// winner of a bounded exploration (Bounded) is incomplete, as the check
// is, with the check's limit.
func (d *Decision) Summaries() []Summary {
	var ms []Summary
	for _, r := range d.outcome.Runs {
		s := r.Summary()
		if d.Bounded && r == d.Winner {
			s.Verdict, s.Limit = d.Result.Verdict.String(), d.Result.Limit.String()
		}
		ms = append(ms, s)
	}
	return ms
}
