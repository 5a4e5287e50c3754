package heuristics

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hc11mc/hc11mc/icfg"
	"github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// Target is what a heuristic measures the distance to: a set of addresses.
// A state of a thread is at distance 0 when its PC equals one of them.
type Target struct {
	Property Property
	Addrs    []uint16 // ascending
	Desc     string   // e.g. "__mc_error (0xD003)"
}

// stubFor is the harness stub each property aims at.
var stubFor = map[Property]loader.Stub{
	Assert:   loader.StubAssert,
	Error:    loader.StubError,
	Mutex:    loader.StubCSEnter,
	Deadlock: loader.StubLock,
}

// FindTargets computes the targets of a property in a disassembled
// program:
//
//   - error, assert, mutex: the address of __mc_error, __mc_assert,
//     __mc_cs_enter (a thread calling it is at distance 1, at the stub 0);
//   - deadlock: the address of __mc_lock and every WAI instruction (the
//     places where a thread can block);
//   - reach: the address of the symbol.
//
// Only addresses that are vertices of the ICFG count: a stub nothing calls
// is no target. With no target it returns ErrNoTarget (wrapped, saying
// why); a reach symbol the image lacks is ErrUnknownSymbol.
func FindTargets(prog *icfg.Program, p Property, reach string) (Target, error) {
	t := Target{Property: p}
	var desc []string
	switch p {
	case Reach:
		if reach == "" {
			return t, fmt.Errorf("%w: reach needs a symbol", ErrNoTarget)
		}
		s, ok := prog.Image.Lookup(reach)
		if !ok {
			return t, fmt.Errorf("%w %q", ErrUnknownSymbol, reach)
		}
		if _, ok := prog.Instr(s.Addr); !ok {
			return t, fmt.Errorf("%w: %s (0x%04X) is not code the disassembly reaches", ErrNoTarget, reach, s.Addr)
		}
		t.Addrs = []uint16{s.Addr}
		desc = append(desc, fmt.Sprintf("%s (0x%04X)", reach, s.Addr))
	case Error, Assert, Mutex, Deadlock:
		name := stubFor[p].String()
		for i := range prog.Instrs {
			x := &prog.Instrs[i]
			if x.Stub == name {
				t.Addrs = append(t.Addrs, x.Addr)
				desc = append(desc, fmt.Sprintf("%s (0x%04X)", name, x.Addr))
			}
		}
		if p == Deadlock {
			n := 0
			for i := range prog.Instrs {
				x := &prog.Instrs[i]
				if x.Stub == "" && x.Inst.Op == m68hc11.WAI {
					t.Addrs = append(t.Addrs, x.Addr)
					n++
				}
			}
			if n > 0 {
				desc = append(desc, fmt.Sprintf("%d WAI instruction(s)", n))
			}
		}
		if len(t.Addrs) == 0 {
			what := "no call of " + name
			if p == Deadlock {
				what += " and no WAI instruction"
			}
			return t, fmt.Errorf("%w: %s", ErrNoTarget, what)
		}
	default:
		return t, fmt.Errorf("unknown property %d", p)
	}
	sort.Slice(t.Addrs, func(i, j int) bool { return t.Addrs[i] < t.Addrs[j] })
	t.Desc = strings.Join(desc, ", ")
	return t, nil
}
