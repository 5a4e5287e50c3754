// Package cex is about counterexamples once a search has found them: the
// trace file that records one (check --trace writes it, replay reads it),
// replaying it on its machine, and explaining it — what each thread and
// interrupt handler read and wrote, the state at the violation, and the
// accesses that matter — in text, as data, or drawn in lanes as SVG.
//
// It sits above search and sim, below check: a trace keeps the load and
// machine settings as the command line gave them (package settings's
// schema), and check reads them and builds the machine (check.OpenTrace).
// Finding counterexamples is the engines' work; flags, printing and exit
// codes are the command line's (package cmd/hc11mc/internal/cli).
//
// A trace file is one JSON object ([Trace]): "hc11mc_trace": 1, the
// firmware's path, the settings, the violation and one entry per
// transition. Its fields are fixed by the files already written: a field
// is added with omitempty, never renamed, so that older traces still load.
//
// [Replay] re-executes a trace and returns a [Counterexample], which
// writes itself as check lists it ([Counterexample.WriteListing]), as
// replay lists it with watched variables ([Counterexample.WriteReplay]),
// or as data ([Counterexample.Report], replay --json); tests compare the
// texts with golden files, byte for byte. [SVG] draws it with a lane per
// thread and per interrupt handler (lanes.go says what is highlighted and
// why): cex decides what the picture shows, and cex/internal/tracesvg,
// internal because its input changes with cex's choices, only renders it.
// docs/cli.md, "replay", shows all of these as users see them.
package cex
