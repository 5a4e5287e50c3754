// Package term is a small language of bit-vector terms for the symbolic
// engine: constants, variables, the operations of package sim/alu's
// Domain and the few the executor adds (extraction, concatenation,
// if-then-else, comparisons). Terms are hash-consed by a Builder, so that
// equal terms are the same pointer, and simplified as they are built:
// constant folding, the bits each term is known to have (a CCR whose data
// flags are symbolic keeps its S, X and I bits concrete), and a few
// algebraic identities. Truth values are 1-bit terms.
//
// It is pure Go: terms are evaluated here (Eval), which is how the tests
// compare the symbolic arithmetic with the concrete one on every operand;
// package symbolic translates them to Z3 for the solver. It knows nothing
// of the 68HC11 beyond what the alu Domain asks for.
package term

import (
	"fmt"
	"math/bits"
	"strings"
)

// Op is the operation at the root of a term.
type Op uint8

// The operations. Shl and Shr shift by the constant Aux; Extract takes W
// bits from bit Aux of its argument; Eq and Ult are 1-bit.
const (
	OpConst Op = iota
	OpVar
	OpAdd
	OpSub
	OpMul
	OpUDiv // x / 0 is all ones
	OpURem // x % 0 is x
	OpAnd
	OpOr
	OpXor
	OpNot
	OpShl
	OpShr
	OpExtract
	OpConcat // Args[0] is the high part
	OpIte    // Args[0] is the 1-bit condition
	OpEq
	OpUlt
)

var opNames = [...]string{"const", "var", "bvadd", "bvsub", "bvmul", "bvudiv", "bvurem",
	"bvand", "bvor", "bvxor", "bvnot", "bvshl", "bvlshr", "extract", "concat", "ite", "=", "bvult"}

func (o Op) String() string { return opNames[o] }

// MaxWidth is the widest term.
const MaxWidth = 64

// Term is an immutable bit-vector expression of W bits. Terms built by
// one Builder are equal exactly when they are the same pointer.
type Term struct {
	Op   Op
	W    uint8   // width in bits, 1 to MaxWidth
	Aux  uint8   // shift count, or the low bit of an extraction
	Val  uint64  // the value of a constant; the index of a variable
	Args []*Term // operands
	Name string  // a variable's name

	id          uint32
	known, kval uint64 // bits known to be 0 or 1, and their values
	hasVar      bool
}

// ID is the term's number in its builder, dense from 0.
func (t *Term) ID() uint32 { return t.id }

// IsConst reports whether t is a constant, and its value.
func (t *Term) IsConst() (uint64, bool) { return t.Val, t.Op == OpConst }

// Known returns the mask of the bits of t whose value is known, and
// their values.
func (t *Term) Known() (mask, val uint64) { return t.known, t.kval }

func (t *Term) String() string {
	var b strings.Builder
	t.format(&b, 0)
	return b.String()
}

func (t *Term) format(b *strings.Builder, depth int) {
	switch t.Op {
	case OpConst:
		fmt.Fprintf(b, "#x%0*x", (int(t.W)+3)/4, t.Val)
		return
	case OpVar:
		b.WriteString(t.Name)
		return
	}
	if depth > 12 {
		b.WriteString("…")
		return
	}
	b.WriteString("(" + t.Op.String())
	switch t.Op {
	case OpShl, OpShr:
		fmt.Fprintf(b, " %d", t.Aux)
	case OpExtract:
		fmt.Fprintf(b, " %d %d", int(t.Aux)+int(t.W)-1, t.Aux)
	}
	for _, a := range t.Args {
		b.WriteByte(' ')
		a.format(b, depth+1)
	}
	b.WriteByte(')')
}

func ones(w uint8) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

type key struct {
	op      Op
	w       uint8
	aux     uint8
	val     uint64
	a, b, c uint32
	n       uint8
}

// Builder makes terms. It is not safe for concurrent use.
type Builder struct {
	table map[key]*Term
	terms []*Term
	vars  []*Term
	// extracted remembers Extract's results: it pushes an extraction
	// down through bitwise operations and if-then-else, and on a term
	// that shares subterms (the if-then-else of merged states, nested
	// once per merge) a walk without it visits each shared subterm once
	// per path to it, exponentially many times.
	extracted map[extractKey]*Term

	// evaluation scratch
	stamp []uint32
	vals  []uint64
	gen   uint32
}

type extractKey struct {
	id    uint32
	lo, w uint8
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder {
	return &Builder{table: map[key]*Term{}, extracted: map[extractKey]*Term{}}
}

// Len is the number of distinct terms built.
func (b *Builder) Len() int { return len(b.terms) }

// Vars returns the variables, in order of creation.
func (b *Builder) Vars() []*Term { return b.vars }

func (b *Builder) intern(t *Term) *Term {
	k := key{op: t.Op, w: t.W, aux: t.Aux, val: t.Val, n: uint8(len(t.Args))}
	ids := [3]*uint32{&k.a, &k.b, &k.c}
	for i, a := range t.Args {
		*ids[i] = a.id + 1
	}
	if old, ok := b.table[k]; ok {
		return old
	}
	t.id = uint32(len(b.terms))
	for _, a := range t.Args {
		t.hasVar = t.hasVar || a.hasVar
	}
	b.terms = append(b.terms, t)
	b.table[k] = t
	return t
}

// Const returns the w-bit constant v (truncated to w bits).
func (b *Builder) Const(w uint8, v uint64) *Term {
	v &= ones(w)
	return b.intern(&Term{Op: OpConst, W: w, Val: v, known: ones(w), kval: v})
}

// Bool returns the 1-bit constant for v.
func (b *Builder) Bool(v bool) *Term {
	if v {
		return b.Const(1, 1)
	}
	return b.Const(1, 0)
}

// Var returns a new variable of w bits named name.
func (b *Builder) Var(name string, w uint8) *Term {
	t := b.intern(&Term{Op: OpVar, W: w, Val: uint64(len(b.vars)), Name: name, hasVar: true})
	b.vars = append(b.vars, t)
	return t
}

// HasVar reports whether t depends on any variable.
func (t *Term) HasVar() bool { return t.hasVar }

// make builds an operation node after the simplifications have had their
// chance: its known bits decide it when they cover every bit.
func (b *Builder) make(op Op, w, aux uint8, known, kval uint64, args ...*Term) *Term {
	known &= ones(w)
	kval &= known
	if known == ones(w) {
		return b.Const(w, kval)
	}
	return b.intern(&Term{Op: op, W: w, Aux: aux, Args: args, known: known, kval: kval})
}

func same(x, y *Term) {
	if x.W != y.W {
		panic(fmt.Sprintf("term: width %d and %d: %v and %v", x.W, y.W, x, y))
	}
}

// order puts the operands of a commutative operation in a canonical order:
// a constant last, otherwise by id.
func order(x, y *Term) (*Term, *Term) {
	if x.Op == OpConst || (y.Op != OpConst && y.id < x.id) {
		return y, x
	}
	return x, y
}

// And returns x & y.
func (b *Builder) And(x, y *Term) *Term {
	same(x, y)
	x, y = order(x, y)
	m := ones(x.W)
	if v, ok := y.IsConst(); ok {
		switch v {
		case 0:
			return y
		case m:
			return x
		}
	}
	if x == y {
		return x
	}
	zx, zy := x.known&^x.kval, y.known&^y.kval // known zeros
	known := zx | zy | (x.known & y.known)
	return b.make(OpAnd, x.W, 0, known, x.kval&y.kval, x, y)
}

// Or returns x | y.
func (b *Builder) Or(x, y *Term) *Term {
	same(x, y)
	x, y = order(x, y)
	m := ones(x.W)
	if v, ok := y.IsConst(); ok {
		switch v {
		case 0:
			return x
		case m:
			return y
		}
	}
	if x == y {
		return x
	}
	o := (x.known & x.kval) | (y.known & y.kval) // known ones
	known := o | (x.known & y.known)
	return b.make(OpOr, x.W, 0, known, x.kval|y.kval, x, y)
}

// Xor returns x ^ y.
func (b *Builder) Xor(x, y *Term) *Term {
	same(x, y)
	x, y = order(x, y)
	if v, ok := y.IsConst(); ok && v == 0 {
		return x
	}
	if x == y {
		return b.Const(x.W, 0)
	}
	if v, ok := y.IsConst(); ok && v == ones(x.W) {
		return b.Not(x)
	}
	known := x.known & y.known
	return b.make(OpXor, x.W, 0, known, x.kval^y.kval, x, y)
}

// Not returns ^x.
func (b *Builder) Not(x *Term) *Term {
	if x.Op == OpNot {
		return x.Args[0]
	}
	return b.make(OpNot, x.W, 0, x.known, ^x.kval, x)
}

// AndNot returns x &^ y.
func (b *Builder) AndNot(x, y *Term) *Term { return b.And(x, b.Not(y)) }

// Shl returns x << n.
func (b *Builder) Shl(x *Term, n uint) *Term {
	if n == 0 {
		return x
	}
	if n >= uint(x.W) {
		return b.Const(x.W, 0)
	}
	return b.make(OpShl, x.W, uint8(n), x.known<<n|(1<<n-1), x.kval<<n, x)
}

// Shr returns x >> n, logical.
func (b *Builder) Shr(x *Term, n uint) *Term {
	if n == 0 {
		return x
	}
	if n >= uint(x.W) {
		return b.Const(x.W, 0)
	}
	if x.Op == OpConcat && uint(x.Args[1].W) == n {
		// (h:l) >> |l| is 0:h.
		return b.ZeroExt(x.Args[0], x.W)
	}
	hi := ones(x.W) &^ (ones(x.W) >> n)
	return b.make(OpShr, x.W, uint8(n), x.known>>n|hi, x.kval>>n, x)
}

// lowKnown is the number of low bits known in both x and y.
func lowKnown(x, y *Term) uint {
	return uint(bits.TrailingZeros64(^(x.known & y.known)))
}

// Add returns x + y.
func (b *Builder) Add(x, y *Term) *Term {
	same(x, y)
	x, y = order(x, y)
	if v, ok := y.IsConst(); ok && v == 0 {
		return x
	}
	// The low bits known in both operands are known in the sum.
	n := min(lowKnown(x, y), uint(x.W))
	known := ones(uint8(n))
	return b.make(OpAdd, x.W, 0, known, x.kval+y.kval, x, y)
}

// Sub returns x - y.
func (b *Builder) Sub(x, y *Term) *Term {
	same(x, y)
	if v, ok := y.IsConst(); ok && v == 0 {
		return x
	}
	if x == y {
		return b.Const(x.W, 0)
	}
	n := min(lowKnown(x, y), uint(x.W))
	return b.make(OpSub, x.W, 0, ones(uint8(n)), x.kval-y.kval, x, y)
}

// Mul returns x * y.
func (b *Builder) Mul(x, y *Term) *Term {
	same(x, y)
	x, y = order(x, y)
	if v, ok := y.IsConst(); ok {
		switch v {
		case 0:
			return y
		case 1:
			return x
		}
	}
	n := min(lowKnown(x, y), uint(x.W))
	return b.make(OpMul, x.W, 0, ones(uint8(n)), x.kval*y.kval, x, y)
}

// UDiv returns x / y, all ones when y = 0.
func (b *Builder) UDiv(x, y *Term) *Term {
	same(x, y)
	if xv, ok := x.IsConst(); ok {
		if yv, ok := y.IsConst(); ok {
			if yv == 0 {
				return b.Const(x.W, ones(x.W))
			}
			return b.Const(x.W, xv/yv)
		}
	}
	if v, ok := y.IsConst(); ok && v == 1 {
		return x
	}
	return b.make(OpUDiv, x.W, 0, 0, 0, x, y)
}

// URem returns x % y, x when y = 0.
func (b *Builder) URem(x, y *Term) *Term {
	same(x, y)
	if xv, ok := x.IsConst(); ok {
		if yv, ok := y.IsConst(); ok {
			if yv == 0 {
				return x
			}
			return b.Const(x.W, xv%yv)
		}
	}
	if v, ok := y.IsConst(); ok && v == 1 {
		return b.Const(x.W, 0)
	}
	return b.make(OpURem, x.W, 0, 0, 0, x, y)
}

// Extract returns the w bits of x from bit lo up.
func (b *Builder) Extract(x *Term, lo, w uint8) *Term {
	if int(lo)+int(w) > int(x.W) || w == 0 {
		panic(fmt.Sprintf("term: extract %d bits from %d of a %d-bit term", w, lo, x.W))
	}
	if lo == 0 && w == x.W {
		return x
	}
	k := extractKey{x.id, lo, w}
	if t, ok := b.extracted[k]; ok {
		return t
	}
	t := b.extract(x, lo, w)
	b.extracted[k] = t
	return t
}

// extract is Extract of fewer than all of x's bits, not yet remembered.
func (b *Builder) extract(x *Term, lo, w uint8) *Term {
	switch x.Op {
	case OpExtract:
		return b.Extract(x.Args[0], x.Aux+lo, w)
	case OpConcat:
		h, l := x.Args[0], x.Args[1]
		switch {
		case lo+w <= l.W:
			return b.Extract(l, lo, w)
		case lo >= l.W:
			return b.Extract(h, lo-l.W, w)
		}
	case OpAnd, OpOr, OpXor, OpNot, OpIte:
		// Bitwise operations commute with extraction.
		args := make([]*Term, len(x.Args))
		for i, a := range x.Args {
			if x.Op == OpIte && i == 0 {
				args[i] = a
				continue
			}
			args[i] = b.Extract(a, lo, w)
		}
		return b.rebuild(x, args)
	case OpShl:
		if lo >= x.Aux {
			return b.Extract(x.Args[0], lo-x.Aux, w)
		}
	case OpShr:
		if int(lo)+int(x.Aux)+int(w) <= int(x.W) {
			return b.Extract(x.Args[0], lo+x.Aux, w)
		}
	}
	return b.make(OpExtract, w, lo, x.known>>lo, x.kval>>lo, x)
}

// Concat returns hi:lo, of hi.W + lo.W bits.
func (b *Builder) Concat(hi, lo *Term) *Term {
	w := int(hi.W) + int(lo.W)
	if w > MaxWidth {
		panic("term: concatenation wider than 64 bits")
	}
	if hi.Op == OpExtract && lo.Op == OpExtract && hi.Args[0] == lo.Args[0] && lo.Aux+lo.W == hi.Aux {
		return b.Extract(hi.Args[0], lo.Aux, uint8(w))
	}
	return b.make(OpConcat, uint8(w), 0, hi.known<<lo.W|lo.known, hi.kval<<lo.W|lo.kval, hi, lo)
}

// ZeroExt returns x zero-extended to w bits.
func (b *Builder) ZeroExt(x *Term, w uint8) *Term {
	if w == x.W {
		return x
	}
	return b.Concat(b.Const(w-x.W, 0), x)
}

// Ite returns y if the 1-bit c is 1, else z.
func (b *Builder) Ite(c, y, z *Term) *Term {
	same(y, z)
	if c.W != 1 {
		panic("term: ite on a condition of more than one bit")
	}
	if v, ok := c.IsConst(); ok {
		if v == 1 {
			return y
		}
		return z
	}
	if y == z {
		return y
	}
	if y.W == 1 {
		if yv, ok := y.IsConst(); ok {
			if zv, ok := z.IsConst(); ok {
				if yv == 1 && zv == 0 {
					return c
				}
				return b.Not(c)
			}
		}
	}
	if c.Op == OpNot {
		c, y, z = c.Args[0], z, y
	}
	known := y.known & z.known &^ (y.kval ^ z.kval)
	return b.make(OpIte, y.W, 0, known, y.kval, c, y, z)
}

// Eq returns the 1-bit x == y.
func (b *Builder) Eq(x, y *Term) *Term {
	same(x, y)
	x, y = order(x, y)
	if x == y {
		return b.Const(1, 1)
	}
	if (x.kval^y.kval)&x.known&y.known != 0 {
		return b.Const(1, 0)
	}
	if x.W == 1 {
		if v, ok := y.IsConst(); ok {
			if v == 1 {
				return x
			}
			return b.Not(x)
		}
	}
	if v, ok := y.IsConst(); ok {
		if t := b.eqConst(x, v); t != nil {
			return t
		}
	}
	return b.make(OpEq, 1, 0, 0, 0, x, y)
}

// eqConst returns x == v in a simpler form, or nil: a term with a single
// unknown bit is that bit; an addition, subtraction, exclusive or or
// complement with a constant is undone on v; a concatenation is the
// conjunction of its halves. So the test of one flag of a condition code
// register, (ccr & 0x04) == 0, is the negated flag, and a counter
// decremented from a variable n and found zero says n == k, the form in
// which the engine substitutes the constant for the variable.
func (b *Builder) eqConst(x *Term, v uint64) *Term {
	if u := ones(x.W) &^ x.known; u != 0 && u&(u-1) == 0 {
		// Exactly one unknown bit (the known ones agree with v: Eq
		// has checked).
		k := uint8(bits.TrailingZeros64(u))
		return b.Eq(b.Extract(x, k, 1), b.Const(1, v>>k&1))
	}
	switch x.Op {
	case OpAdd, OpXor:
		if c, ok := x.Args[1].IsConst(); ok {
			if x.Op == OpAdd {
				return b.Eq(x.Args[0], b.Const(x.W, v-c))
			}
			return b.Eq(x.Args[0], b.Const(x.W, v^c))
		}
	case OpSub:
		if c, ok := x.Args[1].IsConst(); ok {
			return b.Eq(x.Args[0], b.Const(x.W, v+c))
		}
		if c, ok := x.Args[0].IsConst(); ok {
			return b.Eq(x.Args[1], b.Const(x.W, c-v))
		}
	case OpNot:
		return b.Eq(x.Args[0], b.Const(x.W, ^v))
	case OpConcat:
		h, l := x.Args[0], x.Args[1]
		return b.And(b.Eq(h, b.Const(h.W, v>>l.W)), b.Eq(l, b.Const(l.W, v)))
	}
	return nil
}

// bounds returns the least and greatest values x may have by its known bits.
func bounds(x *Term) (lo, hi uint64) {
	return x.kval, x.kval | (ones(x.W) &^ x.known)
}

// Ult returns the 1-bit x < y, unsigned.
func (b *Builder) Ult(x, y *Term) *Term {
	same(x, y)
	if x == y {
		return b.Const(1, 0)
	}
	xl, xh := bounds(x)
	yl, yh := bounds(y)
	switch {
	case xh < yl:
		return b.Const(1, 1)
	case xl >= yh:
		return b.Const(1, 0)
	}
	return b.make(OpUlt, 1, 0, 0, 0, x, y)
}

// Ule returns the 1-bit x <= y, unsigned.
func (b *Builder) Ule(x, y *Term) *Term { return b.Not(b.Ult(y, x)) }

// BoolAnd returns the conjunction of 1-bit terms.
func (b *Builder) BoolAnd(x, y *Term) *Term { return b.And(x, y) }

// BoolOr returns the disjunction of 1-bit terms.
func (b *Builder) BoolOr(x, y *Term) *Term { return b.Or(x, y) }
