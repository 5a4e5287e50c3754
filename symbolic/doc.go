// Package symbolic is the symbolic back end of the checker: it executes the
// same 68HC11 instructions as package sim with data as bit-vector terms and
// decides feasibility with the Z3 SMT solver, following hybrid model
// checking (HMC, Ganai, Wang & Li): a frontier of symbolic states,
// traversed and grouped (ST), and bounded model checking from frontier
// states (PR), interleaved as in their Algorithm 1.
//
// It is for data nondeterminism: values of __mc_nondet and of --input reads
// become fresh constants (of 8 or 16 bits, constrained to the values the
// explicit engine enumerates) instead of one successor per value.
// Scheduling stays explicit: threads and interrupts interleave exactly as
// in the explicit engine, and only data is symbolic. It sits beside
// package search, above sim and symbolic/term, and knows neither the
// explicit search orders nor its heuristics; package check runs it as an
// engine (check.Symbolic), and package hybrid hands it the wide choices of
// an explicit search (Engine.Handoff, Options.MaxBranch). Its main types
// are Engine, State (a concrete sim.State with terms beside it) and
// Options; counterexamples are concrete, each choice the solver's value,
// in an ordinary trace that hc11mc replay runs.
//
// Placeholders are never read: where a term stands, the concrete part
// holds a 0 that means nothing, and the simulator's read path
// (sim.Placeholders) gives every read of it a stand-in that only steers
// the control, or sends the step through the terms, or stops the run as
// incomplete (ErrUnsupported); so every successor is one the explicit
// engine has under some value, and none is missing. The argument is
// docs/symbolic.md, "Placeholders are never read".
//
// docs/symbolic.md is the long version of this page: "States: a concrete
// part and terms beside it", "HMC here", "Choices and counterexamples",
// "Linking Z3".
package symbolic
