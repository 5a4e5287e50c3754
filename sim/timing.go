package sim

import (
	"encoding/binary"
	"fmt"
	"sync/atomic"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/mutation"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// # Timing properties
//
// Timing properties (check --max-masked, --deadline, --latency,
// --report-timing) are checked on the search's states: what each needs of
// the past is kept in one more page of the state, the timing page, after
// every other page (the device's hidden page included; timing.go). The
// page exists only when Config.Timing is set, so that a check without a
// timing property stores and hashes exactly what it did before.
//
// Time is the CPU's: the E cycles of every instruction and harness call
// any thread or interrupt handler executes along the path, with the
// cycles of the M68HC11 Reference Manual's instruction timing tables
// (isa/m68hc11's Inst.Cycles, as Thread.Cycles counts them), and 14
// cycles for each interrupt entry (the manual's interrupt stacking
// sequence: nine bytes stacked, the vector fetched). WAI is the
// manual's 14 + n split as its cycle-by-cycle table splits it: 12 cycles
// for WAI (the frame stacked), the n of the wait, and 2 for the entry
// from WAI (the vector); the entry from STOP adds the oscillator's
// restart delay while OPTION's DLY is set (entry.go). An environment
// event (a byte arriving, a timer firing, a harness interrupt's request)
// takes no CPU time, but for time passing while the CPU waits in WAI
// under the exact clock (devices.EvWait): its cycles are the wait's n,
// counted in the global time and in every open interval (entry.go's
// waited). State.Now is the global time along a path.
//
// The properties, and where an interval starts and ends:
//
//   - Masked: the CPU is masked while the context that executes has
//     CCR.I set. An interval starts at the end of the step after which
//     the executing context has I set while the one before had it clear
//     (SEI, TAP, an interrupt entry — their own cycles are not in the
//     interval — or a switch to a thread whose I is set), and counts the
//     cycles of every step executed with I set, the one that clears I
//     (CLI, TAP, RTI) included; a switch to a thread with I clear ends
//     it. This is the convention of the GNU simulator's "interrupts
//     masked sequence" (its count starts after the instruction that set
//     I and ends after the one that cleared it). Intervals are measured
//     only after the first instruction that clears I (the firmware's
//     first CLI): the masked start-up after reset is not one. A violation
//     is reported as soon as an interval exceeds the bound, whether or
//     not it ever ends.
//   - Deadline FROM:TO: each thread has its own interval. It starts
//     when the thread's PC becomes FROM (before FROM's instruction runs:
//     by a step, an interrupt's entry, or the thread's creation there)
//     while the thread has none running, whatever the other threads'
//     intervals, and ends when the same thread's PC becomes TO; it
//     counts the cycles of every step of every thread and handler in
//     between. The interval of a thread that exits is dropped (it never
//     reaches TO). Reaching FROM again before TO does not restart it (the first FROM since the last
//     TO counts, so that an interrupt taken at FROM, whose RTI comes back
//     there, is inside). When FROM and TO are one address, arriving there
//     ends one interval and starts the next. A violation is reported when
//     TO is reached more than the bound after FROM; a path that never
//     reaches TO does not violate.
//   - Latency IRQ (harness interrupts, --irq): the interrupt is requested
//     by an environment event at any state where it is not already
//     requested (inside an atomic section too); from then it is pending
//     and is taken at the first
//     scheduling point where a context can take it, as the only move of
//     that context besides the device's pending interrupt and the --irq
//     interrupts of a higher priority. Of several pending requests the
//     context takes the one of the highest priority (rank: the
//     Reference Manual's interrupt priority table, section 5, with
//     HPRIO's promotion when the chip's registers are there), never the
//     first flag's; an --irq interrupt that no property follows is not
//     taken before a pending request of a higher priority either, as on
//     the chip. The interval runs from the request to the first
//     instruction of the handler, the cycles of the entry included. A
//     violation is reported as soon as the interval exceeds the bound.
//     Requests and prompt service give the same executions as the plain
//     --irq model (an interrupt taken where I is clear is one requested
//     just before, and no other is pending then), so the other
//     properties' verdicts do not change, nor does one property's value
//     depend on which others are asked for (--report-timing adds a
//     latency for every --irq interrupt). A
//     request still pending when no thread runs any more (every thread
//     exited or blocked) counts only the cycles that ran.
//   - Latency of a chip's source (Latency.Source: a timer source whose
//     flag the exact clock sets, Config.ExactClock): no event requests
//     it; it is requested while its flag and its enable bit are both set
//     (devices.SourceTimer). The interval starts at the E cycle at which
//     that became true: the cycle of the elapse (an instruction's, an
//     entry's or a wait's cycles) at which the clock set the flag
//     (SourceTimer.SetsIn, noted before the elapse), or, when the flag
//     was set already and the instruction set the enable bit, the
//     instruction's first cycle — the earliest the write can have been,
//     so the count is an upper bound, by at most the instruction's
//     cycles less one. It grows with every step, and with the cycles of
//     a wait while it stands (the wait is an event: Now does not count
//     it), and ends at the entry of the source's interrupt, the 14
//     cycles included, or, without a violation, when the flag or the
//     enable clears (a withdrawn request, the withdrawing instruction's
//     cycles counted). A violation is reported as soon as it exceeds the
//     bound, taken or withdrawn later. After the entry the source is
//     served until its flag or enable clears: a handler returning with
//     the flag set is taken again, and that is not a new request.
//     Input captures, the pulse accumulator, the SPI and the SCI are set
//     by events at instruction boundaries whose true moment the clock
//     does not count: their latency is not offered.
//   - Latency of a chip's source under the abstract clock: the abstract
//     clock sets the flag by an event at any scheduling point. The CPU
//     recognizes a request at the end of an instruction (the Reference
//     Manual, section 5), so a flag set at a boundary stands for one set
//     at any cycle of the CPU's last step (an instruction or an entry),
//     whose cycles the timing page keeps (offLast): the interval starts
//     at that step's first cycle, the worst over every moment, at most
//     one cycle more than the latest moment still recognized there. An
//     enable written by an instruction starts it at the instruction's
//     first cycle, as under the exact clock; the rest is as above.
//
// Exactness. Write a state of the timed machine as (s, τ): s the state
// without its timing page, τ the page. Every transition of the machine
// without timing properties, s → s' by label l, is one transition
// (s, τ) → (s', τ') of the timed machine, τ' a function of τ, of l and
// of the steps l executes (their cycles, the I bit before and after
// each, the PCs reached), none of which depends on τ; the timed machine
// has no other transitions but the requests of --latency, which change
// τ alone (a requested interrupt is then, with those of a higher
// priority, the only move of a context that can take it, a move the
// plain model has too; the plain interrupts of a lower priority that it
// withholds are taken, in the plain model's executions, where no request
// is pending: the request of an interrupt can always come just before
// its entry). So the executions
// of the two machines are the same, step for step, and along an
// execution τ holds exactly each interval's cycles so far, up to the
// saturation. The saturation at N + 1 (or Timing.Cap) only merges counts
// above N, which are all violations already, or all "at least the cap".
// A bound is therefore violated on some execution if and only if some
// transition out of a reachable timed state raises the violation, which
// an exhaustive search of the timed states — finitely many, the
// counters being bounded — finds. Storing a state once loses nothing
// because τ is part of its identity: states taken for one have the same
// futures, interval values included. For --report-timing, the largest
// value a counter takes is the largest interval of every execution
// (each interval is noted at every step it grows), exact when the search
// is exhaustive and the cap was not reached. A counterexample replayed on
// a machine whose bounded counters do not stop (Machine.Unsaturated) runs
// the same transitions, since none depends on a count, and its violation
// carries the interval and the count the execution had (search's
// TrueInterval).
//
// A chip's source under the exact clock adds no transition: its latency
// byte and counter in τ are a function of τ and of the device's block
// before and after each transition (the flag and enable bits, and the
// cycle at which the flag set, which the device's block before the
// elapse determines: TCNT, the prescaler's phase, TOCx, the RTI chain),
// none of which depends on τ. So the argument above holds unchanged: the
// executions are those of the machine without the property, and along
// each, τ holds the cycles from the cycle the request began (exact when
// the flag set it; at most the writing instruction's cycles less one
// more when an enable write did) to the current point. The exact clock's
// own state (package devices: TCNT, the phase, the chain, the flags) is
// in the state's pages, so two states taken for one have the same
// device future and the same τ: the search finds every value the counter
// takes, and the maximum of the over-approximated counts bounds the true
// latency from above, so that "verified" is sound; the bundled programs
// request by flags only, where the count is exact. Under the abstract
// clock the source adds no transition either: the device's events are
// the machine's, and the count starts from the last step's cycles, a
// function of τ (offLast, which the last step wrote) — the byte makes
// states differ by the cycles of their last step, which no future
// depends on otherwise, so nothing is lost by it; every moment at which
// the flag may set is some event's, counted from the earliest cycle it
// stands for.
//
// The reductions keep this. Dead-data elimination keeps every register
// live when timing is on (whether a step starts or continues a masked
// interval depends on the I bit of the thread that runs) and never masks
// the timing page, which is at no address, nor the device's pages (the
// flags, enables and compare registers a source's request depends on).
// Its one elimination under the exact clock, the timer's counters left
// out until the firmware first accesses a timer register (Block.Lazy),
// cannot hide a request: no source is enabled before such an access
// (TMSK1 and TMSK2 are timer registers), and the access withdraws the
// elimination and the search starts again with the counters counted; the stack bytes it leaves out
// are never read before being written, so the executions from two states
// it takes for one are the same, cycles included. Hash compaction and
// the swarm see the page as any other page: the same probability of
// omission, the same exhaustiveness per member. Partial-order reduction
// is off with timing properties (reducible): it follows alone a step it
// takes for invisible and independent of the other threads' steps, but
// every step advances the global time that every running interval reads
// — one thread's step before or after another's FROM, TO, SEI or CLI
// changes a deadline's or a masked interval's value — so no step is
// invisible to τ, and a reduction that saw them would have nothing left
// to reduce. The result states it as a condition of the verdict. The
// symbolic engine does not check timing properties: it lists them as not
// checked, and the swarm's symbolic member does not run with them.
//
// The rest of this file is how: the timing pages, the steps' and the
// entries' updates, the requests.
//
// # The timing pages
//
//	page 0, the timing page:
//	byte 0        flags: timeArmed once an instruction cleared I
//	bytes 1-4     the masked interval: 0 when the CPU is not masked, else
//	              its cycles so far + 1 (big-endian)
//	per latency   1 byte: 1 while requested, 2 (a chip's source) once
//	              served while its flag and enable stay set; 4 bytes:
//	              the cycles since the request
//	byte offLast  under the abstract clock with a chip's source's
//	              latency: the cycles of the CPU's last step (an
//	              instruction or an entry), the earliest a flag the
//	              abstract clock sets now may have set
//	then, per deadline, dlPages pages: per thread (dlPerPage a page),
//	              4 bytes: 0 when the thread has no interval running,
//	              else the cycles since it reached FROM + 1 (big-endian)

// Timing configures the timing properties (Config.Timing).
type Timing struct {
	// Masked bounds the cycles CCR.I stays set (--max-masked); Track
	// without Bounded only measures it (--report-timing).
	Masked TimingBound
	// Deadlines are the --deadline FROM:TO:N properties.
	Deadlines []Deadline
	// Latencies are the --latency IRQ:N properties of harness
	// interrupts (--irq) and, under the exact clock, of the chip's timer
	// sources (Latency.Source).
	Latencies []Latency
	// Cap saturates the counters of the properties measured without a
	// bound (--report-timing); 0: DefaultTimingCap.
	Cap uint32
}

// DefaultTimingCap is where the counters of --report-timing saturate
// when no bound is given: a value that reaches it is reported as "at
// least" the cap.
const DefaultTimingCap = 1 << 20

// TimingBound is a property's bound: Track says the property is measured,
// Bounded that N bounds it (a violation past N).
type TimingBound struct {
	Track   bool
	Bounded bool
	N       uint32
}

// Deadline is one --deadline property: the cycles from a thread's
// arrival at From to its arrival at To.
type Deadline struct {
	From, To uint16
	Name     string // FROM:TO as given, for messages
	TimingBound
}

// Latency is one --latency property: the cycles from the request of
// interrupt IRQ (a vector index) to its handler's first instruction.
type Latency struct {
	IRQ int
	// Source says IRQ is one of the chip's own sources (Config.Device,
	// under the exact clock: devices.SourceTimer), requested when its
	// flag and its enable bit are both set, not a harness interrupt
	// requested by an environment event.
	Source bool
	// Auto says --report-timing added the property: it is reported only
	// when the firmware armed the source (a value above 0).
	Auto bool
	TimingBound
}

// Limits of the timing page.
const (
	maxDeadlines = 4
	maxLatencies = 8
)

// States of a latency's byte in the timing page.
const (
	latRequested = 1 // requested, not yet taken
	latServed    = 2 // a chip's source taken, its flag and enable still set
)

const (
	timeArmed  = 1
	offMasked  = 1
	offLatency = 5
	offLast    = offLatency + 5*maxLatencies

	// dlPerPage threads' deadline counters fill a page, dlPages pages
	// hold every thread's.
	dlPerPage = PageSize / 4
	dlPages   = (MaxThreads + dlPerPage - 1) / dlPerPage
)

// dlSlot returns the page and offset of thread j's counter of deadline k.
func (tm *timing) dlSlot(k, j int) (page, off int) {
	return tm.page + 1 + k*dlPages + j/dlPerPage, 4 * (j % dlPerPage)
}

// dlGet returns thread j's counter of deadline k in s (0: none running).
func (tm *timing) dlGet(s *State, k, j int) uint32 {
	pg, o := tm.dlSlot(k, j)
	return get32(s.Pages[pg].Data[o:])
}

// dlSet sets thread j's counter of deadline k in s.
func (tm *timing) dlSet(s *State, k, j int, v uint32) {
	pg, o := tm.dlSlot(k, j)
	put32(s.page(pg).Data[o:], v)
}

// timing is a machine's timing state: the configuration, the page, and
// the largest values seen (for --report-timing), index 0 the masked
// interval, then the deadlines, then the latencies.
type timing struct {
	cfg  Timing
	page int
	max  []atomic.Uint64
	// src is the device's sources under the exact clock, when some
	// latency is a chip's source's (Latency.Source).
	src devices.SourceTimer
	// unsat says the bounded counters do not stop at the bound plus one
	// (Machine.Unsaturated).
	unsat bool
	// lastStep says the page keeps the cycles of the CPU's last step
	// (offLast): a chip's source's latency under the abstract clock.
	lastStep bool
}

// unsatAt is where the bounded counters of an unsaturated machine stop:
// above every bound (the command line takes them below 2^31).
const unsatAt = 1 << 31

// Unsaturated returns a machine that runs as m does, whose bounded
// timing counters do not stop at the bound plus one: replayed on it, a
// counterexample ends in the violation m found, with the interval and
// the count the execution had (on m a deadline's count stops at N + 1
// long before TO). It is for replays, not searches: its counts make
// states differ that m takes for one. m itself when m has no timing
// property.
func (m *Machine) Unsaturated() *Machine {
	if m.timing == nil || mutation.On(mutation.SaturatedInterval) {
		return m
	}
	cfg := m.Config
	cfg.Dead = false
	u, err := NewMachine(m.Image, cfg)
	if err != nil || u.timing == nil {
		return m
	}
	u.timing.unsat = true
	return u
}

// setTiming checks cfg and appends the timing page.
func (m *Machine) setTiming(cfg *Timing) error {
	if cfg == nil {
		return nil
	}
	if len(cfg.Deadlines) > maxDeadlines {
		return fmt.Errorf("--deadline: at most %d deadlines", maxDeadlines)
	}
	if len(cfg.Latencies) > maxLatencies {
		return fmt.Errorf("--latency: at most %d interrupts", maxLatencies)
	}
	var src devices.SourceTimer
	for _, l := range cfg.Latencies {
		if l.Source {
			st, ok := m.dev.(devices.SourceTimer)
			if !ok || !st.Timed(l.IRQ) {
				return fmt.Errorf("--latency %s: the source's flag is not set by the clock "+
					"(the timer's output compares, TOF and RTI are)", IRQName(l.IRQ))
			}
			src = st
			continue
		}
		listed := false
		for _, v := range m.irqs {
			listed = listed || v == l.IRQ
		}
		if !listed {
			return fmt.Errorf("--latency %s: the interrupt is not one of --irq's", IRQName(l.IRQ))
		}
	}
	tm := &timing{cfg: *cfg, page: m.npages, src: src, lastStep: src != nil && !m.Config.ExactClock}
	if tm.cfg.Cap == 0 {
		tm.cfg.Cap = DefaultTimingCap
	}
	tm.max = make([]atomic.Uint64, 1+len(cfg.Deadlines)+len(cfg.Latencies))
	m.timing = tm
	for range 1 + dlPages*len(cfg.Deadlines) {
		m.init = append(m.init, &Page{})
		m.npages++
	}
	return nil
}

// sat is the value a counter of bound b saturates at.
func (tm *timing) sat(b TimingBound) uint32 {
	if b.Bounded {
		if tm.unsat {
			return unsatAt
		}
		return b.N + 1
	}
	return tm.cfg.Cap
}

func get32(p []byte) uint32    { return binary.BigEndian.Uint32(p) }
func put32(p []byte, v uint32) { binary.BigEndian.PutUint32(p, v) }

// addSat returns v + c, saturated at sat.
func addSat(v uint32, c uint64, sat uint32) uint32 {
	if uint64(v)+c >= uint64(sat) {
		return sat
	}
	return v + uint32(c)
}

// note records v as a value seen of property k.
func (tm *timing) note(k int, v uint32) {
	mx := &tm.max[k]
	for {
		old := mx.Load()
		if uint64(v) <= old || mx.CompareAndSwap(old, uint64(v)) {
			return
		}
	}
}

// Now returns the global time of s: the cycles every thread executed.
func (s *State) Now() uint64 {
	var c uint64
	for i := range s.Threads {
		c += s.Threads[i].Cycles
	}
	return c
}

// timingPage returns the timing page of s, ready to be written when w.
func (m *Machine) timingPage(s *State, w bool) []byte {
	if w {
		return s.page(m.timing.page).Data[:]
	}
	return s.Pages[m.timing.page].Data[:]
}

// timed updates the timing page after thread i's step of c cycles, with
// CCR ccr before it; the thread's PC is where the step left it, and the
// threads from nt on were created by it (nt = len(s.Threads) when none).
// It records a violation in x when an interval passes its bound.
func (m *Machine) timed(x *stepper, i int, ccr uint8, c uint64, nt int) {
	tm := m.timing
	s := x.s
	t := &s.Threads[i]
	ro := m.timingPage(s, false)
	var p []byte
	wr := func() []byte {
		if p == nil {
			p = m.timingPage(s, true)
		}
		return p
	}
	if tm.lastStep && uint64(ro[offLast]) != min(c, 255) {
		wr()[offLast] = byte(min(c, 255))
	}
	iBefore, iAfter := ccr&isa.FlagI != 0, t.CCR&isa.FlagI != 0
	if mb := tm.cfg.Masked; mb.Track {
		cur := get32(ro[offMasked:])
		v := uint32(0)
		switch {
		case ro[0]&timeArmed == 0:
			if iBefore && !iAfter {
				wr()[0] |= timeArmed
			}
		case iBefore:
			// A step executed masked: it counts. cur = 0 is a switch
			// from an unmasked context, where the interval starts.
			v = addSat(max(cur, 1), c, tm.sat(mb)+1)
			tm.note(0, v-1)
			if mb.Bounded && v-1 > mb.N {
				x.timingFault(KindMasked, t.PrevPC, s.Now()-uint64(v-1), s.Now(),
					"interrupts masked for more than %d cycles: %d cycles since the interval began", mb.N, v-1)
			}
			if !iAfter {
				v = 0
			}
		case iAfter:
			v = 1 // SEI, TAP, an interrupt's entry: the interval starts
		}
		if v != cur {
			put32(wr()[offMasked:], v)
		}
	}
	for k := range tm.cfg.Deadlines {
		// Each thread has its own interval (docs/timing.md): every
		// running one counts the step's cycles, whichever thread ran.
		d := &tm.cfg.Deadlines[k]
		sat := tm.sat(d.TimingBound)
		running := false
		for j := range s.Threads {
			cur := tm.dlGet(s, k, j)
			if cur == 0 {
				continue
			}
			v := addSat(cur-1, c, sat)
			u := &s.Threads[j]
			switch {
			case j == i && t.PC == d.To:
				tm.note(1+k, v)
				if d.Bounded && v > d.N {
					x.timingFault(KindDeadline, t.PC, s.Now()-uint64(v), s.Now(),
						"deadline %s: %d cycles from FROM to TO, more than %d", d.Name, v, d.N)
				}
				tm.dlSet(s, k, j, 0)
			case u.Status == Exited:
				// It never reaches TO: no violation can come of it.
				tm.dlSet(s, k, j, 0)
			default:
				running = true
				if v != cur-1 {
					tm.dlSet(s, k, j, v+1)
				}
			}
		}
		// A thread arrives at FROM by its step, or is created there
		// (__mc_thread_create: the threads after nt).
		for j := i; j < len(s.Threads); j = max(j+1, nt) {
			u := &s.Threads[j]
			if u.PC != d.From || u.Status == Exited || tm.dlGet(s, k, j) != 0 {
				continue
			}
			if running && mutation.On(mutation.DeadlineOne) {
				continue // one interval at a time
			}
			tm.dlSet(s, k, j, 1)
			running = true
		}
	}
	for k := range tm.cfg.Latencies {
		l := &tm.cfg.Latencies[k]
		o := offLatency + 5*k
		if ro[o] != latRequested {
			continue
		}
		v := addSat(get32(ro[o+1:]), c, tm.sat(l.TimingBound))
		m.latencyCheck(x, k, v, false)
		if v != get32(ro[o+1:]) {
			put32(wr()[o+1:], v)
		}
	}
}

// latencyCheck records the latency v of property k so far and reports a
// violation when it passes the bound.
func (m *Machine) latencyCheck(x *stepper, k int, v uint32, entry bool) {
	tm := m.timing
	l := &tm.cfg.Latencies[k]
	tm.note(1+len(tm.cfg.Deadlines)+k, v)
	if l.Bounded && v > l.N {
		now := x.s.Now()
		what := "requested %d cycles ago and its handler has not begun, more than %d"
		if entry {
			what = "its handler begins %d cycles after the request, more than %d"
		}
		x.timingFault(KindLatency, x.t.PC, now-uint64(v), now, "interrupt %s: "+what, IRQName(l.IRQ), v, l.N)
	}
}

// timingFault records a timing violation: the interval [from, to] of
// global time.
func (x *stepper) timingFault(k Kind, pc uint16, from, to uint64, format string, args ...any) {
	if x.bad {
		return
	}
	x.fault(k, pc, 0, format, args...)
	x.viol.From, x.viol.To = from, to
}

// timedInterrupt updates the timing page after thread i took interrupt
// v (its entry's 14 cycles, CCR ccr before it): the entry is a step of
// the masked interval, and the end of a requested interrupt's latency.
func (m *Machine) timedInterrupt(x *stepper, i int, v int, ccr uint8, c uint64) {
	tm := m.timing
	for k := range tm.cfg.Latencies {
		l := &tm.cfg.Latencies[k]
		o := offLatency + 5*k
		if l.IRQ != v || m.timingPage(x.s, false)[o] != latRequested {
			continue
		}
		// The handler's first instruction is next: the latency ends
		// with the entry.
		p := m.timingPage(x.s, true)
		w := addSat(get32(p[o+1:]), c, tm.sat(l.TimingBound))
		m.latencyCheck(x, k, w, true)
		p[o] = 0
		if l.Source {
			// Served: the next request is the next time flag and
			// enable become both set (sourcesAfter).
			p[o] = latServed
		}
		put32(p[o+1:], 0)
	}
	m.timed(x, i, ccr, c, len(x.s.Threads))
}

// requests returns the number of interrupt requests possible in s (the
// latency properties' environment events), and appends their property
// indexes to dst.
func (m *Machine) requests(s *State, dst []int) []int {
	if m.timing == nil {
		return dst
	}
	p := m.timingPage(s, false)
	for k, l := range m.timing.cfg.Latencies {
		if p[offLatency+5*k] == 0 && !l.Source {
			dst = append(dst, k)
		}
	}
	return dst
}

// request makes latency property k's interrupt requested in s.
func (m *Machine) request(s *State, k int) {
	p := m.timingPage(s, true)
	p[offLatency+5*k] = 1
	put32(p[offLatency+5*k+1:], 0)
}

// requested returns the vector of the requested harness interrupt that
// thread t must take now, or -1: of the requested interrupts that the
// thread can take (I or X clear, no CLI or TAP just before), the one of
// the highest priority (rank) — what the chip takes at an instruction
// boundary where several are pending.
func (m *Machine) requested(s *State, t *Thread) int {
	if m.timing == nil || len(m.timing.cfg.Latencies) == 0 || t.Status == Exited || s.Atomic != 0 {
		return -1
	}
	p := m.timingPage(s, false)
	best, br := -1, -1
	for k, l := range m.timing.cfg.Latencies {
		if p[offLatency+5*k] == 0 || l.Source || !m.canTake(t, l.IRQ) {
			continue
		}
		if mutation.On(mutation.LatencyOrder) {
			return l.IRQ // the first in --latency's order
		}
		if r := m.rank(s, l.IRQ); r > br {
			best, br = l.IRQ, r
		}
	}
	return best
}

// rank returns the priority of interrupt v in s, higher served first:
// the order of the Reference Manual's interrupt priority table (section
// 5, resets and interrupts) — XIRQ, IRQ, RTI, IC1-IC3, OC1-OC5, TOF,
// PAOV, PAI, SPI, SCI — which is the order of the vector indexes, with
// the source that HPRIO's PSEL bits promote placed above IRQ, below XIRQ.
// Without the chip's registers no source is promoted.
func (m *Machine) rank(s *State, v int) int {
	r := 2 * v
	if m.dev != nil && v < isa.VecIRQ && m.regSize > devices.RegHPRIO {
		const o = devices.RegHPRIO // in the device's pages, as loadBlock reads them
		if devices.Promoted(s.Pages[m.regPage+o/PageSize].Data[o%PageSize]) == v {
			r = 2*isa.VecIRQ + 1
		}
	}
	return r
}

// outranks reports whether a harness interrupt v without a latency
// property may be taken by a thread that must take the requested
// interrupt req (-1: none): the chip takes v first only when v has the
// higher priority. (The interrupts that no property tracks are requested
// where they are taken; one of a lower priority than a pending one is
// not taken before it.)
func (m *Machine) outranks(s *State, v, req int) bool {
	return req < 0 || mutation.On(mutation.LatencyOrder) || m.rank(s, v) > m.rank(s, req)
}

// isRequestable reports whether interrupt v is taken only on request
// (it has a latency property).
func (m *Machine) isRequestable(v int) bool {
	if m.timing == nil {
		return false
	}
	for _, l := range m.timing.cfg.Latencies {
		if l.IRQ == v && !l.Source {
			return true
		}
	}
	return false
}

// timingStart initialises the timing page of the initial state s: a
// deadline whose FROM is thread 0's entry starts there.
func (m *Machine) timingStart(s *State) {
	if m.timing == nil {
		return
	}
	for k, d := range m.timing.cfg.Deadlines {
		if s.Threads[0].PC == d.From {
			pg, o := m.timing.dlSlot(k, 0)
			s.Pages[pg] = &Page{}
			s.Pages[pg].Data[o+3] = 1
		}
	}
}

// TimingValue is the largest value a search of m saw of one timing
// property (Machine.TimingValues).
type TimingValue struct {
	// Property names it: "max-masked", "deadline FROM:TO", "latency IRQ".
	Property string
	// Value is the largest value seen, in cycles; AtLeast says it
	// reached the counter's saturation (the bound plus one, or the cap),
	// so that the true maximum may be larger.
	Value   uint64
	AtLeast bool
	// Bound is the property's bound, when it has one.
	Bounded bool
	Bound   uint32
	// Auto says --report-timing added the property (a chip's source
	// under the exact clock, Latency.Auto): a value of 0 says the
	// firmware never armed the source.
	Auto bool
}

// TimingValues returns the largest value of each timing property that
// the searches of m saw, in the order masked, deadlines, latencies.
func (m *Machine) TimingValues() []TimingValue {
	tm := m.timing
	if tm == nil {
		return nil
	}
	var out []TimingValue
	add := func(name string, k int, b TimingBound) {
		v := tm.max[k].Load()
		out = append(out, TimingValue{Property: name, Value: v, AtLeast: v >= uint64(tm.sat(b)),
			Bounded: b.Bounded, Bound: b.N})
	}
	if tm.cfg.Masked.Track {
		add("max-masked", 0, tm.cfg.Masked)
	}
	for k, d := range tm.cfg.Deadlines {
		add("deadline "+d.Name, 1+k, d.TimingBound)
	}
	for k, l := range tm.cfg.Latencies {
		add("latency "+IRQName(l.IRQ), 1+len(tm.cfg.Deadlines)+k, l.TimingBound)
		out[len(out)-1].Auto = l.Auto
	}
	return out
}

// HasTiming reports whether the machine checks timing properties.
func (m *Machine) HasTiming() bool { return m.timing != nil }

// inhibitAfter keeps the rule of the M68HC11 Reference Manual (appendix
// A, CLI and TAP): the clearing of I takes effect one E cycle late, so
// that when CLI or TAP clears an I that was set, the next instruction
// always executes before an interrupt is taken, even one pending before.
// The thread is marked after such a step and unmarked after its next one;
// canTake and devTakes refuse a marked thread's maskable interrupts. RTI
// restores I with no such delay.
func (m *Machine) inhibitAfter(s *State, t *Thread, ccr uint8) {
	if t.Inhibit != 0 {
		t.Inhibit = 0
	}
	if ccr&isa.FlagI == 0 || t.CCR&isa.FlagI != 0 || t.Status == Exited {
		return
	}
	switch m.ReadMem(s, t.PrevPC) {
	case 0x0E, 0x06: // CLI, TAP
		t.Inhibit = 1
	}
}

// EventText describes environment event k of s (Label.Event = k+1) for a
// listing: the device's event, or an interrupt's request (timing.go).
func (m *Machine) EventText(s *State, k int) string {
	if nd := m.events(s); m.timing != nil && k >= nd {
		if j := k - nd; j < len(m.timing.cfg.Latencies) {
			return "interrupt " + IRQName(m.timing.cfg.Latencies[j].IRQ) + " requested"
		}
	}
	return m.EventInfo(s, k).String()
}

// The chip's own sources (Latency.Source, under the exact clock). A
// source requests its interrupt from the E cycle at which its flag and
// its enable bit are both set. The device sets flags only as time
// elapses (Machine.elapse, after each transition's cycles), so the
// timing page follows the sources there: sourcesBefore notes, before an
// elapse, after how many of its cycles each source's flag sets
// (devices.SourceTimer.SetsIn), and sourcesAfter, after it, starts the
// intervals of the sources now requesting: from the cycle the flag set
// when it set during the elapse, otherwise (the firmware set the enable
// bit while the flag was set) from the first cycle of the transition,
// the earliest the write can have been — an over-approximation of at
// most the instruction's cycles less one. It ends the intervals of
// sources no longer requesting (the firmware cleared the flag or the
// enable: the request is withdrawn, or the served request's flag
// cleared). The cycles of a requested source's interval grow in timed
// with every step, as a harness interrupt's; timedInterrupt ends it at
// the entry and leaves the source served (latServed) until its flag or
// enable clears, so that a handler that returns with the flag still set
// is not a new request.

// hasSources reports whether some latency property is a chip's source's.
func (m *Machine) hasSources() bool { return m.timing != nil && m.timing.src != nil }

// sourcesBefore notes in at, per latency property of a source not
// requested, after how many E cycles of b's moment the source's flag
// sets (^0: not by the clock).
func (m *Machine) sourcesBefore(s *State, b *devices.Block, at *[maxLatencies]uint64) {
	tm := m.timing
	p := m.timingPage(s, false)
	for k, l := range tm.cfg.Latencies {
		at[k] = ^uint64(0)
		if l.Source && p[offLatency+5*k] == 0 {
			at[k] = tm.src.SetsIn(b, l.IRQ)
		}
	}
}

// sourcesAfter updates the timing page of x.s after cycles E cycles
// elapsed in b, at noted by sourcesBefore; waited says the cycles passed
// while the CPU waited (an event, which timed does not count).
func (m *Machine) sourcesAfter(x *stepper, b *devices.Block, cycles uint64, at *[maxLatencies]uint64, waited bool) {
	m.sourcesFrom(x, b, cycles, 0, at, waited)
}

// sourcesAbstract updates the timing page of x.s, under the abstract
// clock, after a transition of cycles E cycles (event: an event of the
// device, which takes none). A source whose flag and enable are both
// set now, and were not before, requests from the first cycle of the
// transition when the firmware set the enable bit (cycles), and from
// the first cycle of the CPU's last step when an event of the abstract
// clock set the flag: the event stands for a flag that set at any cycle
// of that step, which the chip recognizes at its end (the Reference
// Manual, section 5: interrupts are recognized at the end of an
// instruction), so that the count is the worst over every moment the
// flag may have set, at most one cycle too long.
func (m *Machine) sourcesAbstract(x *stepper, cycles uint64, event bool) {
	b := blockPool.Get().(*devices.Block)
	m.loadBlock(x.s, b)
	var at [maxLatencies]uint64
	for k := range at {
		at[k] = ^uint64(0)
	}
	var before uint64
	if event && !mutation.On(mutation.AbstractBoundary) {
		before = uint64(m.timingPage(x.s, false)[offLast])
	}
	m.sourcesFrom(x, b, cycles, before, &at, false)
	blockPool.Put(b)
}

// sourcesFrom is sourcesAfter with before more cycles, before the
// elapsed ones, in which a flag that set without the clock's knowing
// the cycle may have set.
func (m *Machine) sourcesFrom(x *stepper, b *devices.Block, cycles, before uint64, at *[maxLatencies]uint64, waited bool) {
	tm := m.timing
	for k, l := range tm.cfg.Latencies {
		if !l.Source {
			continue
		}
		o := offLatency + 5*k
		st := m.timingPage(x.s, false)[o]
		req := tm.src.Requests(b, l.IRQ)
		switch {
		case st == 0 && req:
			v := cycles + before // from the transition's first cycle: the earliest
			if at[k] <= cycles {
				v = cycles - at[k] // the flag set at cycle at[k]
				if mutation.On(mutation.SourceBoundary) {
					v = 0
				}
			}
			w := addSat(0, v, tm.sat(l.TimingBound))
			p := m.timingPage(x.s, true)
			p[o] = latRequested
			put32(p[o+1:], w)
			m.latencyCheck(x, k, w, false)
		case st != 0 && !req:
			p := m.timingPage(x.s, true)
			p[o] = 0
			put32(p[o+1:], 0)
		case st == latRequested && waited && cycles > 0:
			p := m.timingPage(x.s, true)
			w := addSat(get32(p[o+1:]), cycles, tm.sat(l.TimingBound))
			put32(p[o+1:], w)
			m.latencyCheck(x, k, w, false)
		}
	}
}
