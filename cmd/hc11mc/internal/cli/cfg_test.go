package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The paper's worked examples through the estimate command (Rungta &
// Mercer, Figures 1 and 4): the state is the first entry to foo / g.
func TestEstimateFigures(t *testing.T) {
	for _, tt := range []struct {
		file, brk, heur, k, want string
	}{
		{"fig1", "foo", "fsm", "1", "h=3"},
		{"fig1", "foo", "efsm", "1", "h=8"},
		{"fig4", "g", "fsm", "1", "h=4"},
		{"fig4", "g", "aicfg", "1", "h=4"},
		{"fig4", "g", "aicfg", "2", "h=11"},
		{"fig4", "g", "efsm", "0", "h=11"},
		{"fig4", "g", "efsm", "1", "h=11"},
	} {
		var out, errb bytes.Buffer
		args := []string{"estimate", "../../../../testdata/heuristics/" + tt.file + ".elf", "--target", "error",
			"--heuristic", tt.heur, "--break", tt.brk}
		if tt.heur != "fsm" { // fsm has no calling contexts: estimate refuses --k with it
			args = append(args, "--k", tt.k)
		}
		if code := Main(args, nil, &out, &errb); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errb.String())
			continue
		}
		if got := strings.TrimSpace(out.String()); got != tt.want {
			t.Errorf("%s %s k=%s at %s: %s, want %s", tt.file, tt.heur, tt.k, tt.brk, got, tt.want)
		}
	}
}

func TestEstimateBadBreak(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"estimate", "../../../../testdata/heuristics/fig1.elf", "--target", "error", "--break", "foo#1000"}, nil, &out, &errb)
	if code != ExitUsage || !strings.Contains(errb.String(), "not 1000") {
		t.Errorf("exit %d: %s", code, errb.String())
	}
}

func TestCfgOutputs(t *testing.T) {
	img := "../../../../testdata/examples/philosophers.elf"
	var out, errb bytes.Buffer
	if code := Main([]string{"cfg", img, "--k", "1"}, nil, &out, &errb); code != 0 {
		t.Fatalf("text: exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"philosopher", "forkaddr", "AICFG(1)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := Main([]string{"cfg", img, "--format", "json"}, nil, &out, &errb); code != 0 {
		t.Fatalf("json: exit %d: %s", code, errb.String())
	}
	var r map[string]any
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r["procedures"] == nil {
		t.Errorf("json: %v %.200s", err, out.String())
	}
	out.Reset()
	if code := Main([]string{"cfg", img, "--output", "dot", "--target", "deadlock"}, nil, &out, &errb); code != 0 {
		t.Fatalf("dot: exit %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "digraph") {
		t.Fatalf("dot output: %.100s", out.String())
	}
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz's dot not installed (apt-get install graphviz): the DOT output is not rendered")
	}
	cmd := exec.Command(dot, "-Tsvg")
	cmd.Stdin = &out
	svg, err := cmd.Output()
	if err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Errorf("dot -Tsvg: %v", err)
	}
	file := filepath.Join(t.TempDir(), "g.svg")
	if code := Main([]string{"cfg", img, "--svg", file}, nil, &bytes.Buffer{}, &errb); code != 0 {
		t.Fatalf("--svg: exit %d: %s", code, errb.String())
	}
	if b, _ := os.ReadFile(file); !bytes.Contains(b, []byte("<svg")) {
		t.Error("--svg wrote no SVG")
	}
}
