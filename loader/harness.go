package loader

import "slices"

// Stub is a harness routine (DESIGN.md, "The harness"): a symbol the
// firmware calls and whose effect the checker performs in place of its
// body. This list is the one place the stubs' names are written; package
// sim gives them their effects, package icfg makes each one vertex that
// returns as RTS would, package heuristics aims at some of them.
type Stub uint8

// The harness stubs.
const (
	NoStub           Stub = iota // not a stub
	StubNondet                   // __mc_nondet: D = any value in [0, D]
	StubAssume                   // __mc_assume: A = 0 drops the path
	StubAssert                   // __mc_assert: A = 0 is a violation
	StubError                    // __mc_error: a violation
	StubThreadCreate             // __mc_thread_create: a new thread
	StubThreadExit               // __mc_thread_exit: the calling thread ends
	StubYield                    // __mc_yield: a scheduling point
	StubLock                     // __mc_lock: take the lock byte at X, or block
	StubUnlock                   // __mc_unlock: release the lock byte at X
	StubAtomicBegin              // __mc_atomic_begin: nothing else runs until __mc_atomic_end
	StubAtomicEnd                // __mc_atomic_end
	StubCSEnter                  // __mc_cs_enter: the caller enters a critical section
	StubCSExit                   // __mc_cs_exit: the caller leaves it
	NumStubs                     // the number of Stub values, NoStub included
)

// StubPrefix begins the name of every harness stub.
const StubPrefix = "__mc_"

var stubNames = [NumStubs]string{
	"", "__mc_nondet", "__mc_assume", "__mc_assert", "__mc_error",
	"__mc_thread_create", "__mc_thread_exit", "__mc_yield", "__mc_lock",
	"__mc_unlock", "__mc_atomic_begin", "__mc_atomic_end", "__mc_cs_enter", "__mc_cs_exit",
}

// String returns the stub's symbol name ("" for NoStub).
func (s Stub) String() string {
	if s < NumStubs {
		return stubNames[s]
	}
	return "stub?"
}

// StubNamed returns the stub with the given symbol name.
func StubNamed(name string) (Stub, bool) {
	for s := NoStub + 1; s < NumStubs; s++ {
		if stubNames[s] == name {
			return s, true
		}
	}
	return NoStub, false
}

// StubAddr returns the address of stub s in the image: the address of the
// symbol of its name (see Lookup), unless that is only a section or file
// name.
func (img *Image) StubAddr(s Stub) (uint16, bool) {
	if s == NoStub || s >= NumStubs {
		return 0, false
	}
	sym, ok := img.Lookup(stubNames[s])
	if !ok || sym.Kind == SymSection || sym.Kind == SymFile {
		return 0, false
	}
	return sym.Addr, true
}

// StubLikeCalls returns the targets of the calls in the image's loaded
// bytes that go to a subroutine made of a bare RTS, the shape every
// harness stub has (its body runs only on real hardware, where the stub
// is a no-op), in increasing order. It scans every loaded byte for JSR
// extended (0xBD) and BSR (0x8D), whatever is code, so data may add a
// target; a call through a register cannot be resolved and adds none.
//
// An image without symbols whose list is empty calls no harness stub by
// address: firmware written for a board, which the warning about missing
// symbols does not concern.
func (img *Image) StubLikeCalls() []uint16 {
	seen := map[uint16]bool{}
	var out []uint16
	add := func(t uint16) {
		if b, ok := img.Byte(t); ok && b == 0x39 && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, s := range img.Segments {
		for i := 0; i+1 < len(s.Data); i++ {
			a := uint16(int(s.Addr) + i)
			switch s.Data[i] {
			case 0xBD: // JSR extended
				if i+2 < len(s.Data) {
					add(uint16(s.Data[i+1])<<8 | uint16(s.Data[i+2]))
				}
			case 0x8D: // BSR
				add(a + 2 + uint16(int8(s.Data[i+1])))
			}
		}
	}
	slices.Sort(out)
	return out
}
