package sim

import (
	"math/rand/v2"
	"strings"
	"testing"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// States as values: Clone, copy on write, Hash and Equal; determinism of
// runs; allocation-free stepping.

func TestCloneIsIndependent(t *testing.T) {
	m := testMachine(t, loopCode, nil, nil, Config{})
	s := m.Initial()
	poke(t, m, s, 0x0010, 0x11)
	c := s.Clone()
	poke(t, m, c, 0x0010, 0x22)
	poke(t, m, c, 0x1020, 0x33)
	c.Threads[0].A = 0x44
	if peek(m, s, 0x0010) != 0x11 || peek(m, s, 0x1020) != 0 || s.Threads[0].A != 0 {
		t.Errorf("changing the clone changed the original")
	}
	poke(t, m, s, 0x0011, 0x55)
	s.Threads[0].B = 0x66
	if peek(m, c, 0x0011) != 0 || c.Threads[0].B != 0 || peek(m, c, 0x0010) != 0x22 {
		t.Errorf("changing the original changed the clone")
	}
	// A clone of a clone, and running instructions on clones.
	d := c.Clone()
	m.Run(d, RunOptions{Steps: 5})
	if c.Threads[0].PC != org || c.Threads[0].X != 0 {
		t.Errorf("running a clone changed its parent")
	}
	// Threads are copied, not shared.
	e := s.Clone()
	e.Threads = append(e.Threads, Thread{})
	e.Threads[0].Y = 7
	if len(s.Threads) != 1 || s.Threads[0].Y != 0 {
		t.Errorf("thread slice shared")
	}
}

func TestHashEqual(t *testing.T) {
	m := testMachine(t, loopCode, nil, nil, Config{})
	base := m.Initial()
	poke(t, m, base, 0x0100, 0x42)
	if !base.Equal(base.Clone()) || base.Hash() != base.Clone().Hash() {
		t.Fatal("a clone differs")
	}
	h0 := base.Hash()

	changes := map[string]func(s *State){
		"ram":          func(s *State) { poke(t, m, s, 0x0005, 1) },
		"ram last":     func(s *State) { poke(t, m, s, 0x01FF, 0x80) },
		"io":           func(s *State) { poke(t, m, s, 0x103F, 1) },
		"ram existing": func(s *State) { poke(t, m, s, 0x0100, 0x43) },
		"A":            func(s *State) { s.Threads[0].A = 1 },
		"B":            func(s *State) { s.Threads[0].B = 1 },
		"CCR":          func(s *State) { s.Threads[0].CCR ^= cC },
		"X":            func(s *State) { s.Threads[0].X = 0x100 },
		"Y":            func(s *State) { s.Threads[0].Y = 1 },
		"SP":           func(s *State) { s.Threads[0].SP = 0x8000 },
		"PC":           func(s *State) { s.Threads[0].PC++ },
		"status":       func(s *State) { s.Threads[0].Status = Waiting },
		"cs":           func(s *State) { s.Threads[0].CS = 1 },
		"atomic":       func(s *State) { s.Atomic, s.AtomicDepth = 1, 1 },
		"depth":        func(s *State) { s.AtomicDepth = 2 },
		"threads":      func(s *State) { s.Threads = append(s.Threads, Thread{}) },
	}
	hashes := map[uint64]string{h0: "base"}
	for name, f := range changes {
		c := base.Clone()
		f(c)
		if c.Equal(base) || base.Equal(c) {
			t.Errorf("%s: changed state is Equal", name)
		}
		h := c.Hash()
		if other, dup := hashes[h]; dup {
			t.Errorf("%s: same hash as %s", name, other)
		}
		hashes[h] = name
		if base.Hash() != h0 {
			t.Errorf("%s: changing a clone changed the original's hash", name)
		}
	}

	// Bookkeeping is not part of the state.
	c := base.Clone()
	c.Threads[0].Cycles = 99
	c.Threads[0].PrevPC = 0x1234
	c.Threads[0].pushShadow(0x01FE)
	if !c.Equal(base) || c.Hash() != h0 {
		t.Errorf("bookkeeping fields change the identity")
	}
	// The top of a thread's stack decides whether an RTS ends the thread,
	// so it is part of the identity.
	c = base.Clone()
	c.Threads[0].InitSP ^= 0x0100
	if c.Equal(base) || c.Hash() == h0 {
		t.Errorf("InitSP is not part of the identity")
	}

	// A write then a write back: equal again, same hash (the page hash
	// cache must follow in-place writes).
	c = base.Clone()
	poke(t, m, c, 0x0030, 9)
	h1 := c.Hash()
	poke(t, m, c, 0x0031, 9) // in place: c owns the page now
	if c.Hash() == h1 {
		t.Errorf("hash unchanged after an in-place write")
	}
	poke(t, m, c, 0x0030, 0)
	poke(t, m, c, 0x0031, 0)
	if !c.Equal(base) || c.Hash() != h0 {
		t.Errorf("restored state differs")
	}

	// States reached along different paths.
	p := m.Initial()
	q := m.Initial()
	poke(t, m, p, 0x0100, 0x42)
	poke(t, m, q, 0x0101, 7)
	poke(t, m, q, 0x0100, 0x42)
	poke(t, m, q, 0x0101, 0)
	if !p.Equal(q) || p.Hash() != q.Hash() {
		t.Errorf("equal states from different paths: Equal=%v", p.Equal(q))
	}
}

// TestCopyOnWriteModel runs random clones, writes, freezes and hashes on
// a pool of states and checks each against a plain copy of its memory.
func TestCopyOnWriteModel(t *testing.T) {
	m := testMachine(t, loopCode, nil, nil, Config{})
	var addrs []uint16
	for a := 0; a < 65536; a++ {
		if m.Writable(uint16(a)) {
			addrs = append(addrs, uint16(a))
		}
	}
	type entry struct {
		s     *State
		model map[uint16]uint8
	}
	copyModel := func(x map[uint16]uint8) map[uint16]uint8 {
		y := make(map[uint16]uint8, len(x))
		for k, v := range x {
			y[k] = v
		}
		return y
	}
	r := rand.New(rand.NewPCG(7, 8))
	pool := []entry{{m.Initial(), ramOf(m, m.Initial())}}
	for step := 0; step < 3000; step++ {
		i := r.IntN(len(pool))
		e := &pool[i]
		switch k := r.IntN(10); {
		case k < 2 && len(pool) < 40:
			pool = append(pool, entry{e.s.Clone(), copyModel(e.model)})
		case k < 3:
			e.s.Freeze()
		case k < 4:
			e.s.Hash()
		default:
			a := addrs[r.IntN(len(addrs))]
			v := uint8(r.Uint32())
			poke(t, m, e.s, a, v)
			e.model[a] = v
		}
		if step%100 == 99 {
			for j, e := range pool {
				for _, a := range addrs {
					if got := peek(m, e.s, a); got != e.model[a] {
						t.Fatalf("step %d: state %d [%04X]=%02X, want %02X", step, j, a, got, e.model[a])
					}
				}
			}
		}
	}
	// Equal and Hash agree with the models.
	for i := range pool {
		for j := range pool {
			same := true
			for _, a := range addrs {
				if pool[i].model[a] != pool[j].model[a] {
					same = false
					break
				}
			}
			if pool[i].s.Equal(pool[j].s) != same {
				t.Errorf("states %d and %d: Equal=%v, models equal=%v", i, j, !same, same)
			}
			if same && pool[i].s.Hash() != pool[j].s.Hash() {
				t.Errorf("equal states %d and %d hash differently", i, j)
			}
			if !same && pool[i].s.Hash() == pool[j].s.Hash() {
				t.Errorf("different states %d and %d hash alike", i, j)
			}
		}
	}
}

func TestSuccessorsLeaveParent(t *testing.T) {
	code := cat(insLDS, b(0x7C, 0x00, 0x40), b(0x36), b(0x20, 0xFA)) // lds; inc 0x40; psha; bra
	m := testMachine(t, code, nil, nil, Config{})
	s := m.Initial()
	for i := 0; i < 50; i++ {
		keep := s.Clone()
		ram := ramOf(m, s)
		out, _ := successors(m, s)
		if len(out) != 1 {
			t.Fatal(describe(out))
		}
		if !s.Equal(keep) || s.Hash() != keep.Hash() {
			t.Fatalf("step %d: Successors changed its argument", i)
		}
		for a, v := range ram {
			if peek(m, s, a) != v {
				t.Fatalf("step %d: parent memory changed at %04X", i, a)
			}
		}
		s = out[0].State
	}
	if peek(m, s, 0x40) == 0 {
		t.Error("the successors did not write")
	}
}

// randomProgram returns either random bytes or a random sequence of
// defined instructions (after a prologue that sets SP, X and Y into RAM).
func randomProgram(r *rand.Rand, valid bool, exclude map[byte]bool) []byte {
	if !valid {
		n := 16 + r.IntN(400)
		p := make([]byte, n)
		for i := range p {
			p[i] = uint8(r.Uint32())
		}
		return p
	}
	type form struct {
		page isa.Page
		op   byte
		info *isa.Info
	}
	var forms []form
	for _, p := range []isa.Page{isa.Page0, isa.Page18, isa.Page1A, isa.PageCD} {
		for op := 0; op < 256; op++ {
			in := isa.Lookup(p, byte(op))
			if in.Defined() && !(p == isa.Page0 && exclude[byte(op)]) && byte(op) != 0x00 {
				forms = append(forms, form{p, byte(op), in})
			}
		}
	}
	prog := cat(insLDS, b(0xCE, 0x01, 0x00), b(0x18, 0xCE, 0x00, 0x80))
	for len(prog) < 300 {
		f := forms[r.IntN(len(forms))]
		if f.page != isa.Page0 {
			prog = append(prog, byte(f.page))
		}
		prog = append(prog, f.op)
		nops := int(f.info.Len) - 1
		if f.page != isa.Page0 {
			nops--
		}
		for i := 0; i < nops; i++ {
			v := uint8(r.Uint32())
			switch {
			case f.info.Mode == isa.Ext && i == 0:
				v = uint8(r.IntN(2)) // mostly RAM
			case f.info.Mode == isa.Rel:
				v = uint8(r.IntN(16)) - 8
			}
			prog = append(prog, v)
		}
	}
	return prog
}

// TestRunDeterministic: running a random program twice from fresh initial
// states gives the same trace and equal final states, with and without a
// random schedule; a traced run ends where an untraced one does.
func TestRunDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	vectors := map[uint16][]byte{0xFFE8: {0xD0, 0x10}, 0xFFF6: {0xD0, 0x20}, 0xFFF8: {0xD0, 0x30}}
	var totalSteps uint64
	defer func() { t.Logf("%d instructions run", totalSteps) }()
	for i := 0; i < 60; i++ {
		valid := i%2 == 0
		prog := randomProgram(r, valid, nil)
		cfg := Config{}
		if i%3 == 0 {
			cfg.IRQs = []string{"toc1"}
		}
		m := testMachine(t, prog, vectors, stubSyms, cfg)
		var tr [2]strings.Builder
		var st [2]*State
		var res [2]RunResult
		for k := 0; k < 2; k++ {
			st[k] = m.Initial()
			res[k] = m.Run(st[k], RunOptions{Steps: 2000, Trace: &tr[k]})
		}
		if tr[0].String() != tr[1].String() || !st[0].Equal(st[1]) || res[0].Steps != res[1].Steps {
			t.Fatalf("program %d: two traced runs differ", i)
		}
		if !strings.Contains(tr[0].String(), "final cyc=") {
			t.Fatalf("program %d: no final trace line", i)
		}
		plain := m.Initial()
		pres := m.Run(plain, RunOptions{Steps: 2000})
		totalSteps += pres.Steps
		if !plain.Equal(st[0]) || pres.Steps != res[0].Steps || (pres.Violation == nil) != (res[0].Violation == nil) {
			t.Errorf("program %d: traced and untraced runs end differently (%d vs %d steps, %v vs %v)\n%s",
				i, res[0].Steps, pres.Steps, res[0].Violation, pres.Violation, lastLines(tr[0].String(), 4))
		}
		// A random schedule is reproducible from its seed.
		var rs [2]*State
		var rt [2]strings.Builder
		for k := 0; k < 2; k++ {
			rs[k] = m.Initial()
			m.Run(rs[k], RunOptions{Steps: 2000, Trace: &rt[k], Rand: rand.New(rand.NewPCG(uint64(i), 99))})
		}
		if rt[0].String() != rt[1].String() || !rs[0].Equal(rs[1]) {
			t.Fatalf("program %d: random runs with the same seed differ", i)
		}
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// TestRunStopsWaitingThread: a plain run (no trace) must stop running a
// thread once it executes WAI, like a traced run does.
func TestRunStopsWaitingThread(t *testing.T) {
	for _, c := range []struct {
		name string
		code []byte
	}{
		{"wai", cat(insLDS, b(0x3E), b(0x86, 0x01), insBRA)},
		{"stop", cat(insLDS, b(0x4F, 0x06), b(0xCF), b(0x86, 0x01), insBRA)},
	} {
		m := testMachine(t, c.code, nil, nil, Config{})
		var tr strings.Builder
		traced, plain := m.Initial(), m.Initial()
		rt := m.Run(traced, RunOptions{Steps: 20, Trace: &tr})
		rp := m.Run(plain, RunOptions{Steps: 20})
		if traced.Threads[0].Status == Running || traced.Threads[0].A != 0 {
			t.Errorf("%s, traced: status %d A=%02X", c.name, traced.Threads[0].Status, traced.Threads[0].A)
		}
		if !plain.Equal(traced) || (rp.Violation == nil) != (rt.Violation == nil) {
			t.Errorf("%s: untraced run goes on after the thread stopped: status %d %s, %d steps (traced: %d steps, %v)",
				c.name, plain.Threads[0].Status, fmtCPU(plain.Threads[0].CPU), rp.Steps, rt.Steps, rt.Violation)
		}
	}
}

// TestStepAllocs: executing an instruction of a loop with no calls (one
// of them a store) allocates nothing.
func TestStepAllocs(t *testing.T) {
	code := b(0x7C, 0x00, 0x50, 0x08, 0x20, 0xFA) // loop: inc 0x50; inx; bra loop
	m := testMachine(t, code, nil, nil, Config{})
	s := m.Initial()
	x := stepper{m: m, s: s, t: &s.Threads[0], tid: 0, radix: 1, lay: m.layout}
	allocs := testing.AllocsPerRun(1000, func() {
		x.radix, x.choice = 1, 0
		if ev := x.step(); ev != evOK {
			t.Fatalf("event %d", ev)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per step, want 0", allocs)
	}
	if s.Threads[0].X == 0 || peek(m, s, 0x50) == 0 {
		t.Error("the loop did not run")
	}
	// A long run amortises to nothing per instruction.
	s = m.Initial()
	allocs = testing.AllocsPerRun(10, func() { m.Run(s, RunOptions{Steps: 10000}) })
	if allocs > 10 {
		t.Errorf("%v allocations per 10000-instruction run", allocs)
	}
}

func BenchmarkSuccessors(b *testing.B) {
	m := testMachine(b, loopCode, nil, nil, Config{})
	s := m.Initial()
	out := make([]Successor, 0, 4)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		out, _ = m.Successors(s, out[:0], nil)
		s = out[0].State
	}
}

// TestKeepRelease: states kept with Expander.Keep, in a search that gives
// back every expanded state with Release, are the successors Successors
// clones, and they stay so while the expander goes on reusing its scratch
// states and the released ones.
func TestKeepRelease(t *testing.T) {
	img, err := loader.Load("../testdata/bench/naive2.elf", loader.Options{})
	if err != nil {
		t.Skip(err)
	}
	m, err := NewMachine(img, Config{Entry: img.Entry, Preempt: PreemptEvery})
	if err != nil {
		t.Fatal(err)
	}
	e := m.NewExpander()
	type kept struct {
		s    *State
		hash uint64
	}
	var all []kept
	seen := map[uint64]bool{}
	queue := []*State{m.Initial()}
	seen[queue[0].Hash()] = true
	for n := 0; n < len(queue) && n < 3000; n++ {
		s := queue[n]
		want, _ := m.Successors(s, nil, nil)
		i := 0
		e.Expand(s, nil, func(next *State, l Label, v *Violation) {
			if i >= len(want) || want[i].Label != l || !want[i].State.Equal(next) {
				t.Fatalf("state %d, successor %d (%+v) differs from Successors'", n, i, l)
			}
			i++
			if h := next.Hash(); v == nil && !seen[h] {
				seen[h] = true
				k := e.Keep(next)
				all = append(all, kept{k, h})
				queue = append(queue, k)
			}
		})
		e.Release(s)
		// A state expanded and released must not be looked at again:
		// only the ones still queued are checked below.
		queue[n] = nil
	}
	for n, s := range queue {
		if s == nil {
			continue
		}
		if h := s.Hash(); h != all[n-1].hash {
			t.Fatalf("queued state %d changed after it was kept", n)
		}
	}
	if len(all) < 1000 {
		t.Errorf("only %d states kept", len(all))
	}
}
