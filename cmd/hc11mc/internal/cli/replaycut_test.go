package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/cex"
)

// TestReplayDiverges: a valid trace whose steps do not lead to its
// violation — its last steps cut, or one step given to another thread —
// replays with exit 4 and says where it diverged; a file that is not a
// trace at all is bad input, exit 2.
func TestReplayDiverges(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "cex.json")
	if _, code := runJSON(t, "check", "../../../../testdata/examples/philosophers.elf", "--json", "--search", "bfs", "--trace", trace); code != ExitViolation {
		t.Fatalf("check exit %d", code)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var good cex.Trace
	if err := json.Unmarshal(b, &good); err != nil {
		t.Fatal(err)
	}
	// The firmware path as check wrote it may be relative to here.
	abs, _ := filepath.Abs("../../../../testdata/examples/philosophers.elf")
	for _, c := range []struct {
		name string
		edit func(tf *cex.Trace)
		want string
	}{
		{"cut", func(tf *cex.Trace) { tf.Steps = tf.Steps[:len(tf.Steps)-3] }, "no violation at the end"},
		{"other thread", func(tf *cex.Trace) { tf.Steps[10].Thread = 7 }, "step 11"},
	} {
		tf := good
		tf.Firmware = abs
		tf.Steps = append([]cex.Step(nil), good.Steps...)
		c.edit(&tf)
		p := filepath.Join(dir, c.name+".json")
		if err := tf.WriteFile(p); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := Main([]string{"replay", p}, nil, &out, &errb); code != ExitNoReplay || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%s: exit %d, %q (want 4 and %q)", c.name, code, errb.String(), c.want)
		}
	}
	notTrace := filepath.Join(dir, "junk.json")
	os.WriteFile(notTrace, []byte(`{"steps": 3}`), 0o644)
	var out, errb bytes.Buffer
	if code := Main([]string{"replay", notTrace}, nil, &out, &errb); code != ExitUsage || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("not a trace: exit %d, %q", code, errb.String())
	}
}

// TestReplayNeverPanics: traces with random steps changed — threads that
// do not exist, instruction counts and choices out of range, unknown or
// impossible interrupts — replay with exit 1, 2 or 4 and one line of
// error, never a panic, with and without --watch, --json and --svg.
func TestReplayNeverPanics(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "cex.json")
	if _, code := runJSON(t, "check", "../../../../testdata/bench/irq_lostupdate.elf", "--json", "--irq", "toc1", "--search", "bfs", "--trace", trace); code != ExitViolation {
		t.Fatalf("check exit %d", code)
	}
	b, _ := os.ReadFile(trace)
	var good cex.Trace
	if err := json.Unmarshal(b, &good); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("../../../../testdata/bench/irq_lostupdate.elf")
	good.Firmware = abs
	seed := uint64(1)
	next := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int(seed>>33) % n
	}
	for i := range 120 {
		tf := good
		tf.Steps = append([]cex.Step(nil), good.Steps...)
		for range 1 + next(3) {
			s := &tf.Steps[next(len(tf.Steps))]
			switch next(5) {
			case 0:
				s.Thread = next(12) - 2
			case 1:
				s.Steps = uint32([]int{0, 1, 2, 1000}[next(4)])
			case 2:
				s.Choice = uint64([]int{0, 1, 300}[next(3)])
			case 3:
				s.IRQ = []string{"", "toc1", "sci", "bogus"}[next(4)]
			default:
				tf.Steps = tf.Steps[:next(len(tf.Steps))+1]
			}
		}
		p := filepath.Join(dir, "t.json")
		if err := tf.WriteFile(p); err != nil {
			t.Fatal(err)
		}
		args := [][]string{{"replay", p}, {"replay", p, "--json"}, {"replay", p, "--svg", filepath.Join(dir, "x.svg")}}[i%3]
		var out, errb bytes.Buffer
		code := Main(args, nil, &out, &errb)
		if code != ExitViolation && code != ExitUsage && code != ExitNoReplay {
			t.Fatalf("mutation %d: exit %d", i, code)
		}
		if code != ExitViolation && strings.Count(errb.String(), "\n") != 1 {
			t.Fatalf("mutation %d: exit %d with %q", i, code, errb.String())
		}
	}
}
