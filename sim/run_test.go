package sim

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
)

// loopCode is LDX #n; loop: DEX; BNE loop; WAI-free end: BRA *.
var loopCode = []byte{
	0xCE, 0xFF, 0xFF, // ldx #0xffff
	0x09,       // dex
	0x26, 0xFD, // bne -3
	0x20, 0xFE, // bra .
}

func TestRunLoop(t *testing.T) {
	m := testMachine(t, loopCode, nil, nil, Config{})
	s := m.Initial()
	var tr strings.Builder
	res := m.Run(s, RunOptions{Steps: 7, Trace: &tr})
	if res.Steps != 7 {
		t.Fatalf("steps %d", res.Steps)
	}
	th := &s.Threads[0]
	// LDX (3 cycles), then three DEX (3) + BNE (3) rounds.
	if th.X != 0xfffc || th.PC != 0xd003 || res.Cycles != 3+3*6 {
		t.Errorf("X=%04x PC=%04x cycles=%d\n%s", th.X, th.PC, res.Cycles, tr.String())
	}
	lines := strings.Split(strings.TrimSpace(tr.String()), "\n")
	if len(lines) != 8 || !strings.HasPrefix(lines[7], "final cyc=21 thr=0 PC=d003") {
		t.Errorf("trace:\n%s", tr.String())
	}
	if !strings.Contains(lines[0], "cyc=0 thr=0 PC=d000 A=00 B=00 X=0000 Y=0000 SP=0000 CCR=d0") || !strings.Contains(lines[0], "ldx #0xffff") {
		t.Errorf("first line %q", lines[0])
	}
}

func BenchmarkRunLoop(b *testing.B) {
	m := testMachine(b, loopCode, nil, nil, Config{})
	s := m.Initial()
	b.ReportAllocs()
	b.ResetTimer()
	res := m.Run(s, RunOptions{Steps: uint64(b.N)})
	b.ReportMetric(float64(res.Steps)/b.Elapsed().Seconds()/1e6, "Minstr/s")
}

// loopForever is LDX #0xFFFF; DEX; BNE; INY; BRA to the LDX: a
// computation that never touches the register block and repeats no state
// for thirteen billion instructions.
var loopForever = []byte{
	0xCE, 0xFF, 0xFF, // ldx #0xffff
	0x09,       // dex
	0x26, 0xFD, // bne -3
	0x18, 0x08, // iny
	0x20, 0xF6, // bra to the ldx
}

// BenchmarkRunDevice is BenchmarkRunLoop on the E9's peripherals, clocked
// (the timer counts, the COP is off): what run costs firmware that
// computes without touching a register.
func BenchmarkRunDevice(b *testing.B) {
	m := deviceMachine(b, loopForever, nil, devices.Options{}, Config{})
	s := m.Initial()
	b.ReportAllocs()
	b.ResetTimer()
	res := m.Run(s, RunOptions{Steps: uint64(b.N)})
	if res.Violation != nil || res.Steps != uint64(b.N) {
		b.Fatalf("after %d steps: %v %s", res.Steps, res.Violation, res.Reason)
	}
	b.ReportMetric(float64(res.Steps)/b.Elapsed().Seconds()/1e6, "Minstr/s")
}

// TestRunBatchesExact: run executes firmware on its peripherals in
// batches of instructions between the environment's events; with a
// trace it looks after every instruction. Both must make the same run:
// the same events at the same step, the same outputs, the same end, on
// firmware that polls, takes interrupts, sends and receives.
func TestRunBatchesExact(t *testing.T) {
	p, err := loader.FindChip("e9")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, input string
		steps       uint64 // at least
	}{
		{"monitor.elf", "L\rD D000\r", 10000},
		{"serial_cmd_fixed.elf", "T\rL\rE hello\r", 10000},
		{"serial_cmd.elf", "E abc\r", 1000},
		{"collect.elf", "ABCDEFGHIJKLMNOPQRSTUVWXYZ\r", 200},
		{"switches.elf", "", 20},
		{"send.s", "", 6000},
		{"cop1.s", "", 100000},
		{"cop2.s", "", 100000},
	} {
		var img *loader.Image
		if c.file == "send.s" {
			// Sends a byte, computes for longer than its frame without
			// touching a register, sends another and loops: the
			// transmitter finishes the first in the middle of a batch.
			img = testImage(t, b(0x86, 0x08, 0xB7, 0x10, 0x2D, // ldaa #TE; staa SCCR2
				0x86, 'A', 0xB7, 0x10, 0x2F, // ldaa #'A'; staa SCDR
				0xCE, 0x0B, 0xB8, 0x09, 0x26, 0xFD, // ldx #3000; dex; bne
				0x86, 'B', 0xB7, 0x10, 0x2F, // ldaa #'B'; staa SCDR
				0x20, 0xFE), nil, nil) // bra *
		} else if strings.HasPrefix(c.file, "cop") {
			// Services the COP, then computes for 15,000 cycles (cop1)
			// or 73,000 (cop2, past the COP's timeout), and again.
			n := map[string]byte{"cop1.s": 0x13, "cop2.s": 0x2F}[c.file]                     // ldx #0x1388 or #0x2F88
			img = testImage(t, b(0x86, 0x55, 0xB7, 0x10, 0x3A, 0x86, 0xAA, 0xB7, 0x10, 0x3A, // service
				0xCE, n, 0x88, 0x09, 0x26, 0xFD, // ldx #n; dex; bne
				0x20, 0xEE), nil, nil) // bra to the start
		} else if img, err = loader.Load(filepath.Join("..", "testdata", "firmware", c.file), loader.Options{}); err != nil {
			t.Fatal(err)
		}
		run := func(trace io.Writer, o devices.Options) (RunResult, *State, string) {
			chip, err := devices.New(p, o)
			if err != nil {
				t.Fatal(err)
			}
			m, err := NewMachine(img, Config{Entry: img.Entry, Device: chip, Board: []BoardRange{{Lo: 0x4000, Hi: 0x4001}}})
			if err != nil {
				t.Fatal(err)
			}
			s := m.Initial()
			var log strings.Builder
			var steps uint64
			res := m.Run(s, RunOptions{Steps: 500000, Trace: trace, SCIInput: []byte(c.input),
				Output: func(o Output) {
					fmt.Fprintf(&log, "out %v %#x %#x at %d\n", o.Kind, o.Addr, o.Value, s.Threads[0].Cycles)
				},
				Event: func(e devices.EventInfo) { fmt.Fprintf(&log, "event %v at %d\n", e, s.Threads[0].Cycles) }})
			steps = res.Steps
			fmt.Fprintf(&log, "end after %d steps, %d cycles, %d received: %v %s\n", steps, res.Cycles, res.Received, res.Violation, res.Reason)
			return res, s, log.String()
		}
		// With the COP on, the device counts cycles: batches end at its
		// horizon, and count the cycles before a register access first.
		cop := devices.Options{Config: 0x0B, ConfigSet: true}
		_, _, copBatched := run(nil, cop)
		_, _, copStepped := run(io.Discard, cop)
		if copBatched != copStepped {
			t.Errorf("%s with the COP on: batched and stepped runs differ:\n%s", c.file, firstDiff(copBatched, copStepped))
		}
		t.Logf("%s with the COP on: %s", c.file, copBatched[strings.LastIndex(strings.TrimSuffix(copBatched, "\n"), "\n")+1:])
		res, s, batched := run(nil, devices.Options{})
		_, s1, stepped := run(io.Discard, devices.Options{})
		if batched != stepped {
			t.Errorf("%s: batched and stepped runs differ:\n%s", c.file, firstDiff(batched, stepped))
		}
		if res.Steps < c.steps {
			t.Errorf("%s: only %d steps: %s", c.file, res.Steps, res.Reason)
		}
		for i := range s.Threads {
			if s.Threads[i].Key() != s1.Threads[i].Key() {
				t.Errorf("%s: thread %d ends differently", c.file, i)
			}
		}
		for i := range s.Pages {
			if s.Pages[i].Data != s1.Pages[i].Data {
				t.Errorf("%s: page %d ends differently", c.file, i)
			}
		}
	}
}

// firstDiff returns the first line where a and b differ, from each.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n  batched: %s\n  stepped: %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("%d lines and %d", len(la), len(lb))
}

// TestRunCountsInterruptEntry: the cycles run reports (and --trace's cyc=)
// include each interrupt's entry, 14 E cycles (nine bytes stacked, the
// vector fetched: the M68HC11 Reference Manual's section 5, Resets and
// Interrupts): the handler's first instruction starts 14 cycles after the
// instruction before it ends.
func TestRunCountsInterruptEntry(t *testing.T) {
	code := b(0x8E, 0x01, 0xFF, // lds #0x01FF
		0x86, 0x40, 0xB7, 0x10, 0x24, // ldaa #RTII; staa TMSK2
		0x0E,       // cli
		0x20, 0xFE) // bra *
	handler := b(0x86, 0x40, 0xB7, 0x10, 0x25, // ldaa #RTIF; staa TFLG2
		0x3B) // rti
	m := deviceMachine(t, code, map[uint16][]byte{0xD100: handler, 0xFFF0: {0xD1, 0x00}}, devices.Options{}, Config{})
	s := m.Initial()
	var tr strings.Builder
	res := m.Run(s, RunOptions{Steps: 3000, Trace: &tr})
	var prevCyc, prevPC, entries int
	for _, l := range strings.Split(tr.String(), "\n") {
		var cyc, thr, pc int
		if _, err := fmt.Sscanf(l, "cyc=%d thr=%d PC=%x", &cyc, &thr, &pc); err != nil {
			continue
		}
		if pc == 0xD100 {
			entries++
			if prevPC != 0xD009 || cyc != prevCyc+3+14 {
				t.Errorf("the handler starts at cyc=%d after PC=%04X at cyc=%d; want the BRA's 3 cycles and the entry's 14 after it", cyc, prevPC, prevCyc)
			}
		}
		prevCyc, prevPC = cyc, pc
	}
	if entries == 0 {
		t.Fatalf("no interrupt taken in %d steps:\n%s", res.Steps, tr.String()[:min(2000, tr.Len())])
	}
	if res.Cycles != threadCycles(s) {
		t.Errorf("run reports %d cycles, the thread ran %d", res.Cycles, threadCycles(s))
	}
}
