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
//
// It sits above check and below package plan, which makes one for
// --engine auto. A Hybrid is an engine of a check (check.Engine): its Run
// gives the check's Result, and Report what HMC's part did, with the line
// and the JSON field that the result's output adds (Report.Line,
// Report.JSON). Building the machine and the search's options from the
// settings is package check's; printing the result, the command line's.
//
// The verdict is the one of enumerating every choice (--engine explicit
// --reduce none): a violation is replayed on the concrete simulator
// before it is reported (check.Confirm), and nothing is missed because a
// wide transition leaves only a state the partial-order reduction
// expanded in full, where it is handed over whole; stack privacy is
// watched in both parts, and dead-data elimination is not used. The
// argument is docs/soundness.md, "The hybrid engine's verdict is
// enumeration's"; docs/engines.md, "The symbolic engine", describes the
// engine as users see it. TestDifferential checks the claim on random
// programs that draw wide values, and TestDifferentialCatches shows it
// fails when HMC's part is skipped (mutation.SkipHandoff).
package hybrid
