package cli

import (
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// buildEstimator returns the estimate function for --heuristic, or nil
// when the search needs none; note explains a fallback.
func buildEstimator(img *loader.Image, m *sim.Machine, o *checkOptions, strat search.Strategy) (func(*sim.State) int, string, error) {
	switch o.heuristic {
	case "none":
		if strat == search.Best || strat == search.AStar {
			return nil, "no heuristic: " + strat.String() + " search degenerates to breadth-first", nil
		}
		return nil, "", nil
	}
	return nil, "", usagef("--heuristic %s is not available", o.heuristic)
}
