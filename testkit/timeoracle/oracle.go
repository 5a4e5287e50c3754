// Package timeoracle recomputes the timing properties of an execution
// apart from the simulator's timing page (sim/timing.go), for the tests
// that compare the two: a second, plain implementation of
// docs/timing.md's definitions.
//
// An Oracle walks a cycle-stamped execution — the states before and
// after each transition, their global time (sim.State.Now), the labels —
// cycle by cycle, and follows each interval: the masked interval of the
// context that runs (the I bit before and after its step, after the
// first instruction that cleared I), a deadline per thread (from its
// arrival at FROM to its arrival at TO), the latency of each harness
// interrupt (from the request, an environment event, to the handler's
// first instruction). It checks that a thread that can take a pending
// request takes the one of the highest priority (the M68HC11 Reference
// Manual, section 5: the interrupt priority table, which is the order of
// the vectors, and HPRIO's promotion, read from the chip's registers),
// says where a bound is passed, and checks a violation's interval. The
// latency of the chip's own sources under the exact clock (a flag set
// inside an instruction) is not followed. It
// reads the states' registers and memory, the labels and the text the
// machine gives a request; it shares no code with the timing page.
package timeoracle

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/sim"
)

// latency is one latency property the oracle follows.
type latency struct {
	vec      int
	pending  bool
	cnt, max uint64
}

// deadline is one deadline, an interval per thread.
type deadline struct {
	from, to uint16
	run      map[int]uint64 // thread -> cycles since FROM
	max      uint64
}

// Seen counts what executions met, so that a comparison can show it is
// not vacuous.
type Seen struct {
	Woken    int         // interrupts taken by a thread waiting in WAI or stopped
	Pending2 int         // transitions with two requests pending or more
	Overlap  int         // transitions with two threads inside one deadline
	Taken    map[int]int // interrupts taken, by vector
}

// Oracle is the recomputation's state along one execution.
type Oracle struct {
	m         *sim.Machine
	armed     bool // an instruction cleared I
	masked    bool
	maskedCnt uint64
	maskedMax uint64
	dls       []*deadline
	lats      []*latency
	// last is the interval the last transition ended or passed: its
	// start and end in global time.
	lastFrom, lastTo uint64
	// bounds are the properties' bounds (0: none) of the masked
	// interval, the first deadline and the first latency; viol says
	// whether the last transition passed one.
	bounds [3]uint64
	viol   bool
	// Seen, when not nil, counts what the execution met.
	Seen *Seen
}

// New returns an oracle for the timing properties of m
// (m.Config.Timing) along an execution from s.
func New(m *sim.Machine, s *sim.State) *Oracle {
	o := &Oracle{m: m}
	tc := m.Config.Timing
	if tc == nil {
		return o
	}
	if tc.Masked.Bounded {
		o.bounds[0] = uint64(tc.Masked.N)
	}
	if len(tc.Deadlines) > 0 && tc.Deadlines[0].Bounded {
		o.bounds[1] = uint64(tc.Deadlines[0].N)
	}
	if len(tc.Latencies) > 0 && tc.Latencies[0].Bounded {
		o.bounds[2] = uint64(tc.Latencies[0].N)
	}
	for _, d := range tc.Deadlines {
		od := &deadline{from: d.From, to: d.To, run: map[int]uint64{}}
		if s.Threads[0].PC == d.From {
			od.run[0] = 0
		}
		o.dls = append(o.dls, od)
	}
	for _, l := range tc.Latencies {
		if !l.Source {
			o.lats = append(o.lats, &latency{vec: l.IRQ})
		}
	}
	return o
}

var requestText = regexp.MustCompile(`^interrupt (\w+) requested$`)

// takeable reports whether thread t of s can take interrupt v now.
func takeable(s *sim.State, t *sim.Thread, v int) bool {
	if t.Status == sim.Exited || s.Atomic != 0 {
		return false
	}
	if v == isa.VecXIRQ {
		return t.CCR&isa.FlagX == 0
	}
	return t.CCR&isa.FlagI == 0 && t.Inhibit == 0
}

// hprio is the register HPRIO, at 0x3C in the register block (0x1000
// after reset), and the sources its PSEL3-PSEL0 promote (the Reference
// Manual's table of PSEL; 0101 and 0110 promote none above IRQ).
const hprio = 0x103C

var psel = map[uint8]string{0: "tof", 1: "pao", 2: "paie", 3: "spi", 4: "sci", 7: "rti",
	8: "tic1", 9: "tic2", 10: "tic3", 11: "toc1", 12: "toc2", 13: "toc3", 14: "toc4", 15: "toc5"}

// rank returns the priority of interrupt v in s, higher served first:
// the vectors' order, the promoted source just above IRQ.
func (o *Oracle) rank(s *sim.State, v int) int {
	if o.m.HasDevice() && v < isa.VecIRQ {
		if n, ok := psel[o.m.ReadMem(s, hprio)&0x0F]; ok {
			if w, _ := sim.VectorIndex(n); w == v {
				return 2*isa.VecIRQ + 1
			}
		}
	}
	return 2 * v
}

// Step follows transition l from a to b; it returns what contradicts the
// definitions.
func (o *Oracle) Step(a, b *sim.State, l sim.Label) error {
	o.viol = false
	over := func(k int, n uint64) {
		if o.bounds[k] > 0 && n > o.bounds[k] {
			o.viol = true
		}
	}
	if l.Event > 0 {
		if c := b.Now() - a.Now(); c > 0 {
			// Time passed in an event: a wait in WAI under the exact
			// clock. Every open interval counts it.
			o.tick(c)
			for _, ol := range o.lats {
				if ol.pending {
					ol.max = max(ol.max, ol.cnt)
					over(2, ol.cnt)
					o.lastFrom = b.Now() - ol.cnt
				}
			}
			if o.masked {
				o.maskedCnt += c
				o.maskedMax = max(o.maskedMax, o.maskedCnt)
				over(0, o.maskedCnt)
				o.lastFrom = b.Now() - o.maskedCnt
			}
			o.lastTo = b.Now()
		}
		if mm := requestText.FindStringSubmatch(o.m.EventText(a, int(l.Event-1))); mm != nil {
			v, _ := sim.VectorIndex(mm[1])
			for _, ol := range o.lats {
				if ol.vec == v {
					if ol.pending {
						return fmt.Errorf("%s requested twice", mm[1])
					}
					ol.pending, ol.cnt = true, 0
					o.lastFrom, o.lastTo = a.Now(), a.Now()
				}
			}
		}
		return nil
	}
	i := l.Thread
	t := &a.Threads[i]
	o.count(a, t, l)
	// The chip's rule: a pending request the thread can take is served
	// before any instruction, the highest priority first; an interrupt
	// no property follows is taken first only when it ranks higher.
	top, tr := -1, -1
	for _, ol := range o.lats {
		if r := o.rank(a, ol.vec); ol.pending && takeable(a, t, ol.vec) && r > tr {
			top, tr = ol.vec, r
		}
	}
	if top >= 0 && (l.IRQ < 0 || o.rank(a, l.IRQ) < tr) {
		return fmt.Errorf("thread %d %s while %s is pending and takeable", i, labelText(l), sim.IRQName(top))
	}
	c := b.Now() - a.Now()
	o.tick(c)
	o.lastTo = b.Now()
	// Masked: the context that ran, I before and after.
	ib, ia := t.CCR&isa.FlagI != 0, b.Threads[i].CCR&isa.FlagI != 0
	switch {
	case !o.armed:
		o.armed = ib && !ia
	case ib:
		if !o.masked {
			o.maskedCnt = 0
		}
		o.maskedCnt += c
		o.maskedMax = max(o.maskedMax, o.maskedCnt)
		over(0, o.maskedCnt)
		o.masked = ia
		o.lastFrom = b.Now() - o.maskedCnt
	default:
		o.masked, o.maskedCnt = ia, 0
	}
	for _, ol := range o.lats {
		if ol.pending {
			o.lastFrom = b.Now() - ol.cnt
			if l.IRQ == ol.vec {
				ol.pending = false
			}
			ol.max = max(ol.max, ol.cnt)
			over(2, ol.cnt)
		}
	}
	for _, d := range o.dls {
		if n, ok := d.run[i]; ok && b.Threads[i].PC == d.to {
			d.max = max(d.max, n)
			over(1, n)
			o.lastFrom = b.Now() - n
			delete(d.run, i)
		}
		for j := range b.Threads {
			if b.Threads[j].Status == sim.Exited {
				delete(d.run, j)
			}
		}
		// Only thread i moved, and made the threads after a's.
		for j := i; j < len(b.Threads); j++ {
			if j != i && j < len(a.Threads) {
				continue
			}
			if _, ok := d.run[j]; !ok && b.Threads[j].PC == d.from && b.Threads[j].Status != sim.Exited {
				d.run[j] = 0
			}
		}
	}
	return nil
}

// tick counts c cycles, one at a time, in every open latency and
// deadline interval.
func (o *Oracle) tick(c uint64) {
	for range c {
		for _, ol := range o.lats {
			if ol.pending {
				ol.cnt++
			}
		}
		for _, d := range o.dls {
			for j := range d.run {
				d.run[j]++
			}
		}
	}
}

// count notes in o.Seen what a thread's transition l from a meets.
func (o *Oracle) count(a *sim.State, t *sim.Thread, l sim.Label) {
	if o.Seen == nil {
		return
	}
	np := 0
	for _, ol := range o.lats {
		if ol.pending {
			np++
		}
	}
	if np >= 2 {
		o.Seen.Pending2++
	}
	for _, d := range o.dls {
		if len(d.run) >= 2 {
			o.Seen.Overlap++
		}
	}
	if l.IRQ >= 0 {
		if o.Seen.Taken == nil {
			o.Seen.Taken = map[int]int{}
		}
		o.Seen.Taken[l.IRQ]++
		if t.Status == sim.Waiting || t.Status == sim.Stopped {
			o.Seen.Woken++
		}
	}
}

func labelText(l sim.Label) string {
	if l.IRQ >= 0 {
		return "takes " + sim.IRQName(l.IRQ)
	}
	return "runs an instruction"
}

// Violated reports whether the last transition passed a bound: the
// masked interval's, the first deadline's (which the oracle applies to
// every deadline) or the first latency's (to every latency).
func (o *Oracle) Violated() bool { return o.viol }

// Values returns the largest value of each property so far, in the order
// of sim.Machine.TimingValues: masked, the deadlines, the latencies.
func (o *Oracle) Values() []uint64 {
	out := []uint64{o.maskedMax}
	for _, d := range o.dls {
		out = append(out, d.max)
	}
	for _, l := range o.lats {
		out = append(out, l.max)
	}
	return out
}

// Deadlines is the number of deadlines the oracle follows.
func (o *Oracle) Deadlines() int { return len(o.dls) }

var countText = regexp.MustCompile(`(\d+) cycles`)

// CheckViolation checks v, the violation of the last transition the
// oracle followed: the interval the transition ended or passed — for a
// latency, the one of the interrupt the message names — has v's start
// and end, and its count is the one the message gives.
func (o *Oracle) CheckViolation(v *sim.Violation) error {
	var from uint64
	switch v.Kind {
	case sim.KindMasked:
		from = o.lastTo - o.maskedCnt
	case sim.KindLatency:
		var ol *latency
		for _, x := range o.lats {
			if strings.Contains(v.Message, "interrupt "+sim.IRQName(x.vec)+":") {
				ol = x
			}
		}
		if ol == nil {
			return nil // a chip's source, which the oracle does not follow
		}
		from = o.lastTo - ol.cnt
	case sim.KindDeadline:
		from = o.lastFrom
	default:
		return nil
	}
	// The count: "more than N cycles: C cycles since" (masked), "C
	// cycles ..., more than N" (the others).
	mm := countText.FindAllStringSubmatch(v.Message, -1)
	if len(mm) == 0 {
		return fmt.Errorf("%s: no count in %q", v.Kind, v.Message)
	}
	c := mm[0][1]
	if v.Kind == sim.KindMasked {
		c = mm[len(mm)-1][1]
	}
	n, _ := strconv.ParseUint(c, 10, 64)
	if v.From != from || v.To != o.lastTo || n != v.To-v.From {
		return fmt.Errorf("%s: the violation says %q over %d to %d; the oracle's interval is %d to %d",
			v.Kind, v.Message, v.From, v.To, from, o.lastTo)
	}
	return nil
}

// CheckTrace follows the execution through states (the initial one
// first) by labels with an oracle and checks v, the violation its last
// transition raised.
func CheckTrace(m *sim.Machine, states []*sim.State, labels []sim.Label, v *sim.Violation) error {
	if len(states) != len(labels)+1 {
		return fmt.Errorf("%d states for %d transitions", len(states), len(labels))
	}
	o := New(m, states[0])
	for i, l := range labels {
		if err := o.Step(states[i], states[i+1], l); err != nil {
			return err
		}
	}
	if v == nil {
		return nil
	}
	return o.CheckViolation(v)
}
