package sim

import (
	"encoding/binary"
	"math/bits"

	"github.com/cespare/xxhash/v2"
)

// PageSize is the size of a memory page. A state's writable memory is a
// vector of pages shared between states until one of them writes (copy on
// write), so a successor costs one page copy per page it changes.
const PageSize = 64

// Page is one page of writable memory. A page reachable from more than one
// state is never written again; its hash is computed once.
type Page struct {
	Data [PageSize]byte
	// Tag is free for a visited-state store to cache the page's index in
	// its intern table (see package search); the simulator never reads it.
	Tag uint64
	// Base is free for a store too: the Tag of the page this one was
	// copied from when a state first wrote it (or that page's own Base,
	// when it had no Tag), so that a store may keep this page as its few
	// bytes that differ from that one; the simulator never reads it.
	Base   uint64
	hash   uint64
	hashed bool
}

// Hash returns the page's xxhash, cached.
func (p *Page) Hash() uint64 {
	if !p.hashed {
		p.hash = xxhash.Sum64(p.Data[:])
		p.hashed = true
	}
	return p.hash
}

// Thread status values.
const (
	Running uint8 = iota // executing or ready
	Waiting              // in WAI: registers stacked, waiting for an interrupt
	Stopped              // in STOP with S clear: waiting for an interrupt
	Exited               // ended
)

// MaxShadow is how many return-address slots a thread's shadow call stack
// keeps; deeper calls drop the outermost ones (Thread.Dropped counts them).
const MaxShadow = 32

// CPU is the register set of one context.
type CPU struct {
	A, B   uint8
	CCR    uint8
	X, Y   uint16
	SP, PC uint16
}

// D returns the 16-bit accumulator A:B.
func (c *CPU) D() uint16 { return uint16(c.A)<<8 | uint16(c.B) }

// SetD sets A:B.
func (c *CPU) SetD(d uint16) { c.A, c.B = uint8(d>>8), uint8(d) }

// Thread is one CPU context. Its identity for hashing and comparison is the
// registers, InitSP, Status, CS and Inhibit; Cycles, the shadow stack and PrevPC are
// bookkeeping that two equal states may differ in, and nothing the
// simulator decides depends on them.
type Thread struct {
	CPU
	Status uint8
	CS     uint8 // depth of __mc_cs_enter without __mc_cs_exit
	// Inhibit is 1 after a CLI or TAP that cleared I, until the thread's
	// next instruction: no maskable interrupt is taken in between
	// (Machine.inhibitAfter, the manual's one-cycle delay).
	Inhibit uint8

	InitSP  uint16 // the top of this thread's stack: SP at creation, or thread 0's first LDS
	PrevPC  uint16 // PC of the last instruction executed
	Cycles  uint64 // E-clock cycles executed by this thread
	Dropped uint32 // shadow entries lost to the MaxShadow bound
	// Tag is free for a visited-state store to cache the index of this
	// thread's identity in its intern table (see package search); the
	// simulator clears it whenever the thread runs or takes an interrupt.
	Tag     uint64
	NShadow uint8
	// Shadow holds, innermost last, the stack address at which each live
	// call or interrupt frame keeps its return address (the high byte).
	// Return addresses are read from memory through these slots, so the
	// shadow stack follows firmware that rewrites its own stack.
	Shadow [MaxShadow]uint16
}

// pushShadow records a return address stored at slot.
func (t *Thread) pushShadow(slot uint16) {
	if int(t.NShadow) == MaxShadow {
		copy(t.Shadow[:], t.Shadow[1:])
		t.NShadow--
		t.Dropped++
	}
	t.Shadow[t.NShadow] = slot
	t.NShadow++
}

// popShadow resynchronises the shadow stack when a return pulls its address
// from slot: every frame at or below that slot (pushed later) is gone.
func (t *Thread) popShadow(slot uint16) {
	for t.NShadow > 0 && t.Shadow[t.NShadow-1] <= slot {
		t.NShadow--
	}
}

// dropDeadShadow forgets frames above the top of the stack after firmware
// moved SP up past them (LDS, TXS, INS …).
func (t *Thread) dropDeadShadow() {
	for t.NShadow > 0 && t.Shadow[t.NShadow-1] <= t.SP {
		t.NShadow--
	}
}

// State is one global state of the system: every thread's context, the
// writable memory and the scheduler's flags. States are values: Clone makes
// an independent copy sharing unchanged pages. Equal states have equal
// hashes (Hash covers exactly what Equal compares).
type State struct {
	Threads     []Thread
	Pages       []*Page
	Atomic      uint8 // 0, or thread id + 1 of the thread inside __mc_atomic_begin
	AtomicDepth uint8

	// owned marks the pages this state made itself since it was last
	// cloned or frozen: only those are written in place; any other page
	// may be shared and is copied on its first write.
	owned   uint64   // pages 0..63
	ownedHi []uint64 // pages 64 and up, when the map has that many

	pool *[]*Page // an Expander's scratch state takes new pages from here
}

// Wrote reports whether page i was written since s was last cloned or
// frozen: for a successor on an Expander's scratch state, whether the
// transition changed that page (every other page is the parent's).
func (s *State) Wrote(i int) bool { return s.owns(i) }

// Written appends to dst the indexes, in increasing order, of the pages
// for which Wrote holds.
func (s *State) Written(dst []int) []int {
	for w := s.owned; w != 0; w &= w - 1 {
		dst = append(dst, bits.TrailingZeros64(w))
	}
	for k, w := range s.ownedHi {
		for ; w != 0; w &= w - 1 {
			dst = append(dst, 64*(k+1)+bits.TrailingZeros64(w))
		}
	}
	return dst
}

func (s *State) owns(i int) bool {
	if i < 64 {
		return s.owned&(1<<i) != 0
	}
	j := i/64 - 1
	return j < len(s.ownedHi) && s.ownedHi[j]&(1<<(i%64)) != 0
}

func (s *State) own(i int) {
	if i < 64 {
		s.owned |= 1 << i
		return
	}
	j := i/64 - 1
	for len(s.ownedHi) <= j {
		s.ownedHi = append(s.ownedHi, 0)
	}
	s.ownedHi[j] |= 1 << (i % 64)
}

// stateBlock lays a small state out in one allocation: the state, its
// threads and its page vector.
type stateBlock struct {
	s  State
	th [4]Thread
	pg [24]*Page
}

type stateBlock2 struct {
	s  State
	th [2]Thread
	pg [24]*Page
}

// Clone returns a copy of s that can be changed without affecting s. Both
// give up in-place writing of their pages: the next write to a page copies it.
func (s *State) Clone() *State {
	var n *State
	switch nt, np := len(s.Threads), len(s.Pages); {
	case nt <= 2 && np <= 24:
		b := &stateBlock2{}
		n = &b.s
		n.Threads = append(b.th[:0:2], s.Threads...)
		n.Pages = append(b.pg[:0:np], s.Pages...)
	case nt <= 4 && np <= 24:
		b := &stateBlock{}
		n = &b.s
		n.Threads = append(b.th[:0:4], s.Threads...)
		n.Pages = append(b.pg[:0:np], s.Pages...)
	default:
		n = &State{
			Threads: append([]Thread(nil), s.Threads...),
			Pages:   append([]*Page(nil), s.Pages...),
		}
	}
	n.Atomic, n.AtomicDepth = s.Atomic, s.AtomicDepth
	s.Freeze()
	return n
}

// page returns page i ready to be written.
func (s *State) page(i int) *Page {
	p := s.Pages[i]
	if !s.owns(i) {
		var np *Page
		if s.pool != nil && len(*s.pool) > 0 {
			free := *s.pool
			np = free[len(free)-1]
			*s.pool = free[:len(free)-1]
			*np = Page{Data: p.Data, Base: p.Tag}
		} else {
			np = &Page{Data: p.Data, Base: p.Tag}
		}
		if np.Base == 0 {
			np.Base = p.Base
		}
		s.Pages[i] = np
		s.own(i)
		return np
	}
	p.hashed = false
	return p
}

// Hash returns the 64-bit fingerprint of the state: the xxhash of what
// Equal compares (see key.go).
func (s *State) Hash() uint64 {
	var d xxhash.Digest
	d.Reset()
	var buf [16]byte
	for i := range s.Threads {
		k := s.Threads[i].Key()
		binary.LittleEndian.PutUint64(buf[:], k[0])
		binary.LittleEndian.PutUint64(buf[8:], k[1])
		d.Write(buf[:])
	}
	sc := s.sched()
	buf[0], buf[1], buf[2] = byte(len(s.Threads)), sc[0], sc[1]
	d.Write(buf[:3])
	for _, p := range s.Pages {
		binary.LittleEndian.PutUint64(buf[:], p.Hash())
		d.Write(buf[:8])
	}
	return d.Sum64()
}

// Equal reports whether two states are the same global state: the same
// threads' keys, scheduler bytes and page contents (see key.go).
func (s *State) Equal(o *State) bool {
	if len(s.Threads) != len(o.Threads) || s.sched() != o.sched() || len(s.Pages) != len(o.Pages) {
		return false
	}
	for i := range s.Threads {
		if s.Threads[i].Key() != o.Threads[i].Key() {
			return false
		}
	}
	for i, p := range s.Pages {
		q := o.Pages[i]
		if p != q && p.Data != q.Data {
			return false
		}
	}
	return true
}

// Freeze marks every page of s shared, so that s can be kept (in a visited
// set, a frontier) while copies of it are changed.
func (s *State) Freeze() {
	s.owned = 0
	for i := range s.ownedHi {
		s.ownedHi[i] = 0
	}
}
