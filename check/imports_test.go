package check

import (
	"testing"

	"github.com/hc11mc/hc11mc/testkit/layering"
)

// TestImports: a check's configuration sits on the engines and below
// everything that runs checks. Package check imports the engines, cex (the
// settings a trace records, which check reads, and the names of
// violations) and what lies below them — never the command line
// (cmd/hc11mc/internal/cli, cmd), the packages that run checks with it (hybrid,
// portfolio, bench), nor a package from outside the module such as a
// command-line library: they call check, not the other way round. Test
// files are held to it too.
func TestImports(t *testing.T) {
	below := []string{"settings", "verdict", "cex", "search", "symbolic", "sim", "heuristics", "icfg", "devices", "loader", "isa", "internal"}
	above := []string{"plan", "cmd/hc11mc/internal/cli", "cmd", "hybrid", "portfolio", "bench"}
	layering.Check(t, below, above)
}
