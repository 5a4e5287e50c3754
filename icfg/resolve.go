package icfg

import (
	"fmt"

	"github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// A tiny constant propagation over the straight-line block that ends at a
// call or jump: enough to read the thread entry of
//
//	ldd #entry / ldaa #hi + ldab #lo / ldx #entry + xgdx  …  jsr __mc_thread_create
//
// and the usual shapes of indirect jumps:
//
//	ldx #f             jsr 0,x                  (a constant X)
//	ldx table          jmp 0,x                  (X read from ROM)
//	ldx #tbl  abx  ldx n,x  jmp 0,x             (a jump table indexed by B)
//
// and the same with Y.

// byteVal is an 8-bit register that is known or not.
type byteVal struct {
	known bool
	v     uint8
}

// ixKind says what is known about an index register.
type ixKind uint8

const (
	ixUnknown ixKind = iota
	ixConst          // the register holds v
	ixIndex          // the register holds v plus an unknown offset (after ABX/ABY)
	ixLoaded         // the register holds one of the words of the table at v
)

// ixVal is the abstract value of X or Y.
type ixVal struct {
	kind ixKind
	v    uint16
}

// regState is the abstract register file.
type regState struct {
	a, b byteVal
	x, y ixVal
}

// blockState walks back from the instruction at site through the
// straight-line block that ends there and returns the registers just before
// site executes.
func (b *builder) blockState(site uint16) regState {
	var seq []uint16
	cur := site
	for len(seq) < 64 {
		if b.leaders[cur] {
			break
		}
		p, ok := b.fallPred[cur]
		if !ok {
			break
		}
		if x := b.ins[p]; x == nil || x.Kind != KindFlow {
			break
		}
		seq = append(seq, p)
		cur = p
	}
	var st regState
	for i := len(seq) - 1; i >= 0; i-- {
		b.step(&st, b.ins[seq[i]].Inst)
	}
	return st
}

// word reads a constant big-endian word at a: ok only where the image loads
// read-only memory.
func (b *builder) word(a uint16) (uint16, bool) {
	if a == 0xFFFF || !b.ro[a] || !b.ro[a+1] {
		return 0, false
	}
	return uint16(b.mem[a])<<8 | uint16(b.mem[a+1]), true
}

// loadIx is the value of LDX/LDY in the given mode.
func (b *builder) loadIx(st *regState, in m68hc11.Inst) ixVal {
	var base ixVal
	switch in.Mode {
	case m68hc11.Imm16:
		return ixVal{ixConst, in.Operand}
	case m68hc11.Dir, m68hc11.Ext:
		if w, ok := b.word(in.Operand); ok {
			return ixVal{ixConst, w}
		}
		return ixVal{}
	case m68hc11.IdxX:
		base = st.x
	case m68hc11.IdxY:
		base = st.y
	default:
		return ixVal{}
	}
	switch base.kind {
	case ixConst:
		if w, ok := b.word(base.v + in.Operand); ok {
			return ixVal{ixConst, w}
		}
	case ixIndex:
		return ixVal{ixLoaded, base.v + in.Operand}
	}
	return ixVal{}
}

// step applies one instruction to the abstract registers.
func (b *builder) step(st *regState, in m68hc11.Inst) {
	var ab, x, y bool // which registers the instruction may have changed
	switch in.Op {
	case m68hc11.LDAA:
		st.a = byteVal{}
		if in.Mode == m68hc11.Imm8 {
			st.a = byteVal{true, uint8(in.Operand)}
		}
		return
	case m68hc11.LDAB:
		st.b = byteVal{}
		if in.Mode == m68hc11.Imm8 {
			st.b = byteVal{true, uint8(in.Operand)}
		}
		return
	case m68hc11.LDD:
		st.a, st.b = byteVal{}, byteVal{}
		if in.Mode == m68hc11.Imm16 {
			st.a = byteVal{true, uint8(in.Operand >> 8)}
			st.b = byteVal{true, uint8(in.Operand)}
		}
		return
	case m68hc11.CLRA:
		st.a = byteVal{true, 0}
		return
	case m68hc11.CLRB:
		st.b = byteVal{true, 0}
		return
	case m68hc11.TAB:
		st.b = st.a
		return
	case m68hc11.TBA:
		st.a = st.b
		return
	case m68hc11.LDX:
		st.x = b.loadIx(st, in)
		return
	case m68hc11.LDY:
		st.y = b.loadIx(st, in)
		return
	case m68hc11.ABX:
		st.x = addIndex(st.x)
		return
	case m68hc11.ABY:
		st.y = addIndex(st.y)
		return
	case m68hc11.XGDX:
		st.a, st.b, st.x = swapD(st.a, st.b, st.x)
		return
	case m68hc11.XGDY:
		st.a, st.b, st.y = swapD(st.a, st.b, st.y)
		return
	case m68hc11.NOP, m68hc11.INS, m68hc11.DES, m68hc11.LDS, m68hc11.TXS, m68hc11.TYS,
		m68hc11.STAA, m68hc11.STAB, m68hc11.STD, m68hc11.STX, m68hc11.STY, m68hc11.STS,
		m68hc11.PSHA, m68hc11.PSHB, m68hc11.PSHX, m68hc11.PSHY,
		m68hc11.CPX, m68hc11.CPY, m68hc11.CPD, m68hc11.CMPA, m68hc11.CMPB, m68hc11.CBA,
		m68hc11.TST, m68hc11.TSTA, m68hc11.TSTB, m68hc11.BITA, m68hc11.BITB,
		m68hc11.CLC, m68hc11.SEC, m68hc11.CLI, m68hc11.SEI, m68hc11.CLV, m68hc11.SEV, m68hc11.TAP,
		m68hc11.BSET, m68hc11.BCLR, m68hc11.INC, m68hc11.DEC, m68hc11.CLR, m68hc11.COM,
		m68hc11.NEG, m68hc11.ASL, m68hc11.ASR, m68hc11.LSR, m68hc11.ROL, m68hc11.ROR,
		m68hc11.WAI, m68hc11.STOP, m68hc11.BRN:
		return // no register of interest changes
	case m68hc11.INX, m68hc11.DEX, m68hc11.TSX, m68hc11.PULX:
		x = true
	case m68hc11.INY, m68hc11.DEY, m68hc11.TSY, m68hc11.PULY:
		y = true
	case m68hc11.IDIV, m68hc11.FDIV:
		ab, x = true, true
	default:
		ab = true // every other instruction may change A or B
	}
	if ab {
		st.a, st.b = byteVal{}, byteVal{}
	}
	if x {
		st.x = ixVal{}
	}
	if y {
		st.y = ixVal{}
	}
}

// addIndex is ABX/ABY: a constant base becomes a table index.
func addIndex(v ixVal) ixVal {
	if v.kind == ixConst || v.kind == ixIndex {
		return ixVal{ixIndex, v.v}
	}
	return ixVal{}
}

// swapD is XGDX/XGDY on the abstract values.
func swapD(a, b byteVal, ix ixVal) (byteVal, byteVal, ixVal) {
	var nix ixVal
	if a.known && b.known {
		nix = ixVal{ixConst, uint16(a.v)<<8 | uint16(b.v)}
	}
	if ix.kind == ixConst {
		return byteVal{true, uint8(ix.v >> 8)}, byteVal{true, uint8(ix.v)}, nix
	}
	return byteVal{}, byteVal{}, nix
}

// resolveIndirect finds the targets of JMP/JSR ff,X or ff,Y from the block
// that ends at it.
func (b *builder) resolveIndirect(x *Instr) ([]uint16, string) {
	st := b.blockState(x.Addr)
	reg, name := st.x, "X"
	if x.Inst.Mode == m68hc11.IdxY {
		reg, name = st.y, "Y"
	}
	off := x.Inst.Operand
	switch reg.kind {
	case ixConst:
		t := reg.v + off
		if !b.codeAt(t) {
			return nil, ""
		}
		return []uint16{t}, fmt.Sprintf("constant %s = 0x%04X", name, reg.v)
	case ixLoaded:
		ws := b.table(reg.v)
		var out []uint16
		for _, w := range ws {
			out = append(out, w+off)
		}
		if len(out) == 0 {
			return nil, ""
		}
		return out, fmt.Sprintf("jump table at 0x%04X, %d entries", reg.v, len(ws))
	}
	return nil, ""
}

// codeAt reports whether t can be a jump or call target: a harness stub,
// known code, or bytes that decode as code.
func (b *builder) codeAt(t uint16) bool {
	if _, ok := b.stub[t]; ok {
		return true
	}
	if _, ok := b.ins[t]; ok {
		return true
	}
	return b.trial(t)
}

// table reads the words of a jump table at t. A data symbol that covers t
// with a size bounds it; otherwise it ends at the first word that does not
// point to code, at the next symbol, at known code or after MaxTableEntries.
func (b *builder) table(t uint16) []uint16 {
	end, sized := -1, false
	next := 0x10000
	for _, s := range b.img.Symbols {
		if s.Kind == loader.SymObject && s.Size > 0 && s.Addr <= t && int(s.Addr)+int(s.Size) > int(t) {
			end, sized = int(s.Addr)+int(s.Size), true
		}
		if s.Addr > t && int(s.Addr) < next && s.Kind != loader.SymSection && s.Kind != loader.SymFile {
			next = int(s.Addr)
		}
	}
	if !sized {
		end = next
	}
	var out []uint16
	for a := int(t); a+1 < end && a+1 <= 0xFFFF && len(out) < b.opt.MaxTableEntries; a += 2 {
		if _, ok := b.ins[uint16(a)]; ok {
			break
		}
		w, ok := b.word(uint16(a))
		if !ok {
			break
		}
		if !b.codeAt(w) {
			if sized {
				continue
			}
			break
		}
		out = append(out, w)
	}
	return out
}
