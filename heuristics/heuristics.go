package heuristics

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hc11mc/hc11mc/icfg"
	"github.com/hc11mc/hc11mc/loader"
)

// Inf is the estimate of a state from which the target cannot be reached:
// icfg.Inf, the distance tables' "no path", as an int. Sums saturate at
// Inf. It is larger than every other estimate, which is all package search
// needs: it gives estimates no meaning beyond their order.
const Inf = int(icfg.Inf)

// ErrNoTarget is returned (wrapped, with the reason) when the property
// gives the heuristic nothing to aim at; the search then degrades to
// breadth-first search.
var ErrNoTarget = errors.New("no target for the heuristic")

// ErrUnknownSymbol is returned (wrapped) when --reach names a symbol the
// image does not have.
var ErrUnknownSymbol = errors.New("unknown symbol")

// Kind is a heuristic.
type Kind uint8

// The heuristics.
const (
	None    Kind = iota // 0 everywhere: the search order alone decides
	Hamming             // bits of writable memory that differ from a target valuation
	FSM                 // distance in the ICFG, ignoring the stack (Edelkamp & Mehler)
	AICFG               // distance of the vertex (PC, top k return addresses) in AICFG(k)
	EFSM                // extended FSM distance: Figure 5, unwinding the runtime stack
)

var kindNames = [...]string{"none", "hamming", "fsm", "aicfg", "efsm"}

// String returns the name --heuristic uses.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "heuristic?"
}

// ParseKind parses a --heuristic value.
func ParseKind(s string) (Kind, error) {
	for i, n := range kindNames {
		if strings.EqualFold(s, n) {
			return Kind(i), nil
		}
	}
	return 0, fmt.Errorf("unknown heuristic %q (want none, hamming, fsm, aicfg or efsm)", s)
}

// Property is what the search looks for; it decides the targets and how
// the threads' distances combine.
type Property uint8

// The properties a heuristic can aim at.
const (
	Reach    Property = iota // the PC reaches a symbol (--reach SYM)
	Assert                   // a call of __mc_assert
	Error                    // a call of __mc_error
	Mutex                    // two threads in critical sections: __mc_cs_enter
	Deadlock                 // every thread blocked: __mc_lock and WAI
)

var propertyNames = [...]string{"reach", "assert", "error", "mutex", "deadlock"}

// String returns the property's name.
func (p Property) String() string {
	if int(p) < len(propertyNames) {
		return propertyNames[p]
	}
	return "property?"
}

// ParseProperty parses a property name.
func ParseProperty(s string) (Property, error) {
	for i, n := range propertyNames {
		if strings.EqualFold(s, n) {
			return Property(i), nil
		}
	}
	return 0, fmt.Errorf("unknown property %q (want reach, assert, error, mutex or deadlock)", s)
}

// Config selects a heuristic.
type Config struct {
	Kind     Kind
	K        int      // context bound of AICFG(k) for aicfg and efsm (0..icfg.MaxK)
	Property Property // what the targets are and how threads combine
	Reach    string   // the symbol of the Reach property

	// HammingTarget and HammingMask are the valuation the hamming
	// heuristic aims at and the bits of it that count (see
	// HammingDistance); a nil mask counts every bit.
	HammingTarget, HammingMask []byte

	// MemoLimit bounds the memo table of efsm, in stack entries
	// (default 1<<20); it is emptied when full.
	MemoLimit int
}

// Heuristic estimates the distance of a state to the target. Estimate
// gives one thread's distance, Combine merges the threads' distances
// according to the property, EstimateMemory adds the memory term:
//
//	h(state) = Combine(Estimate(pc_i, returns_i) for each live thread i) + EstimateMemory(memory)
//
// Only the efsm memo table is mutable: a Heuristic is not safe for
// concurrent use; give each goroutine its own Clone.
type Heuristic struct {
	kind   Kind
	k      int
	prop   Property
	target Target
	prog   *icfg.Program

	icfg  *icfg.Graph // AICFG(0)
	g     *icfg.Graph // AICFG(k)
	dist0 []int32     // FSM distance per ICFG vertex
	distK []int32     // distance per AICFG(k) vertex
	ft0   *icfg.FrameTables
	ftK   *icfg.FrameTables

	hamTarget, hamMask []byte

	memo *memo
}

// New disassembles the image and builds the heuristic cfg describes. When
// the property has no target it returns ErrNoTarget (wrapped); the caller
// can fall back to Kind None.
func New(img *loader.Image, cfg Config) (*Heuristic, error) {
	prog, err := icfg.Build(img, icfg.Options{})
	if err != nil {
		return nil, err
	}
	return NewFromProgram(prog, cfg)
}

// NewFromProgram builds the heuristic on an already disassembled program.
func NewFromProgram(prog *icfg.Program, cfg Config) (*Heuristic, error) {
	h := &Heuristic{kind: cfg.Kind, k: cfg.K, prop: cfg.Property, prog: prog}
	switch cfg.Kind {
	case None:
		return h, nil
	case Hamming:
		if len(cfg.HammingTarget) == 0 {
			return nil, fmt.Errorf("%w: hamming needs a target valuation", ErrNoTarget)
		}
		if cfg.HammingMask != nil && len(cfg.HammingMask) != len(cfg.HammingTarget) {
			return nil, fmt.Errorf("hamming: mask has %d bytes, target %d", len(cfg.HammingMask), len(cfg.HammingTarget))
		}
		h.hamTarget, h.hamMask = cfg.HammingTarget, cfg.HammingMask
		return h, nil
	case FSM, AICFG, EFSM:
	default:
		return nil, fmt.Errorf("unknown heuristic kind %d", cfg.Kind)
	}
	if cfg.K < 0 || cfg.K > icfg.MaxK {
		return nil, fmt.Errorf("context bound k = %d out of range 0..%d", cfg.K, icfg.MaxK)
	}
	t, err := FindTargets(prog, cfg.Property, cfg.Reach)
	if err != nil {
		return nil, err
	}
	h.target = t
	h.icfg = prog.ICFG()
	h.g = h.icfg
	if cfg.K > 0 && cfg.Kind != FSM {
		if h.g, err = prog.AICFG(cfg.K, icfg.GraphOptions{}); err != nil {
			return nil, err
		}
	}
	h.dist0 = h.icfg.DistancesTo(t.Addrs)
	switch cfg.Kind {
	case AICFG:
		h.distK = h.g.DistancesTo(t.Addrs)
	case EFSM:
		h.ft0 = h.icfg.FrameTables(t.Addrs)
		h.ftK = h.ft0
		if h.g != h.icfg {
			h.ftK = h.g.FrameTables(t.Addrs)
		}
		limit := cfg.MemoLimit
		if limit <= 0 {
			limit = 1 << 20
		}
		h.memo = newMemo(limit)
	}
	return h, nil
}

// Clone returns a heuristic that shares the static tables and has its own
// memo table, for use by another goroutine.
func (h *Heuristic) Clone() *Heuristic {
	c := *h
	if h.memo != nil {
		c.memo = newMemo(h.memo.limit)
	}
	return &c
}

// Kind returns the heuristic's kind.
func (h *Heuristic) Kind() Kind { return h.kind }

// K returns the context bound.
func (h *Heuristic) K() int { return h.k }

// Property returns the property the heuristic aims at.
func (h *Heuristic) Property() Property { return h.prop }

// Target returns the targets (empty for none and hamming).
func (h *Heuristic) Target() Target { return h.target }

// Program returns the disassembled program the heuristic works on.
func (h *Heuristic) Program() *icfg.Program { return h.prog }

// Estimate returns one thread's distance to the target: the number of
// instructions it must execute until its PC equals a target address (0 at
// the target, 1 at a JSR to it, Inf if it can never get there). pc is the
// thread's PC and returns its return addresses, innermost first, as read
// from its runtime stack. A PC outside the decoded code estimates 0
// (nothing is known, and 0 never overestimates). It does not allocate
// once the efsm memo table has seen the stack.
func (h *Heuristic) Estimate(pc uint16, returns []uint16) int {
	switch h.kind {
	case FSM:
		return h.fsm(pc)
	case AICFG:
		if v, ok := h.g.Lookup(pc, returns); ok {
			return int(h.distK[v])
		}
		return h.fsm(pc)
	case EFSM:
		return h.efsm(pc, returns)
	}
	return 0
}

// fsm is the context-free distance of pc's ICFG vertex.
func (h *Heuristic) fsm(pc uint16) int {
	if v, ok := h.icfg.Lookup(pc, nil); ok {
		return int(h.dist0[v])
	}
	return 0
}

// EstimateMemory returns the memory term: the Hamming distance of mem
// (the state's writable memory, laid out as the target valuation is) to
// the target for the hamming heuristic, 0 for the others.
func (h *Heuristic) EstimateMemory(mem []byte) int {
	if h.kind != Hamming {
		return 0
	}
	return HammingDistance(mem, h.hamTarget, h.hamMask)
}

// Combine merges per-thread distances as the property requires.
func (h *Heuristic) Combine(dists []int) int {
	if h.kind == None || h.kind == Hamming {
		return 0
	}
	return Combine(h.prop, dists)
}

// Combine merges the distances of the live threads for a property, as
// Section 3.2 of Rungta & Mercer describes:
//
//   - reach, assert, error: some thread must get there: the minimum;
//   - mutex: two threads must be in critical sections: the sum of the two
//     smallest (a missing second thread counts 0: it may yet be created);
//   - deadlock: every thread must block: the sum over all threads.
//
// Sums saturate at Inf; no thread at all gives Inf for reach, assert,
// error and 0 for the others. It does not allocate.
func Combine(p Property, dists []int) int {
	switch p {
	case Mutex:
		a, b := Inf, Inf
		for _, d := range dists {
			switch {
			case d < a:
				a, b = d, a
			case d < b:
				b = d
			}
		}
		switch len(dists) {
		case 0:
			return 0
		case 1:
			return a
		}
		return satAdd(a, b)
	case Deadlock:
		s := 0
		for _, d := range dists {
			s = satAdd(s, d)
		}
		return s
	default:
		m := Inf
		for _, d := range dists {
			if d < m {
				m = d
			}
		}
		return m
	}
}

// satAdd adds two distances, saturating at Inf.
func satAdd(a, b int) int {
	if a >= Inf || b >= Inf || a+b >= Inf {
		return Inf
	}
	return a + b
}

// HammingDistance counts the bits in which state and target differ, among
// the bits set in mask (every bit when mask is nil), over the shorter of
// state and target. state is the part of a state's writable memory that
// target describes, byte for byte: the caller lays both out the same way
// (for example RAM 0x0000–0x01FF as one slice).
func HammingDistance(state, target, mask []byte) int {
	n := min(len(state), len(target))
	if mask != nil {
		n = min(n, len(mask))
	}
	d := 0
	for i := 0; i < n; i++ {
		x := state[i] ^ target[i]
		if mask != nil {
			x &= mask[i]
		}
		d += popcount8[x]
	}
	return d
}

// popcount8 is the number of set bits of each byte.
var popcount8 = func() (t [256]int) {
	for i := range t {
		for b := i; b != 0; b &= b - 1 {
			t[i]++
		}
	}
	return
}()
