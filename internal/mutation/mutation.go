// Package mutation holds the switches that put known soundness faults back
// into the reductions and the engines' hand-off, one at a time, so that a
// differential test can show it catches each of them (a test that cannot
// fail proves nothing).
//
// It is for tests only: nothing outside a _test.go file sets a switch, and
// with none set (the zero value, always the case in the tool) every check
// below answers false. A check is one atomic load, made where a reduction
// decides or a device is made, never on the simulator's per-instruction
// path.
package mutation

import (
	"fmt"
	"sync/atomic"
)

// Fault names one fault a switch reintroduces.
type Fault int32

// The faults. The first five are the classes of unsound reduction that
// were once in the tool; the rest each drop one condition of the ample-set
// argument (sim/reduce.go, sim/private.go) or of dead-data elimination
// (sim/live.go, sim/deadstack.go); SkipHandoff drops the symbolic part of
// --engine auto (package hybrid), and JoinConcrete and UnjoinOne break the
// symbolic engine's merge of the two sides of a branch and its split back
// (package symbolic); PrescalerPhase breaks the exact clock of the chip's
// peripherals (package devices); TimingPOR and SourceBoundary break the
// timing properties (package sim); BatchIRQ breaks the batches of steps
// (package sim).
const (
	None Fault = iota
	// ExitAlone: a step that ends its thread counts as independent of
	// every other thread's steps (class 1).
	ExitAlone
	// ImageCode: whether a step is register-only or private is judged
	// from the code the image loaded, not from the bytes the state
	// fetches (class 2).
	ImageCode
	// UnseenFetch: an instruction fetch of a masked stack byte is not
	// detected (class 3).
	UnseenFetch
	// UnseenOther: a read of a masked stack byte by a thread other than
	// the stack's owner is not detected (class 3).
	UnseenOther
	// ClearWrite: a pulled byte is cleared by writing 0 to it, in the
	// state that executes, instead of being masked in its key (class 4).
	ClearWrite
	// StubEntry: liveness takes a harness stub to be entered only by calls
	// from the analysed ROM (class 5).
	StubEntry
	// IRQCandidate: a thread that may take an interrupt can be followed
	// alone.
	IRQCandidate
	// NoIntrusion: an access to another thread's stack region does not
	// withdraw privacy.
	NoIntrusion
	// NoProviso: the cycle proviso accepts a stored state that was
	// expanded reduced.
	NoProviso
	// VisibleAlone: a step that is a violation may be followed alone
	// (the invisibility condition, C2, dropped).
	VisibleAlone
	// IgnoreReliance: an intrusion shrinks a stack region and the search
	// goes on even where a transition followed alone relied on a byte the
	// region loses.
	IgnoreReliance
	// SkipHandoff: --engine auto takes the transitions its explicit
	// search hands over for followed, without HMC following them.
	SkipHandoff
	// JoinConcrete: where the symbolic engine's Group merges two states
	// whose paths part at a branch, a register or memory byte that is
	// concrete in both and differs keeps the first state's value instead
	// of becoming an if-then-else on the branch condition.
	JoinConcrete
	// UnjoinOne: where the symbolic engine splits a merged state back
	// into states with concrete data, on a condition, the part where the
	// condition is false is dropped.
	UnjoinOne
	// PrescalerPhase: the exact clock of package devices does not keep
	// the timer prescaler's phase between two elapses of time: the E
	// cycles into TCNT's current count are dropped, so that counts are
	// lost wherever time passes in pieces shorter than the prescaler.
	PrescalerPhase
	// TimingPOR: partial-order reduction stays on with timing
	// properties, following alone steps that advance the global time.
	TimingPOR
	// SourceBoundary: the latency of a chip's timer source is counted
	// from the end of the instruction during which its flag set, not
	// from the cycle at which it set (package sim).
	SourceBoundary
	// BatchIRQ: a batch of steps (package sim, batch.go) runs on through
	// points at which a thread could take an interrupt, as if only the
	// running thread could move there.
	BatchIRQ
	numFaults
)

var names = [numFaults]string{"none", "exit-alone", "image-code", "unseen-fetch", "unseen-other",
	"clear-write", "stub-entry", "irq-candidate", "no-intrusion", "no-proviso", "visible-alone", "ignore-reliance",
	"skip-handoff", "join-concrete", "unjoin-one", "prescaler-phase", "timing-por", "source-boundary",
	"batch-irq"}

func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return fmt.Sprintf("Fault(%d)", int32(f))
	}
	return names[f]
}

// All lists every fault, None excluded.
func All() []Fault {
	fs := make([]Fault, 0, numFaults-1)
	for f := None + 1; f < numFaults; f++ {
		fs = append(fs, f)
	}
	return fs
}

var active atomic.Int32

// Set makes f the active fault (None: no fault) and returns a function
// that restores the one before. Tests that set a fault must not run in
// parallel with tests that expect none.
func Set(f Fault) (restore func()) {
	old := active.Swap(int32(f))
	return func() { active.Store(old) }
}

// On reports whether fault f is active.
func On(f Fault) bool { return Fault(active.Load()) == f }
