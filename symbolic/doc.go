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
// # States: a concrete part and terms beside it
//
// A State keeps a sim.State for everything that is concrete — the control
// part (PCs, stack pointers, statuses, shadow call stacks, the scheduler)
// and every register, CCR bit and memory byte whose value is known — and
// a term (package symbolic/term) for each register, CCR bit or byte that
// depends on a variable, with 0 in the concrete part there. SP and PC are
// always concrete. An instruction whose inputs (isa.Effects) are all
// concrete is the simulator's step and nothing more; what it writes stops
// being symbolic. Any other instruction computes its data with the
// instruction dispatch of package sim/ops, the one the simulator's loop is
// generated from, instantiated with terms (exec.go: a machine whose
// registers and memory writes are terms and whose control methods only
// record a branch's condition), and the simulator's step beside it does
// the rest — the next PC, cycles, the shadow call stack, faults — so both
// the data and the control semantics exist once. Which memory bytes an
// instruction reads and writes is the instruction set's rule
// (isa.Inst.Access, from its effects), as in the simulator. Where the control needs a concrete value (an index
// register forming an address, a return address, what SP is loaded from,
// the S bit of STOP, the I bit an interrupt waits for, a lock byte) the
// state is split on the value's feasible values, at most Options.MaxSplit
// of them (beyond the bound the engine stops and the result is
// incomplete). A read through a symbolic index register whose address
// provably falls in a window of at most 1024 bytes of mapped memory (a
// table lookup by a symbolic byte) is not split: memory is an array there,
// the byte read an if-then-else over the window (array.go); a write
// through a symbolic index is split. A conditional branch, BRSET or BRCLR on symbolic data forks
// where both sides are satisfiable; the simulator's step is steered to
// the chosen side by its thread's condition codes or by the value the
// tested byte reads as, never by writing memory.
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
//
// # HMC here
//
// A state-disjunct of the paper is a State: one control state with a
// path condition and terms. The frontier holds the states not yet
// expanded; repeats are recognised exactly (equal concrete parts, the
// same terms, the same path), which ends spin loops and idle loops as in
// the explicit engine. A state whose data are all concrete drops its
// path (pin.go: it depends on no variable, and ST's paths are
// satisfiable; the trace keeps the path for the counterexample's
// choices), so it repeats as the explicit engine's state would, and
// Group never merges it. ST computes the image of a frontier state
// (Expand: every transition, the forks checked with the solver), adds the
// new states, and groups the frontier: two states with equal control
// parts merge into one whose data are if-then-else terms — on the branch
// condition where the two paths part at a branch (no new variable), else
// on a fresh 1-bit variable — so that the union is exact. States parted
// by a branch merge even where their concrete data differ (the two sides
// of an if-else on symbolic data, at its join, in the same turn of every
// loop: merge.go), which keeps a loop that branches on data at each turn
// one state, as a CRC's bit loop; others only with equal concrete data.
// A merged state whose data come down to if-then-elses of constants,
// once the values that made them symbolic are gone, is split back into
// concrete states (unjoin.go), which repeat as the explicit engine's do.
// The size of a
// state is its number of symbolic locations and path conjuncts (Eq. 16);
// Group stops at TSize; an image state that has grown to TSize since its
// merges is split back (Partition, partition.go: on its latest merge's
// guard, each part's terms rebuilt under the guard's value, until the
// parts are below TSize); and ST hands over to PR when the frontier's
// total size passes FSize (doubled at each switch). With glh's estimate,
// ST expands the state closest to a violation first, its position
// breaking ties (on concurrent models, whose threads loop, position first
// ran ahead along the loops; see frontier in hmc.go), except that the
// other side of that state's latest branch, when it is in the frontier
// and behind, goes first, so that the two meet at the join (catchUp in
// hmc.go). Otherwise it expands
// the state that is furthest behind in the program first — the sum of its threads'
// positions in a reverse postorder of the code — so that paths of unequal
// length through an if-else meet at the join, where Group merges them;
// without that, instruction-level paths of different lengths never meet
// and a loop that branches on data doubles its states at each iteration.
// PR takes frontier states in priority order, glh (closest to a violation
// by the CLI's estimate on the concrete part) or dfs (deepest), and runs a
// bounded model check from each: PRDepth transitions unrolled lazily
// (branches not checked, states of one depth merged as an unrolled
// transition relation would be), one solver query per depth for a
// violation (Eq. 12). A violation found is the FAIL of Algorithm 1; a state
// all of whose paths end within the bound leaves the frontier (the
// completeness check). A PR phase is bounded in time: Config.PRTime for
// the first, then as long as the ST phase before it took (within
// PRTime/40 and PRTime), so that neither half runs for long while the
// other could be the one to find a violation. An empty frontier is PASS. Every violation is
// confirmed by the solver, which gives the model of the counterexample.
// The statistics are the paper's Table II (switches, images, peak
// frontier, partitions) with the solver's, and the peak memory: the Go
// runtime's and what Z3 allocated, sampled at each query.
//
// Config.Mode runs the baselines of the paper's Table I instead: BMC, an
// unrolling from the initial state alone, its bound grown a transition at
// a time until a violation is satisfiable (the shortest witness) or no
// path is left; and ST alone, which never hands over to PR. With HMC
// under each priority they make the four configurations that hc11mc
// bench compares. A query still running at the run's deadline (Timeout)
// is given up, so that a time limit holds within the time Z3 takes to
// take in one formula.
//
// The engine does not model the chip's peripherals or board hardware
// (sim.Config.Device, Board): NewEngine refuses such a machine.
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
// Terms are built, simplified and evaluated in Go (package symbolic/term)
// and translated to Z3 only for a query: building terms through the
// bindings costs microseconds per operation, and the tests evaluate the
// arithmetic on every 8-bit operand without the solver.
package symbolic
