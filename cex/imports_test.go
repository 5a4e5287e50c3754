package cex

import (
	"testing"

	"github.com/hc11mc/hc11mc/testkit/layering"
)

// TestImports: counterexamples sit above the search and below everything
// that runs checks. Package cex and the packages under it import the
// simulator, the search and what lies below them — never the packages
// that run checks (check, which reads the settings a trace records, hybrid,
// portfolio, bench), cmd/hc11mc/internal/cli or cmd, nor a command-line library: they
// call cex, not the other way round. Test files are held to it too.
func TestImports(t *testing.T) {
	below := []string{"settings", "verdict", "sim", "search", "loader", "isa", "icfg", "heuristics", "devices", "cex", "internal"}
	above := []string{"plan", "check", "hybrid", "portfolio", "bench", "cmd/hc11mc/internal/cli", "cmd"}
	layering.Check(t, below, above)
}
