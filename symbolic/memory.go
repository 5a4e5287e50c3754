package symbolic

// #cgo LDFLAGS: -lz3
// #include <z3.h>
import "C"

import (
	"runtime"
	"runtime/debug"
	"time"

	"github.com/hc11mc/hc11mc/internal/memlimit"
)

// z3Allocated is Z3's own estimate of the memory it has allocated, in all
// its contexts (Z3_get_estimated_alloc_size).
func z3Allocated() int64 { return int64(C.Z3_get_estimated_alloc_size()) }

// Z3Memory is the memory Z3 has allocated now, in all its contexts: C
// memory, which the Go runtime's figures (internal/memlimit.Held) do not
// include. The swarm's watch over memory adds it.
func Z3Memory() int64 { return z3Allocated() }

// memoryNow is the memory in use now — the Go runtime's and what Z3
// allocated since the solver was made (other contexts freed meanwhile may
// make that negative: it counts as 0) — which it records for the peak.
func (s *Solver) memoryNow() int64 {
	held, _ := memlimit.Held()
	now := held + max(z3Allocated()-s.z3Base, 0)
	s.peak = max(s.peak, now)
	return now
}

// sampleMemory measures the memory in use now (memoryNow) and returns the
// most seen.
func (s *Solver) sampleMemory() int64 {
	s.memoryNow()
	return s.peak
}

// ReleaseMemory collects what earlier engines left, so that the next
// one's peak memory is its own: Z3's contexts are freed by finalizers,
// which need several collections (the terms that refer to a context go
// first) and run in their own goroutine, so it collects until Z3's
// allocation has not fallen for three collections in a row (at most 50),
// then returns the free heap to the system.
func ReleaseMemory() {
	last, still := z3Allocated(), 0
	for n := 0; n < 50 && still < 3; n++ {
		runtime.GC()
		time.Sleep(2 * time.Millisecond) // for the finalizers
		if now := z3Allocated(); now < last {
			last, still = now, 0
		} else {
			still++
		}
	}
	debug.FreeOSMemory()
}
