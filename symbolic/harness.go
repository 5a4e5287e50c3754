package symbolic

import (
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// harness performs harness routine h for thread i: the concrete simulator
// does it, on a state whose inputs to the routine are concrete or steered,
// and the terms are put back around it.
func (e *Engine) harness(st *State, i int, h loader.Stub) ([]outcome, error) {
	sp := st.S.Threads[i].SP
	// The return address, and what the routine needs concrete.
	ls := []loc{{kind: locMem, addr: sp + 1}, {kind: locMem, addr: sp + 2}}
	switch h {
	case loader.StubThreadCreate:
		ls = append(ls, loc{kind: locA}, loc{kind: locB}, loc{kind: locX})
	case loader.StubLock, loader.StubUnlock:
		ls = append(ls, loc{kind: locX})
	}
	sts, err := e.concretizeAll([]*State{st}, i, ls...)
	if err != nil {
		return nil, err
	}
	var outs []outcome
	for _, s := range sts {
		o, err := e.harness1(s, i, h)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o...)
	}
	return outs, nil
}

// withThread returns a copy of st's concrete part with thread i changed by f.
func withThread(st *State, i int, f func(t *sim.Thread)) *State {
	s := st.S.Clone()
	f(&s.Threads[i])
	s.Threads[i].Tag = 0
	return &State{S: s, Regs: st.Regs, Mem: st.Mem, Path: st.Path, Trace: st.Trace, Depth: st.Depth}
}

// harness1 performs harness routine h for thread i on st, whose
// return address and the routine's address inputs are concrete: the
// inputs that are still terms split the path where the routine's outcome
// depends on them.
func (e *Engine) harness1(st *State, i int, h loader.Stub) ([]outcome, error) {
	switch h {
	case loader.StubNondet:
		return e.harnessNondet(st, i)
	case loader.StubAssume, loader.StubAssert:
		return e.harnessAssume(st, i)
	case loader.StubLock, loader.StubUnlock:
		return e.harnessLock(st, i, h)
	case loader.StubThreadCreate:
		return e.harnessCreate(st, i), nil
	}
	return []outcome{e.concreteStep(st, i, nil)}, nil
}

// harnessNondet is __mc_nondet's call by thread i, whose bound D may be
// a term.
func (e *Engine) harnessNondet(st *State, i int) ([]outcome, error) {
	r := st.Regs[i]
	n := e.D.Pair(or8(r.A, e, st.S.Threads[i].A), or8(r.B, e, st.S.Threads[i].B))
	if _, ok := n.IsConst(); !ok {
		// N = 0 offers one value and no choice (the transition goes
		// on); N > 0 a choice: split the two.
		zero, more, err := e.fork(st, e.B.Eq(n, e.k16(0)))
		if err != nil {
			return nil, err
		}
		var outs []outcome
		if zero != nil {
			o := e.concreteStep(withThread(zero, i, func(t *sim.Thread) { t.A, t.B = 0, 0 }), i, nil)
			o.st.Regs[i].A, o.st.Regs[i].B = nil, nil
			outs = append(outs, o)
		}
		if more != nil {
			outs = append(outs, e.nondet(more, i, n))
		}
		return outs, nil
	}
	v, _ := n.IsConst()
	if v == 0 {
		return []outcome{e.concreteStep(st, i, nil)}, nil
	}
	if v+1 <= uint64(e.Opts.MaxBranch) {
		// Few values: a successor for each, as the explicit engine.
		var outs []outcome
		for x := uint64(0); x <= v; x++ {
			o := e.concreteStep(st, i, nil)
			if o.kind == outOK {
				c := e.cpuOf(o.st, i)
				c.A, c.B = e.k8(uint8(x>>8)), e.k8(uint8(x))
				e.setCPU(o.st, i, c)
				o.choices = []Choice{{Var: e.k16(uint16(x)), N: n}}
			}
			outs = append(outs, o)
		}
		return outs, nil
	}
	return []outcome{e.nondet(st, i, n)}, nil
}

// harnessAssume is a call of __mc_assume or __mc_assert by thread i:
// with A a term, the path splits on A = 0.
func (e *Engine) harnessAssume(st *State, i int) ([]outcome, error) {
	r := st.Regs[i]
	if r.A == nil {
		return []outcome{e.concreteStep(st, i, nil)}, nil
	}
	zero, nonzero, err := e.fork(st, e.B.Eq(r.A, e.k8(0)))
	if err != nil {
		return nil, err
	}
	var outs []outcome
	if zero != nil {
		o := e.concreteStep(withThread(zero, i, func(t *sim.Thread) { t.A = 0 }), i, nil)
		outs = append(outs, e.restoreA(o, i, r.A))
	}
	if nonzero != nil {
		o := e.concreteStep(withThread(nonzero, i, func(t *sim.Thread) { t.A = 1 }), i, nil)
		outs = append(outs, e.restoreA(o, i, r.A))
	}
	return outs, nil
}

// harnessLock is a call of __mc_lock or __mc_unlock (h) by thread i: with
// the lock byte a term, the path splits on whether it holds what the
// routine wants.
func (e *Engine) harnessLock(st *State, i int, h loader.Stub) ([]outcome, error) {
	x := st.S.Threads[i].X
	b := st.Mem[x]
	if b == nil {
		o := e.concreteStep(st, i, nil)
		if o.kind == outOK {
			delete(o.st.Mem, x)
		}
		return []outcome{o}, nil
	}
	want := uint8(0)
	if h == loader.StubUnlock {
		want = uint8(i + 1)
	}
	yes, no, err := e.fork(st, e.B.Eq(b, e.k8(want)))
	if err != nil {
		return nil, err
	}
	var outs []outcome
	if yes != nil {
		// The routine reads the stand-in want, never the
		// placeholder (sim.Placeholders).
		o := e.concreteStep(yes, i, map[uint16]uint8{x: want})
		if o.kind == outOK {
			delete(o.st.Mem, x)
		}
		outs = append(outs, o)
	}
	if no != nil {
		if h == loader.StubLock {
			outs = append(outs, outcome{st: no, kind: outBlocked})
		} else {
			// Unlock of a lock the thread does not hold: the message
			// names a holder the solver finds possible.
			other := want ^ 1
			if sat, m, err := e.Sol.Check(no.Path...); err == nil && sat {
				other = uint8(e.B.Eval(b, m))
			}
			outs = append(outs, e.concreteStep(no, i, map[uint16]uint8{x: other}))
		}
	}
	return outs, nil
}

// harnessCreate is __mc_thread_create's call by thread i: the new
// thread's D is the creator's Y, which may be a term.
func (e *Engine) harnessCreate(st *State, i int) []outcome {
	cr := st.Regs[i]
	y := or16(cr.Y, e, st.S.Threads[i].Y)
	o := e.concreteStep(st, i, nil)
	if o.kind == outOK {
		n := o.st
		k := len(n.S.Threads) - 1
		// The new thread's D is the creator's Y, its CCR the creator's.
		c := e.cpuOf(n, k)
		c.A, c.B = e.D.Hi(y), e.D.Lo(y)
		c.CCR = e.ccr(st, i)
		e.setCPU(n, k, c)
		n.Regs[i].A, n.Regs[i].B = nil, nil
	}
	return []outcome{o}
}

// restoreA puts A's term back after a step steered with a stand-in A.
func (e *Engine) restoreA(o outcome, i int, a *term.Term) outcome {
	if o.kind == outOK || o.kind == outViolation {
		o.st.S.Threads[i].A = 0
		o.st.Regs[i].A = a
	}
	return o
}

// nondet makes D a fresh value in [0, N] (N not 0): an 8-bit variable
// when N is a constant below 256, else a 16-bit one.
func (e *Engine) nondet(st *State, i int, n *term.Term) outcome {
	var v, d *term.Term
	nv, konst := n.IsConst()
	if konst && nv <= 0xff {
		v = e.newVar("nondet", 8)
		d = e.D.Wide(v)
	} else {
		v = e.newVar("nondet", 16)
		d = v
	}
	o := e.concreteStep(st, i, nil)
	if o.kind == outOK {
		if !(konst && (nv == 0xff || nv == 0xffff)) {
			o.st.Path = append(o.st.Path, e.B.Ule(d, n))
		}
		c := e.cpuOf(o.st, i)
		c.A, c.B = e.D.Hi(d), e.D.Lo(d)
		e.setCPU(o.st, i, c)
		o.choices = []Choice{{Var: d, N: n}}
	}
	return o
}
