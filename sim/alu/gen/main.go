// Command gen writes sim/alu.go, the concrete arithmetic of the 68HC11, from
// the generic functions of package alu (sim/alu/alu.go): each becomes a
// function over uint8, uint16 and bool, without the domain parameter, and
// each call of a Domain method becomes the Go operator it stands for, so
// that the simulator runs plain integer code (see package alu's doc).
//
// It writes sim/ops.go, the simulator's instruction dispatch, from the
// generic functions of package ops (sim/ops/ops.go) the same way: each
// becomes a method of sim's stepper, each call of a Machine method the
// simulator's code for it (a register field of the thread t, a memory
// access, the shadow call stack, a scheduling event: machineExprs and
// machineStmts), and each call of package alu the generated function.
// Exec's body goes into the simulator's loop, in place of the statement
// exec(in, pc, ea) of sim/steps.in.go, so that no call separates the
// dispatch from the loop: the loop holds the hot values in registers, and
// a call per instruction measured about thirty machine instructions more
// per step. There the dispatch sets the loop's npc (the next PC) and ev
// (the step's event), or returns from it.
//
// Usage, from directory sim (go generate does this):
//
//	go run ./alu/gen
//
// The input may use only the constructs the rewriting knows (identifiers,
// constants, selectors such as isa.FlagC, unary and binary operators on Go
// values, calls, assignments, if, switch and return); anything else stops
// the generator with the position, so that the two domains cannot drift
// apart silently.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"unicode"
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// The sources and the files generated from them, relative to sim.
var (
	aluIn  = filepath.Join("alu", "alu.go")
	aluOut = "alu.go"
	opsIn  = filepath.Join("ops", "ops.go")
	hostIn = "steps.in.go"
	opsOut = "ops.go"
)

func run() error {
	src, err := os.ReadFile(aluIn)
	if err != nil {
		return err
	}
	b, err := generate(aluIn, src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(aluOut, b, 0o644); err != nil {
		return err
	}
	if src, err = os.ReadFile(opsIn); err != nil {
		return err
	}
	host, err := os.ReadFile(hostIn)
	if err != nil {
		return err
	}
	if b, err = generateOps(opsIn, src, hostIn, host); err != nil {
		return err
	}
	return os.WriteFile(opsOut, b, 0o644)
}

// templates gives, for each Domain method, the Go expression it stands for
// over concrete values; a0, a1, a2 are its arguments.
var templates = map[string]string{
	"K8": "a0", "K16": "a0", "KF": "a0",
	"Add8": "a0 + a1", "Sub8": "a0 - a1", "And8": "a0 & a1", "Or8": "a0 | a1",
	"Xor8": "a0 ^ a1", "AndNot8": "a0 &^ a1", "Not8": "^a0",
	"Shl8": "a0 << a1", "Shr8": "a0 >> a1",
	"Eq8": "a0 == a1", "Ult8": "a0 < a1", "Ite8": "ite8(a0, a1, a2)",
	"Add16": "a0 + a1", "Sub16": "a0 - a1", "And16": "a0 & a1", "Or16": "a0 | a1",
	"AndNot16": "a0 &^ a1", "Not16": "^a0",
	"Shl16": "a0 << a1", "Shr16": "a0 >> a1",
	"Eq16": "a0 == a1", "Ult16": "a0 < a1", "Ite16": "ite16(a0, a1, a2)",
	"Mul16": "a0 * a1", "UDiv16": "udiv16(a0, a1)", "URem16": "urem16(a0, a1)",
	"FracQuo16": "fracQuo16(a0, a1)", "FracRem16": "fracRem16(a0, a1)",
	"Wide": "uint16(a0)", "Lo": "uint8(a0)", "Hi": "uint8(a0 >> 8)",
	"Pair": "uint16(a0)<<8 | uint16(a1)", "Bit": "b2u(a0)",
	"Not": "!a0", "And": "a0 && a1", "Or": "a0 || a1", "Xor": "a0 != a1",
}

// machineExprs gives, for each method of package ops's Machine that
// stands for a value or a call, the simulator's expression for it, as
// templates does for the Domain methods: t is the stepper's thread, x the
// stepper.
var machineExprs = map[string]string{
	"A": "t.A", "B": "t.B", "X": "t.X", "Y": "t.Y", "CCR": "t.CCR", "SP": "t.SP",
	"Read8": "x.read8(a0)", "Write8": "x.write8(a0, a1)", "Push8": "x.push8(a0)", "Pull8": "x.pull8()",
	"LoadSP": "x.loadSP(a0)", "StackTop": "x.stackTop()", "Pulled": "t.dropDeadShadow()",
	"Frame": "t.pushShadow(t.SP + 1)", "SWI": "x.swiVectored(a0)",
}

// machineStmts gives, for the other Machine methods, the simulator's
// statements; $0 and $1 are the arguments (one used twice must be a name
// or a constant). npc, ev, n and in are the loop's (steps.in.go): the
// methods that use them are called from Exec alone (package ops says
// which).
var machineStmts = map[string]string{
	"SetA": "t.A = $0", "SetB": "t.B = $0", "SetX": "t.X = $0", "SetY": "t.Y = $0", "SetCCR": "t.CCR = $0", "SetMask": "t.CCR = $0\nx.stop = true",
	"IncSP":      "t.SP++\nt.dropDeadShadow()",
	"DecSP":      "x.exposeTo(t.SP - 1)\nt.SP--",
	"Branch":     "if $0 {\nnpc = $1\n}",
	"Jump":       "npc = $0",
	"Sched":      "ev = evSched",
	"ReturnSub":  "to, exited := x.rts($0)\nif exited {\nreturn n + 1, evSched\n}\nnpc, ev = to, evSched",
	"ReturnInt":  "npc, ev = x.rti(), evSched",
	"JumpVector": "npc = x.m.Image.Vectors[$0]",
	"Wait":       "x.wait()\nev = evSched",
	"Stop":       "if t.CCR&isa.FlagS == 0 {\nt.Status = Stopped\nev = evSched\n}",
	"Test":       "return n + 1, x.illegal($0, *in, \"TEST is legal only in test modes\")",
}

// aluCalls gives the simulator's form of the functions of package alu
// that are not the generated function itself: a branch condition is one
// lookup in a table built from the generated branchTaken.
var aluCalls = map[string]string{
	"BranchTaken": "branchTab[a0&15]>>(a1&15)&1 != 0",
}

// passCalls are the functions a source may call on plain Go values.
var passCalls = map[string]bool{"uint8": true, "uint16": true, "int": true, "panic": true}

// types maps the domain's type parameters to the concrete types.
var types = map[string]string{"B": "uint8", "W": "uint16", "F": "bool"}

const header = `// Code generated by "go run ./alu/gen" from sim/alu/alu.go; DO NOT EDIT.

package sim

import isa "github.com/hc11mc/hc11mc/isa/m68hc11"

// The arithmetic of the 68HC11 over plain values, generated from the
// generic functions of package alu, which package symbolic instantiates
// with bit-vector terms: change alu/alu.go and run go generate.

//go:generate go run ./alu/gen
`

const opsHeader = `// Code generated by "go run ./alu/gen" from sim/steps.in.go and sim/ops/ops.go; DO NOT EDIT.

`

// opsTrailer introduces the functions of package ops after the loop.
const opsTrailer = `
// The functions of package ops that the dispatch calls, generated like
// it: package symbolic instantiates them with bit-vector terms; change
// ops/ops.go and run go generate.
`

// helpers are the concrete forms of the Domain methods that are not one
// Go operator.
const helpers = `
func ite8(c bool, a, b uint8) uint8 {
	if c {
		return a
	}
	return b
}

func ite16(c bool, a, b uint16) uint16 {
	if c {
		return a
	}
	return b
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// udiv16 and urem16 divide as SMT-LIB does: by zero, the quotient is all
// ones and the remainder the dividend.
func udiv16(a, b uint16) uint16 {
	if b == 0 {
		return 0xffff
	}
	return a / b
}

func urem16(a, b uint16) uint16 {
	if b == 0 {
		return a
	}
	return a % b
}

// fracQuo16 and fracRem16 are the quotient and remainder of (a << 16) / b.
func fracQuo16(a, b uint16) uint16 {
	if b == 0 {
		return 0xffff
	}
	return uint16(uint32(a) << 16 / uint32(b))
}

func fracRem16(a, b uint16) uint16 {
	if b == 0 {
		return 0
	}
	return uint16(uint32(a) << 16 % uint32(b))
}

// branchTab[op&15] has bit ccr&15 set when the conditional branch with
// that low opcode nibble is taken under those N Z V C bits.
var branchTab = func() (t [16]uint16) {
	for op := 0; op < 16; op++ {
		for c := 0; c < 16; c++ {
			if branchTaken(uint8(0x20|op), uint8(c)) {
				t[op] |= 1 << c
			}
		}
	}
	return t
}()
`

// concreteName is the name a generic function gets in package sim:
// exported names start lower-case.
func concreteName(n string) string {
	r := []rune(n)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

// generate returns the concrete file for the generic source src of
// package alu.
func generate(name string, src []byte) ([]byte, error) {
	g, f, err := parseGeneric(name, src, false)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteString(header)
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !g.funcs[fd.Name.Name] {
			continue
		}
		if err := g.function(&out, fd); err != nil {
			return nil, err
		}
	}
	out.WriteString(helpers)
	b, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the generated code: %v\n%s", err, out.Bytes())
	}
	return b, nil
}

// generateOps returns sim's loop, the host source host with package ops's
// dispatch (src) written into it, followed by the other functions of
// package ops as methods of the stepper.
func generateOps(name string, src []byte, hostName string, host []byte) ([]byte, error) {
	g, f, err := parseGeneric(name, src, true)
	if err != nil {
		return nil, err
	}
	fset := g.fset
	var helpers bytes.Buffer
	helpers.WriteString(opsTrailer)
	var dispatch, call string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !g.funcs[fd.Name.Name] {
			continue
		}
		if fd.Name.Name != "Exec" {
			if err := g.function(&helpers, fd); err != nil {
				return nil, err
			}
			continue
		}
		params := fd.Type.Params.List
		if len(params) == 0 || len(params[0].Names) != 1 || fd.Type.Results != nil {
			return nil, fmt.Errorf("%s: Exec takes the machine first and returns nothing", fset.Position(fd.Pos()))
		}
		g.dom = params[0].Names[0].Name
		var names []string
		for _, p := range params[1:] {
			for _, n := range p.Names {
				names = append(names, n.Name)
			}
		}
		call = "exec(" + strings.Join(names, ", ") + ")"
		body := g.block(fd.Body)
		if g.err != nil {
			return nil, g.err
		}
		clearPos(body)
		var b bytes.Buffer
		if err := printer.Fprint(&b, token.NewFileSet(), body); err != nil {
			return nil, err
		}
		text := strings.TrimSpace(b.String())
		dispatch = strings.TrimSpace(text[1 : len(text)-1])
	}
	if call == "" {
		return nil, fmt.Errorf("%s: no function Exec", name)
	}
	var out bytes.Buffer
	out.WriteString(opsHeader)
	found := 0
	inHeader := true // the host's own header, before its package clause, stays there
	for i, l := range strings.Split(string(host), "\n") {
		if inHeader = inHeader && !strings.HasPrefix(l, "package "); inHeader {
			continue
		}
		switch {
		case strings.TrimSpace(l) == call:
			found++
			out.WriteString(dispatch + "\n")
			continue
		case strings.Contains(l, call):
			return nil, fmt.Errorf("%s:%d: %s must stand alone on its line", hostName, i+1, call)
		}
		out.WriteString(l + "\n")
	}
	if found != 1 {
		return nil, fmt.Errorf("%s: %d statements %s, want 1", hostName, found, call)
	}
	out.Write(helpers.Bytes())
	b, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the generated code: %v\n%s", err, out.Bytes())
	}
	return b, nil
}

// parseGeneric parses a generic source and returns its generator, which
// knows the source's generic functions.
func parseGeneric(name string, src []byte, ops bool) (*gen, *ast.File, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, nil, err
	}
	g := &gen{fset: fset, funcs: map[string]bool{}, ops: ops}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Type.TypeParams != nil {
			g.funcs[fd.Name.Name] = true
		}
	}
	return g, f, nil
}

type gen struct {
	fset  *token.FileSet
	funcs map[string]bool // the generic functions of the source
	dom   string          // the name of the domain parameter of the function at hand
	err   error
	// ops: the source is package ops, whose functions become methods of
	// sim's stepper and whose domain is a Machine.
	ops bool
}

func (g *gen) fail(n ast.Node, format string, args ...any) {
	if g.err == nil {
		g.err = fmt.Errorf("%s: %s", g.fset.Position(n.Pos()), fmt.Sprintf(format, args...))
	}
}

// function writes the concrete form of the generic function fd.
func (g *gen) function(out *bytes.Buffer, fd *ast.FuncDecl) error {
	params := fd.Type.Params.List
	if len(params) == 0 || len(params[0].Names) != 1 {
		return fmt.Errorf("%s: %s: the first parameter must be the domain alone", g.fset.Position(fd.Pos()), fd.Name.Name)
	}
	g.dom = params[0].Names[0].Name
	name := concreteName(fd.Name.Name)
	if fd.Doc != nil {
		doc := fd.Doc.Text()
		if strings.HasPrefix(doc, fd.Name.Name+" ") {
			doc = name + doc[len(fd.Name.Name):]
		}
		out.WriteString("\n")
		for _, l := range strings.Split(strings.TrimRight(doc, "\n"), "\n") {
			out.WriteString(strings.TrimRight("// "+l, " ") + "\n")
		}
	}
	nf := &ast.FuncDecl{
		Name: ast.NewIdent(name),
		Type: &ast.FuncType{
			Params:  g.fields(&ast.FieldList{List: params[1:]}),
			Results: g.fields(fd.Type.Results),
		},
		Body: g.block(fd.Body),
	}
	if g.err != nil {
		return g.err
	}
	if g.ops {
		nf.Recv = &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{ast.NewIdent("x")}, Type: &ast.StarExpr{X: ast.NewIdent("stepper")}}}}
		if usesThread(nf.Body) {
			t := &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("t")}, Tok: token.DEFINE,
				Rhs: []ast.Expr{&ast.SelectorExpr{X: ast.NewIdent("x"), Sel: ast.NewIdent("t")}}}
			nf.Body.List = append([]ast.Stmt{t}, nf.Body.List...)
		}
	}
	clearPos(nf)
	if err := printer.Fprint(out, token.NewFileSet(), nf); err != nil {
		return err
	}
	out.WriteString("\n")
	return nil
}

func (g *gen) fields(l *ast.FieldList) *ast.FieldList {
	if l == nil {
		return nil
	}
	n := &ast.FieldList{}
	for _, f := range l.List {
		n.List = append(n.List, &ast.Field{Names: f.Names, Type: g.typ(f.Type)})
	}
	return n
}

func (g *gen) typ(e ast.Expr) ast.Expr {
	if id, ok := e.(*ast.Ident); ok {
		if t, ok := types[id.Name]; ok {
			return ast.NewIdent(t)
		}
		return id
	}
	switch e := e.(type) {
	case *ast.StarExpr:
		return &ast.StarExpr{X: g.typ(e.X)}
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return &ast.SelectorExpr{X: ast.NewIdent(x.Name), Sel: ast.NewIdent(e.Sel.Name)}
		}
	}
	g.fail(e, "unsupported type %T", e)
	return e
}

func (g *gen) block(b *ast.BlockStmt) *ast.BlockStmt {
	if b == nil {
		return nil
	}
	n := &ast.BlockStmt{}
	for _, s := range b.List {
		n.List = append(n.List, g.stmts(s)...)
	}
	return n
}

// stmts rewrites a statement, which a Machine method's template may make
// several.
func (g *gen) stmts(s ast.Stmt) []ast.Stmt {
	if es, ok := s.(*ast.ExprStmt); ok {
		if l, ok := g.machineStmt(es.X); ok {
			return l
		}
	}
	return []ast.Stmt{g.stmt(s)}
}

// machineStmt rewrites a call of a Machine method whose template is
// statements (machineStmts); ok is false for any other expression.
func (g *gen) machineStmt(e ast.Expr) (l []ast.Stmt, ok bool) {
	if !g.ops {
		return nil, false
	}
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	fn, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	if x, ok := fn.X.(*ast.Ident); !ok || x.Name != g.dom {
		return nil, false
	}
	text, ok := machineStmts[fn.Sel.Name]
	if !ok {
		return nil, false
	}
	for i, a := range g.exprs(c.Args) {
		ph := fmt.Sprintf("$%d", i)
		if strings.Count(text, ph) > 1 {
			switch a.(type) {
			case *ast.Ident, *ast.BasicLit:
			default:
				g.fail(c, "%s uses its argument %d twice: pass a name", fn.Sel.Name, i)
				return nil, true
			}
		}
		var b bytes.Buffer
		if err := printer.Fprint(&b, token.NewFileSet(), g.paren(a)); err != nil {
			g.fail(c, "%v", err)
			return nil, true
		}
		text = strings.ReplaceAll(text, ph, b.String())
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+text+"\n}", 0)
	if err != nil {
		g.fail(c, "template of %s: %v", fn.Sel.Name, err)
		return nil, true
	}
	l = f.Decls[0].(*ast.FuncDecl).Body.List
	for _, s := range l {
		if a, ok := s.(*ast.AssignStmt); ok {
			a.Rhs = unparen(a.Rhs)
		}
	}
	return l, true
}

// usesThread reports whether a method's body names the thread t.
func usesThread(b *ast.BlockStmt) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && id.Name == "t" {
					found = true
				}
				return !found
			})
			return false
		case *ast.Ident:
			if n.Name == "t" {
				found = true
			}
		}
		return !found
	})
	return found
}

func (g *gen) stmt(s ast.Stmt) ast.Stmt {
	switch s := s.(type) {
	case *ast.AssignStmt:
		return &ast.AssignStmt{Lhs: g.exprs(s.Lhs), Tok: s.Tok, Rhs: unparen(g.exprs(s.Rhs))}
	case *ast.ReturnStmt:
		return &ast.ReturnStmt{Results: unparen(g.exprs(s.Results))}
	case *ast.ExprStmt:
		return &ast.ExprStmt{X: g.expr(s.X)}
	case *ast.BlockStmt:
		return g.block(s)
	case *ast.IfStmt:
		n := &ast.IfStmt{Cond: g.expr(s.Cond), Body: g.block(s.Body)}
		if s.Init != nil {
			n.Init = g.stmt(s.Init)
		}
		if s.Else != nil {
			n.Else = g.stmt(s.Else)
		}
		return n
	case *ast.SwitchStmt:
		n := &ast.SwitchStmt{Tag: g.expr(s.Tag), Body: &ast.BlockStmt{}}
		for _, c := range s.Body.List {
			cc := c.(*ast.CaseClause)
			nc := &ast.CaseClause{List: g.exprs(cc.List)}
			for _, b := range cc.Body {
				nc.Body = append(nc.Body, g.stmts(b)...)
			}
			n.Body.List = append(n.Body.List, nc)
		}
		return n
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			break
		}
		nd := &ast.GenDecl{Tok: token.VAR}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			nd.Specs = append(nd.Specs, &ast.ValueSpec{Names: vs.Names, Type: g.typ(vs.Type), Values: g.exprs(vs.Values)})
		}
		return &ast.DeclStmt{Decl: nd}
	}
	g.fail(s, "unsupported statement %T", s)
	return s
}

func (g *gen) exprs(l []ast.Expr) []ast.Expr {
	var n []ast.Expr
	for _, e := range l {
		n = append(n, g.expr(e))
	}
	return n
}

func (g *gen) expr(e ast.Expr) ast.Expr {
	if e == nil {
		return nil
	}
	switch e := e.(type) {
	case *ast.Ident:
		if e.Name == g.dom {
			g.fail(e, "the domain %s used other than to call a method or pass it on", g.dom)
		}
		if g.ops && (e.Name == "x" || e.Name == "t") {
			g.fail(e, "%s is the stepper's or its thread's name in the generated code", e.Name)
		}
		return ast.NewIdent(e.Name)
	case *ast.BasicLit:
		return &ast.BasicLit{Kind: e.Kind, Value: e.Value}
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok && x.Name != g.dom {
			return &ast.SelectorExpr{X: ast.NewIdent(x.Name), Sel: ast.NewIdent(e.Sel.Name)}
		}
	case *ast.ParenExpr:
		return &ast.ParenExpr{X: g.expr(e.X)}
	case *ast.UnaryExpr:
		return &ast.UnaryExpr{Op: e.Op, X: g.paren(g.expr(e.X))}
	case *ast.BinaryExpr:
		return &ast.BinaryExpr{X: g.paren(g.expr(e.X)), Op: e.Op, Y: g.paren(g.expr(e.Y))}
	case *ast.CallExpr:
		return g.call(e)
	}
	g.fail(e, "unsupported expression %T", e)
	return e
}

// call rewrites a call: a Domain method becomes its template, a generic
// function of the source its concrete form without the domain argument (a
// method of the stepper for package ops), a function of package alu
// called from package ops its generated form, and a conversion, panic or
// a method of a plain Go value stays.
func (g *gen) call(c *ast.CallExpr) ast.Expr {
	switch fn := c.Fun.(type) {
	case *ast.SelectorExpr:
		if x, ok := fn.X.(*ast.Ident); ok && x.Name == g.dom {
			t, ok := templates[fn.Sel.Name]
			if g.ops && !ok {
				t, ok = machineExprs[fn.Sel.Name]
				if _, stmt := machineStmts[fn.Sel.Name]; stmt {
					g.fail(c, "%s is a statement, used as a value", fn.Sel.Name)
					return c
				}
			}
			if !ok {
				g.fail(c, "no template for the domain method %s", fn.Sel.Name)
				return c
			}
			tmpl, err := parser.ParseExpr(t)
			if err != nil {
				g.fail(c, "template of %s: %v", fn.Sel.Name, err)
				return c
			}
			args := g.exprs(c.Args)
			return g.paren(substitute(tmpl, args))
		}
	case *ast.Ident:
		if g.funcs[fn.Name] {
			if len(c.Args) == 0 {
				g.fail(c, "%s called without the domain", fn.Name)
				return c
			}
			if d, ok := c.Args[0].(*ast.Ident); !ok || d.Name != g.dom {
				g.fail(c, "%s: the first argument must be the domain %s", fn.Name, g.dom)
				return c
			}
			if g.ops {
				return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent("x"), Sel: ast.NewIdent(concreteName(fn.Name))},
					Args: unparen(g.exprs(c.Args[1:]))}
			}
			return &ast.CallExpr{Fun: ast.NewIdent(concreteName(fn.Name)), Args: unparen(g.exprs(c.Args[1:]))}
		}
		if passCalls[fn.Name] {
			return &ast.CallExpr{Fun: ast.NewIdent(fn.Name), Args: unparen(g.exprs(c.Args))}
		}
	}
	if fn, ok := c.Fun.(*ast.SelectorExpr); ok {
		if x, ok := fn.X.(*ast.Ident); ok && g.ops && x.Name == "alu" {
			return g.aluCall(c, fn.Sel.Name)
		}
		if x, ok := fn.X.(*ast.Ident); ok && x.Name != g.dom && x.Name != "alu" {
			return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(x.Name), Sel: ast.NewIdent(fn.Sel.Name)},
				Args: unparen(g.exprs(c.Args))}
		}
	}
	g.fail(c, "unsupported call")
	return c
}

// aluCall rewrites a call of package alu's function name from package
// ops: the generated function, or its form in aluCalls.
func (g *gen) aluCall(c *ast.CallExpr, name string) ast.Expr {
	if len(c.Args) == 0 {
		g.fail(c, "alu.%s called without the domain", name)
		return c
	}
	if d, ok := c.Args[0].(*ast.Ident); !ok || d.Name != g.dom {
		g.fail(c, "alu.%s: the first argument must be the domain %s", name, g.dom)
		return c
	}
	args := g.exprs(c.Args[1:])
	if t, ok := aluCalls[name]; ok {
		tmpl, err := parser.ParseExpr(t)
		if err != nil {
			g.fail(c, "template of alu.%s: %v", name, err)
			return c
		}
		return g.paren(substitute(tmpl, args))
	}
	return &ast.CallExpr{Fun: ast.NewIdent(concreteName(name)), Args: unparen(args)}
}

// paren wraps a compound expression in parentheses, so that a template's
// operator never binds into its neighbours.
func (g *gen) paren(e ast.Expr) ast.Expr {
	switch e.(type) {
	case *ast.BinaryExpr, *ast.UnaryExpr:
		return &ast.ParenExpr{X: e}
	}
	return e
}

// substitute replaces the identifiers a0, a1, a2 of a template by args.
func substitute(e ast.Expr, args []ast.Expr) ast.Expr {
	arg := func(x ast.Expr) ast.Expr {
		if id, ok := x.(*ast.Ident); ok && len(id.Name) == 2 && id.Name[0] == 'a' && id.Name[1] >= '0' && id.Name[1] <= '2' {
			a := args[id.Name[1]-'0']
			switch a.(type) {
			case *ast.BinaryExpr, *ast.UnaryExpr:
				return &ast.ParenExpr{X: a}
			}
			return a
		}
		if _, ok := x.(*ast.Ident); ok {
			return x
		}
		return substitute(x, args)
	}
	switch e := e.(type) {
	case *ast.Ident:
		return arg(e)
	case *ast.BinaryExpr:
		return &ast.BinaryExpr{X: arg(e.X), Op: e.Op, Y: arg(e.Y)}
	case *ast.UnaryExpr:
		return &ast.UnaryExpr{Op: e.Op, X: arg(e.X)}
	case *ast.ParenExpr:
		return &ast.ParenExpr{X: arg(e.X)}
	case *ast.IndexExpr:
		return &ast.IndexExpr{X: arg(e.X), Index: arg(e.Index)}
	case *ast.CallExpr:
		n := &ast.CallExpr{Fun: e.Fun}
		for _, a := range e.Args {
			n.Args = append(n.Args, arg(a))
		}
		n.Args = unparen(n.Args)
		return n
	}
	return e
}

// unparen drops the parentheses around each expression of a list that
// stands alone (an argument, a result, the right of an assignment).
func unparen(l []ast.Expr) []ast.Expr {
	for i, e := range l {
		for {
			p, ok := e.(*ast.ParenExpr)
			if !ok {
				break
			}
			e = p.X
		}
		l[i] = e
	}
	return l
}

// clearPos zeroes every position in the tree, so that the printer lays
// the new code out by itself instead of after the template's positions.
func clearPos(n any) {
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value)
	posType := reflect.TypeOf(token.NoPos)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem())
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				f := v.Field(i)
				if f.Type() == posType && f.CanSet() {
					f.SetInt(0)
					continue
				}
				walk(f)
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(n))
}
