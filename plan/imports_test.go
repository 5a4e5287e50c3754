package plan

import (
	"testing"

	"github.com/hc11mc/hc11mc/testkit/layering"
)

func TestImports(t *testing.T) {
	below := []string{"settings", "verdict", "check", "portfolio", "hybrid", "cex", "search", "symbolic", "sim", "heuristics", "icfg", "devices", "loader", "isa", "internal"}
	above := []string{"cmd/hc11mc/internal/cli", "cmd", "bench"}
	layering.Check(t, below, above)
}
