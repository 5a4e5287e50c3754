package search

import (
	"fmt"

	"github.com/hc11mc/hc11mc/sim"
)

// Replay re-executes a trace from the machine's initial state. It returns
// the states along the way (the initial one first) and the violation the
// last transition produced (or the deadlock of the last state). An error
// means the trace does not describe transitions of this machine.
func Replay(m *sim.Machine, trace []sim.Label) ([]*sim.State, *sim.Violation, error) {
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
