package icfg

import (
	"fmt"
	"sort"

	"github.com/yourbasic/graph"
)

// finish turns the builder's maps into a Program: unresolved indirect sites
// get every procedure entry, procedure bodies are computed, and the
// relations the AICFG needs (where exits return to, what lies below a
// return address) are derived.
func (b *builder) finish() *Program {
	p := &Program{
		Image:  b.img,
		idx:    make([]int32, 65536),
		procAt: map[uint16]int32{},
		stubAt: b.stub,
		Roots:  b.roots,
		Notes:  b.notes,
	}
	for i := range p.idx {
		p.idx[i] = -1
	}
	addrs := make([]uint16, 0, len(b.ins))
	for a := range b.ins {
		addrs = append(addrs, a)
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	p.Instrs = make([]Instr, len(addrs))
	for i, a := range addrs {
		p.Instrs[i] = *b.ins[a]
		p.idx[a] = int32(i)
	}

	// Procedure entries: roots, call targets and the stubs, when decoded.
	var entries []uint16
	for a := range b.entries {
		if p.idx[a] >= 0 {
			entries = append(entries, a)
		}
	}
	entries = sortedSet(entries)
	var code []uint16 // entries an unresolved site may reach: all but the stubs
	for _, e := range entries {
		if _, ok := b.stub[e]; !ok {
			code = append(code, e)
		}
	}
	for i := range p.Instrs {
		x := &p.Instrs[i]
		x.Next = sortedSet(x.Next)
		x.Callees = sortedSet(x.Callees)
		if x.Unresolved {
			if x.Kind == KindIndirectJump {
				x.Next = append([]uint16(nil), code...)
			} else {
				x.Callees = append([]uint16(nil), code...)
			}
		}
		// Only targets that are vertices.
		x.Next = keepDecoded(p, x.Next)
		x.Callees = keepDecoded(p, x.Callees)
	}
	for _, s := range b.indirect {
		p.Indirect = append(p.Indirect, *s)
	}
	sort.Slice(p.Indirect, func(i, j int) bool { return p.Indirect[i].Addr < p.Indirect[j].Addr })

	p.Procs = make([]Proc, len(entries))
	isEntry := map[uint16]bool{}
	for i, e := range entries {
		p.procAt[e] = int32(i)
		isEntry[e] = true
	}
	p.owners = make([][]int32, len(p.Instrs))
	for i, e := range entries {
		pr := &p.Procs[i]
		pr.Entry = e
		pr.Stub = b.stub[e]
		pr.Name = p.procName(e)
		p.body(pr, int32(i), isEntry)
	}
	for i := range p.Instrs {
		x := &p.Instrs[i]
		for _, c := range x.Callees {
			if pi, ok := p.procAt[c]; ok {
				p.Procs[pi].Callers = append(p.Procs[pi].Callers, x.Addr)
			}
		}
	}
	for _, r := range p.Roots {
		if pi, ok := p.procAt[r.Addr]; ok {
			p.Procs[pi].Roots = append(p.Procs[pi].Roots, r.Kind)
		}
	}
	for i := range p.Procs {
		p.Procs[i].Callers = sortedSet(p.Procs[i].Callers)
	}
	p.relations()
	p.markRecursion()
	return p
}

// keepDecoded drops addresses that are not instruction vertices.
func keepDecoded(p *Program, a []uint16) []uint16 {
	out := a[:0]
	for _, t := range a {
		if p.idx[t] >= 0 {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// procName names a procedure after the symbol at its entry.
func (p *Program) procName(e uint16) string {
	if s, ok := p.stubAt[e]; ok {
		return s
	}
	if p.Image != nil {
		if name, off, ok := p.Image.SymbolAt(e); ok && off == 0 {
			return name
		}
	}
	return fmt.Sprintf("sub_%04X", e)
}

// frameSuccs are the successors of x within its activation: Next, and the
// return point of a call that may return.
func (p *Program) frameSuccs(x *Instr) []uint16 {
	if !x.Kind.IsCall() {
		return x.Next
	}
	if !p.callMayReturn(x) {
		return nil
	}
	return []uint16{x.Ret}
}

// callMayReturn reports whether some callee of the call x can return.
func (p *Program) callMayReturn(x *Instr) bool {
	if int(x.Addr)+int(x.Inst.Len) > 0xFFFF {
		return false // no return point
	}
	for _, c := range x.Callees {
		if y, ok := p.Instr(c); ok && y.Kind != KindStubNoReturn {
			return true
		}
	}
	return false
}

// body computes a procedure's instructions: everything its activation
// reaches from the entry through frame successors, where a jump or
// fall-through into another procedure's entry is a tail call and not
// followed.
func (p *Program) body(pr *Proc, pi int32, isEntry map[uint16]bool) {
	ei := p.idx[pr.Entry]
	if pr.Stub != "" {
		pr.Body = []uint16{pr.Entry}
		if p.Instrs[ei].Kind == KindStub {
			pr.Exits = []uint16{pr.Entry}
		}
		p.owners[ei] = append(p.owners[ei], pi)
		return
	}
	seen := map[uint16]bool{pr.Entry: true}
	work := []uint16{pr.Entry}
	var callees, tails []uint16
	for len(work) > 0 {
		a := work[len(work)-1]
		work = work[:len(work)-1]
		i := p.idx[a]
		x := &p.Instrs[i]
		pr.Body = append(pr.Body, a)
		p.owners[i] = append(p.owners[i], pi)
		pr.Bytes += int(x.Inst.Len)
		switch {
		case x.Kind.IsCall():
			pr.CallSites = append(pr.CallSites, a)
			callees = append(callees, x.Callees...)
		case x.Kind.IsExit():
			pr.Exits = append(pr.Exits, a)
		}
		for _, w := range p.frameSuccs(x) {
			if p.idx[w] < 0 {
				continue
			}
			if isEntry[w] && w != pr.Entry {
				tails = append(tails, w)
				continue
			}
			if !seen[w] {
				seen[w] = true
				work = append(work, w)
			}
		}
	}
	pr.Body = sortedSet(pr.Body)
	pr.Exits = sortedSet(pr.Exits)
	pr.CallSites = sortedSet(pr.CallSites)
	pr.Callees = sortedSet(callees)
	pr.TailCalls = sortedSet(tails)
}

// relations computes, per procedure, where its exits may return (the
// return points of its calls, and those of the procedures that continue
// into it by tail call) and whether it may run on an empty stack; and per
// return point, the return addresses that may lie below it on the stack.
func (p *Program) relations() {
	n := len(p.Procs)
	p.retSet = make([][]uint16, n)
	p.ctxRoot = make([]bool, n)
	tailPred := make([]int, n)
	for i := range p.Procs {
		for _, t := range p.Procs[i].TailCalls {
			tailPred[p.procAt[t]]++
		}
	}
	for i := range p.Instrs {
		x := &p.Instrs[i]
		if !x.Kind.IsCall() || !p.callMayReturn(x) {
			continue
		}
		for _, c := range x.Callees {
			pi := p.procAt[c]
			p.retSet[pi] = append(p.retSet[pi], x.Ret)
		}
	}
	for i := range p.Procs {
		pr := &p.Procs[i]
		for _, k := range pr.Roots {
			switch k {
			case RootReset, RootEntry, RootVector, RootThread:
				p.ctxRoot[i] = true
			case RootSymbol, RootJumpTable:
				if len(pr.Callers) == 0 && tailPred[i] == 0 {
					p.ctxRoot[i] = true
				}
			}
		}
		p.retSet[i] = sortedSet(p.retSet[i])
	}
	p.propagateTails()
	p.below = map[uint16][]uint16{}
	p.belowNil = map[uint16]bool{}
	for i := range p.Instrs {
		x := &p.Instrs[i]
		if !x.Kind.IsCall() || !p.callMayReturn(x) {
			continue
		}
		for _, pi := range p.owners[i] {
			p.below[x.Ret] = append(p.below[x.Ret], p.retSet[pi]...)
			if p.ctxRoot[pi] {
				p.belowNil[x.Ret] = true
			}
		}
	}
	for r, l := range p.below {
		p.below[r] = sortedSet(l)
	}
}

// propagateTails makes a procedure entered by tail call return wherever
// its tail callers return, and run on an empty stack if one of them may.
// The tail-call graph is condensed into its strongly connected components
// (whose members share everything) and the sets flow along a topological
// order of the condensation, each edge once.
func (p *Program) propagateTails() {
	n := len(p.Procs)
	g := graph.New(n)
	for i := range p.Procs {
		for _, t := range p.Procs[i].TailCalls {
			g.Add(i, int(p.procAt[t]))
		}
	}
	comps := graph.StrongComponents(g)
	comp := make([]int, n)
	for c, members := range comps {
		for _, v := range members {
			comp[v] = c
		}
	}
	dag := graph.New(len(comps))
	for i := range p.Procs {
		for _, t := range p.Procs[i].TailCalls {
			if a, b := comp[i], comp[p.procAt[t]]; a != b {
				dag.Add(a, b)
			}
		}
	}
	order, ok := graph.TopSort(dag)
	if !ok {
		panic("icfg: condensation of the tail-call graph has a cycle")
	}
	rets := make([][]uint16, len(comps))
	root := make([]bool, len(comps))
	for c, members := range comps {
		for _, v := range members {
			rets[c] = append(rets[c], p.retSet[v]...)
			root[c] = root[c] || p.ctxRoot[v]
		}
		rets[c] = sortedSet(rets[c])
	}
	for _, c := range order {
		dag.Visit(c, func(d int, _ int64) bool {
			rets[d] = mergeSorted(rets[d], rets[c])
			root[d] = root[d] || root[c]
			return false
		})
	}
	for v := range p.Procs {
		p.retSet[v] = rets[comp[v]]
		p.ctxRoot[v] = root[comp[v]]
	}
}

// mergeSorted returns the union of two ascending sets.
func mergeSorted(a, b []uint16) []uint16 {
	out := make([]uint16, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}

// markRecursion flags the procedures on a cycle of calls and tail calls,
// from the strongly connected components of the call graph.
func (p *Program) markRecursion() {
	g := graph.New(len(p.Procs))
	self := make([]bool, len(p.Procs))
	for i := range p.Procs {
		pr := &p.Procs[i]
		for _, list := range [][]uint16{pr.Callees, pr.TailCalls} {
			for _, c := range list {
				j := int(p.procAt[c])
				if j == i {
					self[i] = true
				}
				g.Add(i, j)
			}
		}
	}
	for _, comp := range graph.StrongComponents(g) {
		for _, v := range comp {
			if len(comp) > 1 || self[v] {
				p.Procs[v].Recursive = true
			}
		}
	}
}

// CtxRoot reports whether the procedure with this entry may run on an empty
// stack (a root of the AICFG): the reset or entry routine, an interrupt
// handler, a thread entry, or a function symbol nothing calls.
func (p *Program) CtxRoot(entry uint16) bool {
	i, ok := p.procAt[entry]
	return ok && p.ctxRoot[i]
}
