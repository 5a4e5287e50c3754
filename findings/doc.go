// Package findings turns a check's result into what editors and CI
// systems read: one compiler-style line per violation,
// FILE:LINE:COL: error: MESSAGE, with note: lines for the steps of the
// counterexample that matter (WriteLines), and a SARIF 2.1.0 log
// (WriteSARIF) with one result per violation, its counterexample as a code
// flow with a thread flow per thread, and the properties not checked and
// the inputs held constant as notifications.
//
// # Where a finding points
//
// At the source line of the violating instruction, from the image's line
// information (loader.Image.LineAt); for a violation inside a harness
// stub (a deadlock in __mc_lock), at the call of the stub. The column is
// that of the instruction's mnemonic on its line, counted in characters
// from 1 (1 when the source cannot be read). The DWARF line table names a
// file relative to the directory the assembler ran in; a relative name is
// looked up from the working directory, then from the image's directory
// and its parents, and printed as found. An image without line
// information (S-records, Intel HEX, a binary, an ELF file without DWARF)
// is pointed at by its own path and the address: "fw.s19: error: thread 0
// at 0xD027 <update>: ...".
//
// # The steps that matter
//
// Notes come from the counterexample replayed (cex.Replay) and say only
// what happened in it:
//
//   - mutex: where each other thread inside a critical section at the
//     violation entered it (its last __mc_cs_enter);
//   - deadlock: where each lock held at the violation was taken, and where
//     each other blocked thread waits;
//   - unlock: where the lock released was taken, by whom, or where it was
//     last released when no thread holds it;
//   - every other kind: for each shared byte the violating thread or
//     handler read in its last 16 operand accesses, the last write to it
//     before that read (the write that left the value the failing code
//     saw), by whichever thread or handler made it.
//
// A harness call is pointed at by its call site. At most maxNotes notes
// are given per finding; the SARIF code flow has every step.
//
// It is not about finding violations (package check and the engines),
// explaining them in prose (package cex) or the command line (package
// cmd/hc11mc/internal/cli wires --sarif and prints the lines).
package findings
