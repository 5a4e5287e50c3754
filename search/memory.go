package search

import (
	"runtime/debug"
	"runtime/metrics"
	"unsafe"

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
// part of it that is free heap: kept for reuse, and returned to the system
// when the process nears the garbage collector's memory limit.
func memoryInUse() (held, free int64) {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	for _, x := range s {
		if x.Value.Kind() != metrics.KindUint64 {
			return 0, 0
		}
	}
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64()), int64(s[2].Value.Uint64())
}

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
	size := st.tab.size
	at := size*2/3 + 1
	if st.compact {
		at, size = size*4/5+1, size+size/2
	} else {
		size *= 2
	}
	if w.tab.soon(st.n, at) {
		need += int64(size+slack(size)) * 8
	}
	if w.pages.soon(len(st.pageDat), cap(st.pageDat)) {
		need += appended(cap(st.pageDat), unsafe.Sizeof(st.pageDat[0])) + appended(cap(st.pageFP), 8)
	}
	if w.pageTab.soon(len(st.pageDat), len(st.pages)/2) {
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

// setGCLimit gives the garbage collector limit as its soft memory limit
// unless a lower one is set, and returns the function that restores it.
func setGCLimit(limit int64) func() {
	prev := debug.SetMemoryLimit(-1)
	if limit <= 0 || limit >= prev {
		return func() {}
	}
	debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(prev) }
}
