package sim

import "testing"

// The rule of Placeholders, instruction by instruction: the expected
// values are the Reference Manual's semantics of each instruction on the
// stand-in (LDAA loads it, BRSET branches where every mask bit is set in
// it, PULA loads the byte above SP).

// stepOnce runs thread 0's next instruction of s under ph.
func stepOnce(t *testing.T, m *Machine, s *State, ph *Placeholders) *State {
	t.Helper()
	ns, v, ok, _ := m.ReplayStep(s, 0, ph)
	if !ok || v != nil {
		t.Fatalf("the step: ok %v, violation %v", ok, v)
	}
	return ns
}

func TestPlaceholderRead(t *testing.T) {
	unknown := func(as ...uint16) func(uint16) bool {
		return func(a uint16) bool {
			for _, x := range as {
				if a == x {
					return true
				}
			}
			return false
		}
	}
	t.Run("load", func(t *testing.T) {
		m := testMachine(t, []byte{0xB6, 0x00, 0x40}, nil, nil, Config{}) // ldaa $0040
		s := m.Initial()
		poke(t, m, s, 0x40, 0x11)
		ph := &Placeholders{Unknown: unknown(0x40)}
		stepOnce(t, m, s, ph)
		if !ph.Broken || ph.At != 0x40 || ph.Fetch {
			t.Errorf("ldaa of a placeholder: broken %v at 0x%04X fetch %v, want the read of 0x0040 broken", ph.Broken, ph.At, ph.Fetch)
		}
		ph = &Placeholders{Unknown: unknown(0x40), Standins: map[uint16]uint8{0x40: 0x5A}}
		ns := stepOnce(t, m, s, ph)
		if ph.Broken || ns.Threads[0].A != 0x5A {
			t.Errorf("ldaa with a stand-in 0x5A: broken %v, A = 0x%02X", ph.Broken, ns.Threads[0].A)
		}
		ph = &Placeholders{Unknown: unknown()}
		if ns := stepOnce(t, m, s, ph); ph.Broken || ns.Threads[0].A != 0x11 {
			t.Errorf("ldaa of a value: broken %v, A = 0x%02X, want 0x11", ph.Broken, ns.Threads[0].A)
		}
	})
	t.Run("brset", func(t *testing.T) {
		// ldx #$D100; brset 0,x,#$80,+4 over a ROM byte 0x00
		m := testMachine(t, []byte{0xCE, 0xD1, 0x00, 0x1E, 0x00, 0x80, 0x04}, map[uint16][]byte{0xD100: {0x00}}, nil, Config{})
		s := stepOnce(t, m, m.Initial(), nil)
		for _, c := range []struct {
			standin uint8
			pc      uint16
		}{{0xFF, 0xD00B}, {0x7F, 0xD007}} {
			ph := &Placeholders{Unknown: unknown(), Standins: map[uint16]uint8{0xD100: c.standin}}
			if ns := stepOnce(t, m, s, ph); ph.Broken || ns.Threads[0].PC != c.pc {
				t.Errorf("brset on a ROM byte read as 0x%02X: broken %v, PC 0x%04X, want 0x%04X", c.standin, ph.Broken, ns.Threads[0].PC, c.pc)
			}
		}
	})
	t.Run("pull", func(t *testing.T) {
		// lds #$1030; pula, reading the --input address 0x1031
		m := testMachine(t, []byte{0x8E, 0x10, 0x30, 0x32}, nil, nil, Config{Inputs: map[uint16][]uint8{0x1031: {1, 2}}})
		s := stepOnce(t, m, m.Initial(), nil)
		ph := &Placeholders{Unknown: unknown()}
		stepOnce(t, m, s, ph)
		if !ph.Broken || ph.At != 0x1031 {
			t.Errorf("pula of an --input address: broken %v at 0x%04X, want the read of 0x1031 broken", ph.Broken, ph.At)
		}
		ph = &Placeholders{Unknown: unknown(), Standins: map[uint16]uint8{0x1031: 2}}
		if ns := stepOnce(t, m, s, ph); ph.Broken || ns.Threads[0].A != 2 || ns.Threads[0].SP != 0x1031 {
			t.Errorf("pula with a stand-in 2: broken %v, A = %d, SP 0x%04X", ph.Broken, ns.Threads[0].A, ns.Threads[0].SP)
		}
	})
	t.Run("fetch", func(t *testing.T) {
		// jmp $0040, where RAM holds 0x18 and a placeholder: the page
		// prefix and the opcode byte after it are both fetched
		m := testMachine(t, []byte{0x7E, 0x00, 0x40}, nil, nil, Config{IgnoreIllegal: true})
		s := stepOnce(t, m, m.Initial(), nil)
		poke(t, m, s, 0x40, 0x18)
		ph := &Placeholders{Unknown: unknown(0x41)}
		m.ReplayStep(s, 0, ph)
		if !ph.Broken || ph.At != 0x41 || !ph.Fetch {
			t.Errorf("fetch of 0x18 and a placeholder: broken %v at 0x%04X fetch %v, want the fetch of 0x0041 broken", ph.Broken, ph.At, ph.Fetch)
		}
		// inx at 0x40: the byte after it is not fetched
		poke(t, m, s, 0x40, 0x08)
		ph = &Placeholders{Unknown: unknown(0x41)}
		stepOnce(t, m, s, ph)
		if ph.Broken {
			t.Errorf("inx before a placeholder: broken at 0x%04X", ph.At)
		}
	})
}
