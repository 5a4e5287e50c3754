package plan

import (
	"testing"

	"github.com/hc11mc/hc11mc/internal/layering"
)

func TestImports(t *testing.T) {
	below := []string{"settings", "verdict", "check", "portfolio", "hybrid", "cex", "search", "symbolic", "sim", "heuristics", "icfg", "devices", "loader", "isa", "internal"}
	above := []string{"internal/cli", "cmd", "bench"}
	layering.Check(t, below, above)
}
