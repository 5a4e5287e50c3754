package symbolic

import (
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/hc11mc/hc11mc/internal/mutation"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// Options tune the engine.
type Options struct {
	// MaxBranch: a nondeterministic choice among at most this many values
	// (__mc_nondet with a constant bound, --input reads) is enumerated,
	// a successor per value, as the explicit engine does; a wider one
	// gets a fresh variable. 0: every choice is a variable.
	MaxBranch int
	// MaxSplit is the most values a symbolic value is split into where the
	// control needs it concrete: an index register forming an address, a
	// return address, a stack pointer, an instruction byte (default 256).
	MaxSplit int
	// SolverTimeout bounds one solver query (0: none).
	SolverTimeout time.Duration
	// Reduce turns on partial-order reduction in the state traversal
	// (reduce.go), as package search does for explicit states.
	Reduce bool
}

// ErrUnsupported is an execution the engine cannot follow symbolically
// (a value with too many possibilities where the control needs a
// concrete one, a step that would read a placeholder: sim.Placeholders):
// the search that meets it is incomplete.
var ErrUnsupported = errors.New("unsupported symbolic execution")

// Engine executes symbolic states of one machine: instructions, harness
// calls and interrupts, one transition at a time, as sim.Machine's
// Successors does for concrete states.
type Engine struct {
	M    *sim.Machine
	B    *term.Builder
	D    term.Domain
	Sol  *Solver
	Opts Options
	// Lazy leaves the feasibility of branches to a later query (bounded
	// model checking): both sides of a symbolic branch are followed and
	// their conditions kept in the path.
	Lazy bool

	// witness, when set, decides every branch and split: the engine
	// follows the one path this assignment of the variables takes,
	// without the solver (the equivalence tests).
	witness Model
	// forceData sends every instruction through the terms, concrete
	// operands included (the equivalence tests).
	forceData bool

	// stop, when set, is asked every 256 steps whether to give up:
	// Expand then returns errStopped.
	stop func() bool

	// writable lists the addresses whose bytes a state keeps (RAM, I/O
	// registers, inputs), in order; termable says which of them can hold
	// a term (those sim.Machine.WriteMem writes). Group compares them
	// where two states' memories differ (merge.go).
	writable []uint16
	termable map[uint16]bool
	// joins counts the merges of states whose concrete data differed,
	// unjoins the splits of unjoin.go.
	joins, unjoins uint64

	nvars    int
	rank     []int32
	code     *sim.State // the initial state, for reading code
	nextRank int32
	// Instructions counts the steps executed; Forks the symbolic branches
	// that were followed both ways.
	Instructions, Forks uint64
}

// NewEngine returns an engine for m. It refuses a machine with models of
// the chip's peripherals or of board hardware (sim.Config.Device, Board),
// whose registers and environment events it does not follow.
func NewEngine(m *sim.Machine, opts Options) (*Engine, error) {
	if m.HasDevice() || len(m.Config.Board) > 0 {
		return nil, errors.New("the symbolic engine does not model the chip's peripherals or board hardware (--device): use --engine explicit")
	}
	if opts.MaxSplit <= 0 {
		opts.MaxSplit = 256
	}
	b := term.NewBuilder()
	e := &Engine{M: m, B: b, D: term.Domain{Builder: b}, Sol: NewSolver(b, opts.SolverTimeout), Opts: opts,
		termable: map[uint16]bool{}}
	s := m.Initial()
	for a := 0; a <= 0xFFFF; a++ {
		if m.Writable(uint16(a)) {
			e.writable = append(e.writable, uint16(a))
			// The byte written back as it is: whether setMem can put a
			// term there.
			e.termable[uint16(a)] = m.WriteMem(s, uint16(a), m.ReadMem(s, uint16(a)))
		}
	}
	return e, nil
}

// Initial returns the machine's initial state, all concrete.
func (e *Engine) Initial() *State {
	s := e.M.Initial()
	return &State{S: s, Regs: make([]Regs, len(s.Threads)), Mem: map[uint16]*term.Term{}}
}

// Handoff returns the symbolic state for a concrete state s that another
// engine reached by trace (its labels, choices included) and whose
// transition of thread is left to this one (check --engine auto: a
// choice too wide to enumerate). Expanding it follows that thread's
// transition alone; its successors are ordinary states. A counterexample
// through it starts with trace.
func (e *Engine) Handoff(s *sim.State, trace []sim.Label, thread int) *State {
	s.Freeze()
	st := &State{S: s.Clone(), Regs: make([]Regs, len(s.Threads)), Mem: map[uint16]*term.Term{},
		Depth: len(trace), Only: thread + 1}
	for _, l := range trace {
		st.Trace = &Step{Prev: st.Trace, Label: l}
	}
	return st
}

func (e *Engine) newVar(prefix string, w uint8) *term.Term {
	e.nvars++
	return e.B.Var(fmt.Sprintf("%s%d", prefix, e.nvars), w)
}

func (e *Engine) k8(v uint8) *term.Term   { return e.B.Const(8, uint64(v)) }
func (e *Engine) k16(v uint16) *term.Term { return e.B.Const(16, uint64(v)) }

func or8(t *term.Term, e *Engine, v uint8) *term.Term {
	if t != nil {
		return t
	}
	return e.k8(v)
}

func or16(t *term.Term, e *Engine, v uint16) *term.Term {
	if t != nil {
		return t
	}
	return e.k16(v)
}

// ccr returns thread i's CCR as an 8-bit term.
func (e *Engine) ccr(st *State, i int) *term.Term {
	t, r := &st.S.Threads[i], &st.Regs[i]
	var c *term.Term
	for b := 7; b >= 0; b-- {
		bit := r.CCR[b]
		if bit == nil {
			bit = e.B.Const(1, uint64(t.CCR>>b&1))
		}
		if c == nil {
			c = bit
		} else {
			c = e.B.Concat(c, bit)
		}
	}
	return c
}

// cpuOf returns thread i's registers as terms.
func (e *Engine) cpuOf(st *State, i int) cpu {
	t, r := &st.S.Threads[i], &st.Regs[i]
	return cpu{A: or8(r.A, e, t.A), B: or8(r.B, e, t.B), X: or16(r.X, e, t.X), Y: or16(r.Y, e, t.Y),
		CCR: e.ccr(st, i), SP: t.SP}
}

// setCPU stores registers A, B, X, Y and CCR of thread i: constants in the
// concrete thread, terms beside it (with 0 in the thread).
func (e *Engine) setCPU(st *State, i int, c cpu) {
	t, r := &st.S.Threads[i], &st.Regs[i]
	t.Tag = 0
	set8 := func(dst *uint8, rt **term.Term, v *term.Term) {
		if x, ok := v.IsConst(); ok {
			*dst, *rt = uint8(x), nil
		} else {
			*dst, *rt = 0, v
		}
	}
	set16 := func(dst *uint16, rt **term.Term, v *term.Term) {
		if x, ok := v.IsConst(); ok {
			*dst, *rt = uint16(x), nil
		} else {
			*dst, *rt = 0, v
		}
	}
	set8(&t.A, &r.A, c.A)
	set8(&t.B, &r.B, c.B)
	set16(&t.X, &r.X, c.X)
	set16(&t.Y, &r.Y, c.Y)
	var ccr uint8
	for b := 0; b < 8; b++ {
		bit := e.B.Extract(c.CCR, uint8(b), 1)
		if x, ok := bit.IsConst(); ok {
			ccr |= uint8(x) << b
			r.CCR[b] = nil
		} else {
			r.CCR[b] = bit
		}
	}
	t.CCR = ccr
}

// setMem stores the byte at a: a constant in the concrete memory, a term
// beside it. Unwritable addresses are left alone (the concrete step
// reported the fault).
func (e *Engine) setMem(st *State, a uint16, v *term.Term) {
	if x, ok := v.IsConst(); ok {
		if e.M.WriteMem(st.S, a, uint8(x)) {
			delete(st.Mem, a)
		}
		return
	}
	if e.M.WriteMem(st.S, a, 0) {
		st.Mem[a] = v
	}
}

// byteAt returns the byte at a as a term, without side effects.
func (e *Engine) byteAt(st *State, a uint16) *term.Term {
	if t := st.Mem[a]; t != nil {
		return t
	}
	return e.k8(e.M.ReadMem(st.S, a))
}

// derive makes the successor of st whose concrete part is ns.
func (st *State) derive(ns *sim.State) *State {
	n := &State{S: ns, Regs: append([]Regs(nil), st.Regs...), Mem: make(map[uint16]*term.Term, len(st.Mem)),
		Path: st.Path[:len(st.Path):len(st.Path)], Trace: st.Trace, Depth: st.Depth, back: st.back,
		joined: st.joined[:len(st.joined):len(st.joined)]}
	for a, t := range st.Mem {
		n.Mem[a] = t
	}
	for len(n.Regs) < len(ns.Threads) {
		n.Regs = append(n.Regs, Regs{})
	}
	return n
}

// assume returns st with c added to its path condition, and whether the
// result may be feasible: false when c is the constant 0, or (unless the
// engine is lazy) when the solver finds the path infeasible. check
// false skips the solver.
func (e *Engine) assume(st *State, c *term.Term, check bool) (*State, bool, error) {
	if v, ok := c.IsConst(); ok {
		return st, v == 1, nil
	}
	n := *st
	n.Path = append(st.Path[:len(st.Path):len(st.Path)], c)
	if check && !e.Lazy {
		sat, _, err := e.Sol.Check(n.Path...)
		if err != nil {
			return nil, false, err
		}
		if !sat {
			return nil, false, nil
		}
	}
	return &n, true, nil
}

// fork splits st on the 1-bit c: the state where c holds and the one where
// it does not, each nil when infeasible. At least one side of a feasible
// state is feasible, so one solver query decides both when the first side
// is infeasible.
func (e *Engine) fork(st *State, c *term.Term) (yes, no *State, err error) {
	if v, ok := c.IsConst(); ok {
		if v == 1 {
			return st, nil, nil
		}
		return nil, st, nil
	}
	if e.witness != nil {
		if e.B.Eval(c, e.witness) == 1 {
			y, _, _ := e.assume(st, c, false)
			return y, nil, nil
		}
		n, _, _ := e.assume(st, e.B.Not(c), false)
		return nil, n, nil
	}
	y, ok, err := e.assume(st, c, true)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		n, _, _ := e.assume(st, e.B.Not(c), false)
		return nil, n, nil
	}
	n, ok, err := e.assume(st, e.B.Not(c), true)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		n = nil
	} else {
		e.Forks++
	}
	return y, n, nil
}

// values returns every value t may have on st's path, at most max of
// them, or ErrUnsupported.
func (e *Engine) values(st *State, t *term.Term, max int) ([]uint64, error) {
	if v, ok := t.IsConst(); ok {
		return []uint64{v}, nil
	}
	if e.witness != nil {
		return []uint64{e.B.Eval(t, e.witness)}, nil
	}
	var vals []uint64
	conds := append([]*term.Term(nil), st.Path...)
	for {
		sat, m, err := e.Sol.Check(conds...)
		if err != nil {
			return nil, err
		}
		if !sat {
			return vals, nil
		}
		v := e.B.Eval(t, m)
		if len(vals) == max {
			return nil, fmt.Errorf("%w: a symbolic value the control needs has more than %d possible values", ErrUnsupported, max)
		}
		vals = append(vals, v)
		conds = append(conds, e.B.Not(e.B.Eq(t, e.B.Const(t.W, v))))
	}
}

// loc is a register, CCR bit or byte of a thread's state.
type loc struct {
	kind uint8 // locA, locB, locX, locY, locCCR (bit), locMem
	bit  uint8
	addr uint16
}

const (
	locA = iota
	locB
	locX
	locY
	locCCR
	locMem
)

// get returns the term at l, nil when it is concrete.
func (st *State) get(i int, l loc) *term.Term {
	r := &st.Regs[i]
	switch l.kind {
	case locA:
		return r.A
	case locB:
		return r.B
	case locX:
		return r.X
	case locY:
		return r.Y
	case locCCR:
		return r.CCR[l.bit]
	}
	return st.Mem[l.addr]
}

// concretize splits st where l is symbolic into one state per possible
// value, with l concrete in each.
func (e *Engine) concretize(st *State, i int, l loc) ([]*State, error) {
	t := st.get(i, l)
	if t == nil {
		return []*State{st}, nil
	}
	vals, err := e.values(st, t, e.Opts.MaxSplit)
	if err != nil {
		return nil, err
	}
	var out []*State
	for _, v := range vals {
		n := st.derive(st.S.Clone())
		n.Path = append(n.Path, e.B.Eq(t, e.B.Const(t.W, v)))
		th, r := &n.S.Threads[i], &n.Regs[i]
		switch l.kind {
		case locA:
			th.A, r.A = uint8(v), nil
		case locB:
			th.B, r.B = uint8(v), nil
		case locX:
			th.X, r.X = uint16(v), nil
		case locY:
			th.Y, r.Y = uint16(v), nil
		case locCCR:
			th.CCR = th.CCR&^(1<<l.bit) | uint8(v)<<l.bit
			r.CCR[l.bit] = nil
		case locMem:
			e.M.WriteMem(n.S, l.addr, uint8(v))
			delete(n.Mem, l.addr)
		}
		th.Tag = 0
		if len(vals) > 1 {
			e.Forks++
		}
		out = append(out, n)
	}
	return out, nil
}

// concretizeAll applies concretize for each location in turn.
func (e *Engine) concretizeAll(sts []*State, i int, ls ...loc) ([]*State, error) {
	for _, l := range ls {
		var next []*State
		for _, st := range sts {
			ns, err := e.concretize(st, i, l)
			if err != nil {
				return nil, err
			}
			next = append(next, ns...)
		}
		sts = next
	}
	return sts, nil
}

// outcome is one result of a step. private says the step touched only
// its thread's stack region, with stack privacy checked
// (sim.Machine.ReplayStep), as partial-order reduction needs.
type outcome struct {
	st      *State
	kind    uint8 // outOK, outViolation, outBlocked, outInfeasible
	viol    *sim.Violation
	choices []Choice
	private bool
	// broken, when set, is the rule of sim.Placeholders the concrete step
	// broke: it read a placeholder, and the outcome is no successor.
	broken *sim.Placeholders
}

const (
	outOK = iota
	outViolation
	outBlocked
	outInfeasible
)

// concreteStep runs one step of thread i on the concrete part of st (with
// the choice 0 for any nondeterminism, which the caller replaces) and
// returns the successor state and outcome. The caller has made the step's
// control inputs concrete. The step keeps the rule that no placeholder is
// read (sim.Placeholders): a read of a byte that has a term in st, or of
// an --input address, gets its value from standins, which the caller
// fills where it computes the data itself; a read of one without a
// stand-in makes the outcome broken, which is no successor.
func (e *Engine) concreteStep(st *State, i int, standins map[uint16]uint8) outcome {
	ph := &sim.Placeholders{Unknown: func(a uint16) bool { return st.Mem[a] != nil }, Standins: standins}
	ns, v, ok, private := e.M.ReplayStep(st.S, i, ph)
	if ph.Broken {
		return outcome{st: st, kind: outInfeasible, broken: ph}
	}
	if !ok {
		// Only a harness call does not step: a lock held or an assumption
		// that fails.
		if e.M.HookAt(st.S.Threads[i].PC) == loader.StubLock {
			return outcome{st: st, kind: outBlocked}
		}
		return outcome{st: st, kind: outInfeasible}
	}
	n := st.derive(ns)
	if v != nil {
		return outcome{st: n, kind: outViolation, viol: v}
	}
	return outcome{st: n, kind: outOK, private: private}
}

// errStopped is Expand giving up when Engine.stop says so.
var errStopped = errors.New("stopped")

// step executes one instruction or harness call of thread i of st.
func (e *Engine) step(st *State, i int) ([]outcome, error) {
	e.Instructions++
	if e.Instructions%256 == 0 && e.stop != nil && e.stop() {
		return nil, errStopped
	}
	var outs []outcome
	if h := e.M.HookAt(st.S.Threads[i].PC); h != loader.NoStub {
		o, err := e.harness(st, i, h)
		if err != nil {
			return nil, err
		}
		outs = o
	} else {
		sts, err := e.fetchable(st, i)
		if err != nil {
			return nil, err
		}
		for _, s := range sts {
			o, err := e.step1(s, i)
			if err != nil {
				return nil, err
			}
			outs = append(outs, o...)
		}
	}
	for _, o := range outs {
		if p := o.broken; p != nil {
			what := "read"
			if p.Fetch {
				what = "fetch"
			}
			return nil, fmt.Errorf("%w: the step of thread %d at 0x%04X would %s the placeholder of the value at 0x%04X",
				ErrUnsupported, i, st.S.Threads[i].PC, what, p.At)
		}
	}
	return outs, nil
}

// fetchable splits st until the bytes of thread i's next instruction are
// concrete in each part: a byte code wrote from a symbolic value (a
// patched opcode or operand) is split on its feasible values, the first
// symbolic byte among those the decoder looks at first (the page prefix
// and opcode decide how many more it looks at). The instruction is then
// fetched from values, never from a placeholder.
func (e *Engine) fetchable(st *State, i int) ([]*State, error) {
	if mutation.On(mutation.PlaceholderRead) {
		return []*State{st}, nil // the fault: fetched from the placeholders
	}
	var out []*State
	work := []*State{st}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		pc := s.S.Threads[i].PC
		var buf [5]byte
		for k := range buf {
			buf[k] = e.M.ReadMem(s.S, pc+uint16(k))
		}
		in, err := isa.Decode(buf[:])
		need := len(buf)
		if err == nil || errors.Is(err, isa.ErrUnrecognized) {
			need = int(in.Len)
		}
		sym := -1
		for k := range need {
			if s.Mem[pc+uint16(k)] != nil {
				sym = k
				break
			}
		}
		if sym < 0 {
			out = append(out, s)
			continue
		}
		ns, err := e.concretize(s, i, loc{kind: locMem, addr: pc + uint16(sym)})
		if err != nil {
			return nil, err
		}
		work = append(work, ns...)
	}
	return out, nil
}

// step1 executes the instruction of thread i of st, whose bytes are
// concrete.
func (e *Engine) step1(st *State, i int) ([]outcome, error) {
	t := &st.S.Threads[i]
	pc := t.PC
	var buf [5]byte
	for k := range buf {
		buf[k] = e.M.ReadMem(st.S, pc+uint16(k))
	}
	in, err := isa.Decode(buf[:])
	// An illegal opcode traps only where the machine goes on through the
	// trap (sim.Machine.TrapsIllegal); otherwise its concrete step is the
	// violation.
	trap := (err != nil || in.Op == isa.TEST) && e.M.TrapsIllegal()
	if err != nil && !trap {
		return []outcome{e.concreteStep(st, i, nil)}, nil
	}
	eff := in.Effects()
	// The control inputs must be concrete: the index register of the
	// address, what SP and PC are loaded from, the S bit STOP reads.
	sts := []*State{st}
	var ls []loc
	switch {
	case eff.AddrRegs.Has(isa.RegX):
		if w := st.Regs[i].X; w != nil && !trap {
			if win := e.arrayWindow(st, i, &in, eff, w); win != nil {
				return e.windowed(st, i, &in, win)
			}
		}
		ls = append(ls, loc{kind: locX})
	case eff.AddrRegs.Has(isa.RegY):
		if w := st.Regs[i].Y; w != nil && !trap {
			if win := e.arrayWindow(st, i, &in, eff, w); win != nil {
				return e.windowed(st, i, &in, win)
			}
		}
		ls = append(ls, loc{kind: locY})
	}
	switch in.Op {
	case isa.TXS:
		ls = append(ls, loc{kind: locX})
	case isa.TYS:
		ls = append(ls, loc{kind: locY})
	case isa.RTS:
		ls = append(ls, loc{kind: locMem, addr: t.SP + 1}, loc{kind: locMem, addr: t.SP + 2})
	case isa.RTI:
		ls = append(ls, loc{kind: locMem, addr: t.SP + 8}, loc{kind: locMem, addr: t.SP + 9})
	case isa.STOP:
		ls = append(ls, loc{kind: locCCR, bit: 7})
	}
	if sts, err = e.concretizeAll(sts, i, ls...); err != nil {
		return nil, err
	}
	if in.Op == isa.LDS && in.Mode != isa.Imm16 {
		var more []*State
		for _, s := range sts {
			ea := e.ea(s, i, &in)
			ns, err := e.concretizeAll([]*State{s}, i, loc{kind: locMem, addr: ea}, loc{kind: locMem, addr: ea + 1})
			if err != nil {
				return nil, err
			}
			more = append(more, ns...)
		}
		sts = more
	}
	var outs []outcome
	for _, s := range sts {
		o, err := e.instruction(s, i, &in, eff, trap)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o...)
	}
	return outs, nil
}

// ea is the effective address of in for thread i (its index register is
// concrete).
func (e *Engine) ea(st *State, i int, in *isa.Inst) uint16 {
	t := &st.S.Threads[i]
	return in.EA(t.X, t.Y)
}

// readsSymbolic reports whether the instruction, with effects eff and the
// memory operand op (isa.Inst.Access), reads a symbolic value or an
// --input address.
func (e *Engine) readsSymbolic(st *State, i int, eff isa.Effects, op isa.Access, trap bool) bool {
	if e.forceData {
		return true
	}
	r := &st.Regs[i]
	regs := eff.RegsRead
	ccrRead := eff.CCRRead
	if trap {
		regs, ccrRead = isa.RegAll, 0xff
	}
	if regs.Has(isa.RegA) && r.A != nil || regs.Has(isa.RegB) && r.B != nil ||
		regs.Has(isa.RegX) && r.X != nil || regs.Has(isa.RegY) && r.Y != nil {
		return true
	}
	for b := 0; b < 8; b++ {
		if ccrRead>>b&1 != 0 && r.CCR[b] != nil {
			return true
		}
	}
	if op.Read {
		for k := uint16(0); k < uint16(op.Size); k++ {
			if st.Mem[op.Addr+k] != nil {
				return true
			}
			if _, ok := e.M.InputValues(op.Addr + k); ok {
				return true
			}
		}
	}
	sp := st.S.Threads[i].SP
	for k := uint16(1); k <= uint16(eff.StackPull); k++ {
		if st.Mem[sp+k] != nil {
			return true
		}
	}
	return false
}

// instruction executes in, whose control inputs are concrete.
func (e *Engine) instruction(st *State, i int, in *isa.Inst, eff isa.Effects, trap bool) ([]outcome, error) {
	t := &st.S.Threads[i]
	pc, sp0 := t.PC, t.SP
	ea := e.ea(st, i, in)
	op, _ := in.Access(t.X, t.Y)
	if o, ok := e.plainStep(st, i, eff, op, sp0, trap); ok {
		return []outcome{o}, nil
	}
	// --input reads with few values are enumerated (Options.MaxBranch):
	// one successor per combination, with constants.
	var inputs []uint16
	total := 1
	for _, a := range e.reads(st, i, eff, op) {
		if vals, ok := e.M.InputValues(a); ok {
			inputs = append(inputs, a)
			total *= len(vals)
		}
	}
	if len(inputs) == 0 || total > e.Opts.MaxBranch {
		return e.dataPath(st, i, in, pc, ea, trap, nil, nil)
	}
	var outs []outcome
	for c := 0; c < total; c++ {
		fixed := map[uint16]uint8{}
		rest := c
		for _, a := range inputs {
			vals, _ := e.M.InputValues(a)
			fixed[a] = vals[rest%len(vals)]
			rest /= len(vals)
		}
		o, err := e.dataPath(st, i, in, pc, ea, trap, fixed, nil)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o...)
	}
	return outs, nil
}

// reads returns the memory bytes the instruction with effects eff and
// memory operand op (isa.Inst.Access) reads as data: the operand's and
// the bytes it pulls.
func (e *Engine) reads(st *State, i int, eff isa.Effects, op isa.Access) []uint16 {
	var as []uint16
	if op.Read {
		for k := uint16(0); k < uint16(op.Size); k++ {
			as = append(as, op.Addr+k)
		}
	}
	sp := st.S.Threads[i].SP
	for k := uint16(1); k <= uint16(eff.StackPull); k++ {
		as = append(as, sp+k)
	}
	return as
}

// plainStep is the instruction of thread i as the simulator's step and
// nothing more, when its inputs are concrete: ok false when a register it
// reads is symbolic (readsSymbolic), or when the step would read a
// placeholder or an --input address (the rule of sim.Placeholders decides
// that, for any instruction, wherever the read is), which the caller
// sends through the terms instead.
func (e *Engine) plainStep(st *State, i int, eff isa.Effects, op isa.Access, sp0 uint16, trap bool) (outcome, bool) {
	if e.readsSymbolic(st, i, eff, op, trap) {
		return outcome{}, false
	}
	// Concrete inputs, concrete results: whatever the instruction
	// writes stops being symbolic.
	o := e.concreteStep(st, i, nil)
	if o.broken != nil {
		return outcome{}, false
	}
	if o.kind == outOK || o.kind == outViolation {
		n := o.st
		r := &n.Regs[i]
		w := eff.RegsWritten
		if w.Has(isa.RegA) {
			r.A = nil
		}
		if w.Has(isa.RegB) {
			r.B = nil
		}
		if w.Has(isa.RegX) {
			r.X = nil
		}
		if w.Has(isa.RegY) {
			r.Y = nil
		}
		for b := 0; b < 8; b++ {
			if eff.CCRWritten>>b&1 != 0 {
				r.CCR[b] = nil
			}
		}
		if op.Write {
			for k := uint16(0); k < uint16(op.Size); k++ {
				delete(n.Mem, op.Addr+k)
			}
		}
		for k := uint16(0); k < uint16(eff.StackPush); k++ {
			delete(n.Mem, sp0-k)
		}
	}
	return o, true
}

// windowed executes in, which reads memory through a symbolic index
// register whose address falls in win: the concrete step reads the
// window's first address (a stand-in index), the data an if-then-else
// over the window.
func (e *Engine) windowed(st *State, i int, in *isa.Inst, win *window) ([]outcome, error) {
	s := st.derive(st.S.Clone())
	t := &s.S.Threads[i]
	if in.Effects().AddrRegs == isa.RegY {
		t.Y = win.lo - in.Operand
	} else {
		t.X = win.lo - in.Operand
	}
	t.Tag = 0
	return e.dataPath(s, i, in, t.PC, win.lo, false, nil, win)
}

// dataPath executes in through the terms: an --input read at an address
// of fixed gets that value, any other a fresh variable; with a window, the
// operand at ea is read through it.
func (e *Engine) dataPath(st *State, i int, in *isa.Inst, pc, ea uint16, trap bool, fixed map[uint16]uint8, win *window) ([]outcome, error) {
	var choices []Choice
	x := e.newDataStep(e.cpuOf(st, i))
	var path []*term.Term
	// The bytes the terms read that the concrete step must not: each gets
	// a stand-in (0, or the value that steers a BRSET or BRCLR).
	standins := map[uint16]uint8{}
	x.read = func(a uint16) *term.Term {
		if win != nil && a-ea < 2 {
			standins[a] = 0
			return e.arrayRead(st, win, a-ea)
		}
		if st.Mem[a] != nil {
			standins[a] = 0
		}
		if vals, ok := e.M.InputValues(a); ok {
			standins[a] = 0
			if v, ok := fixed[a]; ok {
				choices = append(choices, Choice{Var: e.k8(v), Values: vals})
				return e.k8(v)
			}
			v := e.newVar(fmt.Sprintf("in%04x_", a), 8)
			choices = append(choices, Choice{Var: v, Values: vals})
			if c := e.oneOf(v, vals); c != nil {
				path = append(path, c)
			}
			return v
		}
		return e.byteAt(st, a)
	}
	x.exec(in, pc, ea, trap)
	base := st
	if len(path) > 0 {
		base = &State{S: st.S, Regs: st.Regs, Mem: st.Mem, Path: append(st.Path[:len(st.Path):len(st.Path)], path...),
			Trace: st.Trace, Depth: st.Depth}
	}
	// A branch on a symbolic condition forks; the concrete step is steered
	// by a stand-in that takes the branch (or not): the condition codes of
	// its thread, or the value the tested byte reads as. A branch whose
	// condition the terms decide is steered too, the concrete step's flags
	// or byte being placeholders where a term stands.
	type side struct {
		st    *State
		taken bool
	}
	var sides []side
	if x.cond != nil {
		y, n, err := e.fork(base, x.cond)
		if err != nil {
			return nil, err
		}
		if y != nil {
			sides = append(sides, side{y, true})
		}
		if n != nil {
			sides = append(sides, side{n, false})
		}
	} else {
		sides = []side{{base, false}}
	}
	var outs []outcome
	for _, sd := range sides {
		s := sd.st
		steer, sins := s.S, standins
		if x.cond != nil {
			steer, sins = e.steer(s, i, in, ea, sd.taken, standins)
		}
		o := e.concreteStep(&State{S: steer, Regs: s.Regs, Mem: s.Mem, Path: s.Path, Trace: s.Trace, Depth: s.Depth}, i, sins)
		if o.kind == outOK || o.kind == outViolation {
			c := x.c
			c.SP = o.st.S.Threads[i].SP
			e.setCPU(o.st, i, c)
			for _, w := range x.writes {
				e.setMem(o.st, w.addr, w.val)
			}
		}
		o.choices = choices
		if win != nil {
			o.private = false // the machine saw a stand-in address only
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// steer returns what the concrete step of the branch in runs on so that
// it goes the way taken says, without writing memory: for BRSET and
// BRCLR, standins with the tested byte's stand-in a value that decides
// the branch so (where the byte is concrete, the terms' condition is a
// constant, which the concrete byte decides alike); for the other
// branches, a copy of st's concrete part whose condition codes decide it
// so.
func (e *Engine) steer(st *State, i int, in *isa.Inst, ea uint16, taken bool, standins map[uint16]uint8) (*sim.State, map[uint16]uint8) {
	switch in.Op {
	case isa.BRSET, isa.BRCLR:
		if _, ok := standins[ea]; !ok {
			return st.S, standins
		}
		// (byte & mask) == 0 takes BRCLR, (^byte & mask) == 0 takes BRSET,
		// whatever the mask (M68HC11 Reference Manual, BRCLR and BRSET).
		v := uint8(0x00)
		if (in.Op == isa.BRSET) == taken {
			v = 0xff
		}
		if mutation.On(mutation.PlaceholderRead) {
			// The fault: the stand-in written into memory, where a
			// ROM byte or an --input address does not take it.
			s := st.S.Clone()
			e.M.WriteMem(s, ea, v)
			n := maps.Clone(standins)
			delete(n, ea)
			return s, n
		}
		n := maps.Clone(standins)
		n[ea] = v
		return st.S, n
	default:
		s := st.S.Clone()
		t := &s.Threads[i]
		for c := uint8(0); c < 16; c++ {
			if concreteBranch(in.Opcode, c) == taken {
				t.CCR = t.CCR&0xf0 | c
				break
			}
		}
		return s, standins
	}
}

// oneOf returns the condition that the byte v is one of vals (nil when
// every byte is).
func (e *Engine) oneOf(v *term.Term, vals []uint8) *term.Term {
	var seen [256]bool
	n := 0
	for _, x := range vals {
		if !seen[x] {
			seen[x] = true
			n++
		}
	}
	if n == 256 {
		return nil
	}
	c := e.B.Bool(false)
	for x := 0; x < 256; x++ {
		if seen[x] {
			c = e.B.Or(c, e.B.Eq(v, e.k8(uint8(x))))
		}
	}
	return c
}
