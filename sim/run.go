package sim

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/hc11mc/hc11mc/devices"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// RunOptions control a plain simulation along one schedule.
type RunOptions struct {
	Steps uint64     // stop after this many instructions (0: no bound)
	Rand  *rand.Rand // nil: lowest-numbered enabled thread, nondet value 0, no interrupt unless needed
	Trace io.Writer  // one line per instruction, before it executes; nil for none
	// With a device: the bytes the SCI receives, in order, each as soon as
	// the receiver is on and RDRF clear; and a function told of every
	// output (bytes the SCI sends, port and board writes) as it happens.
	SCIInput []byte
	Output   func(Output)
}

// RunResult is how a run ended.
type RunResult struct {
	Steps     uint64
	Cycles    uint64
	Violation *Violation
	Reason    string // why the run stopped when there is no violation
}

// Run simulates s along one schedule, changing s. Without a random source
// it runs the lowest-numbered thread that can move, takes nondeterministic
// value 0, and takes an interrupt only when no thread can move otherwise;
// with one, every choice is random. It stops at a violation, when all
// threads have exited, at a deadlock, at an infeasible __mc_assume, or after
// opts.Steps instructions.
func (m *Machine) Run(s *State, opts RunOptions) RunResult {
	var res RunResult
	for i := range s.Threads {
		res.Cycles += s.Threads[i].Cycles
	}
	var fx []Output
	x := stepper{m: m, s: s, lay: m.layoutOf(s)}
	if m.dev != nil {
		x.fx = &fx
	}
	var quiet uint64 // instructions since the firmware last sent or received
	flush := func() {
		if len(fx) > 0 {
			quiet = 0
		}
		if opts.Output != nil {
			for _, o := range fx {
				opts.Output(o)
			}
		}
		fx = fx[:0]
	}
	feed := opts.SCIInput
	var nextByte uint64 // the cycle at which the next byte of feed may arrive
	cur := 0
	var order []int
	for opts.Steps == 0 || res.Steps < opts.Steps {
		if m.dev != nil {
			var v *Violation
			rest := feed
			rest, v = m.runEnvironment(s, &fx, feed, res.Steps, res.Cycles >= nextByte)
			if len(rest) < len(feed) {
				nextByte = res.Cycles + byteCycles
				quiet = 0
			}
			feed = rest
			if quiet++; quiet > quietSteps && len(feed) == 0 && m.idle(s) {
				res.Reason = fmt.Sprintf("the firmware waits for input: every --sci-input byte was received, and it has sent nothing for %d instructions", quietSteps)
				m.finalLine(opts.Trace, s, cur, res.Cycles)
				return res
			}
			flush()
			if v == nil {
				v = m.runDeviceInterrupt(s, &fx)
				flush()
			}
			if v != nil {
				res.Violation = v
				m.finalLine(opts.Trace, s, cur, res.Cycles)
				return res
			}
			x.lay = m.layoutOf(s)
		}
		if opts.Rand != nil && len(m.irqs) > 0 && opts.Rand.IntN(16) == 0 {
			if m.randomInterrupt(s, opts.Rand, &res) {
				continue
			}
		}
		// Pick the thread: the current one while it can run (without a
		// random source it is the lowest-numbered that can), else the next.
		moved := false
		order = m.runOrder(s, opts.Rand, cur, order[:0])
		for _, i := range order {
			x.t, x.tid = &s.Threads[i], i
			x.radix, x.choice = 1, 0
			if opts.Rand != nil {
				x.choice = opts.Rand.Uint64()
			}
			if opts.Trace != nil {
				m.traceLine(opts.Trace, s, i, res.Cycles)
			}
			before := x.t.Cycles
			x.c0 = before
			ev := x.step()
			res.Steps++
			if m.dev != nil {
				if ev != evBlocked && ev != evViolation && ev != evInfeasible {
					if v := m.elapse(s, i, x.t.Cycles-before, &fx); v != nil {
						x.viol, ev = *v, evViolation
					}
				}
				x.io = false
				x.lay = m.layoutOf(s)
				flush()
			}
			if ev == evOK && opts.Trace == nil && opts.Rand == nil && m.dev == nil && m.fastOK(s, i) {
				// Nothing but this thread's own instructions can change
				// the schedule until the next call, harness call or
				// violation: run them back to back.
				limit := ^uint64(0)
				if opts.Steps != 0 {
					limit = opts.Steps - res.Steps
				}
				var n uint64
				if m.hasGoals {
					for ev == evOK && n < limit && !m.isGoal(x.t.PC) {
						ev = x.step()
						n++
					}
				} else {
					n, ev = x.steps(limit)
				}
				res.Steps += n
			}
			t := &s.Threads[i]
			res.Cycles += t.Cycles - before
			switch ev {
			case evBlocked:
				res.Steps--
				continue
			case evViolation:
				res.Violation = x.violation()
				m.finalLine(opts.Trace, s, i, res.Cycles)
				return res
			case evInfeasible:
				res.Reason = fmt.Sprintf("thread %d called __mc_assume with A = 0: the path is infeasible", i)
				m.finalLine(opts.Trace, s, i, res.Cycles)
				return res
			}
			if m.hasGoals && m.isGoal(t.PC) {
				x.fault(KindReach, t.PC, t.PC, "reached the goal at 0x%04X", t.PC)
				res.Violation = x.violation()
				m.finalLine(opts.Trace, s, i, res.Cycles)
				return res
			}
			cur = i
			moved = true
			break
		}
		if moved {
			continue
		}
		if m.anyInterrupt(s, opts.Rand, &res) {
			continue
		}
		if m.dev != nil && m.wakeByTime(s, &fx) {
			flush()
			continue
		}
		live := false
		for i := range s.Threads {
			live = live || s.Threads[i].Status != Exited
		}
		if live && m.events(s) > 0 {
			res.Reason = "the firmware waits for the outside world (no --sci-input byte left to receive)"
			m.finalLine(opts.Trace, s, cur, res.Cycles)
			return res
		}
		if live {
			res.Violation = m.deadlock(s)
		} else {
			res.Reason = "every thread has exited"
		}
		m.finalLine(opts.Trace, s, cur, res.Cycles)
		return res
	}
	res.Reason = "stopped at the --steps bound"
	m.finalLine(opts.Trace, s, cur, res.Cycles)
	return res
}

// quietSteps is how long a plain simulation of a firmware waiting for
// input that will not come goes on before it stops.
const quietSteps = 200000

// byteCycles is the time one byte takes on a serial line at 9600 baud
// with a 2 MHz E clock: ten bits of 208 cycles.
const byteCycles = 2083

// runEnvironment makes the environment's events of a plain simulation,
// before the step after step number steps: the SCI's transmitter finishes
// at once, the next byte of feed arrives when the receiver can take it
// and ready says a byte's time has passed since the last, and every 1024
// steps a timer source fires. It returns the rest of feed.
func (m *Machine) runEnvironment(s *State, fx *[]Output, feed []byte, steps uint64, ready bool) ([]byte, *Violation) {
	n := m.events(s)
	timeUsed := steps%1024 != 1023
	skip := 0 // the periodic sources that may fire take turns
	if !timeUsed {
		nt := 0
		for k := 0; k < n; k++ {
			if m.EventInfo(s, k).Kind == devices.EvTime {
				nt++
			}
		}
		if nt > 0 {
			skip = int(steps/1024) % nt
		}
	}
	for k := 0; k < n; k++ {
		if k == 0 && !(ready && len(feed) > 0) {
			// The receive events come first (devices.Chip.Events):
			// with no byte to deliver, skip them, finding where they
			// end by bisection rather than looking at every one.
			lo, hi := 0, n
			for lo < hi {
				mid := (lo + hi) / 2
				if kind := m.EventInfo(s, mid).Kind; kind == devices.EvReceive || kind == devices.EvOverrun {
					lo = mid + 1
				} else {
					hi = mid
				}
			}
			if k = lo; k == n {
				break
			}
		}
		e := m.EventInfo(s, k)
		if e.Kind == devices.EvTime && !timeUsed && skip > 0 {
			skip--
			continue
		}
		switch {
		case e.Kind == devices.EvTxDone,
			e.Kind == devices.EvReceive && ready && len(feed) > 0 && e.Byte == feed[0],
			e.Kind == devices.EvTime && !timeUsed:
			if e.Kind == devices.EvReceive {
				feed, ready = feed[1:], false
			}
			if e.Kind == devices.EvTime {
				timeUsed = true
			}
			if v := m.event(s, k, fx); v != nil {
				return feed, v
			}
			// The events are numbered anew in the new state: start
			// over (past the receive events when no byte is due).
			n, k = m.events(s), -1
		}
	}
	return feed, nil
}

// runDeviceInterrupt takes the device's pending interrupt on the
// lowest-numbered thread that takes it.
func (m *Machine) runDeviceInterrupt(s *State, fx *[]Output) *Violation {
	if s.Atomic != 0 {
		return nil
	}
	v := m.pending(s)
	if v < 0 {
		return nil
	}
	for i := range s.Threads {
		if devTakes(&s.Threads[i]) {
			return m.interruptObserved(s, i, v, fx)
		}
	}
	return nil
}

// wakeByTime lets a timer source fire when nothing else can move.
func (m *Machine) wakeByTime(s *State, fx *[]Output) bool {
	for k, n := 0, m.events(s); k < n; k++ {
		if e := m.EventInfo(s, k); e.Kind == devices.EvTime || e.Kind == devices.EvCapture {
			m.event(s, k, fx)
			return true
		}
	}
	return false
}

// fastOK reports whether thread i is the thread the deterministic schedule
// keeps running: no lower-numbered thread could run in its place.
func (m *Machine) fastOK(s *State, i int) bool {
	for j := 0; j < i; j++ {
		if s.Threads[j].Status == Running {
			return false
		}
	}
	return true
}

// runOrder lists the threads to try, in order.
func (m *Machine) runOrder(s *State, r *rand.Rand, cur int, order []int) []int {
	for i := range s.Threads {
		if s.mayRun(i) {
			order = append(order, i)
		}
	}
	if r != nil {
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	return order
}

// anyInterrupt takes an interrupt when one can wake the system.
func (m *Machine) anyInterrupt(s *State, r *rand.Rand, res *RunResult) bool {
	if r != nil {
		return m.randomInterrupt(s, r, res)
	}
	if s.Atomic != 0 {
		return false
	}
	for i := range s.Threads {
		for _, v := range m.irqs {
			if s.Threads[i].Status != Exited && m.canTake(&s.Threads[i], v) {
				res.Violation = m.interrupt(s, i, v)
				return true
			}
		}
	}
	return false
}

func (m *Machine) randomInterrupt(s *State, r *rand.Rand, res *RunResult) bool {
	if s.Atomic != 0 {
		return false
	}
	type cand struct{ t, v int }
	var cs []cand
	for i := range s.Threads {
		for _, v := range m.irqs {
			if s.Threads[i].Status != Exited && m.canTake(&s.Threads[i], v) {
				cs = append(cs, cand{i, v})
			}
		}
	}
	if len(cs) == 0 {
		return false
	}
	c := cs[r.IntN(len(cs))]
	if v := m.interrupt(s, c.t, c.v); v != nil {
		res.Violation = v
	}
	return true
}

// TraceFields formats thread i's registers as the key=value fields of a
// trace line.
func TraceFields(s *State, i int, cycles uint64) string {
	t := &s.Threads[i]
	return fmt.Sprintf("cyc=%d thr=%d PC=%04x A=%02x B=%02x X=%04x Y=%04x SP=%04x CCR=%02x",
		cycles, i, t.PC, t.A, t.B, t.X, t.Y, t.SP, t.CCR)
}

// Disasm returns the bytes and the GNU-syntax text of the instruction at pc
// in state s, or the harness routine's name at a stub.
func (m *Machine) Disasm(s *State, pc uint16) (hexBytes, text string) {
	if h := m.code[pc].hook; h != loader.NoStub {
		return "", "<harness " + h.String() + ">"
	}
	var buf [5]byte
	for i := range buf {
		buf[i] = m.ReadMem(s, pc+uint16(i))
	}
	in, err := isa.Decode(buf[:])
	n := int(in.Len)
	if err != nil && n == 0 {
		n = 1
	}
	var hb strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			hb.WriteByte(' ')
		}
		fmt.Fprintf(&hb, "%02x", buf[i])
	}
	return hb.String(), strings.Replace(isa.GNUSyntaxRoles(in, pc, m.traceSymbols(in.Op)), "\t", " ", 1)
}

// traceSymbols names the addresses of an instruction op in traces by their
// role: memory operands after the data variable that holds them (data
// objects included, which objdump leaves out), branch targets after code
// labels, and 16-bit immediates only when they are an address: in code
// (an entry point loaded into D for __mc_thread_create), or a variable's
// own address (loader.Image.ValueName) loaded into or compared with X, Y
// or SP — in D a small value is a number far more often than an address
// in the RAM at 0x0000. Listings (package internal/listing) keep objdump's
// own choice instead.
func (m *Machine) traceSymbols(op isa.Op) isa.Symbols {
	img := m.Image
	if len(img.Symbols) == 0 {
		return isa.Symbols{}
	}
	code := func(a uint16) (string, uint16, bool) {
		name, off, ok := img.CodeSymbolAt(a)
		return name, a - off, ok
	}
	syms := isa.Symbols{Memory: img.MemoryName, Code: code}
	switch op {
	case isa.LDX, isa.LDY, isa.LDS, isa.CPX, isa.CPY:
		syms.Value = img.ValueName
	default:
		syms.Value = func(a uint16) (string, uint16, bool) {
			if !img.InCode(a) {
				return "", 0, false
			}
			return code(a)
		}
	}
	return syms
}

func (m *Machine) traceLine(w io.Writer, s *State, i int, cycles uint64) {
	hb, text := m.Disasm(s, s.Threads[i].PC)
	fmt.Fprintf(w, "%s  %-14s %s\n", TraceFields(s, i, cycles), hb, text)
}

func (m *Machine) finalLine(w io.Writer, s *State, i int, cycles uint64) {
	if w == nil {
		return
	}
	fmt.Fprintf(w, "final %s\n", TraceFields(s, i, cycles))
}
