package sim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
)

// A thread blocked in __mc_lock has Status Running (it sits at the stub);
// ThreadStatus names the lock, its holder and the call.
func TestThreadStatusLock(t *testing.T) {
	m := harnessMachine(t, lockProg(), nil, Config{})
	s := advance(t, m, m.Initial(), 6)
	for _, tid := range []int{0, 0, 0, 1, 1, 1, 1, 1} { // both take their first lock; thread 1 calls its second
		s = stepThread(t, m, s, tid)
	}
	st := m.ThreadStatus(s, 1)
	if st.Kind != StatusLocked || st.Lock != 0x60 || st.Holder != 0 || st.Stub != "__mc_lock" || st.Call != 0xD049 {
		t.Errorf("thread 1: %+v, want blocked on 0x0060 held by thread 0, called from 0xD049", st)
	}
	if st := m.ThreadStatus(s, 0); st.Kind != StatusRunning || st.Stub != "" {
		t.Errorf("thread 0: %+v, want running", st)
	}
}

func TestThreadStatusOthers(t *testing.T) {
	// __mc_assume(0): the thread can never move on.
	m := harnessMachine(t, cat(insLDS, b(0x86, 0x00), jsr(stubAssume), insBRA), nil, Config{})
	s := advance(t, m, m.Initial(), 3)
	if st := m.ThreadStatus(s, 0); st.Kind != StatusAssume || st.Call != 0xD005 {
		t.Errorf("at __mc_assume(0): %+v", st)
	}
	// An atomic section shuts the other thread out.
	main := cat(jsr(stubAtomicBegin), b(0x4C, 0x4C), jsr(stubAtomicEnd), insBRA)
	m = harnessMachine(t, createProg(main, insBRA), nil, Config{})
	s = advance(t, m, m.Initial(), 6)
	s = stepThread(t, m, s, 0) // jsr
	s = stepThread(t, m, s, 0) // __mc_atomic_begin
	if st := m.ThreadStatus(s, 0); st.Kind != StatusRunning || !st.Atomic {
		t.Errorf("inside the atomic section: %+v", st)
	}
	if st := m.ThreadStatus(s, 1); st.Kind != StatusShutOut || st.Owner != 0 {
		t.Errorf("shut out: %+v", st)
	}
	// WAI and exit.
	m = harnessMachine(t, cat(insLDS, b(0x3E)), nil, Config{})
	s = advance(t, m, m.Initial(), 2)
	if st := m.ThreadStatus(s, 0); st.Kind != StatusWaiting {
		t.Errorf("after WAI: %+v", st)
	}
	m = harnessMachine(t, createProg(jsr(stubExit), insBRA), nil, Config{})
	s = advance(t, m, m.Initial(), 6)
	s = stepThread(t, m, s, 0)
	s = stepThread(t, m, s, 0)
	if st := m.ThreadStatus(s, 0); st.Kind != StatusExited {
		t.Errorf("after __mc_thread_exit: %+v", st)
	}
}

// NextAccess gives the operand each step reads or writes.
func TestNextAccess(t *testing.T) {
	code := cat(insLDS,
		b(0xB6, 0x00, 0x40), // D003 ldaa 0x0040
		b(0xDD, 0x42),       // D006 std *0x42
		b(0xCE, 0x00, 0x50), // D008 ldx #0x0050
		b(0x6C, 0x01),       // D00B inc 1,x
		b(0x1C, 0x02, 0x80), // D00D bset 2,x, #0x80
		b(0x7E, 0xD0, 0x13), // D010 jmp 0xd013
		jsr(stubLock),       // D013
		insBRA)
	m := harnessMachine(t, code, nil, Config{})
	want := []struct {
		ok bool
		a  Access
	}{
		{false, Access{}},
		{true, Access{Addr: 0x40, Size: 1, Read: true}},
		{true, Access{Addr: 0x42, Size: 2, Write: true}},
		{false, Access{}},
		{true, Access{Addr: 0x51, Size: 1, Read: true, Write: true}},
		{true, Access{Addr: 0x52, Size: 1, Read: true, Write: true}},
		{false, Access{}}, // jmp
		{false, Access{}}, // jsr
		{true, Access{Addr: 0x50, Size: 1, Read: true, Write: true}}, // __mc_lock of a free lock
	}
	s := m.Initial()
	for i, w := range want {
		a, ok := m.NextAccess(s, 0)
		if ok != w.ok || ok && a != w.a {
			t.Errorf("step %d at 0x%04X: %+v %v, want %+v %v", i+1, s.Threads[0].PC, a, ok, w.a, w.ok)
		}
		s = only(t, m, s)
	}
}

// Traces name memory operands after data symbols, also those nm calls
// data (b, d), and immediates only when they are such an address loaded
// into an index register: not relative to an absolute constant, not a
// number in D.
func TestDisasmTraceSymbols(t *testing.T) {
	nm := filepath.Join(t.TempDir(), "syms.nm")
	os.WriteFile(nm, []byte("0000d000 T _start\n00000040 b ticks\n00000042 b other\n00000023 A TFLG1\n"), 0o644)
	code := cat(
		b(0x8E, 0x00, 0x33), // lds #0x33
		b(0xB6, 0x00, 0x40), // ldaa 0x0040
		b(0x96, 0x41),       // ldaa *0x41
		b(0xCE, 0x00, 0x40), // ldx #0x0040
		b(0xCC, 0x00, 0x40), // ldd #0x0040
		b(0x20, 0xF0))       // bra _start
	img, err := loader.LoadBytes("test.s19", srec(map[uint16][]byte{0xD000: code, 0xFFFE: {0xD0, 0x00}}), loader.Options{Symbols: nm})
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMachine(img, Config{Entry: img.Entry, Unbatched: true})
	if err != nil {
		t.Fatal(err)
	}
	pc := uint16(0xD000)
	for _, want := range []string{"lds #0x33", "ldaa 0x40 <ticks>", "ldaa *0x41 <ticks+0x1>", "ldx #0x40 <ticks>", "ldd #0x40", "bra 0xd000 <_start>"} {
		hb, text := m.Disasm(m.Initial(), pc)
		if text != want {
			t.Errorf("0x%04X: %q, want %q", pc, text, want)
		}
		pc += uint16(len(hb)+1) / 3
	}
}
