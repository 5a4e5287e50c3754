package portfolio

import (
	"testing"

	"github.com/hc11mc/hc11mc/testkit/layering"
)

// TestImports: the swarm sits above package check and cex and below the
// benchmarks and the command line. Package portfolio imports check, cex,
// the search and what lies below them — never the command line
// (cmd/hc11mc/internal/cli, cmd), bench (which runs the swarm), hybrid (another way of
// running one check), nor a package from outside the module such as a
// command-line library: they call portfolio, not the other way round. Test
// files are held to it too.
func TestImports(t *testing.T) {
	below := []string{"settings", "verdict", "check", "cex", "search", "symbolic", "sim", "heuristics", "icfg", "devices", "loader", "isa", "internal"}
	above := []string{"plan", "cmd/hc11mc/internal/cli", "cmd", "bench", "hybrid"}
	layering.Check(t, below, above)
}
