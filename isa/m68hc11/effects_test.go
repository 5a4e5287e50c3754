package m68hc11

import "testing"

var allPages = []Page{Page0, Page18, Page1A, PageCD}

// forEachOpcode calls f for every defined opcode.
func forEachOpcode(f func(p Page, op byte, info *Info, e Effects)) {
	for _, p := range allPages {
		for op := 0; op < 256; op++ {
			if info := Lookup(p, byte(op)); info.Defined() {
				f(p, byte(op), info, EffectsOf(p, byte(op)))
			}
		}
	}
}

const allFlags = FlagS | FlagX | FlagH | FlagI | FlagN | FlagZ | FlagV | FlagC

// The CCR bits each instruction reads, spelled from the manual's operation
// and Boolean formulas independently of opcodes.txt. Instructions not
// listed read no CCR bit.
var flagReaders = map[Op]uint8{
	ADCA: FlagC, ADCB: FlagC, SBCA: FlagC, SBCB: FlagC,
	ROL: FlagC, ROLA: FlagC, ROLB: FlagC, ROR: FlagC, RORA: FlagC, RORB: FlagC,
	DAA:  FlagH | FlagC,
	TPA:  allFlags, // A = CCR
	TAP:  FlagX,    // X can be cleared, not set
	RTI:  FlagX,    // likewise for the pulled CCR
	SWI:  allFlags, // stacks the CCR
	WAI:  allFlags,
	TEST: allFlags, // the illegal-opcode trap stacks the CCR
	STOP: FlagS,    // a NOP when S is set
	BHI:  FlagC | FlagZ, BLS: FlagC | FlagZ,
	BCC: FlagC, BCS: FlagC, BNE: FlagZ, BEQ: FlagZ, BVC: FlagV, BVS: FlagV,
	BPL: FlagN, BMI: FlagN,
	BGE: FlagN | FlagV, BLT: FlagN | FlagV,
	BGT: FlagZ | FlagN | FlagV, BLE: FlagZ | FlagN | FlagV,
}

func hasEA(m Mode) bool {
	switch m {
	case Dir, Ext, IdxX, IdxY, BitDir, BitIdxX, BitIdxY, BrDir, BrIdxX, BrIdxY:
		return true
	}
	return false
}

// The effects columns agree with the mode and ccr columns and with the
// manual's definitions spelled out here.
func TestEffectsConsistent(t *testing.T) {
	forEachOpcode(func(p Page, op byte, info *Info, e Effects) {
		name := info.Op.String() + " " + info.Mode.String()
		errorf := func(format string, args ...any) {
			t.Helper()
			t.Errorf("%#02x/%#02x %s: "+format, append([]any{byte(p), op, name}, args...)...)
		}
		c := info.CCR
		// Written flags: exactly the bits the ccr column sets, clears or
		// changes; TEST's row is the illegal-opcode trap, which sets I.
		wantW := c.Changed | c.Set | c.Cleared
		if info.Op == TEST {
			wantW |= FlagI
		}
		if e.CCRWritten != wantW {
			errorf("CCRWritten %08b, ccr column says %08b", e.CCRWritten, wantW)
		}
		if (e.CCRRead|e.CCRWritten)&c.Undefined != 0 {
			errorf("an undefined bit (%08b) is read or written", c.Undefined)
		}
		if e.CCRRead != flagReaders[info.Op] {
			errorf("CCRRead %08b, want %08b", e.CCRRead, flagReaders[info.Op])
		}
		// A bit forced to 0 or 1 is read only by what stacks the CCR first.
		if e.CCRRead&(c.Set|c.Cleared) != 0 && e.StackPush != 9 {
			errorf("reads a bit it forces")
		}

		// The effective address and the memory operand.
		switch {
		case !hasEA(info.Mode):
			if e.MemWidth != 0 || e.MemRead || e.MemWritten {
				errorf("memory operand without an effective address")
			}
		case info.Op == JMP || info.Op == JSR:
			if e.MemWidth != 0 || e.MemRead || e.MemWritten {
				errorf("a jump uses its address, not the memory there")
			}
		default:
			if e.MemWidth == 0 || !(e.MemRead || e.MemWritten) {
				errorf("effective address with no memory access")
			}
		}
		if e.MemWidth > 2 || (e.MemWidth > 0) != (e.MemRead || e.MemWritten) {
			errorf("MemWidth %d with read %v written %v", e.MemWidth, e.MemRead, e.MemWritten)
		}
		switch info.Mode {
		case BitDir, BitIdxX, BitIdxY:
			if !e.MemRead || !e.MemWritten || e.MemWidth != 1 {
				errorf("BSET/BCLR read and write one byte")
			}
		case BrDir, BrIdxX, BrIdxY:
			if !e.MemRead || e.MemWritten || e.MemWidth != 1 {
				errorf("BRSET/BRCLR read one byte")
			}
		}
		var wantAddr Regs
		switch info.Mode {
		case IdxX, BitIdxX, BrIdxX:
			wantAddr = RegX
		case IdxY, BitIdxY, BrIdxY:
			wantAddr = RegY
		}
		if e.AddrRegs != wantAddr {
			errorf("AddrRegs %v, want %v", e.AddrRegs, wantAddr)
		}
		// A store's width is its register's.
		if e.MemWritten && !e.MemRead && info.Op != CLR {
			want := uint8(1)
			if e.RegsRead&(RegX|RegY|RegSP) != 0 || e.RegsRead == RegD {
				want = 2
			}
			if e.MemWidth != want || e.RegsWritten != 0 {
				errorf("store of %v with width %d", e.RegsRead, e.MemWidth)
			}
		}

		// The stack.
		if e.StackPush > 0 && e.StackPull > 0 {
			errorf("pushes and pulls")
		}
		if (e.StackPush > 0 || e.StackPull > 0) && !(e.RegsRead.Has(RegSP) && e.RegsWritten.Has(RegSP)) {
			errorf("stack access without reading and writing SP")
		}
		if e.StackPush == 9 && (e.RegsRead != RegAll || e.CCRRead != allFlags) {
			errorf("stacks the registers without reading them all")
		}
		if e.StackPull == 9 && (e.RegsWritten != RegAll || e.CCRWritten != allFlags) {
			errorf("pulls the registers without writing them all")
		}
		if e.Halt != (info.Op == WAI || info.Op == STOP) {
			errorf("Halt %v", e.Halt)
		}
		if e.Vector != (info.Op == SWI || info.Op == TEST) {
			errorf("Vector %v", e.Vector)
		}
		if e.Vector && (e.StackPush != 9 || e.CCRWritten&FlagI == 0) {
			errorf("a vector without the frame and I")
		}
		if e.RegsRead&^RegAll != 0 || e.RegsWritten&^RegAll != 0 {
			errorf("unknown register bits")
		}
		code := []byte{byte(p), op, 0, 0, 0, 0}
		if p == Page0 {
			code = code[1:]
		}
		if in, err := Decode(code); err != nil || in.Effects() != e {
			errorf("Inst.Effects disagrees with EffectsOf (%v)", err)
		}
	})
}

// Every form of a mnemonic has the same effects but for the memory operand,
// which all its memory forms share.
func TestEffectsAcrossModes(t *testing.T) {
	first := map[Op]Effects{}
	firstMem := map[Op]Effects{}
	immWidth := map[Op]uint8{}
	forEachOpcode(func(p Page, op byte, info *Info, e Effects) {
		core := e
		core.MemRead, core.MemWritten, core.MemWidth, core.AddrRegs = false, false, 0, 0
		if f, ok := first[info.Op]; ok && f != core {
			t.Errorf("%v %v: %v, another form has %v", info.Op, info.Mode, e, f)
		}
		first[info.Op] = core
		if hasEA(info.Mode) {
			m := Effects{MemRead: e.MemRead, MemWritten: e.MemWritten, MemWidth: e.MemWidth}
			if f, ok := firstMem[info.Op]; ok && f != m {
				t.Errorf("%v %v: memory %v, another form has %v", info.Op, info.Mode, e, f)
			}
			firstMem[info.Op] = m
		}
		if w, ok := map[Mode]uint8{Imm8: 1, Imm16: 2}[info.Mode]; ok {
			immWidth[info.Op] = w
		}
	})
	// An immediate form says the operand's width for the memory forms.
	for op, w := range immWidth {
		if f, ok := firstMem[op]; ok && f.MemWidth != w {
			t.Errorf("%v: immediate of %d bytes, memory forms of %d", op, w, f.MemWidth)
		}
	}
}

// Spot checks of rows the brief of the tables names, against the manual.
func TestEffectsExamples(t *testing.T) {
	for _, tt := range []struct {
		p    Page
		op   byte
		want Effects
	}{
		{Page0, 0x8F, Effects{RegsRead: RegD | RegX, RegsWritten: RegD | RegX}},                                                        // XGDX
		{Page0, 0x30, Effects{RegsRead: RegSP, RegsWritten: RegX}},                                                                     // TSX
		{Page0, 0x35, Effects{RegsRead: RegX, RegsWritten: RegSP}},                                                                     // TXS
		{Page0, 0x02, Effects{RegsRead: RegD | RegX, RegsWritten: RegD | RegX, CCRWritten: FlagZ | FlagV | FlagC}},                     // IDIV
		{Page0, 0x3D, Effects{RegsRead: RegA | RegB, RegsWritten: RegD, CCRWritten: FlagC}},                                            // MUL
		{Page0, 0x36, Effects{RegsRead: RegA | RegSP, RegsWritten: RegSP, StackPush: 1}},                                               // PSHA
		{Page18, 0x38, Effects{RegsRead: RegSP, RegsWritten: RegY | RegSP, StackPull: 2}},                                              // PULY
		{Page0, 0x39, Effects{RegsRead: RegSP, RegsWritten: RegSP, StackPull: 2}},                                                      // RTS
		{Page0, 0xAD, Effects{RegsRead: RegSP, RegsWritten: RegSP, AddrRegs: RegX, StackPush: 2}},                                      // JSR n,X
		{Page0, 0x6E, Effects{AddrRegs: RegX}},                                                                                         // JMP n,X
		{Page18, 0x1E, Effects{AddrRegs: RegY, MemRead: true, MemWidth: 1}},                                                            // BRSET n,Y
		{Page0, 0x15, Effects{CCRWritten: FlagN | FlagZ | FlagV, MemRead: true, MemWritten: true, MemWidth: 1}},                        // BCLR *d
		{Page0, 0x0E, Effects{CCRWritten: FlagI}},                                                                                      // CLI
		{Page0, 0x19, Effects{RegsRead: RegA, RegsWritten: RegA, CCRRead: FlagH | FlagC, CCRWritten: FlagN | FlagZ | FlagC}},           // DAA
		{Page0, 0x06, Effects{RegsRead: RegA, CCRRead: FlagX, CCRWritten: allFlags}},                                                   // TAP
		{Page0, 0x07, Effects{RegsWritten: RegA, CCRRead: allFlags}},                                                                   // TPA
		{Page0, 0x3B, Effects{RegsRead: RegSP, RegsWritten: RegAll, CCRRead: FlagX, CCRWritten: allFlags, StackPull: 9}},               // RTI
		{PageCD, 0xAC, Effects{RegsRead: RegX, AddrRegs: RegY, CCRWritten: FlagN | FlagZ | FlagV | FlagC, MemRead: true, MemWidth: 2}}, // CPX n,Y
		{Page1A, 0xEF, Effects{RegsRead: RegY, AddrRegs: RegX, CCRWritten: FlagN | FlagZ | FlagV, MemWritten: true, MemWidth: 2}},      // STY n,X
		{Page0, 0x41, Effects{}}, // undefined
	} {
		if got := EffectsOf(tt.p, tt.op); got != tt.want {
			t.Errorf("%#02x/%#02x: %v, want %v", byte(tt.p), tt.op, got, tt.want)
		}
	}
}

func TestRegsString(t *testing.T) {
	for r, want := range map[Regs]string{0: "-", RegD: "A,B", RegAll: "A,B,X,Y,SP", RegY | RegSP: "Y,SP"} {
		if got := r.String(); got != want {
			t.Errorf("%08b: %q, want %q", r, got, want)
		}
	}
}

func TestEffectsAllocs(t *testing.T) {
	in, _ := Decode([]byte{0x18, 0x1e, 0x07, 0x02, 0x00})
	var sink Effects
	if n := testing.AllocsPerRun(100, func() { sink = in.Effects(); sink = EffectsOf(PageCD, 0xAC) }); n != 0 {
		t.Errorf("Effects allocates %v times", n)
	}
	_ = sink
}
