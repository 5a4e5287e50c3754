// Package hybrid is check --engine auto: one explicit-state search
// (package search) on a machine whose Config.MaxBranch is --max-branch,
// so that a transition whose nondeterministic choice offers more values
// than that is not enumerated, and HMC (package symbolic) for each such
// transition, from the state the search met it in, with the choice a
// symbol (symbolic.Engine.Handoff), and for everything after it. Neither
// engine knows the other; this package composes them. The explicit
// search enumerates the narrow choices cheaply and reduces the
// interleavings of concrete data; HMC decides the wide ones, where
// enumeration would multiply the states by the width of each choice.
// A Hybrid is an engine of a check (check.Engine): its Run gives the
// check's Result, and Report what HMC's part did. Package plan makes one
// for --engine auto.
//
// It is not about building the machine or the search's options from the
// settings (package check) nor about printing the result (the command
// line), beyond what HMC did: the line and the JSON field that the
// result's output adds (Report.Line, Report.JSON).
//
// # Why the verdict is the one of enumerating every choice
//
// Let G be the transition graph of the machine with every choice
// enumerated, the graph --engine explicit --reduce none searches, and a
// target a violation or a deadlock. The claim: the check reports a
// violation only if G has a path to it, and reports verified only if no
// path of G reaches a target. (Incomplete claims nothing.)
//
// Violations are real. A violation found by the explicit part is the end
// of a path of its reduced graph, which is a path of G (sim/reduce.go).
// One found by HMC is the explicit prefix to a handed state followed by
// a path of the symbolic traversal, which Z3 made concrete; before it is
// reported it is replayed on the concrete simulator from the initial
// state (check.Confirm): a counterexample that does not replay is an
// internal error (check.NotReplayed), never a verdict.
//
// Nothing is missed. Let the explicit part run with partial-order
// reduction (sim/reduce.go, sim/private.go), the default; without it the
// argument is the same with every state expanded in full. The reduction
// decides, at each state s, to follow one transition τ of one thread
// alone or every enabled transition. τ is register-only or stack-private
// and deterministic: it is never a wide choice. So where s is reduced its
// expansion is the same whatever MaxBranch is, and a wide transition
// leaves s only where s is expanded in full; there the search follows
// every narrow transition and hands the wide ones, with s and the path
// to it, over (search.Result.Handed). MaxBranch changes nothing else:
// ample sets, the cycle proviso and the stack regions are decided on the
// same states as without it.
//
// Let d(s) be the length of a shortest path of G from s to a target.
// sim/reduce.go proves, for the reduced search on G, that from every
// expanded state s with d(s) = k the search follows lone transitions
// through states with d ≤ k until, the cycle proviso guaranteeing it, a
// state s' expanded in full, where the first transition σ of a shortest
// path is among those enumerated, and d falls below k after σ; by
// induction on k it reaches the target. Nothing in that argument needs σ
// to be followed by the same engine. Here either σ is narrow, and the
// explicit part follows it as before; or σ is wide, and s' was expanded
// in full (above) and hands σ's thread over with s'. HMC starts from
// Handoff(s', thread), which stands for σ's successors for every value
// of the choice, its range honoured: one of them is the successor on the
// shortest path. From its start states HMC's state traversal with
// bounded model checks follows every transition of G (symbolic/hmc.go)
// up to its own partial-order reduction, which is the explicit one
// lifted to symbolic states (symbolic/reduce.go), sound by the same
// argument: so from a start state with a path to a target, HMC reports a
// violation, or is stopped by a limit (incomplete). Hence if G has a
// path from the initial state to a target, the explicit part or HMC
// finds a violation, unless a limit stops it.
//
// Stack privacy. The argument of sim/private.go takes intrusions (a
// thread touching another's stack region) as targets too: the reduced
// search reaches one whenever the full search does, and privacy holds
// only as long as none has been seen. It must hold in both parts, since
// the explicit part's lone transitions relied on it for the paths HMC
// follows. HMC steps through the same machine, whose guard checks every
// byte a concrete address names, and splits a symbolic table lookup that
// could read another thread's stack into named bytes
// (sim.Machine.PrivateOverlap), so an intrusion in HMC's part is seen as
// one in the explicit part is. An intrusion that a transition followed
// alone relied on is recorded on the machine (sim.Machine.Intrusion):
// the explicit search restarts by itself without the assumption; when
// HMC's part records one and found no violation, both run again, the
// explicit part with privacy withdrawn (the result says why), and the
// argument above applies to that run as it stands.
//
// Dead-data elimination (--reduce dead) is not used. Its merges of states
// that differ in dead registers or masked stack bytes are justified only
// because every read, fetch or uncovering of a masked byte is seen by
// the simulator's stepper, which then withdraws the masking
// (sim/deadstack.go, sim.Machine.DeadBroken); HMC's stepper does not
// watch for them, so HMC, given a state the explicit part merged, could
// follow the representative's bytes as if they were the other state's
// too, unchecked.
//
// TestDifferential checks the claim on random programs that draw wide
// values (testkit/randprog.Wide) against the plain explicit search
// that enumerates every value, and TestDifferentialCatches shows it
// fails when HMC's part is skipped (mutation.SkipHandoff).
package hybrid
