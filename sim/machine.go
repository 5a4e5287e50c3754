package sim

import (
	"fmt"
	"sort"
	"strings"
	"sync/atomic"

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
}

// Memory attributes per address.
const (
	attrUnmapped uint8 = iota
	attrRAM            // writable, in a page
	attrROM            // read-only: stores are rom-write violations
	attrInput          // writable, but reads choose among the --input values
)

// Machine is what does not change while the firmware runs: the memory map,
// the read-only bytes, the harness addresses, the interrupts. Machines are
// shared by every state of a search and are safe for concurrent use.
type Machine struct {
	Image  *loader.Image
	Config Config

	attr   [65536]uint8
	rom    [65536]byte
	pageOf [65536 / PageSize]int16 // writable page index per page-sized block, -1 if none
	npages int
	init   []*Page

	// code caches, for every address, the harness routine whose stub is
	// there and the decoded instruction when its bytes are all read-only.
	code     [65536]centry
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
}

// NewMachine prepares an image for simulation.
func NewMachine(img *loader.Image, cfg Config) (*Machine, error) {
	m := &Machine{Image: img, Config: cfg, inputIdx: map[uint16]int{}}
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
	m.rom = *mem
	for i := range m.pageOf {
		m.pageOf[i] = -1
		for x := i * PageSize; x < (i+1)*PageSize; x++ {
			if m.attr[x] == attrRAM {
				m.pageOf[i] = int16(m.npages)
				p := &Page{}
				copy(p.Data[:], mem[i*PageSize:(i+1)*PageSize])
				m.init = append(m.init, p)
				m.npages++
				break
			}
		}
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
		if m.attr[a] != attrRAM {
			return nil, fmt.Errorf("--input 0x%04X is not in writable memory (RAM or I/O registers); add it with --ram", a)
		}
		m.attr[a] = attrInput
		m.inputIdx[a] = len(m.inputs)
		m.inputs = append(m.inputs, vals)
	}
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
	m.stacks = cfg.Stacks
	m.hasGoals = len(cfg.Reach) > 0
	for _, g := range cfg.Reach {
		m.goal[g/64] |= 1 << (g % 64)
	}
	for a := 0; a < 65536; a++ {
		if m.attr[a] != attrROM {
			continue
		}
		in, err := isa.Decode(m.rom[a:min(a+5, 65536)])
		if err != nil {
			continue
		}
		ok := true
		for i := 1; i < int(in.Len); i++ {
			ok = ok && a+i < 65536 && m.attr[a+i] == attrROM
		}
		base := uint8(0)
		switch {
		case in.Mode.UsesY():
			base = 2
		case in.Mode.Indexed():
			base = 1
		}
		m.code[a].in, m.code[a].ok, m.code[a].base = in, ok, base
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
	return m, nil
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
	return s
}

// ReadMem reads a byte of s without side effects, for display and for the
// heuristics: unmapped addresses read as 0, input registers as the last
// value written.
func (m *Machine) ReadMem(s *State, a uint16) uint8 {
	switch m.attr[a] {
	case attrRAM, attrInput:
		return s.Pages[m.pageOf[a/PageSize]].Data[a%PageSize]
	case attrROM:
		return m.rom[a]
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
func (m *Machine) Writable(a uint16) bool { return m.attr[a] == attrRAM || m.attr[a] == attrInput }

// VectorIndex returns the vector index of an interrupt name --irq accepts.
func VectorIndex(name string) (int, bool) {
	v, ok := isa.VectorIndex(name)
	return v, ok && isIRQ(v)
}
