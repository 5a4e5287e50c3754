package bench

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

const benchDir = "../testdata/bench"

// setup is a Setup for the models whose flags are --preempt alone, as
// check would read them.
func setup(m Model, mode, priority string) (check.Config, *loader.Image, error) {
	var cfg check.Config
	if len(m.Flags) != 2 || m.Flags[0] != "--preempt" {
		return cfg, nil, fmt.Errorf("flags %v", m.Flags)
	}
	p, err := sim.ParsePreempt(m.Flags[1])
	if err != nil {
		return cfg, nil, err
	}
	cfg.Machine.Preempt, cfg.Heuristic, cfg.K = p, 0, 1
	img, err := loader.Load(filepath.Join(benchDir, m.File), loader.Options{})
	return cfg, img, err
}

// Run: every model under every column, each round, a randomised strategy
// once per seed; the records name their column, round and seed, and a
// deterministic strategy counts the same states in every round.
func TestRun(t *testing.T) {
	var progress []string
	o := Options{Dir: benchDir, Models: []string{"lockorder", "hyman"}, Strategies: []string{"bfs", "random+fsm", "swarm"},
		Reduce: []string{"none", "por+dead"}, Runs: 2, Repeat: 2, MaxStates: 100000, K: 1, Workers: 2, Setup: setup,
		Progress: func(model, col string, round int) {
			progress = append(progress, fmt.Sprintf("%s %s %d", model, col, round))
		}}
	res, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Columns, ","); got != "bfs/none,bfs/por+dead,random+fsm/none,random+fsm/por+dead,swarm/none,swarm/por+dead" {
		t.Errorf("columns %s", got)
	}
	// 2 models × 2 rounds × (bfs 2 + random 2×2 seeds + swarm 2)
	if len(res.Records) != 32 || len(progress) != 32 || progress[0] != "hyman bfs/none 1" || res.Models[0].Name != "hyman" {
		t.Fatalf("%d records, progress %v", len(res.Records), progress[:3])
	}
	states := map[string]int{}
	for _, r := range res.Records {
		if !r.Expected || r.Limit != "" || r.Round < 1 || r.Round > 2 || r.Column() != r.Strategy+"/"+r.Reduce {
			t.Errorf("%+v", r)
		}
		if (r.Seed != 0) != strings.HasPrefix(r.Strategy, "random") || (r.Member != "") != (r.Strategy == "swarm") {
			t.Errorf("seed %d, member %q under %s", r.Seed, r.Member, r.Strategy)
		}
		if r.Strategy == "bfs" {
			k := r.Model + r.Reduce
			if states[k] != 0 && states[k] != r.States {
				t.Errorf("%s under %s: %d states, then %d", r.Model, r.Column(), states[k], r.States)
			}
			states[k] = r.States
		}
	}
	if _, ok := res.Unexpected(); ok {
		t.Error("an unexpected verdict")
	}
}

// Run refuses what it cannot run before it runs anything.
func TestRunRefuses(t *testing.T) {
	base := Options{Dir: benchDir, Kinds: []string{"bug"}, Strategies: []string{"bfs"}, Reduce: []string{"por+dead"}, Runs: 1, Repeat: 1,
		Setup: func(Model, string, string) (check.Config, *loader.Image, error) {
			t.Fatal("a run")
			return check.Config{}, nil, nil
		}}
	for _, c := range []struct {
		change func(*Options)
		want   string
	}{
		{func(o *Options) { o.Models = []string{"nosuch"} }, `--models: no model "nosuch"`},
		{func(o *Options) { o.Strategies = []string{"best+magic"} }, `unknown heuristic "magic"`},
		{func(o *Options) { o.Strategies = []string{"wide"} }, `--strategies "wide"`},
		{func(o *Options) { o.Reduce = []string{"por,fast"} }, `--reduce "por,fast"`},
		{func(o *Options) { o.Dir = t.TempDir() }, "has no manifest.json"},
	} {
		o := base
		c.change(&o)
		if _, err := Run(o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte("[{\"name\": 1}]"), 0o644)
	if _, err := ReadManifest(dir); err == nil || !strings.Contains(err.Error(), "manifest.json") {
		t.Errorf("a bad manifest: %v", err)
	}
}

// The strategies: SEARCH[+HEURISTIC], the swarm, the symbolic engine's
// configurations; a column each, or one per reduction setting; the
// paper's column where there is one.
func TestStrategies(t *testing.T) {
	for s, want := range map[string][3]string{"bmc": {"bmc", "glh", "true"}, "st+dfs": {"st", "dfs", "true"}, "hmc": {"hmc", "glh", "true"},
		"bmc+dfs": {"", "", "false"}, "hmc+bfs": {"", "", "false"}, "bfs": {"", "", "false"}} {
		m, p, ok := SymbolicStrategy(s)
		if m != want[0] || p != want[1] || fmt.Sprint(ok) != want[2] {
			t.Errorf("%s: %s %s %t", s, m, p, ok)
		}
	}
	if !AnySymbolic([]string{"bfs", "st"}) || AnySymbolic([]string{"bfs", "swarm"}) {
		t.Error("AnySymbolic")
	}
	cols := columns([]string{"bfs", "bmc"}, []string{"none", "por"})
	if len(cols) != 3 || cols[0].name != "bfs/none" || cols[2].name != "bmc" || cols[2].reduce != "none" {
		t.Errorf("%+v", cols)
	}
	if cols := columns([]string{"dfs"}, []string{"por+dead"}); cols[0].name != "dfs" {
		t.Errorf("one setting: %+v", cols)
	}
	if paperColumn("bfs") < 0 || paperColumn("bfs/none") != paperColumn("bfs") || paperColumn("swarm") >= 0 || paperColumn("best+magic") >= 0 {
		t.Error("paper columns")
	}
}

// A cell is the median of its runs, with their spread when they differ;
// ≥ marks a limit, ! a verdict that is not the manifest's.
func TestCell(t *testing.T) {
	recs := []Record{
		{Model: "m", Strategy: "s", States: 1000, Expected: true}, {Model: "m", Strategy: "s", States: 3000, Expected: true},
		{Model: "m", Strategy: "s", States: 2000, Expected: true}, {Model: "m", Strategy: "t", States: 5, Limit: "x"},
		{Model: "m", Strategy: "u", States: 5}, {Model: "n", Strategy: "s", States: 9, Expected: true},
	}
	states := func(r Record) float64 { return float64(r.States) }
	for col, want := range map[string]string{"s": "2,000 (1,000–3,000)", "t": "≥5", "u": "5 !", "v": "-"} {
		if got := summarise(recs, "m", col, states).format(intf); got != want {
			t.Errorf("%s: %q, want %q", col, got, want)
		}
	}
	limited := []Record{{Model: "m", Strategy: "s", States: 2000001, Limit: "--max-states 2000000"}, {Model: "m", Strategy: "t", States: 7, Limit: "--timeout 1s"}}
	if got := summarise(limited, "m", "s", shownStates).format(intf); got != "≥2,000,000" {
		t.Errorf("stopped by --max-states 2000000 after 2,000,001 states: %q, want ≥2,000,000", got)
	}
	if got := summarise(limited, "m", "t", shownStates).format(intf); got != "≥7" {
		t.Errorf("stopped by --timeout after 7 states: %q, want ≥7", got)
	}
	if secf(0.0012) != "0.0012" || secf(1.5) != "1.500" || mibf(3<<20) != "3" {
		t.Errorf("%s %s %s", secf(0.0012), secf(1.5), mibf(3<<20))
	}
}

// The outputs: the tables with the paper's rows, CSV with a header, the
// plot as SVG.
func TestWrite(t *testing.T) {
	res := &Results{Models: []Model{{Name: "naive2", PaperRow: "Naive Dining-Phil2"}}, Columns: []string{"bfs"}, Workers: 2,
		Records: []Record{{Model: "naive2", Strategy: "bfs", Verdict: "violation", Kind: "assert", Expected: true, States: 1234, Seconds: 0.5, TraceLength: 7}}}
	var b bytes.Buffer
	res.WriteText(&b, false)
	for _, want := range []string{"States generated before the error", "naive2                        1,234\n", "  paper: Naive Dining-Phil2  19,013\n", "Counterexample length"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	res.WriteText(&b, true)
	if !strings.Contains(b.String(), "| naive2 | 1,234 |") {
		t.Errorf("markdown:\n%s", b.String())
	}
	b.Reset()
	res.WriteCSV(&b)
	if lines := strings.Split(b.String(), "\n"); !strings.HasPrefix(lines[0], "model,strategy,seed,") || !strings.HasPrefix(lines[1], "naive2,bfs,0,violation,assert,true,1234,") {
		t.Errorf("csv:\n%s", b.String())
	}
	// A model the paper did not run has no figure: its paper columns are
	// empty, not 0.
	b.Reset()
	(&Results{Models: []Model{{Name: "peterson"}}, Columns: []string{"bfs"}, Records: []Record{{Model: "peterson", Strategy: "bfs", Verdict: "verified", Expected: true, States: 3}}}).WriteCSV(&b)
	rd := csv.NewReader(&b)
	rows, err := rd.ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("csv: %v %q", err, rows)
	}
	for i, h := range rows[0] {
		if (h == "paper_states" || h == "paper_seconds") && rows[1][i] != "" {
			t.Errorf("csv: %s = %q for a model the paper has no figure for, want empty", h, rows[1][i])
		}
	}
	svg := filepath.Join(t.TempDir(), "p.svg")
	if err := res.WritePlot(svg); err != nil {
		t.Fatal(err)
	}
	if p, _ := os.ReadFile(svg); !bytes.HasPrefix(p, []byte("<svg")) || !bytes.Contains(p, []byte("naive2, bfs: 1,234 states")) {
		t.Errorf("plot: %.200s", p)
	}
}

// The swarm's bound counts the models where its median time is at most
// --workers times the fastest other strategy's that decided as expected,
// and names the others.
func TestSwarmBound(t *testing.T) {
	rec := func(model, strat string, secs float64, ok bool) Record {
		return Record{Model: model, Strategy: strat, Seconds: secs, Expected: ok, Verdict: "violation"}
	}
	models := []Model{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	recs := []Record{
		rec("a", "bfs", 1, true), rec("a", "dfs", 2, true), rec("a", "swarm", 1.9, true), rec("a", "swarm", 2.1, true), rec("a", "swarm", 1.5, true),
		// The fastest strategy on b did not decide as expected: dfs counts.
		rec("b", "bfs", 0.1, false), rec("b", "dfs", 1, true), rec("b", "swarm", 1.9, true),
		rec("c", "bfs", 1, true), rec("c", "swarm", 2.5, true),
	}
	got := swarmBound(models, []string{"bfs", "dfs", "swarm"}, recs, "swarm", 2)
	want := "swarm of 2: at most 2 × the fastest other strategy's time on 2 of 3 models (the most: 2.5 ×, c); more on c (2.5 × bfs)"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if swarmBound(models, []string{"bfs", "swarm"}, recs, "bfs", 2) != "" {
		t.Error("a bound for a column that is not the swarm")
	}
}
