package devices

// StopDelay is the oscillator's restart delay after STOP, in E cycles,
// when OPTION's DLY bit is set (its value after reset): the M68HC11
// Reference Manual's STOP (appendix A) and OPTION's DLY bit (section 5):
// the stop recovery holds the CPU for 4064 E cycles after the interrupt
// that ends STOP, so that the crystal oscillator is stable, before the
// interrupt's entry.
const StopDelay = 4064

// optionDLY is OPTION's DLY bit: the restart delay after STOP.
const optionDLY = 0x10

// RestartDelay is the E cycles the CPU waits, in b, between the
// interrupt that ends STOP and its entry: StopDelay while OPTION's DLY is
// set, none when the firmware cleared it (it may write DLY once, in the
// first 64 cycles).
func (c *Chip) RestartDelay(b *Block) uint64 {
	if b.Reg[rOPTION]&optionDLY != 0 {
		return StopDelay
	}
	return 0
}
