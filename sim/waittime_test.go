package sim

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/mutation"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
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

// waitCounts counts what diffWaitTime saw.
type waitCounts struct{ waits, entries int }

// diffWaitTime follows program seed's one execution for steps
// transitions and returns the first state at which TCNT and the global
// time differ, described, or ""; it counts in n the transitions of time
// passing while the CPU waits and the entries after a WAI it checked.
//
// It checks the handler's start after a WAI too, against the manual's
// cycles reckoned in TCNT's counts: WAI begins at count w and stacks for
// 12 cycles; OC1F sets at the count TOC1 (d = TOC1 - w counts later,
// modulo 2^16, 2^16 for 0); the interrupt is recognised at the later of
// the two, and 2 cycles fetch the vector: the handler's first
// instruction comes at w + max(12, d) + 2.
func diffWaitTime(t *testing.T, seed int64, steps int, n *waitCounts) string {
	rng := rand.New(rand.NewSource(seed))
	code, isr := waitProgram(rng)
	m := deviceMachine(t, code, map[uint16][]byte{0xD100: isr, 0xFFE8: {0xD1, 0x00}}, devices.Options{Exact: true},
		Config{ExactClock: true})
	word := func(s *State, a uint16) uint16 { return uint16(m.ReadMem(s, a))<<8 | uint16(m.ReadMem(s, a+1)) }
	s := m.Initial()
	var want uint16 // TCNT at the handler after the WAI begun, if waiting
	waiting := false
	for k := range steps {
		out, dl := successors(m, s)
		if dl != nil || len(out) != 1 || out[0].Violation != nil {
			return fmt.Sprintf("step %d: %d successors, deadlock %v", k, len(out), dl)
		}
		l := out[0].Label
		if l.Event > 0 {
			n.waits++
		}
		if l.Event == 0 && l.IRQ < 0 && m.ReadMem(s, s.Threads[0].PC) == 0x3E && m.ReadMem(s, 0x1023)&0x80 == 0 {
			w := word(s, 0x100E)
			d := int(word(s, 0x1016) - w)
			if d == 0 {
				d = 1 << 16
			}
			want, waiting = w+uint16(max(12, d)+2), true
		}
		s = out[0].State
		tc := word(s, 0x100E)
		if now := s.Now(); uint16(now) != tc {
			return fmt.Sprintf("step %d: TCNT 0x%04X, the global time %d (0x%04X)", k, tc, now, uint16(now))
		}
		if l.IRQ >= 0 && waiting {
			if tc != want {
				return fmt.Sprintf("step %d: the handler after WAI at TCNT 0x%04X, the manual's 0x%04X", k, tc, want)
			}
			waiting = false
			n.entries++
		}
	}
	return ""
}

// TestWaitTimeDifferential: the global time agrees with TCNT along
// random programs that wait in WAI, and the handler after a WAI begins
// when the manual's WAI says.
func TestWaitTimeDifferential(t *testing.T) {
	var n waitCounts
	for seed := range int64(40) {
		if d := diffWaitTime(t, seed, 300, &n); d != "" {
			t.Errorf("program %d: %s", seed, d)
		}
	}
	t.Logf("%d waits, %d entries from WAI checked", n.waits, n.entries)
	if n.waits < 40 || n.entries < 40 {
		t.Errorf("the programs waited %d times and were woken from WAI %d times in all, want at least once a program each", n.waits, n.entries)
	}
}

// TestWaitTimeDifferentialCatches: with mutation.WaitUncounted (the
// wait's cycles reach the peripherals alone) the comparison of
// TestWaitTimeDifferential finds a difference.
func TestWaitTimeDifferentialCatches(t *testing.T) {
	defer mutation.Set(mutation.WaitUncounted)()
	var n waitCounts
	for seed := range int64(40) {
		if d := diffWaitTime(t, seed, 300, &n); d != "" {
			t.Logf("program %d catches %s: %s", seed, mutation.WaitUncounted, d)
			return
		}
	}
	t.Errorf("fault %s switched on: no program differs from TCNT", mutation.WaitUncounted)
}

// TestWaiEntryDifferentialCatches: with mutation.WaiEntryStacks (the
// entry from WAI charged a full entry) the comparison of
// TestWaitTimeDifferential finds a difference.
func TestWaiEntryDifferentialCatches(t *testing.T) {
	defer mutation.Set(mutation.WaiEntryStacks)()
	var n waitCounts
	for seed := range int64(40) {
		if d := diffWaitTime(t, seed, 300, &n); d != "" {
			t.Logf("program %d catches %s: %s", seed, mutation.WaiEntryStacks, d)
			return
		}
	}
	t.Errorf("fault %s switched on: no program differs from the manual's WAI", mutation.WaiEntryStacks)
}

// entryAfter runs code (with the chip's peripherals when chip) until
// its thread sleeps, takes the IRQ (a harness interrupt, --irq irq) and
// returns the cycles from the sleeping instruction's first cycle to the
// handler's first instruction.
func entryAfter(t *testing.T, code []byte, chip bool) uint64 {
	t.Helper()
	extra := map[uint16][]byte{0xD100: b(0x3B), 0xFFF2: {0xD1, 0x00}} // rti
	cfg := Config{IRQs: []string{"irq"}}
	var m *Machine
	if chip {
		m = deviceMachine(t, code, extra, devices.Options{}, cfg)
	} else {
		m = testMachine(t, code, extra, nil, cfg)
	}
	s := m.Initial()
	var start uint64
	for range 20 {
		out, _ := successors(m, s)
		start = s.Now()
		o := pick(t, out, 0, -1)
		if o.Violation != nil {
			t.Fatal(o.Violation)
		}
		s = o.State
		if s.Threads[0].Status != Running {
			break
		}
	}
	if s.Threads[0].Status == Running {
		t.Fatalf("the thread never sleeps")
	}
	out, _ := successors(m, s)
	h := pick(t, out, 0, isa.VecIRQ).State
	if pc := h.Threads[0].PC; pc != 0xD100 {
		t.Fatalf("PC %04X after the entry, want the handler", pc)
	}
	return h.Now() - start
}

// TestSleepEntry: from WAI's opcode fetch to the handler, 14 cycles with
// no wait (the manual's 14 + n, appendix A); from STOP's, its 2, the
// oscillator's restart while OPTION's DLY is set (4064 E cycles; its
// reset value, also without the chip's registers) and the entry's 14;
// with DLY cleared in the first 64 cycles, 2 + 14.
func TestSleepEntry(t *testing.T) {
	if d := sleepEntryDiff(t); d != "" {
		t.Error(d)
	}
}

// TestSleepEntryCatches: with mutation.StopNoRestart (no restart delay
// after STOP) the checks of TestSleepEntry fail.
func TestSleepEntryCatches(t *testing.T) {
	defer mutation.Set(mutation.StopNoRestart)()
	if d := sleepEntryDiff(t); d == "" {
		t.Errorf("fault %s switched on: the entries from WAI and STOP agree with the manual", mutation.StopNoRestart)
	} else {
		t.Logf("caught: %s", d)
	}
}

// sleepEntryDiff returns the differences of the entries from WAI and
// STOP from the manual's (TestSleepEntry), or "".
func sleepEntryDiff(t *testing.T) string {
	var errs []string
	errorf := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	lds := b(0x8E, 0x01, 0xFF)                                                   // lds #0x01FF
	clearS := b(0x07, 0x84, 0x6F, 0x06)                                          // tpa; anda #0x6F; tap: S and I clear
	if c := entryAfter(t, cat(lds, b(0x0E, 0x3E, 0x20, 0xFE)), false); c != 14 { // cli; wai; bra .
		errorf("WAI to the handler: %d cycles, want 14", c)
	}
	stop := b(0xCF, 0x20, 0xFE) // stop; bra .
	if c := entryAfter(t, cat(lds, clearS, stop), false); c != 2+4064+14 {
		errorf("STOP to the handler without the chip: %d cycles, want 2 + 4064 + 14", c)
	}
	if c := entryAfter(t, cat(lds, clearS, stop), true); c != 2+4064+14 {
		errorf("STOP to the handler, DLY set: %d cycles, want 2 + 4064 + 14", c)
	}
	noDLY := b(0x86, 0x00, 0xB7, 0x10, 0x39) // ldaa #0; staa OPTION: DLY clear
	if c := entryAfter(t, cat(noDLY, lds, clearS, stop), true); c != 2+14 {
		errorf("STOP to the handler, DLY clear: %d cycles, want 2 + 14", c)
	}
	return strings.Join(errs, "\n")
}
