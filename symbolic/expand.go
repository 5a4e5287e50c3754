package symbolic

import (
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/sim/ops"
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// Succ is one transition out of a symbolic state: the state it leads to
// (with its Trace extended) and the violation it causes, if any. The
// violation holds on the state's path condition, which the engine has
// not necessarily checked (in lazy mode).
type Succ struct {
	State     *State
	Violation *sim.Violation
}

// Expand returns the transitions out of st, as sim.Machine.Successors
// makes them for a concrete state: each enabled thread running to its
// next scheduling point (forking where a branch depends on symbolic data)
// and each --irq interrupt a thread can take. When nothing can move on
// some part of st's path, the deadlock property is violated there:
// deadlock is that state (its path extended) and its violation.
func (e *Engine) Expand(st *State) (succ []Succ, deadlock *Succ, err error) {
	s := st.S
	if st.Only > 0 {
		// Handed over with this thread's transition alone to follow.
		succ, _, _, err = e.transition(st, st.Only-1)
		return succ, nil, err
	}
	// stuck is the condition under which every thread is stuck (blocked
	// or not allowed to run); false once some thread moves regardless.
	stuck := e.B.Bool(true)
	for i := range s.Threads {
		if !s.MayRun(i) {
			continue
		}
		out, blocked, _, err := e.transition(st, i)
		if err != nil {
			return nil, nil, err
		}
		succ = append(succ, out...)
		stuck = e.B.And(stuck, blocked)
	}
	if s.Atomic == 0 {
		for i := range s.Threads {
			if s.Threads[i].Status == sim.Exited {
				continue
			}
			for _, v := range e.M.IRQs() {
				out, untaken, err := e.interrupt(st, i, v)
				if err != nil {
					return nil, nil, err
				}
				succ = append(succ, out...)
				stuck = e.B.And(stuck, untaken)
			}
		}
	}
	live := false
	for i := range s.Threads {
		live = live || s.Threads[i].Status != sim.Exited
	}
	if !live {
		return succ, nil, nil
	}
	if v, ok := stuck.IsConst(); ok && v == 0 {
		return succ, nil, nil
	}
	d, ok, err := e.assume(st, stuck, true)
	if err != nil || !ok {
		return succ, nil, err
	}
	return succ, &Succ{State: d, Violation: e.M.Deadlock(s)}, nil
}

// transition runs thread i of st to its next scheduling point. blocked is
// the condition (beyond st's path) under which it cannot move: a lock held
// by another thread (an assumption that fails is not "blocked": the path
// is dropped, and no deadlock is reported for it). private says every
// step of every outcome touched only the thread's stack region, with
// stack privacy checked.
func (e *Engine) transition(st *State, i int) (out []Succ, blocked *term.Term, private bool, err error) {
	blocked = e.B.Bool(false)
	private = true
	type run struct {
		st    *State
		steps uint32
	}
	work := []run{{st, 0}}
	preempt := e.M.Config.Preempt
	maxRun := uint32(e.M.Config.MaxRun)
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		outs, err := e.step(r.st, i)
		if err != nil {
			return nil, nil, false, err
		}
		steps := r.steps + 1
		for _, o := range outs {
			private = private && o.private
			if (o.kind == outOK || o.kind == outViolation) && o.st != r.st {
				o.st.back, o.st.joined = r.st.back, r.st.joined
				if e.rankOf(o.st.S.Threads[i].PC) <= e.rankOf(r.st.S.Threads[i].PC) {
					o.st.back++ // a back edge, or a return
				}
			}
			label := sim.Label{Thread: i, IRQ: -1, Steps: steps}
			switch o.kind {
			case outBlocked:
				if steps == 1 {
					blocked = e.B.Or(blocked, conj(e, o.st.Path[len(st.Path):]))
				}
				continue
			case outInfeasible:
				continue
			case outViolation:
				o.st.Trace = &Step{Prev: st.Trace, Label: label, Choices: o.choices}
				o.st.Depth, o.st.Only = st.Depth+1, 0
				out = append(out, Succ{State: o.st, Violation: o.viol})
				continue
			}
			n := o.st
			t := &n.S.Threads[i]
			stop := len(o.choices) > 0 || t.Status != sim.Running || preempt == sim.PreemptEvery ||
				steps >= maxRun || e.M.SchedPoint(n.S, i)
			if !stop {
				work = append(work, run{n, steps})
				continue
			}
			n.Trace = &Step{Prev: st.Trace, Label: label, Choices: o.choices}
			n.Depth, n.Only = st.Depth+1, 0
			out = append(out, Succ{State: n})
		}
	}
	return out, blocked, private, nil
}

// conj is the conjunction of the 1-bit terms l.
func conj(e *Engine, l []*term.Term) *term.Term {
	c := e.B.Bool(true)
	for _, t := range l {
		c = e.B.And(c, t)
	}
	return c
}

// interrupt makes thread i take interrupt v where its CCR lets it: the
// frame is stacked with the registers' terms. untaken is the condition
// under which the thread cannot take it.
func (e *Engine) interrupt(st *State, i, v int) (out []Succ, untaken *term.Term, err error) {
	bit := uint8(4) // I
	if v == isa.VecXIRQ {
		bit = 6 // X
	}
	sts := []*State{st}
	untaken = e.B.Bool(false)
	if b := st.Regs[i].CCR[bit]; b != nil {
		untaken = b
		sts, err = e.concretize(st, i, loc{kind: locCCR, bit: bit})
		if err != nil {
			return nil, nil, err
		}
	} else if st.S.Threads[i].CCR>>bit&1 != 0 {
		return nil, e.B.Bool(true), nil
	}
	for _, s := range sts {
		t := &s.S.Threads[i]
		if !e.M.CanTake(t, v) {
			continue
		}
		x := e.newDataStep(e.cpuOf(s, i))
		ops.Interrupt(x, t.PC, v, t.Status == sim.Waiting)
		ns, viol, ok := e.M.Replay(s.S, sim.Label{Thread: i, IRQ: v})
		if !ok {
			continue
		}
		n := s.derive(ns)
		x.c.SP = n.S.Threads[i].SP
		e.setCPU(n, i, x.c)
		for _, w := range x.writes {
			e.setMem(n, w.addr, w.val)
		}
		n.Trace = &Step{Prev: st.Trace, Label: sim.Label{Thread: i, IRQ: v}}
		n.Depth, n.back, n.joined = st.Depth+1, st.back+1, st.joined
		out = append(out, Succ{State: n, Violation: viol})
	}
	return out, untaken, nil
}
