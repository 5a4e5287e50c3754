package sim

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// This file is the one definition of a state's identity. Equal, Hash, the
// canonical key a visited-state store keeps (AppendKey, ParentKey) and the
// packed form of a frontier state (AppendPacked, Unpack) are all written
// in terms of the three functions below — Thread.Key for a thread, the
// scheduler bytes of sched, and page contents — so a field added to the
// state is either in all of them or in none (TestStateFieldsClassified
// fails until it is classified). The peripherals' state (devices.go) is
// page contents — the register block's pages and one hidden page after
// the others — so it is in all of them through the pages, with no field
// of its own.

// ThreadKey is a thread's part of a state's identity: its registers, the
// top of its stack (which decides whether an RTS ends the thread), its
// status, critical-section depth and interrupt inhibit, packed in two words. Two threads have
// equal keys exactly when Equal takes them for the same. The layout is
// private to this package; a store keeps keys as opaque values.
type ThreadKey [2]uint64

// Key returns t's identity.
func (t *Thread) Key() ThreadKey {
	return ThreadKey{
		uint64(t.A) | uint64(t.B)<<8 | uint64(t.CCR)<<16 | uint64(t.X)<<24 | uint64(t.Y)<<40 | uint64(t.Status)<<56,
		uint64(t.SP) | uint64(t.PC)<<16 | uint64(t.InitSP)<<32 | uint64(t.CS)<<48 | uint64(t.Inhibit)<<56,
	}
}

// SetKey sets the fields of t that make up its identity from k, leaving
// the others (PrevPC, Cycles, the shadow call stack) alone, and clears Tag.
func (t *Thread) SetKey(k ThreadKey) {
	lo, hi := k[0], k[1]
	t.A, t.B, t.CCR = uint8(lo), uint8(lo>>8), uint8(lo>>16)
	t.X, t.Y, t.Status = uint16(lo>>24), uint16(lo>>40), uint8(lo>>56)
	t.SP, t.PC, t.InitSP, t.CS, t.Inhibit = uint16(hi), uint16(hi>>16), uint16(hi>>32), uint8(hi>>48), uint8(hi>>56)
	t.Tag = 0
}

// Valid reports whether k is the key of some thread: the bits between the
// fields are zero and the status is defined.
func (k ThreadKey) Valid() bool {
	var t Thread
	t.SetKey(k)
	return t.Key() == k && t.Status <= Exited && t.Inhibit <= 1
}

// sched is the scheduler's part of a state's identity: the owner of the
// atomic section and its nesting depth.
func (s *State) sched() [2]byte { return [2]byte{s.Atomic, s.AtomicDepth} }

// An Interner numbers the parts that many states share — thread contexts
// by their ThreadKey, pages by their contents — so that a state's key is a
// short string of small numbers (SPIN's COLLAPSE compression). Equal keys
// must get equal ids and different keys different ones. The key an
// interner numbers a thread by may be its canonical key
// (Machine.CanonicalKey, which zeroes dead registers) rather than Key;
// ThreadKeyOf returns it, so that a packed state keeps the rest. It may
// cache a thread's or a page's id in its Tag field (the simulator clears
// a thread's Tag whenever the thread changes, and a page reachable from a
// kept state is never written again).
type Interner interface {
	ThreadID(t *Thread) uint32
	ThreadKeyOf(id uint32) ThreadKey
	PageID(p *Page) uint32
	// GroupID numbers groups of page ids (see GroupPages) as PageID
	// numbers pages.
	GroupID(g *Group) uint32
}

// GroupPages is how many pages one id names in the key of a state of more
// than 2×GroupPages pages (firmware on kilobytes of RAM): the ids of its
// pages, GroupPages at a time, are numbered as a Group, so that a key
// takes a few dozen bytes however much memory the state has, and a
// transition that writes a page changes one group's id. (A key with an
// id per page took about a byte per 64 bytes of RAM: 3 KB per state on
// 32 KB.) A state of fewer pages names each page: grouping would cost a
// group's lookup per transition for little. On BUFFALO with 48 KiB of
// RAM, groups of 16 pages stored 76 bytes per state, of 32 pages 52.
const GroupPages = 32

// Group is the page ids of up to GroupPages consecutive pages of a state;
// the slots past the state's last page hold NoPage.
type Group [GroupPages]uint32

// NoPage fills the slots of a Group past a state's last page.
const NoPage = ^uint32(0)

// groupSize is the number of pages one id of the key names in a state of
// npages pages: 1 or GroupPages.
func groupSize(npages int) int {
	if npages > 2*GroupPages {
		return GroupPages
	}
	return 1
}

// partID is the id of part k of pages as a key names them: page k's, or,
// with groups of g pages, group k's.
func partID(pages []*Page, k, g int, in Interner) uint32 {
	if g == 1 {
		return in.PageID(pages[k])
	}
	var gr Group
	lo := k * g
	for i := range gr {
		if lo+i < len(pages) {
			gr[i] = in.PageID(pages[lo+i])
		} else {
			gr[i] = NoPage
		}
	}
	return in.GroupID(&gr)
}

// appendParts appends the ids of the parts of pages (partID), noting in
// off, when not nil, where each starts.
func appendParts(b []byte, pages []*Page, in Interner, off *[]int32) []byte {
	g := groupSize(len(pages))
	if g == 1 {
		for _, p := range pages {
			if off != nil {
				*off = append(*off, int32(len(b)))
			}
			b = binary.AppendUvarint(b, uint64(in.PageID(p)))
		}
		return b
	}
	for k := 0; k*g < len(pages); k++ {
		if off != nil {
			*off = append(*off, int32(len(b)))
		}
		b = binary.AppendUvarint(b, uint64(partID(pages, k, g, in)))
	}
	return b
}

// appendWrittenParts appends what a successor s's key or packed form has
// from at on, where enc is its parent's and parts[k] is where part k of
// its pages starts in enc (then the end): the parent's ids of the parts
// s did not write, new ids of those it did (written lists the pages it
// wrote, in order).
func appendWrittenParts(b, enc []byte, parts []int32, s *State, written []int, in Interner) []byte {
	g := groupSize(len(s.Pages))
	at := parts[0]
	if g == 1 {
		for _, i := range written {
			b = append(b, enc[at:parts[i]]...)
			b = binary.AppendUvarint(b, uint64(in.PageID(s.Pages[i])))
			at = parts[i+1]
		}
		return append(b, enc[at:]...)
	}
	last := -1
	for _, i := range written {
		k := i / g
		if k == last {
			continue
		}
		last = k
		b = append(b, enc[at:parts[k]]...)
		b = binary.AppendUvarint(b, uint64(partID(s.Pages, k, g, in)))
		at = parts[k+1]
	}
	return append(b, enc[at:]...)
}

// A Resolver is an Interner that also maps ids back, for Unpack.
type Resolver interface {
	Interner
	// LoadThread sets t's identity to that of context id (with
	// Thread.SetKey; it may then cache id in t.Tag); false if there is
	// no such id.
	LoadThread(t *Thread, id uint32) bool
	// Page returns a page with the contents of page id, which nothing
	// will write; nil if there is no such id.
	Page(id uint32) *Page
	// Group returns the page ids of group id; nil if there is no such id.
	Group(id uint32) *Group
}

// AppendKey appends the canonical key of s to b: the number of threads,
// each thread's context id, the scheduler bytes and each page's id (or
// each group's, see GroupPages). Two
// states have equal keys (from one interner) exactly when Equal holds;
// bookkeeping outside the identity (cycles, the shadow call stack, the
// previous PC) is not in it.
func (s *State) AppendKey(b []byte, in Interner) []byte {
	b = binary.AppendUvarint(b, uint64(len(s.Threads)))
	for i := range s.Threads {
		b = binary.AppendUvarint(b, uint64(in.ThreadID(&s.Threads[i])))
	}
	sc := s.sched()
	b = append(b, sc[:]...)
	return appendParts(b, s.Pages, in, nil)
}

// ParentKey is the key of a state being expanded together with where each
// of its parts starts, so that the keys of its successors can be made from
// it: a successor in which one thread moved differs from its parent only
// in that thread, the scheduler bytes and the pages the transition wrote
// (State.Written), and only those are looked up.
type ParentKey struct {
	// Key is the parent's canonical key, as AppendKey makes it.
	Key     []byte
	off     []int32 // where each thread's id, the scheduler bytes and each page's id start; then the end
	threads int
	written []int // scratch: the pages a successor wrote
	// View, when not nil, is the state a store keys in place of the one
	// given (Machine.KeyState: dead stack bytes masked); successors are
	// then keyed in full, since a move of SP changes which bytes are
	// masked in pages the transition did not write.
	View func(*State) *State
}

// Set makes p the key of s.
func (p *ParentKey) Set(s *State, in Interner) {
	if p.View != nil {
		s = p.View(s)
	}
	b, off := p.Key[:0], p.off[:0]
	b = binary.AppendUvarint(b, uint64(len(s.Threads)))
	for i := range s.Threads {
		off = append(off, int32(len(b)))
		b = binary.AppendUvarint(b, uint64(in.ThreadID(&s.Threads[i])))
	}
	off = append(off, int32(len(b)))
	sc := s.sched()
	b = append(b, sc[:]...)
	b = appendParts(b, s.Pages, in, &off)
	off = append(off, int32(len(b)))
	p.Key, p.off, p.threads = b, off, len(s.Threads)
}

// AppendSuccessor appends the key of s to b, where s is a successor of the
// parent, made from it on an Expander's scratch state (so that Written
// names the pages the transition wrote), in which only thread moved ran.
// The result equals s.AppendKey(b, in). A successor with another number
// of threads (one was created) is keyed in full.
func (p *ParentKey) AppendSuccessor(b []byte, s *State, moved int, in Interner) []byte {
	if p.View != nil {
		return p.View(s).AppendKey(b, in)
	}
	if len(s.Threads) != p.threads {
		return s.AppendKey(b, in)
	}
	enc, off, t := p.Key, p.off, p.threads
	b = append(b, enc[:off[moved]]...)
	b = binary.AppendUvarint(b, uint64(in.ThreadID(&s.Threads[moved])))
	b = append(b, enc[off[moved+1]:off[t]]...)
	sc := s.sched()
	b = append(b, sc[:]...)
	p.written = s.Written(p.written[:0])
	return appendWrittenParts(b, enc, off[t+1:], s, p.written, in)
}

// AppendPacked appends s to b in a few bytes per thread, to be restored by
// Unpack: the key's parts (context and page ids) and, per thread, the
// bookkeeping outside the identity (previous PC, cycles, dropped and live
// shadow-stack slots). Breadth-first and best-first frontiers hold
// millions of states; packed, one takes a tenth of its memory and nothing
// the garbage collector has to scan.
func (s *State) AppendPacked(b []byte, in Interner) []byte {
	b = binary.AppendUvarint(b, uint64(len(s.Threads)))
	for i := range s.Threads {
		b = appendPackedThread(b, &s.Threads[i], in)
	}
	sc := s.sched()
	b = append(b, sc[:]...)
	b = binary.AppendUvarint(b, uint64(len(s.Pages)))
	return appendParts(b, s.Pages, in, nil)
}

// appendPackedThread appends t's part of a packed state.
func appendPackedThread(b []byte, t *Thread, in Interner) []byte {
	id := in.ThreadID(t)
	// What the thread's key has beyond the key it is numbered by (dead
	// registers, zeroed in a canonical key): usually nothing.
	k, c := t.Key(), in.ThreadKeyOf(id)
	b = binary.AppendUvarint(b, uint64(id))
	b = binary.AppendUvarint(b, k[0]^c[0])
	b = binary.AppendUvarint(b, k[1]^c[1])
	b = binary.AppendUvarint(b, uint64(t.PrevPC))
	b = binary.AppendUvarint(b, t.Cycles)
	b = binary.AppendUvarint(b, uint64(t.Dropped))
	b = append(b, t.NShadow)
	for _, a := range t.Shadow[:t.NShadow] {
		b = binary.AppendUvarint(b, uint64(a))
	}
	return b
}

// ParentPacked is to AppendPacked what ParentKey is to AppendKey: the
// packed form of a state being expanded, with where each of its parts
// starts, so that a successor in which one thread moved is packed by
// copying the rest of its parent's.
type ParentPacked struct {
	// Packed is the parent's packed form, as AppendPacked makes it.
	Packed  []byte
	buf     []byte  // what Set writes Packed into
	off     []int32 // where each thread's part, the scheduler bytes and each page's id start; then the end
	threads int
	written []int
}

// Set makes p the packed form of s.
func (p *ParentPacked) Set(s *State, in Interner) {
	b, off := p.buf[:0], p.off[:0]
	b = binary.AppendUvarint(b, uint64(len(s.Threads)))
	for i := range s.Threads {
		off = append(off, int32(len(b)))
		b = appendPackedThread(b, &s.Threads[i], in)
	}
	off = append(off, int32(len(b)))
	sc := s.sched()
	b = append(b, sc[:]...)
	b = binary.AppendUvarint(b, uint64(len(s.Pages)))
	b = appendParts(b, s.Pages, in, &off)
	off = append(off, int32(len(b)))
	p.Packed, p.buf, p.off, p.threads = b, b, off, len(s.Threads)
}

// Unpack makes s the state packed in b, as State.Unpack does, and p its
// packed form without encoding it again: b itself, which p reads (and
// never writes) until it is set again.
func (p *ParentPacked) Unpack(s *State, b []byte, npages int, r Resolver) error {
	off := p.off[:0]
	err := s.unpack(b, npages, r, &off)
	p.Packed, p.off, p.threads = b, off, len(s.Threads)
	if err != nil {
		p.Packed, p.off, p.threads = nil, off[:0], 0
	}
	return err
}

// AppendSuccessor appends s packed to b, where s is a successor of the
// parent in which only thread moved ran, made on an Expander's scratch
// state (see ParentKey.AppendSuccessor). The result equals
// s.AppendPacked(b, in).
func (p *ParentPacked) AppendSuccessor(b []byte, s *State, moved int, in Interner) []byte {
	if len(s.Threads) != p.threads {
		return s.AppendPacked(b, in)
	}
	enc, off, t := p.Packed, p.off, p.threads
	b = append(b, enc[:off[moved]]...)
	b = appendPackedThread(b, &s.Threads[moved], in)
	b = append(b, enc[off[moved+1]:off[t]]...)
	sc := s.sched()
	b = append(b, sc[:]...)
	b = binary.AppendUvarint(b, uint64(len(s.Pages)))
	p.written = s.Written(p.written[:0])
	return appendWrittenParts(b, enc, off[t+1:], s, p.written, in)
}

// ErrPacked means bytes given to Unpack are not a packed state of this
// machine.
var ErrPacked = errors.New("not a packed state")

// Unpack makes s the state AppendPacked wrote into b, for a machine whose
// states have npages pages (any number if npages < 0); its pages are the
// resolver's, which no state writes (s is frozen). Bytes that AppendPacked did not write give an
// error wrapping ErrPacked, never a state the simulator could not run.
func (s *State) Unpack(b []byte, npages int, r Resolver) error {
	return s.unpack(b, npages, r, nil)
}

// unpack is Unpack; when off is not nil, it also appends to it where each
// thread's part, the scheduler bytes and each page's id start, then the
// end (see ParentPacked).
func (s *State) unpack(b []byte, npages int, r Resolver, off *[]int32) error {
	d := packed{b: b}
	n := d.next()
	if d.bad || n == 0 || n > MaxThreads {
		return fmt.Errorf("%w: %d threads", ErrPacked, n)
	}
	s.Threads = s.Threads[:0]
	for range n {
		if off != nil {
			*off = append(*off, int32(d.at))
		}
		s.Threads = append(s.Threads, Thread{})
		if err := d.thread(&s.Threads[len(s.Threads)-1], len(s.Threads)-1, r); err != nil {
			return err
		}
	}
	if d.at+2 > len(b) {
		return fmt.Errorf("%w: truncated", ErrPacked)
	}
	if off != nil {
		*off = append(*off, int32(d.at))
	}
	s.Atomic, s.AtomicDepth = b[d.at], b[d.at+1]
	d.at += 2
	if int(s.Atomic) > len(s.Threads) {
		return fmt.Errorf("%w: atomic section %d, depth %d", ErrPacked, s.Atomic, s.AtomicDepth)
	}
	np := d.next()
	if d.bad || np > 1<<16/PageSize || npages >= 0 && np != uint64(npages) {
		return fmt.Errorf("%w: %d pages, the machine has %d", ErrPacked, np, npages)
	}
	if err := d.pages(s, int(np), r, off); err != nil {
		return err
	}
	if d.at != len(b) {
		return fmt.Errorf("%w: %d bytes after the last page", ErrPacked, len(b)-d.at)
	}
	if off != nil {
		*off = append(*off, int32(d.at))
	}
	s.Freeze()
	return nil
}

// packed reads a packed state (State.unpack): the bytes, where the next
// is, and whether a number ran past the end.
type packed struct {
	b   []byte
	at  int
	bad bool
}

// next reads a number.
func (d *packed) next() uint64 {
	v, k := binary.Uvarint(d.b[d.at:])
	if k <= 0 {
		d.bad = true
		return 0
	}
	d.at += k
	return v
}

// thread reads thread number i into t.
func (d *packed) thread(t *Thread, i int, r Resolver) error {
	id := d.next()
	if d.bad || id > 1<<32-1 || !r.LoadThread(t, uint32(id)) {
		return fmt.Errorf("%w: thread %d has no context", ErrPacked, i)
	}
	d0, d1 := d.next(), d.next()
	if d0 != 0 || d1 != 0 {
		tag, k := t.Tag, t.Key()
		k = ThreadKey{k[0] ^ d0, k[1] ^ d1}
		if d.bad || !k.Valid() {
			return fmt.Errorf("%w: thread %d", ErrPacked, i)
		}
		t.SetKey(k)
		t.Tag = tag // the id is that of the key it is numbered by
	}
	if t.Status > Exited {
		return fmt.Errorf("%w: thread %d has status %d", ErrPacked, i, t.Status)
	}
	pc, cyc, drop := d.next(), d.next(), d.next()
	if d.bad || d.at >= len(d.b) || pc > 0xFFFF || drop > 1<<32-1 {
		return fmt.Errorf("%w: thread %d", ErrPacked, i)
	}
	t.PrevPC, t.Cycles, t.Dropped = uint16(pc), cyc, uint32(drop)
	t.NShadow = d.b[d.at]
	d.at++
	if t.NShadow > MaxShadow {
		return fmt.Errorf("%w: thread %d has %d shadow frames", ErrPacked, i, t.NShadow)
	}
	for j := range t.NShadow {
		a := d.next()
		if d.bad || a > 0xFFFF {
			return fmt.Errorf("%w: thread %d's shadow stack", ErrPacked, i)
		}
		t.Shadow[j] = uint16(a)
	}
	return nil
}

// pages reads the ids of the np pages of s, alone or by groups, noting
// in off where each starts.
func (d *packed) pages(s *State, np int, r Resolver, off *[]int32) error {
	s.Pages = s.Pages[:0]
	g := groupSize(np)
	for len(s.Pages) < np {
		if off != nil {
			*off = append(*off, int32(d.at))
		}
		id := d.next()
		if d.bad || id > 1<<32-1 {
			return fmt.Errorf("%w: truncated at page %d", ErrPacked, len(s.Pages))
		}
		if g == 1 {
			p := r.Page(uint32(id))
			if p == nil {
				return fmt.Errorf("%w: page %d has no contents", ErrPacked, len(s.Pages))
			}
			s.Pages = append(s.Pages, p)
			continue
		}
		gr := r.Group(uint32(id))
		if gr == nil {
			return fmt.Errorf("%w: the group of page %d has no pages", ErrPacked, len(s.Pages))
		}
		for i, pid := range gr {
			var p *Page
			if pid != NoPage {
				p = r.Page(pid)
			}
			switch {
			case len(s.Pages) == np:
				if pid != NoPage {
					return fmt.Errorf("%w: the last group has page %d of %d", ErrPacked, len(s.Pages)+1, np)
				}
			case p == nil:
				return fmt.Errorf("%w: page %d (%d of its group) has no contents", ErrPacked, len(s.Pages), i)
			default:
				s.Pages = append(s.Pages, p)
			}
		}
	}
	return nil
}

// AppendLabel appends l to b in the form ReadLabel reads. The label of a
// transition that ran one instruction of one thread, with no interrupt and
// no nondeterministic choice (most labels, under --preempt every), is one
// byte: the thread's number. An environment event's label is its marker
// and the event number.
func AppendLabel(b []byte, l Label) []byte {
	if l.Event > 0 {
		return binary.AppendUvarint(append(b, labelEvent), uint64(l.Event))
	}
	if l.IRQ == -1 && l.Steps == 1 && l.Choice == 0 && l.Thread >= 0 && l.Thread < labelFull {
		return append(b, byte(l.Thread))
	}
	b = append(b, labelFull, byte(l.Thread), byte(l.IRQ+1))
	b = binary.AppendUvarint(b, uint64(l.Steps))
	return binary.AppendUvarint(b, l.Choice)
}

// labelFull starts a label written in full, labelEvent an environment
// event's; a one-byte label is below both.
const (
	labelFull  = 0x80
	labelEvent = 0x81
)

// ReadLabel reads a label AppendLabel wrote at the start of b, and its
// length in bytes; a length of 0 means b does not start with a label.
func ReadLabel(b []byte) (Label, int) {
	if len(b) == 0 {
		return Label{}, 0
	}
	if b[0] < labelFull {
		return Label{Thread: int(b[0]), IRQ: -1, Steps: 1}, 1
	}
	if b[0] == labelEvent {
		ev, k := binary.Uvarint(b[1:])
		if k <= 0 || ev == 0 || ev > 1<<32-1 {
			return Label{}, 0
		}
		return Label{IRQ: -1, Event: uint32(ev)}, 1 + k
	}
	if len(b) < 3 {
		return Label{}, 0
	}
	l := Label{Thread: int(b[1]), IRQ: int(b[2]) - 1}
	steps, k := binary.Uvarint(b[3:])
	if k <= 0 || steps > 1<<32-1 {
		return Label{}, 0
	}
	choice, k2 := binary.Uvarint(b[3+k:])
	if k2 <= 0 {
		return Label{}, 0
	}
	l.Steps, l.Choice = uint32(steps), choice
	return l, 3 + k + k2
}
