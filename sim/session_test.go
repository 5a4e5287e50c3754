package sim

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
)

// TestSessionIsRun: a Session stepped to its end is the run Run makes
// with the same options — the same outputs and events at the same
// cycles, the same end, the same final state — on firmware with the
// chip's peripherals (batches, the environment's events, waits for
// input), on threaded models (locks, a blocked thread, violations) and
// under a random schedule. Run is the second implementation here: it
// executes instructions in batches, the session one at a time.
func TestSessionIsRun(t *testing.T) {
	p, err := loader.FindChip("e9")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, input string
		chip        bool
		irqs        []string
		seed        uint64 // 0: no random source
	}{
		{file: "firmware/monitor.elf", input: "L\rD D000\r", chip: true},
		{file: "firmware/serial_cmd.elf", input: "E abc\r", chip: true},
		{file: "firmware/collect.elf", input: "ABCDEFGH\r", chip: true},
		{file: "firmware/wai_tcnt.elf", chip: true},
		{file: "models/mutex_bad.elf"},
		{file: "models/mutex_ok.elf", seed: 7},
		{file: "models/deadlock.elf", seed: 3},
		{file: "models/illegal.elf"},
		{file: "models/irq_counter.elf", irqs: []string{"toc1"}, seed: 11},
		{file: "models/irq_counter.elf", irqs: []string{"toc1"}},
	} {
		img, err := loader.Load(filepath.Join("..", "testdata", c.file), loader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		run := func(session bool) (string, *State) {
			cfg := Config{Entry: img.Entry, IRQs: c.irqs, Board: []BoardRange{{Lo: 0x4000, Hi: 0x4001}}}
			if c.chip {
				if cfg.Device, err = devices.New(p, devices.Options{}); err != nil {
					t.Fatal(err)
				}
			}
			m, err := NewMachine(img, cfg)
			if err != nil {
				t.Fatal(err)
			}
			s := m.Initial()
			var log strings.Builder
			opts := RunOptions{Steps: 200000, SCIInput: []byte(c.input),
				Output: func(o Output) {
					fmt.Fprintf(&log, "out %v %#x %#x at %d\n", o.Kind, o.Addr, o.Value, threadCycles(s))
				},
				Event: func(e devices.EventInfo) { fmt.Fprintf(&log, "event %v at %d\n", e, threadCycles(s)) }}
			if c.seed != 0 {
				opts.Rand = rand.New(rand.NewPCG(c.seed, 1))
			}
			var res RunResult
			if session {
				se := m.NewSession(s, opts)
				for !se.Done() {
					se.Step()
				}
				res = se.Result()
			} else {
				res = m.Run(s, opts)
			}
			fmt.Fprintf(&log, "end after %d steps, %d cycles, %d received: %v %s\n", res.Steps, res.Cycles, res.Received, res.Violation, res.Reason)
			return log.String(), s
		}
		want, s0 := run(false)
		got, s1 := run(true)
		if got != want {
			t.Errorf("%s: the session and the run differ:\n%s", c.file, firstDiff(want, got))
		}
		if !s0.Equal(s1) {
			t.Errorf("%s: the session ends in another state", c.file)
		}
		t.Logf("%s: %s", c.file, want[strings.LastIndex(strings.TrimSuffix(want, "\n"), "\n")+1:])
	}
}

// TestPokeMem: a debugger's write changes RAM and nothing else.
func TestPokeMem(t *testing.T) {
	img, err := loader.Load(filepath.Join("..", "testdata", "firmware", "monitor.elf"), loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := loader.FindChip("e9")
	chip, err := devices.New(p, devices.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMachine(img, Config{Entry: img.Entry, Device: chip})
	if err != nil {
		t.Fatal(err)
	}
	s := m.Initial()
	if !m.PokeMem(s, 0x0040, 0x5A) || m.ReadMem(s, 0x0040) != 0x5A {
		t.Errorf("RAM at 0x0040: not written")
	}
	rom := m.ReadMem(s, img.Entry)
	if m.PokeMem(s, img.Entry, rom+1) || m.ReadMem(s, img.Entry) != rom {
		t.Errorf("ROM at 0x%04X: written", img.Entry)
	}
	if m.PokeMem(s, 0x102F, 0x41) { // SCDR, in the register block
		t.Errorf("the register block: written")
	}
}

// TestSessionStepAllocs: a session's step allocates nothing, as Run's
// steps do not — here irq_counter.s's interrupts and WAI, and collect.s
// waiting for the SCI with the chip's peripherals.
func TestSessionStepAllocs(t *testing.T) {
	p, err := loader.FindChip("e9")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		chip bool
		irqs []string
	}{{"models/irq_counter.elf", false, []string{"toc1"}}, {"firmware/collect.elf", true, nil}} {
		img, err := loader.Load(filepath.Join("..", "testdata", c.file), loader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Entry: img.Entry, IRQs: c.irqs}
		if c.chip {
			if cfg.Device, err = devices.New(p, devices.Options{}); err != nil {
				t.Fatal(err)
			}
		}
		m, err := NewMachine(img, cfg)
		if err != nil {
			t.Fatal(err)
		}
		se := m.NewSession(m.Initial(), RunOptions{SCIInput: []byte(strings.Repeat("ABCDEFG\r", 400))})
		for range 1000 {
			se.Step()
		}
		if n := testing.AllocsPerRun(1000, func() { se.Step() }); n != 0 || se.Done() {
			t.Errorf("%s: %v allocations a step (the run ended: %v)", c.file, n, se.Done())
		}
	}
}
