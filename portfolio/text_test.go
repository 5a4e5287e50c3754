package portfolio

import (
	"bytes"
	"strings"
	"testing"
)

// The merged text of members that all stopped: one incomplete line that
// names each member's limit, the coverage as distinct PCs where the
// firmware is not at hand, a line per member, and the member that left no
// result.
func TestMergedWriteText(t *testing.T) {
	dir := t.TempDir()
	files := []string{
		result(t, dir, "0/3 (best+fsm)", "incomplete", 10, map[string]any{"covered_pcs": []int{1, 2}}),
		result(t, dir, "2/3 (dfs)", "incomplete", 30, map[string]any{"covered_pcs": []int{2, 3, 4}}),
	}
	m, rs, err := Merge(files)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	m.WriteText(&b, rs, "", nil)
	out := b.String()
	for _, want := range []string{
		"swarm of 3: 2 results, none from member 1\n",
		"incomplete: no member finished: --max-states 0 (member 0); --max-states 2 (member 2)",
		"4 distinct PCs reached",
		"  member 0/3 (best+fsm): incomplete: --max-states 0; 11 states",
		"  member 2/3 (dfs): incomplete: --max-states 2; 31 states",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "verified") {
		t.Errorf("an incomplete merge says verified:\n%s", out)
	}
}
