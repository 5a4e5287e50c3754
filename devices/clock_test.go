package devices

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
)

// refClock is a reference for the exact clock's timer and receiver that
// counts one E cycle at a time, written from the reference manual
// (M68HC11RM/AD, section 10, Main Timer and Real-Time Interrupt; section
// 9, SCI) independently of clock.go: TCNT counts once every pre E cycles,
// OCxF sets when TCNT becomes TOCx, TOF when TCNT rolls over from 0xFFFF
// to 0, RTIF at the end of each RTI period; the receiver may see a byte
// once a frame has passed since the earliest moment of the last. It keeps
// port A's levels too (section 10, output compare): at each compare OCx
// (x = 2-5) acts on its pin by TCTL1's OMx:OLx (01 toggle, 10 clear, 11
// set), then OC1 sets each pin OC1M selects to OC1D's bit.
type refClock struct {
	pa, tctl1, oc1m, oc1d uint8
	acted                 bool // a compare acted on a pin (set by step)
	pre, phase            uint64
	tcnt                  uint16
	toc                   [5]uint16
	ocf                   [5]bool
	tof, rtif             bool
	rti                   uint64 // E cycles of the E÷2^13 chain
	period                uint64
	rx, frame             uint64 // cycles since the last byte's earliest moment, a frame
}

// step advances the reference by one E cycle.
func (r *refClock) step() {
	r.rti++
	if r.rti%r.period == 0 {
		r.rtif = true
	}
	r.rx++
	r.phase++
	if r.phase < r.pre {
		return
	}
	r.phase = 0
	r.tcnt++
	if r.tcnt == 0 {
		r.tof = true
	}
	var now [5]bool
	for i, v := range r.toc {
		if r.tcnt == v {
			r.ocf[i] = true
			now[i] = true
		}
	}
	r.act(now)
}

// act makes the pin actions of the compares in now (index 0 is OC1).
func (r *refClock) act(now [5]bool) {
	if now[0] && r.oc1m != 0 {
		r.acted = true
	}
	for x := 2; x <= 5; x++ {
		if !now[x-1] {
			continue
		}
		if r.tctl1>>(2*(5-x))&3 != 0 {
			r.acted = true
		}
		pin := uint8(0x80) >> (x - 1) // PA6 for OC2 … PA3 for OC5
		switch r.tctl1 >> (2 * (5 - x)) & 3 {
		case 1:
			r.pa ^= pin
		case 2:
			r.pa &^= pin
		case 3:
			r.pa |= pin
		}
	}
	if now[0] {
		r.pa = r.pa&^r.oc1m | r.oc1d&r.oc1m
	}
}

// flags are the reference's flags as TFLG1 and TFLG2 hold them.
func (r *refClock) flags() (f1, f2 uint8) {
	for i, on := range r.ocf {
		if on {
			f1 |= 0x80 >> i
		}
	}
	if r.tof {
		f2 |= 0x80
	}
	if r.rtif {
		f2 |= 0x40
	}
	return
}

// diffExact runs one random program of elapses, waits, arrivals and flag
// clears on the exact clock of an E9 and on the reference, and returns
// the first difference, "" for none. Each wait (EvWait) must end where
// the reference first changes a flag or becomes ready for a byte, and
// pass one cycle at a time while a byte may arrive.
func diffExact(t *testing.T, seed int64) string {
	rng := rand.New(rand.NewSource(seed))
	c, b := newChip(t, "e9", Options{Exact: true, SCIInput: []uint8{'A'}})
	pr, rtr := uint8(rng.Intn(4)), uint8(rng.Intn(4))
	b.Reg[rTMSK2] = pr
	b.Reg[rPACTL] = rtr               // OC5, not IC4
	b.Reg[rBAUD] = uint8(rng.Intn(2)) // SCP ÷1, SCR ÷1 or ÷2: frames of 160 or 320 cycles
	r := &refClock{pre: []uint64{1, 4, 8, 16}[pr], tcnt: uint16(rng.Intn(1 << 16)), period: 1 << (13 + rtr)}
	r.phase = uint64(rng.Intn(int(r.pre)))
	r.rti = uint64(rng.Intn(1 << 16))
	bits := uint64(10) // start, eight data bits, stop
	if seed%2 == 1 {
		b.Reg[rSCCR1] = 0x10 // M: nine data bits (reference manual, section 9, SCCR1)
		bits = 11
	}
	r.frame = bits * 16 << (b.Reg[rBAUD] & 7)
	b.Reg[rTCNT], b.Reg[rTCNT+1] = uint8(r.tcnt>>8), uint8(r.tcnt)
	b.Hid[hPre] = uint8(r.phase)
	b.Hid[hRTI], b.Hid[hRTI+1] = uint8(r.rti>>8), uint8(r.rti)
	for i := range r.toc {
		r.toc[i] = r.tcnt + uint16(rng.Intn(600))
		if i > 0 && rng.Intn(2) == 0 {
			r.toc[i] = r.toc[0] + uint16(rng.Intn(8)) // compares close together, within one elapse
		}
		b.Reg[rTOC1+2*i], b.Reg[rTOC1+2*i+1] = uint8(r.toc[i]>>8), uint8(r.toc[i])
	}
	r.tctl1, r.oc1m, r.oc1d, r.pa = uint8(rng.Intn(256)), uint8(rng.Intn(256))&0xF8, uint8(rng.Intn(256))&0xF8, uint8(rng.Intn(256))
	b.Reg[rTCTL1], b.Reg[rOC1M], b.Reg[rOC1D], b.Reg[rPORTA] = r.tctl1, r.oc1m, r.oc1d, r.pa
	b.Reg[rCONFIG] |= 0x04 // the COP off
	b.Hid[hEarly] = 64     // past the first 64 cycles
	c.Write(b, rSCCR2, 0x04)
	r.rx = r.frame / bits // the first byte a frame less a bit after RE (rxOn)
	last := uint64(0)     // the cycles of the last elapse
	for n := 0; n < 400; n++ {
		switch k := rng.Intn(10); {
		case k < 4:
			cyc := uint64(1 + rng.Intn(41))
			c.Elapse(b, cyc)
			for range cyc {
				r.step()
			}
			last = cyc
		case k < 8:
			b.Asleep = true
			ev := -1
			for e := range c.Events(b) {
				if c.Info(b, e).Kind == EvWait {
					ev = e
				}
			}
			h := c.waitCycles(b)
			b.Asleep = false
			if ev < 0 {
				return fmt.Sprintf("step %d: no EvWait while the CPU waits", n)
			}
			ready := r.rx >= r.frame
			if ready && h != 1 {
				return fmt.Sprintf("step %d: a byte may arrive, but time passes %d cycles at once", n, h)
			}
			f1, f2 := r.flags()
			for j := uint64(1); j <= h; j++ {
				r.acted = false
				r.step()
				g1, g2 := r.flags()
				change := g1 != f1 || g2 != f2 || !ready && r.rx >= r.frame || r.acted
				if !ready && change != (j == h) {
					return fmt.Sprintf("step %d: a wait of %d cycles, the reference changes at cycle %d: %v", n, h, j, change)
				}
			}
			b.Asleep = true
			c.Event(b, ev)
			b.Asleep = false
			last = h
		case k < 9:
			if r.rx >= r.frame {
				r.rx = min(last-1, r.rx-r.frame)
				c.Event(b, 0) // a byte, or an overrun: the first event

			}
			c.Read(b, rSCSR, 0)
			c.Read(b, rSCDR, 0)
		case k < 10 && rng.Intn(2) == 0:
			v := uint8(rng.Intn(256)) & 0xF8 // CFORC: FOC1-FOC5 force their actions now
			c.Write(b, rCFORC, v)
			var now [5]bool
			for i := range now {
				now[i] = v&(0x80>>i) != 0
			}
			r.act(now)
		default:
			b.Reg[rTFLG1], b.Reg[rTFLG2] = 0, 0
			r.ocf, r.tof, r.rtif = [5]bool{}, false, false
		}
		f1, f2 := r.flags()
		switch {
		case tcnt(b) != uint64(r.tcnt) || uint64(b.Hid[hPre]) != r.phase:
			return fmt.Sprintf("step %d: TCNT 0x%04X phase %d, the reference 0x%04X phase %d", n, tcnt(b), b.Hid[hPre], r.tcnt, r.phase)
		case b.Reg[rPORTA] != r.pa:
			return fmt.Sprintf("step %d: PORTA %02X, the reference %02X (TCTL1 %02X OC1M %02X OC1D %02X)", n, b.Reg[rPORTA], r.pa, r.tctl1, r.oc1m, r.oc1d)
		case b.Reg[rTFLG1]&0xF8 != f1 || b.Reg[rTFLG2]&0xC0 != f2:
			return fmt.Sprintf("step %d: TFLG1 %02X TFLG2 %02X, the reference %02X %02X", n, b.Reg[rTFLG1]&0xF8, b.Reg[rTFLG2]&0xC0, f1, f2)
		case (c.rxEvents(b) > 0) != (r.rx >= r.frame):
			return fmt.Sprintf("step %d: a byte may arrive: %v, the reference %v (%d of %d cycles)", n, c.rxEvents(b) > 0, r.rx >= r.frame, r.rx, r.frame)
		}
	}
	return ""
}

// TestExactClockDifferential compares the exact clock with refClock on
// random programs: TCNT, the prescaler's phase, the output compare, TOF
// and RTI flags, port A's levels under the output compares' actions
// (CFORC's forced ones too), when a byte may arrive, and that a wait in WAI jumps
// exactly to the next change and passes cycle by cycle while a byte may
// arrive.
func TestExactClockDifferential(t *testing.T) {
	for seed := range int64(60) {
		if d := diffExact(t, seed); d != "" {
			t.Errorf("program %d: %s", seed, d)
		}
	}
}

// TestExactClockDifferentialCatches: with the fault mutation.PrescalerPhase
// (the prescaler's phase dropped between elapses), or mutation.PinOrder
// (the pin actions of the compares within one elapse made at once), the
// comparison of TestExactClockDifferential finds a difference, so it
// would catch it.
func TestExactClockDifferentialCatches(t *testing.T) {
	for _, f := range []mutation.Fault{mutation.PrescalerPhase, mutation.PinOrder} {
		t.Run(f.String(), func(t *testing.T) {
			defer mutation.Set(f)()
			for seed := range int64(60) {
				if d := diffExact(t, seed); d != "" {
					t.Logf("program %d catches %s: %s", seed, f, d)
					return
				}
			}
			t.Errorf("fault %s switched on: no program differs from the reference", f)
		})
	}
}

// TestSetsIn: for every timer source whose flag the exact clock sets,
// SetsIn is the cycle of an elapse at which the flag sets: an elapse of
// one cycle less leaves it clear, in one part or two, and one more cycle
// sets it; Requests is the flag and its mask bit, both set.
func TestSetsIn(t *testing.T) {
	vecs := []int{sources[srcRTI].vec, sources[srcOC1].vec, sources[srcOC1+1].vec, sources[srcOC1+2].vec,
		sources[srcOC1+3].vec, sources[srcOC5].vec, sources[srcTOF].vec}
	for seed := range int64(200) {
		rng := rand.New(rand.NewSource(seed))
		c, b := newChip(t, "e9", Options{Exact: true})
		b.Reg[rTMSK2] = uint8(rng.Intn(4))
		b.Reg[rPACTL] = uint8(rng.Intn(4))
		n := uint16(rng.Intn(1 << 16))
		b.Reg[rTCNT], b.Reg[rTCNT+1] = uint8(n>>8), uint8(n)
		b.Hid[hPre] = uint8(rng.Intn(int(prescale(b))))
		b.Hid[hRTI], b.Hid[hRTI+1] = uint8(rng.Intn(256)), uint8(rng.Intn(256))
		for i := range 5 {
			v := n + uint16(rng.Intn(3)-1) + uint16(rng.Intn(700))
			b.Reg[rTOC1+2*i], b.Reg[rTOC1+2*i+1] = uint8(v>>8), uint8(v)
		}
		b.Reg[rCONFIG] |= 0x04
		b.Hid[hEarly] = 64
		b.Hid[hX] |= xObserved
		for _, v := range vecs {
			i := timedSource(v)
			s := &sources[i]
			if !c.Timed(v) {
				t.Fatalf("vector %d: not timed", v)
			}
			h := c.SetsIn(b, v)
			if h == 0 || h == ^uint64(0) {
				t.Fatalf("seed %d, %s: SetsIn %d", seed, s.name, h)
			}
			set := func(cycles ...uint64) bool {
				d := *b
				for _, k := range cycles {
					c.Elapse(&d, k)
				}
				return d.Reg[s.flag]&s.bit != 0
			}
			split := uint64(rng.Int63n(int64(h)))
			if set(h-1) || set(split, h-1-split) || !set(h) || !set(split, h-split) {
				t.Errorf("seed %d, %s: SetsIn %d, but the flag after %d cycles: %v, after %d: %v",
					seed, s.name, h, h-1, set(h-1), h, set(h))
			}
			if c.Requests(b, v) {
				t.Errorf("seed %d, %s: requests with its flag clear", seed, s.name)
			}
			b.Reg[s.flag] |= s.bit
			if c.SetsIn(b, v) != ^uint64(0) || c.Requests(b, v) {
				t.Errorf("seed %d, %s: with the flag set, SetsIn %d, Requests %v", seed, s.name, c.SetsIn(b, v), c.Requests(b, v))
			}
			b.Reg[s.mask] |= s.bit
			if !c.Requests(b, v) {
				t.Errorf("seed %d, %s: flag and mask set, no request", seed, s.name)
			}
			b.Reg[s.flag] &^= s.bit
			b.Reg[s.mask] &^= s.bit
		}
	}
	if c, _ := newChip(t, "e9", Options{Exact: true}); c.Timed(sources[srcIC1].vec) {
		t.Errorf("an input capture is timed")
	}
}
