package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// The read and write sets of isa.Effects, checked against the simulator on
// every defined opcode of the four pages. Each trial executes one
// instruction from a random state — registers, CCR, every byte of writable
// memory and the operand bytes — and checks:
//
//  1. Writes: no register, CCR bit or memory byte outside the declared write
//     set changes (the operand bytes at the effective address when
//     MemWritten, the StackPush bytes below SP), nor the thread's status
//     unless Halt.
//  2. Reads: re-randomising everything outside the declared read set (the
//     registers, CCR bits and memory bytes not declared read, the operand
//     bytes when not MemRead) leaves every declared output as it was: the
//     written registers and bits, the written bytes, the next PC, the
//     status, the absence of a violation.
//
// and, over all trials of an opcode, that the sets are not larger than
// needed: each declared written register, bit or byte was seen to change,
// and each declared input was seen to matter (changing it alone changed an
// output). So the table is checked in both directions: exact, not just safe.
//
// The instruction sits in a RAM page of its own (effCode), the effective
// address and the stack lie in the chip's RAM (0x0000-0x01FF), so every
// instruction executes normally. Nothing is excluded: SWI and TEST run with
// their vectors programmed and the illegal-opcode property ignored
// (Config.IgnoreIllegal), so that TEST traps as the illegal opcode it is
// outside the test modes instead of ending the execution, WAI and STOP leave the thread waiting, JMP, JSR, RTS and RTI go
// wherever their operands say (the next PC is compared, never executed).
// The thread's InitSP is set to 0xFFFF, an address SP never takes here, so
// that RTS does not end the thread for returning from an empty stack and LDS
// does not record thread 0's stack top: that bookkeeping is the harness's,
// not the instruction set's.

const (
	effCode  = 0x0400 // the instruction under test: a RAM page added for it
	effRAMHi = 0x01FF // effective addresses and the stack lie in 0x0000-0x01FF
	effSPLo  = 0x0010 // SP is drawn from effSPLo..effSPHi, so that nine bytes
	effSPHi  = 0x01F0 // pushed or pulled stay in RAM
	effNoTop = 0xFFFF // InitSP: never equal to SP
	// effTrials is the number of random states per opcode.
	effTrials = 64
)

// effMachine is the E9 map with a RAM page for the code, the SWI and
// illegal-opcode vectors programmed (their handlers an RTI each) and the
// illegal opcodes trapping.
func effMachine(t *testing.T) *Machine {
	t.Helper()
	chunks := map[uint16][]byte{
		0xD000: {0x01},
		0xE000: {0x3B},
		0xE100: {0x3B},
		0xFFF6: {0xE0, 0x00, 0xE1, 0x00}, // SWI, illegal opcode
		0xFFFE: {0xD0, 0x00},
	}
	img, err := loader.LoadBytes("effects.s19", srec(chunks), loader.Options{
		RAM: []loader.Range{{Lo: effCode, Hi: effCode + PageSize - 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMachine(img, Config{Entry: img.Entry, IgnoreIllegal: true})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// effOpcode is one opcode under test with its declared effects.
type effOpcode struct {
	page isa.Page
	op   byte
	info *isa.Info
	e    isa.Effects
}

func (o *effOpcode) String() string {
	return fmt.Sprintf("%02X/%02X %s %s", byte(o.page), o.op, o.info.Op, o.info.Mode)
}

// effCase is one random starting state of one opcode.
type effCase struct {
	o      *effOpcode
	s      *State
	code   []byte
	ea     uint16          // the effective address, when the mode has one
	reads  map[uint16]bool // memory bytes declared read (operand, pulled bytes)
	writes map[uint16]bool // memory bytes declared written (operand, pushed bytes)
}

// effEnv is what every trial shares.
type effEnv struct {
	m        *Machine
	r        *rand.Rand
	addrs    []uint16 // every writable address
	pageBase []uint16 // the address of each page of a state
}

func newEffEnv(t *testing.T) *effEnv {
	t.Helper()
	m := effMachine(t)
	env := &effEnv{m: m, r: rand.New(rand.NewPCG(0x68, 0xc11))}
	for a := 0; a < 65536; a++ {
		if m.Writable(uint16(a)) {
			env.addrs = append(env.addrs, uint16(a))
		}
	}
	env.pageBase = make([]uint16, m.npages)
	for blk, i := range m.pageOf {
		if i >= 0 {
			env.pageBase[i] = uint16(blk * PageSize)
		}
	}
	return env
}

// v8 and v16 draw register values, a quarter of them from edge cases
// (zero, sign boundaries, BCD digits above 9, all ones).
func (env *effEnv) v8() uint8 {
	if env.r.IntN(4) == 0 {
		edges := [...]uint8{0, 1, 0x09, 0x0A, 0x7F, 0x80, 0x99, 0x9A, 0xFF}
		return edges[env.r.IntN(len(edges))]
	}
	return uint8(env.r.Uint32())
}

func (env *effEnv) v16() uint16 {
	if env.r.IntN(4) == 0 {
		edges := [...]uint16{0, 1, 0x00FF, 0x7FFF, 0x8000, 0xFFFF}
		return edges[env.r.IntN(len(edges))]
	}
	return uint16(env.r.Uint32())
}

// nonzero8 and nonzero16 draw a value to XOR into an input: never 0, so the
// input does change.
func (env *effEnv) nonzero8() uint8   { return uint8(1 + env.r.IntN(255)) }
func (env *effEnv) nonzero16() uint16 { return uint16(1 + env.r.IntN(65535)) }

// newCase draws a random starting state for o.
func (env *effEnv) newCase(t *testing.T, o *effOpcode) *effCase {
	m, r := env.m, env.r
	c := &effCase{o: o, reads: map[uint16]bool{}, writes: map[uint16]bool{}}
	s := m.Initial()
	for i := range s.Pages {
		p := s.page(i)
		for k := range p.Data {
			p.Data[k] = uint8(r.Uint32())
		}
	}
	th := &s.Threads[0]
	th.A, th.B, th.CCR = env.v8(), env.v8(), uint8(r.Uint32())
	th.X, th.Y = env.v16(), env.v16()
	th.SP = uint16(effSPLo + r.IntN(effSPHi-effSPLo+1))
	th.PC = effCode
	th.InitSP = effNoTop

	// The instruction: prefix, opcode, operand bytes.
	if o.page != isa.Page0 {
		c.code = append(c.code, byte(o.page))
	}
	c.code = append(c.code, o.op)
	mask := func() byte {
		if r.IntN(2) == 0 {
			return 1 << r.IntN(8)
		}
		return byte(r.Uint32())
	}
	// near draws a w-byte operand value, two times in three close to a
	// register's of that width, so that comparisons come out equal or
	// nearly and a low byte matters.
	near := func(w int) uint16 {
		if r.IntN(3) == 0 {
			return uint16(r.Uint32())
		}
		v := [...]uint16{uint16(th.A), uint16(th.B)}[r.IntN(2)]
		if w == 2 {
			v = [...]uint16{th.D(), th.X, th.Y}[r.IntN(3)]
		}
		if r.IntN(2) == 0 {
			return v // equal: any change of either side clears Z
		}
		return v + uint16(r.IntN(5)) - 2
	}
	anyEA := func() uint16 { return uint16(r.IntN(effRAMHi)) } // 0..0x1FE: two bytes fit
	indexed := func(y bool) byte {
		off := byte(r.Uint32())
		c.ea = anyEA()
		if y {
			th.Y = c.ea - uint16(off)
		} else {
			th.X = c.ea - uint16(off)
		}
		return off
	}
	switch mode := o.info.Mode; mode {
	case isa.Inh:
	case isa.Imm8:
		c.code = append(c.code, uint8(near(1)))
	case isa.Rel:
		c.code = append(c.code, byte(r.Uint32()))
	case isa.Imm16:
		v := near(2)
		c.code = append(c.code, byte(v>>8), byte(v))
	case isa.Dir:
		c.ea = uint16(r.IntN(256))
		c.code = append(c.code, byte(c.ea))
	case isa.Ext:
		c.ea = anyEA()
		c.code = append(c.code, byte(c.ea>>8), byte(c.ea))
	case isa.IdxX, isa.IdxY:
		c.code = append(c.code, indexed(mode == isa.IdxY))
	case isa.BitDir:
		c.ea = uint16(r.IntN(256))
		c.code = append(c.code, byte(c.ea), mask())
	case isa.BitIdxX, isa.BitIdxY:
		c.code = append(c.code, indexed(mode == isa.BitIdxY), mask())
	case isa.BrDir:
		c.ea = uint16(r.IntN(256))
		c.code = append(c.code, byte(c.ea), mask(), byte(r.Uint32()))
	case isa.BrIdxX, isa.BrIdxY:
		c.code = append(c.code, indexed(mode == isa.BrIdxY), mask(), byte(r.Uint32()))
	default:
		t.Fatalf("%v: mode %v", o, mode)
	}
	if o.e.MemRead {
		v := near(int(o.e.MemWidth))
		if o.e.MemWidth == 1 {
			effSetMem(m, s, c.ea, uint8(v))
		} else {
			effSetMem(m, s, c.ea, uint8(v>>8))
			effSetMem(m, s, c.ea+1, uint8(v))
		}
	}
	if len(c.code) != int(o.info.Len) {
		t.Fatalf("%v: built %d bytes, the table says %d", o, len(c.code), o.info.Len)
	}
	for i, b := range c.code {
		effSetMem(m, s, effCode+uint16(i), b)
	}

	e := o.e
	for i := uint16(0); i < uint16(e.MemWidth); i++ {
		if e.MemRead {
			c.reads[c.ea+i] = true
		}
		if e.MemWritten {
			c.writes[c.ea+i] = true
		}
	}
	for i := uint16(0); i < uint16(e.StackPush); i++ {
		c.writes[th.SP-i] = true
	}
	for i := uint16(1); i <= uint16(e.StackPull); i++ {
		c.reads[th.SP+i] = true
	}
	c.s = s
	return c
}

// effSetMem writes a byte of writable memory in s (poke without the test
// helper's bookkeeping, which costs more than the step itself).
func effSetMem(m *Machine, s *State, a uint16, v uint8) {
	s.page(int(m.pageOf[a/PageSize])).Data[a%PageSize] = v
}

// isCode reports whether a is one of the instruction's own bytes.
func (c *effCase) isCode(a uint16) bool { return a >= effCode && a < effCode+uint16(len(c.code)) }

// effResult is the state after one step, and whether it was a violation.
type effResult struct {
	s    *State
	viol *Violation
}

// step executes the instruction at PC from a copy of s.
func (env *effEnv) step(s *State) effResult {
	n := s.Clone()
	x := stepper{m: env.m, s: n, t: &n.Threads[0], tid: 0, radix: 1, lay: env.m.layout}
	x.step()
	var res effResult
	res.s = n
	if x.bad {
		res.viol = x.violation()
	}
	return res
}

var effRegNames = [...]string{"A", "B", "X", "Y", "SP"}

// effReg returns register i (in isa.Regs bit order) of c.
func effReg(c *CPU, i int) uint16 {
	switch i {
	case 0:
		return uint16(c.A)
	case 1:
		return uint16(c.B)
	case 2:
		return c.X
	case 3:
		return c.Y
	}
	return c.SP
}

// effSetReg sets register i of c.
func effSetReg(c *CPU, i int, v uint16) {
	switch i {
	case 0:
		c.A = uint8(v)
	case 1:
		c.B = uint8(v)
	case 2:
		c.X = v
	case 3:
		c.Y = v
	default:
		c.SP = v
	}
}

// diffOutputs describes how b differs from a in the outputs c declares:
// the written registers, bits and bytes, the next PC, the status and the
// violation. It returns "" when they agree.
func (env *effEnv) diffOutputs(c *effCase, a, b effResult) string {
	if (a.viol == nil) != (b.viol == nil) {
		return fmt.Sprintf("violation %v, then %v", a.viol, b.viol)
	}
	ta, tb := &a.s.Threads[0], &b.s.Threads[0]
	var d []string
	for i, n := range effRegNames {
		if c.o.e.RegsWritten&(1<<i) != 0 && effReg(&ta.CPU, i) != effReg(&tb.CPU, i) {
			d = append(d, fmt.Sprintf("%s %04X/%04X", n, effReg(&ta.CPU, i), effReg(&tb.CPU, i)))
		}
	}
	if w := c.o.e.CCRWritten; ta.CCR&w != tb.CCR&w {
		d = append(d, fmt.Sprintf("CCR %s/%s", ccrString(ta.CCR&w), ccrString(tb.CCR&w)))
	}
	if ta.PC != tb.PC {
		d = append(d, fmt.Sprintf("PC %04X/%04X", ta.PC, tb.PC))
	}
	if ta.Status != tb.Status {
		d = append(d, fmt.Sprintf("status %d/%d", ta.Status, tb.Status))
	}
	for addr := range c.writes {
		if va, vb := env.m.ReadMem(a.s, addr), env.m.ReadMem(b.s, addr); va != vb {
			d = append(d, fmt.Sprintf("mem[%04X] %02X/%02X", addr, va, vb))
		}
	}
	return strings.Join(d, ", ")
}

// effInput is one input of the instruction: a register (reg >= 0), a CCR bit
// (bit != 0) or a memory byte.
type effInput struct {
	reg  int
	bit  uint8
	addr uint16
}

func (in effInput) String() string {
	switch {
	case in.reg >= 0:
		return effRegNames[in.reg]
	case in.bit != 0:
		return "CCR." + strings.Trim(ccrString(in.bit), "-")
	}
	return fmt.Sprintf("mem[%04X]", in.addr)
}

// perturb changes input in of s (a copy of it) to a different value.
func (env *effEnv) perturb(t *testing.T, s *State, in effInput) *State {
	n := s.Clone()
	th := &n.Threads[0]
	switch {
	case in.reg >= 0:
		v := effReg(&th.CPU, in.reg)
		if in.reg < 2 {
			v ^= uint16(env.nonzero8())
		} else {
			v ^= env.nonzero16()
		}
		effSetReg(&th.CPU, in.reg, v)
	case in.bit != 0:
		th.CCR ^= in.bit
	default:
		effSetMem(env.m, n, in.addr, env.m.ReadMem(n, in.addr)^env.nonzero8())
	}
	return n
}

// undeclared lists the inputs outside c's read set: every register, CCR bit
// and writable byte (the code aside) the table says is not read.
func (env *effEnv) undeclared(c *effCase) []effInput {
	e := c.o.e
	var ins []effInput
	for i := range effRegNames {
		if (e.RegsRead|e.AddrRegs)&(1<<i) == 0 {
			ins = append(ins, effInput{reg: i})
		}
	}
	for b := 0; b < 8; b++ {
		if e.CCRRead&(1<<b) == 0 {
			ins = append(ins, effInput{reg: -1, bit: 1 << b})
		}
	}
	for _, a := range env.addrs {
		if !c.isCode(a) && !c.reads[a] {
			ins = append(ins, effInput{reg: -1, addr: a})
		}
	}
	return ins
}

// effSeen accumulates, over the trials of one opcode, which declared
// outputs changed and which declared inputs mattered.
type effSeen struct {
	regsChanged, regsMattered, addrMattered isa.Regs
	ccrChanged, ccrMattered                 uint8
	memChanged, memMattered                 uint8  // per operand byte
	pushChanged, pullMattered               uint16 // per stack byte
	halted                                  bool
}

func TestEffectsAgainstSimulator(t *testing.T) {
	env := newEffEnv(t)
	ops := 0
	for _, p := range []isa.Page{isa.Page0, isa.Page18, isa.Page1A, isa.PageCD} {
		for op := 0; op < 256; op++ {
			info := isa.Lookup(p, byte(op))
			if !info.Defined() {
				continue
			}
			ops++
			o := &effOpcode{page: p, op: byte(op), info: info, e: isa.EffectsOf(p, byte(op))}
			var seen effSeen
			for trial := 0; trial < effTrials && !t.Failed(); trial++ {
				env.trial(t, env.newCase(t, o), &seen)
			}
			env.checkTight(t, o, &seen)
		}
	}
	if ops != isa.NumOpcodes {
		t.Errorf("tested %d opcodes, the tables define %d", ops, isa.NumOpcodes)
	}
}

// trial runs the checks on one starting state.
func (env *effEnv) trial(t *testing.T, c *effCase, seen *effSeen) {
	t.Helper()
	m, e := env.m, c.o.e
	base := env.step(c.s)
	if base.viol != nil {
		t.Fatalf("%v: %v\n  code % x from %s", c.o, base.viol, c.code, fmtCPU(c.s.Threads[0].CPU))
	}
	before, after := &c.s.Threads[0], &base.s.Threads[0]
	where := func() string {
		return fmt.Sprintf("%v, code % x, declared %v\n  before %s\n  after  %s",
			c.o, c.code, e, fmtCPU(before.CPU), fmtCPU(after.CPU))
	}

	// 1. Nothing outside the write set changes.
	for i, n := range effRegNames {
		changed := effReg(&before.CPU, i) != effReg(&after.CPU, i)
		if changed && e.RegsWritten&(1<<i) == 0 {
			t.Errorf("%s changed, not declared written: %s", n, where())
		}
		if changed {
			seen.regsChanged |= 1 << i
		}
	}
	if d := (before.CCR ^ after.CCR) &^ e.CCRWritten; d != 0 {
		t.Errorf("CCR bits %s changed, not declared written: %s", ccrString(d), where())
	}
	seen.ccrChanged |= before.CCR ^ after.CCR
	if before.Status != after.Status {
		if !e.Halt {
			t.Errorf("status %d -> %d, not declared Halt: %s", before.Status, after.Status, where())
		}
		seen.halted = true
	}
	if before.InitSP != after.InitSP || before.CS != after.CS {
		t.Errorf("InitSP or CS changed: %s", where())
	}
	for i, pa := range c.s.Pages {
		pb := base.s.Pages[i]
		if pa == pb || pa.Data == pb.Data {
			continue
		}
		for k := range pa.Data {
			if pa.Data[k] == pb.Data[k] {
				continue
			}
			a := env.pageBase[i] + uint16(k)
			if !c.writes[a] {
				t.Errorf("mem[%04X] %02X -> %02X, not declared written (ea %04X): %s", a, pa.Data[k], pb.Data[k], c.ea, where())
			}
			if off := a - c.ea; e.MemWritten && off < uint16(e.MemWidth) {
				seen.memChanged |= 1 << off
			}
			if off := before.SP - a; e.StackPush > 0 && off < uint16(e.StackPush) {
				seen.pushChanged |= 1 << off
			}
		}
	}

	// 2. Nothing outside the read set matters: change all of it at once,
	// twice, and compare the declared outputs. On a difference, find the
	// inputs that make it one at a time.
	und := env.undeclared(c)
	for k := 0; k < 2; k++ {
		s := c.s.Clone()
		th := &s.Threads[0]
		for _, in := range und {
			switch {
			case in.reg >= 0:
				effSetReg(&th.CPU, in.reg, effReg(&th.CPU, in.reg)^env.nonzero16())
			case in.bit != 0:
				th.CCR ^= in.bit & uint8(env.r.Uint32())
			default:
				effSetMem(m, s, in.addr, m.ReadMem(s, in.addr)^uint8(env.r.Uint32()))
			}
		}
		if d := env.diffOutputs(c, base, env.step(s)); d != "" {
			var culprits []string
			for _, in := range und {
				for try := 0; try < 8; try++ {
					if d1 := env.diffOutputs(c, base, env.step(env.perturb(t, c.s, in))); d1 != "" {
						culprits = append(culprits, fmt.Sprintf("%v (%s)", in, d1))
						break
					}
				}
			}
			t.Errorf("changing undeclared inputs changed outputs (%s); inputs that do it alone: %s\n  %s",
				d, strings.Join(culprits, "; "), where())
			return
		}
	}

	// Each declared input matters somewhere: perturb those not yet seen to.
	matters := func(in effInput) bool {
		return env.diffOutputs(c, base, env.step(env.perturb(t, c.s, in))) != ""
	}
	for i := range effRegNames {
		bit := isa.Regs(1 << i)
		if e.RegsRead&bit != 0 && seen.regsMattered&bit == 0 && matters(effInput{reg: i}) {
			seen.regsMattered |= bit
		}
		if e.AddrRegs&bit != 0 && seen.addrMattered&bit == 0 && matters(effInput{reg: i}) {
			seen.addrMattered |= bit
		}
	}
	for b := uint8(1); b != 0; b <<= 1 {
		if e.CCRRead&b != 0 && seen.ccrMattered&b == 0 && matters(effInput{reg: -1, bit: b}) {
			seen.ccrMattered |= b
		}
	}
	for k := uint16(0); e.MemRead && k < uint16(e.MemWidth); k++ {
		if seen.memMattered&(1<<k) == 0 && matters(effInput{reg: -1, addr: c.ea + k}) {
			seen.memMattered |= 1 << k
		}
	}
	for k := uint16(0); k < uint16(e.StackPull); k++ {
		if seen.pullMattered&(1<<k) == 0 && matters(effInput{reg: -1, addr: before.SP + 1 + k}) {
			seen.pullMattered |= 1 << k
		}
	}
}

// checkTight reports declared effects no trial needed: a written register,
// bit or byte that never changed, an input that never mattered.
func (env *effEnv) checkTight(t *testing.T, o *effOpcode, seen *effSeen) {
	t.Helper()
	if t.Failed() {
		return
	}
	e := o.e
	width := uint16(1<<e.MemWidth - 1)
	var never []string
	regs := func(what string, declared, got isa.Regs) {
		if d := declared &^ got; d != 0 {
			never = append(never, what+" "+d.String())
		}
	}
	bits := func(what string, declared, got uint8) {
		if d := declared &^ got; d != 0 {
			never = append(never, what+" "+ccrString(d))
		}
	}
	bytes := func(what string, declared, got uint16) {
		if d := declared &^ got; d != 0 {
			never = append(never, fmt.Sprintf("%s (offsets %b)", what, d))
		}
	}
	regs("written registers", e.RegsWritten, seen.regsChanged)
	regs("read registers", e.RegsRead, seen.regsMattered)
	regs("address registers", e.AddrRegs, seen.addrMattered)
	bits("written CCR bits", e.CCRWritten, seen.ccrChanged)
	bits("read CCR bits", e.CCRRead, seen.ccrMattered)
	if e.MemWritten {
		bytes("written operand bytes", width, uint16(seen.memChanged))
	}
	if e.MemRead {
		bytes("read operand bytes", width, uint16(seen.memMattered))
	}
	bytes("pushed bytes", 1<<e.StackPush-1, seen.pushChanged)
	bytes("pulled bytes", 1<<e.StackPull-1, seen.pullMattered)
	if e.Halt && !seen.halted {
		never = append(never, "halt")
	}
	if len(never) > 0 {
		t.Errorf("%v: declared but never seen in %d trials: %s (declared %v)", o, effTrials, strings.Join(never, ", "), e)
	}
}
