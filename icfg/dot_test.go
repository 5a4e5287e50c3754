package icfg

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// TestDOT renders the ICFG and AICFGs of the paper's examples with
// Graphviz, with distance labels, and checks that dot accepts them.
func TestDOT(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz `dot` is not installed (Debian package graphviz): the DOT output is not checked")
	}
	for _, name := range []string{"fig1.elf", "fig4.elf"} {
		p := loadELF(t, name)
		target := []uint16{sym(t, p, "error")}
		for k := 0; k <= 2; k++ {
			g, err := p.AICFG(k, GraphOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := g.WriteDOT(&buf, DOTOptions{Dist: g.DistancesTo(target)}); err != nil {
				t.Fatal(err)
			}
			src := buf.String()
			if !strings.HasPrefix(src, "digraph ") || !strings.Contains(src, "subgraph cluster_") ||
				!strings.Contains(src, "style=dashed") || !strings.Contains(src, `d=0`) {
				t.Errorf("%s k=%d: unexpected DOT:\n%s", name, k, src)
			}
			cmd := exec.Command(dot, "-Tsvg")
			cmd.Stdin = &buf
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil || !bytes.Contains(out, []byte("<svg")) {
				t.Errorf("%s k=%d: dot -Tsvg: %v\n%s\n%s", name, k, err, stderr.String(), src)
			}
		}
	}
}
