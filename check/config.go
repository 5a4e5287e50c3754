package check

import (
	"github.com/hc11mc/hc11mc/verdict"
	"time"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
)

// Config is one check: the machine to build on the image, which engine
// explores it and how, and the limits. Each field says the flag of check
// that sets it. Its zero value is a breadth-first search of a harness
// model, every interleaving, no reduction, no limit.
type Config struct {
	// Machine shapes the simulated machine.
	Machine MachineConfig
	// BoardMember says that a swarm of this check has a member that
	// models the board (package portfolio, BoardMember): one search,
	// not this check's own, runs under the exact clock with input as a
	// person sends it.
	BoardMember bool

	// Engine explores the machine (--engine).
	Engine EngineKind
	// Strategy is the explicit search's order (--search); HMC's
	// configuration is HMC.
	Strategy search.Strategy
	// Heuristic is the estimate best-first and A* search rank states by
	// (--heuristic); the other orders use none. K is its calling-context
	// bound (--k) for aicfg and efsm.
	Heuristic heuristics.Kind
	K         int
	// Aims are the properties the heuristic aims at, the first the
	// firmware can violate (--aim); empty: heuristics.AimOrder.
	Aims []heuristics.Property
	// GoalMem is the memory valuation --heuristic hamming aims at, as
	// --goal-mem gives it: ADDR=v1,v2,..., the bytes from ADDR on, ADDR
	// a symbol of the image or an address.
	GoalMem []string
	// Seed seeds --search random.
	Seed uint64

	// Reduce turns on partial-order reduction (--reduce por);
	// Machine.Dead is dead-data elimination.
	Reduce bool
	// Compact stores 64-bit fingerprints of states only (--hash-compact).
	Compact bool
	// All goes on after a violation, to report each kind once (--all).
	All bool
	// Ignore are the properties not reported (--ignore).
	Ignore map[sim.Kind]bool

	// MaxStates, Timeout and MaxMemory stop the search (--max-states,
	// --timeout, --max-memory); 0 is no limit.
	MaxStates int
	Timeout   time.Duration
	MaxMemory int64
	// MaxMemoryDefault says, when MaxMemory is the default rather than
	// --max-memory's, what it is a share of (NamedStop); "" when the
	// flag gave it.
	MaxMemoryDefault string

	// HMC configures the symbolic engine, for --engine hmc and auto.
	HMC HMC
}

// NamedStop is the stop of a check as it is printed: a memory limit that
// was the default says what it is a share of, and a --timeout is named by
// the duration given (an engine that goes on after a restart or a
// hand-over is given what is left of it: "--timeout 1m59.999792071s" for
// --timeout 2m); other stops pass.
func (c Config) NamedStop(s verdict.Stop) verdict.Stop {
	if s.Kind == verdict.StopTimeout && c.Timeout > 0 {
		s.Bound = int64(c.Timeout)
	}
	if s.Kind == verdict.StopMaxMemory {
		s.Default = c.MaxMemoryDefault
	}
	return s
}

// EngineKind is who explores the states (--engine).
type EngineKind uint8

// The engines: the explicit-state search (package search), HMC (package
// symbolic) from the initial state, and the explicit search that hands
// its wide choices to HMC (package hybrid).
const (
	EngineExplicit EngineKind = iota
	EngineHMC
	EngineAuto
)

// String names the engine as --engine does.
func (e EngineKind) String() string { return [...]string{"explicit", "hmc", "auto"}[e] }

// HMC configures the symbolic engine.
type HMC struct {
	// Mode picks HMC, bounded model checking alone or the state
	// traversal alone (--hmc-mode); Priority the frontier state the
	// bounded model checks start from (--hmc-priority).
	Mode     symbolic.Mode
	Priority symbolic.Priority
	// PRDepth bounds each bounded model check from a frontier state
	// (--pr-depth).
	PRDepth int
	// MaxBranch is, under --engine auto, the widest choice the explicit
	// search enumerates (--max-branch): a wider one goes to HMC.
	MaxBranch int
}

// MachineConfig is the configuration of the simulated machine beside the
// image: the scheduling points, interrupts, inputs, stacks and goals, and
// the firmware's environment (NewMachine builds the machine of one). Each field says its flag. A setting that names
// something in the image (a symbol, a register) is kept as the text the
// command line gives, read against the image when the machine is built;
// the others are values.
type MachineConfig struct {
	// Preempt is where threads switch (--preempt).
	Preempt sim.Preempt
	// IRQs are the interrupts that may be taken where CCR.I = 0 (--irq).
	IRQs []string
	// Inputs are addresses whose reads return any of a list of values
	// (--input ADDR[=v1,v2,...], ADDR a symbol, a register's name with
	// the chip's peripherals on, or an address; no list: all 256).
	Inputs []string
	// Stacks are the ranges SP must stay in (--stack).
	Stacks []sim.StackRange
	// Reach are goals, symbols or addresses (--reach).
	Reach []string
	// MaxRun bounds the instructions of one transition: a batch, or a
	// run under --preempt calls and yield (--max-run; 0: sim's default).
	MaxRun int
	// Unbatched stores a state at every scheduling point (--batch off;
	// sim.Config.Unbatched).
	Unbatched bool
	// IgnoreIllegal lets an illegal opcode trap as on the hardware
	// instead of ending the path (--ignore illegal-opcode).
	IgnoreIllegal bool
	// Dead is dead-data elimination (--reduce dead): registers, and for
	// firmware the stack bytes below SP, that no execution reads before
	// writing them are left out of stored states.
	Dead bool

	// Peripherals says whether the chip's peripherals are the
	// firmware's environment (--peripherals).
	Peripherals Peripherals
	// SCIInput is the alphabet a received byte comes from (check
	// --sci-input); nil: every byte.
	SCIInput []byte
	// SCIFed says that the SCI receives a sequence given to
	// sim.Machine.Run instead (run --sci-input): every byte may come,
	// and like an alphabet it needs the peripherals.
	SCIFed bool
	// SCIIdle lets bytes arrive on the SCI, and the transmitter finish
	// one, only while the firmware waits (--sci-timing idle).
	SCIIdle bool
	// SCIFirst, with SCIIdle, lets a byte arrive only at the first wait
	// after reset or after the byte before it, or never (--sci-timing
	// first, under the exact clock: sim.Config.SCIFirstWait).
	SCIFirst bool
	// MaxReceived and MaxTimerEvents bound the bytes received and the
	// timer's events along an execution (--max-received,
	// --max-timer-events); nil: no bound.
	MaxReceived    *int
	MaxTimerEvents *int
	// Clock is how the peripherals keep time (--clock).
	Clock Clock
	// ExpectOutput is the goal of output the firmware sends on the SCI
	// (--expect-output).
	ExpectOutput *devices.Matcher
	// ConfigRegister is the CONFIG register's value instead of the
	// chip's (--config).
	ConfigRegister *uint8
	// Board is the board's hardware outside the chip (--device).
	Board []sim.BoardRange
	// Wires connect output-compare pins to XIRQ or IRQ (--wire).
	Wires []devices.Wire
	// Timing are the timing properties (--max-masked, --deadline,
	// --latency, --report-timing: timing.go).
	Timing Timing
}

// Clock is how the chip's peripherals keep time (see package devices).
type Clock uint8

// ClockDefault (the zero value) is the abstract clock: the exact one
// multiplies the states by every cycle a byte may arrive at (see
// docs/clocks.md for the measurements). ClockExact counts the timer, the
// real-time interrupt, the SCI's line and the COP in E cycles;
// ClockAbstract lets a timer source fire and the transmitter finish a
// byte at any scheduling point, and bytes arrive at any rate: an over-
// approximation for a crystal or a line that is not known.
const (
	ClockDefault Clock = iota
	ClockExact
	ClockAbstract
)

// String names the clock as --clock does ("" for the default).
func (c Clock) String() string { return [...]string{"", "exact", "abstract"}[c] }

// Exact reports whether the clock of mc is the exact one (ClockDefault
// resolved).
func (mc MachineConfig) Exact() bool {
	switch mc.Clock {
	case ClockExact:
		return true
	case ClockAbstract:
		return false
	}
	return false
}

// Peripherals says whether the chip's peripherals model the firmware's
// environment.
type Peripherals uint8

// PeripheralsAuto (the default) turns them on for real firmware, an
// image that defines no harness stub and is given no --irq, and leaves
// the register block plain memory for harness models, whose behaviour
// then does not change.
const (
	PeripheralsAuto Peripherals = iota
	PeripheralsOn
	PeripheralsOff
)
