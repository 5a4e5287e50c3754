// Package cex is about counterexamples once a search has found them: the
// trace file that records one (check --trace writes it, replay reads it),
// replaying it on its machine, and explaining it — what each thread and
// interrupt handler read and wrote, the state at the violation, and the
// accesses that matter — in text, as data, or drawn in lanes as SVG.
//
// It is not about finding them (package search), about the command line
// (package cmd/hc11mc/internal/cli parses the flags, prints and picks exit codes), or
// about turning the settings a trace records into a machine: a trace keeps
// the load and machine settings as the command line gave them (their
// schema is package settings's: settings.LoadSpec, settings.MachineSpec),
// and package check, which sits above cex,
// reads them and builds the image and the sim.Machine (check.OpenTrace).
//
// # The trace file
//
// A trace file is one JSON object (see [Trace]): "hc11mc_trace": 1, the
// firmware's path, the settings, the violation and one entry per
// transition. Its fields are fixed by the files already written: a field
// is added with omitempty, never renamed, so that older traces still load.
//
// # Explanations
//
// [Replay] re-executes a trace and returns a [Counterexample], which
// writes itself as check lists it ([Counterexample.WriteListing]), as
// replay lists it with watched variables ([Counterexample.WriteReplay]),
// or as data ([Counterexample.Report], replay --json). The texts are the
// tool's output: tests compare them with golden files, byte for byte.
//
// # Drawings
//
// [SVG] draws a counterexample with a lane per thread and per interrupt
// handler (lanes.go says what is highlighted and why). cex decides what
// the picture shows; package cex/internal/tracesvg only renders it. The
// renderer sits inside cex because counterexamples are all it draws and
// its input changes with cex's choices: keeping it internal keeps that
// input from becoming an interface other packages depend on.
package cex
