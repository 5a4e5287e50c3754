// Package bench runs a benchmark suite: the models of a manifest
// (DIR/manifest.json: each model's firmware, its check flags, the verdict
// expected and, where the model is one of the paper's, its row of Rungta
// & Mercer's Table 1) under several strategies — the explicit searches
// with their heuristics, each under several reduction settings, the swarm
// (package portfolio), and the symbolic engine's configurations — and
// writes the records as tables (text or Markdown), CSV or a bar chart in
// SVG.
//
// It sits between the command line and the engines, above plan (which
// chooses each run's engine, as it does for check) and so above check,
// hybrid, portfolio and cex. Package cmd/hc11mc/internal/cli reads bench's flags
// into Options, provides the Setup that reads a model's check flags into
// its check.Config (bench reads no flags), and prints.
//
// The tables give, per model and column (a strategy, or STRATEGY/SETTING
// with several reduction settings), the states generated before the error
// (Table 1) and the time taken (Table 2) with the paper's figures beside
// ours, then counterexample lengths and peak memory; each cell the median
// of its runs, Repeat running everything in rounds. With the swarm the
// tables end with its bound (on how many models it took at most Workers
// times the fastest other strategy's time); with a strategy of the
// symbolic engine they take the layout of the HMC paper's Table I
// (tablei.go). docs/cli.md, "bench", says how to run it and read the
// marks; docs/benchmarks.md holds the tables it made.
package bench
