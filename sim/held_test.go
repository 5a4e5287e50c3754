package sim

import (
	"slices"
	"testing"

	"github.com/hc11mc/hc11mc/devices"
)

// Inputs held constant (held.go). The E9's register block is at 0x1000
// after reset: PORTA 0x1000, PORTB (output only) 0x1004, PORTC 0x1003,
// DDRC 0x1007, PORTE 0x100A, ADR1 0x1031.

// heldAddrs runs code for steps instructions and returns the addresses of
// the held inputs it read.
func heldAddrs(t *testing.T, m *Machine, steps uint64) []uint16 {
	t.Helper()
	if res := m.Run(m.Initial(), RunOptions{Steps: steps}); res.Violation != nil {
		t.Fatalf("run: %v", res.Violation)
	}
	var as []uint16
	for _, h := range m.HeldInputs() {
		as = append(as, h.Addr)
	}
	return as
}

// Without a device (a harness model): the register block is plain memory,
// and a read of one of its input registers that --input does not name is
// a held input; a read of RAM, or of an output register, is not.
func TestHeldHarnessModel(t *testing.T) {
	code := b(0xB6, 0x10, 0x0A, // ldaa PORTE
		0xB6, 0x10, 0x04, // ldaa PORTB: an output
		0x96, 0x40, // ldaa 0x40: RAM
		0xC6, 0x5A, 0xF7, 0x10, 0x00, // ldab #$5A; stab PORTA
		0xB6, 0x10, 0x00) // ldaa PORTA: reads back the 0x5A written
	m := testMachine(t, code, nil, nil, Config{})
	s := m.Initial()
	m.Run(s, RunOptions{Steps: 6})
	if s.Threads[0].A != 0x5A {
		t.Errorf("PORTA read 0x%02X, want the 0x5A written: the register block stays plain memory", s.Threads[0].A)
	}
	got := m.HeldInputs()
	want := []HeldInput{{Addr: 0x1000, Reg: 0x00}, {Addr: 0x100A, Reg: 0x0A}}
	if !slices.Equal(got, want) {
		t.Errorf("held %+v, want %+v", got, want)
	}

	// --input names PORTE: its reads choose among the values, not held.
	m = testMachine(t, code[:3], nil, nil, Config{Inputs: map[uint16][]uint8{0x100A: {1, 2}}})
	if got := heldAddrs(t, m, 1); len(got) != 0 {
		t.Errorf("with --input 0x100A: held %#x", got)
	}
	// Nothing read: nothing held.
	m = testMachine(t, b(0x96, 0x40, 0x01), nil, nil, Config{})
	if got := heldAddrs(t, m, 2); len(got) != 0 {
		t.Errorf("RAM only: held %#x", got)
	}
}

// With the E9's peripherals the device decides: PORTE and ADR1 without a
// domain are held, with one they are not; PORTC is held while a pin is an
// input and not once DDRC makes every pin an output.
func TestHeldDevice(t *testing.T) {
	code := b(0xB6, 0x10, 0x0A, // ldaa PORTE
		0xB6, 0x10, 0x31) // ldaa ADR1
	m := deviceMachine(t, code, nil, devices.Options{}, Config{})
	if got := heldAddrs(t, m, 2); !slices.Equal(got, []uint16{0x100A, 0x1031}) {
		t.Errorf("held %#x, want PORTE and ADR1", got)
	}
	if h := m.HeldInputs(); h[0].Reg != 0x0A || h[1].Reg != 0x31 || h[0].Value != 0 {
		t.Errorf("held %+v", h)
	}
	m = deviceMachine(t, code, nil, devices.Options{Inputs: map[int][]uint8{0x0A: nil, 0x31: {7}}}, Config{})
	if got := heldAddrs(t, m, 2); len(got) != 0 {
		t.Errorf("with domains for PORTE and ADR1: held %#x", got)
	}

	outC := b(0x86, 0xFF, 0xB7, 0x10, 0x07, // ldaa #$FF; staa DDRC: every pin an output
		0xB6, 0x10, 0x03) // ldaa PORTC: the latch
	m = deviceMachine(t, outC, nil, devices.Options{}, Config{})
	if got := heldAddrs(t, m, 3); len(got) != 0 {
		t.Errorf("PORTC with every pin an output: held %#x", got)
	}
	m = deviceMachine(t, outC[5:], nil, devices.Options{}, Config{})
	if got := heldAddrs(t, m, 1); !slices.Equal(got, []uint16{0x1003}) {
		t.Errorf("PORTC with its pins inputs: held %#x", got)
	}
}

// Board hardware without values reads 0: held; with values, not.
func TestHeldBoard(t *testing.T) {
	code := b(0xB6, 0x40, 0x01, // ldaa 0x4001
		0xB6, 0x50, 0x00) // ldaa 0x5000
	m := testMachine(t, code, nil, nil, Config{Board: []BoardRange{{Lo: 0x4000, Hi: 0x4001}, {Lo: 0x5000, Hi: 0x5000, Values: []uint8{1, 2}}}})
	s := m.Initial()
	for range 2 {
		s = only0(t, m, s)
	}
	if got := m.HeldInputs(); !slices.Equal(got, []HeldInput{{Addr: 0x4001, Reg: -1}}) {
		t.Errorf("held %+v, want 0x4001 alone", got)
	}
}

// only0 takes the successor with choice 0.
func only0(t *testing.T, m *Machine, s *State) *State {
	t.Helper()
	out, _ := successors(m, s)
	for _, o := range out {
		if o.Label.Choice == 0 && o.Violation == nil {
			return o.State
		}
	}
	t.Fatalf("no successor with choice 0: %s", describe(out))
	return nil
}

// Recording a held input allocates nothing, in a harness model and with a
// device.
func TestHeldStepAllocs(t *testing.T) {
	loop := b(0xB6, 0x10, 0x0A, 0x20, 0xFB) // loop: ldaa PORTE; bra loop
	for _, m := range []*Machine{testMachine(t, loop, nil, nil, Config{}), deviceMachine(t, loop, nil, devices.Options{}, Config{})} {
		s := m.Initial()
		x := stepper{m: m, s: s, t: &s.Threads[0], tid: 0, radix: 1, lay: m.layoutOf(s)}
		x.step()
		allocs := testing.AllocsPerRun(1000, func() {
			x.radix, x.choice = 1, 0
			if ev := x.step(); ev != evOK {
				t.Fatalf("event %d", ev)
			}
		})
		if allocs != 0 {
			t.Errorf("device %v: %v allocations per step", m.HasDevice(), allocs)
		}
		if len(m.HeldInputs()) != 1 {
			t.Errorf("device %v: held %+v", m.HasDevice(), m.HeldInputs())
		}
	}
}
