package sim

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/hc11mc/hc11mc/internal/mutation"
)

// Learned is what a machine learned while searching that later
// transitions are judged by, and that a search continued from a saved
// frontier (package search, --resume) must start from: the visited set
// it resumes holds states that were stored, merged and expanded under
// these facts, so a machine that started without them would judge the
// rest of the search by other rules than the part already done.
//
//   - Stack privacy (private.go): whether it is being checked or was
//     withdrawn, the boundaries intrusions added (a resumed machine
//     without them would take as private bytes the search already saw
//     shared, and miss the intrusions that showed it, which lie in the
//     part already searched), the bytes transitions followed alone
//     relied on (without them, an intrusion in the resumed part would
//     shrink a region under a transition of the earlier part that
//     relied on it, and the search would go on), the count of shrinks
//     and of searches again.
//   - Dead-stack masking (deadstack.go): the lowest address a pull left
//     below SP, on which the masked set depends, and whether the
//     masking was withdrawn. A resumed machine that had pulled nothing
//     would mask nothing and check no read against the masked set,
//     though states of the visited set were merged on masked keys: a
//     read that tells two merged states apart would go unseen.
//   - What the result reports as conditions: the inputs held constant
//     that the firmware read, the waiting loops --sci-timing idle found,
//     the returns liveness did not expect.
//
// Learned is a plain value (gob encodes it).
type Learned struct {
	Privacy  uint32   // privOff, privOn or privWithdrawn
	Bounds   []uint16 // the boundaries intrusions added, increasing
	Relied   []uint32 // address<<17 | top+1 of each byte relied on (private.go: relied), increasing
	Shrinks  uint64
	Restarts uint32

	LowPulled uint32 // deadState.lowPulled
	DeadOff   bool

	HeldRegs       []uint64 // heldState.regs, a bit per register
	HeldAddrs      []uint64 // heldState.addrs, a bit per address
	WaitPCs        []uint64
	ForeignReturns uint64
}

// Learned returns what m has learned so far (see the type).
func (m *Machine) Learned() Learned {
	if mutation.On(mutation.ForgetLearned) {
		// As a machine that has searched nothing.
		var fresh Machine
		return Learned{HeldRegs: loadBits(fresh.held.regs[:]), HeldAddrs: loadBits(fresh.held.addrs[:]), WaitPCs: loadBits(fresh.waitPCs[:])}
	}
	l := Learned{
		Privacy:        m.priv.Load(),
		Shrinks:        m.shrinks.Load(),
		Restarts:       m.restarts.Load(),
		LowPulled:      m.lowPulled.Load(),
		DeadOff:        m.deadOff.Load(),
		HeldRegs:       loadBits(m.held.regs[:]),
		HeldAddrs:      loadBits(m.held.addrs[:]),
		WaitPCs:        loadBits(m.waitPCs[:]),
		ForeignReturns: m.foreignReturns.Load(),
	}
	if b := m.learned.Load(); b != nil {
		l.Bounds = slices.Clone(*b)
	}
	for a := range m.relied {
		if v := m.relied[a].Load(); v != 0 {
			l.Relied = append(l.Relied, uint32(a)<<17|v)
		}
	}
	return l
}

// Restore makes what m has learned that of l, as Learned returned it
// for a machine of the same image and configuration; it refuses facts
// that no machine could have learned (from a damaged or made-up file),
// leaving m as it was.
func (m *Machine) Restore(l Learned) error {
	switch {
	case l.Privacy > privWithdrawn:
		return fmt.Errorf("stack privacy in state %d", l.Privacy)
	case l.LowPulled > 0x10000:
		return fmt.Errorf("a pulled address of %d", l.LowPulled)
	case len(l.HeldRegs) != len(m.held.regs) || len(l.HeldAddrs) != len(m.held.addrs) || len(l.WaitPCs) != len(m.waitPCs):
		return fmt.Errorf("sets of %d, %d and %d words", len(l.HeldRegs), len(l.HeldAddrs), len(l.WaitPCs))
	case l.Restarts > maxRestarts+1:
		return fmt.Errorf("%d searches again", l.Restarts)
	}
	for i, b := range l.Bounds {
		if i > 0 && b <= l.Bounds[i-1] {
			return fmt.Errorf("stack region bounds out of order")
		}
	}
	for i, r := range l.Relied {
		if i > 0 && r>>17 <= l.Relied[i-1]>>17 || r&0x1FFFF == 0 || r&0x1FFFF > 0x10000 || r>>17 > 0xFFFF {
			return fmt.Errorf("relied-on bytes out of order or out of range")
		}
	}
	m.priv.Store(l.Privacy)
	if len(l.Bounds) == 0 {
		m.learned.Store(nil)
	} else {
		b := slices.Clone(l.Bounds)
		m.learned.Store(&b)
	}
	for a := range m.relied {
		m.relied[a].Store(0)
	}
	for _, r := range l.Relied {
		m.relied[r>>17].Store(r & 0x1FFFF)
	}
	m.shrinks.Store(l.Shrinks)
	m.restarts.Store(l.Restarts)
	m.lowPulled.Store(l.LowPulled)
	m.deadOff.Store(l.DeadOff)
	storeBits(m.held.regs[:], l.HeldRegs)
	storeBits(m.held.addrs[:], l.HeldAddrs)
	storeBits(m.waitPCs[:], l.WaitPCs)
	m.foreignReturns.Store(l.ForeignReturns)
	return nil
}

// loadBits copies a set of bits.
func loadBits(set []atomic.Uint64) []uint64 {
	out := make([]uint64, len(set))
	for i := range set {
		out[i] = set[i].Load()
	}
	return out
}

// storeBits makes set the bits of b (of its length).
func storeBits(set []atomic.Uint64, b []uint64) {
	for i := range set {
		set[i].Store(b[i])
	}
}
