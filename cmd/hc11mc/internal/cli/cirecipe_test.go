package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ciMatchers are the regular expressions of docs/ci-matcher.json, the
// problem matchers that turn check's lines into annotations, with the
// groups of the file, line, column and severity (0: none).
func ciMatchers(t *testing.T) []struct {
	re                           *regexp.Regexp
	file, line, column, severity int
} {
	t.Helper()
	b, err := os.ReadFile("../../../../docs/ci-matcher.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		ProblemMatcher []struct {
			Pattern []struct {
				Regexp                       string
				File, Line, Column, Severity int
			}
		}
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var out []struct {
		re                           *regexp.Regexp
		file, line, column, severity int
	}
	for _, pm := range m.ProblemMatcher {
		p := pm.Pattern[0]
		out = append(out, struct {
			re                           *regexp.Regexp
			file, line, column, severity int
		}{regexp.MustCompile(p.Regexp), p.File, p.Line, p.Column, p.Severity})
	}
	return out
}

// annotations are what the problem matchers make of out, one
// "FILE:LINE:COL: SEVERITY" each (the first matcher that matches a line).
func annotations(t *testing.T, out string) []string {
	var got []string
	ms := ciMatchers(t)
	for _, l := range strings.Split(out, "\n") {
		for _, m := range ms {
			g := m.re.FindStringSubmatch(l)
			if g == nil {
				continue
			}
			at := func(i int) string {
				if i == 0 {
					return "-"
				}
				return g[i]
			}
			got = append(got, fmt.Sprintf("%s:%s:%s: %s", at(m.file), at(m.line), at(m.column), at(m.severity)))
			break
		}
	}
	return got
}

// The CI recipe (make ci-check) on bundled images: mutex_ok verifies and
// the build passes with no annotation; mutex_bad has a violation, the
// build fails with check's exit code 1, and the problem matchers make one
// error annotation of its lines, at the call of __mc_cs_enter in update
// (read from the source); the SARIF log has its one result. A bundled
// image without line information (illegal.s19) is annotated on the image.
func TestCIRecipe(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	wf, err := os.ReadFile("../../../../docs/ci-workflow.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"make -C .hc11mc ci-check FIRMWARE=", "::add-matcher::.hc11mc/docs/ci-matcher.json", "upload-sarif"} {
		if !strings.Contains(string(wf), want) {
			t.Errorf("docs/ci-workflow.yml does not run %q", want)
		}
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "hc11mc")
	recipe := func(firmware string) (string, int) {
		sarif := filepath.Join(dir, filepath.Base(firmware)+".sarif")
		cmd := exec.Command("make", "-s", "-C", "../../../..", "ci-check", "BIN="+bin, "FIRMWARE="+firmware, "SARIF="+sarif)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		code := 0
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	out, code := recipe("testdata/models/mutex_ok.elf")
	if code != 0 || len(annotations(t, out)) != 0 || !strings.Contains(out, "\nverified") {
		t.Fatalf("make ci-check on mutex_ok: exit %d, annotations %q:\n%s", code, annotations(t, out), out)
	}
	out, code = recipe("testdata/models/mutex_bad.elf")
	b, err := os.ReadFile("../../../../testdata/models/mutex_bad.s")
	if err != nil {
		t.Fatal(err)
	}
	at := ""
	for i, l := range strings.Split(string(b), "\n") {
		if c := strings.Index(l, "jsr     __mc_cs_enter"); c >= 0 && at == "" && !strings.HasPrefix(strings.TrimSpace(l), ";") {
			at = fmt.Sprintf("testdata/models/mutex_bad.s:%d:%d", i+1, c+1)
		}
	}
	if got := annotations(t, out); code == 0 || !strings.Contains(out, "ci-check] Error 1") || len(got) != 1 || got[0] != at+": error" {
		t.Fatalf("make ci-check on mutex_bad: exit %d, annotations %q, want [%q] and check's exit 1:\n%s", code, got, at+": error", out)
	}
	var log struct {
		Runs []struct {
			Results []struct{ RuleID string } `json:"results"`
		} `json:"runs"`
	}
	sb, err := os.ReadFile(filepath.Join(dir, "mutex_bad.elf.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(sb, &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 || log.Runs[0].Results[0].RuleID != "mutex" {
		t.Errorf("the recipe's SARIF log: %v %+v", err, log)
	}
	out, code = recipe("testdata/models/illegal.s19")
	if got := annotations(t, out); code == 0 || len(got) != 1 || got[0] != "testdata/models/illegal.s19:-:-: error" {
		t.Errorf("make ci-check on illegal.s19: exit %d, annotations %q:\n%s", code, got, out)
	}
}
