package heuristics

import (
	"errors"
	"fmt"

	"github.com/hc11mc/hc11mc/icfg"
	"github.com/hc11mc/hc11mc/sim"
)

// AimOrder is the order in which NewStateEstimate picks the property to
// aim at when it is not told: a reach goal first, then the harness calls
// that signal errors, then the concurrency properties.
var AimOrder = []Property{Reach, Error, Assert, Mutex, Deadlock}

// StateConfig selects the estimate of whole states NewStateEstimate builds.
type StateConfig struct {
	Kind Kind
	K    int // context bound of AICFG(k) for aicfg and efsm

	// Aims are the properties to try, in order: the estimate aims at the
	// first that has a target in the firmware. Empty: AimOrder.
	Aims []Property
	// Reach is the symbol of the Reach property; "" skips Reach.
	Reach string

	// GoalAddrs and GoalBytes are the valuation hamming aims at: the byte
	// at GoalAddrs[i] should be GoalBytes[i]. Every address must be
	// writable memory of the machine, or it could never change.
	GoalAddrs []uint16
	GoalBytes []byte
}

// StateEstimate estimates the distance of a whole state of one machine to
// the target, as package search ranks states by:
//
//	Combine(Estimate(pc_i, returns_i) for each live thread i) + EstimateMemory(memory)
//
// reading each live thread's return addresses from its runtime stack
// (sim.Machine.Returns) and, for hamming, the goal bytes of memory. A state
// from which no target can be reached estimates Inf. It keeps scratch
// buffers: use one per goroutine (Clone).
type StateEstimate struct {
	h   *Heuristic
	m   *sim.Machine
	aim string

	addrs []uint16 // hamming: the goal bytes' addresses
	mem   []byte   // hamming: their values in the state at hand
	rets  []uint16
	dists []int
}

// NewStateEstimate disassembles the machine's image once and builds the
// estimate cfg describes. When no property of cfg.Aims has a target it
// returns ErrNoTarget (wrapped, saying why): the search then has nothing
// to aim at. A Reach symbol the image lacks is ErrUnknownSymbol.
func NewStateEstimate(m *sim.Machine, cfg StateConfig) (*StateEstimate, error) {
	prog, err := icfg.Build(m.Image, icfg.Options{})
	if err != nil {
		return nil, err
	}
	e := &StateEstimate{m: m}
	if cfg.Kind == Hamming {
		if len(cfg.GoalAddrs) != len(cfg.GoalBytes) {
			return nil, fmt.Errorf("hamming: %d goal addresses for %d goal bytes", len(cfg.GoalAddrs), len(cfg.GoalBytes))
		}
		for _, a := range cfg.GoalAddrs {
			if !m.Writable(a) {
				return nil, fmt.Errorf("0x%04X is not writable memory, so it never changes", a)
			}
		}
		if e.h, err = NewFromProgram(prog, Config{Kind: Hamming, HammingTarget: cfg.GoalBytes}); err != nil {
			return nil, err
		}
		e.addrs = cfg.GoalAddrs
		e.mem = make([]byte, len(cfg.GoalAddrs))
		e.aim = fmt.Sprintf("%d bytes of memory", len(cfg.GoalAddrs))
		return e, nil
	}
	aims := cfg.Aims
	if len(aims) == 0 {
		aims = AimOrder
	}
	var why []error
	for _, p := range aims {
		if p == Reach && cfg.Reach == "" {
			continue
		}
		h, err := NewFromProgram(prog, Config{Kind: cfg.Kind, K: cfg.K, Property: p, Reach: cfg.Reach})
		if errors.Is(err, ErrNoTarget) {
			why = append(why, err)
			continue
		}
		if err != nil {
			return nil, err
		}
		e.h, e.aim = h, p.String()
		return e, nil
	}
	if len(why) == 1 {
		return nil, why[0]
	}
	return nil, fmt.Errorf("%w: no harness call or reach symbol that a property points at", ErrNoTarget)
}

// Estimate returns the estimate of s. It does not allocate once its
// buffers and the efsm memo table have seen states like s.
func (e *StateEstimate) Estimate(s *sim.State) int {
	if e.h.kind == Hamming {
		for i, a := range e.addrs {
			e.mem[i] = e.m.ReadMem(s, a)
		}
		return e.h.EstimateMemory(e.mem)
	}
	e.dists = e.dists[:0]
	for i := range s.Threads {
		if s.Threads[i].Status == sim.Exited {
			continue
		}
		e.rets = e.m.Returns(s, i, e.rets[:0])
		e.dists = append(e.dists, e.h.Estimate(s.Threads[i].PC, e.rets))
	}
	return e.h.Combine(e.dists)
}

// Aim says what the estimate aims at: a property's name ("error"), or
// for hamming the number of goal bytes.
func (e *StateEstimate) Aim() string { return e.aim }

// Heuristic returns the per-thread heuristic the estimate combines.
func (e *StateEstimate) Heuristic() *Heuristic { return e.h }

// Clone returns an estimate that shares the static tables and has its own
// buffers and memo table, for use by another goroutine.
func (e *StateEstimate) Clone() *StateEstimate {
	c := &StateEstimate{h: e.h.Clone(), m: e.m, aim: e.aim, addrs: e.addrs}
	if e.mem != nil {
		c.mem = make([]byte, len(e.mem))
	}
	return c
}
