package symbolic

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// The symbolic engine against the concrete simulator on random programs:
// every instruction but those that leave the program (jumps, calls,
// returns, traps, WAI, STOP), with forward branches. Each program runs
// twice on the engine: with concrete data forced through the terms (the
// results must be the simulator's exactly), and with the registers and
// RAM symbolic, following the path a random assignment takes (every term
// must evaluate, under the assignment, to the simulator's value).

// srec builds Motorola S-records for the given chunks.
func srec(chunks map[uint16][]byte) []byte {
	var b strings.Builder
	rec := func(typ byte, addr uint16, data []byte) {
		n := len(data) + 3
		sum := n + int(addr>>8) + int(addr&0xff)
		fmt.Fprintf(&b, "S%c%02X%04X", typ, n, addr)
		for _, d := range data {
			fmt.Fprintf(&b, "%02X", d)
			sum += int(d)
		}
		fmt.Fprintf(&b, "%02X\n", ^sum&0xff)
	}
	for addr, data := range chunks {
		for i := 0; i < len(data); i += 16 {
			rec('1', addr+uint16(i), data[i:min(i+16, len(data))])
		}
	}
	rec('9', 0, nil)
	return []byte(b.String())
}

// codeMachine loads code at 0xD000 (the reset vector) on the E9 map.
func codeMachine(t testing.TB, code []byte, cfg sim.Config, syms map[string]uint16) *sim.Machine {
	t.Helper()
	img, err := loader.LoadBytes("test.s19", srec(map[uint16][]byte{0xD000: code, 0xFFFE: {0xD0, 0x00}}), loader.Options{Hooks: syms})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Entry = img.Entry
	m, err := sim.NewMachine(img, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// opcode is one instruction form the generator uses.
type opcode struct {
	prefix []byte
	op     byte
	in     isa.Inst
}

var opcodes = func() []opcode {
	var l []opcode
	for _, pre := range [][]byte{nil, {0x18}, {0x1a}, {0xcd}} {
		for op := 0; op < 256; op++ {
			b := append(append([]byte(nil), pre...), byte(op), 0, 0, 0, 0)
			in, err := isa.Decode(b)
			if err != nil || (len(pre) == 0 && (op == 0x18 || op == 0x1a || op == 0xcd)) {
				continue
			}
			switch in.Op {
			case isa.JMP, isa.JSR, isa.BSR, isa.RTS, isa.RTI, isa.SWI, isa.WAI, isa.STOP, isa.TEST:
				continue
			}
			l = append(l, opcode{pre, byte(op), in})
		}
	}
	return l
}()

// program makes n random instructions from r, after a prologue that puts
// SP, X and Y in RAM.
func program(r *rand.Rand, n int) []byte {
	code := []byte{0x8e, 0x01, 0xf0, 0xce, 0x00, 0x40, 0x18, 0xce, 0x00, 0x80} // lds #$1f0; ldx #$40; ldy #$80
	for range n {
		o := opcodes[r.IntN(len(opcodes))]
		code = append(code, o.prefix...)
		code = append(code, o.op)
		ram16 := func() []byte { return []byte{byte(r.IntN(2)), byte(r.Uint32())} }
		switch o.in.Mode {
		case isa.Imm8:
			code = append(code, byte(r.Uint32()))
		case isa.Imm16:
			switch o.in.Op {
			case isa.LDS:
				code = append(code, 0x01, byte(0x20+r.IntN(0xd0)))
			case isa.LDX, isa.LDY:
				code = append(code, 0x00, byte(r.Uint32()))
			default:
				code = append(code, byte(r.Uint32()), byte(r.Uint32()))
			}
		case isa.Dir:
			code = append(code, byte(r.Uint32()))
		case isa.Ext:
			code = append(code, ram16()...)
		case isa.IdxX, isa.IdxY:
			code = append(code, byte(r.IntN(0x80)))
		case isa.Rel:
			code = append(code, byte(r.IntN(4)))
		case isa.BitDir, isa.BitIdxX, isa.BitIdxY:
			code = append(code, byte(r.IntN(0x80)), byte(1+r.IntN(255)))
		case isa.BrDir, isa.BrIdxX, isa.BrIdxY:
			code = append(code, byte(r.IntN(0x80)), byte(1+r.IntN(255)), byte(r.IntN(4)))
		}
	}
	return code
}

// equivalent runs code on the simulator and on the engine, symbolic or
// with concrete data forced through the terms, for at most steps steps,
// and reports the first difference.
func equivalent(t testing.TB, code []byte, r *rand.Rand, symbolic bool, steps int) {
	equivalentOn(t, codeMachine(t, code, sim.Config{}, nil), r, symbolic, steps)
}

// equivalentOn is equivalent on a machine whose code starts with the
// prologue.
func equivalentOn(t testing.TB, m *sim.Machine, r *rand.Rand, symbolic bool, steps int) {
	e, err := NewEngine(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.forceData = !symbolic
	e.witness = Model{}
	cs := m.Initial()
	st := e.Initial()
	// The prologue, concretely on both.
	for range 3 {
		var ok bool
		cs, _, ok = m.Replay(cs, sim.Label{Thread: 0, IRQ: -1, Steps: 1})
		outs, err := e.step(st, 0)
		if !ok || err != nil || len(outs) != 1 {
			t.Fatalf("prologue: %v %v", ok, err)
		}
		st = outs[0].st
	}
	if symbolic {
		// Registers and RAM become variables; the simulator gets their
		// values.
		var env Model
		v := func(w uint8) *term.Term {
			x := e.B.Var(fmt.Sprintf("v%d", len(env)), w)
			env = append(env, r.Uint64()&(1<<w-1))
			return x
		}
		th, rg := &st.S.Threads[0], &st.Regs[0]
		ct := &cs.Threads[0]
		// X and Y are bytes zero-extended, so that reads through them stay
		// in RAM (and go through the array reads of array.go).
		rg.A, rg.B, rg.X, rg.Y = v(8), v(8), e.B.ZeroExt(v(8), 16), e.B.ZeroExt(v(8), 16)
		th.A, th.B, th.X, th.Y = 0, 0, 0, 0
		ct.A, ct.B = uint8(env[0]), uint8(env[1])
		ct.X, ct.Y = uint16(env[2]), uint16(env[3])
		for b := 0; b < 8; b++ {
			if b == 4 || b == 6 || b == 7 {
				continue // I, X, S: the simulator's reset values
			}
			rg.CCR[b] = v(1)
			th.CCR &^= 1 << b
			ct.CCR = ct.CCR&^(1<<b) | uint8(env[len(env)-1])<<b
		}
		for a := uint16(0); a < 0x200; a++ {
			if r.IntN(2) == 0 {
				continue
			}
			st.Mem[a] = v(8)
			m.WriteMem(st.S, a, 0)
			m.WriteMem(cs, a, uint8(env[len(env)-1]))
		}
		e.witness = env
	}
	val8 := func(tm *term.Term, c uint8) uint8 {
		if tm == nil {
			return c
		}
		return uint8(e.B.Eval(tm, e.witness))
	}
	for n := 0; n < steps; n++ {
		pc := cs.Threads[0].PC
		if cs.Threads[0].Status != sim.Running {
			return // a stray RTS, WAI or STOP (a branch into an operand)
		}
		ns, cv, ok := m.Replay(cs, sim.Label{Thread: 0, IRQ: -1, Steps: 1})
		outs, err := e.step(st, 0)
		if errors.Is(err, ErrUnsupported) {
			return // code in symbolic memory
		}
		if err != nil {
			t.Fatalf("step %d at %04X: %v", n, pc, err)
		}
		if len(outs) != 1 {
			t.Fatalf("step %d at %04X: %d outcomes under one assignment", n, pc, len(outs))
		}
		o := outs[0]
		if !ok {
			dis, _ := m.Disasm(cs, pc)
			t.Fatalf("step %d at %04X (%s): the simulator does not step (status %d)", n, pc, dis, cs.Threads[0].Status)
		}
		if cv != nil || o.kind == outViolation {
			if cv == nil || o.kind != outViolation || cv.Kind != o.viol.Kind || cv.PC != o.viol.PC {
				t.Fatalf("step %d at %04X: simulator %v, engine %v %v", n, pc, cv, o.kind, o.viol)
			}
			return
		}
		cs, st = ns, o.st
		ct, th, rg := &cs.Threads[0], &st.S.Threads[0], &st.Regs[0]
		dis, _ := m.Disasm(cs, pc)
		get := func(tm *term.Term, c uint16) uint16 {
			if tm == nil {
				return c
			}
			return uint16(e.B.Eval(tm, e.witness))
		}
		ccr := th.CCR
		for b := 0; b < 8; b++ {
			if rg.CCR[b] != nil {
				ccr = ccr&^(1<<b) | uint8(e.B.Eval(rg.CCR[b], e.witness))<<b
			}
		}
		if got, want := [7]uint16{uint16(val8(rg.A, th.A)), uint16(val8(rg.B, th.B)), get(rg.X, th.X), get(rg.Y, th.Y), th.SP, th.PC, uint16(ccr)},
			[7]uint16{uint16(ct.A), uint16(ct.B), ct.X, ct.Y, ct.SP, ct.PC, uint16(ct.CCR)}; got != want {
			t.Fatalf("step %d at %04X (%s): engine A B X Y SP PC CCR = %04x, simulator %04x", n, pc, dis, got, want)
		}
		for a := uint16(0); a < 0x200; a++ {
			if g, w := val8(st.Mem[a], m.ReadMem(st.S, a)), m.ReadMem(cs, a); g != w {
				t.Fatalf("step %d at %04X (%s): memory %04X is %02x, simulator %02x", n, pc, dis, a, g, w)
			}
		}
	}
}

func TestEquivalenceConcrete(t *testing.T) {
	for k := range 300 {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, uint64(k)))
			equivalent(t, program(r, 40), r, false, 200)
		})
	}
}

func TestEquivalenceSymbolic(t *testing.T) {
	for k := range 300 {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			r := rand.New(rand.NewPCG(13, uint64(k)))
			equivalent(t, program(r, 40), r, true, 200)
		})
	}
}

// FuzzEquivalence runs the programs a fuzzer makes from its seed both
// ways.
func FuzzEquivalence(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(3), uint64(99))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		r := rand.New(rand.NewPCG(a, b))
		code := program(r, 30)
		equivalent(t, code, r, false, 100)
		equivalent(t, code, r, true, 100)
	})
}

// TestEquivalenceFrames: SWI and the illegal-opcode trap (taken when the
// property is ignored) stack the registers, symbolic ones included, and
// RTI takes them back, as the simulator does; where the property is not
// ignored, both engines stop at the illegal opcode with the violation.
func TestEquivalenceFrames(t *testing.T) {
	code := []byte{
		0x8e, 0x01, 0xf0, 0xce, 0x00, 0x40, 0x18, 0xce, 0x00, 0x80, // the prologue
		0x3f,       // swi
		0x00,       // test: the illegal-opcode trap
		0x20, 0xfe, // bra .
	}
	chunks := map[uint16][]byte{
		0xd000: code,
		0xd020: {0x4c, 0x08, 0x3b},       // swi handler: inca; inx; rti
		0xd030: {0x5c, 0x18, 0x08, 0x3b}, // trap handler: incb; iny; rti
		0xfff6: {0xd0, 0x20, 0xd0, 0x30},
		0xfffe: {0xd0, 0x00},
	}
	img, err := loader.LoadBytes("frames.s19", srec(chunks), loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ignore := range []bool{true, false} {
		m, err := sim.NewMachine(img, sim.Config{Entry: img.Entry, IgnoreIllegal: ignore})
		if err != nil {
			t.Fatal(err)
		}
		for k := range 20 {
			r := rand.New(rand.NewPCG(17, uint64(k)))
			equivalentOn(t, m, r, k%2 == 1, 40)
		}
		// The engine's own steps — the prologue, swi, the handler's three,
		// test — end in the trap's handler, or at the violation at the
		// TEST (0xD00B).
		e, err := NewEngine(m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		st := e.Initial()
		var last outcome
		for n := 0; n < 8 && last.kind == outOK; n++ {
			outs, err := e.step(st, 0)
			if err != nil || len(outs) != 1 {
				t.Fatalf("ignore %v, step %d: %v, %d outcomes", ignore, n, err, len(outs))
			}
			last, st = outs[0], outs[0].st
		}
		switch {
		case ignore && (last.kind != outOK || st.S.Threads[0].PC != 0xd030):
			t.Errorf("ignored: the trap did not reach its handler: kind %d, PC %04X", last.kind, st.S.Threads[0].PC)
		case !ignore && (last.kind != outViolation || last.viol.Kind != sim.KindIllegal || last.viol.PC != 0xd00b):
			t.Errorf("not ignored: kind %d, %v; want the illegal-opcode violation at 0xD00B", last.kind, last.viol)
		}
	}
}
