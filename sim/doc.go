// Package sim executes 68HC11 machine code exactly as the M68HC11 Reference
// Manual defines it, as concurrent threads and interrupt handlers, and
// enumerates the transitions between global states for the search.
//
// It is for the concrete semantics: registers, flags, cycles, memory, the
// harness routines of DESIGN.md, interrupts, properties observed while
// stepping, and labels from which a trace can be replayed. It does not know
// in which order states are explored (package search) nor how far they are
// from a target (package heuristics). docs/simulator.md is the long version
// of this page, with the decisions the manual leaves open.
//
// The core is the step (steps.in.go, generated with the instruction
// dispatch of package sim/ops and the arithmetic of sim/alu into ops.go and
// alu.go: each instruction's semantics is written once, for this simulator
// and the symbolic engine), a thread's transition (runThread), an
// interrupt's entry and the expansion of a state (Expander). The optional
// environment — the chip's peripherals (Config.Device, package devices) and
// the timing properties (Config.Timing) — is one field of the Machine,
// reached through hooks before and after a step, at a register access and
// at a transition's end (env.go); nil, it costs the core one branch per
// hook. Run simulates one schedule, with a terminal's input and clock.
//
// A State is a value: the threads' contexts, the writable memory in pages
// shared until written, the scheduler's flags; the device's registers and
// the timing counters are pages too. Its identity is defined once, in
// key.go, and everything that compares, hashes, keys or packs states is
// written in its terms.
//
// Reductions never change the state that executes: partial-order reduction
// (reduce.go, private.go) chooses which transitions to follow, dead-data
// elimination (live.go, deadstack.go) what of a state its key keeps, so
// every counterexample replays as found. What each assumes — a private
// stack, a masked byte not read, a return where liveness expects — is
// checked on every transition and a break recorded (Machine.Intrusion,
// Machine.DeadBroken), and package search searches again without it. The
// arguments stand beside their code (reduce.go, private.go, live.go,
// deadstack.go; batch.go for batches of steps, timing.go for the timing
// properties) and are summed up in docs/soundness.md.
package sim
