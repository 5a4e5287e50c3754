package sim

import "github.com/hc11mc/hc11mc/loader"

// What a thread is doing in a state, for counterexamples: Thread.Status
// says running, WAI, STOP or exited, but a thread blocked in __mc_lock, one
// stuck at __mc_assume(0) and one shut out by another thread's atomic
// section are all "running" there (they sit at a stub or an instruction
// that cannot proceed). ThreadStatus tells them apart.

// StatusKind is what a thread is doing.
type StatusKind uint8

// Thread states, as counterexamples show them.
const (
	StatusRunning StatusKind = iota // can run now
	StatusLocked                    // at __mc_lock on a lock byte that is not 0
	StatusAssume                    // at __mc_assume with A = 0: this path goes no further
	StatusShutOut                   // another thread is inside an atomic section
	StatusWaiting                   // in WAI, waiting for an interrupt
	StatusStopped                   // in STOP, waiting for an interrupt
	StatusExited                    // ended
)

// ThreadStatus describes one thread of a state.
type ThreadStatus struct {
	Kind StatusKind
	// Lock is, for StatusLocked, the address of the lock byte and Holder
	// the thread whose id + 1 the byte holds (-1 when the byte holds no
	// thread's id).
	Lock   uint16
	Holder int
	// Owner is, for StatusShutOut, the thread inside the atomic section.
	Owner int
	// Atomic: the thread is inside an atomic section; Critical: inside
	// __mc_cs_enter (the mutex property).
	Atomic, Critical bool
	// Stub names the harness routine whose stub the thread's PC is at
	// ("" when it is at none), and Call the JSR or BSR that called it.
	Stub string
	Call uint16
}

// ThreadStatus describes thread i of s.
func (m *Machine) ThreadStatus(s *State, i int) ThreadStatus {
	t := &s.Threads[i]
	st := ThreadStatus{Holder: -1, Owner: -1,
		Atomic:   s.Atomic != 0 && int(s.Atomic)-1 == i,
		Critical: t.CS > 0 && t.Status != Exited,
	}
	switch t.Status {
	case Exited:
		st.Kind = StatusExited
		return st
	case Waiting:
		st.Kind = StatusWaiting
		return st
	case Stopped:
		st.Kind = StatusStopped
		return st
	}
	if h := m.code[t.PC].hook; h != loader.NoStub {
		st.Stub = h.String()
		x := stepper{m: m, s: s, t: t, tid: i, lay: m.layoutOf(s)}
		st.Call = x.callSite(t.PC)
		switch h {
		case loader.StubLock:
			if b := m.ReadMem(s, t.X); b != 0 {
				st.Kind, st.Lock = StatusLocked, t.X
				if int(b) <= len(s.Threads) {
					st.Holder = int(b) - 1
				}
				return st
			}
		case loader.StubAssume:
			if t.A == 0 {
				st.Kind = StatusAssume
				return st
			}
		}
	}
	if s.Atomic != 0 && !st.Atomic {
		st.Kind, st.Owner = StatusShutOut, int(s.Atomic)-1
	}
	return st
}
