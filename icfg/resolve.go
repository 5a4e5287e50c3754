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
	a, b  byteVal
	x, y  ixVal
	top   ixVal // the word last pushed by PSHX/PSHY, if nothing else touched the stack since
	cells [maxCells]cell
	ncell int
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
		if v, ok := st.cellAt(in.Operand); ok {
			return v
		}
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
	if in.IsBranch() {
		return // Bcc, BRSET, BRCLR change no register
	}
	switch in.Op {
	case m68hc11.BRA, m68hc11.JMP:
		return
	case m68hc11.INX, m68hc11.DEX:
		st.x = moveIndex(st.x, in.Op == m68hc11.INX)
		return
	case m68hc11.INY, m68hc11.DEY:
		st.y = moveIndex(st.y, in.Op == m68hc11.INY)
		return
	case m68hc11.PULX:
		st.x, st.top = st.top, ixVal{}
		return
	case m68hc11.PULY:
		st.y, st.top = st.top, ixVal{}
		return
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
	case m68hc11.TSX:
		x = true
	case m68hc11.TSY:
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

// moveIndex is INX/DEX (INY/DEY): a constant moves by one, a pointer into
// a table stays one.
func moveIndex(v ixVal, up bool) ixVal {
	switch v.kind {
	case ixConst:
		if up {
			return ixVal{ixConst, v.v + 1}
		}
		return ixVal{ixConst, v.v - 1}
	case ixIndex:
		return v
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

// resolveIndirect finds the targets of JMP/JSR ff,X or ff,Y (or of an RTS
// that pops a pushed word) from the states control reaches it in: every
// state must give targets, else the site is unresolved.
func (b *builder) resolveIndirect(x *Instr, in map[uint16]regState, preds map[uint16][]uint16) ([]uint16, string) {
	var out []uint16
	var hows []string
	for _, st := range b.siteStates(x.Addr, in, preds) {
		reg, name, off := st.x, "X", x.Inst.Operand
		switch {
		case x.Inst.Op == m68hc11.RTS:
			reg, name, off = st.top, "the pushed word", 0
		case x.Inst.Mode == m68hc11.IdxY:
			reg, name = st.y, "Y"
		}
		ts, how := b.targetsOf(reg, off, name)
		if len(ts) == 0 {
			return nil, ""
		}
		out = append(out, ts...)
		if !contains16s(hows, how) {
			hows = append(hows, how)
		}
	}
	if len(out) == 0 {
		return nil, ""
	}
	how := ""
	for i, h := range hows {
		if i > 0 {
			how += "; "
		}
		how += h
	}
	if x.Inst.Op == m68hc11.RTS {
		how = "RTS dispatch: " + how
	}
	return out, how
}

func contains16s(s []string, v string) bool {
	for _, w := range s {
		if w == v {
			return true
		}
	}
	return false
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

// table reads the addresses of a table at t and names its shape. First a
// table of words (a jump table): a data symbol that covers t with a size
// bounds it; otherwise it ends at the first word that does not point to
// code, at the next symbol, at known code or after MaxTableEntries. Failing
// that, a table of records that each hold one address: records of a length
// byte, that many printable characters and the address (a monitor's
// command table), or records of a fixed size of 3 to 8 bytes with the
// address at the same offset in each (a key byte and an address, ...).
func (b *builder) table(t uint16) ([]uint16, string) {
	if ws := b.wordTable(t); len(ws) > 0 {
		return ws, "jump table"
	}
	if ws := b.namedRecords(t); len(ws) >= 2 {
		return ws, "table of named records"
	}
	var best []uint16
	size := 0
	for s := 3; s <= 8; s++ {
		for o := 0; o+2 <= s; o++ {
			if ws := b.fixedRecords(t, s, o); len(ws) > len(best) {
				best, size = ws, s
			}
		}
	}
	if len(best) >= 3 {
		return best, fmt.Sprintf("table of %d-byte records", size)
	}
	return nil, ""
}

// namedRecords reads records of a length byte (1 to 16), that many
// printable characters and the address of code (from the third record on,
// of executable bytes: a routine the trial decoding does not take is still
// a command), up to a byte that starts no such record.
func (b *builder) namedRecords(t uint16) []uint16 {
	var out []uint16
	a := int(t)
	for len(out) < b.opt.MaxTableEntries && a <= 0xFFFF && b.ro[a] {
		n := int(b.mem[a])
		if n == 0 || n > 16 || a+n+2 > 0xFFFF {
			break
		}
		ok := true
		for k := 1; k <= n && ok; k++ {
			c := b.mem[a+k]
			ok = b.ro[a+k] && c >= 0x20 && c < 0x7F
		}
		if !ok {
			break
		}
		w, wok := b.word(uint16(a + 1 + n))
		if !wok || !b.codeAt(w) && (len(out) < 2 || !b.ex[w] || b.inside(w)) {
			break // after two records the shape is known: an address of executable bytes will do
		}
		out = append(out, w)
		a += n + 3
	}
	return out
}

// fixedRecords reads records of size bytes from t whose word at offset
// off is the address of code, up to the first that is not, or known code.
func (b *builder) fixedRecords(t uint16, size, off int) []uint16 {
	var out []uint16
	for a := int(t); a+size-1 <= 0xFFFF && len(out) < b.opt.MaxTableEntries; a += size {
		if _, ok := b.ins[uint16(a)]; ok {
			break
		}
		w, ok := b.word(uint16(a + off))
		if !ok || !b.codeAt(w) {
			break
		}
		out = append(out, w)
	}
	return out
}

// wordTable reads the words of a jump table at t.
func (b *builder) wordTable(t uint16) []uint16 {
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
