package sim

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/mutation"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// Preempt is the choice of scheduling points (--preempt).
type Preempt uint8

// Scheduling-point modes of DESIGN.md. Every is the hardware's
// atomicity; calls and yield are coarser models of it, which can miss
// races that every finds.
const (
	PreemptEvery Preempt = iota // before every instruction
	PreemptCalls                // at JSR/BSR/RTS/RTI and harness calls
	PreemptYield                // at harness calls only
)

var preemptNames = []string{"every", "calls", "yield"}

func (p Preempt) String() string { return preemptNames[p] }

// ParsePreempt reads a --preempt value.
func ParsePreempt(s string) (Preempt, error) {
	for i, n := range preemptNames {
		if s == n {
			return Preempt(i), nil
		}
	}
	if s == "shared" {
		return 0, fmt.Errorf("--preempt shared was removed: it ran the instructions it took for private to their thread " +
			"without a thread switch or an interrupt between them, and so could miss races that --preempt every finds; " +
			"use the default, --preempt every, whose reductions (--reduce) are sound")
	}
	return 0, fmt.Errorf("unknown --preempt %q: use every, calls or yield", s)
}

// IRQNames lists the interrupt names --irq accepts: the vectors from sci
// to xirq (isa.VecSCI..isa.VecXIRQ), under each of their names.
func IRQNames() []string {
	var n []string
	for v := isa.VecSCI; v <= isa.VecXIRQ; v++ {
		n = append(n, isa.VectorNames(v)...)
	}
	sort.Strings(n)
	return n
}

// isIRQ reports whether vector v is one --irq may name.
func isIRQ(v int) bool { return v >= isa.VecSCI && v <= isa.VecXIRQ }

// StackRange bounds SP for one thread (Thread < 0: every thread).
type StackRange struct {
	Thread int
	Lo, Hi uint16
}

// Config says how to run an image.
type Config struct {
	Preempt Preempt
	IRQs    []string           // interrupt names (--irq)
	Inputs  map[uint16][]uint8 // --input: the values each read may return
	Stacks  []StackRange       // --stack
	Entry   uint16             // thread 0's first PC
	// Reach lists goal addresses (--reach): a thread arriving at one is a
	// KindReach violation.
	Reach []uint16
	// Dead turns on dead-data elimination (see live.go): CanonicalKey
	// zeroes the registers and CCR bits that are dead at a thread's PC.
	Dead bool
	// MaxRun bounds the instructions one thread runs back to back inside
	// one transition when preemption is not at every instruction; the
	// transition ends there (counted in Machine.RunBoundHits). Default 100000.
	MaxRun int
	// MaxBranch, when above 0, bounds the nondeterministic choices an
	// Expander enumerates: a transition whose last instruction offers more
	// values than this (__mc_nondet with a wide range, an --input read of
	// many values) is not enumerated; Expander.Wide names its thread, for
	// a caller that hands such transitions to a symbolic engine (check
	// --engine auto, --max-branch). Replay and the other entry points that
	// name a choice are not bounded.
	MaxBranch int
	// Device, when not nil, is the chip's peripherals (package devices):
	// accesses of the register block go to it, its interrupts are taken
	// by their enable bits, the I bit and the hardware's priority, and its
	// environment events are transitions (see devices.go). nil: the
	// register block is plain memory, as harness models expect.
	Device devices.Device
	// DeadStack takes the stack bytes below each thread's SP out of
	// state keys (deadstack.go), so that states differing only in what
	// earlier calls and interrupt frames left there are one state. The
	// states that execute keep those bytes; a read of one, by any thread,
	// is seen (Machine.DeadBroken) and the search then runs again without
	// the reduction.
	DeadStack bool
	// SCIWhenIdle bounds the exploration to a slow serial line
	// (--sci-timing idle): a byte arrives on the SCI only at a state where
	// the firmware waits for one with nothing being sent, and the
	// transmitter finishes one only where the firmware waits or when the
	// byte is overdue (wait.go says when the firmware waits).
	SCIWhenIdle bool
	// SCIFirstWait, with SCIWhenIdle (check --sci-timing first), lets a
	// byte arrive only at the first state after reset, or after the byte
	// before it, at which SCIWhenIdle would let one arrive: a transition
	// out of such a state other than the byte's arrival notes that the
	// firmware went on without it (devices.HidWaitPassed), and no byte
	// arrives after that until one has. Input as a person or a host sends
	// it: the next byte as soon as the firmware waits for it, or none.
	SCIFirstWait bool
	// ExactClock says that Device counts time in E cycles (devices.Options.
	// Exact): every instruction ends at a scheduling point, since time
	// passes with each (a batch runs on through those where nothing can
	// choose: batch.go); while every thread waits in WAI time passes by an
	// event of the device; and while dead-data elimination stands, the
	// device may leave the timer's counters out of states until the
	// firmware observes them (devices.Block.Lazy) — an access that would
	// observe them breaks the elimination (DeadBroken), and the search
	// runs again with them kept.
	ExactClock bool
	// ExpectOutput says that Device watches the SCI's output for a match
	// (--expect-output): the output property is checked.
	ExpectOutput bool
	// Board lists ranges of board hardware outside the chip (--device):
	// writes are recorded as outputs, reads return any value of the
	// range's list.
	Board []BoardRange
	// IgnoreIllegal says that the illegal-opcode property is not
	// reported (check --ignore illegal-opcode): an illegal opcode then
	// traps through the illegal-opcode vector, when the image programs
	// it, and the execution goes on as the hardware's does (traps.go).
	// Otherwise executing one is an illegal-opcode violation, whatever
	// the vector holds.
	IgnoreIllegal bool
	// Timing, when not nil, is the timing properties to check
	// (timing.go); their state is one more page of every state. nil: no
	// timing property, and no page.
	Timing *Timing
	// Unbatched turns batching off (check --batch off): every scheduling
	// point is a state, even where nothing can choose. By default a
	// thread's transition runs on through the points at which its next
	// step is the only move there is (batch.go), as Run does, so that the
	// search stores only states where the scheduler or the environment
	// has a choice.
	Unbatched bool
}

// BoardRange is a range of addresses of board hardware (--device LO-HI=v,…).
type BoardRange struct {
	Lo, Hi uint16
	Values []uint8 // what a read may return; empty means 0
}

// Memory attributes per address.
const (
	attrUnmapped uint8 = iota
	attrRAM            // writable, in a page
	attrROM            // read-only: stores are rom-write violations
	attrInput          // writable, but reads choose among the --input values
	attrIO             // a register of Config.Device
	attrBoard          // board hardware (Config.Board)
	attrHeld           // without a device, an input register of the chip that --input does not name: RAM whose reads are recorded (held.go)
)

// layout is the memory map as the state's INIT register places RAM and
// the register block: what each address is, the page holding it, the
// decoded-code cache (shared with the reset layout unless RAM or the
// registers cover read-only bytes), and where the register block starts.
type layout struct {
	attr   [65536]uint8
	pageOf [65536 / PageSize]int16 // writable page index per page-sized block, -1 if none
	code   *[65536]centry
	regLo  uint16
}

// Machine is what does not change while the firmware runs: the memory map,
// the read-only bytes, the harness addresses, the interrupts. Machines are
// shared by every state of a search and are safe for concurrent use.
type Machine struct {
	Image  *loader.Image
	Config Config

	// The layout after reset. Its code cache holds, for every address,
	// the harness routine whose stub is there and the decoded
	// instruction when its bytes are all read-only.
	*layout
	rom    [65536]byte
	npages int
	init   []*Page

	// With a device: the pages of the register block and of the hidden
	// device state, the on-chip RAM after reset, and the layouts by INIT
	// value, built when first needed.
	dev    devices.Device
	timing *timing // the timing properties (timing.go), nil for none: beside dev, which the same paths read
	// env is the one door through which the core of the simulator sees
	// dev and timing (env.go): nil when there is neither.
	env      *env
	regPage  int
	regPages int
	hidPage  int
	chipRAM  loader.Region
	regSize  int
	lays     [256]atomic.Pointer[layout]
	layMu    sync.Mutex
	board    []BoardRange
	// observes holds, by register offset, the sources of events a read
	// of the register can see change (devices.Device.Observes).
	observes  [devices.RegBytes]devices.Sources
	deadState // dead-data elimination's checks (deadstack.go)

	goal     [65536 / 64]uint64
	hasGoals bool

	inputs   [][]uint8 // by input index
	inputIdx map[uint16]int
	irqs     []int // vector indexes
	stacks   []StackRange

	// HookAddr is the address of each harness stub (0 when absent).
	HookAddr [loader.NumStubs]uint16
	HasHook  [loader.NumStubs]bool

	// live is what is live at each address (see live.go), nil without
	// Config.Dead; retSite marks the return sites it assumes RTS goes to,
	// and foreignReturns counts the returns anywhere else.
	live           []uint16
	retSite        [65536 / 64]uint64
	foreignReturns atomic.Uint64
	// stubRet holds stub<<16 | return site for each call of a harness
	// stub liveness knows; stubAnyRet marks the stubs that may return to
	// any return site (live.go).
	stubRet    map[uint32]bool
	stubAnyRet [loader.NumStubs]bool

	// What SWI and the illegal opcodes do (traps.go): whether an illegal
	// opcode traps and the execution goes on, and whether the image
	// programs the SWI vector.
	trapIllegal bool
	swiOK       bool

	held heldState // the inputs held constant that the firmware read (held.go)

	// waitPCs marks the PCs at which the firmware was found waiting
	// (wait.go: the states --sci-timing idle let a byte arrive at).
	waitPCs [65536 / 64]atomic.Uint64
	// received counts the bytes that arrived on the SCI in the searches
	// of m, and rxDeepest is the most that arrived along one execution
	// when a bound counts them (Received).
	received  atomic.Uint64
	rxDeepest atomic.Uint32
	// countRead is, under the abstract clock, the first read of a
	// register that shows the timer's count (CountRead): 1<<31, the
	// register's offset << 16 and the PC of the instruction; 0 for none.
	countRead atomic.Uint32

	privateState // stack privacy (private.go)

	// faults are the switches of package mutation that the instruction
	// path would otherwise load, read once by NewMachine.
	faults faults

	// counted is the machine that counts the exact clock's timer counters
	// (Counted), made once when first asked for.
	counted struct {
		once sync.Once
		m    *Machine
	}
}

// faults are the faults of package mutation switched on when the machine
// was made, which the instruction path asks for: dead-stack masking's
// (deadstack.go), batches' (batch.go) and the device memo's (devices.go). A test sets the switch before it
// makes the machine.
type faults struct {
	unseenFetch bool // mutation.UnseenFetch
	unseenOther bool // mutation.UnseenOther
	clearWrite  bool // mutation.ClearWrite
	batchIRQ    bool // mutation.BatchIRQ
	memoStale   bool // mutation.MemoStale
}

// setFaults reads the switches of the faults on the instruction path.
func (m *Machine) setFaults() {
	m.faults = faults{
		unseenFetch: mutation.On(mutation.UnseenFetch),
		unseenOther: mutation.On(mutation.UnseenOther),
		clearWrite:  mutation.On(mutation.ClearWrite),
		batchIRQ:    mutation.On(mutation.BatchIRQ),
		memoStale:   mutation.On(mutation.MemoStale),
	}
}

// NewMachine prepares an image for simulation.
func NewMachine(img *loader.Image, cfg Config) (*Machine, error) {
	m := &Machine{Image: img, Config: cfg, inputIdx: map[uint16]int{}, layout: &layout{code: new([65536]centry)}}
	if m.Config.MaxRun <= 0 {
		m.Config.MaxRun = 100000
	}
	mem := img.Memory()
	for _, r := range img.Map.Regions {
		a := uint16(attrROM)
		if r.Kind == loader.RegionRAM || r.Kind == loader.RegionIO {
			a = uint16(attrRAM)
		}
		for x := int(r.Lo); x <= int(r.Hi); x++ {
			m.attr[x] = uint8(a)
		}
	}
	if err := m.setDevice(img, cfg); err != nil {
		return nil, err
	}
	m.rom = *mem
	for i := range m.pageOf {
		m.pageOf[i] = -1
		for x := i * PageSize; x < (i+1)*PageSize; x++ {
			if m.attr[x] == attrRAM || m.attr[x] == attrIO {
				m.pageOf[i] = int16(m.npages)
				p := &Page{}
				copy(p.Data[:], mem[i*PageSize:(i+1)*PageSize])
				m.init = append(m.init, p)
				m.npages++
				break
			}
		}
	}
	if m.dev != nil {
		m.resetDevice()
	}
	addrs := make([]uint16, 0, len(cfg.Inputs))
	for a := range cfg.Inputs {
		addrs = append(addrs, a)
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	for _, a := range addrs {
		vals := cfg.Inputs[a]
		if len(vals) == 0 {
			vals = make([]uint8, 256)
			for i := range vals {
				vals[i] = uint8(i)
			}
		}
		if m.attr[a] == attrIO {
			return nil, fmt.Errorf("--input 0x%04X is a register of the chip: the peripherals give its inputs", a)
		}
		if m.attr[a] != attrRAM {
			return nil, fmt.Errorf("--input 0x%04X is not in writable memory (RAM or I/O registers); add it with --ram", a)
		}
		m.attr[a] = attrInput
		m.inputIdx[a] = len(m.inputs)
		m.inputs = append(m.inputs, vals)
	}
	m.setHeld(img)
	for _, name := range cfg.IRQs {
		v, ok := isa.VectorIndex(name)
		if !ok || !isIRQ(v) {
			return nil, fmt.Errorf("unknown interrupt %q for --irq: use one of %s", name, strings.Join(IRQNames(), ", "))
		}
		if !img.VectorLoaded[v] {
			return nil, fmt.Errorf("--irq %s: the image loads no vector at 0x%04X", name, isa.VectorAddr(v))
		}
		m.irqs = append(m.irqs, v)
	}
	if err := m.setTiming(cfg.Timing); err != nil {
		return nil, err
	}
	m.env = newEnv(m)
	m.setFaults()
	m.stacks = cfg.Stacks
	m.setTraps()
	m.hasGoals = len(cfg.Reach) > 0
	for _, g := range cfg.Reach {
		m.goal[g/64] |= 1 << (g % 64)
	}
	for a := 0; a < 65536; a++ {
		if m.attr[a] != attrROM {
			continue
		}
		m.code[a] = m.decodeAt(a)
	}
	if m.dev != nil {
		m.lays[devices.ResetINIT].Store(m.layout)
	}
	for h := loader.NoStub + 1; h < loader.NumStubs; h++ {
		if a, ok := img.StubAddr(h); ok {
			m.HookAddr[h] = a
			m.HasHook[h] = true
			m.code[a].hook = h
		}
	}
	if cfg.Dead {
		m.computeLiveness()
	}
	m.floor = m.stackFloors()
	m.relied = make([]atomic.Uint32, 65536)
	return m, nil
}

// decodeAt returns the code-cache entry of the read-only bytes at a in
// the reset layout (no harness routine).
func (m *Machine) decodeAt(a int) centry {
	in, err := isa.Decode(m.rom[a:min(a+5, 65536)])
	if err != nil {
		return centry{}
	}
	ok := true
	for i := 1; i < int(in.Len); i++ {
		ok = ok && a+i < 65536 && m.attr[a+i] == attrROM
	}
	base := uint8(0)
	switch in.Effects().AddrRegs {
	case isa.RegY:
		base = 2
	case isa.RegX:
		base = 1
	}
	return centry{in: in, ok: ok, base: base}
}

// centry is one entry of the decoded-code cache.
type centry struct {
	in   isa.Inst
	ok   bool        // in is valid: the instruction's bytes are all read-only
	hook loader.Stub // the harness routine whose stub starts here
	base uint8       // the index register of in's effective address: 0 none, 1 X, 2 Y
}

// isGoal reports whether pc is a --reach goal.
func (m *Machine) isGoal(pc uint16) bool { return m.goal[pc/64]&(1<<(pc%64)) != 0 }

// HasHarness reports whether the image defines any harness stub.
func (m *Machine) HasHarness() bool {
	for _, h := range m.HasHook[1:] {
		if h {
			return true
		}
	}
	return false
}

// IRQName returns the name of a vector index (isa.VectorName), or
// "vectorN" for a reserved one.
func IRQName(v int) string {
	if n := isa.VectorName(v); n != "" {
		return n
	}
	return fmt.Sprintf("vector%d", v)
}

// Initial returns the state at power-up: thread 0 at the entry with the
// registers the reset leaves (S, X and I set; A, B, X, Y, SP zero — the
// manual leaves them undefined, and the checker needs a fixed value),
// memory as the image loads it and zero elsewhere.
func (m *Machine) Initial() *State {
	s := &State{}
	s.Pages = append([]*Page(nil), m.init...)
	s.Threads = []Thread{{CPU: CPU{PC: m.Config.Entry, CCR: isa.FlagS | isa.FlagX | isa.FlagI}}}
	m.timingStart(s)
	return s
}

// ReadMem reads a byte of s without side effects, for display and for the
// heuristics: unmapped addresses read as 0, input registers as the last
// value written.
func (m *Machine) ReadMem(s *State, a uint16) uint8 {
	lay := m.layoutOf(s)
	switch lay.attr[a] {
	case attrRAM, attrInput, attrIO, attrHeld:
		return s.Pages[lay.pageOf[a/PageSize]].Data[a%PageSize]
	case attrROM:
		return m.rom[a]
	case attrBoard:
		if r := m.boardAt(a); r != nil && len(r.Values) > 0 {
			return r.Values[0]
		}
	}
	return 0
}

// Returns appends to dst the return addresses on thread t's runtime stack,
// innermost first, read through its shadow stack.
func (m *Machine) Returns(s *State, t int, dst []uint16) []uint16 {
	th := &s.Threads[t]
	for i := int(th.NShadow) - 1; i >= 0; i-- {
		slot := th.Shadow[i]
		dst = append(dst, uint16(m.ReadMem(s, slot))<<8|uint16(m.ReadMem(s, slot+1)))
	}
	return dst
}

// Writable reports whether a is in RAM or the I/O registers.
func (m *Machine) Writable(a uint16) bool {
	return m.attr[a] == attrRAM || m.attr[a] == attrInput || m.attr[a] == attrIO || m.attr[a] == attrHeld
}

// VectorIndex returns the vector index of an interrupt name --irq accepts.
func VectorIndex(name string) (int, bool) {
	v, ok := isa.VectorIndex(name)
	return v, ok && isIRQ(v)
}
