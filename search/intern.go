package search

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/hc11mc/hc11mc/sim"
)

// interner numbers thread contexts and page contents for all the workers
// of a parallel search (see parallel.go), so that a state's key means the
// same to every worker: it is the sim.Resolver they all encode, pack and
// unpack states with, and any number of goroutines may use it at once.
//
// Lookups take no lock. Each of internShards shards has an open-addressing
// table of ids whose slots are read and written atomically, and keeps its
// entries in chunks that never move, listed in a directory that is
// replaced, never changed; an entry is written before the slot that names
// it, and a table that grows is replaced whole. A lookup that misses takes
// the shard's mutex, looks again in the current table and adds the entry.
// New contexts and pages are rare once a search is under way (a few
// thousand against billions of lookups), so the tables are read-mostly
// and stay in every core's cache.
//
// Ids are global: an entry's id is its index in its shard times
// internShards, plus the shard. The store caches ids in sim.Thread.Tag and
// sim.Page.Tag; the interner writes the tags of the threads and pages of
// the states a worker owns only, never of a page it hands out: its own
// pages (Page) are made, hashed and tagged before they are published, and
// nothing writes them afterwards.
type interner struct {
	gen uint64
	// canon is the key threads are numbered by (sim.Machine.CanonicalKey).
	canon func(*sim.Thread) sim.ThreadKey
	ctxs  [internShards]ctxShard
	pages [internShards]pageShard
	// groups are the groups of page ids of states of many pages
	// (sim.GroupPages): rare, so one table under a lock.
	groupMu sync.RWMutex
	groups  groupTable
}

const (
	internShardBits = 4
	internShards    = 1 << internShardBits
	ctxChunkBits    = 10 // 1024 contexts (16 KiB) per chunk
	pageChunkBits   = 8  // 256 pages (about 24 KiB) per chunk
)

func newInterner(canon func(*sim.Thread) sim.ThreadKey) *interner {
	in := &interner{gen: storeGen.Add(1) & 0xffffffff, canon: canon}
	for i := range in.ctxs {
		in.ctxs[i].init()
		in.pages[i].init()
	}
	in.groups.init()
	return in
}

// GroupID returns the id of group g (sim.Interner).
func (in *interner) GroupID(g *sim.Group) uint32 {
	in.groupMu.RLock()
	t := &in.groups
	mask := uint64(len(t.table) - 1)
	for i := groupHash(g) & mask; ; i = (i + 1) & mask {
		e := t.table[i]
		if e == 0 {
			break
		}
		if t.groups[e-1] == *g {
			in.groupMu.RUnlock()
			return e - 1
		}
	}
	in.groupMu.RUnlock()
	in.groupMu.Lock()
	defer in.groupMu.Unlock()
	return in.groups.intern(g)
}

// Group returns the page ids of group id (sim.Resolver); a copy, since
// the table may grow while the caller reads it.
func (in *interner) Group(id uint32) *sim.Group {
	in.groupMu.RLock()
	defer in.groupMu.RUnlock()
	if int(id) >= len(in.groups.groups) {
		return nil
	}
	g := in.groups.groups[id]
	return &g
}

// probeTable is an open-addressing table of local ids + 1 (0: empty),
// read and written with atomic operations.
type probeTable struct {
	slots []uint32
	mask  uint64
}

func newProbeTable(n int) *probeTable {
	return &probeTable{slots: make([]uint32, n), mask: uint64(n - 1)}
}

// ctxShard is one shard of the thread contexts.
type ctxShard struct {
	tab  atomic.Pointer[probeTable]
	dir  atomic.Pointer[[]*[1 << ctxChunkBits]sim.ThreadKey]
	mu   sync.Mutex
	n    uint32 // entries, under mu
	size int64  // bytes held, under mu
	_    [64]byte
}

func (s *ctxShard) init() {
	s.tab.Store(newProbeTable(64))
	s.dir.Store(&[]*[1 << ctxChunkBits]sim.ThreadKey{})
}

func (s *ctxShard) key(local uint32) *sim.ThreadKey {
	return &(*s.dir.Load())[local>>ctxChunkBits][local&(1<<ctxChunkBits-1)]
}

// find returns the local id of k, whose hash is h, in table t.
func (s *ctxShard) find(t *probeTable, k sim.ThreadKey, h uint64) (uint32, bool) {
	for i := h >> internShardBits & t.mask; ; i = (i + 1) & t.mask {
		e := atomic.LoadUint32(&t.slots[i])
		if e == 0 {
			return 0, false
		}
		if *s.key(e - 1) == k {
			return e - 1, true
		}
	}
}

// intern returns the local id of k, adding it when new.
func (s *ctxShard) intern(k sim.ThreadKey, h uint64) uint32 {
	if id, ok := s.find(s.tab.Load(), k, h); ok {
		return id
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tab.Load()
	if id, ok := s.find(t, k, h); ok {
		return id
	}
	id := s.n
	d := *s.dir.Load()
	if int(id>>ctxChunkBits) == len(d) {
		nd := append(d[:len(d):len(d)], new([1 << ctxChunkBits]sim.ThreadKey))
		s.dir.Store(&nd)
		s.size += 16 << ctxChunkBits
		d = nd
	}
	d[id>>ctxChunkBits][id&(1<<ctxChunkBits-1)] = k
	s.n++
	if int(s.n)*2 > len(t.slots) {
		nt := newProbeTable(2 * len(t.slots))
		for j := uint32(0); j < s.n; j++ {
			kj := *s.key(j)
			i := ctxHash(kj) >> internShardBits & nt.mask
			for nt.slots[i] != 0 {
				i = (i + 1) & nt.mask
			}
			nt.slots[i] = j + 1
		}
		s.size += int64(len(nt.slots)) * 4
		s.tab.Store(nt)
		return id
	}
	i := h >> internShardBits & t.mask
	for atomic.LoadUint32(&t.slots[i]) != 0 {
		i = (i + 1) & t.mask
	}
	atomic.StoreUint32(&t.slots[i], id+1)
	return id
}

// pageShard is one shard of the page contents.
type pageShard struct {
	tab  atomic.Pointer[probeTable]
	dir  atomic.Pointer[[]*[1 << pageChunkBits]sim.Page]
	mu   sync.Mutex
	n    uint32
	size int64
	_    [64]byte
}

func (s *pageShard) init() {
	s.tab.Store(newProbeTable(64))
	s.dir.Store(&[]*[1 << pageChunkBits]sim.Page{})
}

func (s *pageShard) page(local uint32) *sim.Page {
	return &(*s.dir.Load())[local>>pageChunkBits][local&(1<<pageChunkBits-1)]
}

func (s *pageShard) find(t *probeTable, d *[sim.PageSize]byte, h uint64) (uint32, bool) {
	for i := h >> internShardBits & t.mask; ; i = (i + 1) & t.mask {
		e := atomic.LoadUint32(&t.slots[i])
		if e == 0 {
			return 0, false
		}
		if p := s.page(e - 1); p.Hash() == h && p.Data == *d {
			return e - 1, true
		}
	}
}

// intern returns the local id of a page with contents d, whose hash is h,
// adding it when new; the page it adds has its hash computed and its tag
// set to global, before any other goroutine can see it.
func (s *pageShard) intern(d *[sim.PageSize]byte, h uint64, gen uint64, shard uint32) uint32 {
	if id, ok := s.find(s.tab.Load(), d, h); ok {
		return id
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tab.Load()
	if id, ok := s.find(t, d, h); ok {
		return id
	}
	id := s.n
	dir := *s.dir.Load()
	if int(id>>pageChunkBits) == len(dir) {
		nd := append(dir[:len(dir):len(dir)], new([1 << pageChunkBits]sim.Page))
		s.dir.Store(&nd)
		s.size += int64(unsafe.Sizeof(*nd[0]))
		dir = nd
	}
	p := &dir[id>>pageChunkBits][id&(1<<pageChunkBits-1)]
	p.Data = *d
	p.Hash()
	p.Tag = gen<<32 | uint64(id<<internShardBits|shard)
	s.n++
	if int(s.n)*2 > len(t.slots) {
		nt := newProbeTable(2 * len(t.slots))
		for j := uint32(0); j < s.n; j++ {
			i := s.page(j).Hash() >> internShardBits & nt.mask
			for nt.slots[i] != 0 {
				i = (i + 1) & nt.mask
			}
			nt.slots[i] = j + 1
		}
		s.size += int64(len(nt.slots)) * 4
		s.tab.Store(nt)
		return id
	}
	i := h >> internShardBits & t.mask
	for atomic.LoadUint32(&t.slots[i]) != 0 {
		i = (i + 1) & t.mask
	}
	atomic.StoreUint32(&t.slots[i], id+1)
	return id
}

// ThreadID returns the id of t's context, cached in t.Tag (sim.Interner).
func (in *interner) ThreadID(t *sim.Thread) uint32 {
	if t.Tag>>32 == in.gen {
		return uint32(t.Tag)
	}
	k := in.canon(t)
	h := ctxHash(k)
	sh := uint32(h & (internShards - 1))
	id := in.ctxs[sh].intern(k, h)<<internShardBits | sh
	t.Tag = in.gen<<32 | uint64(id)
	return id
}

// ThreadKeyOf returns the key of context id (sim.Interner).
func (in *interner) ThreadKeyOf(id uint32) sim.ThreadKey {
	return *in.ctxs[id&(internShards-1)].key(id >> internShardBits)
}

// PageID returns the id of a page with p's contents, cached in p.Tag
// (sim.Interner). p is a page of a state the calling worker owns.
func (in *interner) PageID(p *sim.Page) uint32 {
	if p.Tag>>32 == in.gen {
		return uint32(p.Tag)
	}
	h := p.Hash()
	sh := uint32(h & (internShards - 1))
	id := in.pages[sh].intern(&p.Data, h, in.gen, sh)<<internShardBits | sh
	p.Tag = in.gen<<32 | uint64(id)
	return id
}

// LoadThread sets t's identity to context id's (sim.Resolver). Ids come
// from this interner only (a parallel search resumes nothing), so an id
// is never one it did not give.
func (in *interner) LoadThread(t *sim.Thread, id uint32) bool {
	s := &in.ctxs[id&(internShards-1)]
	local := id >> internShardBits
	if int(local>>ctxChunkBits) >= len(*s.dir.Load()) {
		return false
	}
	t.SetKey(*s.key(local))
	t.Tag = in.gen<<32 | uint64(id)
	return true
}

// Page returns the interner's copy of page id, which nothing writes
// (sim.Resolver).
func (in *interner) Page(id uint32) *sim.Page {
	s := &in.pages[id&(internShards-1)]
	local := id >> internShardBits
	if int(local>>pageChunkBits) >= len(*s.dir.Load()) {
		return nil
	}
	return s.page(local)
}

// bytes is the memory the interner holds; it is read when no worker runs.
func (in *interner) bytes() int64 {
	var n int64
	for i := range in.ctxs {
		n += in.ctxs[i].size + in.pages[i].size
	}
	n += int64(len(in.groups.groups))*int64(unsafe.Sizeof(sim.Group{})) + int64(len(in.groups.table))*4
	return n
}

// localInterner is a worker's view of the shared interner: the same ids,
// with direct-mapped caches of the thread contexts and pages the worker
// looked up, by key and by id, which it reads without the shared tables'
// indirections (a search has a few hundred contexts and pages, looked up
// several times per transition).
type localInterner struct {
	*interner
	ctx   [localCache]localCtx // by the key's hash
	byID  [localCache]localCtx // by id
	pages [localCache]localPage
}

type localCtx struct {
	k  sim.ThreadKey
	id uint32 // id+1; 0 empty
}

type localPage struct {
	p  *sim.Page
	id uint32 // id+1; 0 empty
}

const localCache = 1 << 10

// ThreadKeyOf is interner.ThreadKeyOf through the worker's cache.
func (li *localInterner) ThreadKeyOf(id uint32) sim.ThreadKey {
	e := &li.byID[id&(localCache-1)]
	if e.id != id+1 {
		e.k, e.id = li.interner.ThreadKeyOf(id), id+1
	}
	return e.k
}

// LoadThread is interner.LoadThread through the worker's cache.
func (li *localInterner) LoadThread(t *sim.Thread, id uint32) bool {
	e := &li.byID[id&(localCache-1)]
	if e.id != id+1 {
		if !li.interner.LoadThread(t, id) {
			return false
		}
		e.k, e.id = li.interner.ThreadKeyOf(id), id+1
	}
	t.SetKey(e.k)
	t.Tag = li.gen<<32 | uint64(id)
	return true
}

// Page is interner.Page through the worker's cache.
func (li *localInterner) Page(id uint32) *sim.Page {
	e := &li.pages[id&(localCache-1)]
	if e.id != id+1 {
		p := li.interner.Page(id)
		if p == nil {
			return nil
		}
		e.p, e.id = p, id+1
	}
	return e.p
}

// ThreadID is interner.ThreadID through the worker's cache.
func (li *localInterner) ThreadID(t *sim.Thread) uint32 {
	in := li.interner
	if t.Tag>>32 == in.gen {
		return uint32(t.Tag)
	}
	k := in.canon(t)
	h := ctxHash(k)
	e := &li.ctx[h>>internShardBits&(localCache-1)]
	var id uint32
	if e.id != 0 && e.k == k {
		id = e.id - 1
	} else {
		sh := uint32(h & (internShards - 1))
		id = in.ctxs[sh].intern(k, h)<<internShardBits | sh
		e.k, e.id = k, id+1
	}
	t.Tag = in.gen<<32 | uint64(id)
	return id
}
