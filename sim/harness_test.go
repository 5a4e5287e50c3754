package sim

import (
	"strings"
	"testing"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// Tests of the harness routines (DESIGN.md, "The harness"), interrupts,
// preemption modes and replay, through Machine.Successors.

var (
	insLDS = b(0x8E, 0x01, 0xFF) // lds #0x01ff
	insBRA = b(0x20, 0xFE)       // bra .
)

func jsr(a uint16) []byte { return b(0xBD, byte(a>>8), byte(a)) }

// stepThread takes the successor in which thread tid runs, requiring
// exactly one and no violation.
func stepThread(t testing.TB, m *Machine, s *State, tid int) *State {
	t.Helper()
	out, dl := successors(m, s)
	if dl != nil {
		t.Fatalf("unexpected deadlock: %v", dl)
	}
	var found *Successor
	for i := range out {
		if out[i].Label.Thread == tid && out[i].Label.IRQ < 0 {
			if found != nil {
				t.Fatalf("thread %d has several successors: %s", tid, describe(out))
			}
			found = &out[i]
		}
	}
	if found == nil {
		t.Fatalf("thread %d has no successor: %s", tid, describe(out))
	}
	if found.Violation != nil {
		t.Fatalf("unexpected violation: %v", found.Violation)
	}
	return found.State
}

func threadSuccessors(out []Successor, tid int) int {
	n := 0
	for _, o := range out {
		if o.Label.Thread == tid && o.Label.IRQ < 0 {
			n++
		}
	}
	return n
}

func TestNondet(t *testing.T) {
	// lds; ldd #3; jsr __mc_nondet; bra .
	code := cat(insLDS, b(0xCC, 0x00, 0x03), jsr(stubNondet), insBRA)
	m := harnessMachine(t, code, nil, Config{})
	s := advance(t, m, m.Initial(), 3)
	if s.Threads[0].PC != stubNondet {
		t.Fatalf("PC=%04X, want the stub", s.Threads[0].PC)
	}
	out, dl := successors(m, s)
	if dl != nil || len(out) != 4 {
		t.Fatalf("want 4 successors (D = 0..3), got %d, deadlock %v: %s", len(out), dl, describe(out))
	}
	seen := map[uint16]bool{}
	for _, o := range out {
		th := o.State.Threads[0]
		if o.Violation != nil {
			t.Errorf("violation %v", o.Violation)
		}
		if th.PC != 0xD009 || th.SP != 0x01FF || th.Status != Running {
			t.Errorf("after nondet: %s status %d, want PC=D009 SP=01FF", fmtCPU(th.CPU), th.Status)
		}
		if o.Label.Thread != 0 || o.Label.IRQ != -1 || o.Label.Steps != 1 || uint64(th.D()) != o.Label.Choice {
			t.Errorf("label %+v for D=%d", o.Label, th.D())
		}
		seen[th.D()] = true
	}
	for v := uint16(0); v <= 3; v++ {
		if !seen[v] {
			t.Errorf("value %d missing", v)
		}
	}

	// N = 0: a single successor, D = 0.
	code0 := cat(insLDS, b(0xCC, 0x00, 0x00), jsr(stubNondet), insBRA)
	m0 := harnessMachine(t, code0, nil, Config{})
	s0 := advance(t, m0, m0.Initial(), 4)
	if th := s0.Threads[0]; th.D() != 0 || th.PC != 0xD009 {
		t.Errorf("nondet(0): %s", fmtCPU(th.CPU))
	}

	// A plain run takes value 0.
	s1 := m.Initial()
	m.Run(s1, RunOptions{Steps: 4})
	if th := s1.Threads[0]; th.D() != 0 || th.PC != 0xD009 {
		t.Errorf("run through nondet: %s", fmtCPU(th.CPU))
	}
}

func TestNondetLarge(t *testing.T) {
	code := cat(insLDS, b(0xCC, 0x01, 0x00), jsr(stubNondet), insBRA) // N = 256
	m := harnessMachine(t, code, nil, Config{})
	s := advance(t, m, m.Initial(), 3)
	out, _ := successors(m, s)
	if len(out) != 257 {
		t.Fatalf("%d successors, want 257", len(out))
	}
	seen := map[uint16]bool{}
	for _, o := range out {
		d := o.State.Threads[0].D()
		if uint64(d) != o.Label.Choice || d > 256 || seen[d] {
			t.Errorf("successor with label %+v has D=%d", o.Label, d)
		}
		seen[d] = true
	}
}

func TestAssume(t *testing.T) {
	// lds; ldaa #v; jsr __mc_assume; bra .
	prog := func(v byte) []byte { return cat(insLDS, b(0x86, v), jsr(stubAssume), insBRA) }

	m := harnessMachine(t, prog(5), nil, Config{})
	s := advance(t, m, m.Initial(), 3)
	s = only(t, m, s)
	if th := s.Threads[0]; th.PC != 0xD008 || th.SP != 0x01FF || th.A != 5 {
		t.Errorf("assume(5) returns to %s", fmtCPU(th.CPU))
	}

	m = harnessMachine(t, prog(0), nil, Config{})
	s = advance(t, m, m.Initial(), 3)
	out, dl := successors(m, s)
	if len(out) != 0 {
		t.Errorf("assume(0): %d successors, want the path dropped: %s", len(out), describe(out))
	}
	// DESIGN.md: "A = 0: this path is infeasible and is dropped, silently".
	if dl != nil {
		t.Errorf("assume(0) is reported as a violation: %v", dl)
	}

	res := m.Run(m.Initial(), RunOptions{Steps: 10})
	if res.Violation != nil || !strings.Contains(res.Reason, "infeasible") {
		t.Errorf("run into assume(0): %v %q", res.Violation, res.Reason)
	}

	// Two threads: thread 1 assumes A = 0 while thread 0 exits. Every
	// path through thread 1's call is infeasible; none may end in a
	// reported deadlock.
	m = harnessMachine(t, createProg(jsr(stubExit), cat(b(0x4F), jsr(stubAssume), insBRA)), nil, Config{})
	bfs(t, m, m.Initial(), 2000, func(p *State, out []Successor, dl *Violation) {
		if dl != nil {
			t.Fatalf("deadlock reported on a path dropped by __mc_assume: %v", dl)
		}
	})
}

func TestAssert(t *testing.T) {
	prog := func(v byte) []byte { return cat(insLDS, b(0x86, v), jsr(stubAssert), insBRA) }
	m := harnessMachine(t, prog(0), nil, Config{})
	s := advance(t, m, m.Initial(), 3)
	out, _ := successors(m, s)
	if len(out) != 1 || out[0].Violation == nil {
		t.Fatalf("assert(0): %s", describe(out))
	}
	v := out[0].Violation
	if v.Kind != KindAssert || v.Thread != 0 || v.PC != 0xD005 {
		t.Errorf("violation %+v, want assert by thread 0 at the JSR 0xD005", v)
	}
	if v.Kind.String() != "assert" {
		t.Errorf("kind name %q", v.Kind)
	}
	res := m.Run(m.Initial(), RunOptions{Steps: 10})
	if res.Violation == nil || res.Violation.Kind != KindAssert || res.Violation.PC != 0xD005 {
		t.Errorf("run: %v", res.Violation)
	}

	m = harnessMachine(t, prog(1), nil, Config{})
	s = advance(t, m, m.Initial(), 4)
	if th := s.Threads[0]; th.PC != 0xD008 || th.SP != 0x01FF {
		t.Errorf("assert(1) returns to %s", fmtCPU(th.CPU))
	}
	// Any non-zero A passes.
	m = harnessMachine(t, prog(0x80), nil, Config{})
	advance(t, m, m.Initial(), 4)
}

func TestError(t *testing.T) {
	code := cat(insLDS, b(0x01), jsr(stubError), insBRA) // lds; nop; jsr __mc_error
	m := harnessMachine(t, code, nil, Config{})
	s := advance(t, m, m.Initial(), 3)
	out, _ := successors(m, s)
	if len(out) != 1 || out[0].Violation == nil {
		t.Fatalf("error: %s", describe(out))
	}
	if v := out[0].Violation; v.Kind != KindError || v.PC != 0xD004 || v.Thread != 0 {
		t.Errorf("violation %+v, want error at 0xD004", v)
	}
}

// createProg: thread 0 creates a thread at entry with SP 0x0180 and
// argument 0x1234, then runs tail (from 0xD011); the new thread's code is
// at 0xD040.
func createProg(tail, thread []byte) []byte {
	main := cat(insLDS, // D000
		b(0xCC, 0xD0, 0x40),       // D003 ldd #0xd040
		b(0xCE, 0x01, 0x80),       // D006 ldx #0x0180
		b(0x18, 0xCE, 0x12, 0x34), // D009 ldy #0x1234
		jsr(stubCreate),           // D00D
		tail)                      // D010
	return at(0x80, 0, main, 0x40, thread)
}

func TestThreadCreate(t *testing.T) {
	// The creator clears I first so that its CCR is distinguishable.
	code := createProgCLI()
	m := harnessMachine(t, code, nil, Config{})
	s := advance(t, m, m.Initial(), 6) // lds, ldd, ldx, ldy, cli, jsr
	if s.Threads[0].PC != stubCreate {
		t.Fatalf("PC=%04X", s.Threads[0].PC)
	}
	s = only(t, m, s)
	if len(s.Threads) != 2 {
		t.Fatalf("%d threads", len(s.Threads))
	}
	t0, t1 := s.Threads[0], s.Threads[1]
	if t0.D() != 1 || t0.PC != 0xD011 || t0.SP != 0x01FF || t0.X != 0x0180 || t0.Y != 0x1234 {
		t.Errorf("creator after the call: %s (want D = thread id 1)", fmtCPU(t0.CPU))
	}
	want := CPU{PC: 0xD040, SP: 0x0180, A: 0x12, B: 0x34, X: 0, Y: 0, CCR: cS | cX}
	if t1.CPU != want || t1.Status != Running {
		t.Errorf("new thread %s status %d, want %s", fmtCPU(t1.CPU), t1.Status, fmtCPU(want))
	}

	// The new thread runs ldaa #7, then returns from its entry routine: it exits.
	s = stepThread(t, m, s, 1)
	if s.Threads[1].A != 7 {
		t.Errorf("thread 1 A=%02X", s.Threads[1].A)
	}
	s = stepThread(t, m, s, 1)
	if s.Threads[1].Status != Exited {
		t.Errorf("thread 1 returned from its entry routine but has status %d", s.Threads[1].Status)
	}
	out, _ := successors(m, s)
	if threadSuccessors(out, 1) != 0 {
		t.Errorf("an exited thread moves: %s", describe(out))
	}
}

// createProgCLI is createProg with a CLI before the call, and a thread
// that loads 7 and returns.
func createProgCLI() []byte {
	main := cat(insLDS, // D000
		b(0xCC, 0xD0, 0x40),       // D003 ldd #0xd040
		b(0xCE, 0x01, 0x80),       // D006 ldx #0x0180
		b(0x18, 0xCE, 0x12, 0x34), // D009 ldy #0x1234
		b(0x0E),                   // D00D cli
		jsr(stubCreate),           // D00E
		insBRA)                    // D011
	return at(0x80, 0, main, 0x40, b(0x86, 0x07, 0x39))
}

func TestThreadExit(t *testing.T) {
	// thread 1: jsr __mc_thread_exit; ldaa #1 (never reached)
	// thread 0: jsr __mc_thread_exit
	code := createProg(jsr(stubExit), cat(jsr(stubExit), b(0x86, 0x01)))
	m := harnessMachine(t, code, nil, Config{})
	s := advance(t, m, m.Initial(), 6)
	s = stepThread(t, m, s, 1) // jsr
	s = stepThread(t, m, s, 1) // exit
	if s.Threads[1].Status != Exited {
		t.Fatalf("thread 1 status %d after __mc_thread_exit", s.Threads[1].Status)
	}
	out, _ := successors(m, s)
	if threadSuccessors(out, 1) != 0 {
		t.Errorf("exited thread moves")
	}
	s = stepThread(t, m, s, 0)
	s = stepThread(t, m, s, 0)
	if s.Threads[0].Status != Exited {
		t.Fatalf("thread 0 status %d", s.Threads[0].Status)
	}
	out, dl := successors(m, s)
	if len(out) != 0 || dl != nil {
		t.Errorf("all threads exited: %d successors, deadlock %v; want neither", len(out), dl)
	}
	res := m.Run(m.Initial(), RunOptions{Steps: 100})
	if res.Violation != nil || !strings.Contains(res.Reason, "exited") {
		t.Errorf("run: %v %q", res.Violation, res.Reason)
	}
}

// TestDeepCallsReturn: a thread nested deeper than the simulator's shadow
// stack returns from all its calls and goes on; only a return from its
// entry routine ends it (DESIGN.md: a thread whose entry routine returns
// exits).
func TestDeepCallsReturn(t *testing.T) {
	code := at(0x20,
		0x00, insLDS, // D000
		0x03, b(0x86, 40), // D003 ldaa #40
		0x05, jsr(0xD010), // D005 jsr rec
		0x08, b(0xC6, 0x55), // D008 ldab #0x55
		0x0A, b(0xD7, 0x50), // D00A stab *0x50
		0x0C, insBRA, // D00C bra .
		0x10, b(0x4A), // D010 rec: deca
		0x11, b(0x27, 0x02), // D011 beq D015
		0x13, b(0x8D, 0xFB), // D013 bsr rec
		0x15, b(0x39), // D015 rts
	)
	m := testMachine(t, code, nil, nil, Config{})
	s := m.Initial()
	res := m.Run(s, RunOptions{Steps: 1000})
	th := s.Threads[0]
	if res.Violation != nil {
		t.Fatalf("violation %v", res.Violation)
	}
	if th.Status != Running || th.PC != 0xD00C || peek(m, s, 0x50) != 0x55 || th.SP != 0x01FF {
		t.Errorf("after 40 nested calls and returns: status %d %s [0x50]=%02X (%s); want a running thread at D00C",
			th.Status, fmtCPU(th.CPU), peek(m, s, 0x50), res.Reason)
	}
	// The same through Successors.
	s = m.Initial()
	for i := 0; i < 400 && s.Threads[0].Status == Running && s.Threads[0].PC != 0xD00C; i++ {
		s = only(t, m, s)
	}
	if th := s.Threads[0]; th.Status != Running || th.PC != 0xD00C {
		t.Errorf("successors: status %d %s", th.Status, fmtCPU(th.CPU))
	}
}

func TestStubNeverExecutes(t *testing.T) {
	// Stubs hold an undefined opcode: executing one would be an
	// illegal-opcode violation.
	code := cat(insLDS,
		b(0xCC, 0x00, 0x02), jsr(stubNondet), // ldd #2; nondet
		b(0x86, 0x01), jsr(stubAssume), jsr(stubAssert), // ldaa #1; assume; assert
		jsr(stubYield), jsr(stubCSEnter), jsr(stubCSExit),
		jsr(stubAtomicBegin), jsr(stubAtomicEnd),
		b(0xCE, 0x00, 0x60), jsr(stubLock), jsr(stubUnlock),
		insBRA)
	end := uint16(org + len(code) - 2)
	for _, stub := range []byte{0x41, 0x00} {
		m := testMachine(t, code, map[uint16][]byte{0xD100: stubBlock(stub)}, stubSyms, Config{})
		s := m.Initial()
		res := m.Run(s, RunOptions{Steps: 200})
		if res.Violation != nil || s.Threads[0].PC != end {
			t.Errorf("stub byte %02X: %v, PC=%04X", stub, res.Violation, s.Threads[0].PC)
		}
		s = m.Initial()
		for i := 0; i < 100 && s.Threads[0].PC != end; i++ {
			out, dl := successors(m, s)
			if dl != nil || len(out) == 0 {
				t.Fatalf("stuck: %v", dl)
			}
			for _, o := range out {
				if o.Violation != nil {
					t.Fatalf("stub byte %02X: violation %v", stub, o.Violation)
				}
			}
			s = out[0].State
		}
		if s.Threads[0].PC != end {
			t.Errorf("successors did not reach the end: %s", fmtCPU(s.Threads[0].CPU))
		}
	}
}

func TestYield(t *testing.T) {
	// Under --preempt yield, a transition runs up to the next harness call.
	code := at(0x30,
		0x00, insLDS, // D000
		0x03, b(0x86, 0x01), // D003 ldaa #1
		0x05, b(0x4C), // D005 inca
		0x06, jsr(0xD020), // D006 jsr sub (not a scheduling point)
		0x09, jsr(stubYield), // D009
		0x0C, b(0x4C, 0x4C), // D00C inca; inca
		0x0E, jsr(stubYield), // D00E
		0x11, insBRA, // D011
		0x20, b(0x5C, 0x39), // D020 sub: incb; rts
	)
	m := harnessMachine(t, code, nil, Config{Preempt: PreemptYield, MaxRun: 50})
	s := m.Initial()
	out, _ := successors(m, s)
	if len(out) != 1 {
		t.Fatal(describe(out))
	}
	// lds, ldaa, inca, jsr, incb, rts, jsr __mc_yield: stops at the stub.
	if l, th := out[0].Label, out[0].State.Threads[0]; l.Steps != 7 || th.PC != stubYield || th.A != 2 || th.B != 1 {
		t.Errorf("first transition: steps %d %s", l.Steps, fmtCPU(th.CPU))
	}
	out, _ = successors(m, out[0].State)
	// the yield, inca, inca, jsr __mc_yield
	if l, th := out[0].Label, out[0].State.Threads[0]; len(out) != 1 || l.Steps != 4 || th.PC != stubYield || th.A != 4 {
		t.Errorf("second transition: steps %d %s", l.Steps, fmtCPU(th.CPU))
	}
	var st Stats
	out, _ = m.Successors(out[0].State, nil, &st)
	// the yield, then bra . until MaxRun
	if l, th := out[0].Label, out[0].State.Threads[0]; len(out) != 1 || l.Steps != 50 || th.PC != 0xD011 || st.RunBoundHits != 1 {
		t.Errorf("third transition: steps %d %s, bound hits %d", l.Steps, fmtCPU(th.CPU), st.RunBoundHits)
	}
}

func TestPreemptCalls(t *testing.T) {
	code := at(0x30,
		0x00, insLDS, // D000
		0x03, b(0x86, 0x01), // D003 ldaa #1
		0x05, b(0xC6, 0x02), // D005 ldab #2
		0x07, jsr(0xD020), // D007 jsr sub
		0x0A, b(0x4C), // D00A inca
		0x0B, b(0x8D, 0x03), // D00B bsr sub2 (D010)
		0x0D, insBRA, // D00D
		0x10, b(0x4C, 0x39), // D010 sub2: inca; rts
		0x20, b(0x5C, 0x5C, 0x39), // D020 sub: incb; incb; rts
	)
	m := testMachine(t, code, nil, nil, Config{Preempt: PreemptCalls, MaxRun: 20})
	type step struct {
		steps uint32
		pc    uint16
		a, b  uint8
	}
	want := []step{
		{3, 0xD007, 1, 2},  // lds, ldaa, ldab; the JSR is next
		{3, 0xD022, 1, 4},  // jsr, incb, incb; the RTS is next
		{2, 0xD00B, 2, 4},  // rts, inca; the BSR is next
		{2, 0xD011, 3, 4},  // bsr, inca; the RTS is next
		{20, 0xD00D, 3, 4}, // rts, then bra . until MaxRun
	}
	s := m.Initial()
	var st Stats
	for i, w := range want {
		out, _ := m.Successors(s, nil, &st)
		if len(out) != 1 {
			t.Fatalf("transition %d: %s", i, describe(out))
		}
		th := out[0].State.Threads[0]
		if out[0].Label.Steps != w.steps || th.PC != w.pc || th.A != w.a || th.B != w.b {
			t.Errorf("transition %d: steps %d %s, want steps %d PC=%04X A=%02X B=%02X", i, out[0].Label.Steps, fmtCPU(th.CPU), w.steps, w.pc, w.a, w.b)
		}
		s = out[0].State
	}
	if st.RunBoundHits != 1 {
		t.Errorf("RunBoundHits %d, want 1", st.RunBoundHits)
	}
	if st.Instructions != 3+3+2+2+20 {
		t.Errorf("Instructions %d", st.Instructions)
	}
}

func TestPreemptCallsHarness(t *testing.T) {
	// A harness call is a scheduling point under --preempt calls too.
	code := cat(insLDS, b(0x86, 0x01), jsr(stubAssert), b(0x4C, 0x4C), insBRA)
	m := harnessMachine(t, code, nil, Config{Preempt: PreemptCalls, MaxRun: 10})
	out, _ := successors(m, m.Initial())
	if th := out[0].State.Threads[0]; out[0].Label.Steps != 2 || th.PC != 0xD005 {
		t.Errorf("first: steps %d %s", out[0].Label.Steps, fmtCPU(th.CPU))
	}
	out, _ = successors(m, out[0].State)
	if th := out[0].State.Threads[0]; out[0].Label.Steps != 1 || th.PC != stubAssert {
		t.Errorf("second: steps %d %s", out[0].Label.Steps, fmtCPU(th.CPU))
	}
}

func TestMaxRun(t *testing.T) {
	m := testMachine(t, loopCode, nil, nil, Config{Preempt: PreemptYield, MaxRun: 1000})
	var st Stats
	out, _ := m.Successors(m.Initial(), nil, &st)
	if len(out) != 1 || out[0].Label.Steps != 1000 || st.RunBoundHits != 1 || st.Instructions != 1000 {
		t.Errorf("steps %d hits %d instructions %d", out[0].Label.Steps, st.RunBoundHits, st.Instructions)
	}
	// X counts down from 0xFFFF: 1 LDX, then 999 of DEX/BNE.
	if x := out[0].State.Threads[0].X; x != 0xFFFF-500 {
		t.Errorf("X=%04X", x)
	}
	ns, v, ok := m.Replay(m.Initial(), out[0].Label)
	if !ok || v != nil || !ns.Equal(out[0].State) {
		t.Errorf("replay of a bounded run: ok=%v v=%v", ok, v)
	}
}

// lockProg: thread 0 takes the lock at 0x60 then the one at 0x61; thread 1
// takes 0x61 then 0x60.
func lockProg() []byte {
	main := cat(
		b(0xCE, 0x00, 0x60), jsr(stubLock), // D010
		b(0xCE, 0x00, 0x61), jsr(stubLock), // D016
		insBRA) // D01C
	thread := cat(
		b(0xCE, 0x00, 0x61), jsr(stubLock), // D040
		b(0xCE, 0x00, 0x60), jsr(stubLock), // D046
		insBRA) // D04C
	return createProg(main, thread)
}

func TestLock(t *testing.T) {
	m := harnessMachine(t, lockProg(), nil, Config{})
	s := advance(t, m, m.Initial(), 6)
	s = stepThread(t, m, s, 0) // ldx #0x60
	s = stepThread(t, m, s, 0) // jsr
	s = stepThread(t, m, s, 0) // lock
	if v := peek(m, s, 0x60); v != 1 || s.Threads[0].PC != 0xD016 {
		t.Fatalf("lock byte %02X (want thread id + 1 = 1), PC=%04X", v, s.Threads[0].PC)
	}
	s = stepThread(t, m, s, 1) // ldx #0x61
	s = stepThread(t, m, s, 1) // jsr
	s = stepThread(t, m, s, 1) // lock
	if v := peek(m, s, 0x61); v != 2 {
		t.Fatalf("lock byte %02X, want 2", v)
	}
	s = stepThread(t, m, s, 1) // ldx #0x60
	s = stepThread(t, m, s, 1) // jsr: at the stub, the lock is held
	out, dl := successors(m, s)
	if dl != nil || threadSuccessors(out, 1) != 0 || threadSuccessors(out, 0) != 1 {
		t.Fatalf("thread 1 is blocked, thread 0 is not: %s (deadlock %v)", describe(out), dl)
	}
	s = stepThread(t, m, s, 0) // ldx #0x61
	s = stepThread(t, m, s, 0) // jsr: both blocked
	out, dl = successors(m, s)
	if len(out) != 0 || dl == nil || dl.Kind != KindDeadlock {
		t.Fatalf("both threads blocked: %d successors, deadlock %v", len(out), dl)
	}
	if !strings.Contains(dl.Message, "lock") {
		t.Errorf("deadlock message %q", dl.Message)
	}
	// A plain run keeps thread 0 going: it takes both locks and spins.
	res := m.Run(m.Initial(), RunOptions{Steps: 1000})
	if res.Violation != nil {
		t.Errorf("run: %v", res.Violation)
	}
}

func TestLockDeadlockFound(t *testing.T) {
	m := harnessMachine(t, lockProg(), nil, Config{})
	found := false
	bfs(t, m, m.Initial(), 5000, func(p *State, out []Successor, dl *Violation) {
		if dl != nil && dl.Kind == KindDeadlock {
			found = true
		}
		for _, o := range out {
			if o.Violation != nil {
				t.Errorf("unexpected violation %v", o.Violation)
			}
		}
	})
	if !found {
		t.Error("the lock-order deadlock is not reachable")
	}
}

func TestLockReleased(t *testing.T) {
	// thread 0: lock 0x60; unlock 0x60; bra .   thread 1: lock 0x60; bra .
	main := cat(b(0xCE, 0x00, 0x60), jsr(stubLock), jsr(stubUnlock), insBRA)
	thread := cat(b(0xCE, 0x00, 0x60), jsr(stubLock), insBRA)
	m := harnessMachine(t, createProg(main, thread), nil, Config{})
	s := advance(t, m, m.Initial(), 6)
	for i := 0; i < 3; i++ {
		s = stepThread(t, m, s, 0) // ldx, jsr, lock
	}
	s = stepThread(t, m, s, 1) // ldx
	s = stepThread(t, m, s, 1) // jsr
	out, _ := successors(m, s)
	if threadSuccessors(out, 1) != 0 {
		t.Fatalf("thread 1 not blocked")
	}
	s = stepThread(t, m, s, 0) // jsr unlock
	s = stepThread(t, m, s, 0) // unlock
	if peek(m, s, 0x60) != 0 {
		t.Fatalf("unlock left %02X", peek(m, s, 0x60))
	}
	s = stepThread(t, m, s, 1) // lock, now free
	if peek(m, s, 0x60) != 2 || s.Threads[1].PC != 0xD046 {
		t.Errorf("thread 1 did not get the lock: byte %02X PC %04X", peek(m, s, 0x60), s.Threads[1].PC)
	}
}

func TestUnlock(t *testing.T) {
	code := cat(insLDS, b(0xCE, 0x00, 0x60), jsr(stubUnlock), insBRA) // D006: jsr unlock
	m := harnessMachine(t, code, nil, Config{})
	for _, c := range []struct {
		held uint8
		viol bool
	}{{0, true}, {2, true}, {1, false}} {
		s := advance(t, m, m.Initial(), 3)
		poke(t, m, s, 0x60, c.held)
		out, _ := successors(m, s)
		if len(out) != 1 {
			t.Fatal(describe(out))
		}
		v := out[0].Violation
		switch {
		case c.viol && (v == nil || v.Kind != KindUnlock || v.PC != 0xD006 || v.Thread != 0):
			t.Errorf("unlock of a lock held by %d: violation %+v, want unlock at D006", c.held, v)
		case !c.viol && v != nil:
			t.Errorf("unlock by the holder: %v", v)
		case !c.viol && peek(m, out[0].State, 0x60) != 0:
			t.Errorf("unlock by the holder left %02X", peek(m, out[0].State, 0x60))
		}
	}
}

func TestAtomic(t *testing.T) {
	main := cat(jsr(stubAtomicBegin), b(0x4C, 0x4C), jsr(stubAtomicEnd), insBRA) // D010
	thread := b(0x5C, 0x20, 0xFD)                                                // D040: incb; bra D040
	m := harnessMachine(t, createProg(main, thread), nil, Config{})
	s := advance(t, m, m.Initial(), 6)
	s = stepThread(t, m, s, 0) // jsr atomic_begin
	s = stepThread(t, m, s, 0) // atomic_begin
	if s.Atomic != 1 {
		t.Fatalf("Atomic=%d, want thread id + 1", s.Atomic)
	}
	for i := 0; i < 4; i++ { // inca, inca, jsr, atomic_end
		out, _ := successors(m, s)
		if len(out) != 1 || out[0].Label.Thread != 0 {
			t.Fatalf("inside the atomic section only thread 0 runs: %s", describe(out))
		}
		s = out[0].State
	}
	if s.Atomic != 0 || s.Threads[0].PC != 0xD018 {
		t.Fatalf("after atomic_end: Atomic=%d PC=%04X", s.Atomic, s.Threads[0].PC)
	}
	out, _ := successors(m, s)
	if threadSuccessors(out, 0) != 1 || threadSuccessors(out, 1) != 1 {
		t.Errorf("after the section both threads run: %s", describe(out))
	}
}

func TestAtomicBlocksInterrupts(t *testing.T) {
	code := cat(insLDS, b(0x0E), jsr(stubAtomicBegin), b(0x01, 0x01), jsr(stubAtomicEnd), insBRA)
	handler := b(0x3B) // rti
	m := harnessMachine(t, code, map[uint16][]byte{0xFFE8: {0xD2, 0x00}, 0xD200: handler}, Config{IRQs: []string{"toc1"}})
	s := advance(t, m, m.Initial(), 2) // lds, cli
	out, _ := successors(m, s)
	if len(out) != 1 {
		t.Fatalf("right after CLI only the next instruction runs (the manual's delay in clearing I): %s", describe(out))
	}
	s = pick(t, out, 0, -1).State // jsr
	out, _ = successors(m, s)
	if len(out) != 2 {
		t.Fatalf("I=0: want a thread step and an interrupt: %s", describe(out))
	}
	s = pick(t, out, 0, -1).State // __mc_atomic_begin
	if s.Atomic == 0 {
		t.Fatal("not atomic")
	}
	out, _ = successors(m, s)
	if len(out) != 1 || out[0].Label.IRQ != -1 {
		t.Errorf("no interrupt inside an atomic section: %s", describe(out))
	}
}

func mustSucc(m *Machine, s *State) []Successor {
	out, _ := successors(m, s)
	return out
}

func TestMutex(t *testing.T) {
	main := cat(jsr(stubCSEnter), insBRA) // D010
	thread := cat(jsr(stubCSEnter), insBRA)
	m := harnessMachine(t, createProg(main, thread), nil, Config{})
	s := advance(t, m, m.Initial(), 6)
	s = stepThread(t, m, s, 0) // jsr
	s = stepThread(t, m, s, 0) // cs_enter
	if s.Threads[0].CS != 1 {
		t.Fatalf("CS=%d", s.Threads[0].CS)
	}
	s = stepThread(t, m, s, 1) // jsr
	out, _ := successors(m, s)
	var v *Violation
	for _, o := range out {
		if o.Label.Thread == 1 {
			v = o.Violation
		}
	}
	if v == nil || v.Kind != KindMutex || v.Thread != 1 || v.PC != 0xD040 {
		t.Errorf("second thread entering: violation %+v, want mutex by thread 1 at D040", v)
	}

	// With cs_exit in between, no violation anywhere.
	main = cat(jsr(stubCSEnter), b(0x01), jsr(stubCSExit), insBRA)
	thread = cat(jsr(stubCSEnter), b(0x01), jsr(stubCSExit), insBRA)
	m = harnessMachine(t, createProg(main, thread), nil, Config{})
	found := false
	bfs(t, m, m.Initial(), 5000, func(p *State, out []Successor, dl *Violation) {
		for _, o := range out {
			if o.Violation != nil && o.Violation.Kind == KindMutex {
				found = true
			}
		}
	})
	if !found {
		t.Error("overlapping critical sections not found")
	}
	// Sequential sections in one thread are fine.
	code := cat(insLDS, jsr(stubCSEnter), jsr(stubCSExit), jsr(stubCSEnter), jsr(stubCSExit), insBRA)
	m = harnessMachine(t, code, nil, Config{})
	if res := m.Run(m.Initial(), RunOptions{Steps: 50}); res.Violation != nil {
		t.Errorf("one thread: %v", res.Violation)
	}
}

// irqMachine: toc1 enabled, its vector at 0xFFE8 pointing at a handler at
// 0xD200 that increments 0x50 and returns.
func irqMachine(t *testing.T, code []byte, cfg Config) *Machine {
	cfg.IRQs = []string{"toc1"}
	return harnessMachine(t, code, map[uint16][]byte{
		0xFFE8: {0xD2, 0x00},
		0xD200: b(0x7C, 0x00, 0x50, 0x3B), // inc 0x0050; rti
	}, cfg)
}

func TestInterrupt(t *testing.T) {
	code := cat(insLDS, // D000
		b(0x86, 0xAA),             // D003 ldaa
		b(0xC6, 0xBB),             // D005 ldab
		b(0xCE, 0x11, 0x22),       // D007 ldx
		b(0x18, 0xCE, 0x33, 0x44), // D00A ldy
		b(0x0E),                   // D00E cli
		insBRA)                    // D00F
	m := irqMachine(t, code, Config{})
	s := m.Initial()
	for i := 0; i < 6; i++ {
		out, _ := successors(m, s)
		if len(out) != 1 || out[0].Label.IRQ != -1 {
			t.Fatalf("with I set no interrupt may be taken: %s", describe(out))
		}
		s = out[0].State
	}
	// Right after CLI the next instruction runs first (the manual's
	// one-cycle delay in clearing I).
	out, _ := successors(m, s)
	if len(out) != 1 || out[0].Label.IRQ != -1 {
		t.Fatalf("right after CLI: want the thread's step alone: %s", describe(out))
	}
	s = out[0].State
	out, _ = successors(m, s)
	if len(out) != 2 {
		t.Fatalf("with I clear: want the thread's step and toc1: %s", describe(out))
	}
	irq := pick(t, out, 0, isa.VecTOC1)
	th := irq.State.Threads[0]
	want := CPU{A: 0xAA, B: 0xBB, X: 0x1122, Y: 0x3344, SP: 0x01F6, PC: 0xD200, CCR: cS | cX | cI}
	if th.CPU != want {
		t.Errorf("after the interrupt %s, want %s", fmtCPU(th.CPU), fmtCPU(want))
	}
	frame := []mb{{0x01FF, 0x0F}, {0x01FE, 0xD0}, {0x01FD, 0x44}, {0x01FC, 0x33}, {0x01FB, 0x22}, {0x01FA, 0x11},
		{0x01F9, 0xAA}, {0x01F8, 0xBB}, {0x01F7, cS | cX}}
	for _, f := range frame {
		if v := peek(m, irq.State, f.a); v != f.v {
			t.Errorf("frame [%04X]=%02X, want %02X", f.a, v, f.v)
		}
	}
	s = irq.State
	out, _ = successors(m, s) // inc: I is set, so no nested interrupt
	if len(out) != 1 {
		t.Fatalf("inside the handler: %s", describe(out))
	}
	s = out[0].State
	if peek(m, s, 0x50) != 1 {
		t.Errorf("handler did not run")
	}
	s = only(t, m, s) // rti
	th = s.Threads[0]
	want = CPU{A: 0xAA, B: 0xBB, X: 0x1122, Y: 0x3344, SP: 0x01FF, PC: 0xD00F, CCR: cS | cX}
	if th.CPU != want {
		t.Errorf("after RTI %s, want %s", fmtCPU(th.CPU), fmtCPU(want))
	}
	if th.NShadow != 0 {
		t.Errorf("shadow stack depth %d after RTI", th.NShadow)
	}
}

func TestWAIWokenByInterrupt(t *testing.T) {
	code := cat(insLDS, b(0x0E), b(0x3E), b(0x86, 0x01), insBRA) // lds; cli; wai; ldaa #1
	m := irqMachine(t, code, Config{})
	s := advance(t, m, m.Initial(), 2) // lds, cli
	s = pick(t, mustSucc(m, s), 0, -1).State
	th := s.Threads[0]
	if th.Status != Waiting || th.SP != 0x01F6 || th.PC != 0xD005 {
		t.Fatalf("after WAI: status %d %s", th.Status, fmtCPU(th.CPU))
	}
	out, dl := successors(m, s)
	if dl != nil || len(out) != 1 || out[0].Label.IRQ != isa.VecTOC1 {
		t.Fatalf("a waiting thread only takes the interrupt: %s %v", describe(out), dl)
	}
	th = out[0].State.Threads[0]
	if th.Status != Running || th.PC != 0xD200 || th.SP != 0x01F6 || th.CCR&cI == 0 {
		t.Errorf("woken: status %d %s (the frame WAI stacked is not stacked again)", th.Status, fmtCPU(th.CPU))
	}
	s = advance(t, m, out[0].State, 2) // inc, rti
	if th := s.Threads[0]; th.PC != 0xD005 || th.SP != 0x01FF || th.CCR&cI != 0 {
		t.Errorf("after RTI: %s", fmtCPU(th.CPU))
	}
}

func TestWAIDeadlock(t *testing.T) {
	code := cat(insLDS, b(0x3E), insBRA) // I stays set
	for _, irq := range []bool{false, true} {
		var m *Machine
		if irq {
			m = irqMachine(t, code, Config{})
		} else {
			m = harnessMachine(t, code, nil, Config{})
		}
		s := advance(t, m, m.Initial(), 2)
		out, dl := successors(m, s)
		if len(out) != 0 || dl == nil || dl.Kind != KindDeadlock || dl.Thread != 0 {
			t.Errorf("irq=%v: WAI with I set: %d successors, deadlock %v", irq, len(out), dl)
		}
		// (A plain run reaching the same point: TestRunStopsWaitingThread.)
	}
}

func TestSTOPWokenByInterrupt(t *testing.T) {
	// tap with A = 0 clears S (and I); stop; then ldaa #1
	code := cat(insLDS, b(0x4F, 0x06), b(0xCF), b(0x86, 0x01), insBRA)
	m := irqMachine(t, code, Config{})
	s := advance(t, m, m.Initial(), 3) // lds, clra, tap
	s = pick(t, mustSucc(m, s), 0, -1).State
	if s.Threads[0].Status != Stopped {
		t.Fatalf("status %d", s.Threads[0].Status)
	}
	out, _ := successors(m, s)
	if len(out) != 1 || out[0].Label.IRQ != isa.VecTOC1 {
		t.Fatalf("%s", describe(out))
	}
	th := out[0].State.Threads[0]
	if th.Status != Running || th.PC != 0xD200 || peek(m, out[0].State, 0x01FF) != 0x06 || peek(m, out[0].State, 0x01FE) != 0xD0 {
		t.Errorf("woken from STOP: %s, stacked PC %02X%02X", fmtCPU(th.CPU), peek(m, out[0].State, 0x01FE), peek(m, out[0].State, 0x01FF))
	}
}

// bfs explores the successors of init breadth first, up to max states,
// calling visit for each expanded state.
func bfs(t testing.TB, m *Machine, init *State, max int, visit func(parent *State, out []Successor, dl *Violation)) int {
	seen := map[uint64][]*State{}
	add := func(s *State) bool {
		h := s.Hash()
		for _, o := range seen[h] {
			if o.Equal(s) {
				return false
			}
		}
		seen[h] = append(seen[h], s)
		return true
	}
	queue := []*State{init}
	add(init)
	n := 0
	for len(queue) > 0 && n < max {
		s := queue[0]
		queue = queue[1:]
		n++
		out, dl := m.Successors(s, nil, nil)
		visit(s, out, dl)
		for _, o := range out {
			if o.Violation == nil && add(o.State) {
				queue = append(queue, o.State)
			}
		}
	}
	return n
}

// TestReplay: every successor of every explored state is reproduced by
// Replay from its parent and label.
func TestReplay(t *testing.T) {
	progs := []struct {
		name string
		m    func() *Machine
	}{
		{"nondet", func() *Machine {
			return harnessMachine(t, cat(insLDS, b(0xCC, 0x00, 0x05), jsr(stubNondet), b(0x16), jsr(stubAssert), insBRA), nil, Config{})
		}},
		{"locks", func() *Machine { return harnessMachine(t, lockProg(), nil, Config{}) }},
		{"locks-calls", func() *Machine { return harnessMachine(t, lockProg(), nil, Config{Preempt: PreemptCalls}) }},
		{"irq", func() *Machine {
			return irqMachine(t, cat(insLDS, b(0x0E), b(0x7C, 0x00, 0x51), b(0x3E), b(0x20, 0xF9)), Config{})
		}},
		{"irq-yield", func() *Machine {
			return irqMachine(t, cat(insLDS, b(0x0E), b(0x7C, 0x00, 0x51), jsr(stubYield), b(0x20, 0xF8)), Config{Preempt: PreemptYield, MaxRun: 7})
		}},
		{"atomic", func() *Machine {
			main := cat(jsr(stubAtomicBegin), b(0x7C, 0x00, 0x60), jsr(stubAtomicEnd), b(0x20, 0xF5))
			thread := cat(b(0x7C, 0x00, 0x60), b(0x20, 0xFB))
			return harnessMachine(t, createProg(main, thread), nil, Config{})
		}},
		{"input", func() *Machine {
			return testMachine(t, cat(insLDS, b(0xB6, 0x10, 0x03), b(0x97, 0x40), b(0x20, 0xF9)), nil, nil,
				Config{Inputs: map[uint16][]uint8{0x1003: {1, 2, 3}}})
		}},
	}
	for _, p := range progs {
		t.Run(p.name, func(t *testing.T) {
			m := p.m()
			checked := 0
			bfs(t, m, m.Initial(), 400, func(parent *State, out []Successor, dl *Violation) {
				h := parent.Hash()
				for _, o := range out {
					ns, v, ok := m.Replay(parent, o.Label)
					checked++
					if !ok {
						t.Fatalf("replay of %+v refused", o.Label)
					}
					if !ns.Equal(o.State) || ns.Hash() != o.State.Hash() {
						t.Fatalf("replay of %+v differs:%s\nreplayed:%s", o.Label, describe([]Successor{o}), describe([]Successor{{State: ns, Label: o.Label}}))
					}
					if (v == nil) != (o.Violation == nil) || (v != nil && v.Kind != o.Violation.Kind) {
						t.Fatalf("replay of %+v: violation %v, successor had %v", o.Label, v, o.Violation)
					}
				}
				if parent.Hash() != h {
					t.Fatalf("expanding or replaying changed the parent")
				}
			})
			if checked == 0 {
				t.Fatal("nothing checked")
			}
			// Labels that describe no transition are refused.
			s := m.Initial()
			for _, l := range []Label{{Thread: 5, IRQ: -1, Steps: 1}, {Thread: 0, IRQ: -1, Steps: 0}, {Thread: 0, IRQ: -1, Steps: 1, Choice: 1000}} {
				if _, _, ok := m.Replay(s, l); ok {
					t.Errorf("replay of %+v accepted", l)
				}
			}
		})
	}
}

func TestXIRQ(t *testing.T) {
	// ldaa #0x10; tap: CCR = I only (S and X cleared). XIRQ is masked by X only.
	code := cat(insLDS, b(0x86, 0x10, 0x06), insBRA)
	m := testMachine(t, code, map[uint16][]byte{0xFFF4: {0xD1, 0x00}, 0xD100: b(0x3B)}, nil, Config{IRQs: []string{"xirq"}})
	s := m.Initial()
	for i := 0; i < 3; i++ { // X is set until the TAP
		out, _ := successors(m, s)
		if len(out) != 1 || out[0].Label.IRQ != -1 {
			t.Fatalf("X set: %s", describe(out))
		}
		s = out[0].State
	}
	out, _ := successors(m, s)
	irq := pick(t, out, 0, 26)
	th := irq.State.Threads[0]
	if th.PC != 0xD100 || th.CCR&(cX|cI) != cX|cI || peek(m, irq.State, 0x01F7) != cI {
		t.Errorf("after XIRQ: %s, stacked CCR %02X", fmtCPU(th.CPU), peek(m, irq.State, 0x01F7))
	}
	s = only(t, m, irq.State) // rti: X cleared again from the frame
	if th := s.Threads[0]; th.CCR != cI || th.PC != 0xD006 {
		t.Errorf("after RTI: %s", fmtCPU(th.CPU))
	}
}

func TestReach(t *testing.T) {
	code := cat(insLDS, b(0x01, 0x01), b(0x86, 0x01), insBRA) // D005: ldaa
	m := testMachine(t, code, nil, nil, Config{Reach: []uint16{0xD005}})
	s := advance(t, m, m.Initial(), 2)
	out, _ := successors(m, s)
	if len(out) != 1 || out[0].Violation == nil || out[0].Violation.Kind != KindReach || out[0].Violation.PC != 0xD005 {
		t.Errorf("reach: %s", describe(out))
	}
	res := m.Run(m.Initial(), RunOptions{Steps: 100})
	if res.Violation == nil || res.Violation.Kind != KindReach || res.Steps != 3 {
		t.Errorf("run: %v after %d steps", res.Violation, res.Steps)
	}
}

func TestReturns(t *testing.T) {
	code := at(0x30,
		0x00, insLDS, // D000
		0x03, jsr(0xD010), // D003 -> returns to D006
		0x06, insBRA,
		0x10, jsr(0xD020), // D010 -> returns to D013
		0x13, b(0x39),
		0x20, b(0x8D, 0x0E), // D020 bsr D030 -> returns to D022
		0x22, b(0x39),
		0x2E, b(0x20, 0xFE), // D02E bra .
	)
	m := testMachine(t, code, map[uint16][]byte{0xD030: b(0x20, 0xFE)}, nil, Config{})
	s := m.Initial()
	m.Run(s, RunOptions{Steps: 4})
	got := m.Returns(s, 0, nil)
	want := []uint16{0xD022, 0xD013, 0xD006}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("Returns = %04X, want %04X", got, want)
	}
}

func TestMaxThreads(t *testing.T) {
	// loop: ldd #thread; ldx #0x0180; jsr create; bra loop.   thread: bra .
	code := at(0x30,
		0x00, insLDS,
		0x03, b(0xCC, 0xD0, 0x20),
		0x06, b(0xCE, 0x01, 0x80),
		0x09, jsr(stubCreate),
		0x0C, b(0x20, 0xF5),
		0x20, insBRA)
	m := harnessMachine(t, code, nil, Config{})
	s := m.Initial()
	res := m.Run(s, RunOptions{Steps: 100000})
	if res.Violation == nil || res.Violation.Kind != KindError || len(s.Threads) != MaxThreads {
		t.Errorf("%d threads, violation %v", len(s.Threads), res.Violation)
	}
}

// TestAssertAfterInterrupt: an interrupt taken between the JSR to
// __mc_assert and the call itself must not change where the violation is
// reported (DESIGN.md: "violation assert at the caller").
func TestAssertAfterInterrupt(t *testing.T) {
	code := cat(insLDS, b(0x0E), b(0x4F), jsr(stubAssert), insBRA) // D005: jsr __mc_assert with A = 0
	m := irqMachine(t, code, Config{})
	s := advance(t, m, m.Initial(), 2)       // lds, cli
	s = pick(t, mustSucc(m, s), 0, -1).State // clra
	s = pick(t, mustSucc(m, s), 0, -1).State // jsr: at the stub
	s = pick(t, mustSucc(m, s), 0, 20).State // toc1
	s = advance(t, m, s, 2)                  // inc; rti: back at the stub
	if s.Threads[0].PC != stubAssert {
		t.Fatalf("PC=%04X", s.Threads[0].PC)
	}
	out, _ := successors(m, s)
	o := pick(t, out, 0, -1)
	if v := o.Violation; v == nil || v.Kind != KindAssert || v.PC != 0xD005 {
		t.Errorf("assert after an interrupt: %+v, want PC 0xD005 (the JSR)", v)
	}
}

// TestTopLevelComputedJump: pushing an address and executing RTS jumps
// there (Appendix A, RTS: the PC is pulled from the stack); it is not the
// entry routine returning.
func TestTopLevelComputedJump(t *testing.T) {
	code := at(0x20,
		0x00, insLDS,
		0x03, b(0xCE, 0xD0, 0x10), // ldx #0xd010
		0x06, b(0x3C), // pshx
		0x07, b(0x39), // rts
		0x10, b(0x86, 0x77), // D010 ldaa #0x77
		0x12, insBRA)
	m := testMachine(t, code, nil, nil, Config{})
	s := m.Initial()
	res := m.Run(s, RunOptions{Steps: 6})
	if th := s.Threads[0]; th.Status != Running || th.A != 0x77 || th.PC != 0xD012 || th.SP != 0x01FF {
		t.Errorf("pshx; rts at the top level: status %d %s (%s %v)", th.Status, fmtCPU(th.CPU), res.Reason, res.Violation)
	}
}

// TestReplayRefusesForeignLabels: labels that Successors cannot produce
// from the state are refused ("ok is false when the label does not
// describe a transition of s").
func TestReplayRefusesForeignLabels(t *testing.T) {
	code := cat(insLDS, b(0x0E), b(0x01, 0x01, 0x01), insBRA) // lds; cli; nops
	vec := map[uint16][]byte{0xFFE8: {0xD1, 0x00}, 0xD100: b(0x3B)}

	// An interrupt the machine was not configured with (no --irq).
	m := testMachine(t, code, vec, nil, Config{})
	s := advance(t, m, m.Initial(), 2)
	if _, _, ok := m.Replay(s, Label{Thread: 0, IRQ: isa.VecTOC1}); ok {
		t.Error("replay of an interrupt that is not enabled accepted")
	}

	// More steps than one transition has under --preempt every.
	if _, _, ok := m.Replay(s, Label{Thread: 0, IRQ: -1, Steps: 3}); ok {
		t.Error("replay of a 3-instruction transition under --preempt every accepted")
	}
	// The same label is a transition under --preempt yield.
	my := testMachine(t, code, vec, nil, Config{Preempt: PreemptYield, MaxRun: 3})
	out, _ := successors(my, my.Initial())
	if len(out) != 1 || out[0].Label.Steps != 3 {
		t.Fatalf("%s", describe(out))
	}
	if _, _, ok := my.Replay(my.Initial(), out[0].Label); !ok {
		t.Error("replay of a real transition refused")
	}
}

func TestMachineConfigErrors(t *testing.T) {
	img := testImage(t, insBRA, map[uint16][]byte{0xFFE8: {0xD1, 0x00}}, nil)
	for _, irq := range []string{"nmi", "swi", "toc2"} { // unknown, not an interrupt source, no vector loaded
		if _, err := NewMachine(img, Config{IRQs: []string{irq}}); err == nil {
			t.Errorf("--irq %s accepted", irq)
		}
	}
	if _, err := NewMachine(img, Config{IRQs: []string{"toc1"}}); err != nil {
		t.Errorf("--irq toc1: %v", err)
	}
	for i, n := range []string{"every", "calls", "yield"} {
		p, err := ParsePreempt(n)
		if err != nil || p != Preempt(i) || p.String() != n {
			t.Errorf("ParsePreempt(%q) = %v, %v", n, p, err)
		}
	}
	if _, err := ParsePreempt("sometimes"); err == nil {
		t.Error("bad --preempt accepted")
	}
	if _, err := ParsePreempt("shared"); err == nil || !strings.Contains(err.Error(), "removed") || !strings.Contains(err.Error(), "--preempt every") {
		t.Errorf("--preempt shared: %v, want an error saying it was removed and to use --preempt every", err)
	}
	for _, n := range []string{"assert", "error", "deadlock", "mutex", "unlock", "illegal-opcode", "rom-write", "unmapped", "stack", "reach", "watchdog", "output"} {
		k, ok := ParseKind(n)
		if !ok || k.String() != n {
			t.Errorf("ParseKind(%q) = %v, %v", n, k, ok)
		}
	}
	if len(KindNames()) != 15 {
		t.Errorf("KindNames: %v", KindNames())
	}
	if IRQName(isa.VecTOC1) != "toc1" || IRQName(isa.VecXIRQ) != "xirq" || IRQName(isa.VecTOC5) != "toc5" {
		t.Errorf("IRQName: %s %s %s", IRQName(isa.VecTOC1), IRQName(isa.VecXIRQ), IRQName(isa.VecTOC5))
	}
	for _, n := range IRQNames() {
		if n == "swi" {
			t.Error("swi listed as an --irq name")
		}
	}
	m := harnessMachine(t, insBRA, nil, Config{})
	if !m.HasHarness() || m.HookAddr[loader.StubAssert] != stubAssert {
		t.Errorf("hooks: %v", m.HookAddr)
	}
	if _, text := m.Disasm(m.Initial(), stubLock); text != "<harness __mc_lock>" {
		t.Errorf("Disasm of a stub: %q", text)
	}
}
