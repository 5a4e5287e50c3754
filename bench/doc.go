// Package bench runs a benchmark suite: the models of a manifest
// (DIR/manifest.json: each model's firmware, its check flags, the verdict
// expected and, where the model is one of the paper's, its row of Rungta
// & Mercer's Table 1) under several strategies — the explicit searches
// with their heuristics, each under several reduction settings, the swarm
// (package portfolio), and the symbolic engine's configurations — and
// writes the records as tables (text or Markdown), CSV or a bar chart in
// SVG.
//
// It is not about the command line: package cmd/hc11mc/internal/cli reads bench's
// flags into Options, provides the Setup that reads a model's check flags
// into its check.Config (bench reads no flags), and prints. Nor is it
// about the searches themselves (packages search, symbolic, portfolio),
// nor about choosing the engine of a run: package plan chooses it, as it
// does for check, and bench runs the engine it gets.
//
// # What the tables say
//
// Per model and column (a strategy, or STRATEGY/SETTING with several
// reduction settings): the states generated before the error (Table 1),
// the time taken (Table 2), with the paper's figures beside ours, then
// counterexample lengths and peak memory. Random runs use seeds 1..Runs;
// Repeat runs everything in rounds (each round runs every strategy on the
// model once, so that what else the machine does weighs on all alike). A
// cell is the median of its runs and, when they differ, their spread;
// "≥" marks a run a limit stopped, "!" a verdict that is not the
// manifest's. With the swarm the tables end with its bound: on how many
// models it took at most Workers times the time of the fastest other
// strategy. With a strategy of the symbolic engine the table is laid out
// as Table I of the HMC paper instead (tablei.go).
//
// # Its place in the layers
//
// Package bench sits between the command line and the engines, above
// plan (which chooses each run's engine) and so above check, hybrid,
// portfolio and cex.
package bench
