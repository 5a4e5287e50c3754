// Package heuristics estimates how far a state of the model checker is
// from the property's target, to rank states in a best-first search. The
// structural heuristics are computed on package icfg's graphs, following
// Rungta & Mercer, "A context-sensitive structural heuristic for guided
// search model checking" (the paper):
//
//	none     0 everywhere
//	hamming  bits of memory that differ from a target valuation
//	fsm      the FSM distance of Edelkamp & Mehler: the shortest path from
//	         the PC's vertex in the ICFG, ignoring the stack
//	aicfg    the shortest path from the vertex (PC, top k return addresses)
//	         of AICFG(k) (Section 3.1, Figure 2)
//	efsm     the extended FSM distance: Figure 5, which unwinds the thread's
//	         runtime stack frame by frame on AICFG(k), with memo tables so
//	         that a stack seen before costs one lookup (end of Section 3.2)
//
// It is not the search (package search orders, stores and expands states)
// and it does not simulate (package sim does). A Heuristic works on plain
// values — each thread's PC and return addresses, and the memory for
// hamming — and StateEstimate reads these from a sim.State to give the
// search its estimate of whole states (see "Whole states" below).
//
// docs/heuristics.md is the long version of this page: "Unit and values",
// "Targets and threads", "Whole states", "The paper's figures",
// "Interrupts", "The blind spot", "Cost".
package heuristics
