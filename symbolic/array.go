package symbolic

import (
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// A read through a symbolic index register (LDAA n,X with X symbolic: a
// table lookup by a symbolic byte) is not split on the register's values
// when the address provably falls in a window of at most maxWindow bytes of
// mapped memory that holds no --input address: the byte read is an
// if-then-else over the window, memory seen as an array indexed by the
// address term. Writes through a symbolic index, and reads whose window is
// too wide or reaches unmapped memory, are split instead.

const maxWindow = 1024

// window is the addresses a symbolic effective address may take.
type window struct {
	ea     *term.Term // the 16-bit effective address
	lo, hi uint16     // its bounds (lo <= hi)
}

// interval returns bounds of the unsigned value of t, from its structure
// and its known bits.
func interval(t *term.Term) (lo, hi uint64) {
	m := uint64(1)<<t.W - 1
	if t.W >= 64 {
		m = ^uint64(0)
	}
	k, kv := t.Known()
	lo, hi = kv, kv|(m&^k)
	var l2, h2 uint64
	switch t.Op {
	case term.OpConcat:
		hl, hh := interval(t.Args[0])
		ll, lh := interval(t.Args[1])
		l2, h2 = hl<<t.Args[1].W|ll, hh<<t.Args[1].W|lh
	case term.OpAdd:
		xl, xh := interval(t.Args[0])
		yl, yh := interval(t.Args[1])
		if xh+yh > m || xh+yh < xh {
			return lo, hi
		}
		l2, h2 = xl+yl, xh+yh
	case term.OpAnd:
		_, xh := interval(t.Args[0])
		_, yh := interval(t.Args[1])
		l2, h2 = 0, min(xh, yh)
	case term.OpIte:
		xl, xh := interval(t.Args[1])
		yl, yh := interval(t.Args[2])
		l2, h2 = min(xl, yl), max(xh, yh)
	default:
		return lo, hi
	}
	return max(lo, l2), min(hi, h2)
}

// arrayWindow returns the window of an instruction of thread i of st that
// reads memory through the symbolic index idx, or nil when it must be
// split. A window that overlaps another thread's stack while stack
// privacy is checked (sim.Machine.PrivateOverlap) is split too, so that
// the machine sees which byte is read.
func (e *Engine) arrayWindow(st *State, i int, in *isa.Inst, eff isa.Effects, idx *term.Term) *window {
	if !eff.MemRead || eff.MemWritten || eff.MemWidth == 0 || eff.StackPush > 0 || eff.StackPull > 0 || in.Op == isa.LDS {
		return nil
	}
	ea := e.B.Add(idx, e.k16(in.Operand))
	lo, hi := interval(ea)
	if hi < lo || hi-lo+uint64(eff.MemWidth) > maxWindow || hi+uint64(eff.MemWidth)-1 > 0xffff {
		return nil
	}
	if e.M.PrivateOverlap(st.S, i, uint16(lo), uint16(hi+uint64(eff.MemWidth)-1)) {
		return nil
	}
	for a := lo; a <= hi+uint64(eff.MemWidth)-1; a++ {
		if _, ok := e.M.Image.Map.Lookup(uint16(a)); !ok {
			return nil
		}
		if _, ok := e.M.InputValues(uint16(a)); ok {
			return nil
		}
	}
	return &window{ea: ea, lo: uint16(lo), hi: uint16(hi)}
}

// arrayRead returns the byte at address ea+k, k below the access width,
// for an effective address in w.
func (e *Engine) arrayRead(st *State, w *window, k uint16) *term.Term {
	addr := w.ea
	if k > 0 {
		addr = e.B.Add(addr, e.k16(k))
	}
	r := e.byteAt(st, w.hi+k)
	for a := int(w.hi) - 1; a >= int(w.lo); a-- {
		r = e.B.Ite(e.B.Eq(addr, e.k16(uint16(a)+k)), e.byteAt(st, uint16(a)+k), r)
	}
	return r
}
