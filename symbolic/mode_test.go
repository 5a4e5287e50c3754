package symbolic

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/sim"
)

// tableI are the four configurations of the paper's Table I.
var tableI = []struct {
	name string
	cfg  Config
}{
	{"bmc", Config{Mode: BMC}},
	{"st", Config{Mode: ST}},
	{"hmc+dfs", Config{Mode: HMC, Priority: DFS}},
	{"hmc+glh", Config{Mode: HMC, Priority: GLH}},
}

// checkModel runs one configuration on a model of testdata/models/symbolic.
func checkModel(t *testing.T, model string, cfg Config) (*sim.Machine, Result) {
	t.Helper()
	m := machineFor(t, filepath.Join("..", "testdata", "models", "symbolic", model+".elf"), []string{"--preempt", "every"})
	e, err := NewEngine(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := e.Check(context.Background(), []*State{e.Initial()}, cfg)
	t.Logf("%v (%s) in %v: depth %d, trace %d, peak memory %d MiB; %v", res.Verdict, res.Limit,
		res.Stats.Elapsed.Round(time.Millisecond), res.Stats.MaxDepth, len(res.Trace), res.Stats.PeakMemory>>20, res.Stats)
	return m, res
}

// Each configuration finds secret4's violation with a trace that replays,
// and BMC's, the first depth at which the violation is satisfiable, is
// the shortest.
func TestModesSecret4(t *testing.T) {
	shortest := 0
	for _, c := range tableI {
		cfg := c.cfg
		cfg.Timeout = time.Minute
		m, res := checkModel(t, "secret4", cfg)
		if res.Verdict != Violated || res.Violation.Kind != sim.KindAssert {
			t.Fatalf("%s: %v %s %v", c.name, res.Verdict, res.Limit, res.Violation)
		}
		replays(t, m, m.Initial(), res.Trace, sim.KindAssert)
		if c.cfg.Mode == BMC {
			shortest = len(res.Trace)
			if res.Stats.Images != 0 || res.Stats.States != 0 || res.Stats.Unrolled == 0 {
				t.Errorf("bmc stored states or unrolled none: %v", res.Stats)
			}
		} else if len(res.Trace) < shortest {
			t.Errorf("%s: a witness of %d transitions, shorter than BMC's %d", c.name, len(res.Trace), shortest)
		}
		if c.cfg.Mode == ST && (res.Stats.PRChecks != 0 || res.Stats.Unrolled != 0) {
			t.Errorf("st ran bounded model checks: %v", res.Stats)
		}
	}
}

// The traversals prove crc8; BMC, whose unrolling keeps every path of a
// depth in one formula, does not within a second, and reports the depth
// it reached without a false violation. crc8_table, whose CRC the terms'
// simplification reduces to a constant, every configuration proves.
func TestModesCRC8(t *testing.T) {
	for _, c := range tableI {
		cfg := c.cfg
		cfg.Timeout = time.Minute
		if c.cfg.Mode == BMC {
			cfg.Timeout = time.Second
		}
		_, res := checkModel(t, "crc8", cfg)
		switch {
		case c.cfg.Mode != BMC && res.Verdict != Verified:
			t.Errorf("%s on crc8: %v %s %v", c.name, res.Verdict, res.Limit, res.Violation)
		case c.cfg.Mode == BMC && (res.Verdict != Incomplete || res.Stats.MaxDepth < 100):
			t.Errorf("bmc on crc8 in a second: %v %s %v at depth %d", res.Verdict, res.Limit, res.Violation, res.Stats.MaxDepth)
		}
		cfg.Timeout = time.Minute
		if _, res := checkModel(t, "crc8_table", cfg); res.Verdict != Verified {
			t.Errorf("%s on crc8_table: %v %s %v", c.name, res.Verdict, res.Limit, res.Violation)
		}
	}
}

// BMC's completeness check: a loop that counts a symbolic byte down to 0
// ends on every value, but its lazily unrolled continuation never ends
// syntactically; the solver finds no path 1024 transitions long (four
// instructions an iteration, 256 values) and BMC proves the model. A
// violation behind the loop is found at its shortest depth.
func TestBMCCompleteness(t *testing.T) {
	code := []byte{
		0x8e, 0x01, 0xf0, // lds #$1f0
		0xcc, 0x00, 0xff, // ldd #255
		0xbd, 0xd1, 0x00, // jsr __mc_nondet: B = n
		0x5d,       // loop: tstb
		0x27, 0x03, // beq done
		0x5a,       // decb
		0x20, 0xfa, // bra loop
		0x86, 0x01, // done: ldaa #1
		0xbd, 0xd1, 0x01, // jsr __mc_assert
		0xbd, 0xd1, 0x02, // jsr __mc_thread_exit
	}
	code = append(code, make([]byte, 0x100-len(code))...)
	code = append(code, 0x39, 0x39, 0x39) // the stubs: rts
	syms := map[string]uint16{"__mc_nondet": 0xd100, "__mc_assert": 0xd101, "__mc_thread_exit": 0xd102}
	m := codeMachine(t, code, sim.Config{}, syms)
	e, err := NewEngine(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := e.Check(context.Background(), []*State{e.Initial()}, Config{Mode: BMC, Timeout: time.Minute})
	if res.Verdict != Verified || res.Stats.MaxDepth < 1024 {
		t.Fatalf("%v %s %v at depth %d; %v", res.Verdict, res.Limit, res.Violation, res.Stats.MaxDepth, res.Stats)
	}
	// ldaa #0 instead: the assertion fails on every value, first for n = 0.
	code[0x10] = 0x00
	m = codeMachine(t, code, sim.Config{}, syms)
	if e, err = NewEngine(m, Options{}); err != nil {
		t.Fatal(err)
	}
	res = e.Check(context.Background(), []*State{e.Initial()}, Config{Mode: BMC, Timeout: time.Minute})
	if res.Verdict != Violated || res.Violation.Kind != sim.KindAssert {
		t.Fatalf("%v %s %v", res.Verdict, res.Limit, res.Violation)
	}
	replays(t, m, m.Initial(), res.Trace, sim.KindAssert)
	// lds, ldd, jsr, __mc_nondet, tstb, beq, ldaa, jsr, __mc_assert.
	if n := len(res.Trace); n != 9 || res.Trace[3].Choice != 0 {
		t.Errorf("trace %v: want the 9 transitions with n = 0", res.Trace)
	}
}
