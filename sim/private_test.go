package sim

import (
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/loader"
)

// privateMachine is a harness machine under --preempt every with stack
// privacy checked, and a state of two threads: thread 0 at 0xD000 with its
// stack top at 0x01FF, thread 1 at 0xD010 with its top at 0x017F, each SP
// at its top.
func privateMachine(t *testing.T, code []byte) (*Machine, *State) {
	t.Helper()
	m := harnessMachine(t, code, nil, Config{Preempt: PreemptEvery})
	if !m.CheckPrivate() {
		t.Fatal("CheckPrivate: privacy off on a fresh machine")
	}
	s := m.Initial()
	s.Threads[0].SP, s.Threads[0].InitSP = 0x01FF, 0x01FF
	s.Threads = append(s.Threads, Thread{CPU: CPU{PC: 0xD010, SP: 0x017F}, InitSP: 0x017F})
	return m, s
}

// TestStackRegions: a thread's region runs from just above the nearest
// lower stack top of another live thread (or from the boundary below its
// top: the start of RAM, or a data symbol) to its top; an exited thread
// has none and bounds no other.
func TestStackRegions(t *testing.T) {
	m, s := privateMachine(t, at(0x20))
	want := func(j int, lo, hi uint16, ok bool) {
		t.Helper()
		r, got := m.regionOf(s, j)
		if got != ok || ok && (r.lo != lo || r.hi != hi) {
			t.Errorf("thread %d: region 0x%04X-0x%04X (%v), want 0x%04X-0x%04X (%v)", j, r.lo, r.hi, got, lo, hi, ok)
		}
	}
	want(0, 0x0180, 0x01FF, true)
	want(1, 0x0000, 0x017F, true) // the start of RAM
	s.Threads[1].Status = Exited
	want(0, 0x0000, 0x01FF, true)
	want(1, 0, 0, false)
	s.Threads[0].InitSP = 0 // thread 0 before its first LDS
	want(0, 0, 0, false)

	// A data symbol bounds the region below.
	img := testImage(t, at(0x20), nil, nil)
	img.Symbols = append(img.Symbols, loader.Symbol{Name: "stack1", Addr: 0x0140, Kind: loader.SymObject},
		loader.Symbol{Name: "main", Addr: 0x0150, Kind: loader.SymFunc}) // not data: no bound
	m2, err := NewMachine(img, Config{Preempt: PreemptEvery, Entry: img.Entry})
	if err != nil {
		t.Fatal(err)
	}
	s2 := m2.Initial()
	s2.Threads[0].InitSP = 0x017F
	if r, ok := m2.regionOf(s2, 0); !ok || r != (region{0x0140, 0x017F}) {
		t.Errorf("below a symbol: region %04X-%04X (%v), want 0140-017F", r.lo, r.hi, ok)
	}
}

// TestIntrusion: a thread's access of a byte in another live thread's
// region — a store, a load through X, a push whose SP lies there — is
// seen. Where a transition followed alone relied on a byte the owner's
// region loses (or under StrictPrivacy) it is recorded, with the thread,
// the instruction, the byte and the owner, and withdraws privacy, and
// RestartPrivacy readies a search again with the region shrunk; where
// nothing relied on it the region shrinks to start above the byte and
// privacy holds. Accesses of its own region or of memory outside every
// region are not intrusions.
func TestIntrusion(t *testing.T) {
	for _, mode := range []string{"strict", "relied", "learned"} {
		t.Run(mode, func(t *testing.T) { testIntrusion(t, mode) })
	}
}

func testIntrusion(t *testing.T, mode string) {
	cases := []struct {
		name  string
		code  []byte // thread 1's instruction, at 0xD010
		x, sp uint16 // thread 1's X and SP (0: as set up)
		addr  uint16 // the byte of thread 0's region, 0: no intrusion
	}{
		{"store extended", []byte{0xB7, 0x01, 0xF0}, 0, 0, 0x01F0},            // staa $01F0
		{"store 16-bit, second byte", []byte{0xFD, 0x01, 0x7F}, 0, 0, 0x0180}, // std $017F: $0180 is thread 0's
		{"load through X", []byte{0xA6, 0x02}, 0x01FD, 0, 0x01FF},             // ldaa 2,x
		{"push into it", []byte{0x36}, 0, 0x0190, 0x0190},                     // psha with SP in thread 0's region
		{"own stack", []byte{0xA7, 0x00}, 0x0170, 0, 0},                       // staa 0,x in its own region
		{"own push", []byte{0x36}, 0, 0, 0},                                   // psha
		{"outside every region", []byte{0xB7, 0x10, 0x04}, 0, 0, 0},           // staa $1004: a register, in no region
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, s := privateMachine(t, at(0x20, 0x10, c.code))
			switch mode {
			case "strict":
				m.StrictPrivacy()
			case "relied":
				m.rely(0x0180, 0x01FF) // the bottom of thread 0's region, whose top is 0x01FF
			}
			if c.x != 0 {
				s.Threads[1].X = c.x
			}
			if c.sp != 0 {
				s.Threads[1].SP = c.sp
			}
			out, _ := successors(m, s)
			pick(t, out, 1, -1)
			in := m.Intrusion()
			if mode == "learned" && c.addr != 0 {
				if in != nil || !m.CheckPrivate() || m.Shrinks() == 0 {
					t.Fatalf("intrusion %v, %d shrinks: want the region shrunk, privacy kept", in, m.Shrinks())
				}
				if r, ok := m.regionOf(s, 0); ok && r.lo <= c.addr {
					t.Fatalf("thread 0's region %04X-%04X still holds 0x%04X", r.lo, r.hi, c.addr)
				}
				return
			}
			switch {
			case c.addr == 0 && in != nil:
				t.Fatalf("intrusion %v", in)
			case c.addr == 0:
				if !m.CheckPrivate() {
					t.Fatal("privacy withdrawn without an intrusion")
				}
			case in == nil:
				t.Fatal("no intrusion recorded")
			case in.Thread != 1 || in.Owner != 0 || in.Addr != c.addr || in.PC != 0xD010 || in.Made != -1:
				t.Fatalf("intrusion %+v, want thread 1 at D010 on 0x%04X of thread 0", *in, c.addr)
			case m.CheckPrivate():
				t.Fatal("privacy not withdrawn")
			case !m.RestartPrivacy() || m.Intrusion() != nil || !m.CheckPrivate():
				t.Fatal("no search again with privacy")
			}
			if r, ok := m.regionOf(s, 0); c.addr != 0 && ok && r.lo <= c.addr {
				t.Fatalf("after the restart thread 0's region %04X-%04X still holds 0x%04X", r.lo, r.hi, c.addr)
			}
		})
	}
}

// TestIntrusionCreate: giving a thread a stack top inside another live
// thread's region is an intrusion (the regions would overlap), naming
// the new thread; a top outside every region is not.
func TestIntrusionCreate(t *testing.T) {
	for _, c := range []struct {
		name     string
		setX     []byte // how thread 0 sets X, the new thread's top
		intrudes bool
	}{
		{"top in the creator's live stack", []byte{0x30, 0x01, 0x01}, true}, // tsx: SP+1
		{"top below it", []byte{0xCE, 0x01, 0x00}, false},                   // ldx #0x0100: a bound too
	} {
		// setX; ldd #0xD020; jsr __mc_thread_create
		code := at(0x30, 0x00, cat(c.setX, []byte{0xCC, 0xD0, 0x20, 0xBD, byte(uint16(stubCreate) >> 8), byte(uint16(stubCreate) & 0xFF)}))
		m, s := privateMachine(t, code)
		m.StrictPrivacy()
		s.Threads = s.Threads[:1]
		s.Threads[0].SP = 0x01E0
		for k := 0; k < 8 && len(s.Threads) == 1; k++ {
			out, _ := successors(m, s)
			s = pick(t, out, 0, -1).State
		}
		if len(s.Threads) != 2 {
			t.Fatalf("%s: %d threads after __mc_thread_create", c.name, len(s.Threads))
		}
		in := m.Intrusion()
		if c.intrudes != (in != nil) {
			t.Fatalf("%s: intrusion %v, want %v", c.name, in, c.intrudes)
		}
		if in != nil && (in.Made != 1 || in.Owner != 0 || in.Thread != 0 || in.Addr != 0x01E1) {
			t.Fatalf("%s: %+v", c.name, *in)
		}
	}
}

// TestPrivateCandidates: AmpleCandidates offers a thread's stack-private
// instruction alone, and not one that touches shared memory or another
// thread's stack.
func TestPrivateCandidates(t *testing.T) {
	for _, c := range []struct {
		name    string
		code    []byte
		x       uint16
		private bool
	}{
		{"push", []byte{0x36}, 0, true},
		{"store in own frame", []byte{0xA7, 0x00}, 0x01F0, true},
		{"16-bit load across its top", []byte{0xEC, 0x00}, 0x01FF, false}, // ldd 0,x: 0x0200 is no stack
		{"store to a global", []byte{0x97, 0x10}, 0, false},               // staa $10: thread 1's region
		{"load from thread 1's stack", []byte{0xA6, 0x00}, 0x0170, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Thread 0 runs code; thread 1 sits on a global store.
			m, s := privateMachine(t, at(0x20, 0x00, c.code, 0x10, []byte{0x97, 0x10}))
			s.Threads[0].X = c.x
			s.Threads[0].CCR |= 0x10 // I set: no interrupt
			e := m.NewExpander()
			var st Stats
			took := e.AmpleCandidates(s, &st, func(next *State, l Label) bool { return l.Thread == 0 })
			if took != c.private {
				t.Fatalf("offered alone: %v, want %v", took, c.private)
			}
			if took && st.Private != 1 {
				t.Fatalf("Stats.Private %d", st.Private)
			}
		})
	}
}

// TestSharedHash: the hash that assigns states to workers ignores the
// bytes inside stack regions and sees every other byte.
func TestSharedHash(t *testing.T) {
	m, s := privateMachine(t, at(0x20))
	h := m.SharedHash(s)
	a := s.Clone()
	poke(t, m, a, 0x01F3, 0x55) // thread 0's stack
	poke(t, m, a, 0x0123, 0x66) // thread 1's stack
	if m.SharedHash(a) != h {
		t.Error("a write inside stack regions changes the hash")
	}
	b := s.Clone()
	poke(t, m, b, 0x1004, 0x77) // a register: in no region
	if m.SharedHash(b) == h {
		t.Error("a write outside every region leaves the hash")
	}
	// Without thread 1, thread 0's region reaches down to 0: 0x0123 is
	// in it, and thread 1's context is not in the hash at all.
	a.Threads, s.Threads = a.Threads[:1], s.Threads[:1]
	if m.SharedHash(a) != m.SharedHash(s) {
		t.Error("one thread: a write to its stack changes the hash")
	}
}

// TestRelianceEveryState: the bound an intrusion teaches holds in every
// state, so the reliance check covers every region it takes bytes from,
// not only the intruded region as it is in the state at hand. Thread 1
// (top 0x017F) stores at 0x01F0, in thread 0's region 0x0180-0x01FF. A
// step of thread 0 followed alone in another state, where thread 1 had
// ended and thread 0's region reached down to 0x0000, relied on 0x0150:
// the bound 0x01F1 takes that byte from that region, so the intrusion is
// recorded (a search again) — and with the check narrowed to the state
// at hand (mutation.CurrentReliance) it is not. A byte relied on in a
// region whose top is below the intruded byte (thread 1's own) loses
// nothing to the bound: the region shrinks and privacy holds.
func TestRelianceEveryState(t *testing.T) {
	for _, c := range []struct {
		name      string
		low, top  uint16 // the byte relied on, and its region's top
		fault     mutation.Fault
		intrusion bool
	}{
		{"another state's lower region", 0x0150, 0x01FF, mutation.None, true},
		{"another state's lower region, narrowed check", 0x0150, 0x01FF, mutation.CurrentReliance, false},
		{"a region below the byte", 0x0150, 0x017F, mutation.None, false},
		{"the region at hand", 0x01C0, 0x01FF, mutation.None, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer mutation.Set(c.fault)()
			m, s := privateMachine(t, at(0x20, 0x10, []byte{0xB7, 0x01, 0xF0})) // staa $01F0
			m.rely(c.low, c.top)
			out, _ := successors(m, s)
			pick(t, out, 1, -1)
			if in := m.Intrusion(); (in != nil) != c.intrusion {
				t.Fatalf("intrusion %v, want one: %v", in, c.intrusion)
			}
			if !c.intrusion && (!m.CheckPrivate() || m.Shrinks() == 0) {
				t.Fatalf("privacy %v, %d shrinks: want the region shrunk", m.CheckPrivate(), m.Shrinks())
			}
		})
	}
}
