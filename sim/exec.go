package sim

import (
	"fmt"

	"github.com/hc11mc/hc11mc/devices"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// Kind names a property; a Violation carries one.
type Kind uint8

// The properties of DESIGN.md.
const (
	KindNone Kind = iota
	KindAssert
	KindError
	KindDeadlock
	KindMutex
	KindUnlock
	KindIllegal
	KindROMWrite
	KindUnmapped
	KindStack
	KindReach
	KindWatchdog // the COP was not serviced in time (with a device)
	KindOutput   // the SCI sent what --expect-output looks for: a goal
	KindMasked   // interrupts masked longer than --max-masked (timing.go)
	KindDeadline // a --deadline FROM:TO:N missed
	KindLatency  // an interrupt's handler began later than --latency allows
)

var kindNames = [...]string{"", "assert", "error", "deadlock", "mutex", "unlock",
	"illegal-opcode", "rom-write", "unmapped", "stack", "reach", "watchdog", "output",
	"max-masked", "deadline", "latency"}

// String returns the property's name as the CLI and JSON spell it.
func (k Kind) String() string { return kindNames[k] }

// KindNames lists the property names.
func KindNames() []string { return append([]string(nil), kindNames[1:]...) }

// ParseKind reads a property name.
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames[1:] {
		if n == s {
			return Kind(i + 1), true
		}
	}
	return KindNone, false
}

// Violation is a property found violated, or a goal reached.
type Violation struct {
	Kind    Kind
	Thread  int
	PC      uint16 // the instruction (for harness calls: the call) where it happened
	Addr    uint16 // the address involved, where there is one
	Message string
	// From and To are, for a timing property, the interval of global
	// time (State.Now) the violation measured; both 0 otherwise.
	From, To uint64
}

func (v *Violation) Error() string {
	return fmt.Sprintf("%s: thread %d at 0x%04X: %s", v.Kind, v.Thread, v.PC, v.Message)
}

// event is what one step did, beyond changing the state.
type event uint8

const (
	evOK         event = iota
	evViolation        // x.viol is set
	evBlocked          // the thread cannot move (lock held): no successor
	evInfeasible       // __mc_assume(0): the path is dropped
	evSched            // a harness call, a call or a return happened: a scheduling point follows
	evMismatch         // replay: the transition would have ended before the label says
)

// stepper executes instructions of one thread of one state.
type stepper struct {
	m    *Machine
	s    *State
	t    *Thread
	tid  int
	viol Violation
	bad  bool
	// stop ends a run of instructions (steps) after the one that set it:
	// a violation (bad), an access to the register block (the device's
	// pending interrupts and events may change), an output (the caller
	// tells of it at its cycle) or a write of CCR that may clear I (an
	// interrupt may be taken next).
	stop bool

	// With a device: the layout of s (layoutOf), whether the last step
	// accessed the register block, the thread's cycles when the
	// transition began, and where to record outputs (nil: nowhere);
	// obs gathers the sources of events the registers read show, for
	// whoever watches for a waiting loop (wait.go) to take and clear.
	lay *layout
	io  bool
	c0  uint64
	fx  *[]Output
	obs devices.Sources
	// batch is set while Run executes a batch of instructions on a
	// device that counts cycles: the cycles since c0 have not been
	// counted yet (Machine.elapse), and a register access counts those
	// of the instructions before it first (catchUp).
	batch bool
	// unseen is set when an access observed the exact clock's counters
	// where they were left out (devices.Device.Unseen): the transition
	// is dropped, and the search runs again with them kept.
	unseen bool

	// Nondeterminism: the choice index and the mixed-radix position of the
	// next choice within it; after a step, radix is the number of choices.
	choice uint64
	radix  uint64

	// g checks the privacy of stacks (private.go), when g.on.
	g guard
	// ph, when set, holds the rule that no placeholder is read
	// (placeholder.go); phLax is that rule switched off
	// (mutation.PlaceholderRead). watch says read8 must look at its
	// address first: g.on or ph set.
	ph    *Placeholders
	phLax bool
	watch bool
}

// violation returns a copy of the recorded violation, so that the stepper
// itself can stay on the stack.
func (x *stepper) violation() *Violation {
	v := x.viol
	return &v
}

func (x *stepper) fault(k Kind, pc, addr uint16, format string, args ...any) {
	if x.bad {
		return
	}
	x.bad, x.stop = true, true
	x.viol = Violation{Kind: k, Thread: x.tid, PC: pc, Addr: addr, Message: fmt.Sprintf(format, args...)}
}

// choose returns a choice among n alternatives (0..n-1).
func (x *stepper) choose(n uint64) uint64 {
	c := (x.choice / x.radix) % n
	x.radix *= n
	return c
}

func (x *stepper) read8(a uint16) uint8 {
	if x.watch {
		if v, ok := x.watchedRead(a); ok {
			return v
		}
	}
	switch x.lay.attr[a] {
	case attrRAM:
		if x.m.Config.DeadStack {
			x.deadRead(a, "read")
		}
		return x.s.Pages[x.lay.pageOf[a/PageSize]].Data[a%PageSize]
	case attrROM:
		return x.m.rom[a]
	}
	return x.readSlow(a)
}

func (x *stepper) write8(a uint16, v uint8) {
	if x.g.on {
		x.touch(a)
	}
	if x.lay.attr[a] == attrRAM {
		x.s.page(int(x.lay.pageOf[a/PageSize])).Data[a%PageSize] = v
		return
	}
	x.writeSlow(a, v)
}

func (x *stepper) push8(v uint8) { x.write8(x.t.SP, v); x.t.SP-- }
func (x *stepper) pull8() uint8 {
	v := x.read8(x.t.SP + 1)
	x.t.SP++
	if x.m.Config.DeadStack {
		x.m.pulled(x.t.SP)
		if x.m.faults.clearWrite {
			x.write8(x.t.SP, 0)
		}
	}
	return v
}

// exposeTo is called before SP moves to sp without a write: the bytes
// it uncovers above the new SP hold what they held below the old one,
// which Config.DeadStack may have masked, so uncovering one is a read of
// a masked byte (deadstack.go).
func (x *stepper) exposeTo(sp uint16) {
	if !x.m.Config.DeadStack || sp >= x.t.SP || x.m.deadOff.Load() {
		return
	}
	for a := x.t.SP; a > sp && uint32(a)+1 >= x.m.lowPulled.Load(); a-- {
		if x.maskedBy(a) >= 0 {
			x.m.deadBroke(DeadBreak{What: "uncover", Thread: x.tid, PC: x.t.PC, Addr: a})
			return
		}
	}
}

// fetch returns the instruction at pc.
func (x *stepper) fetch(pc uint16) (isa.Inst, error) {
	var buf [5]byte
	n := 0
gather:
	for ; n < 5; n++ {
		a := pc + uint16(n)
		switch x.lay.attr[a] {
		case attrRAM, attrInput, attrHeld:
			if x.g.on {
				x.touch(a)
			}
			buf[n] = x.s.Pages[x.lay.pageOf[a/PageSize]].Data[a%PageSize]
		case attrROM:
			buf[n] = x.m.rom[a]
		default:
			break gather
		}
	}
	if n == 0 {
		x.fault(KindUnmapped, pc, pc, "execution at unmapped address 0x%04X", pc)
		return isa.Inst{}, isa.ErrTruncated
	}
	in, err := isa.Decode(buf[:n])
	if x.ph != nil {
		x.fetched(pc, &in, err, n)
	}
	if x.m.Config.DeadStack && err == nil && !x.m.faults.unseenFetch {
		for i := range uint16(in.Len) {
			if x.lay.attr[pc+i] == attrRAM {
				x.deadRead(pc+i, "fetch")
			}
		}
	}
	if err == isa.ErrTruncated {
		x.fault(KindUnmapped, pc, pc+uint16(n), "instruction at 0x%04X runs into unmapped address 0x%04X", pc, pc+uint16(n))
	}
	return in, err
}

// step executes one instruction, or one harness call, of thread x.t.
func (x *stepper) step() event {
	_, ev := x.steps(1)
	return ev
}

// The simulator's side of the instructions that package ops leaves to the
// engine (ops.Machine): moves of the stack pointer, which the dead-stack
// bookkeeping and the shadow call stack follow, and the returns.

// loadSP sets SP to sp (LDS, TXS, TYS).
func (x *stepper) loadSP(sp uint16) {
	x.exposeTo(sp)
	x.t.SP = sp
	x.t.dropDeadShadow()
}

// stackTop follows LDS: thread 0's first LDS sets the top of its stack.
func (x *stepper) stackTop() {
	t := x.t
	if t.InitSP == 0 {
		t.InitSP = t.SP
		if x.g.on {
			x.regionGiven(x.tid)
		}
	}
}

// rts returns from a subroutine at pc to the address it pulls, or
// reports that the thread ended instead: its entry routine returned from
// an empty stack, where there is no return address.
func (x *stepper) rts(pc uint16) (to uint16, exited bool) {
	t := x.t
	if t.SP == t.InitSP {
		t.Status = Exited
		return pc, true
	}
	slot := t.SP + 1
	to = x.pull16()
	t.popShadow(slot)
	if x.m.live != nil && x.m.retSite[to/64]&(1<<(to%64)) == 0 {
		x.m.foreignReturn(x.tid, pc, to)
	}
	return to, false
}

// rti pulls RTI's return address, once the registers are pulled.
func (x *stepper) rti() uint16 {
	t := x.t
	slot := t.SP + 1
	to := x.pull16()
	t.popShadow(slot)
	return to
}

// swiVectored reports whether SWI at pc goes through its vector: the
// image programs it, or it is a RAM pseudo-vector the firmware has
// written (vectorAt); otherwise SWI is a fault.
func (x *stepper) swiVectored(pc uint16) bool {
	if x.m.swiOK {
		return true
	}
	if why := x.m.vectorAt(x.s, isa.VecSWI, x.read8); why != "" {
		x.swiFault(pc, why)
		return false
	}
	return true
}

func (x *stepper) checkStack(pc uint16) {
	for _, r := range x.m.stacks {
		if r.Thread >= 0 && r.Thread != x.tid {
			continue
		}
		if int(x.t.SP) < int(r.Lo)-1 || x.t.SP > r.Hi {
			x.fault(KindStack, pc, x.t.SP, "SP = 0x%04X leaves the stack range 0x%04X-0x%04X", x.t.SP, r.Lo, r.Hi)
		}
		return
	}
}
