// Package mutation holds the switches that put known soundness faults back
// into the reductions and the engines' hand-off, one at a time, so that a
// differential test can show it catches each of them (a test that cannot
// fail proves nothing).
//
// It is for tests only: nothing outside a _test.go file sets a switch, and
// with none set (the zero value, always the case in the tool) every check
// below answers false. A check is one atomic load, and none is made once
// per instruction: the switches the instruction path would ask for
// (UnseenFetch, UnseenOther, ClearWrite, BatchIRQ, MemoStale) are read
// once, when sim.NewMachine makes a machine, and a device's
// (PrescalerPhase, PinOrder, SCITenBits) when the device is made; so a
// test sets those before it makes the machine or the device. The others are loaded where a
// reduction decides (once per transition or per state), where a transition
// begins (ROMByImage, PlaceholderRead), and at the rarer events of a step
// that they concern: an interrupt's entry from WAI or STOP, time passing
// in WAI, a second interval of a deadline about to start, the choice
// between requested interrupts, a timer source's request, an event of
// the environment, a saved frontier's load.
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
// (package symbolic); PrescalerPhase and PinOrder break the exact clock of
// the chip's peripherals (package devices), and SCITenBits its SCI's
// frame; TimingPOR, SourceBoundary, WaiEntryStacks, WaitUncounted,
// StopNoRestart, LatencyOrder, DeadlineOne, SaturatedInterval and
// AbstractBoundary break the timing properties (package sim);
// PlaceholderRead lets the symbolic engine's concrete steps read the
// placeholders of values they do not hold (package sim, placeholder.go);
// ArmedWait and ReceiveOnly narrow the waits of --sci-timing idle back to
// loops that read a register, and the arrival of a byte to waits for the
// receiver (package sim); CurrentReliance narrows the reliance check of
// learned stack privacy (sim/private.go), and ForgetLearned drops what
// the reductions learned from a saved frontier (package search);
// DeepClaim and ResumeClaim overstate the depth a stopped search proved
// (package search, levels.go); BatchIRQ breaks the batches of steps
// (package sim); BoardProof takes the board member's proof for the
// swarm's (package portfolio); DeltaLoses breaks the store's pages kept
// as differences (package search); MemoStale the memo of the device's
// answers (package sim); WaitUnfinished the counterexamples of deadlocks
// found with the exact clock's counters left out (package search).
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
	// PlaceholderRead: a step of the symbolic engine that reads a byte
	// whose value is a term (the placeholder 0 in its concrete part) or
	// an --input address without a stand-in reads the memory — the
	// placeholder, the first listed value — instead of breaking the rule
	// that sends the read through the terms (sim/placeholder.go); BRSET
	// and BRCLR are steered by writing the tested byte, and an
	// instruction byte that holds a term is fetched as its placeholder
	// instead of being split on its values (package symbolic).
	PlaceholderRead
	// PinOrder: the exact clock makes the pin actions of the output
	// compares that came within one elapse all at once, OC1 winning,
	// rather than in the order of their counts (package devices).
	PinOrder
	// ArmedWait: under --sci-timing idle, a loop that waits for an
	// armed interrupt without reading a register (a main loop polling a
	// RAM ring buffer or flag an interrupt handler fills) is not seen
	// waiting: no byte arrives while the firmware runs it (package sim).
	ArmedWait
	// ReceiveOnly: under --sci-timing idle a byte arrives only at a wait
	// that the receiver could end (one reading SCSR or SCDR, or with the
	// receive interrupt armed), not at a wait for the timer after which
	// the firmware polls the receiver (package sim).
	ReceiveOnly
	// WaiEntryStacks: the entry of an interrupt into a CPU waiting in
	// WAI takes a full entry's 14 cycles, as if WAI had not stacked the
	// frame already (package sim).
	WaiEntryStacks
	// WaitUncounted: the E cycles that pass while the CPU waits in WAI,
	// under the exact clock, reach the peripherals but not the global
	// time and the timing properties' counts (package sim).
	WaitUncounted
	// SCITenBits: the SCI's transmitter under the exact clock sends
	// frames of ten bits whatever SCCR1's M says, and queues no preamble
	// when TE goes from 0 to 1 (package devices).
	SCITenBits
	// StopNoRestart: the entry from STOP takes no oscillator restart
	// delay, whatever OPTION's DLY says (package sim).
	StopNoRestart
	// LatencyOrder: requested harness interrupts are served in the
	// order of their latency properties, not by the chip's priority,
	// and a lower-priority interrupt may be taken before a pending one
	// (package sim).
	LatencyOrder
	// DeadlineOne: a deadline is measured for one thread at a time: an
	// interval starts at FROM only while no other is running (package
	// sim).
	DeadlineOne
	// SaturatedInterval: a timing violation reports the interval drawn
	// back from the count saturated at the bound plus one, not the one
	// the execution had (package sim: Machine.Unsaturated is the machine
	// itself).
	SaturatedInterval
	// AbstractBoundary: under the abstract clock, the latency of a
	// timer source is counted from the instruction boundary at which
	// the event sets its flag, not from the first cycle of the
	// instruction before, in which the flag may have set (package sim).
	AbstractBoundary
	// CurrentReliance: on an intrusion, whether a transition followed
	// alone relied on a byte a region loses is asked of the intruded
	// region as it is in the state at hand, not of every region the new
	// bound takes bytes from in any state (sim/private.go).
	CurrentReliance
	// ForgetLearned: a saved frontier keeps the visited set and the
	// frontier but not what the reductions learned (the bytes relied on
	// as private, the learned stack region bounds, the lowest pulled
	// stack address behind dead-stack masking), so that a resumed search
	// starts without them (package search).
	ForgetLearned
	// ROMByImage: whether a read is of read-only memory, which leaves a
	// transition followed alone private, is judged by the memory map at
	// reset, not by the state's (INIT may have moved RAM over the ROM
	// read) (package sim).
	ROMByImage
	// DeepClaim: a breadth-first search stopped by a limit claims one
	// level more than it expanded completely (package search, levels.go).
	DeepClaim
	// ResumeClaim: a search resumed from a saved frontier in another
	// order claims a depth from that frontier's depths as if they were
	// distances (package search, levels.go).
	ResumeClaim
	// BatchIRQ: a batch of steps (package sim, batch.go) runs on through
	// points at which a thread could take an interrupt, as if only the
	// running thread could move there.
	BatchIRQ
	// BoardProof: the board member of a swarm (package portfolio,
	// board.go), exhaustive for its model only, decides the race with a
	// proof as any member does, reported without its model as a
	// condition: the check says verified.
	BoardProof
	// DeltaLoses: a page the visited-state store keeps as its
	// differences from another page (search/store.go) loses the last of
	// them, so that two different pages may be taken for one.
	DeltaLoses
	// MemoStale: the simulator's memo of the device's answers
	// (sim/devices.go, devMemo) takes two views of the device for one
	// when only their hidden pages differ, so that a batch may run on
	// through a point where the device's clock or counts made an event
	// possible.
	MemoStale
	// WaitUnfinished: a deadlock found while the exact clock left the
	// timer's counters out (dead-data elimination) is reported with the
	// trace that ends where the CPU starts to wait, not where the machine
	// that counts them deadlocks (package search, FinishWait): the
	// counterexample does not replay.
	WaitUnfinished
	numFaults
)

var names = [numFaults]string{"none", "exit-alone", "image-code", "unseen-fetch", "unseen-other",
	"clear-write", "stub-entry", "irq-candidate", "no-intrusion", "no-proviso", "visible-alone", "ignore-reliance",
	"skip-handoff", "join-concrete", "unjoin-one", "prescaler-phase", "timing-por", "source-boundary", "placeholder-read", "pin-order",
	"armed-wait", "receive-only",
	"wai-entry-stacks", "wait-uncounted", "sci-ten-bits", "stop-no-restart",
	"latency-order", "deadline-one", "saturated-interval", "abstract-boundary",
	"current-reliance", "forget-learned", "rom-by-image",
	"deep-claim", "resume-claim", "batch-irq", "board-proof", "delta-loses", "memo-stale", "wait-unfinished"}

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
