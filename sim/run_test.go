package sim

import (
	"strings"
	"testing"
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
