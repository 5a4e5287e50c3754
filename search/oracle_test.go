package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/internal/randprog"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// An oracle for the timing properties that is not the timing page: it
// walks a cycle-stamped execution (the states before and after each
// transition, their global time State.Now, the labels) cycle by cycle
// and recomputes every interval from docs/timing.md's definitions — the
// I bit of the context that runs, the requests and the handlers'
// entries, FROM and TO per thread — and checks that a thread that can
// take a pending request takes the one of the highest priority (the
// Reference Manual's interrupt priority table: the order of the
// vectors). It shares no code with sim/timing.go: it reads the states'
// registers, the labels and the listing's text of a request.

// oracleLatency is one latency property the oracle follows.
type oracleLatency struct {
	vec      int
	pending  bool
	cnt, max uint64
}

// oracleDeadline is one deadline, an interval per thread.
type oracleDeadline struct {
	from, to uint16
	run      map[int]uint64 // thread -> cycles since FROM
	max      uint64
}

// oracle is the recomputation's state along one execution.
type oracle struct {
	m         *sim.Machine
	armed     bool // an instruction cleared I
	masked    bool
	maskedCnt uint64
	maskedMax uint64
	dls       []*oracleDeadline
	lats      []*oracleLatency
	// last is the interval the last transition ended or passed, for a
	// violation's: its start and end in global time.
	lastFrom, lastTo uint64
	// bounds are the properties' bounds (0: none), viol whether the last
	// transition passed one.
	bounds [3]uint64
	viol   bool
	seen   *oracleSeen
}

// oracleSeen counts what the walks met, so that the comparison is shown
// not to be vacuous.
type oracleSeen struct {
	woken    int // interrupts taken by a thread waiting in WAI or stopped
	pending2 int // transitions with two requests pending or more
	overlap  int // transitions with two threads inside one deadline
	taken    map[int]int
}

func newOracle(m *sim.Machine, s *sim.State) *oracle {
	o := &oracle{m: m}
	tc := m.Config.Timing
	if tc.Masked.Bounded {
		o.bounds[0] = uint64(tc.Masked.N)
	}
	if len(tc.Deadlines) > 0 && tc.Deadlines[0].Bounded {
		o.bounds[1] = uint64(tc.Deadlines[0].N)
	}
	if len(tc.Latencies) > 0 && tc.Latencies[0].Bounded {
		o.bounds[2] = uint64(tc.Latencies[0].N)
	}
	for _, d := range m.Config.Timing.Deadlines {
		od := &oracleDeadline{from: d.From, to: d.To, run: map[int]uint64{}}
		if s.Threads[0].PC == d.From {
			od.run[0] = 0
		}
		o.dls = append(o.dls, od)
	}
	for _, l := range m.Config.Timing.Latencies {
		o.lats = append(o.lats, &oracleLatency{vec: l.IRQ})
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

// step follows transition l from a to b; it returns what contradicts the
// definitions.
func (o *oracle) step(a, b *sim.State, l sim.Label) error {
	if l.Event > 0 {
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
	o.viol = false
	over := func(k int, n uint64) {
		if o.bounds[k] > 0 && n > o.bounds[k] {
			o.viol = true
		}
	}
	// The chip's rule: a pending request the thread can take is served
	// before any instruction, the highest vector first; an interrupt no
	// property follows is taken first only when it ranks higher.
	if o.seen != nil {
		np := 0
		for _, ol := range o.lats {
			if ol.pending {
				np++
			}
		}
		if np >= 2 {
			o.seen.pending2++
		}
		for _, d := range o.dls {
			if len(d.run) >= 2 {
				o.seen.overlap++
			}
		}
		if l.IRQ >= 0 {
			o.seen.taken[l.IRQ]++
			if t.Status == sim.Waiting || t.Status == sim.Stopped {
				o.seen.woken++
			}
		}
	}
	top := -1
	for _, ol := range o.lats {
		if ol.pending && takeable(a, t, ol.vec) && ol.vec > top {
			top = ol.vec
		}
	}
	if top >= 0 && (l.IRQ < 0 || l.IRQ < top) {
		return fmt.Errorf("thread %d: %s while %s is pending and takeable", i, labelText(l), sim.IRQName(top))
	}
	c := b.Now() - a.Now()
	// Cycle by cycle: every running interval counts each cycle.
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
		for j := i; j < len(b.Threads); j++ {
			if j != i && j < len(a.Threads) {
				continue // only thread i moved, and the threads it created
			}
			if _, ok := d.run[j]; !ok && b.Threads[j].PC == d.from && b.Threads[j].Status != sim.Exited {
				d.run[j] = 0
			}
		}
	}
	return nil
}

func labelText(l sim.Label) string {
	if l.IRQ >= 0 {
		return "takes " + sim.IRQName(l.IRQ)
	}
	return "runs an instruction"
}

// values returns the largest values, in TimingValues' order.
func (o *oracle) values() []uint64 {
	out := []uint64{o.maskedMax}
	for _, d := range o.dls {
		out = append(out, d.max)
	}
	for _, l := range o.lats {
		out = append(out, l.max)
	}
	return out
}

// oracleMachine is program seed's machine with the timing properties
// the oracle follows, each bounded by bounds (0: measured only): the
// masked interval; deadlines (FROM:TO) that several threads pass at once
// and the latency of every harness interrupt. Odd seeds are
// randprog.Timed's programs (four interrupts with handlers of their own,
// WAI, STOP, a subroutine every thread calls: its entry to its RTS is a
// deadline); even ones randprog.Program's, whose TOC1 handler serves IRQ
// and RTI too (three priorities), with deadlines from the lock stub to
// the unlock stub, at thread 1's entry, and from one entry of the handler
// to the next.
func oracleMachine(t *testing.T, seed uint64, bounds [3]uint32) (*sim.Machine, string) {
	b := func(n uint32) sim.TimingBound { return sim.TimingBound{Track: true, Bounded: n > 0, N: n} }
	tm := &sim.Timing{Cap: 1 << 20, Masked: b(bounds[0])}
	var img *loader.Image
	var cfg sim.Config
	var desc string
	if seed%2 == 1 {
		img, cfg, desc = randprog.Timed(rand.New(rand.NewPCG(seed, 0x0AC1)))
		tm.Deadlines = []sim.Deadline{
			{From: randprog.TimedSub, To: randprog.TimedRet, Name: "sub", TimingBound: b(bounds[1])},
			{From: 0xD400, To: 0xD400, Name: "0xD400:0xD400", TimingBound: b(bounds[1])}}
	} else {
		img, cfg, desc = randprog.Program(rand.New(rand.NewPCG(seed, 0x0AC1)))
		lock, _ := img.StubAddr(loader.StubLock)
		unlock, _ := img.StubAddr(loader.StubUnlock)
		tm.Deadlines = []sim.Deadline{
			{From: lock, To: unlock, Name: "lock:unlock", TimingBound: b(bounds[1])},
			{From: 0xD400, To: 0xD400, Name: "0xD400:0xD400", TimingBound: b(bounds[1])}}
		if len(cfg.IRQs) > 0 {
			// The handler, which every thread may run: an interval per
			// thread from one entry to its next.
			h := img.Vectors[isa.VecTOC1]
			tm.Deadlines = append(tm.Deadlines, sim.Deadline{From: h, To: h, Name: "handler", TimingBound: b(bounds[1])})
			for _, n := range []string{"irq", "rti"} {
				v, _ := sim.VectorIndex(n)
				img.Vectors[v], img.VectorLoaded[v] = h, true
			}
			cfg.IRQs = []string{"irq", "toc1", "rti"}
		}
	}
	for _, n := range cfg.IRQs {
		v, _ := sim.VectorIndex(n)
		tm.Latencies = append(tm.Latencies, sim.Latency{IRQ: v, TimingBound: b(bounds[2])})
	}
	cfg.Timing = tm
	m, err := sim.NewMachine(img, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m, desc
}

// oracleWalks compares the oracle with the timing page on random
// executions of program seed: walks of random transitions, each replayed
// on a fresh machine whose largest values are then the walk's, and on
// one whose bounds are one below them. It returns the discrepancies.
func oracleWalks(t *testing.T, seed uint64, walks, steps int, seen *oracleSeen) []string {
	m, desc := oracleMachine(t, seed, [3]uint32{})
	r := rand.New(rand.NewPCG(seed, 7))
	var bad []string
	var labels [][]sim.Label
	for range walks {
		s := m.Initial()
		var ls []sim.Label
		for range steps {
			succ, _ := m.Successors(s, nil, nil)
			if len(succ) == 0 {
				break
			}
			// Requests are drawn less often than the threads' moves,
			// so that the threads get somewhere between them.
			n := succ[r.IntN(len(succ))]
			for try := 0; n.Label.Event > 0 && try < 3; try++ {
				n = succ[r.IntN(len(succ))]
			}
			if n.Violation != nil {
				break
			}
			ls = append(ls, n.Label)
			s = n.State
		}
		labels = append(labels, ls)
	}
	for _, ls := range labels {
		// The walk alone on a fresh machine: its largest values are the
		// walk's.
		fresh, _ := oracleMachine(t, seed, [3]uint32{})
		s := fresh.Initial()
		o := newOracle(fresh, s)
		o.seen = seen
		for _, l := range ls {
			ns, v, ok := fresh.Replay(s, l)
			if !ok || v != nil {
				bad = append(bad, fmt.Sprintf("the walk does not replay (%v)", v))
				break
			}
			if err := o.step(s, ns, l); err != nil {
				bad = append(bad, err.Error()+" ("+desc+")")
				break
			}
			s = ns
		}
		want := o.values()
		for k, g := range fresh.TimingValues() {
			if k < len(want) && g.Value != want[k] {
				bad = append(bad, fmt.Sprintf("%s: the timing page says %d, the oracle %d (%s)", g.Property, g.Value, want[k], desc))
			}
		}
		// Each kind bounded one below the walk's largest value: the
		// machine reports a violation exactly where the oracle sees an
		// interval pass the bound.
		nd := len(o.dls)
		var bs [3]uint32
		for k, v := range want {
			c := 2
			switch {
			case k == 0:
				c = 0
			case k <= nd:
				c = 1
			}
			if v > 1 {
				bs[c] = max(bs[c], uint32(v-1))
			}
		}
		bounded, _ := oracleMachine(t, seed, bs)
		s = bounded.Initial()
		o = newOracle(bounded, s)
		for _, l := range ls {
			ns, v, ok := bounded.Replay(s, l)
			if !ok {
				bad = append(bad, "the walk does not replay on the bounded machine")
				break
			}
			if err := o.step(s, ns, l); err != nil {
				bad = append(bad, err.Error()+" ("+desc+")")
				break
			}
			if (v != nil) != o.viol {
				bad = append(bad, fmt.Sprintf("after %s: the machine's violation %v, the oracle's %v (%s)", labelText(l), v, o.viol, desc))
			}
			if v != nil || o.viol {
				break
			}
			s = ns
		}
	}
	return bad
}

// oracleViolations checks, on program seed, each violation a search
// finds with the properties bounded (masked, the deadlines, the
// latencies: bounds): the oracle, following the counterexample, sees
// the interval the violation reports end at its last transition, from
// the same start, with the count its message gives.
func oracleViolations(t *testing.T, seed uint64, bounds [3]uint32) (bad []string, found int) {
	for k := range 3 {
		var bs [3]uint32
		bs[k] = bounds[k]
		m, desc := oracleMachine(t, seed, bs)
		ig := ignoreAll()
		for _, kind := range []sim.Kind{sim.KindMasked, sim.KindDeadline, sim.KindLatency} {
			ig[kind] = false
		}
		res := Run(context.Background(), m, Options{Strategy: DFS, MaxStates: 20000, Ignore: ig})
		for _, f := range res.Found {
			found++
			if err := oracleCheck(m, f); err != nil {
				bad = append(bad, fmt.Sprintf("%v (%s)", err, desc))
			}
		}
	}
	return bad, found
}

var countText = regexp.MustCompile(`(\d+) cycles`)

// oracleCheck replays f on m with the oracle beside it.
func oracleCheck(m *sim.Machine, f Found) error {
	states, v, err := Replay(m, f.Trace)
	if err != nil || v == nil {
		return fmt.Errorf("the counterexample does not replay: %v", err)
	}
	o := newOracle(m, states[0])
	for i, l := range f.Trace {
		if err := o.step(states[i], states[i+1], l); err != nil {
			return err
		}
	}
	// The interval the last transition ended or passed.
	var from uint64
	switch v.Kind {
	case sim.KindMasked:
		from = o.lastTo - o.maskedCnt
	case sim.KindLatency:
		for _, ol := range o.lats {
			if strings.Contains(v.Message, "interrupt "+sim.IRQName(ol.vec)+":") {
				from = o.lastTo - ol.cnt
			}
		}
	case sim.KindDeadline:
		from = o.lastFrom
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

// TestTimingOracle: on random programs (up to three threads, three
// harness interrupts of different priorities, locks that several threads
// pass), the timing page's largest values along random executions are
// the oracle's, every transition keeps the chip's priority rule, and
// every counterexample's interval is the one the oracle recomputes.
func TestTimingOracle(t *testing.T) {
	n := uint64(40)
	if testing.Short() {
		n = 15
	}
	found := 0
	seen := &oracleSeen{taken: map[int]int{}}
	for seed := range n {
		bad := oracleWalks(t, seed, 20, 300, seen)
		vb, nf := oracleViolations(t, seed, [3]uint32{12, 30, 20})
		found += nf
		for _, b := range append(bad, vb...) {
			t.Errorf("program %d: %s", seed, b)
		}
	}
	t.Logf("%d programs, %d counterexamples checked; the walks: %d wakings from WAI or STOP, %d transitions with two requests pending, %d with two threads inside a deadline, interrupts taken %v",
		n, found, seen.woken, seen.pending2, seen.overlap, seen.taken)
	if found < int(n)/2 || seen.woken == 0 || seen.pending2 == 0 || seen.overlap == 0 || len(seen.taken) < 4 {
		t.Errorf("the programs did not meet every case the oracle exists for")
	}
}

// oracleCatches are the programs on which the oracle catches each
// mutation of the timing properties (TestTimingOracleCatches prints
// them when a list is empty).
var oracleCatches = map[mutation.Fault][]uint64{
	mutation.LatencyOrder:      {1, 3, 5},
	mutation.DeadlineOne:       {15, 21, 43},
	mutation.SaturatedInterval: {1, 3, 5},
}

// TestTimingOracleCatches: with each mutation of the timing properties
// the oracle disagrees on some program.
func TestTimingOracleCatches(t *testing.T) {
	for _, f := range []mutation.Fault{mutation.LatencyOrder, mutation.DeadlineOne, mutation.SaturatedInterval} {
		t.Run(f.String(), func(t *testing.T) {
			defer mutation.Set(f)()
			seeds := oracleCatches[f]
			if len(seeds) == 0 {
				var hits []uint64
				for seed := range uint64(60) {
					bad := oracleWalks(t, seed, 20, 300, nil)
					vb, _ := oracleViolations(t, seed, [3]uint32{12, 30, 20})
					if len(bad)+len(vb) > 0 {
						hits = append(hits, seed)
						if len(hits) == 3 {
							break
						}
					}
				}
				t.Fatalf("no programs listed for %s; programs that catch it: %v", f, hits)
			}
			for _, seed := range seeds {
				bad := oracleWalks(t, seed, 20, 300, nil)
				vb, _ := oracleViolations(t, seed, [3]uint32{12, 30, 20})
				if len(bad)+len(vb) == 0 {
					t.Errorf("%s: program %d agrees with the oracle", f, seed)
				}
			}
		})
	}
}
