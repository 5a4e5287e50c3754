package search

import (
	"encoding/binary"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/internal/prefetch"
	"github.com/hc11mc/hc11mc/internal/proviso"
	"github.com/hc11mc/hc11mc/sim"
)

// store is the set of visited states.
//
// Exact mode keeps each state as a short byte string, its canonical key
// (sim.State.AppendKey): the indexes of its thread contexts and memory
// pages in two intern tables, so that a page or a context shared by many
// states is stored once (SPIN's COLLAPSE compression), followed by its
// parent's index and the label of the transition from it (sim.AppendLabel).
// Two states are equal exactly when their strings are (sim's TestKeyCorpus
// and TestKeyIffEqual check it),
// so a fingerprint collision is resolved by comparing strings and no state
// is ever wrongly taken for visited. Per state this costs the string (about
// 20–30 bytes for a few threads and a few hundred bytes of RAM) and a table
// entry of two 32-bit words (half the fingerprint, as a filter, and the
// record's id, its position in the arena), in a table at least a third
// full.
//
// Compact mode (hash compaction) keeps only a 64-bit fingerprint per state
// in the table; two different states with the same fingerprint are then
// taken for one, with the probability Omission reports.
//
// The table (otable) is an ordered hash table, and a small cache of recent
// states (recent) stands in front of it; successors are looked up a batch
// at a time, each prefetching its slot as soon as its key is known, so
// that the cache misses of the batch overlap. Paths to frontier states are kept by the frontier itself (trail
// nodes the garbage collector frees once no frontier state descends from
// them), not by the store.
type store struct {
	compact bool
	// canon, when not nil, is the key threads are numbered by
	// (sim.Machine.CanonicalKey); nil is sim.Thread.Key.
	canon func(*sim.Thread) sim.ThreadKey
	// view, when not nil, is the state keyed in place of the one given
	// (keyView).
	view func(*sim.State) *sim.State
	gen  uint64 // tags pages with this store's intern ids

	pages []uint32 // open addressing on page contents' hashes: id+1, 0 empty
	// The pages' contents (pageData), by id: pageAt[id] is an index into
	// pageFull, or with pageDelta's bit set an offset into pageDelta,
	// where the page is kept as the bytes in which it differs from
	// another (see addPage).
	pageFull  [][sim.PageSize]byte
	pageAt    []uint32
	pageDelta []byte
	built     builtPages // pages built from deltas, lately (pageInto)
	pageFP    []uint32   // the low halves of the pages' hashes, by id, for growing the table (smaller than 2^32)
	shared    sharedPages
	ctxs      ctxTable
	groups    groupStore // groups of page ids (sim.GroupPages), for states of many pages

	arena [][]byte // chunks of state records
	// tab is the table of visited states (see otable): in exact mode
	// entries are the high half of a state's fingerprint and its id+1,
	// so a probe reads no record unless the halves match, and growing
	// needs no record either; in compact mode they are the fingerprints.
	tab otable
	n   int

	// recent is a small direct-mapped cache in front of the table, of
	// entries as the table's (fingerprints in compact mode), indexed by
	// other bits of the hash: the states most recently inserted or found.
	// Many duplicate successors are states reached a few transitions
	// earlier along another interleaving; the cache finds them without
	// the random table probe that would miss the processor's caches.
	recent []uint64
	spare  [][]byte  // memory for arena chunks, from tables grown out of (see recycle)
	full   bool      // the arena has taken its last chunk (maxChunks): ids would overflow
	keys   []prepKey // a batch of successors prepared for insertion
	// workers is, for a worker's store in a parallel search, the number
	// of workers: a record's parent may be in any worker's store (see
	// putRef); 0 for a search of one.
	workers int
}

// State ids are positions in the arena in units of recAlign bytes: every
// record starts at a multiple of recAlign (putRef pads the one before it
// with zeros), and the record at byte offset off of chunk c has the id
// (c<<chunkBits | off) / recAlign, so that finding a state's record takes
// no index. A 32-bit id then addresses 16 GiB of records, maxChunks
// chunks of 1 MiB (byte positions filled 4 GiB). The padding, less what
// links counted in ids save, costs about a byte per state: 40.9 bytes per
// stored state instead of 39.8 on the search benchmark.
const (
	chunkBits = 20
	chunkSize = 1 << chunkBits
	alignBits = 2
	recAlign  = 1 << alignBits
	// chunkIDBits are the low bits of an id: a record's offset in its
	// chunk, in units of recAlign bytes.
	chunkIDBits = chunkBits - alignBits
	maxChunks   = 1 << (32 - chunkIDBits)
)

// firstChunk is the capacity of the arena's first chunk; each next chunk
// has twice the capacity of the one before, up to chunkSize. A search of
// a hundred states, which takes a tenth of a millisecond, then takes 4 KiB
// for its records, not a megabyte to clear (a tenth of a millisecond) or
// to fault in (a page fault costs 3–4 µs on a virtual machine). The small
// chunks leave unused 7 MiB of the 16 GiB that ids address. A chunk is
// never filled beyond its capacity, so records never move (store.flags
// hands out pointers into them).
const firstChunk = 4 << 10

// smallChunks is the number of chunks smaller than chunkSize.
const smallChunks = chunkBits - 12

// chunkCap is the capacity of arena chunk c, which must hold a record of
// up to need bytes.
func chunkCap(c, need int) int {
	n := chunkSize
	if c < smallChunks {
		n = firstChunk << c
	}
	return max(n, min(need, chunkSize))
}

// firstTable is the first size, in entries, of the store's hash tables
// (states, pages, thread contexts): they double as they fill, and a small
// search touches a kilobyte or two of each instead of 4 or 8.
const firstTable = 1 << 8

// fullLimit is how a search stopped by a full store (store.full) says so:
// maxChunks chunks of chunkSize bytes (TestStoreIDs checks the figure).
const fullLimit = "the visited set is full (16 GiB of state records): use --hash-compact"

// recordID returns the id of the record at byte offset off (a multiple of
// recAlign) of arena chunk c.
func recordID(c, off int) uint32 { return uint32(c)<<chunkIDBits | uint32(off)>>alignBits }

// recordPos returns the arena chunk and the byte offset in it of record id.
func recordPos(id uint32) (c, off int) {
	return int(id >> chunkIDBits), int(id&(1<<chunkIDBits-1)) << alignBits
}

// at returns the arena from the start of record id on, to the end of its
// chunk.
func (st *store) at(id uint32) []byte {
	c, off := recordPos(id)
	return st.arena[c][off:]
}

var storeGen atomic.Uint64

func newStore(compact bool) *store {
	st := &store{compact: compact, gen: storeGen.Add(1) & 0xffffffff}
	st.pages = make([]uint32, firstTable)
	st.recent = make([]uint64, recentFirst)
	st.ctxs.init()
	st.groups.init()
	st.tab = newOTable(firstTable, tabShift(compact))
	return st
}

// Pages as differences. Firmware on kilobytes of RAM writes a few bytes
// of a page at a time, and under the exact clock every transition
// changes the timer's counters, a few bytes of the register block and of
// the device's hidden page: most new pages differ from the page they
// were copied from (sim.Page.Base) in a few bytes. Such a page is kept as
// its base's id and the bytes that differ (a delta record: its depth,
// the count n, the base id, then n offset and value pairs), 6 + 2n bytes
// instead of 64, when n is at most maxDelta and its base is at most
// maxDeltaDepth deltas from a whole page; otherwise whole. Which page is
// the base changes nothing but the size: a page's contents are its
// base's with the differences applied (pageData), whatever the base, and
// two pages are one id exactly when their contents are equal, as before.
// pageDeltas says whether stores keep pages as differences; tests turn
// it off for the reference they compare with.
var pageDeltas = true

const (
	deltaBit      = 1 << 31
	maxDelta      = 16
	maxDeltaDepth = 8
)

// nPages is the number of distinct pages the store holds.
func (st *store) nPages() int { return len(st.pageAt) }

// pageData returns the contents of page id.
func (st *store) pageData(id uint32) [sim.PageSize]byte {
	var d [sim.PageSize]byte
	st.pageInto(&d, id)
	return d
}

// pageInto writes the contents of page id into d: its whole base page,
// then the differences of each delta record from the one nearest the
// base up to id's own (at most maxDeltaDepth of them). A page built from
// deltas is kept in a small direct-mapped cache (built), since the pages
// a search looks up again and again are few: the walk down the chain,
// a cache miss at each record, is then paid once while it stays there.
func (st *store) pageInto(d *[sim.PageSize]byte, id uint32) {
	at := st.pageAt[id]
	if at&deltaBit == 0 {
		*d = st.pageFull[at]
		return
	}
	st.built.fit(len(st.pageAt))
	slot := id % uint32(len(st.built.tag))
	if st.built.tag[slot] == id+1 {
		*d = st.built.data[slot]
		return
	}
	var chain [maxDeltaDepth]uint32 // offsets of the delta records, id's first
	n := 0
	for at&deltaBit != 0 {
		off := at &^ deltaBit
		chain[n] = off
		n++
		at = st.pageAt[binary.LittleEndian.Uint32(st.pageDelta[off+2:])]
	}
	*d = st.pageFull[at]
	for k := n - 1; k >= 0; k-- {
		r := st.pageDelta[chain[k]:]
		m := int(r[1])
		r = r[6 : 6+2*m]
		for j := 1; j < len(r); j += 2 {
			d[r[j-1]%sim.PageSize] = r[j]
		}
	}
	st.built.tag[slot] = id + 1
	st.built.data[slot] = *d
}

// builtPages is the cache of pages built from deltas (pageInto): slot
// id%len(tag) holds page id when tag[slot] is id+1.
type builtPages struct {
	tag  []uint32
	data [][sim.PageSize]byte
}

// The cache holds a page for every builtShare pages the store holds,
// from minBuilt up to maxBuilt (64 KiB of pages): a search of a few
// hundred states pays a few KiB for it, not 64.
const (
	minBuilt   = 1 << 6
	maxBuilt   = 1 << 10
	builtShare = 8
)

// fit sizes the cache for a store of n pages, emptying it when it grows.
func (c *builtPages) fit(n int) {
	size := len(c.tag)
	if size >= maxBuilt || size > 0 && n <= size*builtShare {
		return
	}
	size = minBuilt
	for size < maxBuilt && size*builtShare < n {
		size *= 2
	}
	if size == len(c.tag) {
		return
	}
	c.tag = make([]uint32, size)
	c.data = make([][sim.PageSize]byte, size)
}

// samePage reports whether page id holds exactly d: a whole page is
// compared where it lies, a delta's page is built first.
func (st *store) samePage(id uint32, d *[sim.PageSize]byte) bool {
	at := st.pageAt[id]
	if at&deltaBit == 0 {
		return st.pageFull[at] == *d
	}
	var b [sim.PageSize]byte
	st.pageInto(&b, id)
	return b == *d
}

// pageDepth is the number of delta records between page id and a whole
// page.
func (st *store) pageDepth(id uint32) int {
	at := st.pageAt[id]
	if at&deltaBit == 0 {
		return 0
	}
	return int(st.pageDelta[at&^deltaBit])
}

// newPage keeps a new page of contents d, as its differences from page
// base when that is worth it (base < 0: none).
func (st *store) newPage(d *[sim.PageSize]byte, base int64) {
	if base >= 0 && base < int64(len(st.pageAt)) && pageDeltas {
		if depth := st.pageDepth(uint32(base)); depth < maxDeltaDepth {
			var b [sim.PageSize]byte
			st.pageInto(&b, uint32(base))
			n := 0
			for k := range d {
				if d[k] != b[k] {
					n++
				}
			}
			if n <= maxDelta {
				if n > 0 && mutation.On(mutation.DeltaLoses) {
					n-- // the fault: the last difference is not kept
				}
				off := len(st.pageDelta)
				st.pageDelta = append(st.pageDelta, uint8(depth+1), uint8(n), 0, 0, 0, 0)
				binary.LittleEndian.PutUint32(st.pageDelta[off+2:], uint32(base))
				for k := range d {
					if d[k] != b[k] && len(st.pageDelta) < off+6+2*n {
						st.pageDelta = append(st.pageDelta, uint8(k), d[k])
					}
				}
				st.pageAt = append(st.pageAt, deltaBit|uint32(off))
				return
			}
		}
	}
	st.pageAt = append(st.pageAt, uint32(len(st.pageFull)))
	st.pageFull = append(st.pageFull, *d)
}

// addPage returns the id of a page with contents d, whose hash is h,
// adding it when new, as its differences from page base when that is
// worth it (base < 0: none; see above).
func (st *store) addPage(d *[sim.PageSize]byte, h uint64, base int64) uint32 {
	mask := uint64(len(st.pages) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := st.pages[i]
		if e == 0 {
			id := uint32(st.nPages())
			st.newPage(d, base)
			st.pageFP = append(st.pageFP, uint32(h))
			st.pages[i] = id + 1
			if st.nPages()*2 > len(st.pages) {
				st.growPages()
			}
			return id
		}
		if st.pageFP[e-1] == uint32(h) && st.samePage(e-1, d) {
			return e - 1
		}
	}
}

func (st *store) growPages() {
	t := make([]uint32, len(st.pages)*2)
	mask := uint64(len(t) - 1)
	for id, h := range st.pageFP {
		i := uint64(h) & mask
		for t[i] != 0 {
			i = (i + 1) & mask
		}
		t[i] = uint32(id) + 1
	}
	st.pages = t
}

// pack appends a frontier state to b (sim.State.AppendPacked).
func (st *store) pack(b []byte, s *sim.State) []byte { return s.AppendPacked(b, st) }

// unpack makes s the state pack wrote into b. Its pages are the store's
// shared copies, which no state writes (s is frozen).
func (st *store) unpack(s *sim.State, b []byte) {
	if err := s.Unpack(b, -1, st); err != nil {
		panic("search: a packed frontier state does not unpack: " + err.Error())
	}
}

// ThreadID returns the id of t's context, cached in t.Tag (which the
// simulator clears when the thread changes); it makes store a
// sim.Interner.
func (st *store) ThreadID(t *sim.Thread) uint32 {
	if t.Tag>>32 == st.gen {
		return uint32(t.Tag)
	}
	var k sim.ThreadKey
	if st.canon != nil {
		k = st.canon(t)
	} else {
		k = t.Key()
	}
	id := st.ctxs.intern(k)
	t.Tag = st.gen<<32 | uint64(id)
	return id
}

// PageID returns the id of a page with p's contents, cached in p.Tag.
func (st *store) PageID(p *sim.Page) uint32 {
	if p.Tag>>32 == st.gen {
		return uint32(p.Tag)
	}
	base := int64(-1)
	if p.Base>>32 == st.gen {
		base = int64(uint32(p.Base))
	}
	id := st.addPage(&p.Data, p.Hash(), base)
	p.Tag = st.gen<<32 | uint64(id)
	return id
}

// GroupID returns the id of group g (sim.Interner).
func (st *store) GroupID(g *sim.Group) uint32 { return st.groups.intern(g) }

// Group returns the page ids of group id (sim.Resolver).
func (st *store) Group(id uint32) *sim.Group {
	if int(id) >= st.groups.n() {
		return nil
	}
	return st.groups.get(id)
}

// ThreadKeyOf returns the key of context id (sim.Interner).
func (st *store) ThreadKeyOf(id uint32) sim.ThreadKey { return st.ctxs.keys[id] }

// LoadThread sets t's identity to context id's (sim.Resolver).
func (st *store) LoadThread(t *sim.Thread, id uint32) bool {
	if int(id) >= len(st.ctxs.keys) {
		return false
	}
	t.SetKey(st.ctxs.keys[id])
	t.Tag = st.gen<<32 | uint64(id)
	return true
}

// Page returns the store's shared copy of page id (sim.Resolver).
func (st *store) Page(id uint32) *sim.Page {
	if int(id) >= st.nPages() {
		return nil
	}
	return st.sharedPage(id)
}

// sharedPages is a direct-mapped cache of the pages unpacked states
// share: one copy of page id while it stays in the cache (which no state
// writes), so that the states unpacked one after another share their
// unchanged pages. A page a state holds stays with it when the cache
// forgets it; the cache holds sharedSlots pages at most, where one copy
// of every page the store holds would hold a whole page per id again.
type sharedPages []*sim.Page

const sharedSlots = 1 << 14

// sharedPage returns a copy of page id for an unpacked state to share.
func (st *store) sharedPage(id uint32) *sim.Page {
	if st.shared == nil {
		st.shared = make(sharedPages, sharedSlots)
	}
	tag := st.gen<<32 | uint64(id)
	slot := &st.shared[id%sharedSlots]
	if p := *slot; p != nil && p.Tag == tag {
		return p
	}
	p := &sim.Page{Tag: tag}
	st.pageInto(&p.Data, id)
	*slot = p
	return p
}

// encode appends the canonical string of s to b.
func (st *store) encode(b []byte, s *sim.State) []byte {
	if st.view != nil {
		s = st.view(s)
	}
	return s.AppendKey(b, st)
}

// keyView returns the view of a state that m's stores key
// (sim.Machine.KeyState), with scratch of its own for one goroutine; nil
// when m masks no memory.
func keyView(m *sim.Machine) func(*sim.State) *sim.State {
	if !m.Config.DeadStack {
		return nil
	}
	var v sim.KeyView
	return func(s *sim.State) *sim.State { return m.KeyState(s, &v) }
}

// record returns the stored record of state id (see recordID) — its
// string, parent and label.
func (st *store) record(id uint32) (enc []byte, parent uint32, l sim.Label) {
	c := st.at(id)[1:]
	n, k := binary.Uvarint(c)
	enc = c[k : k+int(n)]
	c = c[k+int(n):]
	back, k := binary.Uvarint(c)
	l, _ = sim.ReadLabel(c[k:])
	return enc, id - uint32(back), l
}

// recordRef is record for a worker's store in a parallel search: the
// parent as a reference (see putRef), rootRef for the root.
func (st *store) recordRef(id uint32) (parent uint64, l sim.Label) {
	c := st.at(id)[1:]
	n, k := binary.Uvarint(c)
	c = c[k+int(n):]
	link, k := binary.Uvarint(c)
	l, _ = sim.ReadLabel(c[k:])
	if link == 0 {
		return rootRef, l
	}
	link--
	w, z := link%uint64(st.workers), link/uint64(st.workers)
	d := int64(z>>1) ^ -int64(z&1)
	return w<<32 | uint64(uint32(int64(id)-d)), l
}

// The flags of a state's record (its first byte), for the cycle proviso
// of partial-order reduction (package proviso).
const (
	flagExpanded = proviso.Expanded
	flagReduced  = proviso.Reduced
	flagFull     = proviso.Full
)

// flags returns the flags of state id (exact mode). Records do not move,
// so the pointer stays valid.
func (st *store) flags(id uint32) *uint8 {
	return &st.at(id)[0]
}

// rootRef is the parent reference of the initial state in a parallel
// search.
const rootRef = ^uint64(0)

// encOf returns just the string of state id's record.
func (st *store) encOf(id uint32) []byte {
	c := st.at(id)[1:]
	n, k := binary.Uvarint(c)
	return c[k : k+int(n)]
}

func (st *store) put(enc []byte, parent uint32, l sim.Label) uint32 {
	return st.putRef(enc, uint64(parent), l)
}

// putRef appends a record to the arena and returns its id. Its link to
// the parent is, in a search of one, the distance back to the parent's
// record, which is earlier, in ids (units of recAlign bytes). In a
// parallel search, parent is the parent's worker and its id there,
// worker<<32 | id, and the link says both: the zigzag of the difference
// of the two ids (the workers' arenas fill at about the same pace, so it
// is about as short), times the number of workers, plus the worker, plus
// 1; 0 is the root's link. The record is padded with zeros to a multiple
// of recAlign bytes, where the next one starts.
func (st *store) putRef(enc []byte, parent uint64, l sim.Label) uint32 {
	// At most: the string's length and the link (a varint each), the
	// string, the label (23 bytes), the flags (1) and the padding
	// (recAlign-1).
	need := 1 + len(enc) + 5*binary.MaxVarintLen64
	if len(st.arena) == 0 || len(st.arena[len(st.arena)-1])+need > cap(st.arena[len(st.arena)-1]) {
		switch len(st.arena) {
		case maxChunks - 1:
			// The last chunk ids can name: the search stops after
			// this expansion.
			st.full = true
		case maxChunks:
			panic("search: the visited set is past its last chunk")
		}
		if n := len(st.spare); n > 0 {
			st.arena = append(st.arena, st.spare[n-1])
			st.spare = st.spare[:n-1]
		} else {
			st.arena = append(st.arena, make([]byte, 0, chunkCap(len(st.arena), need)))
		}
	}
	c := len(st.arena) - 1
	b := st.arena[c]
	self := recordID(c, len(b))
	b = append(b, 0) // the flags
	b = binary.AppendUvarint(b, uint64(len(enc)))
	b = append(b, enc...)
	switch {
	case st.workers == 0:
		// The parent was stored earlier: its distance back is small
		// (and short as a varint) when the search goes deep.
		b = binary.AppendUvarint(b, uint64(self-uint32(parent)))
	case parent == rootRef:
		b = append(b, 0)
	default:
		d := int64(self) - int64(uint32(parent))
		b = binary.AppendUvarint(b, (uint64(d<<1)^uint64(d>>63))*uint64(st.workers)+parent>>32+1)
	}
	b = sim.AppendLabel(b, l)
	n := len(b)
	st.arena[c] = append(b, make([]byte, recAlign-1)...)[:(n+recAlign-1)&^(recAlign-1)]
	return self
}

// recentSize is the number of entries of the recent cache: 32 KiB, to stay
// in a core's first-level cache. It finds about 30% of the duplicates on the
// dining philosophers (77% at 512 KiB), but a larger cache is evicted from
// the core's caches between two visits to one entry, and its own misses
// then cost more than the table probes it saves (measured: a median of 771
// ns per state at 32 KiB, 787 at 128 KiB, 920 at 512 KiB, 891 without the
// cache).
const recentSize = 1 << 12

// recentFirst is the recent cache's first size: it doubles as the store
// passes its size in states, up to recentSize. A search of a few hundred
// states then touches 4 KiB for it, not 32: memory a process touches for
// the first time costs a page fault per page, and faults taken by two
// threads of a process at once cost each several times as much (measured:
// a swarm of two members of 50 states spent a fifth of its time faulting
// in the cache). A key prepared before the cache grew keeps its entry,
// which the grown cache also has: a later lookup may miss it, and the
// table answers.
const recentFirst = 1 << 9

// A prepKey is a state prepared for insertion: its string and fingerprint.
type prepKey struct {
	enc []byte
	fp  uint64 // compact mode: the string's fingerprint; exact mode: its high half
	rc  uint32 // its entry in the recent cache
	// dup is what the recent cache had for it: in exact mode the id+1 of
	// a state with the same fingerprint (which insertKey compares), in
	// compact mode 1 for the same fingerprint; 0 for nothing.
	dup uint32
}

// prepare computes the key of s into st.keys[k] and starts fetching what
// inserting it will read. Preparing a whole batch of successors before
// inserting any lets the processor fetch their table slots from memory in
// parallel, while it encodes the rest of the batch.
func (st *store) prepare(k int, s *sim.State) {
	st.reserve(k + 1)
	key := &st.keys[k]
	key.enc = st.encode(key.enc[:0], s)
	st.finish(key, xxhash.Sum64(key.enc))
}

// prepareFrom is prepare for a successor of p in which thread moved ran
// (see sim.ParentKey).
func (st *store) prepareFrom(k int, s *sim.State, p *sim.ParentKey, moved int) {
	st.reserve(k + 1)
	key := &st.keys[k]
	key.enc = p.AppendSuccessor(key.enc[:0], s, moved, st)
	st.finish(key, xxhash.Sum64(key.enc))
}

// finish takes h, the 64-bit xxhash of a prepared key's string, for its
// fingerprint and looks the key up in the recent cache. When the cache does not
// have it, it prefetches the key's table slot; when it might (exact mode),
// the record to compare with. In exact mode, where equal fingerprints are
// only a hint that the strings are compared, the high half is the table's
// filter and the low bits index the recent cache.
func (st *store) finish(key *prepKey, h uint64) {
	if !st.compact {
		key.fp, key.rc = h>>32, uint32(h)&uint32(len(st.recent)-1)
		key.dup = 0
		if e := st.recent[key.rc]; e>>32 == key.fp && e != 0 {
			key.dup = uint32(e)
			st.prefetchRecord(uint32(e) - 1)
			return
		}
		prefetch.Word(&st.tab.t[st.tab.home(key.fp<<32)])
		return
	}
	// The fingerprint of the canonical string: equal states have equal
	// strings, and 0 marks an empty slot. The table's slot comes from its
	// high bits, the recent cache's from its low ones.
	key.fp = h | 1
	key.rc = uint32(key.fp>>1) & uint32(len(st.recent)-1)
	key.dup = 0
	if st.recent[key.rc] == key.fp {
		key.dup = 1
		return
	}
	prefetch.Word(&st.tab.t[st.tab.home(key.fp)])
}

// prefetchRecord starts fetching the start of state id's record.
func (st *store) prefetchRecord(id uint32) {
	prefetch.Bytes(st.at(id))
}

// reserve makes room for n keys.
func (st *store) reserve(n int) {
	for len(st.keys) < n {
		st.keys = append(st.keys, prepKey{})
	}
}

// insert adds s unless it is already stored; it returns the state's id
// (exact mode) and whether it was new.
func (st *store) insert(s *sim.State, parent uint32, l sim.Label) (uint32, bool) {
	st.prepare(0, s)
	return st.insertKey(0, parent, l)
}

// insertKey is insert for the state prepared as key k.
func (st *store) insertKey(k int, parent uint32, l sim.Label) (uint32, bool) {
	return st.insertRef(k, uint64(parent), l)
}

// insertRef is insertKey with the parent named by a reference: in a
// parallel search the parent's worker and its id there (see putRef), in
// a search of one its id.
func (st *store) insertRef(k int, parent uint64, l sim.Label) (uint32, bool) {
	key := &st.keys[k]
	if st.compact {
		if key.dup != 0 {
			return 0, false
		}
		st.recent[key.rc] = key.fp
		return 0, st.insertFP(key.fp)
	}
	enc, hi := key.enc, key.fp
	if key.dup != 0 {
		// The recent cache holds a state with the same fingerprint,
		// most likely this one.
		if id := key.dup - 1; string(st.encOf(id)) == string(enc) {
			return id, false
		}
	}
	// The entries with this high half follow the smaller ones from its
	// home slot on, in the order they were stored.
	tag := hi << 32
	t := st.tab.t
	i := st.tab.home(tag)
	for i < len(t) && t[i] != 0 && t[i] < tag {
		i++
	}
	for ; i < len(t) && t[i] != 0 && t[i]>>32 == hi; i++ {
		if id := uint32(t[i]) - 1; string(st.encOf(id)) == string(enc) {
			st.recent[key.rc] = t[i]
			return id, false
		}
	}
	id := st.putRef(enc, parent, l)
	e := tag | uint64(id+1)
	st.tab.insertAt(i, e)
	st.recent[key.rc] = e
	st.added()
	return id, true
}

// added counts a new state and grows the table when it is full enough
// (growAt).
func (st *store) added() {
	st.n++
	if st.n > len(st.recent) && len(st.recent) < recentSize {
		st.recent = make([]uint64, 2*len(st.recent))
	}
	if at, size := growAt(st.tab.size, st.compact); st.n > at {
		old := st.tab.t
		st.tab.grow(size)
		if !st.compact {
			st.recycle(old)
		}
	}
}

// bigTable is the table size, in entries (512 KiB), from which an exact
// store's table grows as a compact one's does.
const bigTable = 1 << 16

// growAt returns how many states a table of the given size holds before
// it grows, and its size then. A compact table, and an exact one of
// bigTable entries or more, grows at 80% by half: it stays at least 53%
// full, under 16 bytes per state, and a growth holds the old table and
// the new at once for 25 bytes per state at that moment, where growing at
// two thirds twofold took 36 — the largest part of a large search's peak
// memory. A smaller exact table (a search of up to about 40,000 states)
// grows at two thirds twofold: runs half as long (fewer entries to skip,
// compare and shift per probe); growing at 80% throughout cost such small
// searches 5–7% of their states per second (BenchmarkWorkloads:
// philo5/default, dining3/best), where memory does not matter.
func growAt(size int, compact bool) (at, next int) {
	if compact || size >= bigTable {
		return size * 4 / 5, size + size/2
	}
	return size * 2 / 3, 2 * size
}

// recycle keeps the memory of a table the store has grown out of, to hold
// arena chunks: memory a process has not touched yet costs a page fault
// per page (and far more on a virtual machine), and a search that grows
// its table to hundreds of megabytes would otherwise fault in twice that
// again for the tables it left behind. Chunks need no zeroing: they are
// filled from the start.
func (st *store) recycle(t []uint64) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(t))), len(t)*8)
	for len(b) >= chunkSize {
		st.spare = append(st.spare, b[:0:chunkSize])
		b = b[chunkSize:]
	}
}

func (st *store) insertFP(fp uint64) bool {
	t := st.tab.t
	i := st.tab.home(fp)
	for i < len(t) && t[i] != 0 && t[i] < fp {
		i++
	}
	if i < len(t) && t[i] == fp {
		return false
	}
	st.tab.insertAt(i, fp)
	st.added()
	return true
}

// otable is an ordered hash table of nonzero words (Amble and Knuth's
// ordered hash table, laid out as Robin Hood linear probing would): an
// entry's home slot grows with the entry, runs of entries never wrap
// around (there is room past the nominal size for the last run to spill
// into), and each run is kept sorted, so that the whole table reads in
// increasing order. A search for an absent entry stops at the first
// larger one instead of at the end of its run, and growing is a single
// sequential merge, with no probing. The store decides when and how much
// it grows (see added).
type otable struct {
	t     []uint64 // the entries, in increasing order; 0 is empty
	size  int      // the nominal size: home slots are below it
	shift uint     // an entry's home is that of its bits from shift up
}

// tabShift is the shift of a store's table: exact mode's entries are homed
// by their fingerprint half alone, not by the id below it.
func tabShift(compact bool) uint {
	if compact {
		return 0
	}
	return 32
}

func newOTable(size int, shift uint) otable {
	t := make([]uint64, size+slack(size))
	adviseHuge(t)
	return otable{t: t, size: size, shift: shift}
}

// slack is the room past the nominal size for the last run, and what is
// added when it fills (entries crowded at the top of their range).
func slack(size int) int { return 64 + size/1024 }

// slot maps a word to one of size slots by "fast range" reduction, the
// high half of x × size: the size need not be a power of two, and the slot
// grows with x.
func slot(x uint64, size int) int {
	hi, _ := bits.Mul64(x, uint64(size))
	return int(hi)
}

// home is the slot where the search for e starts.
func (o *otable) home(e uint64) int { return slot(e>>o.shift<<o.shift, o.size) }

// insertAt puts e at slot i, where a search for it stopped, moving the
// rest of the run up by one.
func (o *otable) insertAt(i int, e uint64) {
	j := i
	for j < len(o.t) && o.t[j] != 0 {
		j++
	}
	if j == len(o.t) {
		o.t = append(o.t, make([]uint64, slack(o.size))...)
	}
	copy(o.t[i+1:j+1], o.t[i:j])
	o.t[i] = e
}

// grow moves the entries, in order, into a table of the given nominal
// size: each goes to its new home slot or, when that is taken, just after
// the one before it.
func (o *otable) grow(size int) {
	n := newOTable(size, o.shift)
	next := 0
	for _, e := range o.t {
		if e == 0 {
			continue
		}
		i := max(n.home(e), next)
		if i == len(n.t) {
			n.t = append(n.t, make([]uint64, slack(n.size))...)
		}
		n.t[i] = e
		next = i + 1
	}
	*o = n
}

// bytes is the memory the store holds; with used, the memory its states
// take (arena chunks counted as far as they are filled), for the
// bytes-per-state figure.
func (st *store) bytes() int64 { return st.size(false) }

func (st *store) usedBytes() int64 { return st.size(true) }

func (st *store) size(used bool) int64 {
	// The intern tables: distinct pages and thread contexts, shared by
	// all states.
	n := int64(len(st.pageFull))*sim.PageSize + int64(len(st.pageAt))*(4+4) + int64(len(st.pageDelta)) + int64(len(st.built.tag))*(4+sim.PageSize) + int64(len(st.pages))*4 + int64(len(st.ctxs.keys))*16 + int64(len(st.ctxs.table))*4 +
		st.groups.bytes()
	n += int64(len(st.tab.t)) * 8
	if st.compact {
		return n
	}
	for _, c := range st.arena {
		if used {
			n += int64(len(c))
		} else {
			n += int64(cap(c))
		}
	}
	return n
}

// path returns the labels from the root to state id (exact mode).
func (st *store) path(id uint32) []sim.Label {
	var ls []sim.Label
	for id != 0 {
		_, par, l := st.record(id)
		ls = append(ls, l)
		id = par
	}
	reverse(ls)
	return ls
}

func reverse(ls []sim.Label) {
	for i, j := 0, len(ls)-1; i < j; i, j = i+1, j-1 {
		ls[i], ls[j] = ls[j], ls[i]
	}
}

// trail is a path link kept by frontier states in compact mode.
type trail struct {
	parent *trail
	label  sim.Label
}

func (t *trail) path() []sim.Label {
	var ls []sim.Label
	for ; t != nil; t = t.parent {
		ls = append(ls, t.label)
	}
	reverse(ls)
	return ls
}

// groupTable interns groups of page ids as ctxTable interns thread
// identities.
type groupTable struct {
	groups []sim.Group
	table  []uint32 // id+1, 0 empty; size a power of two
}

func (c *groupTable) init() { c.table = make([]uint32, firstTable) }

// groupHash hashes a group's page ids.
func groupHash(g *sim.Group) uint64 {
	return xxhash.Sum64(unsafe.Slice((*byte)(unsafe.Pointer(g)), unsafe.Sizeof(*g)))
}

// intern returns the id of group g, adding it when new.
func (c *groupTable) intern(g *sim.Group) uint32 {
	mask := uint64(len(c.table) - 1)
	for i := groupHash(g) & mask; ; i = (i + 1) & mask {
		e := c.table[i]
		if e == 0 {
			id := uint32(len(c.groups))
			c.groups = append(c.groups, *g)
			c.table[i] = id + 1
			if len(c.groups)*2 > len(c.table) {
				c.grow()
			}
			return id
		}
		if c.groups[e-1] == *g {
			return e - 1
		}
	}
}

func (c *groupTable) grow() {
	t := make([]uint32, len(c.table)*2)
	mask := uint64(len(t) - 1)
	for id := range c.groups {
		i := groupHash(&c.groups[id]) & mask
		for t[i] != 0 {
			i = (i + 1) & mask
		}
		t[i] = uint32(id) + 1
	}
	c.table = t
}

// ctxTable interns thread identities: open addressing over their ids, the
// identities themselves in id order.
type ctxTable struct {
	keys  []sim.ThreadKey
	table []uint32 // id+1, 0 empty; size a power of two
}

func (c *ctxTable) init() { c.table = make([]uint32, firstTable) }

func ctxHash(k sim.ThreadKey) uint64 {
	h := k[0]*0x9E3779B97F4A7C15 ^ k[1]
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}

// intern returns the id of identity k, adding it when new.
func (c *ctxTable) intern(k sim.ThreadKey) uint32 {
	mask := uint64(len(c.table) - 1)
	for i := ctxHash(k) & mask; ; i = (i + 1) & mask {
		e := c.table[i]
		if e == 0 {
			id := uint32(len(c.keys))
			c.keys = append(c.keys, k)
			c.table[i] = id + 1
			if len(c.keys)*2 > len(c.table) {
				c.grow()
			}
			return id
		}
		if c.keys[e-1] == k {
			return e - 1
		}
	}
}

func (c *ctxTable) grow() {
	t := make([]uint32, len(c.table)*2)
	mask := uint64(len(t) - 1)
	for id, k := range c.keys {
		i := ctxHash(k) & mask
		for t[i] != 0 {
			i = (i + 1) & mask
		}
		t[i] = uint32(id) + 1
	}
	c.table = t
}

// groupStore interns groups of page ids for a store, as groupTable does,
// keeping a new group as the entries in which it differs from an earlier
// one when they are few (the groups of a state of many pages change an
// entry or two from one state to the next): its base's id and the
// entries that differ (a record: its depth, the count n, the base id,
// then n index and id pairs), 6 + 5n bytes instead of 128. The base is
// the group last interned whose first or second half of entries is the
// same; which one changes nothing but the size, as for pages.
type groupStore struct {
	full  []sim.Group
	at    []uint32 // by id: an index into full, or with deltaBit an offset into delta
	delta []byte
	fp    []uint32 // by id: groupHash's low half (tables stay under 2^32)
	table []uint32 // id+1, 0 empty; size a power of two
	// halves are the ids+1 of the groups last interned by the hash of
	// their first and of their second half (direct-mapped).
	halves *[2][1 << 10]uint32
	out    sim.Group // what get returns
}

const maxGroupDelta = 4

func (c *groupStore) init() { c.table = make([]uint32, firstTable) }

// n is the number of groups.
func (c *groupStore) n() int { return len(c.at) }

// group returns the entries of group id.
func (c *groupStore) group(id uint32) sim.Group {
	at := c.at[id]
	if at&deltaBit == 0 {
		return c.full[at]
	}
	r := c.delta[at&^deltaBit:]
	g := c.group(binary.LittleEndian.Uint32(r[2:]))
	for k := range int(r[1]) {
		e := r[6+5*k:]
		g[e[0]] = binary.LittleEndian.Uint32(e[1:])
	}
	return g
}

// get returns group id, valid until the next call.
func (c *groupStore) get(id uint32) *sim.Group {
	c.out = c.group(id)
	return &c.out
}

func (c *groupStore) depth(id uint32) int {
	if at := c.at[id]; at&deltaBit != 0 {
		return int(c.delta[at&^deltaBit])
	}
	return 0
}

// halfHashes are the slots of g's halves in halves.
func halfHashes(g *sim.Group) (a, b uint64) {
	const h = sim.GroupPages / 2
	bs := unsafe.Slice((*byte)(unsafe.Pointer(g)), unsafe.Sizeof(*g))
	return xxhash.Sum64(bs[:h*4]) % (1 << 10), xxhash.Sum64(bs[h*4:]) % (1 << 10)
}

// intern returns the id of group g, adding it when new.
func (c *groupStore) intern(g *sim.Group) uint32 {
	h := groupHash(g)
	mask := uint64(len(c.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := c.table[i]
		if e == 0 {
			id := uint32(c.n())
			c.add(g)
			c.fp = append(c.fp, uint32(h))
			c.table[i] = id + 1
			if c.n()*2 > len(c.table) {
				c.grow()
			}
			return id
		}
		if c.fp[e-1] == uint32(h) && c.group(e-1) == *g {
			return e - 1
		}
	}
}

// add keeps new group g, as its differences from a base when that is
// worth it.
func (c *groupStore) add(g *sim.Group) {
	id := uint32(c.n())
	if c.halves == nil {
		c.halves = new([2][1 << 10]uint32)
	}
	ha, hb := halfHashes(g)
	defer func() { c.halves[0][ha], c.halves[1][hb] = id+1, id+1 }()
	for _, e := range []uint32{c.halves[0][ha], c.halves[1][hb]} {
		if e == 0 || !pageDeltas || c.depth(e-1) >= maxDeltaDepth {
			continue
		}
		b := c.group(e - 1)
		n := 0
		for k := range g {
			if g[k] != b[k] {
				n++
			}
		}
		if n > maxGroupDelta {
			continue
		}
		off := len(c.delta)
		c.delta = append(c.delta, uint8(c.depth(e-1)+1), uint8(n), 0, 0, 0, 0)
		binary.LittleEndian.PutUint32(c.delta[off+2:], e-1)
		for k := range g {
			if g[k] != b[k] {
				c.delta = append(c.delta, uint8(k), 0, 0, 0, 0)
				binary.LittleEndian.PutUint32(c.delta[len(c.delta)-4:], g[k])
			}
		}
		c.at = append(c.at, deltaBit|uint32(off))
		return
	}
	c.at = append(c.at, uint32(len(c.full)))
	c.full = append(c.full, *g)
}

func (c *groupStore) grow() {
	t := make([]uint32, len(c.table)*2)
	mask := uint64(len(t) - 1)
	for id, h := range c.fp {
		i := uint64(h) & mask
		for t[i] != 0 {
			i = (i + 1) & mask
		}
		t[i] = uint32(id) + 1
	}
	c.table = t
}

// bytes is the memory the groups take.
func (c *groupStore) bytes() int64 {
	return int64(len(c.full))*int64(unsafe.Sizeof(sim.Group{})) + int64(len(c.at))*(4+4) + int64(len(c.delta)) +
		int64(len(c.table))*4 + int64(unsafe.Sizeof(*c.halves))*int64(min(len(c.at), 1))
}
