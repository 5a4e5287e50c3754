// Package portfolio is the swarm: many diversified searches of the same
// firmware at once, the first decisive one winning (Holzmann, Joshi and
// Groce's swarm verification). It holds the members, the race between
// them in one process, the watch over the memory they share, the
// combination of their results and the swarm's check of itself; and
// beyond one process, the array job for a cluster's scheduler (Plan), the
// members run as processes here (RunProcesses) and the merge of the
// results they write (Merge).
//
// It sits between the command line and the engines: above check (a
// member is a check.Config with its own search order, heuristic and seed,
// run as a check.Engine) and cex (whose trace files Merge replays), below
// package plan, which decides the swarm's size and its extra member. It
// neither reads flags nor prints (package cmd/hc11mc/internal/cli).
//
// A Member is a function of its index, --seed and whether the firmware
// takes interrupts (MemberOf), so that member i is the same search in
// every swarm and `check --swarm-member i/N` repeats it. Where the
// firmware draws data and runs without the chip's peripherals, member 1
// is HMC (SymbolicMember, MemberIn); where the peripherals are its
// environment and the flags leave the timing open, member 1 models the
// board (BoardMember, BoardMemberIn; board.go says why its violations
// decide and its proofs do not). Swarm is the engine that races them:
// the first violation or exhaustive end decides, the others stop; each
// member keeps a visited set of its own, so that each end is exhaustive;
// and once all have stopped, no member's proof may contradict another's
// violation (selfcheck.go).
//
// The symbolic member's verdict decides only under the check's
// conditions (the same machine and properties, a counterexample that
// replays, bounds and held inputs as for the others: symbolicResult);
// the argument is docs/soundness.md, "When the swarm's symbolic member
// decides". docs/swarm.md is the long version of this page: the list of
// members and why that order, the symbolic and board members, the
// measurements, the heuristic's blind spot and the array jobs.
package portfolio
