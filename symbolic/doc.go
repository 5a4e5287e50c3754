// Package symbolic is the symbolic back end of the checker: it executes the
// same 68HC11 instructions as package sim with data as bit-vector terms and
// decides feasibility with the Z3 SMT solver, following hybrid model
// checking (HMC, Ganai, Wang & Li): a frontier of symbolic states,
// traversed and grouped (ST), and bounded model checking from frontier
// states (PR).
//
// It is for data nondeterminism: values of __mc_nondet and of --input reads
// become fresh constants instead of one successor per value. Scheduling
// stays explicit: threads and interrupts interleave exactly as in the
// explicit engine, and only data is symbolic. It does not know search
// order or heuristics of the explicit engine (package search); the CLI
// composes the two.
//
// # Linking Z3
//
// The package links the system Z3 library through cgo
// (github.com/aclements/go-z3, Debian's libz3-dev) in every build, without
// a build tag: a checker whose --engine hmc silently disappears when a
// header is missing would be worse than a build that stops and says what to
// install. The Makefile's z3 target, a prerequisite of build, tools and
// test, installs libz3-dev (as root, via apt-get) or prints the command, so
// that `make test` on a fresh clone links it like any other dependency.
package symbolic
