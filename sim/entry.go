package sim

import (
	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/mutation"
)

// The cycles of an interrupt's entry, and of WAI and STOP before it.
//
// An interrupt taken between two instructions stacks the nine bytes of
// its frame and fetches its vector: 14 E cycles to the handler's first
// instruction (the M68HC11 Reference Manual, section 5, interrupt
// processing; the same count as SWI in appendix A).
//
// WAI is listed in appendix A at 14 + n cycles, its footnote and its
// cycle-by-cycle table giving the split: 12 cycles from its opcode fetch
// stack the frame, the CPU then waits n cycles until an interrupt is
// recognised, and 2 more fetch the vector. WAI itself therefore takes
// 12 (waiCycles), the wait's n pass as time passing while the CPU waits,
// and the entry from WAI takes 2 (waiEntry): a request that comes during
// the wait is served 2 cycles later, and a WAI whose interrupt was
// pending when it executed takes 14 cycles to the handler in all.
//
// STOP stacks nothing. Waking from it, the CPU waits for the oscillator
// to restart when OPTION's DLY bit is set (its reset value; the manual's
// STOP, appendix A, and OPTION's DLY, section 5): 4064 E cycles
// (devices.RestartDelay), then takes the interrupt as between two
// instructions, 14 cycles. With DLY clear the entry is the plain 14.
const (
	entryCycles = 14 // nine bytes stacked, the vector fetched
	waiCycles   = 12 // WAI: its opcode fetch and the frame stacked
	waiEntry    = 2  // the entry from WAI: the vector fetched
)

// Restarter is a device that knows the oscillator's restart delay after
// STOP (OPTION's DLY bit); package devices's Chip is one.
type Restarter interface {
	RestartDelay(b *devices.Block) uint64
}

// wait is WAI's step after its frame is stacked: the thread waits, and
// WAI's cycles are the 12 before the wait, not appendix A's nominal 14,
// whose last 2 are the entry's (entryOf).
func (x *stepper) wait() {
	x.t.Status = Waiting
	x.t.Cycles -= entryCycles - waiCycles
}

// entryOf is the E cycles of the entry of an interrupt into thread t of
// s: 2 from WAI, 14 plus the oscillator's restart delay from STOP, 14
// otherwise.
func (m *Machine) entryOf(s *State, t *Thread) uint64 {
	switch t.Status {
	case Waiting:
		if mutation.On(mutation.WaiEntryStacks) {
			return entryCycles
		}
		return waiEntry
	case Stopped:
		if mutation.On(mutation.StopNoRestart) {
			return entryCycles
		}
		return entryCycles + m.restartDelay(s)
	}
	return entryCycles
}

// restartDelay is the E cycles the oscillator takes to restart after
// STOP in s: the device's (OPTION's DLY); without the chip's registers,
// the delay of DLY's reset value.
func (m *Machine) restartDelay(s *State) uint64 {
	r, ok := m.dev.(Restarter)
	if !ok {
		return devices.StopDelay
	}
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(s, b)
	d := r.RestartDelay(b)
	blockPool.Put(b)
	return d
}

// Time passing while the CPU waits in WAI (under the exact clock, the
// device's event devices.EvWait) is time as much as an instruction's: the
// M68HC11 Reference Manual's WAI (appendix A) counts its n cycles of wait
// in the 14 + n from the opcode fetch to the handler. waited counts them
// in the global time (the first waiting thread's cycles: State.Now is
// the sum of the threads') and in the timing properties' intervals that
// are open: the masked interval when the context that waits has I set,
// every deadline started (checked when its thread reaches TO), and every
// harness interrupt's request. The
// chip's sources' requests count them in sourcesAfter.
func (m *Machine) waited(x *stepper, cycles uint64) {
	if cycles == 0 || mutation.On(mutation.WaitUncounted) {
		return
	}
	s := x.s
	for i := range s.Threads {
		if s.Threads[i].Status == Waiting {
			s.Threads[i].Cycles += cycles
			break
		}
	}
	tm := m.timing
	if tm == nil {
		return
	}
	ro := m.timingPage(s, false)
	var p []byte
	wr := func() []byte {
		if p == nil {
			p = m.timingPage(s, true)
		}
		return p
	}
	now := s.Now()
	if mb := tm.cfg.Masked; mb.Track && ro[0]&timeArmed != 0 {
		if cur := get32(ro[offMasked:]); cur != 0 {
			v := addSat(cur, cycles, tm.sat(mb)+1)
			tm.note(0, v-1)
			if mb.Bounded && v-1 > mb.N {
				x.timingFault(KindMasked, x.t.PC, now-uint64(v-1), now,
					"interrupts masked for more than %d cycles: %d cycles since the interval began", mb.N, v-1)
			}
			put32(wr()[offMasked:], v)
		}
	}
	for k := range tm.cfg.Deadlines {
		d := &tm.cfg.Deadlines[k]
		// Every thread's running interval; checked when the thread
		// reaches TO (timed).
		for j := range s.Threads {
			if cur := tm.dlGet(s, k, j); cur != 0 {
				tm.dlSet(s, k, j, addSat(cur-1, cycles, tm.sat(d.TimingBound))+1)
			}
		}
	}
	for k := range tm.cfg.Latencies {
		l := &tm.cfg.Latencies[k]
		o := offLatency + 5*k
		if l.Source || ro[o] != latRequested {
			continue
		}
		v := addSat(get32(ro[o+1:]), cycles, tm.sat(l.TimingBound))
		m.latencyCheck(x, k, v, false)
		put32(wr()[o+1:], v)
	}
}
