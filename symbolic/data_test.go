package symbolic

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/sim"
)

// Models whose inputs the explicit engine cannot enumerate: four
// nondeterministic bytes each (testdata/models/symbolic: secret4.s,
// crc8.s, crc8_table.s). They sit outside testdata/*/*.elf, the corpus
// the explicit engine's tests glob, where each would run to the tests'
// state limits.

func TestSecret4(t *testing.T) {
	for _, p := range []Priority{GLH, DFS} {
		m := machineFor(t, filepath.Join("..", "testdata", "models", "symbolic", "secret4.elf"), []string{"--preempt", "every"})
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

// TestCRC8: the bit loop (forks merged at their join) and the table
// (reads through a symbolic index) are both verified.
func TestCRC8(t *testing.T) {
	for _, c := range []struct {
		file string
		p    Priority
	}{{"crc8.elf", GLH}, {"crc8.elf", DFS}, {"crc8_table.elf", GLH}} {
		p := c.p
		m := machineFor(t, filepath.Join("..", "testdata", "models", "symbolic", c.file), []string{"--preempt", "every"})
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

// TestTableLookup: a read through a symbolic index register is an array
// read over the table; the solver finds the one index whose entry leads
// to __mc_error, and the trace replays.
func TestTableLookup(t *testing.T) {
	code := make([]byte, 0x300)
	for i := range code {
		code[i] = 0x01 // nop
	}
	copy(code, []byte{
		0x8e, 0x01, 0xf0, // lds #$1f0
		0xcc, 0x00, 0xff, // ldd #255
		0xbd, 0xd1, 0x00, // jsr __mc_nondet
		0xce, 0xd2, 0x00, // ldx #table
		0x3a,       // abx
		0xa6, 0x00, // ldaa 0,x
		0x81, 0x5a, // cmpa #$5a
		0x26, 0x03, // bne done
		0xbd, 0xd1, 0x01, // jsr __mc_error
		0x20, 0xfe, // done: bra done
	})
	code[0x100], code[0x101] = 0x39, 0x39 // the stubs: rts
	for i := 0; i < 256; i++ {
		code[0x200+i] = byte(i*7 + 3) // 0x5a only at 0x31
	}
	m := codeMachine(t, code, sim.Config{}, map[string]uint16{"__mc_nondet": 0xd100, "__mc_error": 0xd101})
	for _, branch := range []int{0, 16} {
		e, err := NewEngine(m, Options{MaxBranch: branch})
		if err != nil {
			t.Fatal(err)
		}
		res := e.Check(context.Background(), []*State{e.Initial()}, Config{Timeout: time.Minute})
		if res.Verdict != Violated || res.Violation.Kind != sim.KindError {
			t.Fatalf("%v %s %v; %v", res.Verdict, res.Limit, res.Violation, res.Stats)
		}
		replays(t, m, m.Initial(), res.Trace, sim.KindError)
		found := false
		for _, l := range res.Trace {
			found = found || l.Choice == 0x31
		}
		if !found || res.Stats.Forks > 1 {
			t.Errorf("trace %v, %d forks: want the index 0x31 and no split of X", res.Trace, res.Stats.Forks)
		}
	}
}

// TestInput: an --input read is a symbol (or, with few values under
// MaxBranch, a successor per value); the trace's choice is the index of
// the failing value in the list.
func TestInput(t *testing.T) {
	code := []byte{
		0x8e, 0x01, 0xf0, // lds #$1f0
		0xb6, 0x10, 0x03, // ldaa $1003
		0x81, 0x42, // cmpa #$42
		0x26, 0x03, // bne ok
		0xbd, 0xd0, 0x20, // jsr __mc_error
		0x20, 0xfe, // ok: bra ok
	}
	code = append(code, make([]byte, 0x20-len(code))...)
	code = append(code, 0x39) // __mc_error: rts
	for _, c := range []struct {
		vals   []uint8
		branch int
		choice uint64
	}{
		{nil, 0, 0x42}, {nil, 16, 0x42}, {[]uint8{1, 2, 0x42}, 0, 2}, {[]uint8{1, 2, 0x42}, 16, 2},
	} {
		m := codeMachine(t, code, sim.Config{Inputs: map[uint16][]uint8{0x1003: c.vals}}, map[string]uint16{"__mc_error": 0xd020})
		e, err := NewEngine(m, Options{MaxBranch: c.branch})
		if err != nil {
			t.Fatal(err)
		}
		res := e.Check(context.Background(), []*State{e.Initial()}, Config{Timeout: time.Minute})
		if res.Verdict != Violated || res.Violation.Kind != sim.KindError {
			t.Fatalf("%v: %v %s %v", c.vals, res.Verdict, res.Limit, res.Violation)
		}
		replays(t, m, m.Initial(), res.Trace, sim.KindError)
		if res.Trace[1].Choice != c.choice {
			t.Errorf("values %v, max branch %d: the read's choice is %d, want %d", c.vals, c.branch, res.Trace[1].Choice, c.choice)
		}
	}
}
