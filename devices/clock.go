package devices

// The exact clock (Options.Exact; see "The exact clock" in the package
// doc): the timer, the real-time interrupt, the SCI's line and the COP
// counted in E cycles.

// Hidden bytes of the exact clock, after those of regs.go.
const (
	hX      = 21 // xObserved, xForked
	hPre    = 22 // E cycles into the current count of TCNT (the prescaler's phase)
	hRTI    = 23 // 2 bytes: the E÷2^13 divider chain's E cycles, modulo 2^16
	hRx     = 25 // 3 bytes: the receiver's time (rxElapse), saturated
	hTxLeft = 28 // 3 bytes: E cycles until the shift register's byte is out; 0: idle
)

const (
	xObserved = 1 << 0 // the firmware has accessed a timer register
)

// isTimerReg reports whether register off belongs to the main timer or
// the real-time interrupt: CFORC through PACTL (0x0B-0x26), the
// registers whose reads show or whose writes depend on the counters.
func isTimerReg(off int) bool { return off >= rCFORC && off <= rPACTL }

// get3 and put3 read and write a 3-byte big-endian hidden counter.
func get3(b *Block, h int) uint64 {
	return uint64(b.Hid[h])<<16 | uint64(b.Hid[h+1])<<8 | uint64(b.Hid[h+2])
}

func put3(b *Block, h int, v uint64) {
	b.Hid[h], b.Hid[h+1], b.Hid[h+2] = uint8(v>>16), uint8(v>>8), uint8(v)
}

// counting reports whether the timer's counters are counted in b: always,
// except while the firmware has not observed the timer and the simulator
// allows leaving them out (Block.Lazy; see docs/devices.md).
func (c *Chip) counting(b *Block) bool {
	return !b.Lazy || b.Hid[hX]&xObserved != 0
}

// Unseen reports whether an access of register off in b would see the
// timer's counters where they were left out (see docs/devices.md); the
// simulator then withdraws leaving them out and searches again.
func (c *Chip) Unseen(b *Block, off int) bool {
	return c.exact && isTimerReg(off) && !c.counting(b)
}

// prescale is the timer's prescaler: TMSK2's PR1:PR0 divide E by 1, 4, 8
// or 16 (reference manual, timer prescaler selection, TMSK2).
func prescale(b *Block) uint64 { return [4]uint64{1, 4, 8, 16}[b.Reg[rTMSK2]&3] }

// rtiPeriod is the real-time interrupt's period in E cycles: E÷2^13
// divided by 1, 2, 4 or 8 as PACTL's RTR1:RTR0 select (reference manual,
// real-time interrupt rates, PACTL).
func rtiPeriod(b *Block) uint64 { return 1 << (13 + uint(b.Reg[rPACTL]&3)) }

// tcnt is TCNT as a number.
func tcnt(b *Block) uint64 { return uint64(b.Reg[rTCNT])<<8 | uint64(b.Reg[rTCNT+1]) }

// exactElapse advances the exact clock by cycles E cycles: TCNT by the
// prescaler, each output compare's flag when TCNT comes to its register,
// TOF when TCNT passes 0xFFFF, RTIF at the end of each period, the
// receiver's time since the last byte and the transmitter's byte.
func (c *Chip) exactElapse(b *Block, cycles uint64) Effect {
	var eff Effect
	if c.counting(b) {
		pre := prescale(b)
		ph := uint64(b.Hid[hPre]) + cycles
		ticks := ph / pre
		b.Hid[hPre] = uint8(ph % pre)
		if c.dropPhase {
			b.Hid[hPre] = 0
		}
		old := tcnt(b)
		var matched uint8 // bit n-1: OCn compared
		var at [5]uint64  // … at this count of the elapse (1 to ticks)
		for i := srcOC1; i <= srcOC5; i++ {
			if i == srcOC5 && c.oc5IsIC4(b) {
				continue
			}
			o := rTOC1 + 2*(i-srcOC1)
			toc := uint64(b.Reg[o])<<8 | uint64(b.Reg[o+1])
			// TCNT takes the values old+1 … old+ticks: a compare matches
			// when one of them equals TOCx.
			if d := (toc - old) & 0xFFFF; ticks >= 1<<16 || d != 0 && d <= ticks || d == 0 && ticks >= 1<<16 {
				b.Reg[sources[i].flag] |= sources[i].bit
				matched |= 1 << (i - srcOC1)
				at[i-srcOC1] = d
				if d == 0 {
					at[i-srcOC1] = 1 << 16
				}
			}
		}
		c.elapsedActions(b, matched, at)
		if old+ticks > 0xFFFF {
			b.Reg[rTFLG2] |= sources[srcTOF].bit
		}
		n := (old + ticks) & 0xFFFF
		b.Reg[rTCNT], b.Reg[rTCNT+1] = uint8(n>>8), uint8(n)
		r := uint64(b.Hid[hRTI])<<8 | uint64(b.Hid[hRTI+1])
		p := rtiPeriod(b)
		if r%p+cycles >= p {
			b.Reg[rTFLG2] |= sources[srcRTI].bit
		}
		r = (r + cycles) & 0xFFFF
		b.Hid[hRTI], b.Hid[hRTI+1] = uint8(r>>8), uint8(r)
	}
	if b.Reg[rSCCR2]&sccr2RE != 0 {
		c.rxElapse(b, cycles)
	}
	if left := get3(b, hTxLeft); left > 0 {
		if cycles < left {
			put3(b, hTxLeft, left-cycles)
		} else {
			// The frame is out (Horizon keeps cycles within one frame);
			// the next, if any, began when it ended.
			f := c.txFrame(b)
			next := f - min(cycles-left, f-1)
			put3(b, hTxLeft, 0)
			switch {
			case b.Hid[hSCITx]&txPreamble != 0:
				// The preamble TE queued follows the byte (txOn).
				b.Hid[hSCITx] &^= txPreamble
				put3(b, hTxLeft, next)
			case b.Hid[hSCITx]&txFull != 0:
				v := b.Hid[hSCITDR]
				b.Hid[hSCITx] &^= txFull
				b.Hid[hSCITDR] = 0
				b.Reg[rSCSR] |= scsrTDRE
				put3(b, hTxLeft, next)
				eff = c.sent(b, v)
			default:
				b.Hid[hSCITx] = 0
				b.Reg[rSCSR] |= scsrTC
			}
		}
	}
	return eff
}

// exactHorizon is how many E cycles may pass in b before the exact clock
// sets a flag, the transmitter finishes a byte or the receiver may take
// one; ^0 for never.
func (c *Chip) exactHorizon(b *Block) uint64 {
	h := ^uint64(0)
	if c.counting(b) {
		pre, ph, old := prescale(b), uint64(b.Hid[hPre]), tcnt(b)
		// The cycles until TCNT has counted d more.
		after := func(d uint64) uint64 { return d*pre - ph }
		for i := srcOC1; i <= srcOC5; i++ {
			s := &sources[i]
			if b.Reg[s.flag]&s.bit != 0 && !c.pinAction(b, i) || i == srcOC5 && c.oc5IsIC4(b) {
				continue
			}
			o := rTOC1 + 2*(i-srcOC1)
			toc := uint64(b.Reg[o])<<8 | uint64(b.Reg[o+1])
			d := (toc - old) & 0xFFFF
			if d == 0 {
				d = 1 << 16
			}
			h = min(h, after(d))
		}
		if b.Reg[rTFLG2]&sources[srcTOF].bit == 0 {
			h = min(h, after(1<<16-old))
		}
		if b.Reg[rTFLG2]&sources[srcRTI].bit == 0 {
			r, p := uint64(b.Hid[hRTI])<<8|uint64(b.Hid[hRTI+1]), rtiPeriod(b)
			h = min(h, p-r%p)
		}
	}
	if left := get3(b, hTxLeft); left > 0 {
		h = min(h, left)
	}
	if b.Reg[rSCCR2]&sccr2RE != 0 {
		if need, rx := frame(b), get3(b, hRx); rx < need {
			h = min(h, need-rx)
		}
	}
	return h
}

// rxElapse counts cycles E cycles of the receiver's time (hRx): the E
// cycles since the earliest moment at which the last byte received can
// have come off the line. A byte is seen at the first instruction
// boundary after it came off (the firmware reads registers as they stand
// at the start of its instructions; docs/devices.md), so a byte seen now came
// off during the cycles that passed since the last boundary: of those,
// the earliest a frame after the previous byte's earliest moment. Beyond
// a frame the count saturates at a frame plus those cycles less one, so
// that an arrival now (received) leaves the time since the earliest
// moment in the cycles just elapsed at which the byte can have come off.
func (c *Chip) rxElapse(b *Block, cycles uint64) {
	if cycles == 0 {
		return
	}
	f := frame(b)
	put3(b, hRx, min(get3(b, hRx)+cycles, f+cycles-1))
}

// rxOn starts the receiver's time when RE goes from 0 to 1: the first
// byte after it needs a start bit that begins after the enable, then
// eight data bits (nine with SCCR1's M) and the stop bit's samples, nine
// bit times at least (ten with M) (reference manual, 9.4 Receive
// Operation / 9.6 receive data recovery: RDRF is set after the stop bit
// is sampled), so its earliest moment is taken as a bit time before the
// enable: a frame less nine (ten) bit times.
func (c *Chip) rxOn(b *Block) {
	put3(b, hRx, uint64(bitCycles(b.Reg[rBAUD])))
}

// received notes that a byte came off the line and is seen now (an
// arrival): a wait after it may take the next byte (HidWaitPassed).
// Under the exact clock its earliest moment is the earliest of
// the cycles elapsed since the last boundary that is a frame after the
// previous byte's (rxElapse), from which the next byte takes a frame.
func (c *Chip) received(b *Block) {
	b.Hid[HidWaitPassed] = 0
	if c.exact {
		f := frame(b)
		put3(b, hRx, get3(b, hRx)-min(f, get3(b, hRx)))
	}
}

// live reports whether the exact clock counts anything in b that an
// arrival's moment would show: the timer's counters, the transmitter's
// byte, the COP, the first 64 cycles. Without any, arrivals at different
// cycles of a wait lead to the same state but for the receiver's time,
// and the earliest of them has every future of the others (docs/devices.md).
func (c *Chip) live(b *Block) bool {
	return c.counting(b) || get3(b, hTxLeft) > 0 || c.copOn(b) || b.Hid[hEarly] < 64
}

// waitCycles is how many E cycles pass by the transition of time passing
// while the CPU waits in b (Block.Asleep), 0 for none: to the exact
// clock's next change, and one cycle at a time while a byte may arrive
// and the clock counts what its moment would show (live), so that every
// cycle of the wait is a possible arrival.
func (c *Chip) waitCycles(b *Block) uint64 {
	if !c.exact || !b.Asleep {
		return 0
	}
	if c.rxEvents(b) > 0 {
		if c.live(b) {
			return 1
		}
		return 0
	}
	h := min(c.exactHorizon(b), c.Horizon(b))
	if h == ^uint64(0) {
		return 0
	}
	return h
}

// SourceTimer is what the simulator needs, under the exact clock, to
// measure the latency of the chip's own interrupt sources (check
// --latency SRC:N with --clock exact): whether a source requests its
// interrupt, and at which E cycle of an elapse its flag sets.
type SourceTimer interface {
	// Timed reports whether a clock sets the flag of the source with
	// vector index vec: the output compares, the counter overflow and
	// the real-time interrupt. The exact clock knows the E cycle at
	// which it sets (SetsIn); the abstract clock sets it by an event at
	// any scheduling point.
	Timed(vec int) bool
	// Requests reports whether source vec requests its interrupt in b:
	// its flag and its enable bit are both set (reference manual,
	// section 10, TFLG1/TMSK1 and TFLG2/TMSK2: a flag whose mask bit is
	// set requests a hardware interrupt).
	Requests(b *Block, vec int) bool
	// SetsIn is the number of E cycles from b's moment after which the
	// exact clock sets source vec's flag (an Elapse of at least that many
	// cycles sets it at its SetsIn-th cycle); ^0 when the flag is set
	// already, the clock does not count or the source is not Timed.
	SetsIn(b *Block, vec int) uint64
}

// timedSource returns the index in sources of the source with vector
// vec whose flag the exact clock sets, or -1.
func timedSource(vec int) int {
	for i := range sources {
		if sources[i].vec == vec && sources[i].periodic {
			return i
		}
	}
	return -1
}

// Timed reports whether the exact clock knows when source vec's flag
// sets (SourceTimer).
func (c *Chip) Timed(vec int) bool { return timedSource(vec) >= 0 }

// Requests reports whether source vec's flag and enable bit are both set
// in b (SourceTimer).
func (c *Chip) Requests(b *Block, vec int) bool {
	i := timedSource(vec)
	if i < 0 {
		return false
	}
	s := &sources[i]
	if i == srcOC5 && c.oc5IsIC4(b) {
		return false
	}
	return b.Reg[s.flag]&b.Reg[s.mask]&s.bit != 0
}

// SetsIn is the number of E cycles after which the exact clock sets
// source vec's flag (SourceTimer): TCNT counts one every prescaler
// cycles from its phase, an output compare's flag sets at the cycle TCNT
// comes to TOCx, TOF's at the cycle it passes 0xFFFF, RTIF's at the end
// of the period (the same arithmetic as exactElapse and exactHorizon).
func (c *Chip) SetsIn(b *Block, vec int) uint64 {
	i := timedSource(vec)
	if !c.exact || i < 0 || !c.counting(b) {
		return ^uint64(0)
	}
	s := &sources[i]
	if b.Reg[s.flag]&s.bit != 0 || i == srcOC5 && c.oc5IsIC4(b) {
		return ^uint64(0)
	}
	pre, ph, old := prescale(b), uint64(b.Hid[hPre]), tcnt(b)
	switch {
	case i == srcRTI:
		r, p := uint64(b.Hid[hRTI])<<8|uint64(b.Hid[hRTI+1]), rtiPeriod(b)
		return p - r%p
	case i == srcTOF:
		return (1<<16-old)*pre - ph
	}
	o := rTOC1 + 2*(i-srcOC1)
	toc := uint64(b.Reg[o])<<8 | uint64(b.Reg[o+1])
	d := (toc - old) & 0xFFFF
	if d == 0 {
		d = 1 << 16
	}
	return d*pre - ph
}

// elapsedActions makes the pin actions (pins.go) of the compares in
// matched, OCn's at count at[n-1] of the elapse: in the order of their
// counts, those at the same count at once (OC1 winning). An elapse may
// hold several compares: one instruction's cycles are elapsed at once.
// (mutation.PinOrder makes them all at once.)
func (c *Chip) elapsedActions(b *Block, matched uint8, at [5]uint64) {
	if matched == 0 {
		return
	}
	if c.pinOrder {
		c.ocActions(b, matched)
		return
	}
	for matched != 0 {
		first := ^uint64(0)
		for n := range 5 {
			if matched&(1<<n) != 0 {
				first = min(first, at[n])
			}
		}
		var now uint8
		for n := range 5 {
			if matched&(1<<n) != 0 && at[n] == first {
				now |= 1 << n
			}
		}
		c.ocActions(b, now)
		matched &^= now
	}
}

// clockRegs and clockHid are ClockBytes' answer.
var (
	clockRegs = []int{rTCNT, rTCNT + 1}
	clockHid  = []int{hEarly, hCOP, hCOP + 1, hCOP + 2, hPre, hRTI, hRTI + 1, hRx, hRx + 1, hRx + 2, hTxLeft, hTxLeft + 1, hTxLeft + 2}
)

// ClockBytes returns the offsets, in a Block's registers and in its
// hidden bytes, of what only counts time under the exact clock: TCNT, the
// first 64 cycles, the COP's count, the prescaler's phase, the RTI chain,
// the receiver's time and the transmitter's cycles left. A plain run
// that looks for the firmware waiting compares states without them (the
// returned slices are shared: do not change them).
func ClockBytes() (regs, hid []int) { return clockRegs, clockHid }
