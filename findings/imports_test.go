package findings

import (
	"testing"

	"github.com/hc11mc/hc11mc/testkit/layering"
)

// TestImports: findings sit above check and cex, whose results and
// counterexamples they render, and below the command line, which wires
// them to its flags: never cmd/hc11mc/internal/cli or cmd, the packages that run
// checks (hybrid, portfolio, bench), nor a package from outside the
// module. Test files are held to it too.
func TestImports(t *testing.T) {
	below := []string{"check", "cex", "search", "sim", "loader", "isa", "devices", "symbolic", "heuristics", "icfg", "internal"}
	above := []string{"cmd/hc11mc/internal/cli", "cmd", "hybrid", "portfolio", "bench"}
	layering.Check(t, below, above)
}
