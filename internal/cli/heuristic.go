package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// buildEstimator returns the estimate function for --heuristic, or nil when
// the search runs without one; note says what was chosen or why the search
// fell back to breadth-first order. The estimate itself is
// heuristics.StateEstimate; this only reads the flags.
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
	cfg := heuristics.StateConfig{Kind: kind, K: o.k}
	if o.aim != "" {
		p, err := heuristics.ParseProperty(o.aim)
		if err != nil {
			return nil, "", usagef("--aim: %v", err)
		}
		cfg.Aims = []heuristics.Property{p}
	}
	if len(o.machine.Reach) > 0 {
		cfg.Reach = o.machine.Reach[0]
	}
	if kind == heuristics.Hamming {
		if cfg.GoalAddrs, cfg.GoalBytes, err = parseGoalMem(img, o.goalMem); err != nil {
			return nil, "", err
		}
	}
	e, err := heuristics.NewStateEstimate(m, cfg)
	switch {
	case errors.Is(err, heuristics.ErrNoTarget):
		return nil, fmt.Sprintf("%v: %s search degenerates to breadth-first", err, strat), nil
	case err != nil && kind == heuristics.Hamming:
		return nil, "", usagef("--goal-mem: %v", err)
	case err != nil:
		return nil, "", usagef("--heuristic %s: %v", kind, err)
	}
	return e.Estimate, "the heuristic aims at " + e.Aim(), nil
}

// parseGoalMem reads the --goal-mem values ADDR=v1,v2,...: the bytes from
// ADDR on that --heuristic hamming aims at.
func parseGoalMem(img *loader.Image, goals []string) ([]uint16, []byte, error) {
	if len(goals) == 0 {
		return nil, nil, usagef("--heuristic hamming needs --goal-mem ADDR=v1,v2,...: the memory valuation to aim at")
	}
	var addrs []uint16
	var target []byte
	for _, g := range goals {
		a, vals, ok := strings.Cut(g, "=")
		if !ok || vals == "" {
			return nil, nil, usagef("--goal-mem %q: want ADDR=v1,v2,...", g)
		}
		addr, err := check.Resolve(img, a)
		if err != nil {
			return nil, nil, usagef("--goal-mem %q: %v", g, err)
		}
		for i, v := range strings.Split(vals, ",") {
			n, err := loader.ParseAddr(strings.TrimSpace(v))
			if err != nil || n > 255 {
				return nil, nil, usagef("--goal-mem %q: %q is not a byte value", g, v)
			}
			addrs = append(addrs, addr+uint16(i))
			target = append(target, byte(n))
		}
	}
	return addrs, target, nil
}
