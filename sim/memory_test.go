package sim

import (
	"fmt"
	"testing"
)

// Memory properties (DESIGN.md, "Properties" and "Memory map"): rom-write,
// unmapped, stack, and the --input registers.

func runOne(t *testing.T, m *Machine, s *State, steps uint64) RunResult {
	t.Helper()
	return m.Run(s, RunOptions{Steps: steps})
}

func TestROMWrite(t *testing.T) {
	cases := []struct {
		name string
		code []byte
		addr uint16
	}{
		{"staa ext", b(0xB7, 0xD5, 0x00), 0xD500},
		{"std ext", b(0xFD, 0xE0, 0x00), 0xE000},
		{"clr ext", b(0x7F, 0xD0, 0x00), 0xD000}, // its own code
		{"inc ext", b(0x7C, 0xFF, 0xFE), 0xFFFE}, // the reset vector
		{"eeprom", b(0xB7, 0xB6, 0x00), 0xB600},
		{"bset idx", b(0x1C, 0x00, 0x01), 0xD100}, // X = 0xD100
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := testMachine(t, c.code, map[uint16][]byte{0xD100: {0x5A}, 0xD500: {0xA5}, 0xE000: {1, 2}, 0xB600: {0x77}}, nil, Config{})
			s := m.Initial()
			s.Threads[0].X = 0xD100
			s.Threads[0].A = 0x42
			before := peek(m, s, c.addr)
			res := runOne(t, m, s, 1)
			v := res.Violation
			if v == nil || v.Kind != KindROMWrite || v.PC != org || v.Addr != c.addr || v.Thread != 0 {
				t.Fatalf("violation %+v, want rom-write at 0x%04X by the instruction at D000", v, c.addr)
			}
			if v.Kind.String() != "rom-write" {
				t.Errorf("kind name %q", v.Kind)
			}
			if after := peek(m, s, c.addr); after != before {
				t.Errorf("ROM changed: %02X -> %02X", before, after)
			}
		})
	}
	// The same through Successors.
	m := testMachine(t, b(0xB7, 0xD5, 0x00), nil, nil, Config{})
	out, _ := successors(m, m.Initial())
	if len(out) != 1 || out[0].Violation == nil || out[0].Violation.Kind != KindROMWrite {
		t.Errorf("successors: %s", describe(out))
	}
}

func TestUnmapped(t *testing.T) {
	loads := []struct {
		name string
		code []byte
		addr uint16
	}{
		{"ldaa ext", b(0xB6, 0x40, 0x00), 0x4000},
		{"ldd ext", b(0xFC, 0x80, 0x00), 0x8000},
		{"ldd straddling", b(0xFC, 0x01, 0xFF), 0x0200}, // 0x01FF is RAM, 0x0200 is not
		{"staa ext", b(0xB7, 0x40, 0x00), 0x4000},
		{"ldaa idx", b(0xA6, 0x00), 0x2000}, // X = 0x2000
		{"tst ext", b(0x7D, 0x30, 0x00), 0x3000},
	}
	for _, c := range loads {
		t.Run(c.name, func(t *testing.T) {
			m := cachedMachine(t, c.code, nil, Config{})
			s := m.Initial()
			s.Threads[0].X = 0x2000
			res := runOne(t, m, s, 1)
			v := res.Violation
			if v == nil || v.Kind != KindUnmapped || v.PC != org || v.Addr != c.addr {
				t.Errorf("violation %+v, want unmapped at 0x%04X", v, c.addr)
			}
		})
	}
	// Execution at an unmapped address.
	m := cachedMachine(t, b(0x7E, 0x40, 0x00), nil, Config{}) // jmp 0x4000
	s := m.Initial()
	if res := runOne(t, m, s, 1); res.Violation != nil || s.Threads[0].PC != 0x4000 {
		t.Fatalf("jmp: %v", res.Violation)
	}
	res := runOne(t, m, s, 1)
	if v := res.Violation; v == nil || v.Kind != KindUnmapped || v.PC != 0x4000 {
		t.Errorf("execution at 0x4000: %+v", v)
	}
	out, _ := successors(m, s)
	if len(out) != 1 || out[0].Violation == nil || out[0].Violation.Kind != KindUnmapped {
		t.Errorf("successors at 0x4000: %s", describe(out))
	}

	// Memory the image does not load reads as 0 (inside the map).
	m = cachedMachine(t, b(0xB6, 0xE0, 0x00), nil, Config{})
	s = m.Initial()
	s.Threads[0].A = 0x55
	if res := runOne(t, m, s, 1); res.Violation != nil || s.Threads[0].A != 0 || s.Threads[0].CCR&cZ == 0 {
		t.Errorf("unloaded ROM byte: %v A=%02X", res.Violation, s.Threads[0].A)
	}
	// I/O registers read back what was written.
	m = cachedMachine(t, b(0x86, 0x5A, 0xB7, 0x10, 0x20, 0x4F, 0xB6, 0x10, 0x20), nil, Config{})
	s = m.Initial()
	if res := runOne(t, m, s, 4); res.Violation != nil || s.Threads[0].A != 0x5A {
		t.Errorf("I/O register: %v A=%02X", res.Violation, s.Threads[0].A)
	}
}

func TestStackRange(t *testing.T) {
	all := []StackRange{{Thread: -1, Lo: 0x0100, Hi: 0x01FF}}
	low := []StackRange{{Thread: -1, Lo: 0x0100, Hi: 0x01EF}}
	cases := []struct {
		name   string
		code   []byte
		sp     uint16
		ranges []StackRange
		viol   bool
	}{
		{"push within", b(0x36), 0x0101, all, false},
		{"push to the last byte", b(0x36), 0x0100, all, false}, // SP ends at Lo - 1: the stack is full
		{"push below", b(0x36), 0x00FF, all, true},
		{"pshx below", b(0x3C), 0x0100, all, true},
		{"pull above", b(0x32), 0x01EF, low, true},
		{"pull to the top", b(0x32), 0x01EE, low, false},
		{"jsr below", b(0xBD, 0xD0, 0x00), 0x0100, all, true},
		{"lds outside", b(0x8E, 0x00, 0x10), 0x01FF, all, true},
		{"txs outside", b(0x35), 0x01FF, all, true}, // X = 0
		{"other thread's range", b(0x36), 0x00FF, []StackRange{{Thread: 1, Lo: 0x0100, Hi: 0x01FF}}, false},
		{"own thread's range", b(0x36), 0x00FF, []StackRange{{Thread: 0, Lo: 0x0100, Hi: 0x01FF}}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := testMachine(t, c.code, nil, nil, Config{Stacks: c.ranges})
			s := m.Initial()
			s.Threads[0].SP = c.sp
			res := runOne(t, m, s, 1)
			v := res.Violation
			switch {
			case c.viol && (v == nil || v.Kind != KindStack || v.PC != org):
				t.Errorf("want a stack violation at D000, got %+v (SP=%04X)", v, s.Threads[0].SP)
			case !c.viol && v != nil:
				t.Errorf("unexpected %v", v)
			}
		})
	}
}

func TestInputs(t *testing.T) {
	// ldaa 0x1003; staa *0x40; bra .
	code := b(0xB6, 0x10, 0x03, 0x97, 0x40, 0x20, 0xFE)
	m := testMachine(t, code, nil, nil, Config{Inputs: map[uint16][]uint8{0x1003: {5, 9, 0x80}}})
	out, _ := successors(m, m.Initial())
	if len(out) != 3 {
		t.Fatalf("%d successors, want one per input value", len(out))
	}
	got := map[uint8]uint8{}
	for _, o := range out {
		th := o.State.Threads[0]
		got[th.A] = th.CCR & (cN | cZ)
	}
	want := map[uint8]uint8{5: 0, 9: 0, 0x80: cN}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("values %v, want %v", got, want)
	}
	// All 256 values by default.
	m = testMachine(t, code, nil, nil, Config{Inputs: map[uint16][]uint8{0x1003: nil}})
	if out, _ := successors(m, m.Initial()); len(out) != 256 {
		t.Errorf("%d successors, want 256", len(out))
	}
	// A 16-bit read of two input registers: every pair.
	code2 := b(0xFC, 0x10, 0x03, 0x20, 0xFE) // ldd 0x1003
	m = testMachine(t, code2, nil, nil, Config{Inputs: map[uint16][]uint8{0x1003: {1, 2}, 0x1004: {3, 4, 5}}})
	out, _ = successors(m, m.Initial())
	pairs := map[uint16]bool{}
	for _, o := range out {
		pairs[o.State.Threads[0].D()] = true
	}
	if len(out) != 6 || len(pairs) != 6 {
		t.Errorf("ldd of two inputs: %d successors, %d distinct values", len(out), len(pairs))
	}
	// An input outside writable memory is refused.
	if _, err := NewMachine(testImage(t, code, nil, nil), Config{Inputs: map[uint16][]uint8{0x4000: nil}}); err == nil {
		t.Error("input at an unmapped address accepted")
	}
}

// TestRunManyInputReads: a plain run that reads an input register many
// times back to back (every value possible) must not fail.
func TestRunManyInputReads(t *testing.T) {
	code := b(0xB6, 0x10, 0x03, 0x20, 0xFB) // loop: ldaa 0x1003; bra loop
	m := testMachine(t, code, nil, nil, Config{Inputs: map[uint16][]uint8{0x1003: nil}})
	s := m.Initial()
	var res RunResult
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("Run panicked after reading the input register repeatedly: %v", r)
			}
		}()
		res = m.Run(s, RunOptions{Steps: 100})
	}()
	if res.Violation != nil {
		t.Errorf("violation %v", res.Violation)
	}
}

// TestStackRangeInterrupt: the interrupt's stacking moves SP out of the
// stack range; that is a stack violation even when the handler returns at
// once.
func TestStackRangeInterrupt(t *testing.T) {
	code := cat(insLDS, b(0x0E), insBRA)
	m := testMachine(t, code, map[uint16][]byte{0xFFE8: {0xD1, 0x00}, 0xD100: b(0x3B)}, nil,
		Config{IRQs: []string{"toc1"}, Stacks: []StackRange{{Thread: -1, Lo: 0x01F8, Hi: 0x01FF}}})
	found := false
	bfs(t, m, m.Initial(), 100, func(p *State, out []Successor, dl *Violation) {
		for _, o := range out {
			if o.Violation != nil && o.Violation.Kind == KindStack {
				found = true
			}
		}
	})
	if !found {
		t.Error("the interrupt frame below the stack range (SP = 0x01F6 < 0x01F7) is not reported")
	}
}

// TestImageBytesOutsideMap: bytes the image loads outside the chip's map
// are read-only memory (DESIGN.md: every byte the image loads outside RAM
// is read-only).
func TestImageBytesOutsideMap(t *testing.T) {
	code := b(0xB6, 0x40, 0x00, 0xB7, 0x40, 0x00, 0xB6, 0x40, 0x01) // ldaa 0x4000; staa 0x4000; ldaa 0x4001
	m := testMachine(t, code, map[uint16][]byte{0x4000: {0x12}}, nil, Config{})
	s := m.Initial()
	if res := runOne(t, m, s, 1); res.Violation != nil || s.Threads[0].A != 0x12 {
		t.Errorf("load of an image byte at 0x4000: %v A=%02X", res.Violation, s.Threads[0].A)
	}
	if res := runOne(t, m, s, 1); res.Violation == nil || res.Violation.Kind != KindROMWrite {
		t.Errorf("store to an image byte at 0x4000: %v", res.Violation)
	}
	s = m.Initial()
	s.Threads[0].PC = 0xD006
	if res := runOne(t, m, s, 1); res.Violation == nil || res.Violation.Kind != KindUnmapped {
		t.Errorf("load of 0x4001, next to it: %v", res.Violation)
	}
}
