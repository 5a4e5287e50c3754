// Package symbolic is the symbolic back end of the checker: it executes the
// same 68HC11 instructions as package sim with data as bit-vector terms and
// decides feasibility with the Z3 SMT solver, following hybrid model
// checking (HMC, Ganai, Wang & Li): a frontier of symbolic states,
// traversed and grouped (ST), and bounded model checking from frontier
// states (PR), interleaved as in their Algorithm 1.
//
// It is for data nondeterminism: values of __mc_nondet and of --input reads
// become fresh constants instead of one successor per value. Scheduling
// stays explicit: threads and interrupts interleave exactly as in the
// explicit engine, and only data is symbolic. It does not know the search
// orders or heuristics of the explicit engine (package search); the CLI
// composes the two and may hand it an estimate for the glh priority.
//
// docs/symbolic.md is the long version of this page: "States: a concrete
// part and terms beside it", "HMC here", "Linking Z3".
//
// # Placeholders are never read
//
// The 0 in the concrete part where a term stands is a placeholder, not a
// value, and an --input address holds no value of its own (each read is
// a choice). The simulator's step beside the terms is right only if what
// it computes from memory does not depend on them, so it keeps one rule,
// enforced in the stepper's read path itself (sim.Placeholders: read8
// and the instruction fetch, whatever the instruction, addressing mode or
// harness routine): a data read of a byte that holds a term, or of an
// --input address, gets the stand-in the engine chose for it (the terms
// compute the data; the stand-in only steers the control, as a BRSET's
// side), and an instruction byte that holds a term is split on its
// feasible values before the fetch (a patched opcode or operand). An
// instruction tried as a plain step whose read breaks the rule goes
// through the terms instead (a pull of --input addresses, say); a step on
// the terms that would still read a placeholder (a return address pulled
// from an --input address) stops the run with ErrUnsupported: incomplete.
// A proof therefore comes only from a run in which every step's control
// was computed from values the state holds or from stand-ins that agree
// with the side the solver found feasible, so every successor is one the
// explicit engine has under some value of the variables, and none is
// missing: had a step read a placeholder, the concrete successor would be
// that of one value (the placeholder, or the first listed input) for
// every value, and a side that the other values take would never be
// followed — the wrong proof the rule exists to rule out.
//
// __mc_nondet with D = N gives a fresh 8-bit variable when N is a constant
// below 256, else a 16-bit one, constrained to [0, N] (N may itself be
// symbolic; N = 0 offers one value and, as in the explicit engine, no
// choice). An --input read gives a fresh byte constrained to the listed
// values. With Options.MaxBranch (--engine auto), a choice among at most
// that many values is enumerated instead, a successor per value.
// __mc_assume and __mc_assert on a symbolic A fork into the two cases;
// the other harness routines need their inputs concrete and are split.
// Counterexamples are concrete: each transition records the variables of
// its choices, and the solver's model gives the value of each, hence the
// label's choice index, for an ordinary trace that hc11mc replay runs.
package symbolic
