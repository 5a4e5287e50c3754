package term

// Subst returns t with each term of repl (a variable, or any term: terms
// of one builder are equal when they are the same pointer) replaced by
// the constant repl gives it, rebuilt through the builder's
// simplifications: a term that depended on those terms alone becomes a
// constant. memo, when not nil, keeps the terms rewritten so far (by id)
// for further calls with the same repl.
func (b *Builder) Subst(t *Term, repl map[*Term]uint64, memo map[uint32]*Term) *Term {
	if memo == nil {
		memo = map[uint32]*Term{}
	}
	return b.subst(t, repl, memo)
}

func (b *Builder) subst(t *Term, repl map[*Term]uint64, memo map[uint32]*Term) *Term {
	if !t.hasVar {
		return t
	}
	if v, ok := repl[t]; ok {
		return b.Const(t.W, v)
	}
	if t.Op == OpVar {
		return t
	}
	if r, ok := memo[t.id]; ok {
		return r
	}
	var args [3]*Term
	changed := false
	for i, a := range t.Args {
		args[i] = b.subst(a, repl, memo)
		changed = changed || args[i] != a
	}
	r := t
	if changed {
		r = b.rebuild(t, args[:len(t.Args)])
		if v, ok := repl[r]; ok {
			r = b.Const(r.W, v)
		}
	}
	memo[t.id] = r
	return r
}

// rebuild makes the term of t's operation on args.
func (b *Builder) rebuild(t *Term, a []*Term) *Term {
	switch t.Op {
	case OpAdd:
		return b.Add(a[0], a[1])
	case OpSub:
		return b.Sub(a[0], a[1])
	case OpMul:
		return b.Mul(a[0], a[1])
	case OpUDiv:
		return b.UDiv(a[0], a[1])
	case OpURem:
		return b.URem(a[0], a[1])
	case OpAnd:
		return b.And(a[0], a[1])
	case OpOr:
		return b.Or(a[0], a[1])
	case OpXor:
		return b.Xor(a[0], a[1])
	case OpNot:
		return b.Not(a[0])
	case OpShl:
		return b.Shl(a[0], uint(t.Aux))
	case OpShr:
		return b.Shr(a[0], uint(t.Aux))
	case OpExtract:
		return b.Extract(a[0], t.Aux, t.W)
	case OpConcat:
		return b.Concat(a[0], a[1])
	case OpIte:
		return b.Ite(a[0], a[1], a[2])
	case OpEq:
		return b.Eq(a[0], a[1])
	case OpUlt:
		return b.Ult(a[0], a[1])
	}
	panic("term: cannot rebuild " + t.Op.String())
}
