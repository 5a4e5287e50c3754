package gdbremote

import (
	"fmt"

	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// moveKind says what happens in one move of a history.
type moveKind uint8

const (
	moveInstr moveKind = iota // the thread executes one instruction (or one harness call)
	moveIRQ                   // the thread takes an interrupt: its frame stacked, PC at the handler
	moveEvent                 // the environment acts (an input arrives, a timer fires): no thread runs
)

// move is what leads from one position of a history to the next.
type move struct {
	thread int
	kind   moveKind
}

// History is a counterexample as GDB sees it: the machine state at every
// instruction boundary along the trace, from power-up (position 0) to the
// violation (the last position). A transition of the trace that ran
// several instructions is one position per instruction, re-executed one
// instruction at a time; an interrupt's entry and an environment event
// are a position each.
type History struct {
	m         *sim.Machine
	states    []*sim.State // len(moves)+1
	moves     []move
	violation *sim.Violation
}

// NewHistory replays labels on m, the machine they were found on, and
// returns the history of states along them. The error says that the
// trace is not a run of m (search.Replay's).
func NewHistory(m *sim.Machine, labels []sim.Label) (*History, error) {
	m = m.Counted() // the machine search.Replay replays on
	states, v, err := search.Replay(m, labels)
	if err != nil {
		return nil, err
	}
	h := &History{m: m, states: []*sim.State{states[0]}, violation: v}
	for i, l := range labels {
		before, after := states[i], states[i+1]
		switch {
		case l.Event > 0:
			h.add(move{l.Thread, moveEvent}, after)
		case l.IRQ >= 0:
			h.add(move{l.Thread, moveIRQ}, after)
		default:
			h.expand(before, after, l)
		}
	}
	return h, nil
}

// add appends a move and the state it leads to.
func (h *History) add(mv move, s *sim.State) {
	h.moves = append(h.moves, mv)
	h.states = append(h.states, s)
}

// expand adds transition l from before to after one instruction at a
// time: every instruction but the last re-executed alone (its choice is
// the last one's), the last one ending in after, the state the whole
// transition reached. Where one instruction alone does not replay, the
// transition stays one move.
func (h *History) expand(before, after *sim.State, l sim.Label) {
	if l.Steps <= 1 {
		h.add(move{l.Thread, moveInstr}, after)
		return
	}
	mid := make([]*sim.State, 0, l.Steps-1)
	s := before
	for k := uint32(1); k < l.Steps; k++ {
		ns, v, ok := h.m.Replay(s, sim.Label{Thread: l.Thread, IRQ: -1, Steps: 1})
		if !ok || v != nil {
			h.add(move{l.Thread, moveInstr}, after)
			return
		}
		mid = append(mid, ns)
		s = ns
	}
	for _, ns := range mid {
		h.add(move{l.Thread, moveInstr}, ns)
	}
	h.add(move{l.Thread, moveInstr}, after)
}

// Len is the number of moves: the positions are 0 to Len.
func (h *History) Len() int { return len(h.moves) }

// State is the machine state at position i.
func (h *History) State(i int) *sim.State { return h.states[i] }

// Machine is the machine the history runs on.
func (h *History) Machine() *sim.Machine { return h.m }

// Violation is the violation at the end of the history, nil for none.
func (h *History) Violation() *sim.Violation { return h.violation }

// Mover is the thread that moves from position i (an instruction or an
// interrupt's entry), -1 for an environment event or the end.
func (h *History) Mover(i int) int {
	if i >= len(h.moves) || h.moves[i].kind == moveEvent {
		return -1
	}
	return h.moves[i].thread
}

// fetches reports the address of the instruction thread Mover(i) fetches
// at position i, false when the move is no instruction: what a
// breakpoint there stops at.
func (h *History) fetches(i int) (uint16, bool) {
	if i >= len(h.moves) || h.moves[i].kind != moveInstr {
		return 0, false
	}
	return h.states[i].Threads[h.moves[i].thread].PC, true
}

// Describe describes position i for a person: where it is and who moves
// next.
func (h *History) Describe(i int) string {
	if i >= len(h.moves) {
		if h.violation != nil {
			return fmt.Sprintf("position %d of %d: the end, the violation (%s)", i, len(h.moves), h.violation.Kind)
		}
		return fmt.Sprintf("position %d of %d: the end", i, len(h.moves))
	}
	mv := h.moves[i]
	switch mv.kind {
	case moveIRQ:
		return fmt.Sprintf("position %d of %d: thread %d takes an interrupt", i, len(h.moves), mv.thread)
	case moveEvent:
		return fmt.Sprintf("position %d of %d: an environment event", i, len(h.moves))
	}
	return fmt.Sprintf("position %d of %d: thread %d at 0x%04X", i, len(h.moves), mv.thread, h.states[i].Threads[mv.thread].PC)
}

// replay serves a History: GDB moves along it and cannot change it.
type replay struct {
	h   *History
	pos int
}

func (r *replay) machine() *sim.Machine { return r.h.m }
func (r *replay) state() *sim.State     { return r.h.states[r.pos] }
func (r *replay) position() int         { return r.pos }
func (r *replay) describe() string      { return r.h.Describe(r.pos) }
func (r *replay) reverse() bool         { return true }
func (r *replay) reads() bool           { return false }

// firstThread is the thread the history starts with.
func (r *replay) firstThread() int {
	h := r.h
	for i := 0; i < len(h.moves); i++ {
		if t := h.Mover(i); t >= 0 {
			return t
		}
	}
	return 0
}

// setRegister refuses: the history is what happened, and only the values
// it has are written (the server accepts those).
func (r *replay) setRegister(t, n int, v uint16) bool { return false }

// writeMemory refuses as setRegister does.
func (r *replay) writeMemory(a uint16, data []byte) error {
	return fmt.Errorf("a counterexample is what happened: its memory cannot be changed")
}

// resume moves along the history, forward or back. A step of thread
// q.thread ends after its next instruction (backward: before its
// previous one), the other threads moving meanwhile as the history has
// them; a continue ends at a breakpoint. Either ends where a thread is
// about to execute an instruction at a breakpoint (the position resumed
// from aside), after a move that changes a watched byte (backward: before
// it), and at the ends of the history.
func (r *replay) resume(q *request) stop {
	h, t := r.h, q.thread
	steps := func(i int) bool { return q.step && h.Mover(i) == t }
	hit := func(i int) bool {
		a, ok := h.fetches(i)
		return ok && q.bps[a]
	}
	written := func(i int) (watch, bool) { return changed(h.m, q.watches, h.states[i], h.states[i+1]) }
	if !q.back {
		for i := r.pos; i < h.Len(); i++ {
			if i > r.pos && hit(i) {
				r.pos = i
				return stop{thread: h.Mover(i), bp: true}
			}
			if w, ok := written(i); ok {
				r.pos = i + 1
				return stop{thread: moverOr(h.Mover(i), t), extra: fmt.Sprintf("watch:%x;", w.addr)}
			}
			if steps(i) {
				r.pos = i + 1
				return stop{thread: h.Mover(i)}
			}
		}
		r.pos = h.Len()
		st := stop{thread: t, extra: "replaylog:end;"}
		if v := h.violation; v != nil {
			if v.Thread >= 0 && v.Thread < len(h.states[r.pos].Threads) {
				st.thread = v.Thread
			}
			st.msg = fmt.Sprintf("hc11mc: the end of the counterexample: %v\n", v)
		}
		return st
	}
	for i := r.pos - 1; i >= 0; i-- {
		if w, ok := written(i); ok {
			r.pos = i
			return stop{thread: moverOr(h.Mover(i), t), extra: fmt.Sprintf("watch:%x;", w.addr)}
		}
		if steps(i) {
			r.pos = i
			return stop{thread: h.Mover(i)}
		}
		if hit(i) {
			r.pos = i
			return stop{thread: h.Mover(i), bp: true}
		}
	}
	r.pos = 0
	return stop{thread: t, extra: "replaylog:begin;"}
}
