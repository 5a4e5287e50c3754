package search

import (
	"encoding/binary"

	"github.com/cespare/xxhash/v2"

	"github.com/hc11mc/hc11mc/sim"
)

// store is the set of visited states. A state is kept as a short byte
// string: the indexes of its thread contexts and memory pages in two intern
// tables, so that a page or a context shared by many states is stored once
// (SPIN's COLLAPSE compression), followed by the link to its parent and the
// label of the transition from it. Two states are equal exactly when their
// strings are, so a fingerprint collision is resolved by comparing strings
// and no state is ever wrongly taken for visited.
//
// In compact mode (hash compaction) only the 64-bit fingerprint is kept,
// with the parent link; two different states with the same fingerprint are
// then taken for one, with the probability Omission reports.
type store struct {
	compact bool

	// intern tables
	pages   map[uint64][]uint32 // page content hash → page ids with that hash
	pageDat [][sim.PageSize]byte
	ctxs    map[string]uint32

	arena [][]byte // chunks of state strings
	tail  []byte
	// offsets of stored states: id → position in arena (chunk<<32 | offset)
	pos []uint64

	// open-addressing table of state ids+1, keyed by fingerprint
	table []uint32
	fps   []uint64 // fingerprint per state id
	n     int

	parent  []uint32 // per state id, the parent's id (itself for the root)
	labels  []byte   // compact labels, 8 bytes per state
	scratch []byte
}

const chunkSize = 1 << 20

func newStore(compact bool) *store {
	return &store{
		compact: compact,
		pages:   map[uint64][]uint32{},
		ctxs:    map[string]uint32{},
		table:   make([]uint32, 1<<16),
	}
}

// internPage returns the id of a page with p's contents.
func (st *store) internPage(p *sim.Page) uint32 {
	h := p.Hash()
	for _, id := range st.pages[h] {
		if st.pageDat[id] == p.Data {
			return id
		}
	}
	id := uint32(len(st.pageDat))
	st.pageDat = append(st.pageDat, p.Data)
	st.pages[h] = append(st.pages[h], id)
	return id
}

func (st *store) internCtx(b []byte) uint32 {
	if id, ok := st.ctxs[string(b)]; ok {
		return id
	}
	id := uint32(len(st.ctxs))
	st.ctxs[string(b)] = id
	return id
}

// encode writes the canonical string of s into st.scratch.
func (st *store) encode(s *sim.State) []byte {
	b := st.scratch[:0]
	b = binary.AppendUvarint(b, uint64(len(s.Threads)))
	var ctx [16]byte
	for i := range s.Threads {
		c := sim.Identity(&s.Threads[i], ctx[:0])
		b = binary.AppendUvarint(b, uint64(st.internCtx(c)))
	}
	b = append(b, s.Atomic, s.AtomicDepth)
	for _, p := range s.Pages {
		b = binary.AppendUvarint(b, uint64(st.internPage(p)))
	}
	st.scratch = b
	return b
}

func (st *store) get(id uint32) []byte {
	p := st.pos[id]
	c := st.arena[p>>32]
	off := uint32(p)
	n, k := binary.Uvarint(c[off:])
	return c[off+uint32(k) : off+uint32(k)+uint32(n)]
}

func (st *store) put(enc []byte) uint64 {
	need := len(enc) + binary.MaxVarintLen32
	if len(st.tail)+need > cap(st.tail) {
		st.tail = make([]byte, 0, chunkSize)
		st.arena = append(st.arena, st.tail)
	}
	c := len(st.arena) - 1
	off := len(st.tail)
	st.tail = binary.AppendUvarint(st.tail, uint64(len(enc)))
	st.tail = append(st.tail, enc...)
	st.arena[c] = st.tail
	return uint64(c)<<32 | uint64(off)
}

// insert adds s unless it is already stored; it returns the state's id and
// whether it was new.
func (st *store) insert(s *sim.State, parent uint32, l sim.Label) (uint32, bool) {
	var enc []byte
	var fp uint64
	if st.compact {
		fp = s.Hash()
	} else {
		enc = st.encode(s)
		fp = xxhash.Sum64(enc)
	}
	mask := uint64(len(st.table) - 1)
	for i := fp & mask; ; i = (i + 1) & mask {
		e := st.table[i]
		if e == 0 {
			id := uint32(st.n)
			st.table[i] = id + 1
			st.n++
			st.fps = append(st.fps, fp)
			if !st.compact {
				st.pos = append(st.pos, st.put(enc))
			}
			if id == 0 {
				parent = 0
			}
			st.parent = append(st.parent, parent)
			st.labels = appendLabel(st.labels, l)
			if st.n*2 > len(st.table) {
				st.grow()
			}
			return id, true
		}
		id := e - 1
		if st.fps[id] == fp && (st.compact || string(st.get(id)) == string(enc)) {
			return id, false
		}
	}
}

func (st *store) grow() {
	t := make([]uint32, len(st.table)*2)
	mask := uint64(len(t) - 1)
	for id, fp := range st.fps {
		for i := fp & mask; ; i = (i + 1) & mask {
			if t[i] == 0 {
				t[i] = uint32(id) + 1
				break
			}
		}
	}
	st.table = t
}

// appendLabel packs a label into 8 bytes: thread, irq+1, steps (24 bits),
// choice (24 bits). Larger values do not fit; insert's callers check.
func appendLabel(b []byte, l sim.Label) []byte {
	return append(b, byte(l.Thread), byte(l.IRQ+1),
		byte(l.Steps>>16), byte(l.Steps>>8), byte(l.Steps),
		byte(l.Choice>>16), byte(l.Choice>>8), byte(l.Choice))
}

func (st *store) label(id uint32) sim.Label {
	b := st.labels[id*8 : id*8+8]
	return sim.Label{
		Thread: int(b[0]), IRQ: int(b[1]) - 1,
		Steps:  uint32(b[2])<<16 | uint32(b[3])<<8 | uint32(b[4]),
		Choice: uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7]),
	}
}

// bytes is the memory the store holds.
func (st *store) bytes() int64 {
	n := int64(len(st.table))*4 + int64(cap(st.fps))*8 + int64(cap(st.parent))*4 + int64(cap(st.labels)) + int64(cap(st.pos))*8
	n += int64(len(st.arena)) * chunkSize
	n += int64(len(st.pageDat)) * (sim.PageSize + 16)
	n += int64(len(st.ctxs)) * 48
	return n
}

// path returns the labels from the root to state id.
func (st *store) path(id uint32) []sim.Label {
	var ls []sim.Label
	for id != 0 {
		ls = append(ls, st.label(id))
		id = st.parent[id]
	}
	for i, j := 0, len(ls)-1; i < j; i, j = i+1, j-1 {
		ls[i], ls[j] = ls[j], ls[i]
	}
	return ls
}
