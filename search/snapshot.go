package search

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"io"
	"slices"

	"github.com/cespare/xxhash/v2"

	"github.com/hc11mc/hc11mc/sim"
)

// A snapshot is what a stopped search leaves for a later run to continue
// from (--save-frontier / --resume): the visited set, the frontier with the
// path to each of its states, the counters, and the key of the machine and
// options it belongs to, so that it is never resumed on something else.
// This is the "condition" of conditional model checking: the states not
// yet explored are exactly those reachable from the saved frontier.
type snapshot struct {
	Version  int
	Key      string
	Strategy Strategy
	Compact  bool

	PageDat   [][sim.PageSize]byte
	Ctxs      []sim.ThreadKey // by id
	Arena     [][]byte
	Table     []uint64
	TableSize int
	N         int

	Frontier []savedNode
	Stats    Stats
	Seq      uint64
	Reported []sim.Kind
	Covered  []uint16 // the PCs of the states expanded so far
}

type savedNode struct {
	Packed     []byte // sim.State.AppendPacked, of ids in Ctxs and PageDat
	ID         uint32
	Depth, Key int
	Seq        uint64
	Trail      []sim.Label // compact mode
}

const snapshotVersion = 5

// save writes the search's state.
func save(w io.Writer, key string, opts *Options, st *store, f *frontier, stats Stats, seq uint64, reported map[sim.Kind]bool, covered map[uint16]bool) error {
	sn := snapshot{Version: snapshotVersion, Key: key, Strategy: opts.Strategy, Compact: st.compact,
		Stats: stats, Seq: seq, N: st.n}
	for pc := range covered {
		sn.Covered = append(sn.Covered, pc)
	}
	slices.Sort(sn.Covered)
	for k := range reported {
		sn.Reported = append(sn.Reported, k)
	}
	sn.Table, sn.TableSize = st.tab.t, st.tab.size
	if !st.compact {
		sn.Arena = st.arena
	}
	for _, n := range f.all() {
		sv := savedNode{Packed: n.packed, ID: n.id, Depth: n.depth, Key: n.key, Seq: n.seq}
		if sv.Packed == nil {
			sv.Packed = st.pack(nil, n.s)
		}
		if st.compact {
			sv.Trail = n.trail.path()
		}
		sn.Frontier = append(sn.Frontier, sv)
	}
	// The intern tables: fingerprints and strings are made of their ids.
	sn.PageDat, sn.Ctxs = st.pageDat, st.ctxs.keys
	return sn.write(w)
}

// write encodes sn, followed by the xxhash of the encoding, so that a
// damaged or truncated file is refused rather than resumed into nonsense.
func (sn *snapshot) write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	sum := xxhash.New()
	if err := gob.NewEncoder(io.MultiWriter(bw, sum)).Encode(sn); err != nil {
		return err
	}
	if _, err := bw.Write(binary.LittleEndian.AppendUint64(nil, sum.Sum64())); err != nil {
		return err
	}
	return bw.Flush()
}

// load reads a snapshot and rebuilds the store and the frontier.
func load(r io.Reader, key string, opts *Options, pages int) (*store, *frontier, *snapshot, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(data) < 8 {
		return nil, nil, nil, fmt.Errorf("not a saved frontier: %d bytes", len(data))
	}
	body := data[:len(data)-8]
	if binary.LittleEndian.Uint64(data[len(body):]) != xxhash.Sum64(body) {
		// Files of version 3 and before had no checksum: name their
		// version rather than call them damaged.
		var old snapshot
		if gob.NewDecoder(bytes.NewReader(data)).Decode(&old) == nil && old.Version != snapshotVersion {
			return nil, nil, nil, fmt.Errorf("saved frontier of version %d; this hc11mc reads version %d", old.Version, snapshotVersion)
		}
		return nil, nil, nil, fmt.Errorf("not a saved frontier, or a damaged one: its checksum does not match")
	}
	var sn snapshot
	if err := gob.NewDecoder(bytes.NewReader(body)).Decode(&sn); err != nil {
		return nil, nil, nil, fmt.Errorf("not a saved frontier: %v", err)
	}
	if sn.Version != snapshotVersion {
		return nil, nil, nil, fmt.Errorf("saved frontier of version %d; this hc11mc reads version %d", sn.Version, snapshotVersion)
	}
	if sn.Key != key {
		return nil, nil, nil, fmt.Errorf("the frontier was saved for another firmware or other machine flags (saved for %s)", sn.Key)
	}
	if sn.Strategy != opts.Strategy || sn.Compact != opts.Compact {
		return nil, nil, nil, fmt.Errorf("the frontier was saved with --search %s, --hash-compact=%v: resume with the same", sn.Strategy, sn.Compact)
	}
	if err := sn.check(pages); err != nil {
		return nil, nil, nil, fmt.Errorf("not a saved frontier, or an inconsistent one: %v", err)
	}
	st := newStore(sn.Compact)
	st.n = sn.N
	st.tab.t, st.tab.size = sn.Table, sn.TableSize
	st.arena = sn.Arena
	// The ids in the strings are positions in these lists: each entry
	// must be new.
	for i, k := range sn.Ctxs {
		if !k.Valid() {
			return nil, nil, nil, fmt.Errorf("not a saved frontier, or an inconsistent one: thread context %d is not one", i)
		}
		if st.ctxs.intern(k) != uint32(i) {
			return nil, nil, nil, fmt.Errorf("not a saved frontier: thread context %d repeats an earlier one", i)
		}
	}
	for i := range sn.PageDat {
		p := &sim.Page{Data: sn.PageDat[i]}
		if st.addPage(&p.Data, p.Hash()) != uint32(i) {
			return nil, nil, nil, fmt.Errorf("not a saved frontier: page %d repeats an earlier one", i)
		}
	}
	f := newFrontier(opts)
	for i, sv := range sn.Frontier {
		s := &sim.State{}
		if err := s.Unpack(sv.Packed, pages, st); err != nil {
			return nil, nil, nil, fmt.Errorf("not a saved frontier, or an inconsistent one: frontier state %d: %v", i, err)
		}
		n := node{s: s, id: sv.ID, depth: sv.Depth, key: sv.Key, seq: sv.Seq}
		for _, l := range sv.Trail {
			n.trail = &trail{parent: n.trail, label: l}
		}
		f.push(n)
	}
	return st, f, &sn, nil
}

// check verifies what a resumed search would otherwise trust (the checksum
// guards against damage, not against a file made up to pass it): every
// record of the arena parses and names an earlier record as its parent;
// the table holds each stored state once, in increasing order; and each
// frontier state is a state recorded in the arena. (That each frontier
// state fits the machine, load leaves to sim.State.Unpack.)
func (sn *snapshot) check(pages int) error {
	if sn.TableSize <= 0 || len(sn.Table) < sn.TableSize+slack(sn.TableSize) {
		return fmt.Errorf("a table of %d slots for size %d", len(sn.Table), sn.TableSize)
	}
	if len(sn.Arena) >= maxChunks {
		return fmt.Errorf("%d arena chunks", len(sn.Arena))
	}
	// starts marks the position of each record, a bit per byte.
	starts := make([][]uint64, len(sn.Arena))
	isStart := func(id uint32) bool {
		c, off := int(id>>chunkBits), int(id&(chunkSize-1))
		return c < len(starts) && off/64 < len(starts[c]) && starts[c][off/64]&(1<<(off%64)) != 0
	}
	records := 0
	for ci, c := range sn.Arena {
		if len(c) > chunkSize {
			return fmt.Errorf("an arena chunk of %d bytes", len(c))
		}
		starts[ci] = make([]uint64, (len(c)+63)/64)
		for pos := 0; pos < len(c); {
			id := uint32(ci)<<chunkBits | uint32(pos)
			at, ok := pos, true
			field := func() uint64 {
				v, k := binary.Uvarint(c[at:])
				if k <= 0 {
					ok = false
					return 0
				}
				at += k
				return v
			}
			n := field()
			if !ok || n > uint64(len(c)-at) {
				return fmt.Errorf("record %d: a string past the end of its chunk", id)
			}
			at += int(n)
			back := field()
			if !ok || (id == 0) != (back == 0) || back > uint64(id) || id != 0 && !isStart(id-uint32(back)) {
				return fmt.Errorf("record %d: its parent is not an earlier record", id)
			}
			if at >= len(c) {
				return fmt.Errorf("record %d: cut short", id)
			}
			_, k := sim.ReadLabel(c[at:])
			if k == 0 {
				return fmt.Errorf("record %d: cut short", id)
			}
			at += k
			starts[ci][pos/64] |= 1 << (pos % 64)
			records++
			pos = at
		}
	}
	var prev uint64
	entries := 0
	for _, e := range sn.Table {
		if e == 0 {
			continue
		}
		if e <= prev {
			return fmt.Errorf("the table is out of order")
		}
		prev = e
		entries++
		if !sn.Compact && !isStart(uint32(e)-1) {
			return fmt.Errorf("a table entry names no record")
		}
	}
	if entries != sn.N || !sn.Compact && records != sn.N {
		return fmt.Errorf("%d states, %d table entries, %d records", sn.N, entries, records)
	}
	for i, sv := range sn.Frontier {
		if !sn.Compact && !isStart(sv.ID) {
			return fmt.Errorf("frontier state %d is not a stored state", i)
		}
	}
	return nil
}
