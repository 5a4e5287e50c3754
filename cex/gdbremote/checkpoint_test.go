package gdbremote

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// TestLiveCheckpoints: going back from checkpoints a few positions apart
// gives what going back by running again from reset gives — the same
// stops, positions and states — through the same steps, continues,
// breakpoints, watchpoints and writes, forward and back. Running from
// reset is the second implementation here.
func TestLiveCheckpoints(t *testing.T) {
	p, err := loader.FindChip("e9")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, input string
		chip        bool
		irqs        []string
		bps         []string
		watch       string
		ops         string
	}{
		{"firmware/collect.elf", "AB\rCDE\rF\r", true, nil, []string{"eol"}, "count",
			"c s s bs c w:count=7 bc bc s s s s s bs c c c bs bc bc bc c r:1=1234 s bc c c c bc"},
		{"firmware/serial_cmd_fixed.elf", "E hi\rT\r", true, nil, []string{"got_line", "sci_isr"}, "ticks",
			"c c c bs bs c c c c bc bc w:ticks=5 c c c c bs bc bc bc c c"},
		{"models/mutex_ok.elf", "", false, nil, []string{"worker"}, "",
			"s s s s s s s s c s s s bs bs bc c s s s s s s s s bs bs bs c c bc bc"},
		{"models/irq_counter.elf", "", false, []string{"toc1"}, []string{"toc1_isr"}, "ticks",
			"c c c bs bc bc c c r:5=9 c c bc bs bs c c"},
	} {
		img, err := loader.Load(filepath.Join("..", "..", "testdata", c.file), loader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cfg := sim.Config{Entry: img.Entry, IRQs: c.irqs}
		if c.chip {
			if cfg.Device, err = devices.New(p, devices.Options{}); err != nil {
				t.Fatal(err)
			}
		}
		m, err := sim.NewMachine(img, cfg)
		if err != nil {
			t.Fatal(err)
		}
		sym := func(name string) uint16 {
			s, ok := img.Lookup(name)
			if !ok {
				t.Fatalf("%s: no %s", c.file, name)
			}
			return s.Addr
		}
		var sci [2]strings.Builder
		live := func(k, every int) *Live {
			l := NewLive(m, func() sim.RunOptions {
				return sim.RunOptions{Steps: 100000, SCIInput: []byte(c.input), Output: func(o sim.Output) {
					if o.Kind == sim.OutSCI {
						sci[k].WriteByte(o.Value)
					}
				}}
			})
			l.every, l.cps = every, nil
			return l
		}
		ls := [2]*Live{live(0, 0), live(1, 3)}
		bps := map[uint16]bool{}
		for _, b := range c.bps {
			bps[sym(b)] = true
		}
		var ws []watch
		if c.watch != "" {
			ws = []watch{{sym(c.watch), 1, watchWrite}}
		}
		for n, op := range strings.Fields(c.ops) {
			var got [2]string
			for k, l := range ls {
				q := &request{thread: 0, bps: bps, watches: ws, interrupted: func() bool { return false }}
				var st stop
				switch {
				case op == "c":
					st = l.resume(q)
				case op == "s":
					q.step = true
					st = l.resume(q)
				case op == "bs":
					q.step, q.back = true, true
					st = l.resume(q)
				case op == "bc":
					q.back = true
					st = l.resume(q)
				case strings.HasPrefix(op, "w:"):
					var v byte
					name, val, _ := strings.Cut(op[2:], "=")
					fmt.Sscan(val, &v)
					if err := l.writeMemory(sym(name), []byte{v}); err != nil {
						t.Fatal(err)
					}
				case strings.HasPrefix(op, "r:"):
					var reg int
					var v uint16
					fmt.Sscanf(op[2:], "%d=%x", &reg, &v)
					l.setRegister(0, reg, v)
				}
				got[k] = fmt.Sprintf("%+v at %d, %d instructions", st, l.position(), l.Result().Steps)
			}
			if got[0] != got[1] {
				t.Fatalf("%s, op %d (%s): from reset %s; from checkpoints %s", c.file, n, op, got[0], got[1])
			}
			if !ls[0].state().Equal(ls[1].state()) {
				t.Fatalf("%s, op %d (%s): the states differ", c.file, n, op)
			}
		}
		if sci[0].String() != sci[1].String() {
			t.Errorf("%s: the SCI's output differs: %q and %q", c.file, sci[0].String(), sci[1].String())
		}
		t.Logf("%s: %d checkpoints at the end, every %d; SCI %q", c.file, len(ls[1].cps), ls[1].every, sci[1].String())
	}
}
