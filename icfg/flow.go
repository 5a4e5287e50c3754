package icfg

import (
	"fmt"

	"github.com/hc11mc/hc11mc/isa/m68hc11"
)

// The registers at an indirect jump or call come from a forward data flow
// over the instructions decoded so far (flowStates), not only from the
// straight-line block before it: a command loop keeps its pointer into a
// table of records in a RAM cell across a search loop (BUFFALO's
//
//	ldx #comtabl; stx ptr  …  ldx ptr; ldab 0,x; addb #3; abx; stx ptr  …
//	ldx ptr; dex; dex; ldx 0,x; jsr 0,x
//
// ), so the state tracks up to maxCells RAM words stored with STX/STY at a
// direct or extended address, and the word last pushed with PSHX/PSHY (an
// RTS after it is a dispatch through the pushed address). A call forgets
// every cell (the callee may write them), and so does a store through an
// index register that is not a constant. Stores the disassembly has not
// found cannot be accounted for: the result feeds the search heuristics and
// the coverage report, never a verdict.

// maxCells bounds the RAM words a flow state tracks.
const maxCells = 4

// cell is a RAM word holding a known index value.
type cell struct {
	addr uint16
	v    ixVal
}

// joinByte joins two 8-bit values.
func joinByte(p, q byteVal) byteVal {
	if p == q {
		return p
	}
	return byteVal{}
}

// joinIx joins two index values: a constant and a pointer into the same
// table are a pointer into it.
func joinIx(p, q ixVal) ixVal {
	if p == q {
		return p
	}
	ptr := func(v ixVal) bool { return v.kind == ixConst || v.kind == ixIndex }
	if ptr(p) && ptr(q) && p.v == q.v {
		return ixVal{ixIndex, p.v}
	}
	return ixVal{}
}

// join joins two flow states.
func join(p, q regState) regState {
	r := regState{a: joinByte(p.a, q.a), b: joinByte(p.b, q.b), x: joinIx(p.x, q.x), y: joinIx(p.y, q.y), top: joinIx(p.top, q.top)}
	for i := 0; i < p.ncell; i++ {
		if v, ok := q.cellAt(p.cells[i].addr); ok {
			if j := joinIx(p.cells[i].v, v); j.kind != ixUnknown {
				r.setCell(p.cells[i].addr, j)
			}
		}
	}
	return r
}

// cellAt returns the value of the word at a, if tracked.
func (st *regState) cellAt(a uint16) (ixVal, bool) {
	for i := 0; i < st.ncell; i++ {
		if st.cells[i].addr == a {
			return st.cells[i].v, true
		}
	}
	return ixVal{}, false
}

// setCell records the word at a (after forgetting the cells it overlaps).
func (st *regState) setCell(a uint16, v ixVal) {
	st.forget(a, 2)
	if v.kind == ixUnknown || st.ncell == maxCells {
		return
	}
	// Keep the cells sorted by address: equal states compare equal.
	i := st.ncell
	for i > 0 && st.cells[i-1].addr > a {
		st.cells[i] = st.cells[i-1]
		i--
	}
	st.cells[i] = cell{a, v}
	st.ncell++
}

// forget drops the cells that overlap the n bytes at a.
func (st *regState) forget(a uint16, n int) {
	k := 0
	for i := 0; i < st.ncell; i++ {
		c := st.cells[i]
		if int(c.addr)+2 > int(a) && int(c.addr) < int(a)+n {
			continue
		}
		st.cells[k] = c
		k++
	}
	for i := k; i < st.ncell; i++ {
		st.cells[i] = cell{}
	}
	st.ncell = k
}

// forgetAll drops every cell.
func (st *regState) forgetAll() {
	st.cells, st.ncell = [maxCells]cell{}, 0
}

// memEffect applies an instruction's writes to memory and to the stack to
// the tracked cells and the pushed word; it reports whether the
// instruction was one of the loads from a cell it resolved itself.
func (b *builder) memEffect(st *regState, in m68hc11.Inst) {
	switch in.Op {
	case m68hc11.PSHX:
		st.top = st.x
		return
	case m68hc11.PSHY:
		st.top = st.y
		return
	case m68hc11.PSHA, m68hc11.PSHB, m68hc11.PULA, m68hc11.PULB, m68hc11.PULX, m68hc11.PULY,
		m68hc11.INS, m68hc11.DES, m68hc11.TXS, m68hc11.TYS, m68hc11.LDS, m68hc11.RTS, m68hc11.RTI,
		m68hc11.SWI, m68hc11.WAI:
		st.top = ixVal{}
	}
	var size int
	switch in.Op {
	case m68hc11.STD, m68hc11.STX, m68hc11.STY, m68hc11.STS:
		size = 2
	case m68hc11.STAA, m68hc11.STAB, m68hc11.CLR, m68hc11.INC, m68hc11.DEC, m68hc11.COM,
		m68hc11.NEG, m68hc11.ASL, m68hc11.ASR, m68hc11.LSR, m68hc11.ROL, m68hc11.ROR,
		m68hc11.BSET, m68hc11.BCLR:
		size = 1
	default:
		return
	}
	var addr uint16
	switch in.Mode {
	case m68hc11.Dir, m68hc11.Ext, m68hc11.BitDir:
		addr = in.Operand
	case m68hc11.IdxX, m68hc11.BitIdxX, m68hc11.IdxY, m68hc11.BitIdxY:
		base := st.x
		if in.Mode == m68hc11.IdxY || in.Mode == m68hc11.BitIdxY {
			base = st.y
		}
		if base.kind != ixConst {
			st.forgetAll()
			return
		}
		addr = base.v + in.Operand
	default:
		return
	}
	switch {
	case in.Op == m68hc11.STX && (in.Mode == m68hc11.Dir || in.Mode == m68hc11.Ext):
		st.setCell(addr, st.x)
	case in.Op == m68hc11.STY && (in.Mode == m68hc11.Dir || in.Mode == m68hc11.Ext):
		st.setCell(addr, st.y)
	default:
		st.forget(addr, size)
	}
}

// flowStep is one instruction's effect on a flow state; x is its vertex.
func (b *builder) flowStep(st regState, x *Instr) regState {
	if x.Kind.IsCall() || x.Kind == KindStub || x.Kind == KindStubNoReturn {
		return regState{} // the callee may change anything
	}
	in := x.Inst
	b.memEffect(&st, in)
	b.step(&st, in)
	return st
}

// flowStates computes, for every decoded instruction, the join of the
// states in which control reaches it (entries: nothing known), and the
// predecessors of each instruction.
func (b *builder) flowStates() (map[uint16]regState, map[uint16][]uint16) {
	preds := map[uint16][]uint16{}
	for a, x := range b.ins {
		for _, t := range x.Next {
			preds[t] = append(preds[t], a)
		}
		if x.Kind.IsCall() && x.Ret != 0 && b.mayReturn(x) {
			preds[x.Ret] = append(preds[x.Ret], a)
		}
	}
	for t := range preds {
		sortU16(preds[t])
	}
	in := map[uint16]regState{}
	var work []uint16
	for a := range b.entries {
		if _, ok := b.ins[a]; ok {
			in[a] = regState{}
			work = append(work, a)
		}
	}
	push := func(t uint16, s regState) {
		if _, ok := b.ins[t]; !ok {
			return
		}
		old, seen := in[t]
		if seen {
			s = join(old, s)
			if s == old {
				return
			}
		}
		in[t] = s
		work = append(work, t)
	}
	for len(work) > 0 {
		a := work[len(work)-1]
		work = work[:len(work)-1]
		x := b.ins[a]
		out := b.flowStep(in[a], x)
		for _, t := range x.Next {
			push(t, out)
		}
		if x.Kind.IsCall() && x.Ret != 0 && b.mayReturn(x) {
			push(x.Ret, regState{})
		}
	}
	return in, preds
}

// siteStates returns the states in which control may reach the
// instruction at site, one per predecessor of the block it ends (kept
// apart: a command loop may jump to its dispatch with a constant X and
// fall into it with a word from the table).
func (b *builder) siteStates(site uint16, in map[uint16]regState, preds map[uint16][]uint16) []regState {
	var seq []uint16
	cur := site
	for len(seq) < 64 && !b.leaders[cur] {
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
	var starts []regState
	if b.entries[cur] || len(preds[cur]) == 0 {
		starts = append(starts, regState{})
	}
	for _, p := range preds[cur] {
		x := b.ins[p]
		s, ok := in[p]
		if !ok {
			starts = append(starts, regState{})
			continue
		}
		if x.Kind.IsCall() && x.Ret == cur && !contains(x.Next, cur) {
			starts = append(starts, regState{})
			continue
		}
		starts = append(starts, b.flowStep(s, x))
	}
	var out []regState
	for _, s := range starts {
		for i := len(seq) - 1; i >= 0; i-- {
			s = b.flowStep(s, b.ins[seq[i]])
		}
		dup := false
		for _, o := range out {
			dup = dup || o == s
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}

func contains(s []uint16, v uint16) bool {
	for _, w := range s {
		if w == v {
			return true
		}
	}
	return false
}

// targetsOf returns where an indirect transfer through the index value reg
// (plus off) may go, and how that was found; nil when it is not known.
func (b *builder) targetsOf(reg ixVal, off uint16, name string) ([]uint16, string) {
	switch reg.kind {
	case ixConst:
		t := reg.v + off
		if !b.codeAt(t) {
			return nil, ""
		}
		return []uint16{t}, fmt.Sprintf("constant %s = 0x%04X", name, reg.v)
	case ixLoaded:
		ws, shape := b.table(reg.v)
		var out []uint16
		for _, w := range ws {
			out = append(out, w+off)
		}
		if len(out) == 0 {
			return nil, ""
		}
		return out, fmt.Sprintf("%s at 0x%04X, %d entries", shape, reg.v, len(ws))
	}
	return nil, ""
}

func sortU16(s []uint16) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
