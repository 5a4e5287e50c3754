package devices

// sciWrite is a write of SCDR: it ends the TDRE/TC clearing sequence
// (a read of SCSR with the bit set, then this write) and hands the byte
// to the transmitter, which sends it at once when the shift register is
// idle and otherwise keeps it in TDR.
func (c *Chip) sciWrite(b *Block, v uint8) Effect {
	clr := b.Hid[hSCIArm] & (scsrTDRE | scsrTC)
	b.Reg[rSCSR] &^= clr
	b.Hid[hSCIArm] &^= clr
	if b.Reg[rSCCR2]&sccr2TE == 0 {
		// The transmitter is off: the byte is not sent.
		return Effect{}
	}
	if b.Hid[hSCITx]&txBusy == 0 {
		// TDR goes to the idle shift register at once: TDRE sets again.
		b.Hid[hSCITx] |= txBusy
		b.Reg[rSCSR] |= scsrTDRE
		b.Hid[hTxTime], b.Hid[hTxTime+1] = 0, 0
		if c.exact {
			put3(b, hTxLeft, c.txStart(b))
		}
		return c.sent(b, v)
	}
	// A byte written while TDR is full replaces it: the first is lost.
	b.Hid[hSCITx] |= txFull
	b.Hid[hSCITDR] = v
	return Effect{}
}

// sent reports byte v leaving on the line, and feeds the output matcher.
func (c *Chip) sent(b *Block, v uint8) Effect {
	eff := Effect{Sent: true, Byte: v}
	if c.match != nil && b.Hid[hMatched] == 0 {
		st := uint16(b.Hid[hMatch])<<8 | uint16(b.Hid[hMatch+1])
		st = c.match.next(st, v)
		b.Hid[hMatch], b.Hid[hMatch+1] = uint8(st>>8), uint8(st)
		if c.match.accept(st) {
			b.Hid[hMatched] = 1
			eff.Matched = true
		}
	}
	return eff
}

// sciPending reports whether the SCI requests its interrupt.
func (c *Chip) sciPending(b *Block) bool {
	sr, cr := b.Reg[rSCSR], b.Reg[rSCCR2]
	return cr&sccr2TIE != 0 && sr&scsrTDRE != 0 ||
		cr&sccr2TCIE != 0 && sr&scsrTC != 0 ||
		cr&sccr2RIE != 0 && sr&(scsrRDRF|scsrOR) != 0 ||
		cr&sccr2ILIE != 0 && sr&scsrIDLE != 0
}

// rxEvents is the number of receive events in b: one per byte of the
// alphabet when RDRF is clear, one overrun when RDRF is set and OR clear.
func (c *Chip) rxEvents(b *Block) int {
	if b.Reg[rSCCR2]&sccr2RE == 0 || c.maxRx >= 0 && int(b.Hid[hRxN]) >= c.maxRx {
		return 0
	}
	if c.exact && get3(b, hRx) < frame(b) {
		return 0 // the line is still carrying the previous byte
	}
	switch sr := b.Reg[rSCSR]; {
	case sr&scsrRDRF == 0:
		return len(c.alpha)
	case sr&scsrOR == 0:
		return 1
	}
	return 0
}

// Events is the number of environment events possible in b, in this
// order: the SCI's receive events, its transmitter finishing, then the
// timer's sources in priority order.
func (c *Chip) Events(b *Block) int {
	n := c.rxEvents(b)
	if b.Hid[hSCITx]&txBusy != 0 && !c.exact {
		n++
	}
	for i := range sources {
		if c.timerEvent(b, i) {
			n++
		}
	}
	if c.waitCycles(b) > 0 {
		n++
	}
	return n
}

// locate finds event k: its kind and, for a timer event, the source; -1
// when there is no event k.
func (c *Chip) locate(b *Block, k int) (EventKind, int) {
	if k < 0 {
		return 0, -1
	}
	if n := c.rxEvents(b); k < n {
		if b.Reg[rSCSR]&scsrRDRF != 0 {
			return EvOverrun, 0
		}
		return EvReceive, k
	} else {
		k -= n
	}
	if b.Hid[hSCITx]&txBusy != 0 && !c.exact {
		if k == 0 {
			return EvTxDone, 0
		}
		k--
	}
	for i := range sources {
		if c.timerEvent(b, i) {
			if k == 0 {
				if sources[i].periodic {
					return EvTime, i
				}
				return EvCapture, i
			}
			k--
		}
	}
	if k == 0 && c.waitCycles(b) > 0 {
		return EvWait, 0
	}
	return 0, -1
}

// Info describes event k.
func (c *Chip) Info(b *Block, k int) EventInfo {
	kind, i := c.locate(b, k)
	switch kind {
	case EvReceive:
		return EventInfo{Kind: kind, Byte: c.alpha[i]}
	case EvTime, EvCapture:
		return EventInfo{Kind: kind, Source: sources[i].name}
	case EvWait:
		return EventInfo{Kind: kind, Cycles: c.waitCycles(b)}
	}
	return EventInfo{Kind: kind}
}

// Event makes event k happen.
func (c *Chip) Event(b *Block, k int) Effect {
	kind, i := c.locate(b, k)
	switch kind {
	case EvReceive:
		b.Reg[rSCDR] = c.alpha[i]
		b.Reg[rSCSR] |= scsrRDRF
		c.count(b, hRxN, c.maxRx)
		c.received(b)
		return Effect{Received: true, RxCount: b.Hid[hRxN]}
	case EvOverrun:
		b.Reg[rSCSR] |= scsrOR
		c.count(b, hRxN, c.maxRx)
		c.received(b)
		return Effect{Received: true, RxCount: b.Hid[hRxN]}
	case EvWait:
		return c.Elapse(b, c.waitCycles(b))
	case EvTxDone:
		b.Hid[hTxTime], b.Hid[hTxTime+1] = 0, 0
		if b.Hid[hSCITx]&txFull != 0 {
			v := b.Hid[hSCITDR]
			b.Hid[hSCITx] &^= txFull
			b.Hid[hSCITDR] = 0 // empty: no stale byte to tell states apart
			b.Reg[rSCSR] |= scsrTDRE
			return c.sent(b, v)
		}
		b.Hid[hSCITx] = 0
		b.Reg[rSCSR] |= scsrTC
	case EvTime, EvCapture:
		c.fire(b, i)
		c.count(b, hTimeN, c.maxTime)
	}
	return Effect{}
}

// frameCycles is the time one frame takes at the rate BAUD sets and the
// character length SCCR1's M bit sets, in E cycles: frameBits bits of
// sixteen E cycles each at the SCI's prescaler (SCP1:SCP0 divide by 1,
// 3, 4 or 13) and rate select (SCR2:SCR0 divide by 2^SCR).
func frameCycles(baud, sccr1 uint8) int {
	return frameBits(sccr1) * bitCycles(baud)
}

// bitCycles is the E cycles of one bit at the rate BAUD sets.
func bitCycles(baud uint8) int {
	pre := [4]int{1, 3, 4, 13}[baud>>4&3]
	return 16 * pre << (baud & 7)
}

// frameBits is the bits of one frame: a start bit, eight data bits and a
// stop bit, or nine data bits when SCCR1's M bit is set (the M68HC11
// Reference Manual, section 9, data format and SCCR1: M selects
// eleven-bit characters, for the receiver and the transmitter alike).
func frameBits(sccr1 uint8) int {
	if sccr1&sccr1M != 0 {
		return 11
	}
	return 10
}

// frame is frameCycles of b's registers.
func frame(b *Block) uint64 { return uint64(frameCycles(b.Reg[rBAUD], b.Reg[rSCCR1])) }

// txFrame is frame, or under the fault mutation.SCITenBits a frame of
// ten bits whatever M says.
func (c *Chip) txFrame(b *Block) uint64 {
	if c.tenBits {
		return uint64(frameCycles(b.Reg[rBAUD], 0))
	}
	return frame(b)
}

// FrameCycles is the E cycles one frame of the SCI's line takes with
// register block regs (BAUD and SCCR1 at their offsets), the unit of the
// exact clock's line (Options.Exact).
func FrameCycles(regs []byte) int { return frameCycles(regs[rBAUD], regs[rSCCR1]) }

// txOn queues the preamble the transmitter sends when TE goes from 0 to
// 1, under the exact clock: one idle character, a frame of ones
// (reference manual, section 9.3, transmit operation, and SCCR2's TE).
// The shift register sends it before anything written to SCDR, so that
// a byte written now waits in TDR for a frame, and TC waits for both
// (TC is set when the transmitter is idle: no data, preamble or break
// being sent). When the shift register is still sending a byte (TE was
// cleared and set again while it finished), the preamble follows it.
func (c *Chip) txOn(b *Block) {
	if c.tenBits {
		return
	}
	if b.Hid[hSCITx]&txBusy != 0 {
		b.Hid[hSCITx] |= txPreamble
		return
	}
	b.Hid[hSCITx] |= txBusy
	put3(b, hTxLeft, c.txStart(b))
}

// txStart is the E cycles, counted from the start of the current
// transition, until the end of a frame that the write being made starts:
// the write is the last cycle of its instruction (the M68HC11 Reference
// Manual, appendix A's cycle-by-cycle tables: a store writes in its last
// cycle), which is the transition's last (an access of the registers
// ends it) and the frame's first, and the simulator elapses the
// transition's cycles (Block.Elapsed) after the write.
func (c *Chip) txStart(b *Block) uint64 {
	return c.txFrame(b) + max(b.Elapsed, 1) - 1
}

// Overdue reports whether the transmitter's byte has been shifted out for
// a frame's time while the device counted cycles: its event must happen
// before the CPU goes on.
func (c *Chip) Overdue(b *Block) bool {
	if b.Hid[hSCITx]&txBusy == 0 || b.Hid[HidFlags]&FlagClocked == 0 || c.exact {
		return false
	}
	return int(b.Hid[hTxTime])<<8|int(b.Hid[hTxTime+1]) >= int(min(frame(b), 0xFFFF))
}

// Bounded reports whether a bound keeps an event from happening in b.
func (c *Chip) Bounded(b *Block) bool {
	if c.maxRx >= 0 && int(b.Hid[hRxN]) >= c.maxRx && b.Reg[rSCCR2]&sccr2RE != 0 {
		return true
	}
	return c.maxTime >= 0 && int(b.Hid[hTimeN]) >= c.maxTime
}

// count counts an event against its bound, if there is one.
func (c *Chip) count(b *Block, h, bound int) {
	if bound >= 0 {
		b.Hid[h]++
	}
}

// Queued returns the byte waiting in TDR behind the one the shift
// register is sending, if any: the transmitter sends it on its own once
// the shift register is free (Reference Manual 9.3, the double-buffered
// transmitter), whatever the CPU does meanwhile. A byte counts as sent
// when it enters the shift register (Effect.Sent), so this is the one
// byte of the SCI's output not yet reported.
func (c *Chip) Queued(b *Block) (uint8, bool) {
	if b.Hid[hSCITx]&txFull == 0 {
		return 0, false
	}
	return b.Hid[hSCITDR], true
}
