package search

import (
	"context"
	"github.com/hc11mc/hc11mc/verdict"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// endless is a machine whose search never ends: a timer interrupt counts
// in 32 bits, so every state is new.
func endless(t *testing.T) *sim.Machine {
	t.Helper()
	img, err := loader.Load("../testdata/models/irq_counter.elf", loader.Options{})
	if err != nil {
		t.Skip(err)
	}
	m, err := sim.NewMachine(img, sim.Config{Entry: img.Entry, IRQs: []string{"toc1"}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A search with a memory limit stops itself near it, having measured what
// the process holds, and leaves the garbage collector's limit as it was;
// with room kept for saving and resuming the frontier it stops earlier.
func TestMaxMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory makes the process's figures another program's")
	}
	m := endless(t)
	debug.FreeOSMemory()
	held, _ := memoryInUse()
	limit := held + 120<<20
	gcBefore := debug.SetMemoryLimit(-1)
	res := Run(context.Background(), m, Options{Strategy: BFS, MaxMemory: limit})
	if gcAfter := debug.SetMemoryLimit(-1); gcAfter != gcBefore {
		t.Errorf("the GC's memory limit was %d before the search, %d after", gcBefore, gcAfter)
	}
	if res.Verdict != Incomplete || res.Limit.Kind != verdict.StopMaxMemory {
		t.Fatalf("verdict %v, limit %q", res.Verdict, res.Limit)
	}
	st := res.Stats
	t.Logf("limit %d MiB: %d states, peak %d MiB, store %d MiB", limit>>20, st.StatesStored, st.PeakMemory>>20, st.StoreBytes>>20)
	if st.PeakMemory > limit+limit/20 {
		t.Errorf("peak memory %d MiB, limit %d MiB", st.PeakMemory>>20, limit>>20)
	}
	if st.PeakMemory < limit/2 || st.StatesStored < 100000 {
		t.Errorf("stopped early: %d states, peak %d MiB of %d MiB", st.StatesStored, st.PeakMemory>>20, limit>>20)
	}
	res = nil
	debug.FreeOSMemory()
	held, _ = memoryInUse()
	saving := Run(context.Background(), m, Options{Strategy: BFS, MaxMemory: held + 120<<20, SaveReserve: true})
	if saving.Verdict != Incomplete || saving.Stats.StatesStored > st.StatesStored*9/10 || saving.Stats.StatesStored < st.StatesStored/2 {
		t.Errorf("with room to save: %d states (%q), without %d", saving.Stats.StatesStored, saving.Limit, st.StatesStored)
	}
}

// gcPercent reads GOGC without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestGCHold: while the searches of the process are small, the collector
// is held back (GOGC off, the soft memory limit at gcHoldBelow); when one
// of them grows past half of that, or the last one ends, GOGC and the
// limit are the searches' again, and after them what they were before.
func TestGCHold(t *testing.T) {
	prevPercent, prevLimit := gcPercent(), debug.SetMemoryLimit(-1)
	release := setGCLimit(1 << 30)
	if gcPercent() != -1 || debug.SetMemoryLimit(-1) != gcHoldBelow || !gcHeld() {
		t.Fatalf("at the start: GOGC %d, limit %d, held %v", gcPercent(), debug.SetMemoryLimit(-1), gcHeld())
	}
	release2 := setGCLimit(1 << 29) // a second search, with a lower limit
	gcGrown(gcHoldBelow / 4)
	if !gcHeld() {
		t.Fatal("released below half of gcHoldBelow")
	}
	gcGrown(gcHoldBelow)
	if gcPercent() != prevPercent || debug.SetMemoryLimit(-1) != 1<<29 || gcHeld() {
		t.Fatalf("grown: GOGC %d, limit %d, held %v", gcPercent(), debug.SetMemoryLimit(-1), gcHeld())
	}
	release2()
	if debug.SetMemoryLimit(-1) != 1<<29 {
		t.Fatal("a search ended while another runs: the limit changed")
	}
	release()
	if gcPercent() != prevPercent || debug.SetMemoryLimit(-1) != prevLimit || gcHeld() {
		t.Fatalf("at the end: GOGC %d, limit %d, held %v", gcPercent(), debug.SetMemoryLimit(-1), gcHeld())
	}
}

// TestGCPercentFor: the collector is paced by the heap that holds
// pointers, at least gcHoldBelow/2 of it, between gcMinPercent and GOGC.
func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		scan, live int64
		base, want int
	}{
		{1 << 20, 16 << 20, 100, 100},      // small: the floor of the scannable part
		{100 << 20, 1000 << 20, 100, 10},   // a tenth scannable
		{500 << 20, 1000 << 20, 100, 50},   // half
		{1 << 20, 10000 << 20, 100, 10},    // never below gcMinPercent
		{1000 << 20, 1000 << 20, 100, 100}, // all scannable: GOGC
		{100 << 20, 1000 << 20, 200, 20},   // relative to GOGC
		{100 << 20, 1000 << 20, -1, -1},    // collector off stays off
		{100 << 20, 0, 100, 100},
	} {
		if got := gcPercentFor(c.scan, c.live, c.base); got != c.want {
			t.Errorf("gcPercentFor(%d, %d, %d) = %d, want %d", c.scan, c.live, c.base, got, c.want)
		}
	}
}

// TestGCTune: past the hold, a heap of mostly pointer-free bytes (a
// store's records) lowers GOGC; the end of the search restores it.
func TestGCTune(t *testing.T) {
	if gcEnvPercent {
		t.Skip("GOGC is set in the environment: gcTune leaves it alone")
	}
	prev := gcPercent()
	release := setGCLimit(1 << 40)
	gcGrown(gcHoldBelow)
	records := make([]byte, 256<<20)
	for i := 0; i < len(records); i += 4096 {
		records[i] = 1
	}
	runtime.GC()
	gcGrown(gcHoldBelow)
	if p := gcPercent(); p > prev/2 {
		t.Errorf("with 256 MiB of pointer-free heap: GOGC %d, want at most %d", p, prev/2)
	}
	runtime.KeepAlive(records)
	release()
	if p := gcPercent(); p != prev {
		t.Errorf("after the search: GOGC %d, want %d", p, prev)
	}
}
