package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/testkit/randprog"
	"github.com/hc11mc/hc11mc/testkit/timeoracle"
)

// The timing page against a second implementation of the timing
// properties (testkit/timeoracle), on random executions and every
// counterexample of random programs.

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
	return oracleMachineBatched(t, seed, bounds, false)
}

// oracleMachineBatched is oracleMachine with batches of steps on or off:
// the oracle's walks go one scheduling point at a time (a batch may run
// millions of instructions, each walked cycle by cycle), the searches
// whose counterexamples it checks run with batches, as check does.
func oracleMachineBatched(t *testing.T, seed uint64, bounds [3]uint32, batched bool) (*sim.Machine, string) {
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
	cfg.Unbatched = !batched
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
func oracleWalks(t *testing.T, seed uint64, walks, steps int, seen *timeoracle.Seen) []string {
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
		o := timeoracle.New(fresh, s)
		o.Seen = seen
		for _, l := range ls {
			ns, v, ok := fresh.Replay(s, l)
			if !ok || v != nil {
				bad = append(bad, fmt.Sprintf("the walk does not replay (%v)", v))
				break
			}
			if err := o.Step(s, ns, l); err != nil {
				bad = append(bad, err.Error()+" ("+desc+")")
				break
			}
			s = ns
		}
		want := o.Values()
		for k, g := range fresh.TimingValues() {
			if k < len(want) && g.Value != want[k] {
				bad = append(bad, fmt.Sprintf("%s: the timing page says %d, the oracle %d (%s)", g.Property, g.Value, want[k], desc))
			}
		}
		// Each kind bounded one below the walk's largest value: the
		// machine reports a violation exactly where the oracle sees an
		// interval pass the bound.
		nd := o.Deadlines()
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
		o = timeoracle.New(bounded, s)
		for _, l := range ls {
			ns, v, ok := bounded.Replay(s, l)
			if !ok {
				bad = append(bad, "the walk does not replay on the bounded machine")
				break
			}
			if err := o.Step(s, ns, l); err != nil {
				bad = append(bad, err.Error()+" ("+desc+")")
				break
			}
			if (v != nil) != o.Violated() {
				bad = append(bad, fmt.Sprintf("after %+v: the machine's violation %v, the oracle's %v (%s)", l, v, o.Violated(), desc))
			}
			if v != nil || o.Violated() {
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
		m, desc := oracleMachineBatched(t, seed, bs, true)
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

// oracleCheck replays f on m with the oracle beside it.
func oracleCheck(m *sim.Machine, f Found) error {
	states, v, err := Replay(m, f.Trace)
	if err != nil || v == nil {
		return fmt.Errorf("the counterexample does not replay: %v", err)
	}
	return timeoracle.CheckTrace(m, states, f.Trace, v)
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
	seen := &timeoracle.Seen{}
	for seed := range n {
		bad := oracleWalks(t, seed, 20, 300, seen)
		vb, nf := oracleViolations(t, seed, [3]uint32{12, 30, 20})
		found += nf
		for _, b := range append(bad, vb...) {
			t.Errorf("program %d: %s", seed, b)
		}
	}
	t.Logf("%d programs, %d counterexamples checked; the walks: %d wakings from WAI or STOP, %d transitions with two requests pending, %d with two threads inside a deadline, interrupts taken %v",
		n, found, seen.Woken, seen.Pending2, seen.Overlap, seen.Taken)
	if found < int(n)/2 || seen.Woken == 0 || seen.Pending2 == 0 || seen.Overlap == 0 || len(seen.Taken) < 4 {
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
