package symbolic

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// The expected verdicts of secret6, crc16_ok, crc16_bad and race_input
// (testdata/models/symbolic), computed in plain Go over every input, not
// by an engine: each test checks the manifest's entry against that, then
// runs HMC on the image and checks that the counterexample's inputs are
// the ones found here.

// symbolicDir is testdata/models/symbolic.
var symbolicDir = filepath.Join("..", "testdata", "models", "symbolic")

// expectEntry returns the manifest's entry for a model of symbolicDir.
func expectEntry(t *testing.T, name string) manifestEntry {
	t.Helper()
	for _, c := range readManifest(t, symbolicDir) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no model %s in %s/manifest.json", name, symbolicDir)
	return manifestEntry{}
}

// hmcChoices runs HMC (glh on the CLI's estimate, and dfs) on a model of
// symbolicDir, checks the verdict against the manifest and that a trace
// replays, and returns, for each run, the choices its trace makes that
// are not 0 (the values of __mc_nondet, the indices of --input reads,
// which are the values read when every byte may be: the inputs these
// tests expect are never 0).
func hmcChoices(t *testing.T, c manifestEntry) [][]uint64 {
	t.Helper()
	var out [][]uint64
	for _, p := range []Priority{GLH, DFS} {
		m := machineFor(t, filepath.Join(symbolicDir, c.File), c.Flags)
		cfg := Config{Priority: p, Timeout: time.Minute, Ignore: ignored(c.Flags)}
		if p == GLH {
			est, err := heuristics.NewStateEstimate(m, heuristics.StateConfig{Kind: heuristics.EFSM, K: 1})
			if err != nil {
				t.Fatal(err)
			}
			cfg.Estimate = func(s *sim.State) (int, bool) { return est.Estimate(s), true }
		}
		e, err := NewEngine(m, Options{Reduce: true})
		if err != nil {
			t.Fatal(err)
		}
		res := e.Check(context.Background(), []*State{e.Initial()}, cfg)
		expectResult(t, m, c, res)
		var ch []uint64
		for _, l := range res.Trace {
			if l.Choice != 0 {
				ch = append(ch, l.Choice)
			}
		}
		out = append(out, ch)
	}
	return out
}

// crc16 is CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF,
// no reflection, no final xor), as crc16_ok.s and crc16_bad.s compute it.
func crc16(p ...byte) uint16 {
	c := uint16(0xFFFF)
	for _, b := range p {
		c ^= uint16(b) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
	}
	return c
}

// TestExpectedCRC16: over all 65,536 two-byte messages, the CRC of the
// message with its CRC appended is 0 (crc16_ok: verified), and the CRC of
// the message is 0 for FF FF alone (crc16_bad: a violation, whose trace
// draws FF FF).
func TestExpectedCRC16(t *testing.T) {
	if crc16([]byte("123456789")...) != 0x29B1 {
		t.Fatal("crc16 is not CRC-16/CCITT-FALSE: its check value is not 0x29B1")
	}
	residue, zero := 0, [][2]byte{}
	for v := range 1 << 16 {
		a, b := byte(v>>8), byte(v)
		c := crc16(a, b)
		if crc16(a, b, byte(c>>8), byte(c)) != 0 {
			residue++
		}
		if c == 0 {
			zero = append(zero, [2]byte{a, b})
		}
	}
	if ok := expectEntry(t, "crc16_ok"); (residue == 0) != (ok.Expect == "verified") {
		t.Fatalf("crc16_ok: %d messages fail the check; the manifest says %s", residue, ok.Expect)
	}
	bad := expectEntry(t, "crc16_bad")
	if (len(zero) > 0) != (bad.Expect == "violation") || len(zero) != 1 || zero[0] != [2]byte{0xFF, 0xFF} {
		t.Fatalf("crc16_bad: the messages whose CRC is 0 are %x; the manifest says %s", zero, bad.Expect)
	}
	hmcChoices(t, expectEntry(t, "crc16_ok"))
	for _, ch := range hmcChoices(t, bad) {
		if len(ch) != 2 || ch[0] != 0xFF || ch[1] != 0xFF {
			t.Errorf("crc16_bad: the trace draws %x, want ff ff", ch)
		}
	}
}

// TestExpectedSecret6: each of the six comparisons of code_ok holds for
// one key value alone (the ROM's code byte xor 0x5A), and they are
// independent, so one sequence of the 2^48 opens the door (a violation);
// the trace reads it from PORTC.
func TestExpectedSecret6(t *testing.T) {
	c := expectEntry(t, "secret6")
	img, err := loader.Load(filepath.Join(symbolicDir, c.File), loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	code, ok := img.Lookup("code")
	if !ok {
		t.Fatal("no symbol code")
	}
	var keys []uint64
	for i := range 6 {
		secret, _ := img.Byte(code.Addr + uint16(i))
		var match []uint64
		for k := range 256 {
			if byte(k)^0x5A == secret {
				match = append(match, uint64(k))
			}
		}
		if len(match) != 1 {
			t.Fatalf("key %d: %d values match", i, len(match))
		}
		keys = append(keys, match[0])
	}
	if c.Expect != "violation" {
		t.Fatalf("one sequence opens the door; the manifest says %s", c.Expect)
	}
	for _, ch := range hmcChoices(t, c) {
		if len(ch) != 6 || ch[0] != keys[0] || ch[1] != keys[1] || ch[2] != keys[2] ||
			ch[3] != keys[3] || ch[4] != keys[4] || ch[5] != keys[5] {
			t.Errorf("the trace reads %x, want %x", ch, keys)
		}
	}
}

// TestExpectedRaceInput enumerates, for every pair of readings, every
// interleaving of the two sensor tasks' accesses to shared memory (each
// an atomic step: the instructions between them touch registers only)
// and the supervisor's check after both: it fails exactly where both
// readings are above the limit, for some interleaving (a violation); the
// trace's readings are such a pair.
func TestExpectedRaceInput(t *testing.T) {
	const limit = 0xC0
	type shared struct{ alarms, trip0, trip1 byte }
	// steps returns task k's accesses for reading v: set its trip flag,
	// load alarms into its register, store the register plus one.
	steps := func(k int, v byte) []func(s *shared, reg *byte) {
		if v <= limit {
			return nil
		}
		return []func(s *shared, reg *byte){
			func(s *shared, _ *byte) {
				if k == 0 {
					s.trip0 = 1
				} else {
					s.trip1 = 1
				}
			},
			func(s *shared, reg *byte) { *reg = s.alarms },
			func(s *shared, reg *byte) { s.alarms = *reg + 1 },
		}
	}
	// fails reports whether some interleaving of a and b ends with the
	// counter wrong.
	var fails func(a, b []func(*shared, *byte), s shared, ra, rb byte) bool
	fails = func(a, b []func(*shared, *byte), s shared, ra, rb byte) bool {
		if len(a) == 0 && len(b) == 0 {
			return s.alarms != s.trip0+s.trip1
		}
		if len(a) > 0 {
			s2, r := s, ra
			a[0](&s2, &r)
			if fails(a[1:], b, s2, r, rb) {
				return true
			}
		}
		if len(b) > 0 {
			s2, r := s, rb
			b[0](&s2, &r)
			if fails(a, b[1:], s2, ra, r) {
				return true
			}
		}
		return false
	}
	failing := 0
	for v := range 1 << 16 {
		r0, r1 := byte(v>>8), byte(v)
		f := fails(steps(0, r0), steps(1, r1), shared{}, 0, 0)
		if f != (r0 > limit && r1 > limit) {
			t.Fatalf("readings %02x %02x: fails %v", r0, r1, f)
		}
		if f {
			failing++
		}
	}
	c := expectEntry(t, "race_input")
	if (failing > 0) != (c.Expect == "violation") || failing != 63*63 {
		t.Fatalf("%d pairs of readings fail; the manifest says %s", failing, c.Expect)
	}
	for _, ch := range hmcChoices(t, c) {
		if len(ch) != 2 || ch[0] <= limit || ch[1] <= limit {
			t.Errorf("the trace reads %x, want two readings above %#x", ch, limit)
		}
	}
}
