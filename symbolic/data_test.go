package symbolic

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/sim"
)

// Models whose inputs the explicit engine cannot enumerate: four
// nondeterministic bytes each (testdata/models/secret4.s and crc8.s).

func TestSecret4(t *testing.T) {
	for _, p := range []Priority{GLH, DFS} {
		m := machineFor(t, filepath.Join("..", "testdata", "models", "secret4.elf"), []string{"--preempt", "every"})
		e, err := NewEngine(m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res := e.Check(context.Background(), []*State{e.Initial()}, Config{Priority: p, Timeout: time.Minute})
		if res.Verdict != Violated || res.Violation.Kind != sim.KindAssert {
			t.Fatalf("priority %d: %v %s %v; %v", p, res.Verdict, res.Limit, res.Violation, res.Stats)
		}
		replays(t, m, m.Initial(), res.Trace, sim.KindAssert)
		// The four choices are the code.
		var code []uint64
		for _, l := range res.Trace {
			if l.Choice != 0 {
				code = append(code, l.Choice)
			}
		}
		if len(code) != 4 || code[0] != 0xc3 || code[1] != 0x5a || code[2] != 0xe7 || code[3] != 0x96 {
			t.Errorf("the trace's choices are %x, want c3 5a e7 96", code)
		}
		t.Logf("priority %d: %v in %v; %v", p, res.Verdict, time.Since(start).Round(time.Millisecond), res.Stats)
	}
}

func TestCRC8(t *testing.T) {
	for _, p := range []Priority{GLH, DFS} {
		m := machineFor(t, filepath.Join("..", "testdata", "models", "crc8.elf"), []string{"--preempt", "every"})
		e, err := NewEngine(m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res := e.Check(context.Background(), []*State{e.Initial()}, Config{Priority: p, Timeout: time.Minute})
		if res.Verdict != Verified {
			t.Fatalf("priority %d: %v %s %v; %v", p, res.Verdict, res.Limit, res.Violation, res.Stats)
		}
		t.Logf("priority %d: %v in %v; %v", p, res.Verdict, time.Since(start).Round(time.Millisecond), res.Stats)
	}
}
