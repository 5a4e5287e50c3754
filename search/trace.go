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
			return states, v, nil
		}
		s = ns
	}
	_, dl := m.Successors(s, nil, nil)
	return states, dl, nil
}
