package term

// Eval returns the value of t when each variable v has the value
// env[v.Val] (missing values are 0). Shared subterms are evaluated once.
func (b *Builder) Eval(t *Term, env []uint64) uint64 {
	if len(b.stamp) < len(b.terms) {
		n := len(b.terms) + len(b.terms)/2 + 16
		b.stamp = append(b.stamp, make([]uint32, n-len(b.stamp))...)
		b.vals = append(b.vals, make([]uint64, n-len(b.vals))...)
	}
	b.gen++
	if b.gen == 0 {
		clear(b.stamp)
		b.gen = 1
	}
	return b.eval(t, env)
}

func (b *Builder) eval(t *Term, env []uint64) uint64 {
	switch t.Op {
	case OpConst:
		return t.Val
	case OpVar:
		if int(t.Val) < len(env) {
			return env[t.Val] & ones(t.W)
		}
		return 0
	}
	if b.stamp[t.id] == b.gen {
		return b.vals[t.id]
	}
	var r uint64
	a := func(i int) uint64 { return b.eval(t.Args[i], env) }
	m := ones(t.W)
	switch t.Op {
	case OpAdd:
		r = a(0) + a(1)
	case OpSub:
		r = a(0) - a(1)
	case OpMul:
		r = a(0) * a(1)
	case OpUDiv:
		if y := a(1); y == 0 {
			r = m
		} else {
			r = a(0) / y
		}
	case OpURem:
		if y := a(1); y == 0 {
			r = a(0)
		} else {
			r = a(0) % y
		}
	case OpAnd:
		r = a(0) & a(1)
	case OpOr:
		r = a(0) | a(1)
	case OpXor:
		r = a(0) ^ a(1)
	case OpNot:
		r = ^a(0)
	case OpShl:
		r = a(0) << t.Aux
	case OpShr:
		r = a(0) >> t.Aux
	case OpExtract:
		r = a(0) >> t.Aux
	case OpConcat:
		r = a(0)<<t.Args[1].W | a(1)
	case OpIte:
		if a(0) != 0 {
			r = a(1)
		} else {
			r = a(2)
		}
	case OpEq:
		if a(0) == a(1) {
			r = 1
		}
	case OpUlt:
		if a(0) < a(1) {
			r = 1
		}
	default:
		panic("term: cannot evaluate " + t.Op.String())
	}
	r &= m
	b.stamp[t.id] = b.gen
	b.vals[t.id] = r
	return r
}
