package hybrid

import (
	"testing"

	"github.com/hc11mc/hc11mc/testkit/layering"
)

// TestImports: the hand-off sits above package check and the engines and
// below the command line. Package hybrid imports check, the engines and
// what lies below them — never the command line (cmd/hc11mc/internal/cli, cmd), the
// packages that run many checks (portfolio, bench), nor a package from
// outside the module such as a command-line library: they call hybrid,
// not the other way round. Test files are held to it too.
func TestImports(t *testing.T) {
	below := []string{"settings", "verdict", "check", "search", "symbolic", "sim", "heuristics", "icfg", "devices", "loader", "isa", "internal"}
	above := []string{"plan", "cmd/hc11mc/internal/cli", "cmd", "portfolio", "bench"}
	layering.Check(t, below, above)
}
