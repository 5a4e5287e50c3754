// Package findings turns a check's result into what editors and CI
// systems read: one compiler-style line per violation,
// FILE:LINE:COL: error: MESSAGE, with note: lines for the steps of the
// counterexample that matter (WriteLines), and a SARIF 2.1.0 log
// (WriteSARIF) with one result per violation, its counterexample as a code
// flow with a thread flow per thread, and the properties not checked and
// the inputs held constant as notifications.
//
// A finding points at the source line of the violating instruction, from
// the image's line information (loader.Image.LineAt), or at the call of
// a harness stub for a violation inside it; the column is the mnemonic's.
// A relative file name is looked up from the working directory, then from
// the image's directory and its parents; an image without line
// information is pointed at by its path and the address. The notes come
// from the counterexample replayed (cex.Replay) and say only what
// happened in it: for a mutex violation where the other threads entered
// their critical sections, for a deadlock where each lock held was taken
// and where each other thread waits, for an unlock where the lock was
// taken, and for every other kind the last write to each shared byte the
// violating code read in its last 16 operand accesses; at most maxNotes
// per finding, where the SARIF code flow has every step.
//
// It sits above check and cex, below the command line (package
// cmd/hc11mc/internal/cli wires --sarif and prints the lines); finding violations is
// the engines' work and explaining them in prose package cex's.
// docs/cli.md, "In CI", is the long version of this page, with the CI
// recipe and the SARIF validator.
package findings
