package sim

import "github.com/hc11mc/hc11mc/loader"

// What another engine needs to drive the machine one instruction at a time
// (package symbolic keeps the concrete part of its states in a State and
// steps it with Replay): the decisions Successors makes between
// instructions, and a way to set memory.

// MayRun reports whether thread i of s may be scheduled: it is running
// and no other thread is inside an atomic section.
func (s *State) MayRun(i int) bool { return s.mayRun(i) }

// SchedPoint reports whether the next instruction of thread i of s is a
// scheduling point under the machine's preemption mode, where a
// transition of Successors ends (always, under --preempt every).
func (m *Machine) SchedPoint(s *State, i int) bool { return m.schedPoint(s, &s.Threads[i]) }

// IsGoal reports whether pc is a --reach goal.
func (m *Machine) IsGoal(pc uint16) bool { return m.isGoal(pc) }

// IRQs returns the vector indexes of the --irq interrupts, in the order
// Successors tries them.
func (m *Machine) IRQs() []int { return m.irqs }

// CanTake reports whether thread t's CCR lets it take interrupt vector v
// (I clear; X clear for xirq).
func (m *Machine) CanTake(t *Thread, v int) bool { return m.canTake(t, v) }

// Deadlock describes the deadlock of s, a state where nothing can move.
func (m *Machine) Deadlock(s *State) *Violation { return m.deadlock(s) }

// HookAt returns the harness routine whose stub is at pc, or
// loader.NoStub.
func (m *Machine) HookAt(pc uint16) loader.Stub { return m.code[pc].hook }

// InputValues returns the values a read of a may return when a is an
// --input address.
func (m *Machine) InputValues(a uint16) ([]uint8, bool) {
	if m.attr[a] != attrInput {
		return nil, false
	}
	return m.inputs[m.inputIdx[a]], true
}

// WriteMem sets the byte at a of s to v, copying its page if s shares it.
// It reports false, and changes nothing, when a is not writable memory.
func (m *Machine) WriteMem(s *State, a uint16, v uint8) bool {
	switch m.attr[a] {
	case attrRAM, attrInput, attrHeld:
		s.page(int(m.pageOf[a/PageSize])).Data[a%PageSize] = v
		return true
	}
	return false
}

// Candidate reports whether thread i's next instruction at s may be
// followed alone by partial-order reduction (reduce.go), by what s and
// the instruction show before it runs: the machine is reducible, s is
// outside an atomic section, the thread is running and can take no
// interrupt (by its concrete CCR: the caller must know the I and X bits),
// and the instruction is register-only (regOnly) or, while stack privacy
// holds (private.go), may touch its stack, in which case its transition
// must prove private (ReplayStep) before it is followed alone.
func (m *Machine) Candidate(s *State, i int) (ok, regOnly bool) {
	if !m.reducible() || s.Atomic != 0 || m.clocked(s) {
		return false, false
	}
	return m.candidate(s, i)
}

// ReplayStep is Replay of one instruction of thread i, reporting also
// whether the instruction was private: it touched no byte outside the
// thread's stack region and intruded nowhere, with stack privacy being
// checked (private.go). The symbolic engine's partial-order reduction
// asks it. With ph, the step keeps ph's rule (placeholder.go): one that
// breaks it (ph.Broken) is neither private nor relied on, and its
// successor is the caller's to throw away.
func (m *Machine) ReplayStep(s *State, i int, ph *Placeholders) (ns *State, v *Violation, ok, private bool) {
	var pu privUse
	ns, v, ok = m.replay(s, Label{Thread: i, IRQ: -1, Steps: 1}, nil, &pu, ph)
	private = ok && !pu.public && m.priv.Load() == privOn && (ph == nil || !ph.Broken)
	if private && pu.low != 0xFFFF {
		// The engine may follow it alone: its privacy is relied on.
		m.rely(pu.low, pu.top)
	}
	return ns, v, ok, private
}
