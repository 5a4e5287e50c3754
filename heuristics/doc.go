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
// # Unit and values
//
// A distance is the number of instructions a thread executes until its PC
// equals a target address: 0 at the target, 1 at a JSR to it (DESIGN.md,
// estimate). A call of a harness stub is two steps: the JSR, then the
// stub's effect at the stub's address, which returns like RTS. Inf means
// that the target cannot be reached from the state; such states are ranked
// last, never dropped. A PC outside the decoded code estimates 0: nothing is
// known, and 0 does not overestimate.
//
// fsm and aicfg are the paper's static lookups and are admissible outside
// interrupt handlers (inside one they are not: see Interrupts). efsm is
// exact for control flow: it is the length of the shortest path that the
// program's control flow allows from the thread's PC with its actual stack,
// where data is ignored (both ways at every branch). It is therefore
// admissible, and at least fsm and aicfg wherever they are admissible. Its
// per-frame tables are
// computed on same-level paths (see package icfg): the paper's "paths that
// do not pass srts" would overestimate in recursive procedures. With these
// tables the value does not depend on k; k only decides the size of the
// graph the frames are looked up in.
//
// # Targets and threads
//
// FindTargets turns a property into target addresses: error, assert and
// mutex aim at __mc_error, __mc_assert and __mc_cs_enter; deadlock at
// __mc_lock and the WAI instructions (where a thread can block); reach at a
// symbol. A property without a target (no call of its stub) gives
// ErrNoTarget, and the search then degrades to breadth-first search. The
// threads' distances combine as Section 3.2 says (Combine): the minimum for
// reach, assert and error; the sum of the two smallest for mutex; the sum
// over all threads for deadlock. Pass only live threads. The value of a
// state is
//
//	Combine(Estimate(pc_i, returns_i) for each live thread i) + EstimateMemory(memory)
//
// where the memory term is 0 except for hamming, whose per-thread terms are
// 0. HammingDistance takes the state's bytes, the target valuation laid out
// the same way, and a mask of the bits that count.
//
// # Whole states
//
// NewStateEstimate builds, for one sim.Machine, what package search ranks
// states by: the value above, with each live thread's return addresses read
// from its runtime stack (sim.Machine.Returns), or hamming's goal bytes
// read from memory. It disassembles the image once and aims at the first
// property of StateConfig.Aims (AimOrder when empty: reach, error, assert,
// mutex, deadlock) that has a target, and returns ErrNoTarget when none
// has; the CLI then searches without an estimate. Inf is the only value
// meaning "unreachable"; the search gives estimates no meaning beyond their
// order, so such states simply come last.
//
// # The paper's figures
//
// PaperRows holds Tables 1 and 2 of the paper (states generated and seconds
// taken before the error, under BFS, DFS, the FSM and the extended FSM
// distance; PaperColumns), which `hc11mc bench` prints beside its own.
//
// # Interrupts
//
// The graphs hold no edges into interrupt handlers (the paper's choice), so
// fsm and aicfg cannot see a target reached only through a handler, and
// inside a handler they see RTI as the end of the path. efsm follows the
// return addresses it is given: a thread inside a handler should pass the
// interrupted PC among its return addresses (innermost first), and efsm
// then returns through it.
//
// So inside a handler that does not contain the target, fsm and aicfg give
// Inf, which overestimates (the handler returns, and the interrupted code
// may be next to the target), and efsm gives the handler's instructions to
// RTI plus the interrupted code's distance. Best-first search on fsm or
// aicfg therefore takes every interrupt last: it explores what the program
// does without one first, then takes interrupts in the order it met them,
// breadth-first over the points where an interrupt is taken.
//
// # The blind spot
//
// The distances follow control flow and ignore data. Greedy best-first
// search on them assumes that the states nearest the target lead to the
// violation; it loses its way where the program reaches the target over
// and over without violating it while data keeps changing, so that the
// states near the target never run out. testdata/bench/tick_counter.s is
// the example: a main loop calls __mc_assert in every iteration (A = 1
// unless a reading of a 16-bit tick counter was torn), and a TOC1 handler
// increments the counter. At the call of the stub (estimate 0) the
// interrupt may be taken; the handler's states estimate 6 down to 1 (its
// instructions to RTI, then 0), and each run of it makes the counter, and
// so the state, new. The torn read needs the interrupt between the two
// loads of a reading, a state estimated 12. Greedy search on efsm goes
// round the assertion through every value of the counter (8 states each),
// then through every other state estimated below 12 with every value of the
// counter, before it takes that interrupt: 6.6 million states, where
// breadth-first search needs 763. Each of these estimates is the
// exact control-flow distance, so this is no defect of efsm but a limit of
// greedy search on a data-blind distance; k = 2 changes nothing. fsm finds
// the error in 456 states only through its own inexactness (Inf inside the
// handler). Searches that do not follow the estimate alone find it: A* on
// efsm, whose depth term grows round the loop (291), breadth-first and
// random search; hence check's default, a swarm of different searches
// (package cli).
//
// # Cost
//
// Estimate does not allocate once the memo table has seen the stack; a hit
// costs one AICFG lookup for the top frame and one hash of the stack. The
// memo table is the only mutable part of a Heuristic: use one per goroutine
// (Clone shares everything else).
package heuristics
