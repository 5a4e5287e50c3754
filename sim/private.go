package sim

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
	"github.com/hc11mc/hc11mc/internal/mutation"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"

	"github.com/hc11mc/hc11mc/loader"
)

// Stack-private accesses: the second kind of transition partial-order
// reduction follows alone (reduce.go gives the first, register-only
// instructions, and the argument this one extends).
//
// Whether another thread can reach a byte of t's stack cannot be decided
// from one state of machine code: a stack address escapes through a
// register stored anywhere, a handler may write through a pointer into the
// frame it interrupted, stacks grow into each other (testdata/soundness
// has each). So privacy is not proved in advance; it is assumed, and the
// assumption is checked on every transition the search executes.
//
// Regions. Thread t whose stack top is known (Thread.InitSP: SP at
// __mc_thread_create, or thread 0's first LDS) owns the region
// R_t = [lo, InitSP], where lo depends on InitSP, the image and what the
// search has learned (Machine.stackFloor, Machine.regionOf): the highest
// of the boundaries at or below InitSP — the start of the RAM region
// holding it, the address of a data symbol or of an absolute symbol (an
// equate) in RAM, one past a constant the code loads with LDS # or LDX #
// (a stack top), one past a byte an intrusion showed to be shared — and
// one past the nearest lower top of another live thread. A region is a function of the state: it changes
// only when a thread is given its top (which must not fall in another's
// region: an intrusion, below) or exits (which only widens the regions
// above it). On philosophers whose stacks are `stack1: .skip 32`, the
// region of the thread whose SP starts at stack1+31 is stack1..stack1+31.
//
// Intrusion. A transition of thread u intrudes when it reads, writes or
// fetches a byte in the region of another live thread t, or when it gives
// a thread a region (creates it, or thread 0's first LDS) that overlaps
// another live thread's. Regions are learned, not all-or-nothing: an
// intrusion at byte a of R_t = [lo, hi] takes [lo, a] out of the regions
// for good (a boundary at a+1, Machine.learn: the byte is a global, such
// as a fork an equate puts at the start of RAM, below the stacks), and
// out of every other region the bound reaches (below). If no transition
// followed alone so far relied on a byte the bound takes from any region
// (each records the lowest byte of its region it touched, and the
// region's top, Machine.rely), the search goes on with the smaller
// regions. Otherwise the machine records
// the intrusion (Machine.Intrusion), and the search stops and starts
// again from the beginning with the regions shrunk (RestartPrivacy; after
// a few restarts, or where regions must not change while a parallel
// search runs, without taking stacks as private at all).
//
// What a new bound takes. The boundary a+1 is not a fact of the state at
// hand: it holds in every state, for every region whose top is at or
// above a, of any thread. A region R = [l, h] of another state, or of
// another thread, may reach lower than the intruded one does here (its
// lower end is raised by the top of another live thread only where that
// thread is live, and tops differ from state to state), and it loses
// [l, a] when h ≥ a. So the question is not whether something relied on
// [lo, a] of the intruded region as it is now, but whether some
// transition followed alone, in any state stored so far, relied on a
// byte at or below a of a region whose top is at or above a. rely
// records, for each transition followed alone, the lowest byte of its
// region it touched together with that region's top (the highest top
// for each byte), and reliedLost asks exactly that, from reach(a): no
// region holding a starts lower in any state, so no region that loses
// bytes has a relied-on lowest byte below it. A region gives up nothing
// to a bound given by a thread's new top (Made) outside the states in
// which that thread lives with that top, each of which the creation
// reaches through a transition checked in its own state; the same
// question, asked of that top, is a superset there.
//
// Why going on is sound. Let R' be the regions after the shrink, as
// functions of the state: every region of every state is the same or
// smaller, and the part it loses is at or below a. Every transition
// followed alone so far, in whatever state, touched only bytes of its
// region from its recorded lowest byte up to its top; had that region
// lost a byte of them, the lowest would be at or below a and its top at
// or above a, which reliedLost excluded. So it touched only bytes of its
// region under R' too, and was private under R'. Every access so far of
// a byte of R' by another thread was checked against R ⊇ R' and was no
// intrusion, so none intruded under R'. The search so far is therefore
// one that used R' from its start, for which the argument below holds as
// it stands (the one access that was an intrusion under R is not one
// under R'). The same holds across a saved frontier: the snapshot
// carries the relied-on bytes and the bounds (learned.go), so a resumed
// search asks the question of the saved part's transitions too.

// Private transition. At state s, a transition τ of thread t is private
// when it is deterministic, runs no harness routine, is not a violation,
// t can take no interrupt at s (reduce.go: conditions 1 and 2 of the
// register-only case), and every byte τ reads, writes or fetches is RAM
// inside R_t and inside no other live thread's region, without
// intruding. A private τ is offered to the search like a register-only
// one.
//
// Why the verdict is kept. Let a target be a violation, a deadlock or an
// intrusion, and d(s) the length of a shortest path from s whose last
// transition is a target (or ends in a deadlock). Take such a path
// w = α·σ, σ the target, α target-free. α's transitions are of threads
// other than t until τ (t has no other transition at s), and as they do
// not intrude, none touches R_t; τ touches nothing else and no register
// but t's. The effective address of a 68HC11 instruction depends only on
// its thread's registers and on the instruction (there is no
// memory-indirect mode), and regions depend only on the stack tops and
// the image: so a transition of α (or σ) does the same and accesses the
// same bytes before or after τ, creates the same region, and intrudes
// exactly when it did. Hence, as in reduce.go: if τ is in α, τ commutes
// to the front and d(τ(s)) < d(s); if not, τ·α·σ is a path of the same
// targets and d(τ(s)) ≤ d(s) (a σ that is τ itself, intruding on a region
// created in α, cannot be: that region's creation overlapped R_t, a target
// in α). With the cycle proviso (reduce.go), the reduced search therefore
// reaches a target whenever the full search does. So if it reports
// neither a violation nor an intrusion, the full graph has no violation.
// If it sees an intrusion that a followed-alone transition relied on, the
// search stops and runs again with the region shrunk (package search; the
// result says so), keeping any violation it found, which is real: every
// path of the reduced graph is a path of the full one.
//
// What it costs: one comparison per memory access while checking is on
// (and a loop over the regions for an access inside their span), and a
// search again, from the start, for firmware whose threads do share their
// stacks.

// Intrusion describes a transition that broke the privacy of a stack.
type Intrusion struct {
	Thread int    // the thread that moved
	PC     uint16 // the instruction (or harness call) that intruded
	Addr   uint16 // the byte
	Owner  int    // the thread whose region holds it
	// Made is, when not -1, the thread given a stack top (created, or
	// thread 0 by its first LDS) whose region overlaps Owner's.
	Made int
}

func (in *Intrusion) String() string {
	if in.Made >= 0 {
		return fmt.Sprintf("thread %d at 0x%04X gave thread %d a stack reaching into thread %d's stack region (at 0x%04X)",
			in.Thread, in.PC, in.Made, in.Owner, in.Addr)
	}
	return fmt.Sprintf("thread %d at 0x%04X accessed 0x%04X in thread %d's stack", in.Thread, in.PC, in.Addr, in.Owner)
}

// privacy states of a Machine.
const (
	privOff       = iota // no checking
	privOn               // checking; private transitions may be followed alone
	privWithdrawn        // an intrusion was seen: no checking, nothing is private
)

// CheckPrivate turns checking of stack privacy on (see the comment above)
// and reports whether private transitions may be followed alone: false
// once an intrusion has been seen by any search of this machine, or
// under a preemption mode other than every.
func (m *Machine) CheckPrivate() bool {
	if !m.reducible() {
		return false
	}
	m.priv.CompareAndSwap(privOff, privOn)
	return m.priv.Load() == privOn
}

// Intrusion returns the first intrusion seen, or nil.
func (m *Machine) Intrusion() *Intrusion { return m.intrusion.Load() }

// intrude handles an intrusion into the region [lo, …] of in.Owner, which
// in.Addr (the byte touched, or the top of the region given) splits. The
// region shrinks so that it starts above in.Addr; if no transition
// followed alone relied on a byte of what it loses, nothing done so far
// depended on it and the search goes on. Otherwise (or under
// StrictPrivacy) the intrusion is recorded and privacy withdrawn until
// the search starts again (RestartPrivacy).
func (m *Machine) intrude(in Intrusion, lo uint16) {
	if mutation.On(mutation.NoIntrusion) {
		return
	}
	if !m.strict.Load() && (!m.reliedLost(in.Addr, lo) || mutation.On(mutation.IgnoreReliance)) {
		if in.Made < 0 {
			m.learn(in.Addr + 1)
		} else {
			m.shrinks.Add(1) // the new top bounds the region (regionOf)
		}
		return
	}
	m.intrusion.CompareAndSwap(nil, &in)
	m.priv.Store(privWithdrawn)
}

// privateState is the part of Machine that stack privacy keeps.
type privateState struct {
	priv      atomic.Uint32
	intrusion atomic.Pointer[Intrusion]
	floor     []uint16 // stackFloor by address, as first drawn
	pageBase  []uint16 // the first address of each page of a state (SharedHash)

	// learned holds, sorted, the boundaries intrusions have added: a
	// region whose top is at or above b-1 starts at b or higher.
	learned  atomic.Pointer[[]uint16]
	learnMu  sync.Mutex
	shrinks  atomic.Uint64
	restarts atomic.Uint32
	// relied holds, by address a, one more than the highest stack top
	// of the regions whose transitions followed alone as private touched
	// a as their lowest byte of the region (0: none): the search relies
	// on the bytes from a up to that top being private (rely, reliedLost).
	relied []atomic.Uint32
	// strict: every intrusion needs a search again (a parallel search,
	// whose workers own states by a hash of what is outside the regions).
	strict atomic.Bool
}

// stackFloor returns the lowest address of the region of a stack whose
// top is hi, and false when hi is not in RAM or the region is empty.
func (m *Machine) stackFloor(hi uint16) (uint16, bool) {
	lo := m.floor[hi]
	if lo > hi {
		return lo, false
	}
	if l := m.learned.Load(); l != nil {
		for _, b := range *l {
			if uint32(b) > uint32(hi)+1 {
				break
			}
			lo = max(lo, b)
		}
	}
	return lo, lo <= hi
}

// rely records that a transition followed alone relied on the privacy
// of its region, whose top is top, from byte low up.
func (m *Machine) rely(low, top uint16) {
	w := &m.relied[low]
	for {
		cur := w.Load()
		if cur > uint32(top) || w.CompareAndSwap(cur, uint32(top)+1) {
			return
		}
	}
}

// reliedLost reports whether a bound at a+1 (a region of a top at or
// above a starts above a) takes from some region, in any state, a byte
// a transition followed alone relied on; lo is the low end of the
// region in the state at hand, which holds a. A region R = [l, h] loses
// a byte it relied on exactly when h ≥ a and the lowest byte of R some
// transition relied on is at or below a: so the question is whether
// some recorded lowest byte x ≤ a was recorded with a top ≥ a. Every
// region holding such an x and a starts at or above reach(a), the
// lowest start a region holding a can have in any state, so the search
// goes from there.
func (m *Machine) reliedLost(a, lo uint16) bool {
	from := min(m.reach(a), lo)
	if mutation.On(mutation.CurrentReliance) {
		// The question of the state at hand only: any top, from lo.
		for x := uint32(lo); x <= uint32(a); x++ {
			if m.relied[x].Load() != 0 {
				return true
			}
		}
		return false
	}
	for x := uint32(from); x <= uint32(a); x++ {
		if m.relied[x].Load() > uint32(a) {
			return true
		}
	}
	return false
}

// reach returns the lowest address at which a stack region that holds
// the byte a can start, in any state, with the boundaries learned so
// far: the last boundary at or below a (stackFloor's, but with no live
// thread's top above it). A region holding a has a top at or above a,
// whose floor is no lower (the floors rise with the address), and no
// learned boundary above a applies to it, or it would not hold a. A byte
// that is not plain RAM (an input held, say) has no floor of its own:
// that of the nearest RAM byte below it stands for it, and where there
// is none, a itself (the caller's lo bounds it).
func (m *Machine) reach(a uint16) uint16 {
	b := a
	for m.floor[b] > b && b > 0 {
		b--
	}
	lo := m.floor[b]
	if lo > b {
		return a
	}
	if l := m.learned.Load(); l != nil {
		for _, b := range *l {
			if b > a {
				break
			}
			lo = max(lo, b)
		}
	}
	return lo
}

// learn adds the boundary b: the regions of stacks whose top is at or
// above b-1 start at b or above.
func (m *Machine) learn(b uint16) {
	m.learnMu.Lock()
	defer m.learnMu.Unlock()
	var l []uint16
	if old := m.learned.Load(); old != nil {
		l = append(l, *old...)
	}
	i := sort.Search(len(l), func(i int) bool { return l[i] >= b })
	if i < len(l) && l[i] == b {
		return
	}
	l = append(l, 0)
	copy(l[i+1:], l[i:])
	l[i] = b
	m.learned.Store(&l)
	m.shrinks.Add(1)
}

// Shrinks is the number of times an intrusion shrank a stack region
// instead of breaking privacy (private.go).
func (m *Machine) Shrinks() uint64 { return m.shrinks.Load() }

// StrictPrivacy makes every intrusion break privacy (a search again),
// for a search that cannot let regions shrink while it runs.
func (m *Machine) StrictPrivacy() { m.strict.Store(true) }

// maxRestarts bounds how often a search starts again with regions shrunk
// before it withdraws privacy altogether.
const maxRestarts = 8

// RestartPrivacy readies m for a search again after an intrusion broke
// privacy: the regions stay as the intrusions shrank them, nothing is
// relied on, and checking is on. It reports false when m has been
// restarted too often, or when the intrusion gave a thread a stack top
// inside another's region; privacy then stays withdrawn.
func (m *Machine) RestartPrivacy() bool {
	in := m.intrusion.Load()
	if in == nil || in.Made >= 0 || m.restarts.Add(1) > maxRestarts {
		// A thread given a top inside a region the search relied on:
		// the regions are a function of the tops, and would overlap
		// again.
		return false
	}
	m.learn(in.Addr + 1)
	for i := range m.relied {
		m.relied[i].Store(0)
	}
	m.intrusion.Store(nil)
	m.priv.Store(privOn)
	return true
}

// stackFloors computes stackFloor for every address: boundaries are the
// starts of RAM regions and the addresses of symbols in them; an address
// outside RAM has floor 0xFFFF and no region (unless it is 0xFFFF, which
// is ROM on every chip).
func (m *Machine) stackFloors() []uint16 {
	for i, p := range m.pageOf {
		if p >= 0 {
			m.pageBase = append(m.pageBase, uint16(i*PageSize))
		}
	}
	floor := make([]uint16, 65536)
	for i := range floor {
		floor[i] = 0xFFFF
	}
	var bounds []int
	for _, r := range m.Image.Map.Regions {
		if r.Kind == loader.RegionRAM {
			bounds = append(bounds, int(r.Lo))
		}
	}
	for _, s := range m.Image.Symbols {
		// Data symbols and equates (absolute symbols) in RAM are globals.
		if s.Kind != loader.SymFunc && m.attr[s.Addr] == attrRAM {
			bounds = append(bounds, int(s.Addr))
		}
	}
	// A stack top the code loads as a constant (lds #top, or ldx #top for
	// __mc_thread_create) ends the region below it.
	for a := range m.code {
		c := &m.code[a]
		if c.ok && c.in.Mode == isa.Imm16 && (c.in.Op == isa.LDS || c.in.Op == isa.LDX) &&
			c.in.Operand < 0xFFFF && m.attr[c.in.Operand+1] == attrRAM {
			bounds = append(bounds, int(c.in.Operand)+1)
		}
	}
	sort.Ints(bounds)
	for _, r := range m.Image.Map.Regions {
		if r.Kind != loader.RegionRAM {
			continue
		}
		for a := int(r.Lo); a <= int(r.Hi); a++ {
			if m.attr[a] != attrRAM {
				continue
			}
			k := sort.SearchInts(bounds, a+1) - 1 // the last bound ≤ a
			floor[a] = uint16(max(bounds[k], int(r.Lo)))
		}
	}
	return floor
}

// region is an inclusive address range.
type region struct{ lo, hi uint16 }

// regionOf returns the stack region of thread j of s, ok false when it
// has none: from the boundary below its top (stackFloor), or from just
// above the nearest lower top of another live thread, whichever is
// higher, to its top.
func (m *Machine) regionOf(s *State, j int) (region, bool) {
	t := &s.Threads[j]
	if t.Status == Exited || t.InitSP == 0 {
		return region{}, false
	}
	lo, ok := m.stackFloor(t.InitSP)
	if !ok {
		return region{}, false
	}
	for k := range s.Threads {
		u := &s.Threads[k]
		if k != j && u.Status != Exited && u.InitSP != 0 && u.InitSP < t.InitSP && u.InitSP >= lo {
			lo = u.InitSP + 1
		}
	}
	return region{lo, t.InitSP}, true
}

// PrivateOverlap reports whether stack privacy is being checked and some
// byte of [lo, hi] lies in the stack region of a live thread of s other
// than thread tid: an engine that would read such a range without naming
// the byte (a symbolic table lookup) must name it, so that an intrusion
// is seen.
func (m *Machine) PrivateOverlap(s *State, tid int, lo, hi uint16) bool {
	if m.priv.Load() != privOn {
		return false
	}
	for j := range s.Threads {
		if j == tid {
			continue
		}
		if r, ok := m.regionOf(s, j); ok && r.lo <= hi && lo <= r.hi {
			return true
		}
	}
	return false
}

// guard is the stepper's view of the stack regions during one transition.
type guard struct {
	on      bool   // checking
	public  bool   // the transition touched a byte that is not private to it
	low     uint16 // the lowest byte of its own region it touched
	own     region
	hasOwn  bool
	span    region // the union of the others' regions' extents
	n       int
	others  [MaxThreads]region
	owners  [MaxThreads]uint8
	pcStart uint16
	// romByImage is the fault mutation.ROMByImage, read at setGuard.
	romByImage bool
}

// setGuard prepares x's guard for a transition of thread x.tid.
func (x *stepper) setGuard() {
	g := &x.g
	g.on, g.public, g.n, g.low = true, false, 0, 0xFFFF
	g.romByImage = mutation.On(mutation.ROMByImage)
	x.watch = true
	g.own, g.hasOwn = x.m.regionOf(x.s, x.tid)
	g.span = region{0xFFFF, 0}
	g.pcStart = x.t.PC
	for j := range x.s.Threads {
		if j == x.tid {
			continue
		}
		r, ok := x.m.regionOf(x.s, j)
		if !ok {
			continue
		}
		g.others[g.n], g.owners[g.n] = r, uint8(j)
		g.n++
		g.span.lo, g.span.hi = min(g.span.lo, r.lo), max(g.span.hi, r.hi)
	}
}

// touchRead checks a read of byte a by the transition (reduce.go,
// "Reads of read-only memory"): a read of ROM in the state's memory map
// touches nothing another transition can change, so it leaves the
// transition private; any other read is an access (touch).
func (x *stepper) touchRead(a uint16) {
	attr := x.lay.attr[a]
	if x.g.romByImage {
		attr = x.m.attr[a]
	}
	if attr == attrROM {
		return
	}
	x.touch(a)
}

// touch checks an access of byte a by the transition.
func (x *stepper) touch(a uint16) {
	g := &x.g
	if !g.hasOwn || a < g.own.lo || a > g.own.hi || x.lay.attr[a] != attrRAM {
		g.public = true
	} else {
		g.low = min(g.low, a)
	}
	if a < g.span.lo || a > g.span.hi {
		return
	}
	for k := 0; k < g.n; k++ {
		if r := g.others[k]; a >= r.lo && a <= r.hi {
			g.public = true
			x.m.intrude(Intrusion{Thread: x.tid, PC: x.t.PC, Addr: a, Owner: int(g.owners[k]), Made: -1}, r.lo)
			return
		}
	}
}

// regionGiven checks the region thread j has just been given (its stack
// top set) against the other live threads' regions.
func (x *stepper) regionGiven(j int) {
	r, ok := x.m.regionOf(x.s, j)
	if !ok {
		return
	}
	x.g.public = true
	for k := range x.s.Threads {
		if k == j {
			continue
		}
		// The other's region as it was: with j's top not yet set.
		o, ok := x.g.own, x.g.hasOwn
		if k != x.tid {
			o, ok = region{}, false
			for n := 0; n < x.g.n; n++ {
				if int(x.g.owners[n]) == k {
					o, ok = x.g.others[n], true
				}
			}
		}
		if ok && o.lo <= r.hi && r.lo <= o.hi {
			x.m.intrude(Intrusion{Thread: x.tid, PC: x.g.pcStart, Addr: min(r.hi, o.hi), Owner: k, Made: j}, o.lo)
			return
		}
	}
}

// privateCandidate reports whether the instruction of code cache entry c
// may be tried as a private transition: decoded from read-only bytes, no
// harness routine, neither halting nor trapping.
func privateCandidate(c *centry) bool {
	if !c.ok || c.hook != loader.NoStub || c.in.Mode == 0 {
		return false
	}
	ef := c.in.Effects()
	return !ef.Halt && !ef.Vector
}

// SharedHash returns a hash of the memory of s outside the stack regions
// of its live threads (and of its scheduler bytes). A parallel search
// decides by it which worker owns a state, so that a transition that
// touches only its thread's stack keeps its successor with the worker
// expanding it, which partial-order reduction needs (package search). It
// is a function of the state alone: equal states hash alike.
func (m *Machine) SharedHash(s *State) uint64 {
	var rs [MaxThreads]region
	n := 0
	for j := range s.Threads {
		if r, ok := m.regionOf(s, j); ok {
			rs[n] = r
			n++
		}
	}
	sc := s.sched()
	h := uint64(sc[0])<<8 | uint64(sc[1])
	var buf [PageSize]byte
	for i, p := range s.Pages {
		if i >= len(m.pageBase) {
			break
		}
		// The bytes of the page inside some region, as a bit mask.
		base := int(m.pageBase[i])
		var in uint64
		for k := 0; k < n; k++ {
			lo, hi := max(int(rs[k].lo), base), min(int(rs[k].hi), base+PageSize-1)
			for a := lo; a <= hi; a++ {
				in |= 1 << (a - base)
			}
		}
		var ph uint64
		switch in {
		case 0:
			ph = p.Hash()
		case ^uint64(0):
			continue
		default:
			k := 0
			for a := range PageSize {
				if in&(1<<a) == 0 {
					buf[k] = p.Data[a]
					k++
				}
			}
			ph = xxhash.Sum64(buf[:k])
		}
		h = (h^uint64(i))*0x9E3779B97F4A7C15 ^ ph
	}
	return h ^ h>>29
}

// privUse is what the stack guard saw of one transition (runFrom).
type privUse struct {
	public bool   // it touched a byte not private to it
	low    uint16 // the lowest byte of its own region it touched
	top    uint16 // the top of its own region
}
