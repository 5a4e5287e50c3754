package heuristics

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/icfg"
	"github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// A generator of loop-free single-thread programs, with its own encoder and
// its own concrete control-flow semantics, so that the true distance is
// computed without the code under test.

type stmtKind uint8

const (
	sNop    stmtKind = iota // nop
	sCall                   // jsr proc
	sTarget                 // jsr __mc_error
	sBranch                 // beq to a later statement of the same procedure
	sTail                   // jmp proc (last statement only)
	sRet                    // rts (last statement only)
)

type stmt struct {
	kind stmtKind
	arg  int // callee procedure (sCall, sTail) or statement index (sBranch)
	addr uint16
}

func (s stmt) size() int {
	switch s.kind {
	case sNop, sRet:
		return 1
	case sBranch:
		return 2
	}
	return 3
}

// genProgram is a generated program: procedures of statements; procedure i
// only calls or tail-jumps to procedures j > i, and branches only go
// forward, so there are no loops and no recursion.
type genProgram struct {
	procs [][]stmt
	entry []uint16
	stub  uint16 // __mc_error
	code  []byte
	org   uint16
	goal  uint16 // the address of the statement labelled "goal"
	at    map[uint16]stmt
}

// generate makes a random program; branches allows conditional branches.
func generate(r *rand.Rand, branches bool) *genProgram {
	n := 1 + r.IntN(6)
	g := &genProgram{org: 0xD000, at: map[uint16]stmt{}}
	for i := 0; i < n; i++ {
		m := 1 + r.IntN(7)
		var body []stmt
		calls := 0
		for j := 0; j < m; j++ {
			k := sNop
			switch x := r.IntN(10); {
			case x < 4 && i+1 < n && calls < 3:
				k = sCall
				calls++
			case x < 5:
				k = sTarget
			case x < 7 && branches:
				k = sBranch
			}
			s := stmt{kind: k}
			if k == sCall {
				s.arg = i + 1 + r.IntN(n-i-1)
			}
			body = append(body, s)
		}
		if i+1 < n && r.IntN(4) == 0 {
			body = append(body, stmt{kind: sTail, arg: i + 1 + r.IntN(n-i-1)})
		} else {
			body = append(body, stmt{kind: sRet})
		}
		for j := range body {
			if body[j].kind == sBranch {
				body[j].arg = j + 1 + r.IntN(len(body)-j-1) // a later statement
			}
		}
		g.procs = append(g.procs, body)
	}
	// Layout: __mc_error first, then the procedures.
	g.stub = g.org
	a := g.org + 1
	for i := range g.procs {
		g.entry = append(g.entry, a)
		for j := range g.procs[i] {
			g.procs[i][j].addr = a
			a += uint16(g.procs[i][j].size())
		}
	}
	// Encode.
	g.code = []byte{0x39}
	for i := range g.procs {
		for _, s := range g.procs[i] {
			g.at[s.addr] = s
			switch s.kind {
			case sNop:
				g.code = append(g.code, 0x01)
			case sRet:
				g.code = append(g.code, 0x39)
			case sCall:
				g.code = append(g.code, 0xBD, byte(g.entry[s.arg]>>8), byte(g.entry[s.arg]))
			case sTarget:
				g.code = append(g.code, 0xBD, byte(g.stub>>8), byte(g.stub))
			case sTail:
				g.code = append(g.code, 0x7E, byte(g.entry[s.arg]>>8), byte(g.entry[s.arg]))
			case sBranch:
				d := int(g.procs[i][s.arg].addr) - int(s.addr) - 2
				g.code = append(g.code, 0x27, byte(int8(d)))
			}
		}
	}
	all := []uint16{}
	for a := range g.at {
		all = append(all, a)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	g.goal = all[r.IntN(len(all))]
	return g
}

// image wraps the program in a loader.Image with the reset vector at
// procedure 0.
func (g *genProgram) image() *loader.Image {
	img := &loader.Image{Path: "generated"}
	img.Segments = []loader.Segment{{Addr: g.org, Data: g.code, Name: ".text", Exec: true}}
	img.Symbols = []loader.Symbol{{Name: "__mc_error", Addr: g.stub, Kind: loader.SymNone, Global: true}}
	for i, e := range g.entry {
		img.Symbols = append(img.Symbols, loader.Symbol{Name: fmt.Sprintf("p%d", i), Addr: e, Kind: loader.SymNone})
	}
	img.Symbols = append(img.Symbols, loader.Symbol{Name: "goal", Addr: g.goal, Kind: loader.SymNone})
	sort.Slice(img.Symbols, func(i, j int) bool {
		if img.Symbols[i].Addr != img.Symbols[j].Addr {
			return img.Symbols[i].Addr < img.Symbols[j].Addr
		}
		return img.Symbols[i].Name < img.Symbols[j].Name
	})
	img.Vectors[m68hc11.VecReset], img.VectorLoaded[m68hc11.VecReset] = g.entry[0], true
	img.Entry, img.HasEntry = g.entry[0], true
	return img
}

// cstate is a concrete control state: PC and return addresses, innermost
// first.
type cstate struct {
	pc    uint16
	stack []uint16
}

func (s cstate) key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%04X", s.pc)
	for _, r := range s.stack {
		fmt.Fprintf(&b, ":%04X", r)
	}
	return b.String()
}

// push returns the stack with r on top.
func push(stack []uint16, r uint16) []uint16 {
	return append([]uint16{r}, stack...)
}

// succs is the concrete control flow: both ways at a branch.
func (g *genProgram) succs(s cstate) []cstate {
	if s.pc == g.stub { // the harness stub returns as RTS would
		return []cstate{{s.stack[0], s.stack[1:]}}
	}
	st := g.at[s.pc]
	switch st.kind {
	case sNop:
		return []cstate{{s.pc + 1, s.stack}}
	case sCall:
		return []cstate{{g.entry[st.arg], push(s.stack, s.pc+3)}}
	case sTarget:
		return []cstate{{g.stub, push(s.stack, s.pc+3)}}
	case sTail:
		return []cstate{{g.entry[st.arg], s.stack}}
	case sBranch:
		return []cstate{{s.pc + 2, s.stack}, {g.procs[procOf(g, s.pc)][st.arg].addr, s.stack}}
	case sRet:
		if len(s.stack) == 0 {
			return nil // the thread ends
		}
		return []cstate{{s.stack[0], s.stack[1:]}}
	}
	panic("unknown statement")
}

// procOf finds the procedure containing addr.
func procOf(g *genProgram, addr uint16) int {
	for i := len(g.entry) - 1; i >= 0; i-- {
		if addr >= g.entry[i] {
			return i
		}
	}
	return 0
}

// trueDistances explores every state reachable from the entry and returns
// them with their exact shortest distance to a target (Inf: none). The
// program has no loops, so the state graph is a DAG and the distance is a
// memoised minimum over successors.
func (g *genProgram) trueDistances(targets map[uint16]bool) ([]cstate, map[string]int) {
	dist := map[string]int{}
	var order []cstate
	var visit func(s cstate) int
	visit = func(s cstate) int {
		k := s.key()
		if d, ok := dist[k]; ok {
			return d
		}
		order = append(order, s)
		d := Inf
		for _, n := range g.succs(s) {
			if x := visit(n); x < Inf && x+1 < d {
				d = x + 1
			}
		}
		if targets[s.pc] {
			d = 0
		}
		dist[k] = d
		return d
	}
	visit(cstate{g.entry[0], nil})
	return order, dist
}

// walk follows a deterministic program from s and counts the steps until a
// target (Inf if the thread ends first).
func (g *genProgram) walk(s cstate, targets map[uint16]bool) int {
	for n := 0; ; n++ {
		if targets[s.pc] {
			return n
		}
		next := g.succs(s)
		if len(next) == 0 {
			return Inf
		}
		if len(next) != 1 {
			panic("walk on a program with branches")
		}
		s = next[0]
	}
}

// TestPropertyEFSM checks the heuristics against the true distance on
// generated loop-free programs: without branches efsm equals the distance
// of the one path; with branches it never exceeds the shortest distance
// (and here equals it: control flow is all the tables know); fsm ≤ aicfg
// ≤ efsm everywhere; every k gives the same efsm; the memo table agrees
// with a fresh computation.
func TestPropertyEFSM(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	programs := 400
	if testing.Short() {
		programs = 60
	}
	states := 0
	for n := 0; n < programs; n++ {
		branches := n%2 == 1
		g := generate(r, branches)
		prog, err := icfg.Build(g.image(), icfg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, prop := range []Property{Error, Reach} {
			targets := map[uint16]bool{g.stub: true}
			if prop == Reach {
				targets = map[uint16]bool{g.goal: true}
			}
			order, dist := g.trueDistances(targets)
			if _, err := FindTargets(prog, prop, "goal"); errors.Is(err, ErrNoTarget) {
				// No target: it must be out of reach of the program.
				if d := dist[order[0].key()]; d != Inf {
					t.Fatalf("program %d: %v, but the target is %d steps away\n%s", n, err, d, g.listing())
				}
				continue
			}
			mk := func(k Kind, kk, memo int) *Heuristic {
				h, err := NewFromProgram(prog, Config{Kind: k, K: kk, Property: prop, Reach: "goal", MemoLimit: memo})
				if err != nil {
					t.Fatalf("program %d: %v", n, err)
				}
				return h
			}
			fsm := mk(FSM, 0, 0)
			aicfg1, aicfg2 := mk(AICFG, 1, 0), mk(AICFG, 2, 0)
			efsm := []*Heuristic{mk(EFSM, 0, 0), mk(EFSM, 1, 0), mk(EFSM, 2, 0), mk(EFSM, 1, 8)}
			// Visit the states in a random order so that memo hits and
			// misses interleave.
			perm := r.Perm(len(order))
			for _, i := range perm {
				s := order[i]
				states++
				want := dist[s.key()]
				if !branches {
					if w := g.walk(s, targets); w != want {
						t.Fatalf("program %d: walk %d, exploration %d", n, w, want)
					}
				}
				e := efsm[1].Estimate(s.pc, s.stack)
				fail := func(what string, got int) {
					t.Fatalf("program %d (%s, branches=%v) at %s: %s = %d; true %d, efsm %d\n%s",
						n, prop, branches, s.key(), what, got, want, e, g.listing())
				}
				if e != want {
					fail("efsm k=1", e)
				}
				for k, h := range efsm {
					if got := h.Estimate(s.pc, s.stack); got != e {
						fail(fmt.Sprintf("efsm #%d (k=%d)", k, h.K()), got)
					}
				}
				fresh := efsm[1].Clone()
				if got := fresh.Estimate(s.pc, s.stack); got != e {
					fail("efsm with a fresh memo", got)
				}
				f, a1, a2 := fsm.Estimate(s.pc, s.stack), aicfg1.Estimate(s.pc, s.stack), aicfg2.Estimate(s.pc, s.stack)
				if !(f <= a1 && a1 <= a2 && a2 <= e) {
					t.Fatalf("program %d at %s: fsm %d, aicfg1 %d, aicfg2 %d, efsm %d: not monotone\n%s",
						n, s.key(), f, a1, a2, e, g.listing())
				}
			}
		}
	}
	t.Logf("%d programs, %d states checked", programs, states)
}

// listing prints a generated program for failure messages.
func (g *genProgram) listing() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%04X __mc_error: rts\n", g.stub)
	for i, body := range g.procs {
		for j, s := range body {
			label := "      "
			if j == 0 {
				label = fmt.Sprintf("p%d:   ", i)
			}
			var ins string
			switch s.kind {
			case sNop:
				ins = "nop"
			case sRet:
				ins = "rts"
			case sCall:
				ins = fmt.Sprintf("jsr p%d", s.arg)
			case sTarget:
				ins = "jsr __mc_error"
			case sTail:
				ins = fmt.Sprintf("jmp p%d", s.arg)
			case sBranch:
				ins = fmt.Sprintf("beq %04X", body[s.arg].addr)
			}
			goal := ""
			if s.addr == g.goal {
				goal = "   <- goal"
			}
			fmt.Fprintf(&b, "%04X %s%s%s\n", s.addr, label, ins, goal)
		}
	}
	return b.String()
}
