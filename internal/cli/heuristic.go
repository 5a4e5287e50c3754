package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// aimOrder is the order in which check picks the property the heuristic
// aims at when --aim does not say: a goal first, then the harness calls
// that signal errors, then the concurrency properties.
var aimOrder = []heuristics.Property{heuristics.Reach, heuristics.Error, heuristics.Assert, heuristics.Mutex, heuristics.Deadlock}

// buildEstimator returns the estimate function for --heuristic, or nil when
// the search runs without one; note says what was chosen or why the search
// fell back to breadth-first order.
func buildEstimator(img *loader.Image, m *sim.Machine, o *checkOptions, strat search.Strategy) (func(*sim.State) int, string, error) {
	kind, err := heuristics.ParseKind(o.heuristic)
	if err != nil {
		return nil, "", usagef("--heuristic: %v", err)
	}
	if strat != search.Best && strat != search.AStar {
		return nil, "", nil
	}
	if kind == heuristics.None {
		return nil, "no heuristic: " + strat.String() + " search degenerates to breadth-first", nil
	}
	if kind == heuristics.Hamming {
		return hammingEstimator(img, m, o)
	}
	props := aimOrder
	if o.aim != "" {
		p, err := heuristics.ParseProperty(o.aim)
		if err != nil {
			return nil, "", usagef("--aim: %v", err)
		}
		props = []heuristics.Property{p}
	}
	reach := ""
	if len(o.machine.Reach) > 0 {
		reach = o.machine.Reach[0]
	}
	for _, p := range props {
		if p == heuristics.Reach && reach == "" {
			continue
		}
		h, err := heuristics.New(img, heuristics.Config{Kind: kind, K: o.k, Property: p, Reach: reach})
		if err != nil {
			if errors.Is(err, heuristics.ErrNoTarget) {
				continue
			}
			return nil, "", usagef("--heuristic %s: %v", kind, err)
		}
		return estimator(m, h), fmt.Sprintf("the heuristic aims at %s", p), nil
	}
	return nil, "no target for the heuristic (no harness call or --reach a property points at): " + strat.String() + " search degenerates to breadth-first", nil
}

// estimator combines the per-thread estimates of h over a state's live
// threads, reading each thread's return addresses from its runtime stack.
func estimator(m *sim.Machine, h *heuristics.Heuristic) func(*sim.State) int {
	var rets []uint16
	var dists []int
	return func(s *sim.State) int {
		dists = dists[:0]
		for i := range s.Threads {
			if s.Threads[i].Status == sim.Exited {
				continue
			}
			rets = m.Returns(s, i, rets[:0])
			dists = append(dists, h.Estimate(s.Threads[i].PC, rets))
		}
		d := h.Combine(dists)
		if d >= heuristics.Inf {
			return search.Inf
		}
		return d
	}
}

// hammingEstimator ranks states by the number of bits in which the bytes
// named by --goal-mem differ from the values given there.
func hammingEstimator(img *loader.Image, m *sim.Machine, o *checkOptions) (func(*sim.State) int, string, error) {
	if len(o.goalMem) == 0 {
		return nil, "", usagef("--heuristic hamming needs --goal-mem ADDR=v1,v2,...: the memory valuation to aim at")
	}
	var addrs []uint16
	var target []byte
	for _, g := range o.goalMem {
		a, vals, ok := strings.Cut(g, "=")
		if !ok || vals == "" {
			return nil, "", usagef("--goal-mem %q: want ADDR=v1,v2,...", g)
		}
		addr, err := resolve(img, a)
		if err != nil {
			return nil, "", usagef("--goal-mem %q: %v", g, err)
		}
		for i, v := range strings.Split(vals, ",") {
			n, err := loader.ParseAddr(strings.TrimSpace(v))
			if err != nil || n > 255 {
				return nil, "", usagef("--goal-mem %q: %q is not a byte value", g, v)
			}
			at := addr + uint16(i)
			if !m.Writable(at) {
				return nil, "", usagef("--goal-mem %q: 0x%04X is not writable memory, so it never changes", g, at)
			}
			addrs = append(addrs, at)
			target = append(target, byte(n))
		}
	}
	h, err := heuristics.New(img, heuristics.Config{Kind: heuristics.Hamming, HammingTarget: target})
	if err != nil {
		return nil, "", usagef("--heuristic hamming: %v", err)
	}
	mem := make([]byte, len(addrs))
	return func(s *sim.State) int {
		for i, a := range addrs {
			mem[i] = m.ReadMem(s, a)
		}
		return h.EstimateMemory(mem)
	}, fmt.Sprintf("the heuristic aims at %d bytes of memory", len(addrs)), nil
}
