package sim

import (
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// MaxThreads bounds the number of threads __mc_thread_create may make.
const MaxThreads = 64

// harness performs the effect of the harness routine h for the thread whose
// PC reached the stub, atomically, and returns to the caller as RTS would.
// The stub's own instructions never run.
func (x *stepper) harness(h loader.Stub) event {
	t := x.t
	s := x.s
	stub := t.PC
	call := x.callSite(stub)
	switch h {
	case loader.StubNondet:
		n := t.D()
		t.SetD(uint16(x.choose(uint64(n) + 1)))
	case loader.StubAssume:
		if t.A == 0 {
			return evInfeasible
		}
	case loader.StubAssert:
		if t.A == 0 {
			x.fault(KindAssert, call, 0, "assertion failed: __mc_assert called with A = 0")
		}
	case loader.StubError:
		x.fault(KindError, call, 0, "__mc_error called")
	case loader.StubThreadCreate:
		if len(s.Threads) >= MaxThreads {
			x.fault(KindError, call, 0, "__mc_thread_create: more than %d threads", MaxThreads)
			break
		}
		id := len(s.Threads)
		nt := Thread{CPU: CPU{PC: t.D(), SP: t.X, CCR: t.CCR}, InitSP: t.X, PrevPC: call}
		nt.SetD(t.Y)
		s.Threads = append(s.Threads, nt)
		t = &s.Threads[x.tid] // the append may have moved the threads
		x.t = t
		t.SetD(uint16(id))
		if x.g.on {
			x.regionGiven(id)
		}
	case loader.StubThreadExit:
		t.PrevPC = stub
		t.Status = Exited
		return evSched
	case loader.StubYield:
	case loader.StubLock:
		b := x.read8(t.X)
		if x.bad {
			return evViolation
		}
		if b != 0 {
			return evBlocked
		}
		x.write8(t.X, uint8(x.tid+1))
	case loader.StubUnlock:
		b := x.read8(t.X)
		if !x.bad && b != uint8(x.tid+1) {
			who := "no thread"
			if b != 0 {
				who = "thread " + itoa(int(b)-1)
			}
			x.fault(KindUnlock, call, t.X, "__mc_unlock of the lock at 0x%04X, which %s holds", t.X, who)
			break
		}
		x.write8(t.X, 0)
	case loader.StubAtomicBegin:
		s.Atomic = uint8(x.tid + 1)
		s.AtomicDepth++
	case loader.StubAtomicEnd:
		if s.AtomicDepth > 0 {
			s.AtomicDepth--
		}
		if s.AtomicDepth == 0 {
			s.Atomic = 0
		}
	case loader.StubCSEnter:
		t.CS++
		for i := range s.Threads {
			if i != x.tid && s.Threads[i].CS > 0 && s.Threads[i].Status != Exited {
				x.fault(KindMutex, call, 0, "threads %d and %d are both inside a critical section", i, x.tid)
				break
			}
		}
	case loader.StubCSExit:
		if t.CS > 0 {
			t.CS--
		}
	}
	t.PrevPC = stub
	t.Cycles += 5
	slot := t.SP + 1
	t.PC = x.pull16()
	t.popShadow(slot)
	if x.m.live != nil {
		x.m.stubReturned(x.tid, h, t.PC)
	}
	if x.bad {
		return evViolation
	}
	return evSched
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// callSite finds the JSR or BSR that called the stub at stub: the
// instruction that ends where the return address on the stack points and
// whose target is the stub (an interrupt taken between the call and the
// stub leaves PrevPC in the handler, so PrevPC alone is not enough). It
// falls back to PrevPC when the stack does not show such a call.
func (x *stepper) callSite(stub uint16) uint16 {
	t := x.t
	ret := uint16(x.m.ReadMem(x.s, t.SP+1))<<8 | uint16(x.m.ReadMem(x.s, t.SP+2))
	for _, n := range []uint16{3, 2} {
		at := ret - n
		var buf [3]byte
		for i := range buf {
			buf[i] = x.m.ReadMem(x.s, at+uint16(i))
		}
		in, err := isa.Decode(buf[:n])
		if err != nil || in.Len != uint8(n) {
			continue
		}
		switch in.Op {
		case isa.BSR:
			if in.Target(at) == stub {
				return at
			}
		case isa.JSR:
			switch in.Mode {
			case isa.Ext, isa.Dir:
				if in.Operand == stub {
					return at
				}
			default: // indexed: the target depends on X or Y
				return at
			}
		}
	}
	return t.PrevPC
}
