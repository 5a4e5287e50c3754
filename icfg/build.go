package icfg

import (
	"fmt"
	"sort"

	"github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// The stubs the builder treats specially, by name (Instr.Stub).
var (
	stubThreadCreate = loader.StubThreadCreate.String()
	stubThreadExit   = loader.StubThreadExit.String()
)

// Options tunes Build.
type Options struct {
	// NoSymbolRoots disables the use of function symbols (and global
	// untyped labels in executable memory) as roots.
	NoSymbolRoots bool
	// MaxTableEntries bounds a jump table whose size no symbol gives
	// (default 256).
	MaxTableEntries int
}

// builder holds the state of the recursive-descent disassembly.
type builder struct {
	img  *loader.Image
	opt  Options
	mem  []byte // 64 KiB
	ld   []bool // loaded
	ex   []bool // in an executable segment
	ro   []bool // loaded, not writable, not RAM or I/O: a constant
	stub map[uint16]string

	ins      map[uint16]*Instr
	bad      map[uint16]bool
	entries  map[uint16]bool
	leaders  map[uint16]bool
	fallPred map[uint16]uint16
	roots    []Root
	rootSeen map[uint16]map[RootKind]bool
	work     []uint16
	notes    []string
	noteSeen map[string]bool
	indirect map[uint16]*IndirectSite
	fresh    []uint16 // decoded since the last resolve
}

// Build disassembles the image by recursive descent from its roots and
// returns the procedures and their instruction vertices.
func Build(img *loader.Image, opt Options) (*Program, error) {
	if img == nil {
		return nil, fmt.Errorf("icfg: no image")
	}
	if opt.MaxTableEntries <= 0 {
		opt.MaxTableEntries = 256
	}
	b := &builder{
		img: img, opt: opt,
		mem: make([]byte, 65536), ld: make([]bool, 65536), ex: make([]bool, 65536), ro: make([]bool, 65536),
		stub: map[uint16]string{}, ins: map[uint16]*Instr{}, bad: map[uint16]bool{},
		entries: map[uint16]bool{}, leaders: map[uint16]bool{}, fallPred: map[uint16]uint16{},
		rootSeen: map[uint16]map[RootKind]bool{}, noteSeen: map[string]bool{},
		indirect: map[uint16]*IndirectSite{},
	}
	for _, s := range img.Segments {
		for i, c := range s.Data {
			a := int(s.Addr) + i
			if a > 0xFFFF {
				break
			}
			b.mem[a], b.ld[a], b.ex[a] = c, true, s.Exec
			b.ro[a] = !s.Writable
			if r, ok := img.Map.Lookup(uint16(a)); ok && (r.Kind == loader.RegionRAM || r.Kind == loader.RegionIO) {
				b.ro[a] = false
			}
		}
	}
	for st := loader.NoStub + 1; st < loader.NumStubs; st++ {
		if a, ok := img.StubAddr(st); ok {
			b.stub[a] = st.String()
		}
	}

	// Roots: the reset vector, the entry point, the other vectors.
	if img.VectorLoaded[m68hc11.VecReset] {
		b.addRoot(img.Vectors[m68hc11.VecReset], RootReset, "reset")
	}
	if img.HasEntry && (!img.VectorLoaded[m68hc11.VecReset] || img.Entry != img.Vectors[m68hc11.VecReset]) {
		b.addRoot(img.Entry, RootEntry, "entry")
	}
	jmpLo, jmpHi := b.jmpTable()
	for i := 0; i < m68hc11.VecReset; i++ {
		v := img.Vectors[i]
		if !img.VectorLoaded[i] || v == 0 {
			continue
		}
		if va := int(m68hc11.VectorAddr(i)); va+1 >= jmpLo && va < jmpHi {
			continue // a word inside the JMP table, not a vector
		}
		name := m68hc11.VectorName(i)
		if name == "" {
			name = fmt.Sprintf("vector@0x%04X", m68hc11.VectorAddr(i))
		}
		if _, isStub := b.stub[v]; !isStub && !b.trial(v) {
			b.note("vector %s points to 0x%04X, which is not decodable code: ignored", name, v)
			continue
		}
		b.addRoot(v, RootVector, name)
	}
	if jmpHi > jmpLo {
		b.note("0x%04X-0x%04X is a table of %d JMP instructions over the vector area: its entries are roots, its words not vectors", jmpLo, jmpHi-1, (jmpHi-jmpLo)/3)
		for a := jmpLo; a < jmpHi; a += 3 {
			b.addRoot(uint16(a), RootJumpTable, fmt.Sprintf("jmp@0x%04X", a))
		}
	}
	b.fixpoint()

	// Function symbols, checked so that data is not taken for code.
	if !opt.NoSymbolRoots {
		syms := append([]loader.Symbol(nil), img.Symbols...)
		sort.SliceStable(syms, func(i, j int) bool { return syms[i].Addr < syms[j].Addr })
		for _, s := range syms {
			if _, isStub := loader.StubNamed(s.Name); isStub || s.Name == "" {
				continue
			}
			switch {
			case s.Kind == loader.SymFunc:
			case s.Kind == loader.SymNone && s.Global && b.ex[s.Addr]:
			default:
				continue
			}
			if _, ok := b.ins[s.Addr]; ok {
				continue // already code
			}
			if b.inside(s.Addr) {
				b.note("symbol %s at 0x%04X lies inside an instruction: not a root", s.Name, s.Addr)
				continue
			}
			if !b.trial(s.Addr) {
				if s.Kind == loader.SymFunc {
					b.note("function symbol %s at 0x%04X does not decode as code: not a root", s.Name, s.Addr)
				}
				continue
			}
			b.addRoot(s.Addr, RootSymbol, s.Name)
			b.fixpoint()
		}
	}
	return b.finish(), nil
}

// minJmpTable is the fewest JMP instructions in a row that make a table.
const minJmpTable = 4

// jmpTable finds a table of JMP instructions (opcode 0x7E and an address,
// three bytes each, in a row, every address decodable code) that overlaps
// the interrupt vectors (0xFFC0-0xFFFF) in read-only memory: a monitor's
// entry points for user programs (BUFFALO's at 0xFF7C-0xFFD2), which a
// vector table's words cannot form. It returns [lo, hi), empty for none.
func (b *builder) jmpTable() (lo, hi int) {
	isJmp := func(a int) bool {
		if a < 0 || a+2 > 0xFFFF || !b.ro[a] || !b.ro[a+1] || !b.ro[a+2] || b.mem[a] != 0x7E {
			return false
		}
		t := uint16(b.mem[a+1])<<8 | uint16(b.mem[a+2])
		return b.ld[t] && b.ex[t]
	}
	vec := int(m68hc11.VectorAddr(0))
	for start := vec - 2; start+2 <= 0xFFFF; start++ { // a JMP with a byte in the vector area
		if !isJmp(start) {
			continue
		}
		lo, hi = start, start+3
		for isJmp(lo - 3) {
			lo -= 3
		}
		for isJmp(hi) {
			hi += 3
		}
		if (hi-lo)/3 >= minJmpTable {
			return lo, hi
		}
	}
	return 0, 0
}

// note records a message once.
func (b *builder) note(format string, args ...any) {
	m := fmt.Sprintf(format, args...)
	if !b.noteSeen[m] {
		b.noteSeen[m] = true
		b.notes = append(b.notes, m)
	}
}

// addRoot records a root and queues its code.
func (b *builder) addRoot(a uint16, k RootKind, name string) {
	if b.rootSeen[a] == nil {
		b.rootSeen[a] = map[RootKind]bool{}
	}
	if b.rootSeen[a][k] {
		return
	}
	b.rootSeen[a][k] = true
	b.roots = append(b.roots, Root{Addr: a, Kind: k, Name: name})
	b.entries[a] = true
	b.leaders[a] = true
	b.work = append(b.work, a)
}

// fixpoint alternates exploration and the resolution of thread entries and
// indirect jumps until nothing new is found.
func (b *builder) fixpoint() {
	for {
		b.explore()
		if !b.resolve() && len(b.work) == 0 {
			return
		}
	}
}

// decode decodes the instruction at a from loaded bytes only.
func (b *builder) decode(a uint16) (m68hc11.Inst, bool) {
	var buf [5]byte
	n := 0
	for n < len(buf) && int(a)+n <= 0xFFFF && b.ld[int(a)+n] {
		buf[n] = b.mem[int(a)+n]
		n++
	}
	if n == 0 {
		return m68hc11.Inst{}, false
	}
	in, err := m68hc11.Decode(buf[:n])
	if err != nil {
		return m68hc11.Inst{}, false
	}
	return in, true
}

// inside reports whether a lies strictly inside a known instruction.
func (b *builder) inside(a uint16) bool {
	for d := 1; d <= 4 && int(a)-d >= 0; d++ {
		if x, ok := b.ins[a-uint16(d)]; ok && int(x.Inst.Len) > d {
			return true
		}
	}
	return false
}

// mayReturn reports whether a call can come back to its return point.
func (b *builder) mayReturn(x *Instr) bool {
	if x.Kind == KindIndirectCall && x.Unresolved {
		return true
	}
	for _, c := range x.Callees {
		if b.stub[c] != stubThreadExit {
			return true
		}
	}
	return len(x.Callees) == 0 && x.Kind == KindIndirectCall
}

// explore decodes everything reachable from the work list.
func (b *builder) explore() {
	for len(b.work) > 0 {
		a := b.work[len(b.work)-1]
		b.work = b.work[:len(b.work)-1]
		if _, ok := b.ins[a]; ok || b.bad[a] {
			continue
		}
		if name, ok := b.stub[a]; ok {
			k := KindStub
			if name == stubThreadExit {
				k = KindStubNoReturn
			}
			b.ins[a] = &Instr{Addr: a, Kind: k, Stub: name}
			b.entries[a] = true
			b.leaders[a] = true
			continue
		}
		in, ok := b.decode(a)
		if !ok {
			b.bad[a] = true
			if !b.ld[a] {
				b.note("control reaches 0x%04X, which the image does not load: the path ends there", a)
			} else {
				b.note("control reaches 0x%04X, which does not decode: the path ends there", a)
			}
			continue
		}
		x := &Instr{Addr: a, Inst: in}
		b.ins[a] = x
		b.fresh = append(b.fresh, a)
		next := int(a) + int(in.Len)
		fall := func() {
			if next > 0xFFFF {
				b.note("control runs off the end of memory after 0x%04X", a)
				return
			}
			x.Next = append(x.Next, uint16(next))
			b.fallPred[uint16(next)] = a
			b.work = append(b.work, uint16(next))
		}
		jumpTo := func(t uint16) {
			x.Next = append(x.Next, t)
			b.leaders[t] = true
			b.work = append(b.work, t)
		}
		switch in.Op {
		case m68hc11.RTS, m68hc11.RTI:
			x.Kind = KindReturn
		case m68hc11.SWI, m68hc11.TEST:
			x.Kind = KindHalt
		case m68hc11.JSR, m68hc11.BSR:
			x.Kind = KindCall
			switch in.Mode {
			case m68hc11.Dir, m68hc11.Ext:
				b.enter(x, in.Operand)
			case m68hc11.Rel:
				b.enter(x, in.Target(a))
			default:
				x.Kind = KindIndirectCall
				b.indirect[a] = &IndirectSite{Addr: a, Call: true}
			}
			if next > 0xFFFF {
				b.note("call at 0x%04X has no return point: the path ends there", a)
				break
			}
			x.Ret = uint16(next)
			if x.Kind == KindCall && !b.mayReturn(x) {
				break
			}
			b.fallPred[x.Ret] = a
			b.leaders[x.Ret] = true
			b.work = append(b.work, x.Ret)
		case m68hc11.JMP:
			if in.Mode == m68hc11.Ext {
				x.Kind = KindJump
				jumpTo(in.Operand)
			} else {
				x.Kind = KindIndirectJump
				b.indirect[a] = &IndirectSite{Addr: a}
			}
		case m68hc11.BRA:
			x.Kind = KindJump
			jumpTo(in.Target(a))
		case m68hc11.BRN:
			x.Kind = KindFlow
			fall()
		default:
			if in.IsBranch() {
				x.Kind = KindBranch
				if next <= 0xFFFF {
					x.Next = append(x.Next, uint16(next))
					b.leaders[uint16(next)] = true
					b.work = append(b.work, uint16(next))
				}
				t := in.Target(a)
				if next > 0xFFFF || t != uint16(next) {
					jumpTo(t)
				}
			} else {
				x.Kind = KindFlow
				fall()
			}
		}
	}
}

// enter makes t a callee of the call x.
func (b *builder) enter(x *Instr, t uint16) {
	for _, c := range x.Callees {
		if c == t {
			return
		}
	}
	x.Callees = append(x.Callees, t)
	b.entries[t] = true
	b.leaders[t] = true
	b.work = append(b.work, t)
}

// resolve looks at the thread-creation calls and indirect jumps decoded
// since it last ran; it reports whether it found new code.
func (b *builder) resolve() bool {
	addrs := b.fresh
	b.fresh = nil
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	found := false
	for _, a := range addrs {
		x := b.ins[a]
		switch {
		case x.Kind == KindCall && b.callsStub(x, stubThreadCreate):
			st := b.blockState(a)
			if !st.a.known || !st.b.known {
				b.note("thread entry passed to %s at 0x%04X is not a constant loaded in the same block: not a root", stubThreadCreate, a)
				continue
			}
			e := uint16(st.a.v)<<8 | uint16(st.b.v)
			if _, isStub := b.stub[e]; !isStub && !b.trial(e) {
				b.note("thread entry 0x%04X passed at 0x%04X is not decodable code: not a root", e, a)
				continue
			}
			if b.rootSeen[e] == nil || !b.rootSeen[e][RootThread] {
				b.addRoot(e, RootThread, fmt.Sprintf("created at 0x%04X", a))
				found = true
			}
		}
	}
	if len(b.indirect) > 0 || b.anyRTS() {
		in, preds := b.flowStates()
		if b.resolveSites(in, preds) {
			found = true
		}
	}
	return found
}

// anyRTS reports whether the code holds an RTS that may be a dispatch.
func (b *builder) anyRTS() bool {
	for _, x := range b.ins {
		if x.Kind == KindReturn && x.Inst.Op == m68hc11.RTS {
			return true
		}
	}
	return false
}

// resolveSites resolves, again with the code found so far, every indirect
// jump and call, and turns an RTS into an indirect jump where every path to
// it pushed a known address with PSHX or PSHY (a dispatch through a table
// of addresses); it reports whether it found new targets. Targets only
// grow from round to round; a site whose states no longer give targets is
// unresolved (connected to every procedure entry) and keeps those it had.
func (b *builder) resolveSites(in map[uint16]regState, preds map[uint16][]uint16) bool {
	addrs := make([]uint16, 0, len(b.ins))
	for a, x := range b.ins {
		if x.Kind == KindIndirectCall || x.Kind == KindIndirectJump || x.Kind == KindReturn && x.Inst.Op == m68hc11.RTS {
			addrs = append(addrs, a)
		}
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	found := false
	for _, a := range addrs {
		x := b.ins[a]
		targets, how := b.resolveIndirect(x, in, preds)
		if x.Kind == KindReturn {
			if len(targets) == 0 {
				continue
			}
			x.Kind = KindIndirectJump
			b.indirect[a] = &IndirectSite{Addr: a}
		}
		site := b.indirect[a]
		if len(targets) == 0 {
			x.Unresolved, site.Resolved = true, false
			continue
		}
		x.Unresolved = false
		site.Resolved, site.How = true, how
		for _, t := range sortedSet(append([]uint16(nil), targets...)) {
			if contains(site.Targets, t) {
				continue
			}
			site.Targets = sortedSet(append(site.Targets, t))
			found = true
			if x.Kind == KindIndirectCall {
				b.enter(x, t)
			} else {
				x.Next = append(x.Next, t)
				b.leaders[t] = true
				b.work = append(b.work, t)
			}
		}
		if x.Kind == KindIndirectCall && x.Ret != 0 && b.mayReturn(x) {
			if _, ok := b.fallPred[x.Ret]; !ok {
				b.fallPred[x.Ret] = a
				b.leaders[x.Ret] = true
				b.work = append(b.work, x.Ret)
				found = true
			}
		}
	}
	return found
}

// callsStub reports whether the call x enters the named stub.
func (b *builder) callsStub(x *Instr, name string) bool {
	for _, c := range x.Callees {
		if b.stub[c] == name {
			return true
		}
	}
	return false
}

// trial decides whether code starting at a looks like code: every
// instruction reached from it within its activation (calls not entered) is
// loaded, in an executable segment, decodes, is not TEST (0x00, the usual
// filler of data) and does not overlap a known instruction.
func (b *builder) trial(a uint16) bool {
	seen := map[uint16]bool{}
	work := []uint16{a}
	for len(work) > 0 && len(seen) < 512 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		if _, ok := b.stub[p]; ok {
			continue
		}
		if _, ok := b.ins[p]; ok {
			continue // joins known code
		}
		if !b.ex[p] || b.inside(p) {
			return false
		}
		in, ok := b.decode(p)
		if !ok || in.Op == m68hc11.TEST {
			return false
		}
		next := int(p) + int(in.Len)
		push := func(t int) {
			if t > 0xFFFF {
				return
			}
			work = append(work, uint16(t))
		}
		switch in.Op {
		case m68hc11.RTS, m68hc11.RTI, m68hc11.SWI:
		case m68hc11.JMP:
			if in.Mode == m68hc11.Ext {
				push(int(in.Operand))
			}
		case m68hc11.BRA:
			push(int(in.Target(p)))
		case m68hc11.JSR, m68hc11.BSR:
			push(next)
		default:
			if in.IsBranch() {
				push(int(in.Target(p)))
			}
			push(next)
		}
	}
	return true
}
