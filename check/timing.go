package check

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// Timing properties as the command line gives them (--max-masked N,
// --deadline FROM:TO:N, --latency IRQ:N, --report-timing); package sim
// (sim/timing.go) defines them and says why the search checks them
// exactly.

// Timing is the timing properties of a check, as text where they name
// something in the image; the zero value has none.
type Timing struct {
	// MaxMasked bounds the cycles interrupts stay masked (--max-masked);
	// nil: no bound.
	MaxMasked *uint32
	// Deadlines are FROM:TO:N, FROM and TO symbols or addresses; N may
	// be left out with Report (FROM:TO is then measured only).
	Deadlines []string
	// Latencies are IRQ:N, IRQ an interrupt of --irq; N may be left out
	// with Report.
	Latencies []string
	// Report measures the largest value of each (--report-timing).
	Report bool
	// Cap is where the counters of properties without a bound saturate
	// (--timing-cap); 0: sim.DefaultTimingCap.
	Cap uint32
}

// On reports whether t asks for any timing property.
func (t Timing) On() bool {
	return t.MaxMasked != nil || len(t.Deadlines) > 0 || len(t.Latencies) > 0 || t.Report
}

// SourceUntimed is the reason a latency of one of the chip's sources is
// refused: its request does not come from the clock.
const SourceUntimed = "is not measured: --latency applies to the timer's sources whose flags the clock sets " +
	"(toc1-toc5, tof, rti); the input captures, the pulse accumulator, the SPI and the SCI are set by the outside world " +
	"at moments the clock does not count"

// AbstractSourceNote says what the latency of one of the chip's sources
// means under the abstract clock.
const AbstractSourceNote = "under the abstract clock the source may fire at any instruction boundary: the value is the worst " +
	"over every moment it may fire, counted from the first cycle of the instruction it fires in; " +
	"--clock exact gives the request times the timer programs"

// timedSources are the chip's sources whose latency the exact clock
// measures, in the order --report-timing adds them.
var timedSources = []string{"rti", "toc1", "toc2", "toc3", "toc4", "toc5", "tof"}

// simTiming reads t against img into sim's timing configuration;
// peripherals says whether the chip's peripherals are on, exact whether
// they run on the exact clock.
func (t Timing) simTiming(img *loader.Image, irqs []string, peripherals, exact bool) (*sim.Timing, error) {
	if !t.On() {
		return nil, nil
	}
	if t.Cap >= 1<<31 {
		return nil, fmt.Errorf("--timing-cap %d: at most %d cycles", t.Cap, 1<<31-1)
	}
	st := &sim.Timing{Cap: t.Cap}
	if t.MaxMasked != nil {
		st.Masked = sim.TimingBound{Track: true, Bounded: true, N: *t.MaxMasked}
	} else if t.Report {
		st.Masked = sim.TimingBound{Track: true}
	}
	bound := func(flag, v, n string) (sim.TimingBound, error) {
		if n == "" {
			if !t.Report {
				return sim.TimingBound{}, fmt.Errorf("%s %q: no bound N (give one, or --report-timing to measure it)", flag, v)
			}
			return sim.TimingBound{Track: true}, nil
		}
		x, err := strconv.ParseUint(strings.TrimSpace(n), 0, 32)
		if err != nil || x >= 1<<31 {
			return sim.TimingBound{}, fmt.Errorf("%s %q: %q is not a number of cycles", flag, v, n)
		}
		return sim.TimingBound{Track: true, Bounded: true, N: uint32(x)}, nil
	}
	for _, d := range t.Deadlines {
		parts := strings.Split(d, ":")
		if len(parts) < 2 || len(parts) > 3 {
			return nil, fmt.Errorf("--deadline %q: want FROM:TO:N (symbols or addresses, N cycles)", d)
		}
		from, err := Resolve(img, parts[0])
		if err != nil {
			return nil, fmt.Errorf("--deadline %q: %v", d, err)
		}
		to, err := Resolve(img, parts[1])
		if err != nil {
			return nil, fmt.Errorf("--deadline %q: %v", d, err)
		}
		n := ""
		if len(parts) == 3 {
			n = parts[2]
		}
		b, err := bound("--deadline", d, n)
		if err != nil {
			return nil, err
		}
		st.Deadlines = append(st.Deadlines, sim.Deadline{From: from, To: to, Name: parts[0] + ":" + parts[1], TimingBound: b})
	}
	for _, l := range t.Latencies {
		name, n, _ := strings.Cut(l, ":")
		v, ok := sim.VectorIndex(strings.ToLower(strings.TrimSpace(name)))
		if !ok {
			return nil, fmt.Errorf("--latency %q: unknown interrupt %q: use one of %s", l, name, strings.Join(sim.IRQNames(), ", "))
		}
		listed := false
		for _, q := range irqs {
			if w, ok := sim.VectorIndex(q); ok && w == v {
				listed = true
			}
		}
		source := false
		if !listed {
			switch {
			case !peripherals:
				return nil, fmt.Errorf("--latency %q: %s is not an interrupt of --irq: give --irq %s (a harness interrupt)", l, name, name)
			case !isTimedSource(v):
				return nil, fmt.Errorf("--latency %q: %s %s", l, name, SourceUntimed)
			}
			source = true
		}
		b, err := bound("--latency", l, n)
		if err != nil {
			return nil, err
		}
		for _, o := range st.Latencies {
			if o.IRQ == v {
				return nil, fmt.Errorf("--latency %q: %s is given twice", l, name)
			}
		}
		st.Latencies = append(st.Latencies, sim.Latency{IRQ: v, Source: source, TimingBound: b})
	}
	if t.Report {
		// --report-timing measures the latency of every harness
		// interrupt.
		for _, q := range irqs {
			v, ok := sim.VectorIndex(q)
			if !ok {
				continue
			}
			have := false
			for _, l := range st.Latencies {
				have = have || l.IRQ == v
			}
			if !have && len(st.Latencies) < maxLatencies {
				st.Latencies = append(st.Latencies, sim.Latency{IRQ: v, TimingBound: sim.TimingBound{Track: true}})
			}
		}
		// Under the exact clock, every timer source whose vector the
		// image sets: those the firmware arms are reported.
		for _, q := range timedSources {
			v, _ := sim.VectorIndex(q)
			if !peripherals || !exact || !img.VectorLoaded[v] || img.Vectors[v] == 0 {
				continue
			}
			have := false
			for _, l := range st.Latencies {
				have = have || l.IRQ == v
			}
			if !have && len(st.Latencies) < maxLatencies {
				st.Latencies = append(st.Latencies, sim.Latency{IRQ: v, Source: true, Auto: true, TimingBound: sim.TimingBound{Track: true}})
			}
		}
	}
	if len(st.Latencies) > maxLatencies {
		return nil, fmt.Errorf("--latency: at most %d interrupts", maxLatencies)
	}
	return st, nil
}

// maxLatencies is the timing page's limit of latency properties.
const maxLatencies = 8

// isTimedSource reports whether vector v is one of timedSources.
func isTimedSource(v int) bool {
	for _, q := range timedSources {
		if w, _ := sim.VectorIndex(q); w == v {
			return true
		}
	}
	return false
}

// without returns t with the bounds of the properties ignore names taken
// off: measured under --report-timing, dropped otherwise.
func (t Timing) without(ignore map[sim.Kind]bool) Timing {
	strip := func(specs []string, keep int) []string {
		var out []string
		for _, s := range specs {
			parts := strings.Split(s, ":")
			if t.Report && len(parts) >= keep {
				out = append(out, strings.Join(parts[:keep], ":"))
			}
		}
		return out
	}
	if ignore[sim.KindMasked] {
		t.MaxMasked = nil
	}
	if ignore[sim.KindDeadline] {
		t.Deadlines = strip(t.Deadlines, 2)
	}
	if ignore[sim.KindLatency] {
		t.Latencies = strip(t.Latencies, 1)
	}
	return t
}

// timingAsked lists the timing properties t bounds.
func timingAsked(t Timing) []sim.Kind {
	var ks []sim.Kind
	if t.MaxMasked != nil || t.Report {
		ks = append(ks, sim.KindMasked)
	}
	if len(t.Deadlines) > 0 {
		ks = append(ks, sim.KindDeadline)
	}
	if len(t.Latencies) > 0 {
		ks = append(ks, sim.KindLatency)
	}
	return ks
}

// isTiming reports whether k is a timing property.
func isTiming(k sim.Kind) bool {
	return k == sim.KindMasked || k == sim.KindDeadline || k == sim.KindLatency
}

// TimingResult is the largest value of one timing property a check
// found, as check --report-timing reports it, with a path to it.
type TimingResult struct {
	sim.TimingValue
	// Exact says the value is the maximum over every execution: the
	// search was exhaustive and the counter did not saturate; otherwise
	// it is a lower bound (LowerBecause says why).
	Exact        bool
	LowerBecause string
	// Trace reaches the value (the last transition ends the interval or
	// takes it to Value), found by a search for the property bounded at
	// Value - 1; nil for a value of 0 or when that search did not finish
	// (PathNote says why).
	Trace    []sim.Label
	Found    *sim.Violation
	PathNote string
	// Machine is the machine the path was found on (the property
	// bounded below Value), which replays it.
	Machine *sim.Machine
}

// TimingReport gathers the largest values of the timing properties that
// the searches on ms saw (one machine, or a swarm member's each) and
// finds a path to each. exhaustive says some search explored every
// state; why says, when not, what stopped it.
func (c *Check) TimingReport(ctx context.Context, ms []*sim.Machine, exhaustive bool, why string) []TimingResult {
	var out []TimingResult
	for _, m := range ms {
		for i, v := range m.TimingValues() {
			if i >= len(out) {
				out = append(out, TimingResult{TimingValue: v})
				continue
			}
			if v.Value > out[i].Value {
				out[i].Value, out[i].AtLeast = v.Value, v.AtLeast
			}
		}
	}
	for i := range out {
		r := &out[i]
		switch {
		case r.AtLeast && r.Bounded:
			r.LowerBecause = fmt.Sprintf("the bound %d was passed: the count stops at the bound plus one", r.Bound)
		case r.AtLeast:
			r.LowerBecause = "the count reached the cap (--timing-cap)"
		case !exhaustive:
			r.LowerBecause = "the search was not exhaustive (" + why + ")"
		}
		r.Exact = r.LowerBecause == ""
		if r.Value == 0 {
			continue
		}
		r.Trace, r.Found, r.Machine, r.PathNote = c.timingPath(ctx, i, r.Value)
	}
	// The chip's sources added by --report-timing that no execution
	// armed have no latency to report.
	kept := out[:0]
	for _, r := range out {
		if !(r.Auto && r.Value == 0) {
			kept = append(kept, r)
		}
	}
	return kept
}

// timingPath searches for a path on which timing property i (in
// TimingValues' order) reaches v: the property bounded at v - 1, every
// other timing property dropped, breadth-first without reductions, so
// that the path is a shortest one.
func (c *Check) timingPath(ctx context.Context, i int, v uint64) ([]sim.Label, *sim.Violation, *sim.Machine, string) {
	mc := c.Config.Machine
	base := c.Machine.Config.Timing
	if base == nil {
		return nil, nil, nil, "no timing properties"
	}
	t := &sim.Timing{Cap: base.Cap}
	n := uint32(v - 1)
	k := i
	if base.Masked.Track {
		if k == 0 {
			t.Masked = sim.TimingBound{Track: true, Bounded: true, N: n}
		}
		k--
	}
	for _, d := range base.Deadlines {
		if k == 0 {
			d.TimingBound = sim.TimingBound{Track: true, Bounded: true, N: n}
			t.Deadlines = append(t.Deadlines, d)
		}
		k--
	}
	for _, l := range base.Latencies {
		l2 := l
		if k == 0 {
			l2.TimingBound = sim.TimingBound{Track: true, Bounded: true, N: n}
		} else {
			// Requests stay as in the search that measured v.
			l2.TimingBound = sim.TimingBound{Track: true}
		}
		t.Latencies = append(t.Latencies, l2)
		k--
	}
	cfg, err := mc.simConfig(c.Image)
	if err != nil {
		return nil, nil, nil, err.Error()
	}
	cfg.Timing = t
	cfg.Dead = false
	m, err := sim.NewMachine(c.Image, cfg)
	if err != nil {
		return nil, nil, nil, err.Error()
	}
	ignore := map[sim.Kind]bool{}
	for _, kk := range sim.KindNames() {
		kind, _ := sim.ParseKind(kk)
		ignore[kind] = !isTiming(kind)
	}
	opts := search.Options{Strategy: search.BFS, MaxStates: c.Config.MaxStates, Timeout: c.Config.Timeout,
		MaxMemory: c.Config.MaxMemory, Ignore: ignore}
	res := search.Run(ctx, m, opts)
	if res.Verdict == search.Violated && len(res.Found) > 0 {
		return res.Found[0].Trace, res.Found[0].Violation, m, ""
	}
	return nil, nil, nil, "the search for a path to this value found none: " + res.Limit.String()
}
