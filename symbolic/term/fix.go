package term

// Fix returns t with the 1-bit term c taken as the constant v: every
// occurrence of c in t becomes v, and t is built again through the
// simplifying constructors, so that an if-then-else on c keeps one side
// and what depended on it folds. It is how a state-disjunct merged on c
// is partitioned again (package symbolic). memo carries rebuilt terms
// between calls with the same c and v; nil is allowed.
func (b *Builder) Fix(t, c *Term, v bool, memo map[*Term]*Term) *Term {
	if c.W != 1 {
		panic("term: Fix on a term of more than one bit")
	}
	if memo == nil {
		memo = map[*Term]*Term{}
	}
	// The builder may keep c's negation instead of c (an if-then-else
	// on not x is one on x with its sides swapped): it is fixed too.
	memo[b.Not(c)] = b.Bool(!v)
	return b.fix(t, c, b.Bool(v), memo)
}

func (b *Builder) fix(t, c, k *Term, memo map[*Term]*Term) *Term {
	if t == c {
		return k
	}
	if r, ok := memo[t]; ok {
		return r
	}
	if !t.hasVar || len(t.Args) == 0 {
		return t
	}
	args := make([]*Term, len(t.Args))
	changed := false
	for i, a := range t.Args {
		args[i] = b.fix(a, c, k, memo)
		changed = changed || args[i] != a
	}
	r := t
	if changed {
		r = b.rebuild(t, args)
	}
	memo[t] = r
	return r
}

// rebuild makes a term of t's operation over new arguments.
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
	panic("term: rebuild of " + t.Op.String())
}
