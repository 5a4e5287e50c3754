package search

import (
	"fmt"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/sim"
)

// Replay re-executes a trace from the machine's initial state. It returns
// the states along the way (the initial one first) and the violation the
// last transition produced (or the deadlock of the last state). An error
// means the trace does not describe transitions of this machine. The
// machine that replays is m.Counted(), which counts the exact clock's
// timer counters where m leaves them out: the trace of a deadlock m found
// then goes on to that machine's deadlock (FinishWait).
func Replay(m *sim.Machine, trace []sim.Label) ([]*sim.State, *sim.Violation, error) {
	m = m.Counted()
	s := m.Initial()
	states := []*sim.State{s}
	for i, l := range trace {
		ns, v, ok := m.Replay(s, l)
		if !ok {
			return states, nil, fmt.Errorf("step %d (thread %d, %d instructions, choice %d) is not a transition of the state it starts from", i+1, l.Thread, l.Steps, l.Choice)
		}
		states = append(states, ns)
		if v != nil {
			if i != len(trace)-1 {
				return states, v, fmt.Errorf("step %d violates %s before the trace ends", i+1, v.Kind)
			}
			return states, TrueInterval(m, trace, v), nil
		}
		s = ns
	}
	_, dl := m.Successors(s, nil, nil)
	return states, dl, nil
}

// TrueInterval returns v, the violation that trace ends in on m, with
// the interval and the count of cycles the execution had when v is a
// timing property's: the search's counters stop at the bound plus one,
// so that v, found by a search, says the bound plus one, and, drawn back
// from it, a start too late. It replays trace on m.Unsaturated(), whose
// counters do not stop; v itself for any other violation, or when the
// replay does not end in one of v's kind.
func TrueInterval(m *sim.Machine, trace []sim.Label, v *sim.Violation) *sim.Violation {
	if v == nil || !m.HasTiming() {
		return v
	}
	switch v.Kind {
	case sim.KindMasked, sim.KindDeadline, sim.KindLatency:
	default:
		return v
	}
	u := m.Unsaturated()
	if u == m {
		return v
	}
	s := u.Initial()
	for i, l := range trace {
		ns, w, ok := u.Replay(s, l)
		switch {
		case !ok:
			return v
		case w != nil:
			if i != len(trace)-1 || w.Kind != v.Kind {
				return v
			}
			return w
		}
		s = ns
	}
	return v
}

// FinishWait returns trace, which ends in a deadlock m found, followed by
// the time that passes on the machine that counts the exact clock's timer
// counters (sim.Machine.Counted) until it reaches the same deadlock
// (sim.Machine.FinishWait): where m left the counters out, its deadlock
// comes before that machine's, which replay rebuilds. trace as it is
// where m counts them, or where the counting machine does not come to
// the deadlock that way.
func FinishWait(m *sim.Machine, trace []sim.Label) []sim.Label {
	c := m.Counted()
	if c == m || mutation.On(mutation.WaitUnfinished) {
		return trace
	}
	states, v, err := Replay(c, trace)
	if err != nil || v != nil {
		return trace
	}
	more, ok := c.FinishWait(states[len(states)-1])
	if !ok {
		return trace
	}
	return append(trace[:len(trace):len(trace)], more...)
}

// MaxUnbatched is the most transitions Unbatch makes of a trace.
const MaxUnbatched = 1 << 20

// Unbatch returns trace with every batch (sim/batch.go) split into the
// transitions of the machine without batches it ran through
// (sim.Machine.Unbatch): the same execution, one transition per
// scheduling point, which replays with --batch on and off. A trace that
// does not replay, or whose split would exceed MaxUnbatched transitions
// (a batch of millions of instructions through start-up code), is
// returned as it is: it replays with batches, which a trace file
// records.
func Unbatch(m *sim.Machine, trace []sim.Label) []sim.Label {
	s := m.Initial()
	out := make([]sim.Label, 0, len(trace))
	for _, l := range trace {
		var ok bool
		if out, ok = m.Unbatch(s, l, out); !ok || len(out) > MaxUnbatched {
			return trace
		}
		ns, v, ok := m.Replay(s, l)
		if !ok {
			return trace
		}
		if v != nil {
			break
		}
		s = ns
	}
	return out
}
