package devices

import (
	"fmt"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
)

// Matcher recognises the bytes the SCI sends that contain a match of a
// regular expression (Go syntax, each byte taken as the character of the
// same code, Latin-1), as a deterministic automaton: its state is two
// bytes of a Block, so that states that printed different things but can
// still match alike are one state.
type Matcher struct {
	expr  string
	next_ []uint16 // [state*256 + byte]
	acc   []bool
}

// maxMatchStates bounds the automaton.
const maxMatchStates = 4096

// CompileMatcher builds the matcher of expr. A match may start anywhere
// in the output; ^ and \A match at its start only; $, \z and word
// boundaries are refused (the output never ends).
func CompileMatcher(expr string) (*Matcher, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, err
	}
	for _, in := range prog.Inst {
		if in.Op == syntax.InstEmptyWidth && syntax.EmptyOp(in.Arg)&^(syntax.EmptyBeginText|syntax.EmptyBeginLine) != 0 {
			return nil, fmt.Errorf("%q: only ^ and \\A are supported among the empty-width assertions: the output has no end", expr)
		}
	}
	m := &Matcher{expr: expr}
	// closure adds pc and what it reaches without consuming a byte.
	var closure func(set []uint32, pc uint32, start bool) []uint32
	closure = func(set []uint32, pc uint32, start bool) []uint32 {
		if slices.Contains(set, pc) {
			return set
		}
		set = append(set, pc)
		in := &prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			set = closure(set, in.Out, start)
			set = closure(set, in.Arg, start)
		case syntax.InstCapture, syntax.InstNop:
			set = closure(set, in.Out, start)
		case syntax.InstEmptyWidth:
			if start {
				set = closure(set, in.Out, start)
			}
		}
		return set
	}
	key := func(set []uint32) string {
		slices.Sort(set)
		var b strings.Builder
		for _, pc := range set {
			b.WriteString(strconv.Itoa(int(pc)))
			b.WriteByte(',')
		}
		return b.String()
	}
	restart := closure(nil, uint32(prog.Start), false)
	first := closure(nil, uint32(prog.Start), true)
	sets := [][]uint32{first}
	ids := map[string]uint16{key(first): 0}
	for at := 0; at < len(sets); at++ {
		cur := sets[at]
		acc := false
		for _, pc := range cur {
			acc = acc || prog.Inst[pc].Op == syntax.InstMatch
		}
		m.acc = append(m.acc, acc)
		row := make([]uint16, 256)
		for c := range 256 {
			var nx []uint32
			for _, pc := range cur {
				in := &prog.Inst[pc]
				switch in.Op {
				case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
					if in.MatchRune(rune(c)) {
						nx = closure(nx, in.Out, false)
					}
				}
			}
			for _, pc := range restart {
				nx = closure(nx, pc, false)
			}
			k := key(nx)
			id, ok := ids[k]
			if !ok {
				if len(sets) >= maxMatchStates {
					return nil, fmt.Errorf("%q: the automaton needs more than %d states", expr, maxMatchStates)
				}
				id = uint16(len(sets))
				ids[k] = id
				sets = append(sets, nx)
			}
			row[c] = id
		}
		m.next_ = append(m.next_, row...)
	}
	return m, nil
}

// String returns the expression.
func (m *Matcher) String() string { return m.expr }

func (m *Matcher) next(st uint16, c uint8) uint16 { return m.next_[int(st)*256+int(c)] }

func (m *Matcher) accept(st uint16) bool { return int(st) < len(m.acc) && m.acc[st] }

// Match reports whether out contains a match (as the automaton sees it).
func (m *Matcher) Match(out []byte) bool {
	var st uint16
	if m.accept(st) {
		return true
	}
	for _, c := range out {
		st = m.next(st, c)
		if m.accept(st) {
			return true
		}
	}
	return false
}
