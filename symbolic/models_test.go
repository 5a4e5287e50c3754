package symbolic

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// machineFor loads a testdata image with the flags of a manifest entry.
func machineFor(t testing.TB, path string, flags []string) *sim.Machine {
	t.Helper()
	img, err := loader.Load(path, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.Config{Entry: img.Entry}
	for i := 0; i < len(flags); i += 2 {
		v := flags[i+1]
		switch flags[i] {
		case "--preempt":
			if cfg.Preempt, err = sim.ParsePreempt(v); err != nil {
				t.Fatal(err)
			}
		case "--stack":
			r, err := loader.ParseRange(v)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Stacks = append(cfg.Stacks, sim.StackRange{Thread: -1, Lo: r.Lo, Hi: r.Hi})
		case "--reach":
			s, ok := img.Lookup(v)
			if !ok {
				t.Fatalf("no symbol %s", v)
			}
			cfg.Reach = append(cfg.Reach, s.Addr)
		case "--irq":
			cfg.IRQs = strings.Split(v, ",")
		case "--ignore":
			cfg.IgnoreIllegal = ignored(flags)[sim.KindIllegal]
		case "--input":
			addr, list, _ := strings.Cut(v, "=")
			a, err := loader.ParseAddr(addr)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Inputs == nil {
				cfg.Inputs = map[uint16][]uint8{}
			}
			var vals []uint8 // nil: every value
			if list != "" {
				for _, x := range strings.Split(list, ",") {
					n, err := strconv.ParseUint(x, 0, 8)
					if err != nil {
						t.Fatalf("--input %s: %v", v, err)
					}
					vals = append(vals, uint8(n))
				}
			}
			cfg.Inputs[a] = vals

		default:
			t.Fatalf("flag %s", flags[i])
		}
	}
	m, err := sim.NewMachine(img, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// ignored returns the properties a manifest entry's --ignore flags name.
func ignored(flags []string) map[sim.Kind]bool {
	ign := map[sim.Kind]bool{}
	for i := 0; i+1 < len(flags); i += 2 {
		if flags[i] != "--ignore" {
			continue
		}
		for _, n := range strings.Split(flags[i+1], ",") {
			if k, ok := sim.ParseKind(n); ok {
				ign[k] = true
			}
		}
	}
	return ign
}

// replays checks that trace leads from the initial state to a violation
// of kind k.
func replays(t *testing.T, m *sim.Machine, s *sim.State, trace []sim.Label, k sim.Kind) {
	t.Helper()
	for n, l := range trace {
		ns, v, ok := m.Replay(s, l)
		if !ok {
			t.Fatalf("step %d of %d (%+v) is not a transition", n+1, len(trace), l)
		}
		if v != nil {
			if n != len(trace)-1 {
				t.Fatalf("violation %v at step %d of %d", v, n+1, len(trace))
			}
			if v.Kind != k {
				t.Fatalf("the trace ends in %v, want %v", v, k)
			}
			return
		}
		s = ns
	}
	if k == sim.KindDeadlock {
		if _, dl := m.Successors(s, nil, nil); dl != nil {
			return
		}
	}
	t.Fatalf("the trace of %d steps ends without a violation", len(trace))
}

// manifestEntry is a model of a testdata manifest.json.
type manifestEntry struct {
	Name, File, Expect, Property string
	Flags                        []string
}

// readManifest reads dir/manifest.json.
func readManifest(t testing.TB, dir string) []manifestEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var man []manifestEntry
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	return man
}

// expectResult checks res against the manifest's entry: its verdict and,
// for a violation, its kind and that its trace replays to it.
func expectResult(t *testing.T, m *sim.Machine, c manifestEntry, res Result) {
	t.Helper()
	if res.Verdict.String() != c.Expect {
		t.Fatalf("verdict %v (%s, %v), want %s; %v", res.Verdict, res.Limit, res.Violation, c.Expect, res.Stats)
	}
	if res.Verdict == Violated {
		k, _ := sim.ParseKind(c.Property)
		if res.Violation.Kind != k {
			t.Fatalf("violation %v, want %s", res.Violation, c.Property)
		}
		replays(t, m, m.Initial(), res.Trace, k)
	}
	t.Logf("%v in %.1fs: %v", res.Verdict, res.Stats.Elapsed.Seconds(), res.Stats)
}

// manifest runs the symbolic engine on the models of a testdata manifest
// (hmc, and auto with choices of up to 16 values enumerated) and checks
// its verdict and, for a violation, that the trace replays to it.
func manifest(t *testing.T, dir string, skip map[string]bool, timeout time.Duration) {
	man := readManifest(t, dir)
	for _, c := range man {
		if skip[c.Name] || slices.Contains(c.Flags, "--peripherals") {
			// Firmware on the chip's peripherals, which the symbolic
			// engine does not model (check --engine hmc refuses it).
			continue
		}
		for _, branch := range []int{0, 16} {
			t.Run(fmt.Sprintf("%s/branch%d", c.Name, branch), func(t *testing.T) {
				m := machineFor(t, filepath.Join(dir, c.File), c.Flags)
				e, err := NewEngine(m, Options{MaxBranch: branch})
				if err != nil {
					t.Fatal(err)
				}
				res := e.Check(context.Background(), []*State{e.Initial()}, Config{Timeout: timeout, Ignore: ignored(c.Flags)})
				expectResult(t, m, c, res)
			})
		}
	}
}

// TestModels: on the models of testdata/models and testdata/soundness,
// whose data are concrete or narrow, the symbolic engine gives the explicit
// engine's verdicts, and its counterexamples replay.
func TestModels(t *testing.T) {
	manifest(t, filepath.Join("..", "testdata", "models"), nil, time.Minute)
}

func TestSoundnessModels(t *testing.T) {
	manifest(t, filepath.Join("..", "testdata", "soundness"), nil, time.Minute)
}
