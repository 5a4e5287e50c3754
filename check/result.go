package check

import (
	"fmt"
	"github.com/hc11mc/hc11mc/verdict"
	"slices"
	"strings"

	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
)

// Verdict is what a check concludes, whichever engine explored: package
// verdict's, the one type every engine gives.
type Verdict = verdict.Verdict

// The verdicts: no violation in any reachable state (the exploration was
// exhaustive), a violation found, or a limit stopped the exploration.
const (
	Verified   = verdict.Verified
	Violated   = verdict.Violated
	Incomplete = verdict.Incomplete
)

// Result is a check's result, from any engine: the verdict, the
// violations with their counterexamples, and what the exploration did.
type Result struct {
	Verdict Verdict
	// Limit says what stopped an incomplete check; it is rendered as
	// text (Limit.String) only where the result is printed.
	Limit verdict.Stop
	// Found are the violations, first found first, each with its trace
	// from the initial state.
	Found []search.Found
	// Stats are the exploration's counts; the symbolic engine's are
	// given as the explicit search's would be (states stored, states
	// expanded, ...) and kept whole in HMC.
	Stats search.Stats
	// Covered are the PCs the expanded states' threads were at (the
	// explicit search's only).
	Covered map[uint16]bool
	// Omission is, with hash compaction, the probability that a state
	// was missed.
	Omission float64
	// Privacy and Dead, when not empty, say which transition broke an
	// assumption of partial-order reduction (stack privacy) or of dead-
	// data elimination, and what the search did about it.
	Privacy, Dead string
	// HMC are the symbolic engine's statistics when it ran alone.
	HMC *symbolic.Stats
	// Levels, LevelsNote and Frontier are, on an incomplete explicit
	// search, the breadth-first levels it expanded completely, why it
	// claims none, and the PCs its frontier's states are at
	// (search.Result).
	Levels     int
	LevelsNote string
	Frontier   []search.FrontierPC
	// SavedTo is the file an incomplete explicit search saved its
	// frontier to (--save-frontier), "" when it saved none.
	SavedTo string
	// Waits are PCs at which the firmware was found waiting on machines
	// other than the one the result is reported on (a swarm's members:
	// sim.Machine.WaitPCs), reported beside that machine's own.
	Waits []uint16
}

// FromSearch is the result of an explicit search.
func FromSearch(r *search.Result) *Result {
	return &Result{Verdict: r.Verdict, Limit: r.Limit, Found: r.Found, Stats: r.Stats, Covered: r.Covered,
		Omission: r.Omission, Privacy: r.Privacy, Dead: r.Dead, Levels: r.Levels, LevelsNote: r.LevelsNote, Frontier: r.Frontier}
}

// FromSymbolic is the result of the symbolic engine on m. Its
// counterexample is replayed on the concrete simulator first: one that
// does not replay is a *NotReplayed error, never a verdict; the result
// beside the error is incomplete, with the engine's counts.
func FromSymbolic(m *sim.Machine, r *symbolic.Result) (*Result, error) {
	st := r.Stats
	res := &Result{Verdict: r.Verdict, Limit: r.Limit, Privacy: r.Privacy, HMC: &st, Stats: search.Stats{
		StatesStored: st.States, StatesExpanded: st.Images + st.Unrolled, MaxDepth: st.MaxDepth,
		Seconds: st.Elapsed.Seconds(), Frontier: st.Frontier, Instructions: st.Instructions,
		PeakMemory: st.PeakMemory, Reduced: st.Reduced}}
	if r.Verdict == symbolic.Violated {
		if err := Confirm(m, r.Violation, r.Trace); err != nil {
			res.Verdict, res.Limit = Incomplete, verdict.Because(err.Error())
			return res, err
		}
		res.Found = []search.Found{{Violation: r.Violation, Trace: r.Trace}}
	}
	return res, nil
}

// NotReplayed is a counterexample of the symbolic engine that does not
// lead to its violation on the simulator: a bug in hc11mc.
type NotReplayed struct {
	Kind sim.Kind
	Err  error
}

// Error says which counterexample did not replay, and why.
func (e *NotReplayed) Error() string {
	return fmt.Sprintf("the counterexample HMC found (%s) does not replay on the simulator: %v", e.Kind, e.Err)
}

// Confirm replays a counterexample of the symbolic engine, trace ending
// in v, on the concrete simulator m: it must end in a violation of the
// same kind. The error is a *NotReplayed.
func Confirm(m *sim.Machine, v *sim.Violation, trace []sim.Label) error {
	_, got, err := search.Replay(m, trace)
	switch {
	case err != nil:
	case got == nil:
		err = fmt.Errorf("its %d steps end without a violation", len(trace))
	case got.Kind != v.Kind:
		err = fmt.Errorf("its %d steps end in %s, not %s", len(trace), got.Kind, v.Kind)
	default:
		return nil
	}
	return &NotReplayed{Kind: v.Kind, Err: err}
}

// Conditions are the notes that go with the result of a check on m with
// the reductions that ran: what the reductions did, what broke their
// assumptions, and the model of atomicity a verdict holds under. One
// line each.
func (r *Result) Conditions(m *sim.Machine, reductions []string) []string {
	var notes []string
	if slices.Contains(reductions, "por") {
		notes = append(notes, fmt.Sprintf("reductions: %s (%d of %d states expanded by one transition alone; verdicts are those of --reduce none)",
			strings.Join(reductions, ", "), r.Stats.Reduced, r.Stats.StatesExpanded))
	} else if len(reductions) > 0 {
		notes = append(notes, fmt.Sprintf("reductions: %s (verdicts are those of --reduce none)", strings.Join(reductions, ", ")))
	}
	if m.Config.ExactClock {
		notes = append(notes, "note: por: not run under the exact clock: every instruction advances the peripherals' time, so every state is expanded in full")
	}
	if r.Privacy != "" {
		notes = append(notes, "note: por: "+r.Privacy)
	}
	if r.Dead != "" {
		notes = append(notes, "note: dead: "+r.Dead)
	}
	if m.HasDevice() {
		notes = append(notes, "clock: "+ClockNote(m))
		for _, c := range ClockConditions(m) {
			notes = append(notes, "  condition: "+c)
		}
	}
	if m.HasTiming() && m.Config.Preempt == sim.PreemptEvery {
		notes = append(notes, "note: por: off with timing properties: every instruction advances the time that each interval counts, "+
			"so no step is independent of the others (docs/timing.md)")
	}
	if p := m.Config.Preempt; p != sim.PreemptEvery && r.Verdict != Violated {
		points := "harness calls"
		if p == sim.PreemptCalls {
			points = "calls, returns and harness calls"
		}
		notes = append(notes, fmt.Sprintf("note: under --preempt %s threads switch only at %s, a coarser model of atomicity than the hardware's, not a reduction: "+
			"it can miss races that --preempt every finds", p, points))
	}
	return notes
}

// ClockName names the clock the peripherals of m keep time by, the one a
// verdict on m holds for: "exact" or "abstract"; "" without peripherals.
func ClockName(m *sim.Machine) string {
	switch {
	case !m.HasDevice():
		return ""
	case m.Config.ExactClock:
		return "exact"
	}
	return "abstract"
}

// ClockNote says which clock a verdict on m holds for, and what that
// means (docs/clocks.md); ClockConditions lists what it assumes.
func ClockNote(m *sim.Machine) string {
	if m.Config.ExactClock && m.Config.SCIFirstWait {
		return "exact (the timer, the real-time interrupt, the SCI's line and the COP counted in E cycles; a byte comes off the line at the first wait after the one before it, or never: --sci-timing first)"
	}
	if m.Config.ExactClock {
		return "exact (the timer, the real-time interrupt, the SCI's line and the COP counted in E cycles; every E cycle at which a byte can come off the line is explored)"
	}
	return "abstract (timer sources fire and the transmitter finishes a byte at any scheduling point, bytes arrive at any rate: an over-approximation of every crystal and line in the order of events)"
}

// ClockConditions are the assumptions and abstractions a verdict on m
// holds under for the clock of its peripherals, one sentence each
// (docs/clocks.md); nil without peripherals.
func ClockConditions(m *sim.Machine) []string {
	switch {
	case !m.HasDevice():
		return nil
	case !m.Config.ExactClock:
		cs := []string{"a violation may need a timing the chip and its line cannot produce (--clock exact counts it)"}
		if tm := m.Config.Timing; tm != nil {
			for _, l := range tm.Latencies {
				if l.Source {
					cs = append(cs, "latency "+sim.IRQName(l.IRQ)+": "+AbstractSourceNote)
				}
			}
		}
		return cs
	}
	return []string{
		"the sender's bit rate is the receiver's (BAUD): bytes come off the line at least a frame apart",
		"a register is read as it stands at the start of the instruction that reads it: a flag set or a byte received during an instruction is seen from the next one (TCNT, read by a load or an arithmetic instruction, at the cycle the manual's cycle-by-cycle table gives)",
		"the first byte after the receiver is enabled may come off nine bit times after the enable, up to a bit earlier than the line can deliver it",
		"the transmitter starts a frame (a byte, or the preamble TE queues) at the cycle the firmware writes SCDR or SCCR2, its instruction's last (the chip's starts at the next tick of its bit clock, up to a bit time later)",
		"input-capture edges come at any moment",
		"the COP times out at the earliest the reference manual allows, 2^15 × 4^CR E cycles after its service (the chip's may come up to 2^15 E cycles later)",
	}
}
