package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/icfg"
	"github.com/hc11mc/hc11mc/internal/memlimit"
	"github.com/hc11mc/hc11mc/internal/units"
	"github.com/hc11mc/hc11mc/search"
)

type benchOptions struct {
	strategies []string
	runs       int
	repeat     int // --repeat: rounds of every run, for the median time
	maxStates  int
	timeout    time.Duration
	format     string
	plot       string
	models     []string
	kinds      []string
	k          int
	reduce     []string // --reduce: settings, each none or reductions joined by +
	workers    int
}

// benchModel is one manifest entry.
type benchModel struct {
	Name     string   `json:"name"`
	File     string   `json:"file"`
	Flags    []string `json:"flags"`
	Expect   string   `json:"expect"`
	Property string   `json:"property"`
	Kind     string   `json:"kind"`
	PaperRow string   `json:"paper_row,omitempty"`
	// Misses names the strategies (SEARCH+HEURISTIC) known not to find
	// the error within the test suite's limits: the model tests skip them.
	Misses []string `json:"misses,omitempty"`
}

// benchRecord is one run of one model under one strategy.
type benchRecord struct {
	Model       string  `json:"model"`
	Strategy    string  `json:"strategy"`
	Reduce      string  `json:"reduce"` // the --reduce setting
	column      string  // in the tables: Strategy, or Strategy/Reduce with several settings
	Seed        uint64  `json:"seed,omitempty"`
	Round       int     `json:"round,omitempty"` // with --repeat: which round (1..N)
	Verdict     string  `json:"verdict"`
	Kind        string  `json:"violation,omitempty"`
	Expected    bool    `json:"as_expected"`
	States      int     `json:"states"`
	Seconds     float64 `json:"seconds"`
	TraceLength int     `json:"trace_length"`
	PeakMemory  int64   `json:"peak_memory_bytes"`
	// MaxDepth is the deepest state reached (the paper's d* in Table I
	// of HMC); the symbolic engine's runs add the states expanded (ST's
	// images and the states unrolled; BMC stores none) and the solver's
	// queries and time.
	MaxDepth    int     `json:"max_depth"`
	Expanded    int     `json:"states_expanded,omitempty"`
	Queries     uint64  `json:"solver_queries,omitempty"`
	SolverSecs  float64 `json:"solver_seconds,omitempty"`
	Limit       string  `json:"limit,omitempty"`
	PaperStates int     `json:"paper_states,omitempty"`
	PaperSecs   float64 `json:"paper_seconds,omitempty"`
	// Member is the swarm's member that decided (strategy swarm).
	Member string `json:"member,omitempty"`
}

func newBench(stdout, stderr io.Writer) *cobra.Command {
	o := &benchOptions{}
	c := &cobra.Command{
		Use:   "bench [DIR]",
		Short: "run a benchmark suite under several search strategies and compare them",
		Long: `bench reads DIR/manifest.json (default testdata/bench): one entry per model
with its firmware, its check flags, the expected verdict and, where the model
is one of the paper's, its row of Rungta & Mercer's Table 1. It runs every
model under every strategy and prints the states generated before the error
(Table 1) and the time taken (Table 2), with the paper's figures beside ours,
then trace lengths and peak memory. Each run stops at --max-states, at
--timeout, and at check's default memory limit (see check --help) unless
the model's flags give --max-memory.

Strategies are SEARCH or SEARCH+HEURISTIC: bfs, dfs, random, best+fsm,
best+efsm, best+aicfg, astar+efsm, ... Random runs use seeds 1..--runs and
report the median and the spread (min-max). Every other strategy is
deterministic: its counts are the same on every run. swarm is check's
default, --workers searches at once (see check --help): its states are
those all members stored, its time that to the winner's decision; the
tables then say on how many models the swarm took at most --workers
times the time of the fastest other strategy. Which member wins a close
race, and so the swarm's counts, can differ from run to run.

Times of a few milliseconds vary from run to run by more than the
differences between strategies: --repeat N runs everything N times, in
rounds (each round runs every strategy on the model once, so that what
else the machine does weighs on all alike), and the tables give the
median of the rounds and, when it is not one value, the spread.

--reduce runs each strategy under each reduction setting: settings are
separated by commas, each none or check's reductions joined by + (por,
dead, por+dead; the default is check's, por+dead). With more than one
setting each column is STRATEGY/SETTING: --reduce none,por+dead puts the
states of every interleaving beside those of the reduced search.

The symbolic engine's configurations (check --engine hmc) are strategies
too: bmc (--hmc-mode bmc: bounded model checking alone), st or st+dfs
(--hmc-mode st: state traversal alone), hmc+glh and hmc+dfs (HMC with
--hmc-priority glh or dfs). With any of them the table is the comparison
of Table I of the HMC paper (Ganai, Wang & Li): per configuration the time
T, the peak memory M (the Go runtime's and Z3's) and the witness depth wd,
the counterexample's length, or d*, the deepest state reached without one;
--plot draws time and memory. testdata/models/symbolic holds data-heavy
models, four nondeterministic bytes each, for it.`,
		Example: "  hc11mc bench\n  hc11mc bench --format markdown --plot results.svg\n  hc11mc bench --strategies bfs,dfs,best+fsm,best+efsm,swarm --workers 4 --repeat 9\n  hc11mc bench --strategies bfs,best+efsm --models naive2,dining2\n  hc11mc bench --strategies bfs,dfs --reduce none,por,por+dead\n  hc11mc bench testdata/models/symbolic --strategies bmc,st,hmc+dfs,hmc+glh --plot hmc.svg",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "testdata/bench"
			if len(args) == 1 {
				dir = args[0]
			}
			if err := o.refuseIdle(cmd.Flags()); err != nil {
				return err
			}
			return runBench(o, dir, stdout, stderr)
		},
	}
	fs := c.Flags()
	fs.StringSliceVar(&o.strategies, "strategies", []string{"bfs", "dfs", "best+fsm", "best+efsm", "astar+efsm", "swarm"}, "strategies to compare, SEARCH or SEARCH+HEURISTIC, or swarm; or the symbolic engine's bmc, st, st+dfs, hmc+glh, hmc+dfs")
	countVar(fs, &o.runs, "runs", 5, 1, math.MaxInt, "runs of each randomised strategy (seeds 1..N)")
	countVar(fs, &o.repeat, "repeat", 1, 1, 1000, "rounds of runs: each round runs every strategy on a model once; the tables give the median")
	countVar(fs, &o.maxStates, "max-states", 2000000, 0, math.MaxInt, "per-run limit on stored states (0: no bound)")
	durationVar(fs, &o.timeout, "timeout", 60*time.Second, "per-run time limit, e.g. 30s, 5m (0: no limit)")
	fs.StringVar(&o.format, "format", "text", "text, csv, json or markdown")
	fs.StringVar(&o.plot, "plot", "", "write a grouped bar chart (log scale) of states per strategy per model to FILE.svg (with the symbolic engine's configurations: time and peak memory)")
	fs.StringSliceVar(&o.models, "models", nil, "run only these models (names from the manifest)")
	fs.StringSliceVar(&o.kinds, "kinds", []string{"bug", "exhaustive"}, "manifest kinds to run (bug, exhaustive, throughput)")
	countVar(fs, &o.k, "k", 1, 0, icfg.MaxK, "calling-context bound for aicfg and efsm")
	fs.StringSliceVar(&o.reduce, "reduce", []string{"por+dead"}, "reduction settings to run each strategy under, each none or reductions joined by +, e.g. none,por,por+dead")
	countVar(fs, &o.workers, "workers", runtime.GOMAXPROCS(0), 1, 1024, "members of the strategy swarm (check --search swarm), run in parallel")
	return c
}

func readBenchManifest(dir string) ([]benchModel, error) {
	path := filepath.Join(dir, "manifest.json")
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, usagef("%s has no manifest.json: a benchmark directory lists its models there (see testdata/bench)", dir)
	}
	if err != nil {
		return nil, usagef("%v", err)
	}
	var ms []benchModel
	if err := json.Unmarshal(b, &ms); err != nil {
		if se, ok := err.(*json.SyntaxError); ok {
			return nil, usagef("%s: offset %d: %v", path, se.Offset, err)
		}
		return nil, usagef("%s: %v", path, err)
	}
	return ms, nil
}

func runBench(o *benchOptions, dir string, stdout, stderr io.Writer) error {
	switch o.format {
	case "text", "csv", "json", "markdown":
	default:
		return usagef("--format %q: use text, csv, json or markdown", o.format)
	}
	models, err := readBenchManifest(dir)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, n := range o.models {
		want[n] = true
	}
	kinds := map[string]bool{}
	for _, k := range o.kinds {
		kinds[k] = true
	}
	var sel []benchModel
	found := map[string]bool{}
	for _, m := range models {
		if len(want) > 0 && !want[m.Name] || len(want) == 0 && !kinds[m.Kind] {
			continue
		}
		found[m.Name] = true
		sel = append(sel, m)
	}
	for _, n := range o.models {
		if !found[n] {
			return usagef("--models: no model %q in %s/manifest.json", n, dir)
		}
	}
	for _, s := range o.strategies {
		if _, _, err := splitStrategy(s); err != nil {
			return err
		}
	}
	for _, r := range o.reduce {
		if _, _, err := check.ParseReduce(strings.ReplaceAll(r, "+", ",")); err != nil {
			return usagef("--reduce %q: each setting is none or reductions joined by + (por, dead, por+dead); commas separate settings", r)
		}
	}
	cols := benchColumns(o.strategies, o.reduce)
	var recs []benchRecord
	progress := isTerminal(stderr)
	for _, bm := range sel {
		for round := 1; round <= o.repeat; round++ {
			for _, col := range cols {
				if err := benchColumnRuns(o, dir, bm, col, round, progress, stderr, &recs); err != nil {
					return err
				}
			}
		}
	}
	if progress {
		fmt.Fprint(stderr, "\r\033[K")
	}
	tableI := anySymbolic(o.strategies)
	if o.plot != "" {
		plot := writePlot
		if tableI {
			plot = writeTableIPlot
		}
		if err := plot(o.plot, sel, columnNames(cols), recs); err != nil {
			return usagef("--plot: %v", err)
		}
	}
	switch o.format {
	case "json":
		b, _ := json.MarshalIndent(recs, "", "  ")
		fmt.Fprintln(stdout, string(b))
	case "csv":
		w := csv.NewWriter(stdout)
		w.Write([]string{"model", "strategy", "seed", "verdict", "violation", "as_expected", "states", "seconds", "trace_length", "peak_memory_bytes", "limit", "paper_states", "paper_seconds", "reduce", "max_depth", "round", "member"})
		for _, r := range recs {
			w.Write([]string{r.Model, r.Strategy, strconv.FormatUint(r.Seed, 10), r.Verdict, r.Kind, strconv.FormatBool(r.Expected),
				strconv.Itoa(r.States), strconv.FormatFloat(r.Seconds, 'f', 6, 64), strconv.Itoa(r.TraceLength),
				strconv.FormatInt(r.PeakMemory, 10), r.Limit, strconv.Itoa(r.PaperStates), strconv.FormatFloat(r.PaperSecs, 'f', 2, 64), r.Reduce,
				strconv.Itoa(r.MaxDepth), strconv.Itoa(r.Round), r.Member})
		}
		w.Flush()
	default:
		if tableI {
			writeTableI(stdout, o.format == "markdown", sel, columnNames(cols), recs)
		} else {
			writeBenchTables(stdout, o.format == "markdown", sel, columnNames(cols), recs, o.workers)
		}
	}
	for _, r := range recs {
		if !r.Expected && r.Limit == "" {
			return &exitError{code: ExitViolation, msg: fmt.Sprintf("bench: %s under %s: verdict %s %s, the manifest expects otherwise", r.Model, r.col(), r.Verdict, r.Kind)}
		}
	}
	return nil
}

// benchColumnRuns runs model bm under column col once (a randomised
// strategy once per seed) in round round, appending the records to recs.
func benchColumnRuns(o *benchOptions, dir string, bm benchModel, col benchColumn, round int, progress bool, stderr io.Writer, recs *[]benchRecord) error {
	strat := col.strategy
	search, heur, _ := splitStrategy(strat)
	seeds := []uint64{0}
	if search == "random" {
		seeds = nil
		for i := 1; i <= o.runs; i++ {
			seeds = append(seeds, uint64(i))
		}
	}
	for _, seed := range seeds {
		if progress {
			fmt.Fprintf(stderr, "\r\033[K%s: %s", bm.Name, col.name)
			if o.repeat > 1 {
				fmt.Fprintf(stderr, " (round %d of %d)", round, o.repeat)
			}
		}
		var r benchRecord
		var err error
		if mode, prio, ok := symbolicStrategy(strat); ok {
			r, err = benchSymbolic(o, dir, bm, mode, prio)
		} else {
			r, err = benchRun(o, dir, bm, search, heur, col.reduce, seed)
		}
		if err != nil {
			return err
		}
		r.Strategy, r.Reduce, r.column = strat, col.reduce, col.name
		if o.repeat > 1 {
			r.Round = round
		}
		if row, ok := heuristics.PaperRowNamed(bm.PaperRow); ok {
			if i := paperColumn(strat); i >= 0 {
				r.PaperStates, r.PaperSecs = row.States[i], row.Seconds[i]
			}
		}
		*recs = append(*recs, r)
	}
	return nil
}

// benchColumn is a column of bench's tables: a strategy under one
// reduction setting.
type benchColumn struct{ name, strategy, reduce string }

// benchColumns crosses the strategies with the reduction settings, the
// settings of a strategy side by side; with one setting a column is named
// after its strategy, with more STRATEGY/SETTING. The symbolic engine's
// strategies, which have no reductions, have one column each.
func benchColumns(strats, reduce []string) []benchColumn {
	var cols []benchColumn
	for _, s := range strats {
		if _, _, ok := symbolicStrategy(s); ok {
			cols = append(cols, benchColumn{name: s, strategy: s, reduce: "none"})
			continue
		}
		for _, r := range reduce {
			name := s
			if len(reduce) > 1 {
				name += "/" + r
			}
			cols = append(cols, benchColumn{name: name, strategy: s, reduce: r})
		}
	}
	return cols
}

func columnNames(cols []benchColumn) []string {
	var n []string
	for _, c := range cols {
		n = append(n, c.name)
	}
	return n
}

// col is the name of the record's column in the tables.
func (r benchRecord) col() string {
	if r.column != "" {
		return r.column
	}
	return r.Strategy
}

// paperColumn returns the column of the paper's Tables 1 and 2 that the
// strategy SEARCH[+HEURISTIC] (or the column SEARCH[+HEURISTIC]/SETTING)
// corresponds to, or -1.
func paperColumn(strat string) int {
	strat, _, _ = strings.Cut(strat, "/")
	sr, h, err := splitStrategy(strat)
	if err != nil {
		return -1
	}
	k, err := heuristics.ParseKind(h)
	if err != nil {
		return -1
	}
	return heuristics.PaperColumnOf(sr, k)
}

// splitStrategy reads SEARCH[+HEURISTIC] (a strategy of the symbolic
// engine is itself, without a heuristic).
func splitStrategy(s string) (string, string, error) {
	if _, _, ok := symbolicStrategy(s); ok || s == "swarm" {
		return s, "", nil
	}
	sr, h, _ := strings.Cut(s, "+")
	if _, err := search.ParseStrategy(sr); err != nil {
		return "", "", usagef("--strategies %q: %v", s, err)
	}
	if h == "" {
		h = "none"
	}
	switch h {
	case "none", "fsm", "aicfg", "efsm":
	default:
		return "", "", usagef("--strategies %q: unknown heuristic %q (none, fsm, aicfg, efsm)", s, h)
	}
	return sr, h, nil
}

// modelOptions are check's options with a manifest model's flags.
func modelOptions(dir string, bm benchModel) (*checkOptions, error) {
	co := &checkOptions{}
	fs := pflag.NewFlagSet("check", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	co.register(fs)
	if err := fs.Parse(bm.Flags); err != nil {
		return nil, usagef("%s/manifest.json: model %s: flags: %v", dir, bm.Name, err)
	}
	return co, nil
}

// freshHeap collects the garbage of the runs before, and when the process
// still holds more than a fresh one would (16 MiB), returns the free memory
// to the operating system. The searches hold their collector back only
// while the process holds less than that (search package, memory.go): after
// a run of hundreds of megabytes, a small run that followed ran with the
// collector, as it would in no process of its own (a search of 456 states
// took 1.5 ms instead of 0.4). Memory is returned only then: a run on
// memory just returned takes a page fault for every page it touches, and
// two members of a swarm faulting at once ran each 1.6 times slower than
// alone (on memory the process held, 1.1 times).
func freshHeap() {
	runtime.GC()
	if held, _ := memlimit.Held(); held > 16<<20 {
		debug.FreeOSMemory()
	}
}

func benchRun(o *benchOptions, dir string, bm benchModel, strat, heur, reduce string, seed uint64) (benchRecord, error) {
	co, err := modelOptions(dir, bm)
	if err != nil {
		return benchRecord{}, err
	}
	// The model's flags shape the machine; the column and bench's flags
	// the search.
	cfg, err := co.config()
	if err != nil {
		return benchRecord{}, err
	}
	if cfg.Reduce, cfg.Machine.Dead, err = check.ParseReduce(strings.ReplaceAll(reduce, "+", ",")); err != nil {
		return benchRecord{}, err
	}
	cfg.K, cfg.MaxStates, cfg.Timeout = o.k, o.maxStates, o.timeout
	if seed > 0 {
		cfg.Seed = seed
	}
	path := filepath.Join(dir, bm.File)
	if strat == "swarm" {
		return benchSwarm(co, cfg, path, bm, o.workers)
	}
	cfg.Strategy, _ = search.ParseStrategy(strat) // read by splitStrategy
	cfg.Heuristic, _ = heuristics.ParseKind(heur)
	cs, err := co.setup(path, cfg)
	if err != nil {
		return benchRecord{}, err
	}
	freshHeap()
	res := search.Run(context.Background(), cs.Machine, cs.Options)
	r := benchRecord{Model: bm.Name, Seed: seed, Verdict: res.Verdict.String(), States: res.Stats.StatesStored,
		Seconds: res.Stats.Seconds, PeakMemory: res.Stats.PeakMemory, Limit: res.Limit, MaxDepth: res.Stats.MaxDepth}
	if len(res.Found) > 0 {
		r.Kind = res.Found[0].Violation.Kind.String()
		r.TraceLength = len(res.Found[0].Trace)
	}
	r.Expected = r.Verdict == bm.Expect && (bm.Expect != "violation" || r.Kind == bm.Property)
	return r, nil
}

// writeAligned prints rows as columns: the first left-aligned, the others
// right-aligned, two spaces apart.
func writeAligned(w io.Writer, rows [][]string) {
	width := map[int]int{}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// swarmBound checks, for a swarm column, the bound the swarm is built to
// keep: its median time at most workers times that of the fastest other
// strategy of the same reduction setting (by median time, among those
// that decided as the manifest expects). It returns "" for other columns.
func swarmBound(models []benchModel, strats []string, recs []benchRecord, col string, workers int) string {
	name, setting, _ := strings.Cut(col, "/")
	if name != "swarm" {
		return ""
	}
	held, of := 0, 0
	worst, worstModel := 0.0, ""
	var misses []string
	for _, m := range models {
		sw := summarise(recs, m.Name, col, func(r benchRecord) float64 { return r.Seconds })
		if sw.n == 0 {
			continue
		}
		best, bestCol := math.Inf(1), ""
		for _, o := range strats {
			on, os, _ := strings.Cut(o, "/")
			if on == "swarm" || os != setting {
				continue
			}
			c := summarise(recs, m.Name, o, func(r benchRecord) float64 { return r.Seconds })
			if c.n > 0 && !c.limit && !c.wrong && c.median < best {
				best, bestCol = c.median, o
			}
		}
		if bestCol == "" {
			continue
		}
		of++
		ratio := sw.median / best
		if !sw.limit && !sw.wrong && ratio <= float64(workers) {
			held++
		} else {
			misses = append(misses, fmt.Sprintf("%s (%.1f × %s)", m.Name, ratio, bestCol))
		}
		if ratio > worst {
			worst, worstModel = ratio, m.Name
		}
	}
	if of == 0 {
		return ""
	}
	b := fmt.Sprintf("%s of %d: at most %d × the fastest other strategy's time on %d of %d models (the most: %.1f ×, %s)",
		col, workers, workers, held, of, worst, worstModel)
	if len(misses) > 0 {
		b += "; more on " + strings.Join(misses, ", ")
	}
	return b
}

// cell summarises the runs of one model under one strategy: the value, or
// the median and the spread of randomised runs.
type cell struct {
	median, lo, hi float64
	n              int
	limit          bool
	wrong          bool
}

func summarise(recs []benchRecord, model, strat string, val func(benchRecord) float64) cell {
	var vs []float64
	c := cell{}
	for _, r := range recs {
		if r.Model == model && r.col() == strat {
			if v := val(r); !math.IsNaN(v) {
				vs = append(vs, v)
			}
			c.limit = c.limit || r.Limit != ""
			c.wrong = c.wrong || !r.Expected && r.Limit == ""
		}
	}
	if len(vs) == 0 {
		return cell{n: 0}
	}
	sort.Float64s(vs)
	c.n = len(vs)
	c.lo, c.hi = vs[0], vs[len(vs)-1]
	if len(vs)%2 == 1 {
		c.median = vs[len(vs)/2]
	} else {
		c.median = (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
	}
	return c
}

func (c cell) format(f func(float64) string) string {
	if c.n == 0 {
		return "-"
	}
	s := f(c.median)
	if c.n > 1 && f(c.lo) != f(c.hi) {
		s += " (" + f(c.lo) + "–" + f(c.hi) + ")"
	}
	if c.limit {
		s = "≥" + s
	}
	if c.wrong {
		s += " !"
	}
	return s
}

func intf(v float64) string { return units.Count(int64(math.Round(v))) }

// secf writes seconds with three decimals, or as many as two significant
// digits of a shorter time take.
func secf(v float64) string {
	d := 3
	if v > 0 && v < 0.01 {
		d = 1 - int(math.Floor(math.Log10(v)))
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}
func mibf(v float64) string { return strconv.FormatFloat(v/(1<<20), 'f', 0, 64) }

func writeBenchTables(w io.Writer, md bool, models []benchModel, strats []string, recs []benchRecord, workers int) {
	tables := []struct {
		title string
		val   func(benchRecord) float64
		f     func(float64) string
		paper func(heuristics.PaperRow, int) string
	}{
		{"States generated before the error (exhaustive models: all reachable states)", func(r benchRecord) float64 { return float64(r.States) }, intf,
			func(p heuristics.PaperRow, i int) string { return units.Count(int64(p.States[i])) }},
		{"Time to find the error (seconds)", func(r benchRecord) float64 { return r.Seconds }, secf,
			func(p heuristics.PaperRow, i int) string { return secf(p.Seconds[i]) }},
		{"Counterexample length (transitions)", func(r benchRecord) float64 {
			if r.Kind == "" {
				return math.NaN()
			}
			return float64(r.TraceLength)
		}, intf, nil},
		{"Peak memory (MiB)", func(r benchRecord) float64 { return float64(r.PeakMemory) }, mibf, nil},
	}
	for ti, t := range tables {
		if ti > 0 {
			fmt.Fprintln(w)
		}
		header := append([]string{"model"}, strats...)
		var rows [][]string
		for _, m := range models {
			row := []string{m.Name}
			for _, s := range strats {
				row = append(row, summarise(recs, m.Name, s, t.val).format(t.f))
			}
			rows = append(rows, row)
			if p, ok := heuristics.PaperRowNamed(m.PaperRow); ok && t.paper != nil {
				prow := []string{"  paper: " + m.PaperRow}
				for _, s := range strats {
					v := ""
					if i := paperColumn(s); i >= 0 {
						v = t.paper(p, i)
					}
					prow = append(prow, v)
				}
				rows = append(rows, prow)
			}
		}
		if md {
			fmt.Fprintf(w, "**%s**\n\n", t.title)
			fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat("---|", len(header)))
			for _, r := range rows {
				fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
			}
			continue
		}
		fmt.Fprintln(w, t.title)
		writeAligned(w, append([][]string{header}, rows...))
	}
	for _, s := range strats {
		if b := swarmBound(models, strats, recs, s, workers); b != "" {
			fmt.Fprintf(w, "\n%s\n", b)
		}
	}
	note := "≥: a limit stopped the run; (a–b): the spread of the runs (seeds, rounds) around their median; !: not the manifest's verdict."
	if md {
		fmt.Fprintf(w, "\n%s Paper rows: Rungta & Mercer, Tables 1 and 2 (another simulator and machine: compare ratios).\n", note)
	} else {
		fmt.Fprintf(w, "\n%s\npaper rows: Rungta & Mercer, Tables 1 and 2 (another simulator and machine: compare ratios)\n", note)
	}
}
