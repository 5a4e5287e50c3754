// Package icfg recovers the static control-flow structure of 68HC11
// firmware: procedures found by recursive-descent disassembly, one
// control-flow graph per procedure, the interprocedural control-flow graph
// (ICFG) and the augmented ICFG with a bounded calling context, AICFG(k),
// of Rungta & Mercer, "A context-sensitive structural heuristic for guided
// search model checking" (the paper). On these graphs it computes the
// distance tables the heuristics need, and it prints the structure for the
// cfg command as text, JSON or Graphviz DOT.
//
// It is not a simulator (package sim executes instructions), not a data-flow
// analysis (beyond the few constants it tracks to find thread entries and
// jump tables), and it does not combine distances into a heuristic value
// (package heuristics does).
//
// docs/icfg.md is the long version of this page: "Graphs and distances",
// "Decisions".
package icfg
