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

// TestSessionClone: a clone of a session, taken anywhere, goes on as the
// session does — the same outputs, events and end, and the same state —
// while the session it was taken from goes on unchanged by it, even
// beside a clone whose run goes elsewhere. They are compared with a
// session never cloned.
func TestSessionClone(t *testing.T) {
	p, err := loader.FindChip("e9")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, input string
		chip        bool
		irqs        []string
		at          []int // clone after these many steps
	}{
		{"firmware/monitor.elf", "L\rD D000\r", true, nil, []int{0, 1, 500, 3001, 9000}},
		{"firmware/serial_cmd.elf", "E abc\r", true, nil, []int{3, 2000, 7777}},
		{"firmware/wai_tcnt.elf", "", true, nil, []int{100, 1000}},
		{"models/mutex_ok.elf", "", false, nil, []int{5, 20}},
		{"models/irq_counter.elf", "", false, []string{"toc1"}, []int{10, 5000}},
	} {
		img, err := loader.Load(filepath.Join("..", "testdata", c.file), loader.Options{})
		if err != nil {
			t.Fatal(err)
		}
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
		var log *strings.Builder // where the outputs of the session stepped go
		start := func() *Session {
			return m.NewSession(m.Initial(), RunOptions{Steps: 20000, SCIInput: []byte(c.input),
				Output: func(o Output) { fmt.Fprintf(log, "out %v %#x %#x\n", o.Kind, o.Addr, o.Value) },
				Event:  func(e devices.EventInfo) { fmt.Fprintf(log, "event %v\n", e) }})
		}
		finish := func(se *Session) string {
			for !se.Done() {
				se.Step()
			}
			res := se.Result()
			fmt.Fprintf(log, "end after %d steps, %d cycles, %d received: %v %s\n", res.Steps, res.Cycles, res.Received, res.Violation, res.Reason)
			return log.String()
		}
		for _, at := range c.at {
			var head, whole, rest, orig strings.Builder
			log = &whole
			ref := start()
			want := finish(ref)

			log = &head
			se := start()
			for range at {
				se.Step()
			}
			cl, ok := se.Clone()
			if !ok {
				t.Fatalf("%s: no clone", c.file)
			}
			prefix := head.String()
			log = &rest
			got := finish(cl)
			if prefix+got != want {
				t.Errorf("%s cloned after %d steps: the clone goes on otherwise:\n%s", c.file, at, firstDiff(want, prefix+got))
			}
			if !cl.State().Equal(ref.State()) {
				t.Errorf("%s cloned after %d steps: the clone ends in another state", c.file, at)
			}
			log = &orig
			if got := finish(se); prefix+got != want {
				t.Errorf("%s cloned after %d steps: the session cloned goes on otherwise:\n%s", c.file, at, firstDiff(want, prefix+got))
			}
			if !se.State().Equal(ref.State()) {
				t.Errorf("%s cloned after %d steps: the session cloned ends in another state", c.file, at)
			}

			// Step by step beside a clone sent elsewhere (its thread 0
			// back at the entry, as a debugger may set it): neither the
			// session nor a faithful clone of it notices.
			log = &strings.Builder{}
			se = start()
			for range at {
				se.Step()
			}
			cl, _ = se.Clone()
			odd, _ := se.Clone()
			odd.State().Threads[0].PC = img.Entry
			for !se.Done() || !cl.Done() {
				se.Step()
				odd.Step()
				cl.Step()
			}
			for _, x := range []*Session{se, cl} {
				if !x.State().Equal(ref.State()) || x.Result().Steps != ref.Result().Steps || x.Result().Cycles != ref.Result().Cycles {
					t.Errorf("%s cloned after %d steps: a run beside a clone sent elsewhere ends otherwise", c.file, at)
				}
			}
		}
	}
}
