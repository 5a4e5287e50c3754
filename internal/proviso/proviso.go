// Package proviso is the cycle proviso of partial-order reduction (C3 in
// sim/reduce.go) as the explicit search (package search) and the symbolic
// state traversal (package symbolic) both apply it: every cycle of the
// reduced state graph must hold a state expanded in full.
//
// Each stored state carries a byte of flags: its expansion has begun
// (Expanded), by one transition alone (Reduced), and it must be expanded
// in full (Full). A state is marked expanded and reduced when its reduced
// expansion is tried, so that a transition back to itself is refused, and
// the reduced mark is taken back if it is expanded in full. An ample
// transition is taken when its state is new; or stored and expanded in
// full; or stored and not expanded yet, which it must then be in full.
// Any cycle of the reduced graph has a state stored first, v; the
// transition into v from its predecessor on the cycle was followed after v
// was stored, so either that predecessor was expanded in full, or v was
// (already, or as it was then marked to be).
package proviso

import "github.com/hc11mc/hc11mc/internal/mutation"

// The flags.
const (
	Expanded uint8 = 1 << iota // its expansion has begun
	Reduced                    // by one transition alone
	Full                       // an ample transition leads to it: it must be expanded in full
)

// Try reports whether a state whose flags are fl (nil: none kept) may be
// expanded by one transition alone, and marks it tentatively.
func Try(fl *uint8) bool {
	if fl == nil {
		return true
	}
	if *fl&Full != 0 {
		return false
	}
	*fl |= Expanded | Reduced
	return true
}

// Expand records that the state whose flags are fl (nil: none kept) is
// expanded in full.
func Expand(fl *uint8) {
	if fl != nil {
		*fl = *fl&^Reduced | Expanded
	}
}

// Accept decides on an ample transition to a state already stored, whose
// flags are fl, and marks that state to be expanded in full when it takes
// the transition before the state's expansion.
func Accept(fl *uint8) bool {
	switch {
	case *fl&Expanded == 0:
		*fl |= Full
		return true
	case *fl&Reduced == 0 || mutation.On(mutation.NoProviso):
		return true
	}
	return false
}
