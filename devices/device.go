package devices

// Sizes of a Block's parts, in bytes: whole pages of the simulator's
// memory (64 bytes), so that the simulator keeps them as pages.
const (
	RegBytes = 128 // the register block: 64 registers on the A and E series, 96 on the F1
	HidBytes = 64  // hidden state
)

// Block is the peripherals' part of one machine state: the register block
// as the firmware reads it (without side effects), and the hidden state.
// Elapsed and CCR are not state: the simulator sets them before each call.
type Block struct {
	Reg [RegBytes]byte
	Hid [HidBytes]byte

	// Elapsed is the number of E cycles since the current transition
	// began, for the registers writable only in the first 64 cycles.
	Elapsed uint64
	// CCR is the condition codes of the CPU context making the access
	// (HPRIO's PSEL is writable only with I set).
	CCR uint8
	// Asleep says that every thread waits in WAI, so that under the
	// exact clock time may pass by an event of its own (EvWait).
	Asleep bool
	// At is, for a read of TCNT under the exact clock, the E cycles into
	// the instruction at which the CPU reads the counter's high byte (a
	// 16-bit read latches the low byte with it): the counter has counted
	// on since the instruction began. 0 reads it as the instruction
	// began, as every other register is read.
	At uint64
	// Lazy allows the exact clock to leave the timer's counters out of
	// the state once the environment chose before the firmware observed
	// the timer (see docs/devices.md); the simulator sets it while it
	// watches for the firmware observing them after all (Unseen).
	Lazy bool
}

// Hidden byte HidFlags holds FlagClocked while the device wants to know
// the CPU cycles that elapse (Elapse): during the first 64 cycles and
// while the COP runs. The simulator reads it after each transition.
const (
	HidFlags    = 0
	FlagClocked = 1 << 0
)

// Effect is what a device did beyond changing its block: what the outside
// world sees, and properties it found.
type Effect struct {
	Sent     bool  // the SCI sent Byte on its line
	Byte     uint8 // the byte sent
	Matched  bool  // the bytes sent so far match the expected output (Options.ExpectOutput)
	Watchdog bool  // the COP timed out
	Port     bool  // a port's output latch was written: PortReg = PortVal
	PortReg  uint8 // register offset
	PortVal  uint8
	// Received says a byte arrived on the SCI (a receive or an overrun);
	// RxCount is then the bytes received along the execution so far,
	// when Options.MaxReceived bounds them (0 otherwise).
	Received bool
	RxCount  uint8
}

// EventKind says what an environment event is.
type EventKind uint8

// The kinds of events.
const (
	EvReceive EventKind = iota + 1 // a byte arrives on the SCI (Byte)
	EvOverrun                      // a byte arrives while RDRF is set: lost, OR sets
	EvTxDone                       // the SCI's shift register has sent its byte
	EvTime                         // a periodic timer source fires (Source)
	EvCapture                      // an edge on an input-capture pin (Source)
	EvWait                         // exact clock: Cycles E cycles pass while the CPU waits in WAI
)

// EventInfo describes one event of Events.
type EventInfo struct {
	Kind   EventKind
	Byte   uint8  // EvReceive: the byte
	Source string // EvTime, EvCapture: "rti", "tof", "oc1"…"oc5", "ic1"…"ic3"
	Cycles uint64 // EvWait: the E cycles that pass
}

// String describes the event for a trace.
func (e EventInfo) String() string {
	switch e.Kind {
	case EvReceive:
		return "SCI receives " + quoteByte(e.Byte)
	case EvOverrun:
		return "SCI receives a byte while RDRF is set: overrun"
	case EvTxDone:
		return "SCI transmitter finishes a byte"
	case EvTime:
		return "time passes: " + e.Source + " fires"
	case EvCapture:
		return "edge on " + e.Source
	case EvWait:
		return "time passes while the CPU waits: " + utoa(e.Cycles) + " E cycles"
	}
	return "event?"
}

// utoa formats n in decimal.
func utoa(n uint64) string {
	var d [20]byte
	i := len(d)
	for {
		i--
		d[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(d[i:])
		}
	}
}

// quoteByte shows a byte as a character constant: 'A', '\r', '\x05'.
func quoteByte(b uint8) string {
	switch b {
	case '\r':
		return `'\r'`
	case '\n':
		return `'\n'`
	case '\t':
		return `'\t'`
	case '\'':
		return `'\''`
	case '\\':
		return `'\\'`
	}
	if b >= 0x20 && b < 0x7F {
		return "'" + string(rune(b)) + "'"
	}
	const d = "0123456789abcdef"
	return `'\x` + string([]byte{d[b>>4], d[b&15]}) + "'"
}

// Device is what the simulator sees of the peripherals. Register offsets
// are from the start of the register block, wherever INIT put it. A
// Device keeps nothing between calls: all its state is in the Block, and
// it is safe for concurrent use on different blocks.
type Device interface {
	// Reset fills b with the power-up state.
	Reset(b *Block)
	// Choices is the number of values a read of register off may return
	// (1 for a deterministic read); Read then returns value k of them
	// and makes the read's side effects on b.
	Choices(b *Block, off int) int
	Read(b *Block, off, k int) uint8
	// Write makes the firmware's write of v to register off.
	Write(b *Block, off int, v uint8) Effect
	// Pending returns the vector index (package isa/m68hc11) of the
	// highest-priority interrupt the peripherals request, or -1.
	Pending(b *Block) int
	// Events is the number of environment events possible in b; Event
	// makes event k (0 <= k < Events), and Info describes it. The
	// receiver's events (EvReceive, EvOverrun) come before the others:
	// the simulator asks about the kinds of the others from the last
	// event down to the first of them.
	Events(b *Block) int
	Event(b *Block, k int) Effect
	Info(b *Block, k int) EventInfo
	// Bounded reports whether a bound of the exploration (Options) keeps
	// an event from happening in b: an execution that stops there ends
	// the bounded exploration rather than deadlocks.
	Bounded(b *Block) bool
	// Overdue reports whether an event must happen before the CPU goes on:
	// while the device counts cycles, the transmitter finishes a byte
	// within a frame's time at the rate BAUD sets.
	Overdue(b *Block) bool
	// Elapse counts cycles E cycles the CPU executed (see FlagClocked).
	Elapse(b *Block, cycles uint64) Effect
	// Horizon is how many E cycles may elapse in b, counted by Elapse in
	// any number of parts, before something the firmware or the
	// environment could tell happens: the end of the first 64 cycles,
	// the COP's timeout, the transmitter's byte overdue. Fewer cycles
	// change only counters.
	Horizon(b *Block) uint64
	// Unseen reports whether an access of register off in b would
	// observe what the exact clock left out of b (Block.Lazy).
	Unseen(b *Block, off int) bool
	// RegName names register off ("" for an unused offset).
	RegName(off int) string
	// ShowsCount reports whether a read of register off in b shows the
	// timer's free-running count: TCNT, or a capture of it (TIC1-TIC3,
	// and TI4/O5 where it is input capture 4). The abstract clock sets
	// the count only at its events, so what such a read shows is a
	// condition of a verdict under it.
	ShowsCount(b *Block, off int) bool
	// HeldInput reports whether a read of register off in b sees bits
	// the outside world sets that no domain drives: they read as a
	// constant, and a verdict holds for that value only.
	HeldInput(b *Block, off int) bool
	// Observes returns the sources whose events change what a read of
	// register off returns (see Sources).
	Observes(off int) Sources
	// Armed returns the sources whose events would request an interrupt
	// the firmware enabled in b.
	Armed(b *Block) Sources
	// Sending reports whether the transmitter is sending a byte in b,
	// and the E cycles one byte takes on the line at the rate the
	// firmware programmed.
	Sending(b *Block) (busy bool, frame uint64)
}
