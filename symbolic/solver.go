package symbolic

import (
	"errors"
	"math"
	"sync"
	"time"

	"github.com/aclements/go-z3/z3"

	"github.com/hc11mc/hc11mc/symbolic/term"
)

// ErrUnknown is the solver giving up (a timeout): neither sat nor unsat.
var ErrUnknown = errors.New("the solver could not decide a query")

// Solver decides conjunctions of 1-bit terms with Z3. Terms are translated
// once each and kept for the solver's life.
type Solver struct {
	b     *term.Builder
	ctx   *z3.Context
	z     *z3.Solver
	cache []z3.BV // by term id; the zero value when not translated
	done  []bool

	// Queries counts the checks, Time their total duration.
	Queries, Sat, Unsat uint64
	Time                time.Duration

	// Deadline, when set, bounds every query: one still running then is
	// given up (ErrUnknown), and none starts after it.
	Deadline time.Time

	// timeout bounds each query (NewSolver's); budget is the bound the
	// context has now (0: none).
	timeout, budget time.Duration
	// z3Base is what Z3 had allocated when the solver was made; peak the
	// most memory sampleMemory saw.
	z3Base, peak int64

	// mu guards checking (a query is in Z3's check) and interrupted.
	mu                    sync.Mutex
	checking, interrupted bool

	// seen and gen mark the terms varsOf has visited.
	seen map[*term.Term]uint32
	gen  uint32
}

// NewSolver returns a solver for the terms of b. timeout bounds each
// query (0: none).
func NewSolver(b *term.Builder, timeout time.Duration) *Solver {
	cfg := z3.NewContextConfig()
	if timeout > 0 {
		cfg.SetUint("timeout", uint(timeout.Milliseconds()))
	}
	base := z3Allocated()
	ctx := z3.NewContext(cfg)
	return &Solver{b: b, ctx: ctx, z: z3.NewSolver(ctx), timeout: timeout, budget: timeout, z3Base: base}
}

// bound gives the next query at most d (0: no bound), through the
// context's timeout parameter, which Z3 reads at each check.
func (s *Solver) bound(d time.Duration) {
	if d == s.budget {
		return
	}
	s.budget = d
	ms := uint(math.MaxUint32) // Z3's "no timeout"
	if d > 0 {
		ms = uint(max(d.Milliseconds(), 1))
	}
	s.ctx.Config().SetUint("timeout", ms)
}

// BV returns the Z3 form of t.
func (s *Solver) BV(t *term.Term) z3.BV {
	id := int(t.ID())
	if id < len(s.done) && s.done[id] {
		return s.cache[id]
	}
	var r z3.BV
	a := func(i int) z3.BV { return s.BV(t.Args[i]) }
	switch t.Op {
	case term.OpConst:
		r = s.ctx.FromInt(int64(t.Val), s.ctx.BVSort(int(t.W))).(z3.BV)
	case term.OpVar:
		r = s.ctx.BVConst(t.Name, int(t.W))
	case term.OpAdd:
		r = a(0).Add(a(1))
	case term.OpSub:
		r = a(0).Sub(a(1))
	case term.OpMul:
		r = a(0).Mul(a(1))
	case term.OpUDiv:
		r = a(0).UDiv(a(1))
	case term.OpURem:
		r = a(0).URem(a(1))
	case term.OpAnd:
		r = a(0).And(a(1))
	case term.OpOr:
		r = a(0).Or(a(1))
	case term.OpXor:
		r = a(0).Xor(a(1))
	case term.OpNot:
		r = a(0).Not()
	case term.OpShl:
		r = a(0).Lsh(s.konst(t.W, uint64(t.Aux)))
	case term.OpShr:
		r = a(0).URsh(s.konst(t.W, uint64(t.Aux)))
	case term.OpExtract:
		r = a(0).Extract(int(t.Aux)+int(t.W)-1, int(t.Aux))
	case term.OpConcat:
		r = a(0).Concat(a(1))
	case term.OpIte:
		r = s.Bool(t.Args[0]).IfThenElse(a(1), a(2)).(z3.BV)
	case term.OpEq:
		r = s.bit(a(0).Eq(a(1)))
	case term.OpUlt:
		r = s.bit(a(0).ULT(a(1)))
	default:
		panic("symbolic: no Z3 form for " + t.Op.String())
	}
	for len(s.done) <= id {
		s.done = append(s.done, false)
		s.cache = append(s.cache, z3.BV{})
	}
	s.cache[id], s.done[id] = r, true
	return r
}

func (s *Solver) konst(w uint8, v uint64) z3.BV {
	return s.ctx.FromInt(int64(v), s.ctx.BVSort(int(w))).(z3.BV)
}

// bit turns a formula into a 1-bit vector.
func (s *Solver) bit(f z3.Bool) z3.BV {
	return f.IfThenElse(s.konst(1, 1), s.konst(1, 0)).(z3.BV)
}

// Bool returns the formula "the 1-bit t is 1".
func (s *Solver) Bool(t *term.Term) z3.Bool {
	if t.W != 1 {
		panic("symbolic: a condition of more than one bit")
	}
	return s.BV(t).Eq(s.konst(1, 1))
}

// Model is an assignment of the builder's variables, by index.
type Model []uint64

// Interrupt stops the query that is running, from another goroutine: it
// ends with ErrUnknown, and so does every later query. Z3 is interrupted
// only inside its check: its cancellation outlasts the check, and Z3
// reports it from the next call that simplifies (an assertion) as an
// error, which its binding raises as a panic through Z3's frames.
func (s *Solver) Interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.interrupted = true
	if s.checking {
		s.ctx.Interrupt()
	}
}

// begin marks a query entering Z3's check; false when the solver was
// interrupted.
func (s *Solver) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.checking = !s.interrupted
	return s.checking
}

func (s *Solver) end() {
	s.mu.Lock()
	s.checking = false
	s.mu.Unlock()
}

func (s *Solver) isInterrupted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.interrupted
}

// Check decides whether the conjunction of the 1-bit terms conds can be
// 1, and returns a model when it can: a value for every variable of the
// builder (0 for those the conditions do not depend on).
func (s *Solver) Check(conds ...*term.Term) (bool, Model, error) {
	return s.CheckWithin(0, conds...)
}

// CheckWithin is Check with the query given at most d (0: no bound but
// the solver's own and Deadline): when d runs out, ErrUnknown.
func (s *Solver) CheckWithin(d time.Duration, conds ...*term.Term) (bool, Model, error) {
	var live []*term.Term
	for _, c := range conds {
		if v, ok := c.IsConst(); ok {
			if v == 0 {
				return false, nil, nil
			}
			continue
		}
		live = append(live, c)
	}
	if len(live) == 0 {
		return true, make(Model, len(s.b.Vars())), nil
	}
	if s.isInterrupted() {
		return false, nil, ErrUnknown
	}
	start := time.Now()
	s.Queries++
	s.z.Push()
	defer s.z.Pop()
	for _, c := range live {
		s.z.Assert(s.Bool(c))
	}
	// The bound is set after the formula is asserted, which can take long
	// (Z3 simplifies it then), and applies to the search alone.
	limit := s.timeout
	if d > 0 && (limit == 0 || d < limit) {
		limit = d
	}
	if !s.Deadline.IsZero() {
		left := time.Until(s.Deadline)
		if left <= 0 {
			s.Time += time.Since(start)
			return false, nil, ErrUnknown
		}
		if limit == 0 || left < limit {
			limit = left
		}
	}
	s.bound(limit)
	if !s.begin() {
		s.Time += time.Since(start)
		return false, nil, ErrUnknown
	}
	sat, err := s.z.Check()
	s.end()
	s.Time += time.Since(start)
	s.sampleMemory() // before Pop, with what the query built
	if err != nil {
		return false, nil, ErrUnknown
	}
	if !sat {
		s.Unsat++
		return false, nil, nil
	}
	s.Sat++
	m := s.z.Model()
	model := make(Model, len(s.b.Vars()))
	// Only the variables of the query: the builder's grow with every
	// choice and merge, and asking Z3 for each of them at every query
	// (a conversion and a finalizer each) took more time than the
	// queries on a concurrent model with a few choices per turn.
	for _, v := range s.varsOf(live) {
		if x, ok, _ := m.Eval(s.cache[v.ID()], true).(z3.BV).AsUint64(); ok {
			model[v.Val] = x
		}
	}
	return true, model, nil
}

// varsOf returns the variables the terms of l depend on.
func (s *Solver) varsOf(l []*term.Term) []*term.Term {
	if s.seen == nil {
		s.seen = map[*term.Term]uint32{}
	}
	s.gen++
	var vars []*term.Term
	var walk func(t *term.Term)
	walk = func(t *term.Term) {
		if !t.HasVar() || s.seen[t] == s.gen {
			return
		}
		s.seen[t] = s.gen
		if t.Op == term.OpVar {
			vars = append(vars, t)
			return
		}
		for _, a := range t.Args {
			walk(a)
		}
	}
	for _, t := range l {
		walk(t)
	}
	return vars
}
