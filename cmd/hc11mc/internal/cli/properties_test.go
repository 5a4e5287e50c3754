package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
)

// TestHiddenSymbols: an S-record of a model whose mutex violation the ELF
// finds cannot be called verified without saying that the harness's
// properties were not checked — on the verdict line, in --json and in a
// warning naming --symbols; with --symbols (m68hc11-nm output written
// from the ELF's symbols) the S-record finds the violation too.
func TestHiddenSymbols(t *testing.T) {
	const model = "../../../../testdata/models/mutex_bad"
	var out, errb bytes.Buffer
	code := Main([]string{"check", model + ".s19"}, nil, &out, &errb)
	if code == ExitViolation {
		t.Fatalf("the S-record without symbols found the violation: the test no longer shows the hidden case")
	}
	if !strings.Contains(errb.String(), "warning") || !strings.Contains(errb.String(), "--symbols") {
		t.Errorf("no warning naming --symbols on stderr: %q", errb.String())
	}
	verdict := ""
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "verified") || strings.HasPrefix(l, "incomplete") {
			verdict = l
		}
	}
	if verdict == "" || strings.Contains(verdict, "mutex") || !strings.Contains(out.String(), "not checked: mutex (the image has no symbols") {
		t.Errorf("the output does not say mutex went unchecked:\n%s", out.String())
	}

	var r struct {
		Verdict   string   `json:"verdict"`
		Checked   []string `json:"properties_checked"`
		Unchecked []struct {
			Property, Reason string
		} `json:"properties_unchecked"`
	}
	out.Reset()
	Main([]string{"check", model + ".s19", "--json"}, nil, &out, &errb)
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	var unchecked []string
	for _, u := range r.Unchecked {
		unchecked = append(unchecked, u.Property)
		if u.Reason == "" {
			t.Errorf("%s unchecked without a reason", u.Property)
		}
	}
	for _, k := range []string{"assert", "error", "deadlock", "mutex", "unlock", "stack"} {
		if !slices.Contains(unchecked, k) || slices.Contains(r.Checked, k) {
			t.Errorf("%s: checked %v, unchecked %v", k, r.Checked, unchecked)
		}
	}

	// The same image with its symbols.
	img, err := loader.Load(model+".elf", loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var nm strings.Builder
	for _, s := range img.Symbols {
		fmt.Fprintf(&nm, "%08x T %s\n", s.Addr, s.Name)
	}
	syms := filepath.Join(t.TempDir(), "mutex_bad.sym")
	if err := os.WriteFile(syms, []byte(nm.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	got, code := runJSON(t, "check", model+".s19", "--symbols", syms, "--json")
	if code != ExitViolation || got.Violation == nil || got.Violation.Kind != "mutex" {
		t.Errorf("with --symbols: exit %d, %+v", code, got.Violation)
	}
	out.Reset()
	errb.Reset()
	Main([]string{"check", model + ".s19", "--symbols", syms}, nil, &out, &errb)
	if strings.Contains(errb.String(), "warning") {
		t.Errorf("a warning with --symbols: %s", errb.String())
	}
}

// TestPropertiesOfELF: an ELF model's verified verdict names what it
// checked, and --stack and --ignore move properties between the lists.
func TestPropertiesOfELF(t *testing.T) {
	const model = "../../../../testdata/models/mutex_ok.elf"
	var out, errb bytes.Buffer
	if code := Main([]string{"check", model}, nil, &out, &errb); code != ExitVerified {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "verified (properties checked: ") || !strings.Contains(out.String(), "mutex") ||
		!strings.Contains(out.String(), "not checked: stack (no stack range (--stack))") {
		t.Errorf("verdict without its properties:\n%s", out.String())
	}
	out.Reset()
	Main([]string{"check", model, "--stack", "0x0000-0x01FF", "--ignore", "mutex", "--json"}, nil, &out, &errb)
	var r struct {
		Checked   []string `json:"properties_checked"`
		Unchecked []struct {
			Property, Reason string
		} `json:"properties_unchecked"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Checked, "stack") || slices.Contains(r.Checked, "mutex") {
		t.Errorf("checked %v", r.Checked)
	}
	found := false
	for _, u := range r.Unchecked {
		found = found || u.Property == "mutex" && u.Reason == "--ignore"
	}
	if !found {
		t.Errorf("mutex not unchecked by --ignore: %+v", r.Unchecked)
	}
}

// Firmware written for a board calls no harness stub: an S-record of it
// draws no warning about missing symbols (the result still lists the
// harness's properties as not checked), while one that calls a bare RTS,
// as the harness's stubs are, does (TestHiddenSymbols).
func TestNoSymbolWarningForBoardFirmware(t *testing.T) {
	images := [][]string{{"../../../../testdata/firmware/rx_count.s19", "--peripherals", "on"}}
	if _, err := os.Stat(buffaloImage); err == nil {
		images = append(images, []string{buffaloImage, "--board", "../../../../testdata/boards/evb.board"})
	}
	for _, args := range images {
		var out, errb bytes.Buffer
		Main(append([]string{"check", args[0], "--max-states", "2000", "-q"}, args[1:]...), nil, &out, &errb)
		if strings.Contains(errb.String(), "warning") {
			t.Errorf("%s: %s", args[0], errb.String())
		}
		if !strings.Contains(out.String(), "the image has no symbols") {
			t.Errorf("%s: the result does not say the harness's properties went unchecked:\n%s", args[0], out.String())
		}
	}
}
