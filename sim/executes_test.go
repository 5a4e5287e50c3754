package sim

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/loader"
)

// TestReductionsKeepExecutingState enforces the rule of the package doc:
// a reduction never changes the state that executes. On the firmware of
// testdata/firmware and testdata/soundness (peripherals on, so that
// dead stack bytes are masked), random walks take each transition — a
// successor or an ample candidate — on a machine with every reduction
// (dead data, stack privacy checked) and replay its label on a plain
// machine: the two states must be equal after every step, and the
// violations the same. A reduction that wrote to a state (as clearing
// pulled bytes once did) fails it.
func TestReductionsKeepExecutingState(t *testing.T) {
	steps, err := walkReduced(t)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d steps compared", steps)
	// The fault this test exists for: clearing a pulled byte by a write.
	defer mutation.Set(mutation.ClearWrite)()
	if _, err := walkReduced(t); err == nil {
		t.Errorf("with pulled bytes cleared by a write, no walk told the machines apart")
	}
}

// walkReduced makes the random walks of TestReductionsKeepExecutingState
// and returns the number of steps compared, or the first difference.
func walkReduced(t *testing.T) (int, error) {
	files := []string{"firmware/collect.elf", "firmware/serial_cmd.elf", "firmware/monitor.elf",
		"soundness/stack_code.elf", "soundness/stack_flag.elf", "soundness/sp_table.elf", "soundness/ram_patch.elf",
		"soundness/tx_tail.elf"}
	p, err := loader.FindChip("e9")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	steps := 0
	for _, f := range files {
		img, err := loader.Load(filepath.Join("..", "testdata", f), loader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		newM := func(reduce bool) *Machine {
			chip, err := devices.New(p, devices.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cfg := Config{Entry: img.Entry, Preempt: PreemptEvery, Device: chip, Dead: reduce, DeadStack: reduce,
				Board: []BoardRange{{Lo: 0x4000, Hi: 0x4001}}}
			m, err := NewMachine(img, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if reduce {
				m.CheckPrivate()
			}
			return m
		}
		red, plain := newM(true), newM(false)
		for walk := range 20 {
			s := red.Initial()
			for range 400 {
				type step struct {
					ns *State
					l  Label
					v  *Violation
				}
				var opts []step
				e := red.NewExpander()
				if r.IntN(2) == 0 {
					e.AmpleCandidates(s, nil, func(ns *State, l Label) bool {
						opts = append(opts, step{ns.Clone(), l, nil})
						return true
					})
				}
				if len(opts) == 0 {
					e.Expand(s, nil, func(ns *State, l Label, v *Violation) {
						opts = append(opts, step{ns.Clone(), l, v})
					})
				}
				if len(opts) == 0 {
					break
				}
				o := opts[r.IntN(len(opts))]
				ps, pv, ok := plain.Replay(s, o.l)
				if !ok {
					return steps, fmt.Errorf("%s walk %d: label %+v of the reduced machine is no transition of the plain one", f, walk, o.l)
				}
				if !ps.Equal(o.ns) {
					return steps, fmt.Errorf("%s walk %d: after %+v the reduced machine's state differs from the plain one's", f, walk, o.l)
				}
				if (pv == nil) != (o.v == nil) || pv != nil && pv.Kind != o.v.Kind {
					return steps, fmt.Errorf("%s walk %d: after %+v violation %v, plain %v", f, walk, o.l, o.v, pv)
				}
				steps++
				if o.v != nil {
					break
				}
				s = o.ns
			}
		}
	}
	return steps, nil
}
