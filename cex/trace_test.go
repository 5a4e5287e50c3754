package cex

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// fixture reads a trace from testdata and builds the machine it was found
// on. The fixtures are harness models, so the settings they use are few:
// the scheduling points, the interrupts and the run bound.
func fixture(t *testing.T, name string) (*Trace, *loader.Image, *sim.Machine, []sim.Label) {
	t.Helper()
	tr, err := ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	img, err := loader.Load(tr.Firmware, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pre, err := sim.ParsePreempt(tr.Machine.Preempt)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sim.NewMachine(img, sim.Config{Preempt: pre, IRQs: tr.Machine.IRQ, MaxRun: tr.Machine.MaxRun, Entry: img.Entry})
	if err != nil {
		t.Fatal(err)
	}
	labels, err := tr.Labels()
	if err != nil {
		t.Fatal(err)
	}
	return tr, img, m, labels
}

// Trace files written before the format had its own type still load, and
// write back byte for byte: all_fields.json has every field set, as check
// --trace wrote it then. A field renamed, retagged or dropped fails here.
func TestFormatUnchanged(t *testing.T) {
	for _, name := range []string{"all_fields.json", "tick_torn.json", "philosophers.json"} {
		path := filepath.Join("testdata", name)
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), name)
		if err := tr.WriteFile(out); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(out)
		if string(got) != string(want) {
			t.Errorf("%s does not write back as it was read:\n%s", name, got)
		}
	}
}

// A trace records what the search found: the steps of a counterexample
// found again on the same machine are the ones check --trace wrote.
func TestNewTrace(t *testing.T) {
	for _, name := range []string{"tick_torn.json", "philosophers.json"} {
		tr, _, m, labels := fixture(t, name)
		_, v, err := search.Replay(m, labels)
		if err != nil || v == nil {
			t.Fatalf("%s: replay: %v, %v", name, v, err)
		}
		got := NewTrace(tr.Firmware, tr.Load, tr.Machine, m, labels, v)
		got.FromTrace = tr.FromTrace
		if !reflect.DeepEqual(got, tr) {
			t.Errorf("%s: NewTrace differs from the file:\n got %+v\nwant %+v", name, got, tr)
		}
	}
}

// A step names its interrupt; an unknown one is an error naming the step.
func TestLabels(t *testing.T) {
	tr := &Trace{Steps: []Step{{Thread: 1, Steps: 3, Choice: 2}, {Thread: 0, IRQ: "toc1", Steps: 1}, {Event: 4}}}
	labels, err := tr.Labels()
	if err != nil {
		t.Fatal(err)
	}
	toc1, _ := sim.VectorIndex("toc1")
	want := []sim.Label{{Thread: 1, IRQ: -1, Steps: 3, Choice: 2}, {IRQ: toc1, Steps: 1}, {IRQ: -1, Event: 4}}
	if !reflect.DeepEqual(labels, want) {
		t.Errorf("labels %+v, want %+v", labels, want)
	}
	tr.Steps[1].IRQ = "bogus"
	if _, err := tr.Labels(); err == nil || err.Error() != `step 2: unknown interrupt "bogus"` {
		t.Errorf("bogus interrupt: %v", err)
	}
}

// What is not a trace says so, with the offset of a syntax error.
func TestNotATrace(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{`{"steps": `, "offset 10: not a trace file"},
		{`{"steps": 3}`, "not a trace file"},
		{`{"steps": []}`, `not an hc11mc trace (no "hc11mc_trace": 1`},
		{`{"hc11mc_trace": 2, "firmware": "x.elf"}`, "not an hc11mc trace"},
	} {
		p := filepath.Join(dir, "t.json")
		os.WriteFile(p, []byte(c.text), 0o644)
		if _, err := ReadFile(p); err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("%s: %v, want %q", c.text, err, c.want)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "none.json")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}

// A located trace finds its firmware from any directory, and after the
// two have moved together.
func TestLocate(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "fw"), 0o755)
	os.MkdirAll(filepath.Join(dir, "out"), 0o755)
	os.WriteFile(filepath.Join(dir, "fw", "a.elf"), []byte("image"), 0o644)
	t.Chdir(dir)
	tr := &Trace{Version: Version, Firmware: "fw/a.elf"}
	tr.Locate("out/cex.json")
	if tr.Firmware != filepath.Join(dir, "fw", "a.elf") || tr.FromTrace != "../fw/a.elf" {
		t.Fatalf("located as %q, %q", tr.Firmware, tr.FromTrace)
	}
	if err := tr.WriteFile("out/cex.json"); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(dir, moved); err != nil {
		t.Skip(err)
	}
	t.Chdir(os.TempDir())
	got, err := ReadFile(filepath.Join(moved, "out", "cex.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(moved, "out", "../fw/a.elf"); got.Firmware != want {
		t.Errorf("firmware %q, want %q", got.Firmware, want)
	}
}
