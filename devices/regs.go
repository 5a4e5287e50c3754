package devices

// Register offsets in the block (A and E series; the F1 differs at 0x01-
// 0x07, see f1Names).
const (
	rPORTA  = 0x00
	rPIOC   = 0x02
	rPORTC  = 0x03
	rPORTB  = 0x04
	rPORTCL = 0x05
	rDDRC   = 0x07
	rPORTD  = 0x08
	rDDRD   = 0x09
	rPORTE  = 0x0A
	rCFORC  = 0x0B
	rOC1M   = 0x0C
	rOC1D   = 0x0D
	rTCNT   = 0x0E
	rTIC1   = 0x10
	rTOC1   = 0x16
	rTOC5   = 0x1E // TOC5 on the A series, TI4/O5 on the E and F1
	rTCTL1  = 0x20
	rTCTL2  = 0x21
	rTMSK1  = 0x22
	rTFLG1  = 0x23
	rTMSK2  = 0x24
	rTFLG2  = 0x25
	rPACTL  = 0x26
	rPACNT  = 0x27
	rSPCR   = 0x28
	rSPSR   = 0x29
	rSPDR   = 0x2A
	rBAUD   = 0x2B
	rSCCR1  = 0x2C
	rSCCR2  = 0x2D
	rSCSR   = 0x2E
	rSCDR   = 0x2F
	rADCTL  = 0x30
	rADR1   = 0x31
	rADR4   = 0x34
	rBPROT  = 0x35
	rOPTION = 0x39
	rCOPRST = 0x3A
	rPPROG  = 0x3B
	rHPRIO  = 0x3C
	rINIT   = 0x3D
	rTEST1  = 0x3E
	rCONFIG = 0x3F

	// F1 only.
	rDDRA   = 0x01
	rPORTG  = 0x02
	rDDRG   = 0x03
	rPORTF  = 0x05
	rPORTCf = 0x06
)

// RegINIT is the offset of INIT, which places RAM (high nibble) and the
// register block (low nibble) on 4 KiB boundaries.
const RegINIT = rINIT

// Bits of the SCI's registers.
const (
	scsrTDRE  = 0x80
	scsrTC    = 0x40
	scsrRDRF  = 0x20
	scsrIDLE  = 0x10
	scsrOR    = 0x08
	scsrNF    = 0x04
	scsrFE    = 0x02
	sccr2TIE  = 0x80
	sccr2TCIE = 0x40
	sccr2RIE  = 0x20
	sccr2ILIE = 0x10
	sccr2TE   = 0x08
	sccr2RE   = 0x04
	sccr1M    = 0x10 // nine data bits: an eleven-bit frame
)

// Hidden bytes (Block.Hid), after HidFlags.
const (
	hEarly   = 1  // E cycles since reset, up to 64
	hOnce    = 2  // time-protected registers already written: onceINIT …
	hActive  = 3  // 2 bytes: timer sources the firmware has touched, by index in sources
	hSCIArm  = 5  // SCSR bits seen set by a read of SCSR, for the clearing sequences
	hSCITx   = 6  // txBusy, txFull, txPreamble
	hSCITDR  = 7  // the byte waiting in TDR
	hSPIArm  = 8  // SPSR bits seen set by a read of SPSR
	hCOPArm  = 9  // 0x55 written to COPRST
	hCOP     = 10 // 3 bytes, big-endian: E cycles since the last COP service, up to the timeout
	hMatch   = 13 // 2 bytes: state of the output matcher
	hMatched = 15 // 1 once the output matched
	hRxN     = 16 // bytes received so far, when Options.MaxReceived bounds them
	hTimeN   = 17 // timer events so far, when Options.MaxTimer bounds them
	hTxTime  = 18 // 2 bytes: E cycles the byte in the shift register has been sent for (counted while clocked)
)

// HidWaitPassed is the hidden byte in which the simulator notes, under
// check --sci-timing first, that the firmware waited where a byte could
// have arrived and went on without one (sim.Config.SCIFirstWait); the
// chip clears it when a byte arrives (received), and leaves it alone
// otherwise. It follows the exact clock's hidden bytes (clock.go).
const HidWaitPassed = 31

const (
	onceINIT   = 1 << 0
	onceOPTION = 1 << 1
	onceTMSK2  = 1 << 2

	txBusy = 1 << 0 // the shift register is sending a byte
	txFull = 1 << 1 // a byte waits in TDR
	// txPreamble: the preamble TE's 0 to 1 queued waits for the shift
	// register's byte (exact clock, txOn).
	txPreamble = 1 << 2
)

// aeNames names the registers of the A and E series, by offset.
var aeNames = [64]string{
	rPORTA: "PORTA", rPIOC: "PIOC", rPORTC: "PORTC", rPORTB: "PORTB", rPORTCL: "PORTCL",
	rDDRC: "DDRC", rPORTD: "PORTD", rDDRD: "DDRD", rPORTE: "PORTE", rCFORC: "CFORC",
	rOC1M: "OC1M", rOC1D: "OC1D", rTCNT: "TCNT", rTCNT + 1: "TCNT+1",
	0x10: "TIC1", 0x11: "TIC1+1", 0x12: "TIC2", 0x13: "TIC2+1", 0x14: "TIC3", 0x15: "TIC3+1",
	0x16: "TOC1", 0x17: "TOC1+1", 0x18: "TOC2", 0x19: "TOC2+1", 0x1A: "TOC3", 0x1B: "TOC3+1",
	0x1C: "TOC4", 0x1D: "TOC4+1", 0x1E: "TOC5", 0x1F: "TOC5+1",
	rTCTL1: "TCTL1", rTCTL2: "TCTL2", rTMSK1: "TMSK1", rTFLG1: "TFLG1", rTMSK2: "TMSK2",
	rTFLG2: "TFLG2", rPACTL: "PACTL", rPACNT: "PACNT", rSPCR: "SPCR", rSPSR: "SPSR",
	rSPDR: "SPDR", rBAUD: "BAUD", rSCCR1: "SCCR1", rSCCR2: "SCCR2", rSCSR: "SCSR",
	rSCDR: "SCDR", rADCTL: "ADCTL", 0x31: "ADR1", 0x32: "ADR2", 0x33: "ADR3", 0x34: "ADR4",
	rOPTION: "OPTION", rCOPRST: "COPRST", rPPROG: "PPROG", rHPRIO: "HPRIO",
	rINIT: "INIT", rTEST1: "TEST1", rCONFIG: "CONFIG",
}

// resetAE is the power-up value of each register of the A series in
// expanded mode, from the reference manual's register summary, with the
// bits it leaves undefined (port pins, captured values, received data)
// at 0. The E series differs only in BPROT and TI4/O5 (see newRegSet).
var resetAE = [64]uint8{
	rPIOC: 0x03,                                     // EGA, INVB
	0x16:  0xFF, 0x17: 0xFF, 0x18: 0xFF, 0x19: 0xFF, // TOC1-TOC4: $FFFF
	0x1A: 0xFF, 0x1B: 0xFF, 0x1C: 0xFF, 0x1D: 0xFF,
	0x1E: 0xFF, 0x1F: 0xFF, // TOC5 (TI4/O5 on the E series)
	rSPCR:   0x04, // CPHA
	rSCSR:   0xC0, // TDRE, TC
	rOPTION: 0x10, // DLY
	rHPRIO:  0x25, // MDA (expanded mode), PSEL = 0101: no promotion
	rINIT:   0x01, // RAM at 0x0000, registers at 0x1000
}

// f1Names names the F1's registers where they differ from aeNames, and
// its registers above 0x3F.
var f1Names = map[int]string{
	rDDRA: "DDRA", rPORTG: "PORTG", rDDRG: "DDRG", rPORTB: "PORTB", rPORTF: "PORTF",
	rPORTCf: "PORTC", rDDRC: "DDRC", 0x38: "OPT2", rBPROT: "BPROT",
	0x5C: "CSSTRH", 0x5D: "CSCTL", 0x5E: "CSGADR", 0x5F: "CSGSIZ",
}

// ResetINIT is INIT's value after reset: RAM at 0x0000, the register
// block at 0x1000.
const ResetINIT = 0x01
