package search

import (
	"bufio"
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
//
// The resume rule. The visited set was stored, merged and expanded under
// what the machine had learned by then (sim.Learned: the bytes
// transitions followed alone relied on as private, the stack region
// bounds intrusions added, the lowest pulled stack address behind
// dead-stack masking, whether privacy or the masking was withdrawn, and
// the conditions the result reports). A snapshot carries all of it, with
// the notes the search made about it, and a resumed search starts on a
// machine that has learned exactly that (Machine.Restore): the resumed
// run is then the rest of the saved search, one search as far as every
// reduction's argument is concerned; where it sees an assumption break,
// the saved part rests on the assumption as much as the resumed part,
// and Run searches again from the initial state. A snapshot of an
// earlier version, which had none of it, is refused.
type snapshot struct {
	Version  int
	Key      string
	Strategy Strategy
	Compact  bool

	PageDat   [][sim.PageSize]byte
	Ctxs      []sim.ThreadKey // by id
	Groups    []sim.Group     // by id: groups of ids in PageDat (sim.GroupPages)
	Arena     [][]byte
	Table     []uint64
	TableSize int
	N         int

	Frontier []savedNode
	Stats    Stats
	Seq      uint64
	Reported []sim.Kind
	Covered  []uint16 // the PCs of the states expanded so far

	// Learned is what the machine had learned when the search stopped,
	// and Privacy and Dead the notes its result made about it.
	Learned       sim.Learned
	Privacy, Dead string
	// Found are the violations found so far (under --all, a search goes
	// on after them): the resumed search reports them with its own, as
	// the kinds in Reported are not reported again.
	Found []Found
	// Levels is what the search proved of the depths it expanded
	// (levels.go).
	Levels savedLevels

	// The lengths of PageDat, Ctxs, Arena, Table and Frontier, which
	// follow the rest in pieces (see write).
	NPageDat, NCtxs, NArena, NTable, NFrontier int
}

type savedNode struct {
	Packed     []byte // sim.State.AppendPacked, of ids in Ctxs and PageDat
	ID         uint32
	Depth, Key int
	Seq        uint64
	Trail      []sim.Label // compact mode
}

// snapshotVersion 10: the snapshot carries the depth the search proved
// (Levels), and may be resumed in another order. 9: the snapshot carries what the machine learned
// (Learned) and the notes about it, and the violations found so far. 8: ids (of Table entries and frontier states) count
// units of recAlign bytes of the arena, whose records are padded to them
// and begin with a byte of flags (the cycle proviso's, in search.go);
// states of many pages name groups of them (Groups), and packed states
// say how many pages they have.
const snapshotVersion = 10

// save writes the search's state.
func save(w io.Writer, key string, opts *Options, st *store, f *frontier, stats Stats, seq uint64, reported map[sim.Kind]bool, covered map[uint16]bool,
	learned sim.Learned, privacy, dead string, found []Found, lv savedLevels) error {
	sn := snapshot{Version: snapshotVersion, Key: key, Strategy: opts.Strategy, Compact: st.compact,
		Stats: stats, Seq: seq, N: st.n, Learned: learned, Privacy: privacy, Dead: dead, Found: found, Levels: lv}

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
	// Pages kept as differences are written whole (the file's format).
	sn.PageDat = make([][sim.PageSize]byte, st.nPages())
	for id := range sn.PageDat {
		sn.PageDat[id] = st.pageData(uint32(id))
	}
	sn.Groups = make([]sim.Group, st.groups.n())
	for id := range sn.Groups {
		sn.Groups[id] = st.groups.group(uint32(id))
	}
	sn.Ctxs = st.ctxs.keys
	return sn.write(w)
}

// A snapshot is written as a stream of gob messages: first the snapshot
// without its five large slices but with their lengths, then the slices
// in pieces (the arena a chunk at a time), then the xxhash of all of it,
// so that a damaged or truncated file is refused rather than resumed into
// nonsense. Gob encodes and decodes a message whole, in memory: in one
// message, a snapshot as large as the search took that much memory again
// to write, and again to read (and gob refuses messages of a few GiB);
// in pieces, writing and reading take a piece more than the search held.
const (
	piecePages   = 1 << 12 // pages of PageDat per message
	pieceCtxs    = 1 << 14 // thread contexts of Ctxs per message
	pieceTable   = 1 << 16 // entries of Table per message
	pieceNodes   = 1 << 12 // frontier states per message
	maxPieceHint = 1 << 24 // the most elements a length read from a file reserves room for
)

// write encodes sn as described above.
func (sn *snapshot) write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	sum := xxhash.New()
	enc := gob.NewEncoder(io.MultiWriter(bw, sum))
	hdr := *sn
	hdr.PageDat, hdr.Ctxs, hdr.Arena, hdr.Table, hdr.Frontier = nil, nil, nil, nil, nil
	hdr.NPageDat, hdr.NCtxs, hdr.NArena, hdr.NTable, hdr.NFrontier = len(sn.PageDat), len(sn.Ctxs), len(sn.Arena), len(sn.Table), len(sn.Frontier)
	err := enc.Encode(&hdr)
	if err == nil {
		err = putPieces(enc, sn.PageDat, piecePages)
	}
	if err == nil {
		err = putPieces(enc, sn.Ctxs, pieceCtxs)
	}
	for _, c := range sn.Arena {
		if err == nil {
			err = enc.Encode(c)
		}
	}
	if err == nil {
		err = putPieces(enc, sn.Table, pieceTable)
	}
	if err == nil {
		err = putPieces(enc, sn.Frontier, pieceNodes)
	}
	if err != nil {
		return err
	}
	if _, err := bw.Write(binary.LittleEndian.AppendUint64(nil, sum.Sum64())); err != nil {
		return err
	}
	return bw.Flush()
}

// putPieces encodes s in messages of at most n elements.
func putPieces[T any](enc *gob.Encoder, s []T, n int) error {
	for len(s) > 0 {
		k := min(n, len(s))
		if err := enc.Encode(s[:k]); err != nil {
			return err
		}
		s = s[k:]
	}
	return nil
}

// getPieces decodes the messages putPieces wrote for count elements.
func getPieces[T any](dec *gob.Decoder, count int) ([]T, error) {
	s := make([]T, 0, min(count, maxPieceHint))
	for len(s) < count {
		var piece []T
		if err := dec.Decode(&piece); err != nil {
			return nil, err
		}
		if len(piece) == 0 || len(piece) > count-len(s) {
			return nil, fmt.Errorf("a piece of %d elements where %d are left", len(piece), count-len(s))
		}
		s = append(s, piece...)
	}
	return s, nil
}

// hashReader hashes what gob reads through it. It is an io.ByteReader, so
// gob reads no further than its messages, and the checksum after them is
// left to read.
type hashReader struct {
	r   *bufio.Reader
	sum *xxhash.Digest
}

func (h *hashReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.sum.Write(p[:n])
	return n, err
}

func (h *hashReader) ReadByte() (byte, error) {
	b, err := h.r.ReadByte()
	if err == nil {
		h.sum.Write([]byte{b})
	}
	return b, err
}

// readSnapshot reads what write wrote and checks the checksum; a file of
// another version is named by its version.
func readSnapshot(r io.Reader) (*snapshot, error) {
	hr := &hashReader{r: bufio.NewReaderSize(r, 1<<16), sum: xxhash.New()}
	dec := gob.NewDecoder(hr)
	var sn snapshot
	if err := dec.Decode(&sn); err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("not a saved frontier: the file is empty")
		}
		return nil, fmt.Errorf("not a saved frontier, or a damaged one: %v", err)
	}
	if sn.Version != snapshotVersion {
		return nil, fmt.Errorf("saved frontier of version %d; this hc11mc reads version %d only (earlier versions did not keep what the reductions had learned, without which the rest of the search could miss violations, nor the depth the search had proved): run the check again from the start", sn.Version, snapshotVersion)
	}
	for _, n := range []int{sn.NPageDat, sn.NCtxs, sn.NArena, sn.NTable, sn.NFrontier} {
		if n < 0 || n > 1<<40 {
			return nil, fmt.Errorf("not a saved frontier, or a damaged one: a length of %d", n)
		}
	}
	if sn.NArena >= maxChunks {
		return nil, fmt.Errorf("not a saved frontier, or an inconsistent one: %d arena chunks", sn.NArena)
	}
	var err error
	damaged := func(e error) error {
		if e == io.EOF || e == io.ErrUnexpectedEOF {
			return fmt.Errorf("not a saved frontier, or a damaged one: it is cut short")
		}
		return fmt.Errorf("not a saved frontier, or a damaged one: %v", e)
	}
	if sn.PageDat, err = getPieces[[sim.PageSize]byte](dec, sn.NPageDat); err != nil {
		return nil, damaged(err)
	}
	if sn.Ctxs, err = getPieces[sim.ThreadKey](dec, sn.NCtxs); err != nil {
		return nil, damaged(err)
	}
	sn.Arena = make([][]byte, sn.NArena)
	for i := range sn.Arena {
		if err := dec.Decode(&sn.Arena[i]); err != nil {
			return nil, damaged(err)
		}
	}
	if sn.Table, err = getPieces[uint64](dec, sn.NTable); err != nil {
		return nil, damaged(err)
	}
	if sn.Frontier, err = getPieces[savedNode](dec, sn.NFrontier); err != nil {
		return nil, damaged(err)
	}
	var tail [8]byte
	if _, err := io.ReadFull(hr.r, tail[:]); err != nil {
		return nil, damaged(err)
	}
	if binary.LittleEndian.Uint64(tail[:]) != hr.sum.Sum64() {
		return nil, fmt.Errorf("not a saved frontier, or a damaged one: its checksum does not match")
	}
	if _, err := hr.r.ReadByte(); err != io.EOF {
		return nil, fmt.Errorf("not a saved frontier, or a damaged one: bytes after its checksum")
	}
	return &sn, nil
}

// resumed is a saved search read back: its store, its frontier and the
// rest of its snapshot.
type resumed struct {
	st *store
	f  *frontier
	sn *snapshot
}

// load reads a snapshot and rebuilds the store and the frontier.
func load(r io.Reader, key string, opts *Options, pages int) (*resumed, error) {
	st, f, sn, err := loadParts(r, key, opts, pages)
	if err != nil {
		return nil, err
	}
	return &resumed{st, f, sn}, nil
}

// loadParts is load's work.
func loadParts(r io.Reader, key string, opts *Options, pages int) (*store, *frontier, *snapshot, error) {
	sn, err := readSnapshot(r)
	if err != nil {
		return nil, nil, nil, err
	}
	if sn.Key != key {
		return nil, nil, nil, fmt.Errorf("the frontier was saved for another firmware or other machine flags (saved for %s)", sn.Key)
	}
	if sn.Compact != opts.Compact {
		return nil, nil, nil, fmt.Errorf("the frontier was saved with --hash-compact=%v: resume with the same", sn.Compact)
	}
	// Another order goes on from the same frontier: which states remain
	// to be explored does not depend on the order they are taken in (the
	// cycle proviso's flags are the states', package proviso), only the
	// priorities of the frontier's states are computed again.
	rekey := sn.Strategy != opts.Strategy
	if err := sn.check(pages); err != nil {
		return nil, nil, nil, fmt.Errorf("not a saved frontier, or an inconsistent one: %v", err)
	}
	st := newStore(sn.Compact)
	// The intern tables take their size at once: grown an append at a
	// time, they would leave several copies of themselves as garbage.
	st.pageFull = make([][sim.PageSize]byte, 0, len(sn.PageDat))
	st.pageAt = make([]uint32, 0, len(sn.PageDat))
	st.pageFP = make([]uint32, 0, len(sn.PageDat))
	st.pages = make([]uint32, hashSize(len(sn.PageDat)))
	st.ctxs.keys = make([]sim.ThreadKey, 0, len(sn.Ctxs))
	st.ctxs.table = make([]uint32, hashSize(len(sn.Ctxs)))
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
		if st.addPage(&p.Data, p.Hash(), int64(i)-1) != uint32(i) {
			return nil, nil, nil, fmt.Errorf("not a saved frontier: page %d repeats an earlier one", i)
		}
	}
	for i := range sn.Groups {
		for _, id := range sn.Groups[i] {
			if id != sim.NoPage && int(id) >= len(sn.PageDat) {
				return nil, nil, nil, fmt.Errorf("not a saved frontier, or an inconsistent one: group %d names page %d", i, id)
			}
		}
		if st.groups.intern(&sn.Groups[i]) != uint32(i) {
			return nil, nil, nil, fmt.Errorf("not a saved frontier: group %d repeats an earlier one", i)
		}
	}
	f := newFrontier(opts)
	// Every state is unpacked, to check it; beyond packAbove of them,
	// as in the search, the frontier keeps them packed (but depth-first).
	scratch := &sim.State{}
	for i, sv := range sn.Frontier {
		s := &sim.State{}
		packed := i >= packAbove && opts.Strategy != DFS
		if packed {
			s = scratch
		}
		if err := s.Unpack(sv.Packed, pages, st); err != nil {
			return nil, nil, nil, fmt.Errorf("not a saved frontier, or an inconsistent one: frontier state %d: %v", i, err)
		}
		n := node{s: s, id: sv.ID, depth: sv.Depth, key: sv.Key, seq: sv.Seq}
		if rekey {
			n.key = frontierKey(opts, s, sv.Depth)
		}
		if packed {
			n.s, n.packed = nil, sv.Packed
		}
		for _, l := range sv.Trail {
			n.trail = &trail{parent: n.trail, label: l}
		}
		f.push(n)
	}
	// What the store and the frontier took over is garbage here.
	sn.PageDat, sn.Ctxs, sn.Frontier = nil, nil, nil
	return st, f, sn, nil
}

// hashSize is the size of an intern table's hash table that holds n
// entries without growing: a power of two, at least twice n.
func hashSize(n int) int {
	size := 1 << 10
	for size < 2*n {
		size *= 2
	}
	return size
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
	// starts marks the position of each record, a bit per id (recAlign
	// bytes).
	starts := make([][]uint64, len(sn.Arena))
	isStart := func(id uint32) bool {
		c, off := recordPos(id)
		w := off >> alignBits
		return c < len(starts) && w/64 < len(starts[c]) && starts[c][w/64]&(1<<(w%64)) != 0
	}
	records := 0
	for ci, c := range sn.Arena {
		if len(c) > chunkSize || len(c)%recAlign != 0 {
			return fmt.Errorf("an arena chunk of %d bytes", len(c))
		}
		starts[ci] = make([]uint64, (len(c)>>alignBits+63)/64)
		for pos := 0; pos < len(c); {
			id := recordID(ci, pos)
			if c[pos]&^(flagExpanded|flagReduced|flagFull) != 0 {
				return fmt.Errorf("record %d: flags 0x%02X", id, c[pos])
			}
			at, ok := pos+1, true // after the flags
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
			// Zeros up to the next record.
			for ; at%recAlign != 0; at++ {
				if at >= len(c) || c[at] != 0 {
					return fmt.Errorf("record %d: not padded", id)
				}
			}
			w := pos >> alignBits
			starts[ci][w/64] |= 1 << (w % 64)
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
