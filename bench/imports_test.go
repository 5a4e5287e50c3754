package bench

import (
	"testing"

	"github.com/hc11mc/hc11mc/testkit/layering"
)

// TestImports: the benchmarks sit above the packages that run one check
// (check, portfolio for the swarm strategy, hybrid) and below the command
// line. Package bench imports them, the engines and what lies below them —
// never the command line (cmd/hc11mc/internal/cli, cmd) nor a package from outside
// the module such as a command-line library: the command line calls
// bench, not the other way round. Test files are held to it too.
func TestImports(t *testing.T) {
	below := []string{"settings", "verdict", "plan", "check", "portfolio", "hybrid", "cex", "search", "symbolic", "sim", "heuristics", "icfg", "devices", "loader", "isa", "internal"}
	above := []string{"cmd/hc11mc/internal/cli", "cmd"}
	layering.Check(t, below, above)
}
