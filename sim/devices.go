package sim

import (
	"fmt"
	"sync"

	"github.com/hc11mc/hc11mc/devices"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// The peripherals (Config.Device) in the simulator.
//
// A state keeps the device's Block in pages: the register block's pages,
// mapped where INIT puts the block, hold the registers as the firmware
// reads them, and one more page, mapped at no address and kept after all
// the others, holds the hidden bytes. So the device's state is hashed,
// compared, keyed and packed as page contents (key.go), and a transition
// that does not touch the peripherals shares their pages with its parent.
// An access of the register block copies the pages into a Block, calls
// the device and writes back the pages that changed; nothing else on the
// instruction path knows about devices.
//
// Transitions: a pending interrupt (Device.Pending) is taken by a thread
// whose I bit is clear, before its next instruction — it is that thread's
// only move, as on the chip; an environment event (Device.Events) is a
// transition of its own, labelled with Label.Event, at every state. After
// each transition the device learns the E cycles it took (Device.Elapse)
// while it asks for them (devices.FlagClocked).

// OutputKind says what a transition showed the outside world.
type OutputKind uint8

// Kinds of outputs.
const (
	OutSCI   OutputKind = iota + 1 // the SCI sent Value
	OutPort                        // the firmware wrote Value to port register Addr
	OutBoard                       // the firmware wrote Value to board hardware at Addr
)

// Output is one thing a transition showed the outside world.
type Output struct {
	Kind  OutputKind
	Addr  uint16
	Value uint8
}

var blockPool = sync.Pool{New: func() any { return new(devices.Block) }}

// setDevice marks the register block and the board ranges in the reset
// layout.
func (m *Machine) setDevice(img *loader.Image, cfg Config) error {
	var regs, ram loader.Region
	if cfg.Device != nil {
		chip, err := loader.FindChip(img.Chip)
		if err != nil {
			return err
		}
		var ok, ok2 bool
		regs, ok = chip.Registers()
		ram, ok2 = chip.RAM()
		if !ok || !ok2 {
			return fmt.Errorf("chip profile %q has no on-chip peripherals", chip.Name)
		}
	}
	for _, r := range cfg.Board {
		if r.Hi < r.Lo {
			return fmt.Errorf("--device 0x%04X-0x%04X: the range is empty", r.Lo, r.Hi)
		}
		if err := m.boardOverlap(r, regs, cfg.Device != nil); err != nil {
			return err
		}
		for a := int(r.Lo); a <= int(r.Hi); a++ {
			m.attr[a] = attrBoard
		}
	}
	m.board = cfg.Board
	if cfg.Device == nil {
		return nil
	}
	m.dev = cfg.Device
	for off := range m.observes {
		m.observes[off] = m.dev.Observes(off)
	}
	m.chipRAM = ram
	m.regSize = int(regs.Hi-regs.Lo) + 1
	m.regLo = regs.Lo
	for a := int(regs.Lo); a <= int(regs.Hi); a++ {
		m.attr[a] = attrIO
	}
	return nil
}

// boardOverlap refuses a --device range that covers memory already mapped
// — the image's bytes, RAM, the register block (regs, with a device) — a
// board's hardware lies where the chip and the image leave the bus free.
// It names the first span of the range that overlaps.
func (m *Machine) boardOverlap(r BoardRange, regs loader.Region, device bool) error {
	what := func(a int) string {
		switch {
		case device && regs.Lo <= uint16(a) && uint16(a) <= regs.Hi:
			return "the chip's register block"
		case m.attr[a] == attrROM:
			return "read-only memory the image loads"
		case m.attr[a] == attrRAM || m.attr[a] == attrInput || m.attr[a] == attrHeld:
			return "RAM"
		case m.attr[a] == attrBoard:
			return ""
		case m.attr[a] != attrUnmapped:
			return "mapped memory"
		}
		return ""
	}
	for a := int(r.Lo); a <= int(r.Hi); a++ {
		w := what(a)
		if w == "" {
			continue
		}
		hi := a
		for hi < int(r.Hi) && what(hi+1) == w {
			hi++
		}
		return fmt.Errorf("--device 0x%04X-0x%04X covers 0x%04X-0x%04X, %s: board hardware lies where nothing else is mapped (narrow the range)", r.Lo, r.Hi, a, hi, w)
	}
	return nil
}

// resetDevice puts the device's power-up state into the register pages
// and appends the hidden page; NewMachine has allocated the pages.
func (m *Machine) resetDevice() {
	m.regPage = int(m.pageOf[m.regLo/PageSize])
	m.regPages = (int(m.regLo)%PageSize + m.regSize + PageSize - 1) / PageSize
	var b devices.Block
	m.dev.Reset(&b)
	for k := range m.regPages {
		m.init[m.regPage+k].Data = [PageSize]byte(b.Reg[k*PageSize : (k+1)*PageSize])
	}
	m.hidPage = m.npages
	m.init = append(m.init, &Page{Data: b.Hid})
	m.npages++
}

// HasDevice reports whether the machine has peripherals (Config.Device).
func (m *Machine) HasDevice() bool { return m.dev != nil }

// layoutOf returns the layout of s: its INIT register's.
func (m *Machine) layoutOf(s *State) *layout {
	if m.dev == nil {
		return m.layout
	}
	init := s.Pages[m.regPage].Data[devices.RegINIT]
	if l := m.lays[init].Load(); l != nil {
		return l
	}
	return m.buildLayout(init)
}

// buildLayout makes the layout of INIT value init: the reset layout with
// the on-chip RAM and the register block moved to the 4 KiB boundaries
// INIT names, the registers above RAM and both above everything else
// (the reference manual's priority). What they leave behind is the
// external bus: unmapped.
func (m *Machine) buildLayout(init uint8) *layout {
	m.layMu.Lock()
	defer m.layMu.Unlock()
	if l := m.lays[init].Load(); l != nil {
		return l
	}
	base := m.layout
	l := &layout{attr: base.attr, pageOf: base.pageOf, code: base.code}
	ram := m.chipRAM
	regEnd := int(base.regLo) + m.regPages*PageSize
	ramPages := make([]int16, 0, 16)
	for a := int(ram.Lo); a <= int(ram.Hi); a += PageSize {
		ramPages = append(ramPages, base.pageOf[a/PageSize])
	}
	for a := int(ram.Lo); a <= int(ram.Hi); a++ {
		l.attr[a] = attrUnmapped
	}
	for a := int(base.regLo); a < regEnd; a++ {
		l.attr[a] = attrUnmapped
	}
	for a := int(ram.Lo); a <= int(ram.Hi); a += PageSize {
		l.pageOf[a/PageSize] = -1
	}
	for a := int(base.regLo); a < regEnd; a += PageSize {
		l.pageOf[a/PageSize] = -1
	}
	newRAM := int(init>>4) * 0x1000
	size := int(ram.Hi-ram.Lo) + 1
	for k := 0; k < size && newRAM+k < 65536; k++ {
		l.attr[newRAM+k] = attrRAM
		if k%PageSize == 0 {
			l.pageOf[(newRAM+k)/PageSize] = ramPages[k/PageSize]
		}
	}
	l.regLo = uint16(int(init&15) * 0x1000)
	for k := 0; k < m.regSize; k++ {
		l.attr[int(l.regLo)+k] = attrIO
	}
	for k := range m.regPages {
		l.pageOf[int(l.regLo)/PageSize+k] = int16(m.regPage + k)
	}
	// The code cache holds instructions whose bytes are all read-only:
	// where RAM or the registers now cover such bytes, it needs its own.
	covered := false
	for a := range 65536 {
		covered = covered || base.attr[a] == attrROM && l.attr[a] != attrROM
	}
	if covered {
		code := *base.code
		for a := range 65536 {
			for i := 0; i < 5 && a+i < 65536; i++ {
				if l.attr[a+i] != attrROM {
					code[a].ok = false
				}
			}
		}
		l.code = &code
	}
	m.lays[init].Store(l)
	return l
}

// boardAt returns the board range holding a.
func (m *Machine) boardAt(a uint16) *BoardRange {
	for i := range m.board {
		if r := &m.board[i]; r.Lo <= a && a <= r.Hi {
			return r
		}
	}
	return nil
}

// loadBlock copies the device's pages of s into b.
func (m *Machine) loadBlock(s *State, b *devices.Block) {
	for k := range m.regPages {
		copy(b.Reg[k*PageSize:(k+1)*PageSize], s.Pages[m.regPage+k].Data[:])
	}
	b.Hid = s.Pages[m.hidPage].Data
	b.Elapsed, b.CCR, b.Asleep, b.At = 0, 0, false, 0
	b.Lazy = m.Config.ExactClock && m.EliminatesDead()
}

// asleep reports whether every thread of s that has not exited waits in
// WAI, with no interrupt to take: under the exact clock, time passes by
// an event of the device (devices.EvWait).
func (m *Machine) asleep(s *State) bool {
	if !m.Config.ExactClock || s.Atomic != 0 {
		return false
	}
	any := false
	for i := range s.Threads {
		switch s.Threads[i].Status {
		case Exited:
		case Waiting:
			any = true
		default:
			return false
		}
	}
	if !any {
		return false
	}
	if v := m.pending(s); v >= 0 {
		for i := range s.Threads {
			if devTakes(&s.Threads[i], v) {
				return false
			}
		}
	}
	return true
}

// storeBlock writes back the pages of b that differ from those of s.
func (m *Machine) storeBlock(s *State, b *devices.Block) {
	for k := range m.regPages {
		d := [PageSize]byte(b.Reg[k*PageSize : (k+1)*PageSize])
		if d != s.Pages[m.regPage+k].Data {
			s.page(m.regPage + k).Data = d
		}
	}
	if b.Hid != s.Pages[m.hidPage].Data {
		s.page(m.hidPage).Data = b.Hid
	}
}

// readSlow reads what is neither RAM nor read-only memory.
func (x *stepper) readSlow(a uint16) uint8 {
	switch x.lay.attr[a] {
	case attrInput:
		vals := x.m.inputs[x.m.inputIdx[a]]
		return vals[x.choose(uint64(len(vals)))]
	case attrIO:
		return x.m.env.read(x, a)
	case attrHeld:
		markBit(x.m.held.addrs[:], int(a))
		return x.s.Pages[x.lay.pageOf[a/PageSize]].Data[a%PageSize]
	case attrBoard:
		r := x.m.boardAt(a)
		if len(r.Values) == 0 {
			markBit(x.m.held.addrs[:], int(a))
			return 0
		}
		return r.Values[x.choose(uint64(len(r.Values)))]
	}
	x.fault(KindUnmapped, x.t.PrevPC, a, "read of unmapped address 0x%04X%s", a, x.deviceHint(a))
	return 0
}

// writeSlow writes what is not RAM.
func (x *stepper) writeSlow(a uint16, v uint8) {
	switch x.lay.attr[a] {
	case attrInput, attrHeld:
		x.s.page(int(x.lay.pageOf[a/PageSize])).Data[a%PageSize] = v
	case attrIO:
		x.m.env.write(x, a, v)
	case attrBoard:
		x.output(Output{Kind: OutBoard, Addr: a, Value: v})
	case attrROM:
		x.fault(KindROMWrite, x.t.PrevPC, a, "write of 0x%02X into read-only memory at 0x%04X", v, a)
	default:
		x.fault(KindUnmapped, x.t.PrevPC, a, "write of 0x%02X to unmapped address 0x%04X%s", v, a, x.deviceHint(a))
	}
}

// deviceHint names, for an access of unmapped address a, the --device
// range that would map it as board hardware (Config.Board): the bytes of
// the instruction's operand from a on that are unmapped.
func (x *stepper) deviceHint(a uint16) string {
	hi := a
	if c := &x.lay.code[x.t.PrevPC]; c.ok {
		if acc, ok := c.in.Access(x.t.X, x.t.Y); ok && acc.Addr == a && acc.Size == 2 && a != 0xFFFF && x.lay.attr[a+1] == attrUnmapped {
			hi = a + 1
		}
	}
	return fmt.Sprintf(" (board hardware there would need --device 0x%04X-0x%04X)", a, hi)
}

// readAt is the E cycle of the current instruction, counted from 0, at
// which it reads the first byte of its operand, by the cycle-by-cycle
// tables of the M68HC11 Reference Manual (appendix A): a load or an
// 8-bit arithmetic, logic or compare instruction reads its operand in its
// last cycles (the high byte of a 16-bit one in the next to last), ADDD,
// SUBD, CPD, CPX and CPY theirs before one internal cycle. For other
// instructions (read-modify-write, BRSET/BRCLR, MUL...) 0: the operand is
// taken as read when the instruction began.
func (x *stepper) readAt() uint64 {
	c := &x.lay.code[x.t.PrevPC]
	if !c.ok {
		return 0
	}
	n := uint64(c.in.Cycles)
	switch c.in.Op {
	case isa.LDD, isa.LDX, isa.LDY, isa.LDS:
		return n - 2
	case isa.ADDD, isa.SUBD, isa.CPD, isa.CPX, isa.CPY:
		return n - 3
	case isa.LDAA, isa.LDAB, isa.ADDA, isa.ADDB, isa.ADCA, isa.ADCB, isa.SUBA, isa.SUBB, isa.SBCA, isa.SBCB,
		isa.ANDA, isa.ANDB, isa.ORAA, isa.ORAB, isa.EORA, isa.EORB, isa.BITA, isa.BITB, isa.CMPA, isa.CMPB:
		return n - 1
	}
	return 0
}

// output records o for an observer (Run, ReplayObserved).
func (x *stepper) output(o Output) {
	if x.fx != nil {
		*x.fx = append(*x.fx, o)
		x.stop = true // told at the cycle it happens (Run)
	}
}

func (x *stepper) block() *devices.Block {
	b := blockPool.Get().(*devices.Block)
	x.m.loadBlock(x.s, b)
	b.Elapsed = x.t.Cycles - x.c0
	b.CCR = x.t.CCR
	return b
}

func (x *stepper) ioRead(a uint16) uint8 {
	if x.batch {
		x.catchUp()
	}
	b := x.block()
	off := int(a - x.lay.regLo)
	x.watchUnseen(b, off)
	k := 0
	if n := x.m.dev.Choices(b, off); n > 1 {
		k = int(x.choose(uint64(n)))
	}
	x.heldRead(b, off)
	if !x.m.Config.ExactClock && x.m.countRead.Load() == 0 && x.m.dev.ShowsCount(b, off) {
		x.m.countRead.CompareAndSwap(0, 1<<31|uint32(off)<<16|uint32(x.t.PrevPC))
	}
	if off < len(x.m.observes) {
		x.obs |= x.m.observes[off]
	}
	if x.m.Config.ExactClock {
		b.At = x.readAt()
	}
	v := x.m.dev.Read(b, off, k)
	x.m.storeBlock(x.s, b)
	blockPool.Put(b)
	x.io, x.stop = true, true
	return v
}

func (x *stepper) ioWrite(a uint16, v uint8) {
	if x.batch {
		x.catchUp()
	}
	b := x.block()
	off := int(a - x.lay.regLo)
	x.watchUnseen(b, off)
	eff := x.m.dev.Write(b, off, v)
	x.m.storeBlock(x.s, b)
	blockPool.Put(b)
	x.io, x.stop = true, true
	if eff.Port {
		x.output(Output{Kind: OutPort, Addr: a, Value: eff.PortVal})
	}
	x.effect(eff)
}

// watchUnseen notes an access of register off that would observe the
// exact clock's counters where they were left out of the state: the
// merges of states that differed only in them are no longer justified
// (DeadBroken), and the transition is dropped.
func (x *stepper) watchUnseen(b *devices.Block, off int) {
	if b.Lazy && x.m.dev.Unseen(b, off) {
		x.m.deadBroke(DeadBreak{What: "timer", Thread: x.tid, PC: x.t.PrevPC, Addr: x.lay.regLo + uint16(off)})
		x.unseen, x.stop = true, true
	}
}

// effect records what the device did and raises the violations it found.
func (x *stepper) effect(eff devices.Effect) {
	if eff.Sent {
		x.output(Output{Kind: OutSCI, Value: eff.Byte})
	}
	if eff.Matched {
		x.fault(KindOutput, x.t.PC, 0, "the SCI output matches the expected output")
	}
	if eff.Watchdog {
		x.fault(KindWatchdog, x.t.PC, 0, "the COP watchdog was not serviced (0x55, 0xAA to COPRST) in time")
	}
}

// pending returns the vector of the interrupt the device requests in s,
// or -1.
func (m *Machine) pending(s *State) int {
	if m.dev == nil {
		return -1
	}
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(s, b)
	// XIRQ (a board's wire) is masked by the X bit of the context that
	// would take it: the first thread that has not exited.
	b.CCR = isa.FlagX
	for i := range s.Threads {
		if s.Threads[i].Status != Exited {
			b.CCR = s.Threads[i].CCR
			break
		}
	}
	v := m.dev.Pending(b)
	blockPool.Put(b)
	return v
}

// devTakes reports whether thread t takes the device's interrupt v now:
// it is running or in WAI (STOP stops the clocks the peripherals run
// on), with I clear, or for XIRQ (a pin the board wires to it) X clear.
func devTakes(t *Thread, v int) bool {
	if t.Status != Running && t.Status != Waiting {
		return false
	}
	if v == isa.VecXIRQ {
		return t.CCR&isa.FlagX == 0
	}
	return t.CCR&isa.FlagI == 0 && t.Inhibit == 0
}

// events returns the number of environment events possible in s.
func (m *Machine) events(s *State) int {
	if m.dev == nil {
		return 0
	}
	live := false
	for i := range s.Threads {
		live = live || s.Threads[i].Status != Exited
	}
	if !live {
		return 0
	}
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(s, b)
	b.Asleep = m.asleep(s)
	n := m.dev.Events(b)
	blockPool.Put(b)
	return n
}

// live reports whether some thread of s has not exited: the device's
// events happen only then (events).
func live(s *State) bool {
	for i := range s.Threads {
		if s.Threads[i].Status != Exited {
			return true
		}
	}
	return false
}

// devMemo holds the device's answers about one view of a state, the
// questions env.quiet asks at every point a batch runs on through: the
// view is the register pages, the hidden page, the CCR that masks XIRQ
// (pending) and whether every thread sleeps (asleep). Every question of
// devices.Device that quiet asks is a function of the Block it is given,
// and the Block is made from the view alone (loadBlock), so that equal
// views have equal answers; along a polling loop, where no event and no
// register access changes the device, the view stays the same and the
// questions are answered by comparing three pages. TestDevMemo checks
// quiet with one memo kept across a search's states against quiet with
// none.
type devMemo struct {
	ok     bool
	ccr    uint8
	asleep bool
	regs   [devices.RegBytes / PageSize][PageSize]byte
	hid    [PageSize]byte

	overdue bool   // overdue(s)
	pend    int    // pending(s)
	events  int    // the device's events, when a thread lives (events)
	kinds   uint64 // bit k: an event of kind k among those that decide (quiet)
}

// devAnswers returns the device's answers for s, from dm when its view is
// s's, computing them into dm otherwise; dm nil computes them afresh.
func (m *Machine) devAnswers(s *State, dm *devMemo) *devMemo {
	if dm == nil {
		dm = new(devMemo)
	}
	ccr := uint8(isa.FlagX)
	for i := range s.Threads {
		if s.Threads[i].Status != Exited {
			ccr = s.Threads[i].CCR
			break
		}
	}
	asleep := m.asleep(s)
	if dm.ok && dm.ccr == ccr && dm.asleep == asleep && (dm.hid == s.Pages[m.hidPage].Data || m.faults.memoStale) && m.sameRegs(s, dm) {
		return dm
	}
	dm.ok, dm.ccr, dm.asleep = true, ccr, asleep
	dm.hid = s.Pages[m.hidPage].Data
	for k := range m.regPages {
		dm.regs[k] = s.Pages[m.regPage+k].Data
	}
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(s, b) // as overdue loads it
	dm.overdue = m.clocked(s) && m.dev.Overdue(b)
	b.CCR = ccr // as pending
	dm.pend = m.dev.Pending(b)
	b.CCR, b.Asleep = 0, asleep // as events and EventInfo
	dm.events = m.dev.Events(b)
	// The receiver's events come first (devices.Device.Events), as many
	// as the alphabet has bytes: asked from the last, the first of them
	// answers for the rest.
	dm.kinds = 0
	for k := dm.events - 1; k >= 0; k-- {
		kind := m.dev.Info(b, k).Kind
		dm.kinds |= 1 << (kind % 64)
		if kind == devices.EvReceive || kind == devices.EvOverrun {
			break
		}
	}
	blockPool.Put(b)
	return dm
}

// sameRegs reports whether the register pages of s are those of dm's view.
func (m *Machine) sameRegs(s *State, dm *devMemo) bool {
	for k := range m.regPages {
		if s.Pages[m.regPage+k].Data != dm.regs[k] {
			return false
		}
	}
	return true
}

// overdue reports whether an event must happen in s before any thread
// moves (devices.Device.Overdue).
func (m *Machine) overdue(s *State) bool {
	if !m.clocked(s) {
		return false
	}
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(s, b)
	v := m.dev.Overdue(b)
	blockPool.Put(b)
	return v
}

// bounded reports whether a bound of the exploration keeps an event from
// happening in s (devices.Device.Bounded).
func (m *Machine) bounded(s *State) bool {
	if m.dev == nil {
		return false
	}
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(s, b)
	v := m.dev.Bounded(b)
	blockPool.Put(b)
	return v
}

// EventInfo describes environment event k of s (Label.Event = k+1).
func (m *Machine) EventInfo(s *State, k int) devices.EventInfo {
	if m.dev == nil {
		return devices.EventInfo{}
	}
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(s, b)
	b.Asleep = m.asleep(s)
	e := m.dev.Info(b, k)
	blockPool.Put(b)
	return e
}

// event makes environment event k happen in s.
func (m *Machine) event(s *State, k int, fx *[]Output) *Violation {
	x := stepper{m: m, s: s, t: &s.Threads[0], tid: 0, radix: 1, fx: fx}
	x.lay = m.layoutOf(s)
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(s, b)
	b.Asleep = m.asleep(s)
	var at [maxLatencies]uint64
	var waited uint64
	if m.Config.ExactClock {
		if e := m.dev.Info(b, k); e.Kind == devices.EvWait {
			waited = e.Cycles
		}
	}
	if m.hasSources() {
		m.sourcesBefore(s, b, &at)
	}
	eff := m.dev.Event(b, k)
	m.storeBlock(s, b)
	switch {
	case m.hasSources() && !m.Config.ExactClock:
		m.sourcesAbstract(&x, 0, true)
	case m.hasSources():
		m.sourcesAfter(&x, b, waited, &at, true)
	}
	blockPool.Put(b)
	if eff.Received {
		m.noteReceived(eff.RxCount)
	}
	m.waited(&x, waited) // entry.go
	x.effect(eff)
	if x.bad {
		v := x.violation()
		v.Thread, v.PC = -1, s.Threads[0].PC
		return v
	}
	return nil
}

// elapse tells the device that thread i ran cycles E cycles, while it
// asks for them.
func (m *Machine) elapse(s *State, i int, cycles uint64, fx *[]Output) *Violation {
	if s.Pages[m.hidPage].Data[devices.HidFlags]&devices.FlagClocked == 0 {
		if m.hasSources() && !m.Config.ExactClock {
			// The firmware may have set an enable, or cleared a flag.
			x := stepper{m: m, s: s, t: &s.Threads[i], tid: i, radix: 1, fx: fx}
			m.sourcesAbstract(&x, cycles, false)
			if x.bad {
				return x.violation()
			}
		}
		return nil
	}
	x := stepper{m: m, s: s, t: &s.Threads[i], tid: i, radix: 1, fx: fx}
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(s, b)
	var at [maxLatencies]uint64
	if m.hasSources() {
		m.sourcesBefore(s, b, &at)
	}
	eff := m.dev.Elapse(b, cycles)
	m.storeBlock(s, b)
	if m.hasSources() {
		m.sourcesAfter(&x, b, cycles, &at, false)
	}
	blockPool.Put(b)
	x.effect(eff)
	if x.bad {
		return x.violation()
	}
	return nil
}

// catchUp counts, in a batch of Run's (stepper.batch), the cycles of the
// instructions before the current one, which accesses a register: the
// device then sees them counted as it does when run looks after every
// instruction, and the current one's as the transition's (Block.Elapsed).
func (x *stepper) catchUp() {
	start := x.t.Cycles - x.instCycles(x.t.PrevPC)
	if start <= x.c0 {
		return
	}
	if v := x.m.elapse(x.s, x.tid, start-x.c0, x.fx); v != nil && !x.bad {
		x.bad, x.stop, x.viol = true, true, *v
	}
	x.c0 = start
}

// instCycles is the E cycles of the instruction at pc, read without side
// effects.
func (x *stepper) instCycles(pc uint16) uint64 {
	if c := &x.lay.code[pc]; c.ok {
		return uint64(c.in.Cycles)
	}
	var buf [5]byte
	n := 0
	for ; n < len(buf); n++ {
		a := pc + uint16(n)
		switch x.lay.attr[a] {
		case attrRAM, attrInput, attrHeld:
			buf[n] = x.s.Pages[x.lay.pageOf[a/PageSize]].Data[a%PageSize]
		case attrROM:
			buf[n] = x.m.rom[a]
		default:
			n = len(buf)
		}
	}
	in, err := isa.Decode(buf[:n])
	if err != nil {
		return 0
	}
	return uint64(in.Cycles)
}

// horizon is how many cycles may elapse in s before the device shows it
// (devices.Device.Horizon).
func (m *Machine) horizon(s *State) uint64 {
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(s, b)
	h := m.dev.Horizon(b)
	blockPool.Put(b)
	return h
}

// clocked reports whether the device of s counts CPU cycles.
func (m *Machine) clocked(s *State) bool {
	return m.dev != nil && s.Pages[m.hidPage].Data[devices.HidFlags]&devices.FlagClocked != 0
}

// DeviceRegisters returns the register block of s as the firmware would
// read it without side effects, and where INIT has put it; ok is false
// without a device.
func (m *Machine) DeviceRegisters(s *State) (regs []byte, at uint16, ok bool) {
	if m.dev == nil {
		return nil, 0, false
	}
	regs = make([]byte, m.regSize)
	for k := range regs {
		regs[k] = s.Pages[m.regPage+k/PageSize].Data[k%PageSize]
	}
	return regs, m.layoutOf(s).regLo, true
}

// QueuedOutput returns what the SCI of s still has to send on its own:
// the byte waiting in TDR (devices.Chip.Queued). A plain run that stops at
// a violation reports it, as the board's line would carry it after the
// CPU stopped.
func (m *Machine) QueuedOutput(s *State) []byte {
	q, ok := m.dev.(interface {
		Queued(*devices.Block) (uint8, bool)
	})
	if !ok {
		return nil
	}
	b := blockPool.Get().(*devices.Block)
	defer blockPool.Put(b)
	m.loadBlock(s, b)
	if v, ok := q.Queued(b); ok {
		return []byte{v}
	}
	return nil
}

// noteReceived counts a byte that arrived on the SCI, the n-th along its
// execution when a bound counts them (Received).
func (m *Machine) noteReceived(n uint8) {
	m.received.Add(1)
	for {
		d := m.rxDeepest.Load()
		if uint32(n) <= d || m.rxDeepest.CompareAndSwap(d, uint32(n)) {
			return
		}
	}
}

// Received reports how many bytes arrived on the SCI over every search of
// m (each arrival on each path explored counts), and, when
// --max-received bounds them, the most that arrived along one execution.
// A bounded check in which none arrived is vacuous for its input, and
// says so (check.Report.Input).
func (m *Machine) Received() (arrivals uint64, deepest int) {
	return m.received.Load(), int(m.rxDeepest.Load())
}

// CountRead returns, under the abstract clock, the first read in m's
// searches of a register that shows the timer's count (TCNT or a capture
// of it, devices.Device.ShowsCount): its offset in the register block and
// the PC of the instruction; ok is false where none was read. The
// abstract clock sets the count only at its events, so a verdict holds
// for the counts those set.
func (m *Machine) CountRead() (off int, pc uint16, ok bool) {
	v := m.countRead.Load()
	return int(v >> 16 & 0x7FFF), uint16(v), v != 0
}

// Counted returns the machine that counts the exact clock's timer
// counters from reset: m itself, unless m leaves them out until the
// firmware observes the timer (devices.Block.Lazy: the exact clock under
// dead-data elimination), when it is m without dead-data elimination (as
// replay rebuilds a trace's machine), made once. Every state of m is one
// of that machine's but for the counters, and every trace of m replays on
// it (search.FinishWait).
func (m *Machine) Counted() *Machine {
	if !m.Config.ExactClock || !m.EliminatesDead() {
		return m
	}
	m.counted.once.Do(func() {
		cfg := m.Config
		cfg.Dead, cfg.DeadStack = false, false
		if c, err := NewMachine(m.Image, cfg); err == nil {
			m.counted.m = c
		}
	})
	if m.counted.m == nil {
		return m
	}
	return m.counted.m
}

// maxFinish is the most transitions FinishWait appends.
const maxFinish = 64

// FinishWait returns the labels that take s, a deadlock of a machine
// that left the exact clock's timer counters out (devices.Block.Lazy),
// to the same deadlock on m, which counts them: left out, they make no
// event, so that machine's deadlock comes as soon as every thread waits
// with nothing to wake it; m lets time pass there, its only move, one
// transition of the environment at a time (devices.EvWait) until its
// clock changes nothing more. Nothing the firmware could see differs
// between the two (the counters were left out because it had not looked
// at the timer: docs/devices.md). ok is false where m does not reach a
// deadlock that way within maxFinish transitions.
func (m *Machine) FinishWait(s *State) (labels []Label, ok bool) {
	for range maxFinish {
		out, dl := m.Successors(s, nil, nil)
		if dl != nil {
			return labels, true
		}
		if len(out) != 1 || out[0].Violation != nil || out[0].Label.Event == 0 ||
			m.EventInfo(s, int(out[0].Label.Event-1)).Kind != devices.EvWait {
			return nil, false
		}
		labels = append(labels, out[0].Label)
		s = out[0].State
	}
	return nil, false
}
