package search

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/hc11mc/hc11mc/internal/memlimit"
	"github.com/hc11mc/hc11mc/sim"
)

// How a search keeps to Options.MaxMemory.
//
// What it measures is the memory the Go runtime holds from the system:
// every class of runtime/metrics' /memory/classes/total:bytes but the heap
// memory released back to the system. That is the store (its table, its
// arena of state records, its intern tables), the frontier, the garbage
// not collected yet, free heap kept for reuse, stacks and the runtime's
// own structures — what the kernel counts against the process, where
// HeapAlloc (the figure used before) left out everything but live and
// dead objects.
//
// It measures every 1024 expansions (runtime/metrics reads without
// stopping the world) and stops when what it holds, plus what it is about
// to take, passes the limit:
//
//   - the structures that grow by reallocating take their new size at
//     once, while the old copy is still in use: the store's table (twice
//     its size in exact mode, half again in compact mode), its intern
//     tables of pages and thread contexts and their hash tables, and the
//     frontier's queue or heap (Go's append: a quarter again). When one of
//     them, at the pace it grew between the last checks, would reallocate
//     before the check after next, its new size is counted as taken;
//   - free heap, kept by the runtime for reuse, is left out: the runtime
//     returns it to the system when the process nears the collector's
//     limit (below);
//   - with Options.SaveReserve, room to save the frontier and to resume
//     it under the same limit: saving takes little more than the search
//     holds (the snapshot is written in pieces), resuming about a fifth
//     more (the intern tables are rebuilt and the arena checked), so the
//     search then stops at four fifths of the limit.
//
// While the search runs, the garbage collector is given the limit as its
// soft memory limit (debug.SetMemoryLimit), unless a lower one is set, so
// that it collects before garbage takes the process past the limit rather
// than letting the heap double.

// memoryInUse is the memory the Go runtime holds from the system, and the
// part of it that is free heap (memlimit.Held).
func memoryInUse() (held, free int64) { return memlimit.Held() }

// A grower is one of the search's structures that grow by reallocating.
type grower struct {
	last, pace int // its length at the last check; the most it grew between two checks
}

// soon says whether the structure, now of length n, reallocates at length
// at before the check after next.
func (g *grower) soon(n, at int) bool {
	g.pace = max(g.pace, n-g.last)
	g.last = n
	return at-n <= 2*g.pace
}

// appended is the size of the array append moves a slice of capacity c
// and elements of size bytes into: a quarter again, for large slices.
func appended(c int, size uintptr) int64 { return int64(c+c/4+256) * int64(size) }

// memWatch decides when a search has no room left.
type memWatch struct {
	save bool
	// The store's table, its pages (data and hashes) and their hash
	// table, its thread contexts and their hash table; the frontier.
	tab, pages, pageTab, ctxs, ctxTab, frontier grower
}

// start takes the lengths the search starts from (a resumed search starts
// large), without a pace.
func (w *memWatch) start(st *store, f *frontier) {
	w.need(st, f, 0)
	for _, g := range []*grower{&w.tab, &w.pages, &w.pageTab, &w.ctxs, &w.ctxTab, &w.frontier} {
		g.pace = 0
	}
}

// need is the memory a search needs, holding inUse bytes with st and f
// (free heap left out): that and what is about to be taken (see the top
// of this file). It
// follows the store's and the frontier's layout and growth policy
// (store.added, store.addPage, ctxTable.intern, append).
func (w *memWatch) need(st *store, f *frontier, inUse int64) int64 {
	need := inUse
	at, size := growAt(st.tab.size, st.compact)
	at++
	if w.tab.soon(st.n, at) {
		need += int64(size+slack(size)) * 8
	}
	if w.pages.soon(st.nPages(), cap(st.pageAt)) {
		need += appended(cap(st.pageFull), unsafe.Sizeof(st.pageFull[0])) + appended(cap(st.pageAt), 4) +
			appended(cap(st.pageDelta), 1) + appended(cap(st.pageFP), 4)
	}
	if w.pageTab.soon(st.nPages(), len(st.pages)/2) {
		need += int64(len(st.pages)) * 2 * 4
	}
	if w.ctxs.soon(len(st.ctxs.keys), cap(st.ctxs.keys)) {
		need += appended(cap(st.ctxs.keys), unsafe.Sizeof(sim.ThreadKey{}))
	}
	if w.ctxTab.soon(len(st.ctxs.keys), len(st.ctxs.table)/2) {
		need += int64(len(st.ctxs.table)) * 2 * 4
	}
	q := f.list
	if f.strat == Best || f.strat == AStar {
		q = f.heap
	}
	if w.frontier.soon(len(q), cap(q)) {
		need += appended(cap(q), unsafe.Sizeof(node{}))
	}
	if w.save {
		need += inUse / 4
	}
	return need
}

// The collector at small heaps. With GOGC's default the collector runs
// each time the heap doubles, which for a search that has just started
// means a collection every few hundred kilobytes of stored states: a
// search, or a swarm of them, that ends within milliseconds spent a good
// part of them marking a heap of a few megabytes (a swarm of two on
// testdata/bench/naive2 ran one or two collections of about 1.7 ms each in
// a window of about 2 ms). So while the searches of the process hold less
// than gcHoldBelow/2, the collector is held back: GOGC off, with the soft
// memory limit at gcHoldBelow, so that it still collects if the process
// nears that before a search sees it (which looks every 1024 expansions,
// gcGrown). Past that, or when the last search ends, GOGC and the limit
// are restored, the limit given by setGCLimit as above. The heap a held
// collector lets grow is at most gcHoldBelow: nothing beside a limit of
// gigabytes.
const gcHoldBelow = 64 << 20

var gcState struct {
	sync.Mutex
	users       int // searches running
	held        atomic.Bool
	prevPercent int   // GOGC before the first search
	prevLimit   int64 // the soft memory limit before the first search
	limit       int64 // the limit while searches run
	percent     int   // GOGC while searches run past the hold (gcTune)
	lastLive    atomic.Int64
}

// setGCLimit gives the garbage collector limit as its soft memory limit
// unless a lower one is set (the lowest of the searches running), holds
// the collector back while the process is small (above), and returns the
// function that restores both when the search ends.
func setGCLimit(limit int64) func() {
	g := &gcState
	g.Lock()
	defer g.Unlock()
	if g.users == 0 {
		g.prevLimit = debug.SetMemoryLimit(-1)
		g.limit = g.prevLimit
		g.prevPercent = debug.SetGCPercent(-1)
		g.held.Store(true)
	}
	g.users++
	if limit > 0 && limit < g.limit {
		g.limit = limit
	}
	if g.held.Load() {
		debug.SetMemoryLimit(min(g.limit, gcHoldBelow))
	} else {
		debug.SetMemoryLimit(g.limit)
	}
	return func() {
		g.Lock()
		defer g.Unlock()
		if g.users--; g.users == 0 {
			g.held.Store(false)
			debug.SetGCPercent(g.prevPercent)
			debug.SetMemoryLimit(g.prevLimit)
		}
	}
}

// gcHeld reports whether the collector is held back: a search then looks
// at its memory every 1024 expansions even without a memory limit.
func gcHeld() bool { return gcState.held.Load() }

// gcGrown is told the memory the process holds; from half of gcHoldBelow
// on, the collector runs as usual, paced by gcTune.
func gcGrown(held int64) {
	g := &gcState
	if !g.held.Load() {
		gcTune()
		return
	}
	if held < gcHoldBelow/2 {
		return
	}
	g.Lock()
	defer g.Unlock()
	if g.held.Load() && g.users > 0 {
		g.held.Store(false)
		debug.SetGCPercent(g.prevPercent)
		g.percent = g.prevPercent
		debug.SetMemoryLimit(g.limit)
	}
}

// The collector at large heaps. GOGC lets the heap grow by a percentage
// of the live heap before the next collection, and a collection's work is
// marking the heap that holds pointers. A large search's live heap is
// mostly the store's records and its table, which hold none: at the
// default GOGC of 100 the garbage between collections grew as large as
// all the states stored, a third of the process's peak memory (1004 MiB
// for 14.5 million states of testdata/bench/philo5_equ under --reduce
// none, of which 656 MiB were the store), for collections that cost next
// to nothing. So once a search is past the hold, gcTune paces the
// collector by the scannable heap instead: the percentage that lets the
// heap grow by what GOGC would allow a heap of only the scannable part,
// at least gcHoldBelow/2 of it, and never below gcMinPercent. The work
// per collection is the same and collections come more often; what the
// process holds at its peak is the store, the frontier and a tenth or so
// more. GOGC set in the environment is left as it is.
const gcMinPercent = 10

// gcPercentFor is the GOGC gcTune sets for a heap of live bytes of which
// scan may hold pointers, where base is the GOGC of the environment.
func gcPercentFor(scan, live int64, base int) int {
	if base <= 0 || live <= 0 {
		return base
	}
	p := int64(base) * max(scan, gcHoldBelow/2) / live
	return int(min(max(p, gcMinPercent), int64(base)))
}

// gcTune sets GOGC by gcPercentFor when the collector has finished a
// cycle since it last looked (the live heap is measured by collections).
func gcTune() {
	g := &gcState
	if gcEnvPercent {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/heap:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return
	}
	live := int64(s[0].Value.Uint64())
	if live == g.lastLive.Load() {
		return
	}
	g.Lock()
	defer g.Unlock()
	g.lastLive.Store(live)
	if g.held.Load() || g.users == 0 {
		return
	}
	if p := gcPercentFor(int64(s[1].Value.Uint64()), live, g.prevPercent); p != g.percent {
		debug.SetGCPercent(p)
		g.percent = p
	}
}

// gcEnvPercent is whether GOGC is set in the environment: gcTune then
// leaves the collector's pace to it.
var gcEnvPercent = os.Getenv("GOGC") != ""
