package randprog

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// Generate draws programs from a grammar, for differential tests that
// compare every way of checking a program with the plain breadth-first
// search. Program, above, has one fixed shape; Generate's productions
// reach the places where a reduction's argument has conditions that a
// fixed shape never meets:
//
//   - threads created with __mc_thread_create, their stacks laid out in
//     varied ways (even, tight, random), the regions bounded by data
//     symbols, by equates (which bound nothing), or by nothing; threads
//     that end by RTS at their stack's top, by __mc_thread_exit (called,
//     or fallen into), by looping, or by spinning on registers alone;
//   - critical sections, locks, atomic sections, flags one thread sets
//     and another waits for (a thread that sets one inside a critical
//     section and ends there: what its end changes for the others),
//     asserts on shared data, nondeterministic values kept in a register
//     across a harness call;
//   - harness stubs entered otherwise than by a call from ROM: by falling
//     into the stub's address, by JMP and by computed JMP and JSR, by JSR
//     from code in RAM;
//   - code in RAM (copied there, or loaded there by the image, then
//     patched: self-modifying) and code built on the stack by pushes,
//     then called or jumped to; tables in ROM read through SP
//     (lds #table-1; pula); 16-bit accesses straddling the top of a stack
//     region or the end of RAM; stack bytes read below SP, by their
//     thread, by another thread by absolute address, by an interrupt
//     handler on a stack of its own, and by an instruction fetch;
//   - an interrupt handler (--irq toc1) that touches stacks by absolute
//     address, and windows where a thread lets it in;
//   - with the chip's peripherals (HarnessChip, Firmware): INIT written
//     in the first 64 cycles to move RAM over ROM (so that the bytes a
//     thread fetches are not the ones the image loaded there), the SCI
//     sending (with --expect-output) and receiving, port inputs, the
//     timer's output compare and its interrupt;
//   - with Options.More (productions drawn from a generator of their
//     own): a thread lent the bottom of another's stack as far as a drawn
//     value says (its top computed, so that no boundary separates the two
//     regions and what the owner's region reaches depends on the state),
//     the owner keeping a buffer in the rest and publishing it, before or
//     after it is done with it, to the lent thread, which spins beside a
//     passing assert before writing through it (lend-stack); a drawn byte
//     pushed and pulled, then read back by its address after a spin
//     beside a passing assert (pulled-late). Both learn a fact in one part
//     of a search that another part needs: a search cut between the two
//     parts and resumed must carry it.
//
// Sizes are small (one to three threads, bodies of a few statements,
// nesting two deep) so that most programs are searched exhaustively in
// milliseconds.

// Mode is the kind of program Generate makes.
type Mode uint8

// The kinds of program.
const (
	// Harness: harness stubs and threads; the register block is plain
	// memory (--peripherals auto leaves it off).
	Harness Mode = iota
	// HarnessChip: harness stubs and threads with the chip's peripherals
	// on (--peripherals on), so that INIT can move RAM and dead-data
	// elimination extends to pulled stack bytes.
	HarnessChip
	// Firmware: no harness stub, one thread and the chip's interrupts;
	// the chip's peripherals are the environment.
	Firmware
	numModes
)

var modeNames = [numModes]string{"harness", "harness+chip", "firmware"}

// String names the mode as the features and descriptions do.
func (m Mode) String() string {
	if m < numModes {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// Options shape what Generate draws.
type Options struct {
	// Modes are the kinds of program to draw from, each equally often;
	// empty: all of them, Harness most often.
	Modes []Mode
	// More, when not nil, draws the productions added after the first
	// ones (lend-stack, pulled-late: shapes whose facts the reductions
	// learn in one part of a search and use in another), from a
	// generator of their own: the programs drawn without them stay as
	// they were, so that tests that name programs by seed keep them.
	More *rand.Rand
}

// Prog is a generated program: a raw image and everything needed to check
// it, through package sim (Image, Config) or the command line (LoadFlags,
// CheckFlags).
type Prog struct {
	Mode  Mode
	Base  uint16 // the address Bytes load at (--format bin --base)
	Bytes []byte
	// Hooks are the harness stubs' addresses (--hook NAME=ADDR); none in
	// Firmware mode.
	Hooks map[string]uint16
	// Symbols are the data symbols and equates that bound (or, for
	// equates, do not bound) the stacks' regions: a --symbols file in the
	// format of m68hc11-nm (SymbolFile).
	Symbols []loader.Symbol
	IRQ     []string           // --irq
	Stacks  []sim.StackRange   // --stack
	Inputs  map[string][]uint8 // --input, by address (0x....) or register name
	// SCIInput and ExpectOutput are --sci-input and --expect-output
	// ("": none).
	SCIInput, ExpectOutput string
	// Features names the productions the program was made of.
	Features []string
	// Listing is the program as assembly, for a failing test's message.
	Listing string
}

// Generate draws a program (see above).
func Generate(r *rand.Rand, opts Options) *Prog {
	modes := opts.Modes
	if len(modes) == 0 {
		modes = []Mode{Harness, Harness, Harness, HarnessChip, Firmware, Firmware}
	}
	g := &gen{r: r, a: newAsm(), mode: modes[r.IntN(len(modes))], feats: map[string]bool{}, stubs: map[string]uint16{},
		inputs: map[string][]uint8{}, more: opts.More}
	g.build()
	return g.prog()
}

// The RAM layout, as offsets from the RAM's base (which INIT may move):
// shared variables, flags, locks, a published stack address, SP save
// slots, an --input byte, an area for code, then the stacks.
const (
	offVars  = 0x40 // four shared bytes
	offFlags = 0x44 // two flags
	offLocks = 0x46 // two lock bytes
	offPtr   = 0x48 // a published stack address (two bytes)
	offSave  = 0x4A // SP save slots: three threads, then the handler
	offInput = 0x52 // an --input byte
	offCode  = 0x58 // code copied to RAM, up to offStacks
	offStack = 0x80 // the stacks, up to 0x1FF
	ramEnd   = 0x1FF

	codeOrg   = 0xD200 // ROM code (below the RAM INIT may map at 0xE000)
	codeLimit = 0xE000
	imageBase = 0xD000
)

// Register offsets in the block (the E9's).
const (
	regPORTE = 0x0A
	regTCNT  = 0x0E
	regTOC1  = 0x16
	regTMSK1 = 0x22
	regTFLG1 = 0x23
	regSCCR2 = 0x2D
	regSCSR  = 0x2E
	regSCDR  = 0x2F
	regINIT  = 0x3D
	resetReg = 0x1000
)

// thread is one thread's plan.
type thread struct {
	id    int
	top   uint16          // its stack top (absolute)
	entry string          // its first instruction's label
	end   string          // how it ends: rts, exit, fall-exit, loop, spin
	pre   []func(c *tctx) // thread 0: before it creates the others
	head  []func(c *tctx) // the body's first statements
	tail  []func(c *tctx) // the body's last statements
	// low, when not 0, is a second stack top: the thread is created
	// with top when the byte at pick is not 0, with low otherwise, and
	// the top is computed, not loaded as a constant (lendStack).
	low, pick uint16
}

// tctx is where a statement is generated.
type tctx struct {
	th      *thread // nil in the interrupt handler
	depth   int
	inCS    bool
	inLock  bool
	atomic  bool
	window  bool // interrupts enabled
	handler bool
	// loops: the code runs again and again (a thread that loops, the
	// handler), so it counts nothing up, which would multiply the states
	// by 256.
	loops bool
}

type gen struct {
	r     *rand.Rand
	more  *rand.Rand // Options.More
	a     *asm
	mode  Mode
	feats map[string]bool

	ram     uint16 // the RAM's base once INIT has been written
	reg     uint16 // the register block's base once INIT has been written
	init    int    // the INIT value written first (-1: none)
	base0   bool   // the image starts at 0x0000 and loads RAM too
	threads []*thread
	irq     bool // a TOC1 handler (--irq toc1, or the chip's timer)
	illegal bool // an illegal-opcode vector is installed

	stubs   map[string]uint16
	later   []func() // routines placed after the threads
	ramCode uint16   // next free byte of the RAM code area (absolute)
	decoy   bool     // the RAM code area covers ROM: decoys under it
	labelN  int
	inputs  map[string][]uint8
	sciIn   string
	expect  string
	sent    []byte // bytes some path may send on the SCI
	syms    []loader.Symbol
	stacks  []sim.StackRange
	sciOn   bool
	sciLate bool // the receiver is turned on late (fwEventWindow)
	// handlerHead are the handler's first statements.
	handlerHead []func(c *tctx)
}

func (g *gen) feat(name string) { g.feats[name] = true }

func (g *gen) chance(n int) bool { return g.r.IntN(n) == 0 }

func (g *gen) newLabel(what string) string {
	g.labelN++
	return fmt.Sprintf("%s%d", what, g.labelN)
}

// The RAM's addresses.
func (g *gen) v(i int) uint16      { return g.ram + offVars + uint16(i) }
func (g *gen) flag(i int) uint16   { return g.ram + offFlags + uint16(i) }
func (g *gen) lock(i int) uint16   { return g.ram + offLocks + uint16(i) }
func (g *gen) ptr() uint16         { return g.ram + offPtr }
func (g *gen) save(i int) uint16   { return g.ram + offSave + 2*uint16(i) }
func (g *gen) regA(off int) uint16 { return g.reg + uint16(off) }
func (g *gen) harness() bool       { return g.mode != Firmware }
func (g *gen) chip() bool          { return g.mode != Harness }
func (g *gen) anyVar() uint16      { return g.v(g.r.IntN(4)) }

// stub returns the address of a harness stub (placeStubs placed them).
func (g *gen) stub(name string) uint16 {
	return g.stubs[name]
}

// jsrStub calls a harness stub.
func (g *gen) jsrStub(name string) { g.a.code(ext("jsr", g.stub(name))) }

// load and store a memory operand in one of the ways the 68HC11 can
// address it: direct, extended, or indexed from X or Y.
func (g *gen) memOp(mn string, a uint16) {
	switch g.r.IntN(5) {
	case 0:
		g.a.code(imm16("ldx", a), idx(mn, 0))
	case 1:
		if a >= 2 {
			g.a.code(imm16("ldy", a-2), idy(mn, 2))
			return
		}
		fallthrough
	default:
		g.a.code(mem(mn, a, g.r.IntN(2) == 0))
	}
}

var stubNames = []string{"__mc_assert", "__mc_error", "__mc_nondet", "__mc_assume", "__mc_thread_create",
	"__mc_thread_exit", "__mc_yield", "__mc_lock", "__mc_unlock", "__mc_cs_enter", "__mc_cs_exit",
	"__mc_atomic_begin", "__mc_atomic_end"}

// build makes the whole program.
func (g *gen) build() {
	g.feat("mode-" + g.mode.String())
	g.ram, g.reg, g.init = 0, resetReg, -1
	if g.chip() {
		// INIT: RAM over ROM at 0xD000 or 0xE000, the registers at
		// 0x0000 (over RAM's first bytes) or 0xF000, or rewritten as it
		// was; most programs leave it.
		choices := []int{-1, -1, 0x01, 0xD1, 0xD1, 0xE1, 0x00, 0x0F}
		if g.mode == HarnessChip {
			choices = []int{-1, 0xD1, 0xD1, 0x01}
		}
		g.init = choices[g.r.IntN(len(choices))]
		if g.init >= 0 {
			g.ram, g.reg = uint16(g.init>>4)*0x1000, uint16(g.init&15)*0x1000
			g.feat(fmt.Sprintf("init-%02x", g.init))
		}
	}
	g.decoy = g.ram >= imageBase
	g.base0 = g.mode == Harness && g.chance(5)
	if g.base0 {
		g.feat("image-loads-ram")
	}
	g.ramCode = g.ram + offCode
	g.layStacks()
	g.a.org(codeOrg)
	if g.harness() {
		g.placeStubs()
	}
	g.irq = g.mode == Harness && g.chance(5) || g.mode == Firmware && g.chance(3)
	if g.mode == Firmware {
		g.illegal = g.chance(3)
	}
	g.couple()
	for _, t := range g.threads {
		g.thread(t)
	}
	if g.irq {
		g.handler()
	}
	if g.illegal {
		g.a.label("illegal_trap")
		g.a.note("illegal-opcode vector: spin")
		g.a.code(rel("bra", -2))
		g.feat("illegal-vector")
	}
	for len(g.later) > 0 {
		f := g.later[0]
		g.later = g.later[1:]
		f()
	}
	if g.a.pc > codeLimit {
		panic(fmt.Sprintf("randprog: code runs to 0x%04X", g.a.pc))
	}
	// Vectors.
	g.a.org(0xFFFE)
	g.a.wordL("main")
	if g.irq {
		g.a.org(0xFFE8) // TOC1
		g.a.wordL("handler")
	}
	if g.illegal {
		g.a.org(0xFFF8)
		g.a.wordL("illegal_trap")
	}
	if g.decoy {
		g.decoys()
	}
	g.a.resolve()
}

// layStacks chooses the threads, their stack tops, the symbols around
// them and the --stack range.
func (g *gen) layStacks() {
	n := 1
	if g.harness() {
		n = []int{1, 2, 2, 2, 3}[g.r.IntN(5)]
	}
	tops := make([]uint16, n)
	// Thread 0's top is most often a little below the end of RAM, so that
	// a 16-bit access at its top straddles into RAM only sometimes.
	end := uint16(ramEnd - 2*g.r.IntN(3))
	switch layout := g.r.IntN(3); layout {
	case 0:
		g.feat("stacks-even")
		for i := range tops {
			tops[i] = end - 0x80*uint16(i)
		}
	case 1:
		g.feat("stacks-tight")
		for i := range tops {
			tops[i] = end - 0x10*uint16(i)
		}
	default:
		g.feat("stacks-random")
		top := uint16(ramEnd - g.r.IntN(8))
		for i := range tops {
			tops[i] = top
			top -= uint16(12 + g.r.IntN(80))
		}
	}
	for i := range tops {
		g.threads = append(g.threads, &thread{id: i, top: g.ram + tops[i], entry: fmt.Sprintf("thread%d", i)})
	}
	g.threads[0].entry = "main"
	// Symbols: data symbols at the bottoms of the regions, inside them,
	// equates anywhere (they bound nothing), or none.
	sym := func(name string, a uint16, abs bool) {
		s := loader.Symbol{Name: name, Addr: a, Kind: loader.SymObject, Global: true}
		if abs {
			s.Kind, s.Abs = loader.SymNone, true
		}
		g.syms = append(g.syms, s)
	}
	switch g.r.IntN(5) {
	case 0:
		g.feat("symbols-region-bottoms")
		for i := range g.threads {
			lo := g.ram + offStack
			if i+1 < len(g.threads) {
				lo = g.threads[i+1].top + 1
			}
			sym(fmt.Sprintf("stack%d", i), lo, false)
		}
	case 1:
		g.feat("symbols-inside-regions")
		for i, t := range g.threads {
			sym(fmt.Sprintf("frame%d", i), t.top-uint16(g.r.IntN(6)), false)
		}
	case 2:
		g.feat("symbols-equates")
		for i := range 1 + g.r.IntN(3) {
			a := g.ram + offStack + uint16(g.r.IntN(ramEnd-offStack+1))
			sym(fmt.Sprintf("equ%d", i), a, true)
		}
	case 3:
		g.feat("symbols-data")
		sym("shared", g.v(0), false)
		sym("locks", g.lock(0), false)
	}
	if g.chance(3) {
		g.feat("stack-range")
		g.stacks = []sim.StackRange{{Thread: -1, Lo: g.ram + offStack, Hi: g.ram + ramEnd}}
	}
}

// placeStubs places the harness stubs' RTS bytes; some later get a
// routine placed right before them that falls into them.
func (g *gen) placeStubs() {
	g.a.org(0xDF00)
	order := slices.Clone(stubNames)
	g.r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, n := range order {
		if g.chance(3) {
			// Room for a routine that falls into it.
			g.a.pc += 8
		}
		g.stubs[n] = g.a.pc
		g.a.note("%s", n)
		g.a.code(inh("rts"))
	}
	g.a.org(codeOrg)
}

// fallInto returns a routine that ends by falling into the stub's
// address (its last instruction is the byte before the stub), placed in
// the room placeStubs left, or "" when there is none.
func (g *gen) fallInto(name string, body []byte) string {
	at := g.stubs[name]
	lo := int(at) - len(body)
	for p := lo; p < int(at); p++ {
		if g.a.used[p] {
			return ""
		}
	}
	l := g.newLabel("falls_into_" + strings.TrimPrefix(name, "__mc_") + "_")
	save := g.a.pc
	g.a.org(uint16(lo))
	g.a.label(l)
	g.a.code(body)
	g.a.org(save)
	return l
}

// couple chooses the patterns that span threads, and the threads' ends.
func (g *gen) couple() {
	ends := []string{"rts", "rts", "exit", "fall-exit", "loop", "spin", "spin-regs"}
	if !g.harness() {
		ends = []string{"loop", "spin", "spin-regs", "wai"}
	}
	for _, t := range g.threads {
		t.end = ends[g.r.IntN(len(ends))]
	}
	main := g.threads[0]
	switch {
	case len(g.threads) >= 2 && g.chance(3):
		g.handoffCS()
	case g.mode == HarnessChip && len(g.threads) >= 2 && g.chance(2):
		g.handoffPulled()
	}
	if g.harness() && len(g.threads) >= 2 && g.chance(3) {
		g.publishRace()
	}
	if g.more != nil {
		switch {
		case g.harness() && len(g.threads) >= 2 && g.more.IntN(3) == 0:
			g.lendStack()
		case g.mode == HarnessChip && g.more.IntN(2) == 0:
			g.pulledLate()
		}
	}
	if g.decoy && g.chance(2) {
		g.remapRAMCode()
	}
	if g.mode == Firmware {
		switch g.r.IntN(5) {
		case 0:
			// The receiver is turned on there, not before; the window
			// is open once.
			g.sciLate = true
			if main.end == "loop" {
				main.end = "spin"
			}
			main.tail = append(main.tail, g.fwEventWindow)
		case 1:
			if g.irq {
				main.tail = append(main.tail, g.fwHandlerReadsBelow)
			}
		case 2:
			main.tail = append(main.tail, g.fwFetchBelow)
		}
	}
}

// handoffCS: a producer sets a flag inside a critical section it may not
// leave before it ends; a consumer waits for the flag, then enters one.
func (g *gen) handoffCS() {
	g.feat("handoff-cs")
	p, q := g.pickTwo()
	f := g.flag(g.r.IntN(2))
	leave := g.chance(3)
	if p.end != "rts" && p.end != "exit" && p.end != "fall-exit" {
		p.end = []string{"rts", "exit"}[g.r.IntN(2)]
	}
	p.tail = append(p.tail, func(c *tctx) {
		g.a.note("handoff: enter a critical section, set the flag%s", map[bool]string{true: ", leave", false: ", end inside it"}[leave])
		g.jsrStub("__mc_cs_enter")
		g.a.code(imm8("ldaa", 1), mem("staa", f, true))
		if leave {
			g.jsrStub("__mc_cs_exit")
		}
	})
	q.head = append(q.head, func(c *tctx) {
		g.a.note("handoff: wait for the flag, then a critical section")
		g.waitFlag(f)
		g.jsrStub("__mc_cs_enter")
		d := *c
		d.inCS, d.depth = true, 2 // one statement, not nesting
		g.stmt(&d)
		g.jsrStub("__mc_cs_exit")
	})
}

// publishRace: one thread publishes the address of a local and reads the
// local back (its own stack, private while no one else touches it);
// another writes through the published address.
func (g *gen) publishRace() {
	g.feat("publish-race")
	p, q := g.pickTwo()
	p.head = append(p.head, func(c *tctx) {
		g.a.note("publish a local, read it back")
		g.a.code(imm8("ldaa", 1), inh("psha"), inh("tsx"), ext("stx", g.ptr()))
		if g.chance(2) {
			g.regInstr(c)
		}
		g.a.code(idx("ldaa", 0))
		if g.chance(2) {
			g.jsrStub("__mc_assert")
		} else {
			g.a.code(imm8("cmpa", 1))
			g.bad(c, "beq")
		}
		g.a.code(inh("pula"), imm16("ldx", 0), ext("stx", g.ptr()))
	})
	q.head = append(q.head, func(c *tctx) {
		g.a.note("write through the published address")
		g.through(c)
	})
}

// lendStack: thread 0 lends the bottom of its stack to thread 1, as much
// as a drawn configuration says: thread 1's top is one of two, computed
// rather than loaded as a constant, so that what separates the two
// threads' regions is thread 1's top, which differs from state to state.
// Thread 0 then, first thing, either keeps a buffer in the part it did
// not lend (below the higher top, above the lower), writes it and checks
// it, publishing its address before (a race) or after (none), or, in the
// other configuration, publishes a local higher up. Thread 1 spins a
// while beside a passing assert, reading shared memory (so that each
// round is a scheduling point), then writes through the published
// address: an intrusion into thread 0's stack in one configuration
// teaches a bound that holds in the other too (sim/private.go).
func (g *gen) lendStack() {
	g.feat("lend-stack")
	main, w := g.threads[0], g.threads[1]
	t0 := main.top
	w.top = t0 - 24 - uint16(g.more.IntN(8))
	w.low = w.top - 12 - uint16(g.more.IntN(8))
	w.pick = g.v(3)
	// Most often thread 0 keeps the buffer where thread 1 has the lower
	// top; otherwise where thread 1 has the higher one (inside its
	// region: an intrusion of thread 0's own).
	inLent := g.more.IntN(4) == 0
	buf := w.low + 1 + uint16(g.more.IntN(int(w.top-w.low)))
	k := 6 + g.more.IntN(4) // the local higher up: t0-k+1
	race := g.more.IntN(3) != 0
	main.pre = append(main.pre, func(c *tctx) {
		g.a.note("lend-stack: draw the configuration")
		g.a.code(imm16("ldd", 1))
		g.jsrStub("__mc_nondet")
		g.a.code(ext("stab", w.pick))
	})
	main.head = append([]func(c *tctx){func(c *tctx) {
		other := g.newLabel("lend_other")
		done := g.newLabel("lend_done")
		g.a.note("lend-stack: a buffer at 0x%04x or a local at 0x%04x, published", buf, t0-uint16(k)+1)
		g.a.code(ext("tst", w.pick))
		if inLent {
			g.a.branch("beq", other)
		} else {
			g.a.branch("bne", other)
		}
		// The buffer: SP = buf-1, from SP = t0 (nothing pushed yet).
		g.a.code(inh("tsx"), inh("xgdx"), imm16("subd", t0+1-buf), inh("xgdx"), inh("txs"), inh("tsx"))
		if race {
			g.a.code(ext("stx", g.ptr()))
		}
		g.a.code(imm8("ldaa", 0x5A), idx("staa", 0), idx("ldab", 0), inh("cba"))
		g.bad(c, "beq")
		if !race {
			g.a.code(inh("tsx"), ext("stx", g.ptr()))
		}
		g.a.code(inh("tsx"), inh("xgdx"), imm16("addd", t0-buf), inh("xgdx"), inh("txs"))
		g.a.branch("bra", done)
		g.a.label(other)
		for range k {
			g.a.code(inh("des"))
		}
		g.a.code(inh("tsx"), ext("stx", g.ptr()))
		for range k {
			g.a.code(inh("ins"))
		}
		g.a.label(done)
	}}, main.head...)
	w.head = append(w.head, func(c *tctx) {
		g.a.note("lend-stack: spin beside a passing assert, then write through the published address")
		g.spinAssert(c)
		wait := g.newLabel("lend_wait")
		g.a.label(wait)
		g.a.code(ext("ldx", g.ptr()))
		g.a.branch("beq", wait)
		g.a.code(imm8("ldaa", 1), idx("staa", 0))
	})
}

// spinAssert: a thread spins a few rounds, each reading a shared byte (a
// scheduling point), and asserts what holds (its round counter ran out).
func (g *gen) spinAssert(c *tctx) {
	g.feat("spin-assert")
	g.spin()
	if g.harness() {
		g.a.code(inh("tba"), inh("inca"))
		g.jsrStub("__mc_assert")
	}
}

// pulledLate: thread 0 pushes a drawn byte and pulls it (it stays below
// SP, where dead-stack masking leaves it out of states: the states of the
// drawn values are one), spins a while beside a passing assert, then
// reads the byte back by its address: a read that tells the merged states
// apart, long after the merge (a search cut between the two must carry
// the masking's low mark to see it).
func (g *gen) pulledLate() {
	g.feat("pulled-late")
	main := g.threads[0]
	main.tail = append(main.tail, func(c *tctx) {
		g.a.note("pulled-late: spin beside a passing assert, push a drawn byte and pull it, spin, read it back by its address")
		g.spinAssert(c)
		g.a.code(imm16("ldd", 1))
		g.jsrStub("__mc_nondet")
		g.a.code(inh("pshb"), inh("pulb"), inh("clrb"))
		// No call in between: it would push its return address over the
		// byte.
		g.spin()
		// The statements before leave SP at the top (as handoffPulled
		// assumes): the byte is there.
		g.a.code(ext("ldaa", main.top))
		g.bad(c, "beq")
	})
}

// spin: a few rounds, each reading a shared byte (a scheduling point),
// counted in B, which ends at 0.
func (g *gen) spin() {
	l := g.newLabel("spin_round")
	g.a.code(imm8("ldab", uint8(4+g.more.IntN(12))))
	g.a.label(l)
	g.a.code(ext("tst", g.v(g.more.IntN(4))), inh("decb"))
	g.a.branch("bne", l)
}

// handoffPulled: a producer pushes a nondeterministic byte and pulls it
// (it stays below SP), sets a flag; a consumer waits for it and reads the
// byte by its address.
func (g *gen) handoffPulled() {
	g.feat("handoff-pulled")
	p, q := g.threads[0], g.threads[1]
	f := g.flag(g.r.IntN(2))
	p.tail = append(p.tail, func(c *tctx) {
		g.a.note("push a drawn byte and pull it, then set the flag")
		g.a.code(imm16("ldd", 1))
		g.jsrStub("__mc_nondet")
		g.a.code(inh("pshb"), inh("pulb"), inh("clrb"), imm8("ldaa", 1), mem("staa", f, true))
	})
	q.head = append(q.head, func(c *tctx) {
		g.a.note("wait for the flag, read the pulled byte at the producer's top")
		g.waitFlag(f)
		g.a.code(ext("ldaa", p.top))
		g.bad(c, "beq")
	})
}

// remapRAMCode: with RAM moved over ROM, a routine copied to RAM runs
// where the image has other instructions (register-only decoys). It is
// entered by JMP and left by JMP, both register-only.
func (g *gen) remapRAMCode() {
	g.feat("ram-over-rom-code")
	main := g.threads[0]
	f := g.flag(0)
	body := cat(imm8("ldaa", 1), mem("staa", f, false))
	if g.chance(2) {
		body = cat(mem("inc", f, false), inh("nop"))
	}
	back := g.newLabel("from_ram")
	routine := cat(body, ext("jmp", 0))
	at := g.allocRAM(len(routine))
	if at == 0 {
		return
	}
	main.pre = append(main.pre, func(c *tctx) {
		g.copyToRAM(at, routine, back)
	})
	call := func(c *tctx) {
		g.a.note("run the routine in RAM (over the image's decoys)")
		g.a.code(ext("jmp", at))
		g.a.label(back)
	}
	if len(g.threads) >= 2 {
		// Thread 1 runs it first thing; thread 0 asserts, first thing
		// after creating it, that it has run (which it need not have).
		t := g.threads[1]
		t.head = append([]func(c *tctx){call}, t.head...)
		main.head = append([]func(c *tctx){func(c *tctx) {
			g.a.code(mem("ldaa", f, false))
			g.jsrStub("__mc_assert")
		}}, main.head...)
		return
	}
	main.tail = append(main.tail, call)
}

func (g *gen) pickTwo() (*thread, *thread) {
	i := g.r.IntN(len(g.threads))
	j := (i + 1 + g.r.IntN(len(g.threads)-1)) % len(g.threads)
	return g.threads[i], g.threads[j]
}

// waitFlag spins until the byte at f is not zero.
func (g *gen) waitFlag(f uint16) {
	l := g.newLabel("wait")
	g.a.label(l)
	if g.chance(2) {
		g.a.code(mem("ldaa", f, true))
	} else {
		g.a.code(ext("tst", f))
	}
	g.a.branch("beq", l)
}

// allocRAM reserves n bytes of the RAM code area (0: no room).
func (g *gen) allocRAM(n int) uint16 {
	if int(g.ramCode)+n > int(g.ram)+offStack {
		return 0
	}
	at := g.ramCode
	g.ramCode += uint16(n)
	return at
}

// copyToRAM places code that writes b at the RAM address at: a store per
// byte, or a loop over a table in ROM. When back is not "", b ends with a
// JMP whose target is the label back.
func (g *gen) copyToRAM(at uint16, b []byte, back string) {
	n := len(b)
	patch := func(p uint16) { // the JMP's operand at p
		if back != "" {
			g.a.fixups = append(g.a.fixups, fixup{at: p + uint16(n) - 2, label: back, kind: fixAbs16})
		}
	}
	if g.base0 && at < 0x200 && g.chance(2) {
		// The image loads it there already.
		copy(g.a.mem[at:], b)
		patch(at)
		g.a.note("code at 0x%04x loaded by the image", at)
		return
	}
	if g.chance(2) || n < 3 {
		g.a.note("copy %d bytes of code to 0x%04x", n, at)
		for i, c := range b {
			switch {
			case back != "" && i == n-2:
				g.a.imm8L("ldaa", back, true)
			case back != "" && i == n-1:
				g.a.imm8L("ldaa", back, false)
			default:
				g.a.code(imm8("ldaa", c))
			}
			g.a.code(ext("staa", at+uint16(i)))
		}
		return
	}
	src := g.newLabel("code_src")
	loop := g.newLabel("copy")
	g.a.note("copy %d bytes of code to 0x%04x", n, at)
	g.a.immL("ldx", src)
	g.a.code(imm16("ldy", at))
	g.a.label(loop)
	g.a.code(idx("ldaa", 0), idy("staa", 0), inh("inx"), enc("iny", isa.Inh, 0, 0, 0), enc("cpy", isa.Imm16, at+uint16(n), 0, 0))
	g.a.branch("bne", loop)
	g.later = append(g.later, func() {
		g.a.label(src)
		patch(g.a.pc)
		g.a.data(b...)
	})
}

// decoys fills the ROM under the RAM code area with NOPs: the image's
// code there is register-only, whatever RAM holds when it runs.
func (g *gen) decoys() {
	for a := g.ram + offCode; a < g.ram+offStack; a++ {
		if !g.a.used[a] {
			g.a.mem[a], g.a.used[a] = 0x01, true
		}
	}
	g.a.spans = append(g.a.spans, span{at: g.ram + offCode, n: offStack - offCode, code: true})
	g.a.notes[g.ram+offCode] = "decoys: ROM under the RAM that INIT moves here"
}

// thread generates a thread's code.
func (g *gen) thread(t *thread) {
	g.a.label(t.entry)
	c := &tctx{th: t, loops: t.end == "loop"}
	if t.id == 0 {
		// The stack top first (SP is 0 after reset, outside any --stack
		// range), then INIT, in the first 64 cycles.
		g.a.code(imm16("lds", t.top))
		if g.init >= 0 {
			g.a.note("INIT = 0x%02x: RAM at 0x%04x, registers at 0x%04x", g.init, g.ram, g.reg)
			g.a.code(imm8("ldaa", uint8(g.init)), ext("staa", resetReg+regINIT))
		}
		g.prologue()
		for _, h := range t.pre {
			h(c)
		}
		for _, u := range g.threads[1:] {
			if u.low != 0 {
				// No LDX #: a constant loaded as a stack top bounds the
				// regions above it in every state.
				g.a.note("create thread %d, stack top 0x%04x or 0x%04x as drawn", u.id, u.top, u.low)
				high := g.newLabel("top")
				g.a.code(imm16("ldd", u.top), ext("tst", u.pick))
				g.a.branch("bne", high)
				g.a.code(imm16("ldd", u.low))
				g.a.label(high)
				g.a.code(inh("xgdx"))
				g.a.immL("ldd", u.entry)
				g.a.code(imm16("ldy", uint16(g.r.IntN(3))))
				g.jsrStub("__mc_thread_create")
				continue
			}
			g.a.note("create thread %d, stack top 0x%04x", u.id, u.top)
			g.a.immL("ldd", u.entry)
			g.a.code(imm16("ldx", u.top), imm16("ldy", uint16(g.r.IntN(3))))
			g.jsrStub("__mc_thread_create")
		}
	}
	start := g.newLabel("body")
	g.a.label(start)
	if c.loops {
		g.a.note("each round starts from the same registers")
		g.a.code(inh("clra"), inh("clrb"))
	}
	for _, h := range t.head {
		h(c)
	}
	if g.irq && g.mode == Harness && g.chance(2) {
		g.feat("irq-window")
		g.irqWindow(c)
	}
	for range 1 + g.r.IntN(3) {
		g.stmt(c)
	}
	for _, h := range t.tail {
		h(c)
	}
	g.feat("end-" + t.end)
	switch t.end {
	case "rts":
		g.a.note("return from the entry routine: the thread ends")
		g.a.code(inh("rts"))
	case "exit":
		g.jsrStub("__mc_thread_exit")
	case "fall-exit":
		l := g.fallInto("__mc_thread_exit", inh("nop"))
		if l == "" {
			g.jsrStub("__mc_thread_exit")
			break
		}
		g.a.extL("jsr", l)
	case "loop":
		g.a.extL("jmp", start)
	case "spin":
		g.a.code(rel("bra", -2))
	case "spin-regs":
		// A loop of register-only instructions that leave the registers
		// as they were after the first round.
		l := g.newLabel("spin")
		g.a.label(l)
		g.a.code([][]byte{inh("tsta"), inh("nop"), inh("tab")}[g.r.IntN(3)])
		g.a.branch("bra", l)
	case "wai":
		l := g.newLabel("wait")
		g.a.label(l)
		g.a.code(inh("wai"))
		g.a.branch("bra", l)
	}
}

// prologue sets up the chip's peripherals thread 0 uses, and the
// interrupt handler's source.
func (g *gen) prologue() {
	if g.mode != Firmware {
		return
	}
	if !g.sciLate && g.chance(2) {
		g.sciOn = true
		g.a.note("SCI: transmitter and receiver on")
		g.a.code(imm8("ldaa", 0x0C), ext("staa", g.regA(regSCCR2)))
		g.sciIn = []string{"a", "a,b", `\x01,\x4c`}[g.r.IntN(3)]
	}
	if g.irq {
		g.a.note("TOC1 interrupt on")
		g.a.code(imm8("ldaa", 0x80), ext("staa", g.regA(regTMSK1)))
		if g.chance(2) {
			g.a.code(inh("cli"))
		}
	}
	if g.chance(3) {
		g.inputs["PORTE"] = []uint8{0, 1}
	}
}

// handler generates the TOC1 interrupt handler.
func (g *gen) handler() {
	g.feat("irq-handler")
	g.a.label("handler")
	c := &tctx{handler: true, loops: true}
	for _, h := range g.handlerHead {
		h(c)
	}
	for range 1 + g.r.IntN(3) {
		g.stmt(c)
	}
	if g.mode == Firmware {
		g.a.code(imm8("ldaa", 0x80), ext("staa", g.regA(regTFLG1)))
	}
	g.a.code(inh("rti"))
}

// bad places a violation taken when the branch mn (on the flags the code
// before set) is not: __mc_error in harness programs; otherwise a write
// into ROM, a read of unmapped memory, an illegal opcode, or a byte sent
// on the SCI that --expect-output looks for.
func (g *gen) bad(c *tctx, mn string) {
	ok := g.newLabel("ok")
	g.a.branch(mn, ok)
	if g.harness() {
		g.jsrStub("__mc_error")
	} else {
		switch g.r.IntN(4) {
		case 0:
			g.a.code(ext("staa", 0xFFC0))
		case 1:
			g.a.code(ext("ldaa", 0x8000))
		case 2:
			if !g.illegal {
				g.a.data(0x41) // an undefined opcode
				break
			}
			fallthrough
		default:
			g.send('!', true)
		}
	}
	g.a.label(ok)
}

// send transmits byte b on the SCI (turning the transmitter on); expect
// makes it what --expect-output looks for.
func (g *gen) send(b byte, expect bool) {
	if !g.sciOn {
		g.sciOn = true
		g.a.code(imm8("ldaa", 0x08), ext("staa", g.regA(regSCCR2)))
	}
	l := g.newLabel("tdre")
	g.a.label(l)
	g.a.code(ext("ldab", g.regA(regSCSR)), imm8("andb", 0x80))
	g.a.branch("beq", l)
	g.a.code(imm8("ldaa", b), ext("staa", g.regA(regSCDR)))
	g.sent = append(g.sent, b)
	if expect {
		g.expect = regexpQuote(b)
		g.feat("expect-output")
	}
}

func regexpQuote(b byte) string {
	if b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '!' {
		return string(b)
	}
	return fmt.Sprintf(`\x%02x`, b)
}

// prog assembles the result.
func (g *gen) prog() *Prog {
	p := &Prog{Mode: g.mode, Base: imageBase, Hooks: map[string]uint16{}, Symbols: g.syms, Stacks: g.stacks,
		Inputs: g.inputs, SCIInput: g.sciIn, ExpectOutput: g.expect}
	if g.base0 {
		p.Base = 0
	}
	p.Bytes = slices.Clone(g.a.mem[p.Base:])
	for n, a := range g.stubs {
		p.Hooks[n] = a
	}
	if g.irq && g.mode != Firmware {
		p.IRQ = []string{"toc1"}
	}
	for f := range g.feats {
		p.Features = append(p.Features, f)
	}
	sort.Strings(p.Features)
	p.Listing = g.a.listing()
	return p
}
