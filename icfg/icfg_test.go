package icfg

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// build disassembles an image or fails the test.
func build(t *testing.T, img *loader.Image) *Program {
	t.Helper()
	p, err := Build(img, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// loadELF loads one of the checked-in images.
func loadELF(t *testing.T, name string) *Program {
	t.Helper()
	img, err := loader.Load(filepath.Join("..", "testdata", "heuristics", name), loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return build(t, img)
}

// sym returns a symbol's address.
func sym(t *testing.T, p *Program, name string) uint16 {
	t.Helper()
	s, ok := p.Image.Lookup(name)
	if !ok {
		t.Fatalf("no symbol %s", name)
	}
	return s.Addr
}

// succPCs lists the PCs of a vertex's successors with their edge kinds.
func succPCs(g *Graph, v int32) map[uint16]EdgeKind {
	out := map[uint16]EdgeKind{}
	adj, ek := g.Edges(v)
	for j, w := range adj {
		out[g.Verts[w].PC] = ek[j]
	}
	return out
}

// TestFigure4Graphs checks the procedures, the ICFG and the AICFGs of
// Figure 4 against the paper's drawings.
func TestFigure4Graphs(t *testing.T) {
	p := loadELF(t, "fig4.elf")
	s := func(n string) uint16 { return sym(t, p, n) }

	var names []string
	for _, pr := range p.Procs {
		names = append(names, pr.Name)
	}
	if want := []string{"__mc_error", "_start", "xfun", "yfun", "f", "g"}; !reflect.DeepEqual(names, want) {
		t.Errorf("procedures %v, want %v", names, want)
	}
	f, _ := p.Proc(s("f"))
	if !reflect.DeepEqual(f.Callers, []uint16{s("xfun"), s("yfun")}) || !reflect.DeepEqual(f.Callees, []uint16{s("g")}) {
		t.Errorf("f: callers %x callees %x", f.Callers, f.Callees)
	}
	if !p.CtxRoot(s("_start")) || p.CtxRoot(s("f")) {
		t.Error("only _start runs on an empty stack")
	}

	// ICFG: f's exit returns to both callers (Definition 2).
	g0 := p.ICFG()
	v, _ := g0.Lookup(s("ret_fg"), nil)
	if got := succPCs(g0, v); !reflect.DeepEqual(got, map[uint16]EdgeKind{s("ret_xf"): EdgeReturn, s("ret_yf"): EdgeReturn}) {
		t.Errorf("ICFG successors of f's rts: %v", got)
	}
	if g0.Order() != 14 || g0.NumEdges() != 15 {
		t.Errorf("ICFG: %d vertices, %d edges; want 14, 15", g0.Order(), g0.NumEdges())
	}

	// AICFG(1), Figure 4(a): f is inlined into x and y, g is not.
	g1, err := p.AICFG(1, GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g1.Order() != 16 || g1.NumEdges() != 17 {
		t.Errorf("AICFG(1): %d vertices, %d edges; want 16, 17", g1.Order(), g1.NumEdges())
	}
	if _, ok := g1.Lookup(s("f"), []uint16{s("ret_xf"), s("ret_x")}); !ok {
		t.Error("AICFG(1) lacks <f, RA:ret_xf>")
	}
	v, ok := g1.Lookup(s("g")+1, []uint16{s("ret_fg")})
	if !ok {
		t.Fatal("AICFG(1) lacks <g's rts, RA:ret_fg>")
	}
	// g's return guesses: back into f called from x or from y.
	adj, _ := g1.Edges(v)
	var ctxs [][]uint16
	for _, w := range adj {
		ctxs = append(ctxs, slices.Clone(g1.Verts[w].Returns()))
	}
	if want := [][]uint16{{s("ret_xf")}, {s("ret_yf")}}; !reflect.DeepEqual(ctxs, want) && !reflect.DeepEqual(ctxs, [][]uint16{want[1], want[0]}) {
		t.Errorf("AICFG(1) returns of g: %x", ctxs)
	}

	// AICFG(2): g is inlined too, 18 vertices.
	g2, _ := p.AICFG(2, GraphOptions{})
	if g2.Order() != 18 || g2.NumEdges() != 18 {
		t.Errorf("AICFG(2): %d vertices, %d edges; want 18, 18", g2.Order(), g2.NumEdges())
	}

	// Distances to the label error from the first entry to g.
	target := []uint16{s("error")}
	stack := []uint16{s("ret_fg"), s("ret_xf"), s("ret_x")}
	for _, c := range []struct {
		g    *Graph
		want int32
	}{{g0, 4}, {g1, 4}, {g2, 11}} {
		d := c.g.DistancesTo(target)
		v, ok := c.g.Lookup(s("g"), stack)
		if !ok || d[v] != c.want {
			t.Errorf("k=%d: distance at g %d, want %d", c.g.K, d[v], c.want)
		}
	}

	// Figure 5's tables at the frames of Section 3.2's walk.
	for _, g := range []*Graph{g0, g1, g2} {
		ft := g.FrameTables(target)
		at := func(pc uint16, below []uint16) int32 {
			v, ok := g.Lookup(pc, below)
			if !ok {
				t.Fatalf("k=%d: no vertex %04X %x", g.K, pc, below)
			}
			return v
		}
		sa0 := at(s("g"), stack)
		if ft.Exit[sa0] != 1 || ft.InScope[sa0] != Inf || ft.PostDom[sa0] {
			t.Errorf("k=%d: <09>: exit %d in %d pd %v", g.K, ft.Exit[sa0], ft.InScope[sa0], ft.PostDom[sa0])
		}
		sa1 := at(s("ret_fg"), stack[1:])
		if ft.Exit[sa1] != 0 || ft.InScope[sa1] != Inf {
			t.Errorf("k=%d: <08>: exit %d in %d", g.K, ft.Exit[sa1], ft.InScope[sa1])
		}
		sa3 := at(s("ret_x"), nil)
		if ft.InScope[sa3] != 7 || !ft.PostDom[sa3] || ft.Exit[sa3] != Inf {
			t.Errorf("k=%d: <02,(init)>: in %d pd %v exit %d; want 7 true inf", g.K, ft.InScope[sa3], ft.PostDom[sa3], ft.Exit[sa3])
		}
	}
}

// TestJumpTable resolves "ldx #tbl; abx; ldx 0,x; jmp 0,x".
func TestJumpTable(t *testing.T) {
	a := newAsm(0xD000)
	a.stubs("__mc_error")
	a.sym("_start", loader.SymNone, true).b(opLDS, 0x01, 0xFF)
	a.b(opLDAB, 0x01).b(opASLB).ext("tbl", opLDX).b(opABX).b(opLDXX, 0x00)
	a.label("site").b(opJMPX, 0x00)
	a.label("c0").b(opNOP).rel("c0", opBRA)
	a.label("c1").ext("__mc_error", opJSR).label("c1l").rel("c1l", opBRA)
	a.label("c2").b(opSWI)
	a.rodata().label("tbl").word("c0").word("c1").word("c2").b(0x00, 0x00)
	p := build(t, a.image("_start"))
	s := func(n string) uint16 { return a.labels[n] }

	if len(p.Indirect) != 1 {
		t.Fatalf("indirect sites: %+v", p.Indirect)
	}
	site := p.Indirect[0]
	if site.Addr != s("site") || !site.Resolved || !strings.Contains(site.How, "jump table") {
		t.Errorf("site: %+v", site)
	}
	want := []uint16{s("c0"), s("c1"), s("c2")}
	if !reflect.DeepEqual(site.Targets, want) {
		t.Errorf("targets %x, want %x", site.Targets, want)
	}
	x, _ := p.Instr(s("site"))
	if x.Kind != KindIndirectJump || !reflect.DeepEqual(x.Next, want) {
		t.Errorf("jmp: %v %x", x.Kind, x.Next)
	}
	// The targets are part of _start's body.
	st, _ := p.Proc(s("_start"))
	for _, w := range want {
		if !slices.Contains(st.Body, w) {
			t.Errorf("_start's body lacks %04X", w)
		}
	}

	// A data symbol with a size bounds the table.
	a.syms = append(a.syms, loader.Symbol{Name: "tbl_obj", Addr: s("tbl"), Size: 4, Kind: loader.SymObject, Global: true})
	p = build(t, a.image("_start"))
	if got := p.Indirect[0].Targets; !reflect.DeepEqual(got, want[:2]) {
		t.Errorf("sized table: targets %x, want %x", got, want[:2])
	}
}

// TestIndirectCalls resolves a constant X and connects an unresolved jump
// to every procedure entry.
func TestIndirectCalls(t *testing.T) {
	a := newAsm(0xD000)
	a.stubs("__mc_error")
	a.sym("_start", loader.SymNone, true)
	a.ext("fn", opLDX).label("call").b(opJSRX, 0x00)
	a.b(0x1A, 0xEE, 0x00) // ldx 0,y: X unknown
	a.label("jump").b(opJMPX, 0x02)
	a.label("fn").b(opRTS)
	a.sym("other", loader.SymFunc, true).b(opNOP, opRTS)
	p := build(t, a.image("_start"))
	s := func(n string) uint16 { return a.labels[n] }

	call, _ := p.Instr(s("call"))
	if call.Kind != KindIndirectCall || call.Unresolved || !reflect.DeepEqual(call.Callees, []uint16{s("fn")}) {
		t.Errorf("jsr 0,x: %v unresolved=%v callees %x", call.Kind, call.Unresolved, call.Callees)
	}
	jump, _ := p.Instr(s("jump"))
	want := []uint16{s("_start"), s("fn"), s("other")}
	if !jump.Unresolved || !reflect.DeepEqual(jump.Next, want) {
		t.Errorf("jmp 2,x: unresolved=%v next %x, want %x", jump.Unresolved, jump.Next, want)
	}
	var text bytes.Buffer
	if err := p.Report(p.ICFG()).WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "unresolved, connected to every procedure entry (3)") ||
		!strings.Contains(text.String(), "constant X = 0x") {
		t.Errorf("report:\n%s", text.String())
	}
	// An unresolved jump enters the other procedures as tail calls.
	g := p.ICFG()
	v, _ := g.Lookup(s("jump"), nil)
	if k := succPCs(g, v)[s("other")]; k != EdgeTail {
		t.Errorf("jmp → other: %v, want tail", k)
	}
}

// TestThreadEntries finds the entries passed to __mc_thread_create.
func TestThreadEntries(t *testing.T) {
	a := newAsm(0xD000)
	a.stubs("__mc_thread_create", "__mc_thread_exit")
	a.sym("_start", loader.SymNone, true)
	a.b(0x18, 0xCE, 0x00, 0x01) // ldy #1
	a.b(opLDX, 0x01, 0x00).ext("w1", opLDD).label("c1").ext("__mc_thread_create", opJSR)
	a.hi("w2", opLDAA).lo("w2", opLDAB).b(opLDX, 0x01, 0x80).ext("__mc_thread_create", opJSR)
	a.ext("w3", opLDX).b(opXGDX).b(opLDX, 0x01, 0xA0).ext("__mc_thread_create", opJSR)
	a.ext("w1", opLDD).ext("helper", opJSR).label("c4").ext("__mc_thread_create", opJSR)
	a.ext("__mc_thread_exit", opJSR)
	a.label("dead").b(opNOP) // after thread_exit: never decoded
	a.label("helper").b(opRTS)
	a.label("w1").b(opNOP).ext("__mc_thread_exit", opJSR)
	a.label("w2").b(opINX).ext("__mc_thread_exit", opJSR)
	a.label("w3").b(opRTS)
	p := build(t, a.image("_start"))
	s := func(n string) uint16 { return a.labels[n] }

	var threads []uint16
	for _, r := range p.Roots {
		if r.Kind == RootThread {
			threads = append(threads, r.Addr)
		}
	}
	slices.Sort(threads)
	if want := []uint16{s("w1"), s("w2"), s("w3")}; !reflect.DeepEqual(threads, want) {
		t.Errorf("thread roots %x, want %x", threads, want)
	}
	found := false
	for _, n := range p.Notes {
		if strings.Contains(n, "not a constant") && strings.Contains(n, strings.ToUpper(hex4(s("c4"))[2:])) {
			found = true
		}
	}
	if !found {
		t.Errorf("no note for the call at c4: %q", p.Notes)
	}
	if _, ok := p.Instr(s("dead")); ok {
		t.Error("code after __mc_thread_exit was decoded")
	}
	for _, w := range []string{"w1", "w2", "w3"} {
		if !p.CtxRoot(s(w)) {
			t.Errorf("%s does not run on an empty stack", w)
		}
	}
	// A thread entry that returns ends the thread: no ICFG successor.
	g := p.ICFG()
	v, _ := g.Lookup(s("w3"), nil)
	if adj, _ := g.Edges(v); len(adj) != 0 {
		t.Errorf("w3's rts has successors %v", adj)
	}
}

// TestInterruptsAndHalts: vectors are roots of their own, RTI ends them,
// SWI and TEST end a path, WAI falls through.
func TestInterruptsAndHalts(t *testing.T) {
	a := newAsm(0xD000)
	a.sym("_start", loader.SymNone, true).b(0x0E) // cli
	a.label("wai").b(opWAI)
	a.label("swi").b(opSWI)
	a.label("handler").b(opINX).label("rti").b(opRTI)
	img := a.image("_start")
	img.Vectors[20], img.VectorLoaded[20] = a.labels["handler"], true // toc1
	img.Vectors[21], img.VectorLoaded[21] = 0x1234, true              // tic3: not loaded
	p := build(t, img)
	s := func(n string) uint16 { return a.labels[n] }

	var kinds []string
	for _, r := range p.Roots {
		kinds = append(kinds, r.Kind.String()+":"+r.Name)
	}
	if want := []string{"reset:reset", "vector:toc1"}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("roots %v, want %v", kinds, want)
	}
	if len(p.Notes) == 0 || !strings.Contains(p.Notes[0], "tic3") {
		t.Errorf("notes %q", p.Notes)
	}
	w, _ := p.Instr(s("wai"))
	sw, _ := p.Instr(s("swi"))
	if w.Kind != KindFlow || !reflect.DeepEqual(w.Next, []uint16{s("swi")}) || sw.Kind != KindHalt || len(sw.Next) != 0 {
		t.Errorf("wai %v %x, swi %v %x", w.Kind, w.Next, sw.Kind, sw.Next)
	}
	h, _ := p.Proc(s("handler"))
	if !reflect.DeepEqual(h.Exits, []uint16{s("rti")}) || !p.CtxRoot(s("handler")) {
		t.Errorf("handler: exits %x", h.Exits)
	}
	g := p.ICFG()
	v, _ := g.Lookup(s("rti"), nil)
	if adj, _ := g.Edges(v); len(adj) != 0 {
		t.Errorf("rti has successors: interrupts must not be edges")
	}
	// No edge leads from the main code into the handler.
	hv, _ := g.Lookup(s("handler"), nil)
	for v := range g.Verts {
		adj, _ := g.Edges(int32(v))
		if slices.Contains(adj, hv) {
			t.Errorf("edge from %04X into the handler", g.Verts[v].PC)
		}
	}
}

// TestTailCall: a JMP to another procedure's entry continues the caller's
// activation there.
func TestTailCall(t *testing.T) {
	a := newAsm(0xD000)
	a.sym("_start", loader.SymNone, true).ext("pa", opJSR)
	a.label("ra").ext("pb", opJSR)
	a.label("rb").rel("rb", opBRA)
	a.label("pa").b(opNOP).label("jmp").ext("pb", opJMP)
	a.label("pb").b(opNOP).label("rts").b(opRTS)
	p := build(t, a.image("_start"))
	s := func(n string) uint16 { return a.labels[n] }

	pa, _ := p.Proc(s("pa"))
	if !reflect.DeepEqual(pa.TailCalls, []uint16{s("pb")}) || slices.Contains(pa.Body, s("pb")) {
		t.Errorf("pa: tail %x body %x", pa.TailCalls, pa.Body)
	}
	if got := p.ReturnPoints(s("rts")); !reflect.DeepEqual(got, []uint16{s("ra"), s("rb")}) {
		t.Errorf("pb returns to %x", got)
	}
	g0 := p.ICFG()
	v, _ := g0.Lookup(s("jmp"), nil)
	if k := succPCs(g0, v)[s("pb")]; k != EdgeTail {
		t.Errorf("jmp pb: %v", k)
	}
	g1, _ := p.AICFG(1, GraphOptions{})
	v, ok := g1.Lookup(s("rts"), []uint16{s("ra")})
	if !ok {
		t.Fatal("no <pb rts, RA:ra>")
	}
	if got := succPCs(g1, v); !reflect.DeepEqual(got, map[uint16]EdgeKind{s("ra"): EdgeReturn}) {
		t.Errorf("<pb rts, RA:ra> → %v", got)
	}
	// Same-level distance from pa to its (tail) exit: nop, jmp, nop, rts.
	ex := g1.ExitDistances()
	v, _ = g1.Lookup(s("pa"), []uint16{s("ra")})
	if ex[v] != 3 {
		t.Errorf("exit distance from pa: %d, want 3", ex[v])
	}
}

// TestSymbolRoots: function symbols are roots, data is not.
func TestSymbolRoots(t *testing.T) {
	a := newAsm(0xD000)
	a.sym("_start", loader.SymNone, true).rel("_start", opBRA)
	a.sym("helper", loader.SymFunc, true).ext("callee", opJSR).b(opRTS)
	a.sym("callee", loader.SymFunc, false).b(opRTS)
	a.sym("table", loader.SymNone, true).b(0x00, 0x00, 0x12)
	a.label("orphan").b(opNOP, opRTS)
	p := build(t, a.image("_start"))
	s := func(n string) uint16 { return a.labels[n] }

	if !p.CtxRoot(s("helper")) || p.CtxRoot(s("callee")) {
		t.Error("helper (uncalled) runs on an empty stack, callee does not")
	}
	for _, n := range []string{"table", "orphan"} {
		if _, ok := p.Instr(s(n)); ok {
			t.Errorf("%s was decoded", n)
		}
	}
	if p.Procs[len(p.Procs)-1].Name != "callee" {
		t.Errorf("procedures: %+v", p.Procs)
	}
	// Without symbol roots only _start is code.
	p2, _ := Build(p.Image, Options{NoSymbolRoots: true})
	if len(p2.Instrs) != 1 {
		t.Errorf("NoSymbolRoots: %d instructions", len(p2.Instrs))
	}
}

// TestRecursion: a recursive procedure is flagged, its AICFGs are finite,
// and the same-level tables cross the recursive call by its summary.
func TestRecursion(t *testing.T) {
	a := newAsm(0xD000)
	a.stubs("__mc_error")
	a.sym("_start", loader.SymNone, true).ext("r", opJSR)
	a.label("stop").rel("stop", opBRA)
	a.label("r").rel("done", opBEQ)
	a.ext("r", opJSR)
	a.label("tgt").ext("__mc_error", opJSR)
	a.label("done").b(opRTS)
	p := build(t, a.image("_start"))
	s := func(n string) uint16 { return a.labels[n] }
	r, _ := p.Proc(s("r"))
	if !r.Recursive {
		t.Error("r is not flagged recursive")
	}
	for k := 0; k <= 3; k++ {
		g, err := p.AICFG(k, GraphOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ft := g.FrameTables([]uint16{s("tgt")})
		// From r's entry: beq, jsr r, (inner) beq → done, rts → tgt: 4.
		for _, below := range [][]uint16{{s("stop")}, {s("tgt"), s("stop")}} {
			v, ok := g.Lookup(s("r"), below)
			if !ok {
				t.Fatalf("k=%d: no vertex <r, %x>", k, below)
			}
			if ft.InScope[v] != 4 || ft.Exit[v] != 1 || ft.PostDom[v] {
				t.Errorf("k=%d <r, %x>: in %d exit %d pd %v; want 4 1 false", k, below, ft.InScope[v], ft.Exit[v], ft.PostDom[v])
			}
		}
	}
	if _, err := p.AICFG(MaxK+1, GraphOptions{}); err == nil {
		t.Error("k > MaxK accepted")
	}
	if _, err := p.AICFG(3, GraphOptions{MaxVertices: 5}); err == nil {
		t.Error("vertex limit ignored")
	}
}

// TestReportJSON round-trips the report.
func TestReportJSON(t *testing.T) {
	p := loadELF(t, "fig1.elf")
	g1, _ := p.AICFG(1, GraphOptions{})
	var buf bytes.Buffer
	if err := p.Report(p.ICFG(), g1).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Graphs) != 2 || r.Graphs[1].K != 1 || r.Roots[0].Symbol != "_start" {
		t.Errorf("report: %+v", r)
	}
	var foo *ReportProc
	for i := range r.Procedures {
		if r.Procedures[i].Name == "foo" {
			foo = &r.Procedures[i]
		}
	}
	if foo == nil || foo.Instructions != 3 || !reflect.DeepEqual(foo.CalledBy, []string{"_start"}) {
		t.Errorf("foo: %+v", foo)
	}
	var text bytes.Buffer
	p.Report(p.ICFG(), g1).WriteText(&text)
	for _, want := range []string{"_start -> __mc_error, foo", "AICFG(1)", "ICFG"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
}

// TestDecodeKinds checks the classification of control instructions.
func TestDecodeKinds(t *testing.T) {
	a := newAsm(0xD000)
	a.sym("_start", loader.SymNone, true)
	a.label("brset").rel("x1", 0x12, 0x10, 0x01) // brset *0x10, #1, x1
	a.label("brn").rel("brn", 0x21)
	a.label("bsr").rel("sub", opBSR)
	a.label("x1").b(0x00) // test: halt
	a.label("sub").b(opRTS)
	p := build(t, a.image("_start"))
	s := func(n string) uint16 { return a.labels[n] }
	for _, c := range []struct {
		at   string
		kind Kind
		next []uint16
	}{
		{"brset", KindBranch, []uint16{s("brn"), s("x1")}},
		{"brn", KindFlow, []uint16{s("bsr")}},
		{"bsr", KindCall, nil},
		{"x1", KindHalt, nil},
		{"sub", KindReturn, nil},
	} {
		x, ok := p.Instr(s(c.at))
		if !ok || x.Kind != c.kind || !reflect.DeepEqual(x.Next, c.next) {
			t.Errorf("%s: %+v", c.at, x)
		}
	}
	x, _ := p.Instr(s("bsr"))
	if x.Inst.Op != m68hc11.BSR || !reflect.DeepEqual(x.Callees, []uint16{s("sub")}) || x.Ret != s("x1") {
		t.Errorf("bsr: %+v", x)
	}
}
