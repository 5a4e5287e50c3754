package symbolic

import (
	"encoding/binary"
	"hash/maphash"
	"sort"

	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic/term"
)

// Regs is the symbolic part of one thread's registers: nil where the value
// is the concrete one in the thread (sim.Thread), else a term that depends
// on some variable. SP and PC are always concrete.
type Regs struct {
	A, B, X, Y *term.Term
	CCR        [8]*term.Term // 1-bit terms, bit 0 (C) to bit 7 (S)
}

// State is a symbolic state: a concrete sim.State for everything that is
// concrete — the control part (PCs, SPs, statuses, the shadow call
// stacks, the scheduler) and every register and memory byte whose value
// is known — with terms for the rest, and the path condition under which
// the state is reached. Where a term stands, the concrete state holds 0
// (a CCR bit: 0). A State is never changed once it is made; successors are
// new states that share what did not change.
type State struct {
	S    *sim.State
	Regs []Regs                // by thread
	Mem  map[uint16]*term.Term // the symbolic bytes of memory
	// Path is the path condition, a conjunction of 1-bit terms.
	Path []*term.Term
	// Trace is the last transition that led here; nil at the initial state.
	Trace *Step
	Depth int
	// back counts the back edges the path to the state took: steps of a
	// thread to an instruction no later than its own in the program's
	// reverse postorder (order.go), and interrupts taken. Group merges two
	// states whose concrete data differ only where the counts are equal
	// (merge.go). joined lists the conditions of such merges since the
	// state's data were last all concrete (unjoin.go). Like Depth, neither
	// is part of the state's identity.
	back   uint32
	joined []*term.Term
	// Only, when above 0, restricts the state's transitions to thread
	// Only-1's (a state handed over by another engine, Engine.Handoff):
	// no other thread, interrupt or deadlock is this engine's to follow
	// there. Successors have 0.
	Only int
}

// Step is one transition of a counterexample: its label (the choice is
// not known until the solver gives a model) and the choices of its last
// instruction, in order. A state merged from two has a Step with a Guard
// instead: the transitions are Prev's where the guard holds, Else's where
// it does not.
type Step struct {
	Prev    *Step
	Label   sim.Label
	Choices []Choice

	Guard *term.Term
	Else  *Step

	// Pin, when set, is the path condition a state left behind when it
	// became concrete (pin.go): the steps before it take the values of a
	// model of Pin.
	Pin *term.Term
}

// Choice is one nondeterministic choice: a value of __mc_nondet (the
// variable is the value; there are N+1 choices) or of an --input read
// (the variable is one of Values; the choice is its index).
type Choice struct {
	Var    *term.Term
	N      *term.Term // __mc_nondet: the bound N, a 16-bit term
	Values []uint8    // --input: the values
}

// stepLabel returns the label of step p with every choice index taken
// from the model m (Engine.labels walks a trace with it).
func stepLabel(b *term.Builder, p *Step, m Model) sim.Label {
	l := p.Label
	if len(p.Choices) == 0 {
		// The label's own: a transition without a choice, or one
		// another engine followed with its choice known.
		return l
	}
	var c, radix uint64 = 0, 1
	for _, ch := range p.Choices {
		v := b.Eval(ch.Var, m)
		var idx, n uint64
		if ch.Values != nil {
			n = uint64(len(ch.Values))
			for k, x := range ch.Values {
				if uint64(x) == v {
					idx = uint64(k)
					break
				}
			}
		} else {
			n = b.Eval(ch.N, m) + 1
			idx = v
		}
		c += idx * radix
		radix *= n
	}
	l.Choice = c
	return l
}

var hashSeed = maphash.MakeSeed()

// Hash is a fingerprint of what Equal compares.
func (st *State) Hash() uint64 {
	var h maphash.Hash
	h.SetSeed(hashSeed)
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], st.S.Hash())
	h.Write(buf[:])
	put := func(t *term.Term) {
		id := uint32(0)
		if t != nil {
			id = t.ID() + 1
		}
		binary.LittleEndian.PutUint32(buf[:4], id)
		h.Write(buf[:4])
	}
	for i := range st.Regs {
		r := &st.Regs[i]
		put(r.A)
		put(r.B)
		put(r.X)
		put(r.Y)
		for _, c := range r.CCR {
			put(c)
		}
	}
	for _, a := range st.memAddrs() {
		binary.LittleEndian.PutUint16(buf[:2], a)
		h.Write(buf[:2])
		put(st.Mem[a])
	}
	for _, p := range st.Path {
		put(p)
	}
	binary.LittleEndian.PutUint32(buf[:4], uint32(st.Only))
	h.Write(buf[:4])
	return h.Sum64()
}

func (st *State) memAddrs() []uint16 {
	as := make([]uint16, 0, len(st.Mem))
	for a := range st.Mem {
		as = append(as, a)
	}
	sort.Slice(as, func(i, j int) bool { return as[i] < as[j] })
	return as
}

// Equal reports whether two states are the same symbolic state: equal
// concrete parts, the same terms in the same places and the same path
// condition (terms of one builder are equal when they are the same).
func (st *State) Equal(o *State) bool {
	if st.Only != o.Only || !st.S.Equal(o.S) || len(st.Regs) != len(o.Regs) || len(st.Mem) != len(o.Mem) || len(st.Path) != len(o.Path) {
		return false
	}
	for i := range st.Regs {
		if st.Regs[i] != o.Regs[i] {
			return false
		}
	}
	for a, t := range st.Mem {
		if o.Mem[a] != t {
			return false
		}
	}
	for i, p := range st.Path {
		if o.Path[i] != p {
			return false
		}
	}
	return true
}
