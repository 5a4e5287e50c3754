package sim

import (
	"fmt"
	"sync"
	"testing"
)

// Condition code bits as the M68HC11 Reference Manual lays out the CCR:
// S X H I N Z V C, bit 7 down to bit 0. The tests spell expected flags with
// these, independently of the simulator's own names.
const (
	cC uint8 = 0x01
	cV uint8 = 0x02
	cZ uint8 = 0x04
	cN uint8 = 0x08
	cI uint8 = 0x10
	cH uint8 = 0x20
	cX uint8 = 0x40
	cS uint8 = 0x80
)

// org is where testImage loads code (and where thread 0 starts).
const org = 0xD000

// mb is one memory byte: an address and its value.
type mb struct {
	a uint16
	v uint8
}

// poke writes a byte of writable memory in s, copying the page first when
// s does not own it, as a store would.
func poke(t testing.TB, m *Machine, s *State, a uint16, v uint8) {
	t.Helper()
	i := m.pageOf[a/PageSize]
	if i < 0 || !m.Writable(a) {
		t.Fatalf("poke: 0x%04X is not writable memory", a)
	}
	s.page(int(i)).Data[a%PageSize] = v
}

// peek reads a byte of s without side effects.
func peek(m *Machine, s *State, a uint16) uint8 { return m.ReadMem(s, a) }

// ramOf returns every writable byte of s, by address.
func ramOf(m *Machine, s *State) map[uint16]uint8 {
	r := map[uint16]uint8{}
	for a := 0; a < 65536; a++ {
		if m.Writable(uint16(a)) {
			r[uint16(a)] = m.ReadMem(s, uint16(a))
		}
	}
	return r
}

// fmtCPU prints a register set in hex.
func fmtCPU(c CPU) string {
	return fmt.Sprintf("A=%02X B=%02X X=%04X Y=%04X SP=%04X PC=%04X CCR=%02X(%s)",
		c.A, c.B, c.X, c.Y, c.SP, c.PC, c.CCR, ccrString(c.CCR))
}

// ccrString spells the set CCR bits, SXHINZVC, with '-' for clear ones.
func ccrString(c uint8) string {
	const names = "SXHINZVC"
	b := []byte("--------")
	for i := 0; i < 8; i++ {
		if c&(0x80>>i) != 0 {
			b[i] = names[i]
		}
	}
	return string(b)
}

// machineCache shares machines between tests that load the same bytes with
// the same configuration (machines are immutable once built).
var machineCache sync.Map

type machineKey struct {
	code  string
	extra string
	cfg   string
}

// cachedMachine is testMachine with a cache; only plain configurations
// (no hooks) are cached.
func cachedMachine(t testing.TB, code []byte, extra map[uint16][]byte, cfg Config) *Machine {
	t.Helper()
	k := machineKey{code: string(code), extra: fmt.Sprint(extra), cfg: fmt.Sprintf("%+v", cfg)}
	if m, ok := machineCache.Load(k); ok {
		return m.(*Machine)
	}
	m := testMachine(t, code, extra, nil, cfg)
	machineCache.Store(k, m)
	return m
}

// Harness stub addresses used by the tests: each holds an RTS (0x39).
const (
	stubNondet      = 0xD100
	stubAssume      = 0xD104
	stubAssert      = 0xD108
	stubError       = 0xD10C
	stubCreate      = 0xD110
	stubExit        = 0xD114
	stubYield       = 0xD118
	stubLock        = 0xD11C
	stubUnlock      = 0xD120
	stubAtomicBegin = 0xD124
	stubAtomicEnd   = 0xD128
	stubCSEnter     = 0xD12C
	stubCSExit      = 0xD130
)

var stubSyms = map[string]uint16{
	"__mc_nondet":        stubNondet,
	"__mc_assume":        stubAssume,
	"__mc_assert":        stubAssert,
	"__mc_error":         stubError,
	"__mc_thread_create": stubCreate,
	"__mc_thread_exit":   stubExit,
	"__mc_yield":         stubYield,
	"__mc_lock":          stubLock,
	"__mc_unlock":        stubUnlock,
	"__mc_atomic_begin":  stubAtomicBegin,
	"__mc_atomic_end":    stubAtomicEnd,
	"__mc_cs_enter":      stubCSEnter,
	"__mc_cs_exit":       stubCSExit,
}

// stubBlock fills the stub area 0xD100-0xD13F with one byte value.
func stubBlock(b byte) []byte {
	s := make([]byte, 0x40)
	for i := range s {
		s[i] = b
	}
	return s
}

// harnessMachine loads code at 0xD000 with every harness stub defined in
// 0xD100-0xD13F (each stub an RTS), plus extra chunks.
func harnessMachine(t testing.TB, code []byte, extra map[uint16][]byte, cfg Config) *Machine {
	t.Helper()
	if len(code) > 0x100 {
		t.Fatalf("harness test code overlaps the stubs")
	}
	ex := map[uint16][]byte{0xD100: stubBlock(0x39)}
	for a, d := range extra {
		ex[a] = d
	}
	return testMachine(t, code, ex, stubSyms, cfg)
}

// at places byte strings at offsets of a code block starting at 0xD000:
// at(n, 0x00, a, 0x20, b) makes an n-byte block of NOPs with a at 0xD000 and
// b at 0xD020.
func at(n int, parts ...any) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 0x01 // NOP
	}
	for i := 0; i < len(parts); i += 2 {
		off := parts[i].(int)
		copy(b[off:], parts[i+1].([]byte))
	}
	return b
}

// cat concatenates byte strings.
func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// successors returns the successors of s and the deadlock violation.
func successors(m *Machine, s *State) ([]Successor, *Violation) {
	return m.Successors(s, nil, nil)
}

// only expects s to have exactly one successor, without a violation, and
// returns its state.
func only(t testing.TB, m *Machine, s *State) *State {
	t.Helper()
	out, dl := successors(m, s)
	if dl != nil {
		t.Fatalf("unexpected deadlock: %v", dl)
	}
	if len(out) != 1 {
		t.Fatalf("want 1 successor, got %d: %s", len(out), describe(out))
	}
	if out[0].Violation != nil {
		t.Fatalf("unexpected violation: %v", out[0].Violation)
	}
	return out[0].State
}

// advance takes the only successor n times.
func advance(t testing.TB, m *Machine, s *State, n int) *State {
	t.Helper()
	for i := 0; i < n; i++ {
		s = only(t, m, s)
	}
	return s
}

// pick returns the successor with the given label fields.
func pick(t testing.TB, out []Successor, thread, irq int) Successor {
	t.Helper()
	for _, o := range out {
		if o.Label.Thread == thread && o.Label.IRQ == irq {
			return o
		}
	}
	t.Fatalf("no successor of thread %d irq %d among %s", thread, irq, describe(out))
	return Successor{}
}

func describe(out []Successor) string {
	s := ""
	for _, o := range out {
		s += fmt.Sprintf("\n  %+v", o.Label)
		if o.Violation != nil {
			s += " " + o.Violation.Error()
		}
		for i := range o.State.Threads {
			s += fmt.Sprintf("\n    t%d %s status=%d", i, fmtCPU(o.State.Threads[i].CPU), o.State.Threads[i].Status)
		}
	}
	return s
}
