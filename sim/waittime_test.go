package sim

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/mutation"
)

// The time spent in WAI under the exact clock, checked against a second
// clock: TCNT. At its reset prescaler (TMSK2's PR1:PR0 = 0, E/1) TCNT
// counts one per E cycle from 0x0000 at reset (the M68HC11 Reference
// Manual, section 10, the main timer), so at every state it must equal
// the global time, State.Now, modulo 2^16: the cycles of the
// instructions, the entries and the waits in WAI alike.

// waitProgram is a random program that arms OC1 and sleeps in WAI until
// it comes, again and again: TOC1 = TCNT + K with K random, random
// instructions before WAI and in the handler, so that OC1F sets before
// the WAI (the interrupt is taken at once, and the next wait is a long
// one, past TCNT's wrap), during its stacking, or during the wait.
func waitProgram(rng *rand.Rand) (code, isr []byte) {
	filler := func() []byte {
		var f []byte
		for range rng.Intn(5) {
			switch rng.Intn(4) {
			case 0:
				f = append(f, 0x01) // nop 2
			case 1:
				f = append(f, 0x3D) // mul 10
			case 2:
				f = append(f, 0xC6, uint8(rng.Intn(256))) // ldab #n 2
			default:
				f = append(f, 0x02) // idiv 41
			}
		}
		return f
	}
	k := uint16(1 + rng.Intn(400))
	code = b(0x8E, 0x01, 0xFF, // lds #0x01FF
		0x86, 0x80, 0xB7, 0x10, 0x23, // ldaa #OC1F; staa TFLG1
		0xB7, 0x10, 0x22, // staa TMSK1: OC1I
		0x0E) // cli
	loop := len(code)
	code = append(code, 0xFC, 0x10, 0x0E, // ldd TCNT
		0xC3, uint8(k>>8), uint8(k), // addd #K
		0xFD, 0x10, 0x16) // std TOC1
	code = append(code, filler()...)
	code = append(code, 0x3E)                                     // wai
	code = append(code, 0x20, uint8(loop-(len(code)+2)))          // bra loop
	isr = cat(b(0x86, 0x80, 0xB7, 0x10, 0x23), filler(), b(0x3B)) // ldaa #OC1F; staa TFLG1; ...; rti
	return code, isr
}

// diffWaitTime follows program seed's one execution for steps
// transitions and returns the first state at which TCNT and the global
// time differ, described, or ""; it counts in waits the transitions of
// time passing while the CPU waits.
func diffWaitTime(t *testing.T, seed int64, steps int, waits *int) string {
	rng := rand.New(rand.NewSource(seed))
	code, isr := waitProgram(rng)
	m := deviceMachine(t, code, map[uint16][]byte{0xD100: isr, 0xFFE8: {0xD1, 0x00}}, devices.Options{Exact: true},
		Config{ExactClock: true})
	s := m.Initial()
	for n := range steps {
		out, dl := successors(m, s)
		if dl != nil || len(out) != 1 || out[0].Violation != nil {
			return fmt.Sprintf("step %d: %d successors, deadlock %v", n, len(out), dl)
		}
		if out[0].Label.Event > 0 {
			*waits++
		}
		s = out[0].State
		tc := uint16(m.ReadMem(s, 0x100E))<<8 | uint16(m.ReadMem(s, 0x100F))
		if now := s.Now(); uint16(now) != tc {
			return fmt.Sprintf("step %d: TCNT 0x%04X, the global time %d (0x%04X)", n, tc, now, uint16(now))
		}
	}
	return ""
}

// TestWaitTimeDifferential: the global time agrees with TCNT along
// random programs that wait in WAI.
func TestWaitTimeDifferential(t *testing.T) {
	waits := 0
	for seed := range int64(40) {
		if d := diffWaitTime(t, seed, 300, &waits); d != "" {
			t.Errorf("program %d: %s", seed, d)
		}
	}
	if waits < 40 {
		t.Errorf("the programs waited %d times in all, want at least one a program", waits)
	}
}

// TestWaitTimeDifferentialCatches: with mutation.WaitUncounted (the
// wait's cycles reach the peripherals alone) the comparison of
// TestWaitTimeDifferential finds a difference.
func TestWaitTimeDifferentialCatches(t *testing.T) {
	defer mutation.Set(mutation.WaitUncounted)()
	waits := 0
	for seed := range int64(40) {
		if d := diffWaitTime(t, seed, 300, &waits); d != "" {
			t.Logf("program %d catches %s: %s", seed, mutation.WaitUncounted, d)
			return
		}
	}
	t.Errorf("fault %s switched on: no program differs from TCNT", mutation.WaitUncounted)
}
