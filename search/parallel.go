package search

import (
	"context"
	"encoding/binary"
	"github.com/hc11mc/hc11mc/verdict"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/internal/prefetch"
	"github.com/hc11mc/hc11mc/internal/proviso"
	"github.com/hc11mc/hc11mc/sim"
)

// Parallel search (Options.Workers > 1, breadth-first and depth-first).
//
// Ownership is partitioned by hash: worker w owns the states whose memory
// maps to w (owner: the hash of the key's scheduler bytes and page ids),
// and keeps them in a store of its own — its own table, recent cache and
// arena, on which it takes no lock. The ids in keys come from one
// interner shared by all (intern.go: lookups without a lock, additions
// under a mutex per shard, and a cache per worker in front), so that a
// key string means the same to every worker. A worker expands the states
// it owns; it encodes each successor's key incrementally (sim.ParentKey),
// inserts a successor it owns at once, and appends one it does not to a
// batch for the owner: the key, its hash, the label, the parent's id, the
// depth and the state packed (sim.ParentPacked, which packs a successor
// from its parent's packed form; a packed state holds ids, not pointers).
// The owner inserts the key and, when it is new, keeps the packed bytes as
// a frontier state, unpacked when its turn comes (its pages are then the
// interner's, which nobody writes). So nothing is shared between workers
// but the interner, its pages, and — with hash compaction, whose store
// keeps no parent links — the trail nodes that lead to frontier states,
// which are never written once made.
//
// Why the memory and not the whole key: a transition that writes no
// memory (most instructions: loads, compares, branches, arithmetic on
// registers) changes only the thread that ran, so its successor stays with
// the worker that made it. On the dining philosophers (philo_big,
// breadth-first, --reduce none) about 10% of the successors go to another
// worker with two workers, where hashing the whole key sends half of
// them; the first 3 million states fall on 13,345 memory contents, the
// largest holding 0.24% of them, and the two workers store 49.5% and
// 50.5%. Packing the states sent and taking them in then cost about 5% of
// a search of one, where it cost 20–25% with half the successors sent. A
// program whose states share a few memory contents would load the
// workers unevenly (all of them on one, at worst, which is a search of
// one with an idle worker); the states stored are the same either way.
// A worker also remembers up to 1024 keys it sent last (sentBefore) and
// does not send one again: about a tenth of what it would send.
//
// The alternative, one table shared by all workers (a lock-free table, or
// shards under locks), would let each worker keep every successor it
// finds; but every probe would touch memory other cores write, and the
// store's tuning (the recent cache, the ordered table that grows by a
// sequential merge, arena records found by position) assumes one writer.
// Partitioning keeps that tuning as it is.
//
// Breadth-first search runs level by level: the workers expand the states
// of depth d, those of depth d+1 arrive in their next frontiers, and a
// barrier separates the levels (after every worker has sent its last
// batch, and again after each has received all of them). So the depth of
// every state is its depth in a breadth-first search of one, and a
// counterexample is as short as one can be. Depth-first search has no
// levels: each worker runs its own stack, and pushes the states it
// receives onto it. It ends when every worker is idle and no batch is in
// flight: work counts the workers that are not idle plus the batches sent
// and not yet taken in, and the worker that brings it to 0 ends the
// search. Best-first, A* and random orders rank all frontier states
// against each other, which partitioning does not give; they, a resumed
// search, one that may save its frontier (Options.SaveReserve) and a
// swarm member (Options.Shuffle, Options.Pause) run one worker.
//
// Parent links cross workers: a record names its parent by worker and id
// (store.putRef), and paths are rebuilt after every worker has stopped.
// The first violation stops every worker (unless Options.All). Partial-
// order reduction follows an ample candidate only when its successor is
// owned by the expanding worker and new: the cycle proviso is then decided
// exactly, as in a search of one. The candidates are register-only
// instructions (sim/reduce.go), which write no memory, so their successors
// always stay with the worker. Dead-data elimination is in the keys
// already.
//
// Limits: each worker publishes how many states it has stored and
// expanded every 32 expansions, and checks the sum of the stored states
// against Options.MaxStates (so a search may store a few hundred states
// more than the limit before every worker sees it); every 1024 it checks
// the context, the time, and the process's memory against
// Options.MaxMemory (memWatch, with its own store and frontier for what is
// about to grow).
//
// Exhaustive searches with any number of workers store exactly the states
// of a search of one (TestParallelCounts, with --reduce none; with
// partial-order reduction the proviso, and so the states stored, depend on
// the order).

// parallelWorkers returns the number of workers a search with opts runs:
// Options.Workers where the strategy and options allow more than one.
func parallelWorkers(opts *Options) int {
	if opts.Workers <= 1 || opts.Strategy != BFS && opts.Strategy != DFS ||
		opts.Resume != nil || opts.SaveReserve || opts.Shuffle != 0 || opts.Pause != nil {
		return 1
	}
	return min(opts.Workers, maxWorkers)
}

// maxWorkers bounds the workers of one search (the record links and the
// owner function allow far more).
const maxWorkers = 256

// batchLen is the number of states a batch carries: large enough that
// handing it over (a mutex, perhaps a wake-up) is a small part of the
// work, small enough to stay in a core's caches.
const batchLen = 256

// slabSize is the size of the chunks packed frontier states are copied
// into, instead of an allocation each.
const slabSize = 64 << 10

// msgMeta describes one state of a batch: its bytes in batch.data are its
// key, then its label (sim.AppendLabel), then the state packed, up to the
// next state's off.
type msgMeta struct {
	fp     uint64 // the key's xxhash
	trail  *trail // compact mode: the parent's trail
	parent uint32 // the parent's id in the store of its owner, src
	src    uint32
	depth  uint32
	off    uint32
	keyLen uint16
	labLen uint8
}

// batch is states sent by one worker to another.
type batch struct {
	meta []msgMeta
	data []byte
}

var batchPool = sync.Pool{New: func() any { return &batch{} }}

// inbox is where a worker receives batches.
type inbox struct {
	mu   sync.Mutex
	q    []*batch
	n    atomic.Int32  // len(q), to look without the lock
	wake chan struct{} // a token when a batch arrives
	idle atomic.Bool   // the worker waits for a batch (depth-first)
	_    [64]byte
}

func (ib *inbox) put(b *batch) {
	ib.mu.Lock()
	ib.q = append(ib.q, b)
	ib.n.Add(1)
	ib.mu.Unlock()
	select {
	case ib.wake <- struct{}{}:
	default:
	}
}

// take returns the batches received, giving spare for the next ones.
func (ib *inbox) take(spare []*batch) []*batch {
	ib.mu.Lock()
	q := ib.q
	ib.q = spare[:0]
	ib.n.Store(0)
	ib.mu.Unlock()
	return q
}

// counter is a worker's published count, on a cache line of its own.
type counter struct {
	stored, expanded atomic.Int64
	_                [48]byte
}

// barrier is a reusable barrier for the workers of a breadth-first search.
// wait also sums a number over them, and tells them all the same answer
// of halted, asked once all have arrived, so that they all go on or all
// stop; the last to arrive runs last (when they go on), before any leaves.
type barrier struct {
	mu                    sync.Mutex
	cond                  sync.Cond
	n, arrived, sum, last int
	gen                   uint64
	halted                func() bool
	stop                  bool
}

func (b *barrier) wait(x int, last func()) (sum int, stop bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	g := b.gen
	b.sum += x
	b.arrived++
	if b.arrived == b.n {
		b.last, b.sum, b.arrived = b.sum, 0, 0
		b.stop = b.halted()
		if last != nil && !b.stop && b.last > 0 {
			last()
		}
		b.gen++
		b.cond.Broadcast()
	} else {
		for g == b.gen {
			b.cond.Wait()
		}
	}
	return b.last, b.stop
}

// pfound is a violation found by a worker, with where its path starts.
type pfound struct {
	v      *sim.Violation
	worker int
	id     uint32
	trail  *trail
	label  *sim.Label
}

// parallel is what the workers of one search share.
type parallel struct {
	levels   int // breadth-first: the levels begun (nextLevel), all but the last expanded completely
	ctx      context.Context
	m        *sim.Machine
	opts     *Options
	in       *interner
	w        []*pworker
	nw       uint64
	start    time.Time
	deadline time.Time

	halt     atomic.Bool   // a violation or a limit stops the search
	done     chan struct{} // closed when the search ends, for any reason
	doneOnce sync.Once
	work     atomic.Int64 // depth-first: workers not idle + batches in flight
	counts   []counter
	bar      barrier

	mu       sync.Mutex // guards the rest
	limit    verdict.Stop
	found    []pfound
	reported map[sim.Kind]bool
}

// owner returns the worker that owns the state whose key is key: by the
// hash of the key's memory part, the scheduler bytes and the pages' ids
// that follow the threads' ids (sim.State.AppendKey).
func (p *parallel) owner(key []byte) int {
	n, at := binary.Uvarint(key)
	for ; n > 0 && at < len(key); n-- {
		for at < len(key) && key[at] >= 0x80 {
			at++
		}
		at++
	}
	return p.ownerOfHash(xxhash.Sum64(key[min(at, len(key)):]))
}

func (p *parallel) ownerOfHash(h uint64) int { return int(h >> 32 * p.nw >> 32) }

// ownerOf returns the owner of state s, whose key is key. With
// partial-order reduction, by the hash of its memory outside the threads'
// stack regions (sim.Machine.SharedHash): a stack-private transition
// then keeps its successor with the worker that must decide on it, as
// an ample transition is only taken to a state the worker owns.
func (p *parallel) ownerOf(key []byte, s *sim.State) int {
	if !p.opts.Reduce {
		return p.owner(key)
	}
	return p.ownerOfHash(p.m.SharedHash(s))
}

func (p *parallel) end() { p.doneOnce.Do(func() { close(p.done) }) }

// stop ends the search for a limit (limit.Stopped()) or a violation.
func (p *parallel) stop(limit verdict.Stop) {
	p.mu.Lock()
	if !p.limit.Stopped() && !p.halt.Load() {
		p.limit = limit
	}
	p.halt.Store(true)
	p.mu.Unlock()
	p.end()
}

// pworker is one worker of a parallel search.
type pworker struct {
	p   *parallel
	id  int
	in  *localInterner
	st  *store
	exp *sim.Expander
	par sim.ParentKey
	// pp is the packed form of the state being expanded, made when a
	// successor is first packed (ppSet).
	pp    sim.ParentPacked
	ppSet bool
	cur   *sim.State // a packed state unpacked
	// f is the stack (depth-first) or the next level (breadth-first);
	// level is the level being expanded.
	f     *frontier
	level []node
	pos   atomic.Int64 // breadth-first: the next state of level to take
	left  int          // breadth-first: states taken but not expanded, when the search stopped
	src   int          // the worker whose store has the state being expanded
	n     node         // the state being expanded (a field: a pointer to it would escape)
	out   []*batch
	inbox inbox
	spare []*batch
	dest  []int // the owner of each successor of a batch, -1 for a violation
	node  *node // the state being expanded
	slab  []byte
	pack  []byte

	halted  bool
	packing bool
	packAt  int // the frontier size from which states are kept packed (packFrom)
	ticks   int

	sim                                      sim.Stats
	expanded, transitions, reduced, maxDepth int
	covered                                  coverage
	mw                                       memWatch
	peak                                     int64
	lastProgress                             time.Time

	sent    [sentSize]sentKey
	onBatch func([]sim.Succ)
	onAmple func(*sim.State, sim.Label) bool
}

// runParallel is Run for nw workers.
func runParallel(ctx context.Context, m *sim.Machine, opts Options, nw int, start time.Time) *Result {
	p := &parallel{ctx: ctx, m: m, opts: &opts, in: newInterner(m.CanonicalKey), nw: uint64(nw), start: start,
		done: make(chan struct{}), counts: make([]counter, nw), reported: map[sim.Kind]bool{}}
	if opts.Timeout > 0 {
		p.deadline = start.Add(opts.Timeout)
	}
	p.bar.n = nw
	p.bar.cond.L = &p.bar.mu
	p.bar.halted = p.halt.Load
	for i := range nw {
		st := newStore(opts.Compact)
		st.workers = nw
		w := &pworker{p: p, id: i, in: &localInterner{interner: p.in}, st: st, exp: m.NewExpander(), cur: &sim.State{}, sim: sim.Stats{Through: new(sim.PCSet)}, f: newFrontier(&Options{Strategy: DFS}),
			out: make([]*batch, nw), packing: opts.Strategy == BFS, packAt: packFrom(m.Initial()), lastProgress: start}
		w.inbox.wake = make(chan struct{}, 1)
		for j := range w.out {
			if j != i {
				w.out[j] = batchPool.Get().(*batch)
			}
		}
		st.view = keyView(m)
		w.par.View = st.view
		w.onBatch = w.batch
		w.onAmple = w.ample
		w.mw.start(st, w.f)
		p.w = append(p.w, w)
	}
	// The initial state, on pages of its own: the machine's are shared by
	// every search of it, and the store writes the tags of the pages of
	// the states it keeps.
	if opts.private {
		// Workers own states by a hash of what lies outside the stack
		// regions: the regions must not shrink while they run.
		m.StrictPrivacy()
	}
	init := m.Initial()
	for i, pg := range init.Pages {
		init.Pages[i] = &sim.Page{Data: pg.Data}
	}
	kinit := init
	if v := keyView(m); v != nil {
		kinit = v(init)
	}
	enc := kinit.AppendKey(nil, p.in)
	h := xxhash.Sum64(enc)
	w0 := p.w[p.ownerOf(enc, init)]
	w0.st.reserve(1)
	w0.st.keys[0].enc = enc
	w0.st.finish(&w0.st.keys[0], h)
	id, _ := w0.st.insertRef(0, rootRef, sim.Label{})
	w0.f.push(node{s: init, id: id})
	p.counts[w0.id].stored.Store(1)

	p.work.Store(int64(nw))
	var wg sync.WaitGroup
	for _, w := range p.w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if opts.Strategy == BFS {
				w.runBFS()
			} else {
				w.runDFS()
			}
		}()
	}
	wg.Wait()
	p.end()
	return p.result()
}

// ref is the reference to state id of this worker.
// parentRef is the reference to the state being expanded, in the store of
// its owner.
func (w *pworker) parentRef() uint64 { return uint64(w.src)<<32 | uint64(w.node.id) }

// runBFS expands level after level.
func (w *pworker) runBFS() {
	p := w.p
	for {
		// Its own states first, then those the others have not come to
		// (not under partial-order reduction: a worker expands another's
		// state in full, as the state's proviso flags are the owner's).
		for k := range p.w {
			if k > 0 && p.opts.Reduce {
				break
			}
			w.expandLevel(p.w[(w.id+k)%len(p.w)])
		}
		if !w.halted {
			w.flushAll()
		}
		p.bar.wait(0, nil)
		if !p.halt.Load() {
			w.poll()
		}
		if total, stop := p.bar.wait(w.f.len(), p.nextLevel); total == 0 || stop {
			return
		}
	}
}

// claim is the number of states of a level a worker takes at a time.
const claim = 8

// expandLevel expands states of the level of worker v (which may be w)
// that no worker has taken yet. Any worker may expand a state: the
// successors go to their owners, and the parent links to v's store. So a
// worker that is done with its own states takes on those of the others,
// and the level ends about when the last of its states is expanded,
// however unevenly the levels fall on the workers.
func (w *pworker) expandLevel(v *pworker) {
	for !w.halted {
		i := int(v.pos.Add(claim)) - claim
		if i >= len(v.level) {
			return
		}
		end := min(i+claim, len(v.level))
		for j := i; j < end; j++ {
			if w.halted {
				w.left += end - j
				return
			}
			if j+1 < end && v.level[j+1].packed != nil {
				// Stored long ago: fetched while this one is expanded
				// (only within the claim: the next is another's to take).
				prefetch.Slice(v.level[j+1].packed)
			}
			w.n, w.src = v.level[j], v.id
			v.level[j] = node{}
			w.expand(&w.n)
			w.tick()
		}
	}
}

// nextLevel makes every worker's next frontier its level; it runs once
// every worker has received all of the level's states.
func (p *parallel) nextLevel() {
	// The barrier calls it only when no worker was halted: every state of
	// the level was expanded (levels.go). Its first call makes the
	// initial state the first level, when none was expanded yet.
	p.levels++
	for _, w := range p.w {
		w.level, w.f.list = w.f.list, w.level[:0]
		w.pos.Store(0)
	}
}

// levelLeft is the number of states of w's level not taken yet.
func (w *pworker) levelLeft() int { return max(0, len(w.level)-int(w.pos.Load())) }

// runDFS pops its stack until the search ends.
func (w *pworker) runDFS() {
	for !w.halted {
		if w.f.len() == 0 {
			if !w.idle() {
				return
			}
			continue
		}
		w.n, w.src = w.f.pop(), w.id
		w.expand(&w.n)
		w.tick()
	}
}

// idle waits for a batch when the worker has nothing to expand; false
// means the search is over.
func (w *pworker) idle() bool {
	p := w.p
	w.poll()
	if w.f.len() > 0 {
		return true
	}
	w.flushAll()
	w.inbox.idle.Store(true)
	if p.work.Add(-1) == 0 {
		p.end()
		return false
	}
	for {
		select {
		case <-w.inbox.wake:
			if w.inbox.n.Load() == 0 {
				continue
			}
			w.inbox.idle.Store(false)
			p.work.Add(1)
			w.poll()
			return true
		case <-p.done:
			w.halted = true
			return false
		}
	}
}

// tick is called after each expansion: it takes in batches, and checks
// the limits now and then.
func (w *pworker) tick() {
	p := w.p
	w.ticks++
	if w.st.full {
		p.stop(stopFull)
		w.halted = true
		return
	}
	if p.opts.private && p.m.Intrusion() != nil {
		p.stop(stopPrivacy)
		w.halted = true
		return
	}
	if p.opts.dead && p.m.DeadBroken() != nil {
		p.stop(stopDead)
		w.halted = true
		return
	}
	if w.ticks&31 != 0 {
		return
	}
	if p.halt.Load() {
		w.halted = true
		return
	}
	if w.inbox.n.Load() > 0 {
		w.poll()
	}
	if !w.packing {
		// Depth-first: an idle worker gets what is waiting for it.
		for o, b := range w.out {
			if b != nil && len(b.meta) > 0 && p.w[o].inbox.idle.Load() {
				w.flush(o)
			}
		}
	}
	if w.atMaxStates() {
		return
	}
	opts := p.opts
	if w.ticks&1023 != 0 {
		return
	}
	if p.ctx.Err() != nil {
		p.stop(stopInterrupted)
		return
	}
	now := time.Now()
	if !p.deadline.IsZero() && now.After(p.deadline) {
		p.stop(verdict.Timeout(opts.Timeout))
		return
	}
	progress := w.id == 0 && opts.Progress != nil && now.Sub(w.lastProgress) >= time.Second
	if progress || opts.MaxMemory > 0 || gcHeld() {
		mem, free := memoryInUse()
		gcGrown(mem)
		w.peak = max(w.peak, mem)
		if opts.MaxMemory > 0 && w.mw.need(w.st, w.f, mem-free) > opts.MaxMemory {
			p.stop(verdict.MaxMemory(opts.MaxMemory))
			return
		}
		if progress {
			w.lastProgress = now
			stored, expanded := p.sums()
			opts.Progress(Progress{Stored: stored, Expanded: expanded, Depth: w.maxDepth,
				Frontier: stored - expanded, Memory: mem, Elapsed: now.Sub(p.start)})
		}
	}
}

// sums returns the states stored and expanded, as the workers last
// published them.
func (p *parallel) sums() (stored, expanded int) {
	for i := range p.counts {
		stored += int(p.counts[i].stored.Load())
		expanded += int(p.counts[i].expanded.Load())
	}
	return
}

// expand generates the successors of n, inserting those the worker owns
// and sending the others to their owners.
func (w *pworker) expand(n *node) {
	p := w.p
	w.ppSet = false
	if n.packed != nil {
		// Unpacking it leaves its packed form ready for packing its
		// successors.
		if err := w.pp.Unpack(w.cur, n.packed, -1, w.in); err != nil {
			panic("search: a packed frontier state does not unpack: " + err.Error())
		}
		n.s, w.ppSet = w.cur, true
	}
	w.expanded++
	w.maxDepth = max(w.maxDepth, n.depth)
	for i := range n.s.Threads {
		if n.s.Threads[i].Status != sim.Exited {
			w.covered.add(n.s.Threads[i].PC)
		}
	}
	w.par.Set(n.s, w.in)
	w.node = n
	// The cycle proviso's flags (proviso in search.go) are in the store
	// of the state's owner: a state taken from another worker's level is
	// expanded in full, as its flags are not this worker's to write.
	var fl *uint8
	reduce := p.opts.Reduce && w.src == w.id
	if reduce && !w.st.compact {
		fl = w.st.flags(n.id)
	}
	if reduce && proviso.Try(fl) && w.exp.AmpleCandidates(n.s, &w.sim, w.onAmple) {
		w.transitions++
		w.reduced++
	} else {
		proviso.Expand(fl)
		if dl := w.exp.ExpandBatch(n.s, &w.sim, w.onBatch); dl != nil && !w.halted {
			w.report(dl, n, nil)
		}
	}
	if n.s != w.cur {
		w.exp.Release(n.s)
	}
	w.node = nil
}

// ample decides on an ample candidate (see sim.Expander.AmpleCandidates):
// taken when the worker owns its successor and the cycle proviso allows
// it (proviso in search.go).
func (w *pworker) ample(next *sim.State, l sim.Label) bool {
	st := w.st
	st.reserve(1)
	key := &st.keys[0]
	key.enc = w.par.AppendSuccessor(key.enc[:0], next, l.Thread, w.in)
	if w.p.ownerOf(key.enc, next) != w.id {
		return false
	}
	st.finish(key, xxhash.Sum64(key.enc))
	id, isNew := st.insertRef(0, w.parentRef(), l)
	if isNew {
		w.push(next, id, l)
		return true
	}
	return acceptAmple(st, id)
}

// batch takes a batch of successors of w.node (sim.Expander.ExpandBatch):
// all keys are computed first, so that the table slots of those the
// worker owns are fetched while the others are encoded.
func (w *pworker) batch(b []sim.Succ) {
	if w.halted {
		return
	}
	st, in := w.st, w.in
	st.reserve(len(b))
	w.dest = w.dest[:0]
	for i := range b {
		o := -1
		if b[i].Violation == nil {
			key := &st.keys[i]
			key.enc = w.par.AppendSuccessor(key.enc[:0], b[i].State, b[i].Label.Thread, in)
			h := xxhash.Sum64(key.enc)
			if o = w.p.ownerOf(key.enc, b[i].State); o == w.id {
				st.finish(key, h)
			} else {
				key.fp = h
			}
		}
		w.dest = append(w.dest, o)
	}
	n := w.node
	for i := range b {
		sc := &b[i]
		w.transitions++
		switch o := w.dest[i]; {
		case o < 0:
			if w.report(sc.Violation, n, &sc.Label) {
				return
			}
		case o == w.id:
			if id, isNew := st.insertRef(i, w.parentRef(), sc.Label); isNew {
				w.push(sc.State, id, sc.Label)
			}
		default:
			if !w.sentBefore(&st.keys[i]) {
				w.send(o, &st.keys[i], sc)
			}
		}
	}
}

// push keeps a new state s, a successor of w.node by l stored as id, in
// the frontier: as it is, or packed in a wide breadth-first frontier.
func (w *pworker) push(s *sim.State, id uint32, l sim.Label) {
	n := w.node
	nn := node{id: id, depth: n.depth + 1}
	if w.packing && w.f.len()+w.levelLeft() >= w.packAt/len(w.p.w) {
		w.pack = w.packed(w.pack[:0], s, l.Thread)
		nn.packed = w.keep(w.pack)
	} else {
		nn.s = w.exp.Keep(s)
	}
	if w.st.compact {
		nn.trail = &trail{parent: n.trail, label: l}
	}
	w.f.push(nn)
}

// packed appends s, a successor of w.node in which thread moved ran, to
// b packed.
func (w *pworker) packed(b []byte, s *sim.State, moved int) []byte {
	if !w.ppSet {
		w.pp.Set(w.node.s, w.in)
		w.ppSet = true
	}
	return w.pp.AppendSuccessor(b, s, moved, w.in)
}

// keep copies b into the worker's slab.
func (w *pworker) keep(b []byte) []byte {
	if len(w.slab)+len(b) > cap(w.slab) {
		w.slab = make([]byte, 0, max(slabSize, len(b)))
	}
	at := len(w.slab)
	w.slab = append(w.slab, b...)
	return w.slab[at:len(w.slab):len(w.slab)]
}

// sentBefore reports whether the worker sent a state with key's string
// recently, to the state's owner: then it is stored, or will be before
// the owner takes in anything the worker sends later, and need not be
// sent again. It remembers key otherwise.
func (w *pworker) sentBefore(key *prepKey) bool {
	if len(key.enc) > len(sentKey{}.k) {
		return false
	}
	e := &w.sent[key.fp&(sentSize-1)]
	if e.fp == key.fp && int(e.n) == len(key.enc) && string(e.k[:e.n]) == string(key.enc) {
		return true
	}
	e.fp, e.n = key.fp, uint8(copy(e.k[:], key.enc))
	return false
}

// sentKey is an entry of a worker's cache of the keys it sent.
type sentKey struct {
	fp uint64
	n  uint8
	k  [23]byte
}

// sentSize is the number of entries of the cache of keys sent: 32 KiB.
const sentSize = 1 << 10

// send appends a successor of w.node to the batch for worker o.
func (w *pworker) send(o int, key *prepKey, sc *sim.Succ) {
	b := w.out[o]
	n := w.node
	m := msgMeta{fp: key.fp, parent: n.id, src: uint32(w.src), depth: uint32(n.depth + 1), off: uint32(len(b.data)), keyLen: uint16(len(key.enc))}
	if w.st.compact {
		m.trail = n.trail
	}
	b.data = append(b.data, key.enc...)
	at := len(b.data)
	b.data = sim.AppendLabel(b.data, sc.Label)
	m.labLen = uint8(len(b.data) - at)
	b.data = w.packed(b.data, sc.State, sc.Label.Thread)
	b.meta = append(b.meta, m)
	if len(b.meta) >= batchLen {
		w.flush(o)
	}
}

// flush sends the batch for worker o.
func (w *pworker) flush(o int) {
	b := w.out[o]
	if len(b.meta) == 0 {
		return
	}
	w.p.work.Add(1)
	w.out[o] = batchPool.Get().(*batch)
	w.p.w[o].inbox.put(b)
}

func (w *pworker) flushAll() {
	for o, b := range w.out {
		if b != nil {
			w.flush(o)
		}
	}
}

// atMaxStates publishes the worker's counts and, when the workers
// together have stored --max-states states, stops the search and halts
// the worker.
func (w *pworker) atMaxStates() bool {
	p := w.p
	c := &p.counts[w.id]
	c.stored.Store(int64(w.st.n))
	c.expanded.Store(int64(w.expanded))
	if p.opts.MaxStates > 0 {
		if stored, _ := p.sums(); stored >= p.opts.MaxStates {
			p.stop(verdict.MaxStates(p.opts.MaxStates))
			w.halted = true
			return true
		}
	}
	return false
}

// poll takes in the batches received. Each batch counts towards
// --max-states as it is stored: a worker that falls behind (a loaded
// machine) may find thousands of states waiting, which would otherwise
// all be stored past the limit before it looks.
func (w *pworker) poll() {
	for w.inbox.n.Load() > 0 {
		q := w.inbox.take(w.spare)
		for i, b := range q {
			w.receive(b)
			q[i] = nil
			if !w.halted && w.p.opts.MaxStates > 0 {
				w.atMaxStates()
			}
		}
		w.spare = q
	}
}

// receive inserts the states of a batch, keeping the new ones in the
// frontier.
func (w *pworker) receive(b *batch) {
	st := w.st
	if !w.halted {
		st.reserve(len(b.meta))
		for i := range b.meta {
			m := &b.meta[i]
			key := &st.keys[i]
			key.enc = append(key.enc[:0], b.data[m.off:m.off+uint32(m.keyLen)]...)
			st.finish(key, m.fp)
		}
		for i := range b.meta {
			m := &b.meta[i]
			at := m.off + uint32(m.keyLen)
			l, _ := sim.ReadLabel(b.data[at : at+uint32(m.labLen)])
			id, isNew := st.insertRef(i, uint64(m.src)<<32|uint64(m.parent), l)
			if !isNew {
				continue
			}
			end := uint32(len(b.data))
			if i+1 < len(b.meta) {
				end = b.meta[i+1].off
			}
			nn := node{id: id, depth: int(m.depth), packed: w.keep(b.data[at+uint32(m.labLen) : end])}
			if st.compact {
				nn.trail = &trail{parent: m.trail, label: l}
			}
			w.f.push(nn)
		}
	}
	clear(b.meta)
	b.meta, b.data = b.meta[:0], b.data[:0]
	batchPool.Put(b)
	w.p.work.Add(-1)
}

// report records a violation found by expanding n (by the transition l,
// or n's deadlock when l is nil), unless its kind was reported or is
// ignored; true means the search stops.
func (w *pworker) report(v *sim.Violation, n *node, l *sim.Label) bool {
	p := w.p
	if p.opts.Ignore[v.Kind] {
		return false
	}
	p.mu.Lock()
	if p.reported[v.Kind] {
		p.mu.Unlock()
		return false
	}
	p.reported[v.Kind] = true
	f := pfound{v: v, worker: w.src, id: n.id, trail: n.trail}
	if l != nil {
		lc := *l
		f.label = &lc
	}
	p.found = append(p.found, f)
	p.mu.Unlock()
	if p.opts.All {
		return false
	}
	p.stop(noStop)
	w.halted = true
	return true
}

// path returns the labels from the initial state to state id of worker
// wk (exact mode), once the workers have stopped.
func (p *parallel) path(wk int, id uint32) []sim.Label {
	var ls []sim.Label
	for ref := uint64(wk)<<32 | uint64(id); ; {
		par, l := p.w[ref>>32].st.recordRef(uint32(ref))
		if par == rootRef {
			break
		}
		ls = append(ls, l)
		ref = par
	}
	reverse(ls)
	return ls
}

// result sums up what the workers did, once they have stopped.
func (p *parallel) result() *Result {
	res := &Result{Covered: map[uint16]bool{}}
	var peak int64
	s := &res.Stats
	for _, w := range p.w {
		s.StatesStored += w.st.n
		s.StatesExpanded += w.expanded
		s.Transitions += w.transitions
		s.Reduced += w.reduced
		s.Private += int(w.sim.Private)
		s.MaxDepth = max(s.MaxDepth, w.maxDepth)
		s.Instructions += w.sim.Instructions
		s.RunBoundHits += w.sim.RunBoundHits
		s.StoreBytes += w.st.usedBytes()
		s.Frontier += w.f.len() + w.levelLeft() + w.left
		for _, b := range w.inbox.q {
			s.Frontier += len(b.meta)
		}
		for _, b := range w.out {
			if b != nil {
				s.Frontier += len(b.meta)
			}
		}
		peak = max(peak, w.peak)
		if w.sim.Through != nil {
			w.sim.Through.Each(w.covered.add)
		}
		w.covered.into(res.Covered)
	}
	s.StoreBytes += p.in.bytes()
	s.Workers = len(p.w)

	s.Seconds = time.Since(p.start).Seconds()
	s.SecondsTotal = s.Seconds
	mem, _ := memoryInUse()
	s.PeakMemory = max(peak, mem)
	if p.opts.Compact {
		n := float64(s.StatesStored)
		res.Omission = n * n / 2 / math.Pow(2, 64)
	}
	for _, f := range p.found {
		var tr []sim.Label
		if p.opts.Compact {
			tr = f.trail.path()
		} else {
			tr = p.path(f.worker, f.id)
		}
		if f.label != nil {
			tr = append(tr, *f.label)
		}
		res.Found = append(res.Found, Found{Violation: TrueInterval(p.m, tr, f.v), Trace: tr})
	}
	switch {
	case p.limit.Stopped():
		res.Verdict, res.Limit = Incomplete, p.limit
		lv := newLevels(p.opts)
		if res.LevelsNote = lv.note; lv.bfs {
			res.Levels = max(0, p.levels-1)
			if mutation.On(mutation.DeepClaim) {
				res.Levels++
			}
		}
	case len(res.Found) > 0:
		res.Verdict = Violated
	default:
		res.Verdict = Verified
	}
	return res
}
