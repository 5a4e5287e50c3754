package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlaceholderModels runs the models of testdata/soundness whose
// symbolic values meet a read the engine once made of their placeholders
// (sym_*: a BRCLR on an --input address, a BRSET through a drawn index
// into ROM, pulls of --input addresses, an opcode byte patched from a
// drawn value) under --engine hmc and --engine auto: each gives the
// manifest's verdict, which is that of the plain breadth-first search
// (TestSoundness), and every counterexample replays. The default is
// TestDefaultManifests'.
func TestPlaceholderModels(t *testing.T) {
	const dir = "../../../../testdata/soundness"
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var models []soundnessModel
	if err := json.Unmarshal(b, &models); err != nil {
		t.Fatalf("%s/manifest.json: %v", dir, err)
	}
	n := 0
	for _, e := range models {
		if !strings.HasPrefix(e.Name, "sym_") {
			continue
		}
		n++
		for _, engine := range []string{"hmc", "auto"} {
			what := e.Name + " --engine " + engine
			trace := filepath.Join(t.TempDir(), "cex.json")
			args := append([]string{"check", filepath.Join(dir, e.File), "--json", "--engine", engine, "--trace", trace}, e.Flags...)
			r, code := runJSON(t, args...)
			kind := ""
			if r.Violation != nil {
				kind = r.Violation.Kind
			}
			if r.Verdict != e.Expect || e.Expect == "violation" && (kind != e.Property || code != ExitViolation) || e.Expect == "verified" && code != ExitVerified {
				t.Errorf("%s: %s %s (exit %d, limit %q), want %s %s", what, r.Verdict, kind, code, r.Limit, e.Expect, e.Property)
				continue
			}
			if e.Expect == "violation" {
				var out, errb bytes.Buffer
				if c := Main([]string{"replay", trace}, nil, &out, &errb); c != ExitViolation {
					t.Errorf("%s: replay exit %d: %s%s", what, c, errb.String(), lastLines(out.String()))
				}
			}
		}
	}
	if n < 8 {
		t.Errorf("%d sym_ models in the manifest, want the 4 shapes and their fixed twins", n)
	}
}
