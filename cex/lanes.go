package cex

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hc11mc/hc11mc/cex/internal/tracesvg"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// A counterexample drawn as SVG (check --trace-svg, replay --svg).
//
// The trace is replayed on the simulator one instruction at a time; what an
// instruction accessed is exact: the bytes it wrote are the bytes that
// differ between the states before and after it, together with the target
// of a store (which may write the value already there); the bytes it read
// are the operand of an instruction that reads memory (its effective
// address, one or two bytes) and the lock byte of __mc_lock/__mc_unlock.
// Stack pushes and pulls, and operands inside the running thread's own live
// stack (SP+1 up to the top of its stack), are private and not listed: a
// rule for what the drawing shows, not for what the search explores (another
// thread may still write there, as testdata/soundness shows).
//
// Lanes: one per thread, then one per interrupt vector taken (its handler,
// whichever thread it interrupted). The step that takes an interrupt
// pushes a frame (the handler's lane and the SP at its entry) on that
// thread; the thread's instructions run in the innermost frame's lane until
// an RTI pulls SP above the frame's entry SP, which pops it. A transition
// of several instructions (--preempt calls, yield) that returns
// from a handler is split there into two steps with the same number.
//
// Highlighted accesses. First the addresses the violation involves:
//
//   - deadlock: the lock byte each thread blocked in __mc_lock waits for;
//   - mutex: the shared bytes each thread inside a critical section read in
//     its last svgWindow instructions up to its latest __mc_cs_enter (the
//     entry protocol that let it in);
//   - every other kind: the shared bytes the violating code (the lane of
//     the last step) read in its last svgWindow instructions, and for
//     unlock the lock byte.
//
// The window is counted in whole transitions: the last one that reaches
// svgWindow instructions is included entirely. Those reads are
// highlighted, and so is, for each involved address and each lane, the
// last write to it before the violation. Nothing highlighted is guessed:
// each read happened in the window, and each write is the one whose value
// its lane last left in the byte. It is not a data-flow analysis: a read in
// the window may not have influenced the outcome. It is useful because a
// lock held by another thread, or an update lost to an interrupt, shows as
// writes to the same byte in two lanes next to the reads that saw the
// result.
const svgWindow = 16

// SVG draws the counterexample labels, replayed on m for img, as an SVG
// picture: a lane per thread and per interrupt handler, the accesses that
// matter highlighted (the rule above). subtitle, when not empty, is added
// to the picture's subtitle.
func SVG(img *loader.Image, m *sim.Machine, labels []sim.Label, subtitle string) []byte {
	return tracesvg.Render(drawTrace(img, m, labels, subtitle))
}

// byteAccess is one byte an instruction read or wrote.
type byteAccess struct {
	addr   uint16
	write  bool
	value  uint8
	shared bool
	mark   bool // highlighted
}

// laneFrame is an interrupt handler running on a thread.
type laneFrame struct {
	lane int
	sp   uint16 // SP when the handler started
}

type svgBuilder struct {
	img      *loader.Image
	m        *sim.Machine
	pageBase []uint16 // the address of each writable page
	t        *tracesvg.Trace
	acc      [][]byteAccess // per step: everything it accessed
	csEnter  []bool         // per step: a call of __mc_cs_enter
	handler  map[int]int
	frames   [][]laneFrame
	stubs    map[uint16]loader.Stub // harness stub addresses
}

// stubAt reports whether the harness routine h has its stub at pc.
func (b *svgBuilder) stubAt(h loader.Stub, pc uint16) bool { return b.stubs[pc] == h }

// drawTrace replays labels and builds the picture's input.
func drawTrace(img *loader.Image, m *sim.Machine, labels []sim.Label, subtitle string) *tracesvg.Trace {
	m = m.Counted() // the machine search.Replay replays on
	states, v, err := search.Replay(m, labels)
	final := states[len(states)-1]
	b := &svgBuilder{img: img, m: m, t: &tracesvg.Trace{}, handler: map[int]int{}, stubs: map[uint16]loader.Stub{}}
	for h := loader.NoStub + 1; h < loader.NumStubs; h++ {
		if a, ok := img.StubAddr(h); ok {
			b.stubs[a] = h
		}
	}
	for blk := 0; blk < 65536/sim.PageSize; blk++ {
		for a := blk * sim.PageSize; a < (blk+1)*sim.PageSize; a++ {
			if m.Writable(uint16(a)) {
				b.pageBase = append(b.pageBase, uint16(blk*sim.PageSize))
				break
			}
		}
	}
	b.frames = make([][]laneFrame, len(final.Threads))
	for i := range final.Threads {
		ln := tracesvg.Lane{Kind: tracesvg.ThreadLane, Title: fmt.Sprintf("thread %d", i)}
		for _, s := range states {
			if i < len(s.Threads) {
				ln.Note = "starts at " + strings.Trim(b.sym(s.Threads[i].PC), "<>")
				break
			}
		}
		b.t.Lanes = append(b.t.Lanes, ln)
	}
	for i, l := range labels {
		if i+1 >= len(states) {
			break
		}
		b.transition(i+1, l, states[i], states[i+1])
	}

	name := filepath.Base(img.Path)
	viol := tracesvg.Violation{Lane: -1}
	switch {
	case err != nil:
		viol.Kind, viol.Message = "no replay", fmt.Sprintf("the trace does not replay: %v", err)
	case v == nil:
		viol.Kind, viol.Message = "none", "the trace ends without a violation"
	default:
		viol.Kind, viol.Message = v.Kind.String(), Describe(img, v)
		if v.Kind != sim.KindDeadlock && len(b.t.Steps) > 0 {
			viol.Lane = b.t.Steps[len(b.t.Steps)-1].Lane
		}
	}
	b.t.Violation = viol
	b.t.Title = fmt.Sprintf("%s in %s", viol.Kind, name)
	b.t.Subtitle = fmt.Sprintf("%d transitions, %d threads", len(labels), len(final.Threads))
	if len(final.Threads) == 1 {
		b.t.Subtitle = fmt.Sprintf("%d transitions, 1 thread", len(labels))
	}
	if subtitle != "" {
		b.t.Subtitle += " · " + subtitle
	}
	b.ends(final, v)
	if v != nil && err == nil {
		b.highlight(final, v)
	}
	b.accesses()
	return b.t
}

// sym names a code address as <sym+off>, or prints it in hex, as the
// text of a counterexample names it (SymAddr): an address outside the
// image's code and loaded bytes, or with no code label before it, is not
// named after a far-away symbol.
func (b *svgBuilder) sym(a uint16) string {
	if name, off, ok := codeName(b.img, a); ok {
		if off == 0 {
			return "<" + name + ">"
		}
		return fmt.Sprintf("<%s+0x%x>", name, off)
	}
	return fmt.Sprintf("0x%04X", a)
}

// dataName names a data byte after the nearest symbol before it in the
// same memory region (and inside the symbol when its size is known).
func (b *svgBuilder) dataName(a uint16) string {
	reg, ok := b.img.Map.Lookup(a)
	if !ok {
		return ""
	}
	syms := b.img.Symbols
	i := sort.Search(len(syms), func(i int) bool { return syms[i].Addr > a })
	for i--; i >= 0; i-- {
		s := syms[i]
		if s.Addr < reg.Lo {
			return ""
		}
		if s.Kind == loader.SymSection || s.Kind == loader.SymFile || s.Name == "" || strings.HasPrefix(s.Name, ".") || strings.ContainsFunc(s.Name, func(r rune) bool { return r < ' ' }) {
			continue
		}
		if s.Size > 0 && uint32(a-s.Addr) >= s.Size {
			return ""
		}
		if a == s.Addr {
			return s.Name
		}
		return fmt.Sprintf("%s+0x%x", s.Name, a-s.Addr)
	}
	return ""
}

// lane returns the lane thread i runs in now.
func (b *svgBuilder) lane(i int) int {
	if f := b.frames[i]; len(f) > 0 {
		return f[len(f)-1].lane
	}
	return i
}

// handlerLane returns the lane of interrupt vector v, adding it on first use.
func (b *svgBuilder) handlerLane(v int) int {
	if l, ok := b.handler[v]; ok {
		return l
	}
	name := sim.IRQName(v)
	ln := tracesvg.Lane{Kind: tracesvg.HandlerLane, Title: name + " handler",
		Note: fmt.Sprintf("vector 0x%04X → %s", isa.VectorAddr(v), strings.Trim(b.sym(b.img.Vectors[v]), "<>"))}
	b.t.Lanes = append(b.t.Lanes, ln)
	b.handler[v] = len(b.t.Lanes) - 1
	return b.handler[v]
}

// transition adds transition n (label l, from state pre to post).
func (b *svgBuilder) transition(n int, l sim.Label, pre, post *sim.State) {
	th := &pre.Threads[l.Thread]
	if l.IRQ >= 0 {
		from := b.lane(l.Thread)
		hl := b.handlerLane(l.IRQ)
		name := sim.IRQName(l.IRQ)
		b.add(tracesvg.Step{N: n, Lane: hl, Thread: l.Thread, Symbol: b.sym(th.PC), Text: "interrupt " + name + " taken",
			IRQ: name, From: from}, b.diff(pre, post, l.Thread), false)
		b.frames[l.Thread] = append(b.frames[l.Thread], laneFrame{lane: hl, sp: post.Threads[l.Thread].SP})
		return
	}
	// Split the transition into its instructions (one, under --preempt
	// every); a choice belongs to the last of them.
	cur := pre
	var st *tracesvg.Step
	for k := uint32(0); k < l.Steps; k++ {
		next := post
		if l.Steps > 1 {
			one := sim.Label{Thread: l.Thread, IRQ: -1, Steps: 1}
			if k == l.Steps-1 {
				one.Choice = l.Choice
			}
			ns, _, ok := b.m.Replay(cur, one)
			if !ok {
				ns = post // cannot happen for a trace that replays; draw it whole
				k = l.Steps - 1
			}
			next = ns
		}
		lane := b.lane(l.Thread)
		acc, isRTI, cs := b.instruction(cur, next, l.Thread)
		if st == nil || st.Lane != lane {
			pc := cur.Threads[l.Thread].PC
			_, text := b.m.Disasm(cur, pc)
			b.add(tracesvg.Step{N: n, Lane: lane, Thread: l.Thread, Symbol: b.sym(pc), Text: text}, acc, cs)
			st = &b.t.Steps[len(b.t.Steps)-1]
		} else {
			st.More++
			b.acc[len(b.acc)-1] = append(b.acc[len(b.acc)-1], acc...)
			b.csEnter[len(b.csEnter)-1] = b.csEnter[len(b.csEnter)-1] || cs
		}
		if isRTI {
			sp := next.Threads[l.Thread].SP
			fs := b.frames[l.Thread]
			popped := false
			for len(fs) > 0 && sp > fs[len(fs)-1].sp {
				fs = fs[:len(fs)-1]
				popped = true
			}
			b.frames[l.Thread] = fs
			if popped {
				st.Return, st.ReturnLane = true, b.lane(l.Thread)
				st = nil // what follows runs in the interrupted code's lane
			}
		}
		cur = next
	}
}

func (b *svgBuilder) add(s tracesvg.Step, acc []byteAccess, cs bool) {
	b.t.Steps = append(b.t.Steps, s)
	b.acc = append(b.acc, acc)
	b.csEnter = append(b.csEnter, cs)
}

// private reports whether a lies in thread th's live stack, from below
// lowSP up to the top of its stack.
func private(th *sim.Thread, lowSP, a uint16) bool {
	top := th.InitSP
	if top == 0 {
		top = 0xffff
	}
	return a > lowSP && a <= top
}

// diff lists the bytes that differ between two states, as writes by thread
// i.
func (b *svgBuilder) diff(pre, post *sim.State, i int) []byteAccess {
	var out []byteAccess
	if len(pre.Pages) != len(b.pageBase) || len(post.Pages) != len(pre.Pages) {
		return nil
	}
	low := min(pre.Threads[i].SP, post.Threads[i].SP)
	for p, pg := range post.Pages {
		old := pre.Pages[p]
		if pg == old || pg.Data == old.Data {
			continue
		}
		for k := range pg.Data {
			if pg.Data[k] != old.Data[k] {
				a := b.pageBase[p] + uint16(k)
				out = append(out, byteAccess{addr: a, write: true, value: pg.Data[k], shared: !private(&pre.Threads[i], low, a)})
			}
		}
	}
	return out
}

// instruction lists what thread i's instruction from pre to post accessed,
// and whether it was an RTI or a call of __mc_cs_enter.
func (b *svgBuilder) instruction(pre, post *sim.State, i int) (acc []byteAccess, isRTI, csEnter bool) {
	th := &pre.Threads[i]
	pc := th.PC
	acc = b.diff(pre, post, i)
	low := min(th.SP, post.Threads[i].SP)
	read := func(a uint16) {
		if b.m.Writable(a) {
			acc = append(acc, byteAccess{addr: a, value: b.m.ReadMem(pre, a), shared: !private(th, low, a)})
		}
	}
	write := func(a uint16) {
		for _, x := range acc {
			if x.write && x.addr == a {
				return
			}
		}
		if b.m.Writable(a) {
			acc = append(acc, byteAccess{addr: a, write: true, value: b.m.ReadMem(post, a), shared: !private(th, low, a)})
		}
	}
	switch b.stubs[pc] {
	case loader.StubLock, loader.StubUnlock:
		read(th.X)
		return acc, false, false
	case loader.StubCSEnter:
		return acc, false, true
	case loader.NoStub:
	default:
		return acc, false, false
	}
	var buf [5]byte
	for k := range buf {
		buf[k] = b.m.ReadMem(pre, pc+uint16(k))
	}
	in, err := isa.Decode(buf[:])
	if err != nil {
		return acc, false, false
	}
	// The operand's access by the opcode table's effects, the rule the
	// simulator and the symbolic engine use (isa.Inst.Access).
	op, ok := in.Access(th.X, th.Y)
	if !ok {
		return acc, in.Op == isa.RTI, false
	}
	if op.Read {
		for k := uint16(0); k < uint16(op.Size); k++ {
			read(op.Addr + k)
		}
	}
	if op.Write {
		for k := uint16(0); k < uint16(op.Size); k++ {
			write(op.Addr + k)
		}
	}
	return acc, false, false
}

// ends describes each thread's state at the violation under its lane.
func (b *svgBuilder) ends(final *sim.State, v *sim.Violation) {
	deadlock := v != nil && v.Kind == sim.KindDeadlock
	for i := range final.Threads {
		th := &final.Threads[i]
		ln := &b.t.Lanes[i]
		switch {
		case th.Status == sim.Exited:
			ln.End = "exited"
		case th.Status == sim.Waiting:
			ln.End, ln.Alert = "waits in WAI", deadlock
		case th.Status == sim.Stopped:
			ln.End, ln.Alert = "stopped (STOP)", deadlock
		case b.stubAt(loader.StubLock, th.PC):
			held := b.m.ReadMem(final, th.X)
			ln.End = fmt.Sprintf("at __mc_lock of %s", b.addrName(th.X))
			if held != 0 {
				ln.End = fmt.Sprintf("blocked in __mc_lock on %s, held by thread %d", b.addrName(th.X), held-1)
				ln.Alert = true
			}
		case th.CS > 0:
			ln.End, ln.Alert = "inside a critical section at "+b.sym(th.PC), v != nil && v.Kind == sim.KindMutex
		default:
			ln.End = "at " + b.sym(th.PC)
		}
		if v != nil && !deadlock && v.Thread == i {
			ln.End = fmt.Sprintf("%s violated at %s", v.Kind, b.sym(v.PC))
			ln.Alert = true
		}
	}
	for i, fs := range b.frames {
		for _, f := range fs {
			ln := &b.t.Lanes[f.lane]
			if ln.End != "" {
				ln.End += "; "
			}
			ln.End += fmt.Sprintf("running on thread %d", i)
		}
	}
}

// addrName prints a data address as name (0xADDR).
func (b *svgBuilder) addrName(a uint16) string {
	if n := b.dataName(a); n != "" {
		return fmt.Sprintf("%s (0x%04X)", n, a)
	}
	return fmt.Sprintf("0x%04X", a)
}

// highlight applies the rule of the file comment: it finds the addresses
// the violation involves, marks the reads that made them so and the last
// write to each in each lane, and lists them in the legend.
func (b *svgBuilder) highlight(final *sim.State, v *sim.Violation) {
	steps := b.t.Steps
	why := map[uint16][]string{}
	involve := func(a uint16, reason string) {
		for _, r := range why[a] {
			if r == reason {
				return
			}
		}
		why[a] = append(why[a], reason)
	}
	reads := map[int]bool{} // the steps whose shared reads are involved
	window := func(lane, end int, reason string) {
		for _, i := range b.window(lane, end) {
			reads[i] = true
			for _, a := range b.acc[i] {
				if !a.write && a.shared {
					involve(a.addr, reason)
				}
			}
		}
	}
	switch v.Kind {
	case sim.KindDeadlock:
		b.t.Rule = "Highlighted: for each lock a blocked thread waits for, the last write to it in each lane."
		for i := range final.Threads {
			th := &final.Threads[i]
			if th.Status == sim.Running && b.stubAt(loader.StubLock, th.PC) {
				involve(th.X, fmt.Sprintf("thread %d waits for this lock", i))
			}
		}
	case sim.KindMutex:
		b.t.Rule = fmt.Sprintf("Highlighted: the shared bytes each thread inside a critical section read in its last %d instructions up to __mc_cs_enter, and the last write to each of them in each lane.", svgWindow)
		for i := range final.Threads {
			if final.Threads[i].CS == 0 || final.Threads[i].Status == sim.Exited {
				continue
			}
			for j := len(steps) - 1; j >= 0; j-- {
				if steps[j].Lane == i && b.csEnter[j] {
					window(i, j, fmt.Sprintf("read by thread %d before it entered its critical section", i))
					break
				}
			}
		}
	default:
		b.t.Rule = fmt.Sprintf("Highlighted: the shared bytes the violating code read in its last %d instructions, and the last write to each of them in each lane.", svgWindow)
		if n := len(steps); n > 0 {
			last := steps[n-1]
			who := fmt.Sprintf("thread %d", last.Thread)
			if b.t.Lanes[last.Lane].Kind == tracesvg.HandlerLane {
				who = "the " + b.t.Lanes[last.Lane].Title
			}
			window(last.Lane, n-1, fmt.Sprintf("read by %s before the %s violation", who, v.Kind))
		}
		if v.Kind == sim.KindUnlock && b.m.Writable(v.Addr) {
			involve(v.Addr, "the lock __mc_unlock was called on")
		}
	}
	if len(why) == 0 {
		b.t.Rule = "Nothing is highlighted: no thread waits for a lock."
		if v.Kind != sim.KindDeadlock {
			b.t.Rule = fmt.Sprintf("Nothing is highlighted: the violating code read no shared memory in its last %d instructions.", svgWindow)
		}
	}
	b.t.Rule += " A box is a run of one thread's steps in one lane; a long one lists its first and last steps and every highlighted one."
	lastWrite := map[[2]int]int{} // (address, lane) → step
	for i := range steps {
		for _, a := range b.acc[i] {
			if a.write && why[a.addr] != nil {
				lastWrite[[2]int{int(a.addr), steps[i].Lane}] = i
			}
		}
	}
	for i := range steps {
		for k := range b.acc[i] {
			a := &b.acc[i][k]
			if why[a.addr] == nil {
				continue
			}
			if a.write {
				a.mark = lastWrite[[2]int{int(a.addr), steps[i].Lane}] == i
			} else {
				a.mark = a.shared && reads[i]
			}
		}
	}
	addrs := make([]int, 0, len(why))
	for a := range why {
		addrs = append(addrs, int(a))
	}
	sort.Ints(addrs)
	for _, a := range addrs {
		b.t.Watches = append(b.t.Watches, tracesvg.Watch{Addr: uint16(a), Name: b.dataName(uint16(a)),
			Value: b.m.ReadMem(final, uint16(a)), Why: strings.Join(why[uint16(a)], "; ")})
	}
}

// window returns the steps of the last svgWindow instructions run in lane,
// up to step end.
func (b *svgBuilder) window(lane, end int) []int {
	var out []int
	left := svgWindow
	for i := end; i >= 0 && left > 0; i-- {
		s := &b.t.Steps[i]
		if s.Lane != lane || s.IRQ != "" {
			continue
		}
		left -= 1 + s.More
		out = append(out, i)
	}
	return out
}

// accesses gives every step its shared accesses and its highlighted ones.
func (b *svgBuilder) accesses() {
	for i := range b.t.Steps {
		s := &b.t.Steps[i]
		for _, a := range b.acc[i] {
			if a.shared || a.mark {
				s.Accesses = append(s.Accesses, tracesvg.Access{Addr: a.addr, Name: b.dataName(a.addr), Write: a.write, Value: a.value, Mark: a.mark})
			}
		}
	}
}
