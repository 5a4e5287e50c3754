package sim

import (
	"strings"
	"testing"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// SWI and the illegal opcodes, from the M68HC11 Reference Manual: the
// illegal opcode trap's vector is at 0xFFF8, SWI's at 0xFFF6. Either
// stacks the nine-byte frame (PCL, PCH, IYL, IYH, IXL, IXH, A, B, CCR,
// from SP down), sets I and loads PC from its vector. The PC that SWI
// stacks is the next instruction's; the illegal opcode trap stacks the
// address of the illegal opcode itself.

func TestTrapVectorAddresses(t *testing.T) {
	if a := isa.VectorAddr(isa.VecSWI); a != 0xFFF6 {
		t.Errorf("SWI vector at 0x%04X, the manual says 0xFFF6", a)
	}
	if a := isa.VectorAddr(isa.VecIllegal); a != 0xFFF8 {
		t.Errorf("illegal opcode trap vector at 0x%04X, the manual says 0xFFF8", a)
	}
}

// illegalOpcodes are an undefined opcode of page 1, TEST (illegal outside
// the test modes) and undefined opcodes of the prefixed pages.
var illegalOpcodes = [][]byte{b(0x41), b(0x00), b(0x18, 0x00), b(0x1A, 0x8C), b(0xCD, 0xA4)}

// trapProg is lds #$1ff; ldab #$99; then bad at 0xD005, and bra . at the
// handler, 0xD010.
func trapProg(bad []byte) []byte {
	return at(0x20, 0, cat(insLDS, b(0xC6, 0x99), bad), 0x10, insBRA)
}

// An illegal opcode is an illegal-opcode violation whether or not the
// firmware programs the trap's vector; the violation leaves the thread
// where it was.
func TestIllegalOpcodeIsAViolation(t *testing.T) {
	for _, bad := range illegalOpcodes {
		for _, vec := range []map[uint16][]byte{nil, {0xFFF8: {0xD0, 0x10}}} {
			m := testMachine(t, trapProg(bad), vec, nil, Config{})
			if m.TrapsIllegal() {
				t.Errorf("% x: the machine traps without IgnoreIllegal", bad)
			}
			s := m.Initial()
			res := m.Run(s, RunOptions{Steps: 3})
			v := res.Violation
			if v == nil || v.Kind != KindIllegal || v.PC != 0xD005 {
				t.Errorf("% x, vector %v: %v, want illegal-opcode at 0xD005", bad, vec != nil, v)
				continue
			}
			if th := s.Threads[0]; th.PC != 0xD005 || th.SP != 0x01FF {
				t.Errorf("% x: the violation moved the thread: %s", bad, fmtCPU(th.CPU))
			}
			want := "no illegal-opcode vector is programmed at 0xFFF8"
			if vec != nil {
				want = "the illegal-opcode vector at 0xFFF8 goes to 0xD010"
			}
			if !strings.Contains(v.Message, want) {
				t.Errorf("% x: message %q does not say %q", bad, v.Message, want)
			}
			// The same through Successors: the transition carries it.
			st := advance(t, m, m.Initial(), 2)
			out, _ := successors(m, st)
			if len(out) != 1 || out[0].Violation == nil || out[0].Violation.Kind != KindIllegal {
				t.Errorf("% x: successors %s", bad, describe(out))
			}
		}
	}
}

// With IgnoreIllegal the execution goes on through the programmed vector,
// as the hardware's does: the frame holds the illegal opcode's address.
func TestIllegalOpcodeTrapsWhenIgnored(t *testing.T) {
	for _, bad := range illegalOpcodes {
		m := testMachine(t, trapProg(bad), map[uint16][]byte{0xFFF8: {0xD0, 0x10}}, nil, Config{IgnoreIllegal: true})
		if !m.TrapsIllegal() {
			t.Fatalf("% x: IgnoreIllegal with a programmed vector does not trap", bad)
		}
		s := m.Initial()
		res := m.Run(s, RunOptions{Steps: 3})
		th := s.Threads[0]
		if res.Violation != nil || th.PC != 0xD010 || th.SP != 0x01F6 || th.CCR&cI == 0 {
			t.Errorf("% x: %v %s; want the handler at 0xD010, SP 0x01F6, I set", bad, res.Violation, fmtCPU(th.CPU))
		}
		before := m.Initial()
		m.Run(before, RunOptions{Steps: 2})
		frame := []mb{{0x01FF, 0x05}, {0x01FE, 0xD0}, {0x01F9, 0x00}, {0x01F8, 0x99}, {0x01F7, before.Threads[0].CCR}}
		for _, w := range frame {
			if g := peek(m, s, w.a); g != w.v {
				t.Errorf("% x: frame byte 0x%04X is %02X, want %02X", bad, w.a, g, w.v)
			}
		}
		// Through Successors, and replayed: the trap is an ordinary
		// transition.
		st := advance(t, m, m.Initial(), 2)
		out, _ := successors(m, st)
		if len(out) != 1 || out[0].Violation != nil || out[0].State.Threads[0].PC != 0xD010 {
			t.Fatalf("% x: successors %s", bad, describe(out))
		}
		ns, v, ok := m.Replay(st, out[0].Label)
		if !ok || v != nil || !ns.Equal(out[0].State) {
			t.Errorf("% x: replay of the trap: ok %v, %v", bad, ok, v)
		}
	}
}

// unprogrammed are vector contents the image does not program, with what
// the message says about each.
var unprogrammed = []struct {
	bytes []byte // nil: the image does not load the vector
	why   string
}{
	{nil, "the image does not load it"},
	{b(0x00, 0x00), "it holds 0x0000"},
	{b(0xFF, 0xFF), "it holds 0xFFFF, erased"},
	{b(0xE0, 0x00), "it points at 0xE000, where the image loads nothing"},
}

// With IgnoreIllegal but no programmed vector, the path ends at the
// violation: there is nothing for the execution to go on through.
func TestIllegalOpcodeUnprogrammedVector(t *testing.T) {
	for _, u := range unprogrammed {
		var vec map[uint16][]byte
		if u.bytes != nil {
			vec = map[uint16][]byte{0xFFF8: u.bytes}
		}
		m := testMachine(t, trapProg(b(0x41)), vec, nil, Config{IgnoreIllegal: true})
		if m.TrapsIllegal() || m.VectorProgrammed(isa.VecIllegal) {
			t.Errorf("vector % x: taken as programmed", u.bytes)
		}
		res := m.Run(m.Initial(), RunOptions{Steps: 3})
		if v := res.Violation; v == nil || v.Kind != KindIllegal || !strings.Contains(v.Message, u.why) {
			t.Errorf("vector % x: %v, want illegal-opcode saying %q", u.bytes, v, u.why)
		}
	}
}

// SWI goes through a programmed vector, and RTI returns after it; through
// an unprogrammed one it is an illegal-opcode violation, under
// IgnoreIllegal too.
func TestSWIVector(t *testing.T) {
	// lds; ldaa #$42; swi; inca; bra .; the handler at 0xD010: clra; rti.
	code := at(0x20, 0, cat(insLDS, b(0x86, 0x42), b(0x3F), b(0x4C), insBRA), 0x10, b(0x4F, 0x3B))
	m := testMachine(t, code, map[uint16][]byte{0xFFF6: {0xD0, 0x10}}, nil, Config{})
	s := m.Initial()
	if res := m.Run(s, RunOptions{Steps: 3}); res.Violation != nil {
		t.Fatalf("swi through a programmed vector: %v", res.Violation)
	}
	if th := s.Threads[0]; th.PC != 0xD010 || th.CCR&cI == 0 || th.SP != 0x01F6 {
		t.Errorf("after SWI %s", fmtCPU(th.CPU))
	}
	if peek(m, s, 0x01FE) != 0xD0 || peek(m, s, 0x01FF) != 0x06 || peek(m, s, 0x01F9) != 0x42 {
		t.Errorf("SWI frame: PC %02X%02X A %02X, want D006 (the next instruction) and 42",
			peek(m, s, 0x01FE), peek(m, s, 0x01FF), peek(m, s, 0x01F9))
	}
	m.Run(s, RunOptions{Steps: 3}) // clra; rti; inca
	if th := s.Threads[0]; th.PC != 0xD007 || th.A != 0x43 || th.SP != 0x01FF {
		t.Errorf("after RTI %s (A is restored from the frame)", fmtCPU(th.CPU))
	}

	for _, u := range unprogrammed {
		for _, ignore := range []bool{false, true} {
			vec := map[uint16][]byte{0xFFF8: {0xD0, 0x10}} // the illegal-opcode trap is no way out
			if u.bytes != nil {
				vec[0xFFF6] = u.bytes
			}
			m := testMachine(t, code, vec, nil, Config{IgnoreIllegal: ignore})
			s := m.Initial()
			res := m.Run(s, RunOptions{Steps: 3})
			v := res.Violation
			if v == nil || v.Kind != KindIllegal || v.PC != 0xD005 || !strings.Contains(v.Message, u.why) {
				t.Errorf("SWI vector % x, ignore %v: %v, want illegal-opcode at 0xD005 saying %q", u.bytes, ignore, v, u.why)
				continue
			}
			if th := s.Threads[0]; th.SP != 0x01FF || th.CCR&cI == 0 && th.PC >= 0xD010 {
				t.Errorf("SWI vector % x: the violation stacked a frame or jumped: %s", u.bytes, fmtCPU(th.CPU))
			}
		}
	}
}

// A vector into RAM (a monitor's pseudo-vector) is programmed once the
// firmware writes its target: SWI and, under IgnoreIllegal, the illegal
// opcode go through it then, and are faults that say so before.
func TestRAMPseudoVector(t *testing.T) {
	// lds #$01FF; [ldaa #$7E; staa $00F4; ldd #$D010; std $00F5;] swi; bra .
	// The handler at 0xD010: ldab #$55; bra .
	write := b(0x86, 0x7E, 0x97, 0xF4, 0xCC, 0xD0, 0x10, 0xDD, 0xF5)
	for _, trap := range []struct {
		name string
		op   []byte
		vec  uint16
		cfg  Config
		why  string
	}{
		{"swi", b(0x3F), 0xFFF6, Config{}, "swi through the SWI vector at 0xFFF6, which is not programmed: it points at 0x00F4 in RAM, which the firmware has not written"},
		{"illegal", b(0x41), 0xFFF8, Config{IgnoreIllegal: true}, "it points at 0x00F4 in RAM, which the firmware has not written"},
	} {
		for _, written := range []bool{true, false} {
			body := cat(insLDS)
			if written {
				body = cat(body, write)
			}
			code := at(0x20, 0, cat(body, trap.op, insBRA), 0x10, b(0xC6, 0x55, 0x20, 0xFE))
			m := testMachine(t, code, map[uint16][]byte{trap.vec: {0x00, 0xF4}}, nil, trap.cfg)
			s := m.Initial()
			res := m.Run(s, RunOptions{Steps: 8})
			if !written {
				if v := res.Violation; v == nil || v.Kind != KindIllegal || !strings.Contains(v.Message, trap.why) {
					t.Errorf("%s through an unwritten pseudo-vector: %v, want illegal-opcode saying %q", trap.name, v, trap.why)
				}
				continue
			}
			if res.Violation != nil {
				t.Errorf("%s through a written pseudo-vector: %v", trap.name, res.Violation)
				continue
			}
			if th := s.Threads[0]; th.B != 0x55 || th.PC < 0xD010 || th.PC > 0xD014 {
				t.Errorf("%s through a written pseudo-vector did not reach the handler: %s", trap.name, fmtCPU(th.CPU))
			}
		}
	}
}
