package search

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/hc11mc/hc11mc/sim"
)

// TestOrderedTable: the compact store answers like a set, and its table
// keeps the invariants of an ordered hash table through growth, for
// uniform fingerprints and for ones crowded at the top of the range, which
// fill the slack past the nominal size (and make it longer).
func TestOrderedTable(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 9))
	for _, c := range []struct {
		name    string
		fp      func() uint64
		extends bool // the slack must have grown
	}{
		{"uniform", func() uint64 { return rnd.Uint64() | 1 }, false},
		// One in a hundred in the last 2^-40 of the range: a run at
		// the top longer than the slack, at every size.
		{"top", func() uint64 {
			if rnd.IntN(100) == 0 {
				return ^uint64(0) - rnd.Uint64N(1<<23)*2
			}
			return rnd.Uint64() | 1
		}, true},
	} {
		st := newStore(true)
		seen := map[uint64]bool{}
		for range 300000 {
			fp := c.fp()
			if got := st.insertFP(fp); got == seen[fp] {
				t.Fatalf("%s: insertFP(%#x) = %v after %d distinct", c.name, fp, got, len(seen))
			}
			seen[fp] = true
		}
		if st.n != len(seen) {
			t.Errorf("%s: %d stored, %d distinct", c.name, st.n, len(seen))
		}
		checkTable(t, c.name, &st.tab, len(seen), 0.53, 0.8, func(e uint64) bool { return seen[e] })
		if extended := len(st.tab.t) > st.tab.size+slack(st.tab.size); extended != c.extends {
			t.Errorf("%s: slack extended %v, want %v", c.name, extended, c.extends)
		}
	}
}

// TestOrderedTableExact: after a search, the exact store's table holds one
// entry per stored state — its fingerprint half over its id+1 — with the
// same invariants.
func TestOrderedTableExact(t *testing.T) {
	m := machine(t, "../testdata/bench/naive2.elf", sim.PreemptEvery)
	st := newStore(false)
	exp := m.NewExpander()
	queue := []*sim.State{m.Initial()}
	st.insert(queue[0], 0, sim.Label{})
	for n := 0; n < len(queue) && st.n < 100000; n++ {
		exp.Expand(queue[n], nil, func(next *sim.State, l sim.Label, v *sim.Violation) {
			if _, isNew := st.insert(next, 0, l); isNew {
				queue = append(queue, next.Clone())
			}
		})
	}
	ids := map[uint32]bool{}
	checkTable(t, "exact", &st.tab, st.n, 0.33, 0.8, // growAt: at two thirds twofold, then at 80% by half
		func(e uint64) bool {
			id := uint32(e) - 1
			if ids[id] {
				return false
			}
			ids[id] = true
			return xxhash.Sum64(st.encOf(id))>>32 == e>>32
		})
}

// checkTable checks an ordered table of n entries, each of which valid
// accepts: entries in increasing order, each at or after its home slot
// with no empty slot in between, and a load between lo and hi.
func checkTable(t *testing.T, name string, o *otable, n int, lo, hi float64, valid func(uint64) bool) {
	t.Helper()
	var prev uint64
	count := 0
	for i, e := range o.t {
		if e == 0 {
			continue
		}
		count++
		if e <= prev {
			t.Fatalf("%s: slot %d holds %#x after %#x", name, i, e, prev)
		}
		prev = e
		if !valid(e) {
			t.Fatalf("%s: slot %d holds %#x, never inserted", name, i, e)
		}
		h := o.home(e)
		if h > i {
			t.Fatalf("%s: %#x at slot %d before its home %d", name, e, i, h)
		}
		for j := h; j < i; j++ {
			if o.t[j] == 0 {
				t.Fatalf("%s: empty slot %d between %#x's home %d and its slot %d", name, j, e, h, i)
			}
		}
	}
	if count != n {
		t.Errorf("%s: %d entries in the table, %d inserted", name, count, n)
	}
	if load := float64(n) / float64(o.size); o.size > 1<<10 && (load > hi || load < lo) {
		t.Errorf("%s: load %.2f", name, load)
	}
}

// TestSearchCountsExact: the exact and compact stores agree on the number
// of states of a space that grows their tables several times (without
// batches, which store fewer).
func TestSearchCountsExact(t *testing.T) {
	m := machine(t, "../testdata/bench/naive2.elf", sim.PreemptEvery)
	cfg := m.Config
	cfg.Unbatched = true
	m, err := sim.NewMachine(m.Image, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var counts [2]int
	for i, compact := range []bool{false, true} {
		r := Run(context.Background(), m, Options{Strategy: DFS, Compact: compact, All: true})
		if r.Verdict == Incomplete {
			t.Fatalf("compact=%v: %v", compact, r.Limit)
		}
		counts[i] = r.Stats.StatesStored
	}
	if counts[0] != counts[1] || counts[0] < 50000 {
		t.Errorf("exact stored %d states, compact %d", counts[0], counts[1])
	}
}

// TestPQ: the frontier heap pops in (key, seq) order — smallest estimate
// first, first in first out among equals — under interleaved pushes and
// pops, against a plain list searched for its minimum.
func TestPQ(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	var q pq
	var ref []node
	seq := uint64(0)
	for step := range 20000 {
		if len(ref) == 0 || rnd.IntN(3) > 0 {
			seq++
			n := node{key: rnd.IntN(50), seq: seq}
			if rnd.IntN(100) == 0 {
				n.key = math.MaxInt
			}
			q.push(n)
			ref = append(ref, n)
			continue
		}
		m := 0
		for i := range ref {
			if ref[i].key < ref[m].key || ref[i].key == ref[m].key && ref[i].seq < ref[m].seq {
				m = i
			}
		}
		want := ref[m]
		ref = append(ref[:m], ref[m+1:]...)
		if got := q.pop(); got.key != want.key || got.seq != want.seq {
			t.Fatalf("step %d: popped (%d, %d), want (%d, %d)", step, got.key, got.seq, want.key, want.seq)
		}
	}
	if len(q) != len(ref) {
		t.Errorf("%d left in the heap, %d in the list", len(q), len(ref))
	}
}

// TestPack: a state packed for the frontier and unpacked again is the same
// state in every field of every thread (not only those of its identity:
// cycles, previous PC, the live shadow stack) and every byte of memory, on
// the first states of each model.
func TestPack(t *testing.T) {
	for _, f := range corpus(t) {
		m := machine(t, f, sim.PreemptEvery)
		st := newStore(false)
		exp := m.NewExpander()
		queue := []*sim.State{m.Initial()}
		var got sim.State
		for n := 0; n < len(queue) && n < 300; n++ {
			s := queue[n]
			st.unpack(&got, st.pack(nil, s))
			if len(got.Threads) != len(s.Threads) || got.Atomic != s.Atomic || got.AtomicDepth != s.AtomicDepth || len(got.Pages) != len(s.Pages) {
				t.Fatalf("%s: state %d unpacked with %d threads, %d pages", f, n, len(got.Threads), len(got.Pages))
			}
			for i := range s.Threads {
				// The tag is a cache; shadow slots past NShadow are
				// dead (nothing reads them) and are not packed.
				a, b := s.Threads[i], got.Threads[i]
				a.Tag, b.Tag = 0, 0
				clear(a.Shadow[a.NShadow:])
				if a != b {
					t.Fatalf("%s: state %d thread %d unpacked as %+v, was %+v", f, n, i, b, a)
				}
			}
			for i := range s.Pages {
				if s.Pages[i].Data != got.Pages[i].Data {
					t.Fatalf("%s: state %d page %d differs", f, n, i)
				}
			}
			exp.Expand(s, nil, func(next *sim.State, l sim.Label, v *sim.Violation) {
				if _, isNew := st.insert(next, 0, l); isNew && v == nil {
					queue = append(queue, next.Clone())
				}
			})
		}
	}
}

// TestPackedSearch: a search whose frontier states are all packed is the
// same search — states, expansions, transitions, depth, findings and their
// traces — in every order that packs, on models with and without
// violations.
func TestPackedSearch(t *testing.T) {
	defer func(old int) { packAbove = old }(packAbove)
	for _, f := range []string{"../testdata/bench/naive2.elf", "../testdata/bench/peterson.elf", "../testdata/models/deadlock.elf"} {
		m := machine(t, f, sim.PreemptEvery)
		for _, strat := range []Strategy{BFS, Best, AStar, Random} {
			for _, compact := range []bool{false, true} {
				opts := Options{Strategy: strat, Compact: compact, All: true, Seed: 7}
				packAbove = 1 << 30
				full := Run(context.Background(), m, opts)
				packAbove = 0
				packed := Run(context.Background(), m, opts)
				a, b := full.Stats, packed.Stats
				a.Seconds, b.Seconds, a.PeakMemory, b.PeakMemory = 0, 0, 0, 0
				a.SecondsTotal, b.SecondsTotal = 0, 0
				if a != b || full.Verdict != packed.Verdict || len(full.Found) != len(packed.Found) {
					t.Fatalf("%s %v compact=%v: packed %+v %v, full %+v %v", f, strat, compact, b, packed.Verdict, a, full.Verdict)
				}
				for i := range full.Found {
					if !slices.Equal(full.Found[i].Trace, packed.Found[i].Trace) {
						t.Errorf("%s %v compact=%v: traces differ for %v", f, strat, compact, full.Found[i].Violation.Kind)
					}
				}
			}
		}
	}
}

// TestAdviseHuge: advising a table at and past the huge-page threshold
// leaves it zero and usable to its last slot (the advice covers only its
// aligned interior, whatever the alignment of the slice).
func TestAdviseHuge(t *testing.T) {
	for _, n := range []int{hugeFrom / 8, hugeFrom/8 + 12345} {
		tab := make([]uint64, n)
		adviseHuge(tab)
		adviseHuge(tab[1:])
		for _, i := range []int{0, n / 2, n - 1} {
			if tab[i] != 0 {
				t.Fatalf("slot %d of %d is %d", i, n, tab[i])
			}
			tab[i] = uint64(i) + 1
		}
		if tab[n-1] != uint64(n) || tab[0] != 1 {
			t.Errorf("%d slots: writes lost", n)
		}
	}
}

// TestRecordLabels: every label comes back from a record as it was put,
// whether written in one byte (one instruction of one thread, no interrupt,
// no choice) or in full.
func TestRecordLabels(t *testing.T) {
	st := newStore(false)
	labels := []sim.Label{
		{}, // the root's
		{Thread: 0, IRQ: -1, Steps: 1},
		{Thread: 63, IRQ: -1, Steps: 1},
		{Thread: 127, IRQ: -1, Steps: 1},
		{Thread: 2, IRQ: 5},
		{Thread: 1, IRQ: -1, Steps: 2},
		{Thread: 1, IRQ: -1, Steps: 0},
		{Thread: 3, IRQ: -1, Steps: 1, Choice: 255},
		{Thread: 4, IRQ: -1, Steps: 1000000, Choice: 1 << 40},
	}
	var ids []uint32
	parent := uint32(0)
	for i, l := range labels {
		id := st.put([]byte{byte(i), 1, 2}, parent, l)
		ids = append(ids, id)
		parent = id
	}
	for i, id := range ids {
		enc, par, l := st.record(id)
		if l != labels[i] || enc[0] != byte(i) || i > 0 && par != ids[i-1] {
			t.Errorf("record %d: label %+v, parent %d, string %x; put %+v", i, l, par, enc, labels[i])
		}
	}
}

// TestStoreIDs: ids name records by their position in units of recAlign
// bytes, so that 32-bit ids reach past 4 GiB of records to 16 GiB; the
// positions and links of records beyond 4 GiB (chunks 4096 on, made here
// without the memory before them: only the last chunk of the arena is ever
// written) read back, in a search of one and across the stores of a
// parallel search; and full is set exactly when the last chunk an id can
// name is taken.
func TestStoreIDs(t *testing.T) {
	if maxChunks*chunkSize != 16<<30 || !strings.Contains(fullLimit, "(16 GiB of") {
		t.Fatalf("%d chunks of %d bytes; the limit says %q", maxChunks, chunkSize, fullLimit)
	}
	if id := recordID(maxChunks-1, chunkSize-recAlign); id != math.MaxUint32 {
		t.Errorf("the last id is %#x", id)
	}
	prev := int64(-1)
	for _, c := range []int{0, 1, 4095, 4096, 4097, 9999, maxChunks - 1} {
		for _, off := range []int{0, recAlign, 12344, chunkSize - recAlign} {
			id := recordID(c, off)
			if pos := int64(id) * recAlign; pos != int64(c)*chunkSize+int64(off) || pos <= prev {
				t.Errorf("chunk %d offset %d: id %#x", c, off, id)
			}
			prev = int64(id) * recAlign
			if gc, goff := recordPos(id); gc != c || goff != off {
				t.Errorf("chunk %d offset %d: id %#x back to chunk %d offset %d", c, off, id, gc, goff)
			}
		}
	}

	// skipTo makes chunk c the next one a record that does not fit the
	// last chunk takes, and fills the last chunk.
	skipTo := func(st *store, c int) {
		for len(st.arena) < c-1 {
			st.arena = append(st.arena, nil)
		}
		st.arena = append(st.arena, make([]byte, chunkSize))
	}
	type rec struct {
		id, parent uint32
		enc        []byte
		l          sim.Label
	}
	var recs []rec
	st := newStore(false)
	put := func(n int, parent uint32) uint32 {
		enc := bytes.Repeat([]byte{byte(len(recs))}, n)
		l := sim.Label{Thread: len(recs) % 100, IRQ: -1, Steps: 1}
		id := st.put(enc, parent, l)
		recs = append(recs, rec{id, parent, enc, l})
		return id
	}
	if id := put(3, 0); id != 0 {
		t.Fatalf("the root's id is %d", id)
	}
	// Records of every length modulo recAlign, each the parent of the
	// next, some with the root for parent (links of every size).
	parent := uint32(0)
	for i := range 9 {
		parent = put(20+i, parent)
	}
	skipTo(st, 4096)
	for i := range 9 {
		if i%3 == 0 {
			parent = 0
		}
		parent = put(20+i, parent)
		if pos := int64(parent) * recAlign; pos < 1<<32 {
			t.Fatalf("record %d at byte %d, below 4 GiB", len(recs)-1, pos)
		}
	}
	skipTo(st, maxChunks-2)
	parent = put(1000, parent)
	if st.full || len(st.arena) != maxChunks-1 {
		t.Fatalf("full %v with %d chunks", st.full, len(st.arena))
	}
	// Fill the next to last chunk: full is set by the record that takes
	// the last one.
	for !st.full {
		parent = put(1000, parent)
		if st.full != (len(st.arena) == maxChunks) {
			t.Fatalf("full %v with %d chunks", st.full, len(st.arena))
		}
	}
	for len(st.arena[maxChunks-1])+1000+5*binary.MaxVarintLen64 <= chunkSize {
		parent = put(1000, parent)
	}
	if c, _ := recordPos(parent); c != maxChunks-1 || parent < math.MaxUint32-chunkSize/recAlign {
		t.Fatalf("the last record's id is %#x", parent)
	}
	for i, r := range recs {
		enc, par, l := st.record(r.id)
		if !bytes.Equal(enc, r.enc) || !bytes.Equal(st.encOf(r.id), r.enc) || par != r.parent || l != r.l {
			t.Fatalf("record %d (id %#x): string of %d, parent %#x, label %+v; put %d, %#x, %+v", i, r.id, len(enc), par, l, len(r.enc), r.parent, r.l)
		}
		if i > 0 && r.id <= recs[i-1].id {
			t.Fatalf("record %d has id %#x after %#x", i, r.id, recs[i-1].id)
		}
		if c, off := recordPos(r.id); off%recAlign != 0 || c != len(st.arena)-1 && len(st.arena[c])%recAlign != 0 {
			t.Fatalf("record %d at offset %d of a chunk of %d bytes", i, off, len(st.arena[c]))
		}
	}
	if p := st.path(parent); len(p) == 0 || p[len(p)-1] != recs[len(recs)-1].l {
		t.Errorf("a path of %d labels to the last record", len(p))
	}
	// Within a chunk, each record (its flags, then its string, link and
	// label) starts where the one before it ends, padded with zeros to a
	// multiple of recAlign bytes.
	for i := 1; i < 10; i++ {
		c, off := recordPos(recs[i-1].id)
		_, next := recordPos(recs[i].id)
		b := st.arena[c][off:next]
		n, k := binary.Uvarint(b[1:])
		end := 1 + k + int(n)
		_, k = binary.Uvarint(b[end:])
		end += k
		_, k = sim.ReadLabel(b[end:])
		end += k
		if (off+end+recAlign-1)&^(recAlign-1) != next || slices.ContainsFunc(b[end:], func(x byte) bool { return x != 0 }) {
			t.Errorf("record %d: %d bytes, then %x up to the next", i-1, end, b[end:])
		}
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "past its last chunk") {
				t.Errorf("a record past the last chunk: %v", r)
			}
		}()
		put(1000, parent)
		put(1000, parent)
	}()

	// A parallel search's links, both ways between two stores.
	w := []*store{newStore(false), newStore(false)}
	for _, s := range w {
		s.workers = 2
	}
	root := w[0].putRef([]byte{1}, rootRef, sim.Label{})
	skipTo(w[1], 5000)
	far := w[1].putRef([]byte{2}, 0<<32|uint64(root), sim.Label{Thread: 1, IRQ: -1, Steps: 1})
	near := w[0].putRef([]byte{3}, 1<<32|uint64(far), sim.Label{Thread: 2, IRQ: -1, Steps: 1})
	skipTo(w[0], maxChunks-1)
	last := w[0].putRef([]byte{4}, 0<<32|uint64(near), sim.Label{Thread: 3, IRQ: -1, Steps: 1})
	back := w[1].putRef([]byte{5}, 0<<32|uint64(last), sim.Label{Thread: 4, IRQ: -1, Steps: 1})
	p := &parallel{w: []*pworker{{st: w[0]}, {st: w[1]}}}
	if got := p.path(1, back); !slices.Equal(got, []sim.Label{
		{Thread: 1, IRQ: -1, Steps: 1}, {Thread: 2, IRQ: -1, Steps: 1}, {Thread: 3, IRQ: -1, Steps: 1}, {Thread: 4, IRQ: -1, Steps: 1}}) {
		t.Errorf("parallel path %+v", got)
	}
	if !w[0].full || w[1].full {
		t.Errorf("full: %v, %v", w[0].full, w[1].full)
	}
}
