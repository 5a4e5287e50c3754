package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/testkit/randprog"
)

// The differential test of every way of checking a program against the
// plain one, on programs from randprog.Generate.

var (
	soundnessN     = flag.Int("soundness.n", 0, "TestRandomDifferential: the number of generated programs (0: the default for the run, fewer with -short)")
	soundnessStart = flag.Uint64("soundness.start", 0, "TestRandomDifferential: the seed of the first program")
)

// diffStates bounds every search; a program whose plain search does not
// finish within it is skipped. The symbolic engine runs only on programs
// whose plain search stores at most diffEngineStates states: on larger
// ones its solver takes seconds.
const (
	diffStates       = 20000
	diffEngineStates = 1000
)

// diffSetting is one way of checking a program.
type diffSetting struct {
	name string
	args []string
	// all: the run lists every kind of violation (--all), which must be
	// the reference's set.
	all bool
	// engine: the symbolic engine takes part, which refuses some programs
	// (exit 2) and may stop at its own limits.
	engine bool
	// subset: the run restricts the environment (--sci-timing idle lets
	// bytes arrive only while the firmware waits; --clock exact
	// --sci-timing first, the board member's, at the first wait, on the
	// exact clock's timings), so its violations must
	// be among the reference's, and it may end incomplete within its
	// bounds; programs it does not apply to (exit 2) are left out.
	subset bool
	// resume: the search is cut by a --max-states drawn for the program,
	// its frontier saved, and resumed from it (with args both times);
	// the resumed run's verdict is the one compared.
	resume bool
}

// diffSettings are the settings compared with --reduce none --search
// bfs --batch off: the batches alone, each reduction with each search
// and with the swarm, the default reductions with each search cut by
// --max-states and resumed, the parallel search, the hash-compact store,
// and the engines hmc and auto (all but the first two with batches, the
// default).
func diffSettings() []diffSetting {
	ss := []diffSetting{
		{name: "--reduce none --search bfs (batches)", args: []string{"--reduce", "none", "--search", "bfs", "--all"}, all: true},
		{name: "--reduce none --search dfs (batches)", args: []string{"--reduce", "none", "--search", "dfs", "--all"}, all: true},
	}
	for _, red := range []string{"por", "dead", "por,dead"} {
		for _, s := range []string{"bfs", "dfs", "best"} {
			ss = append(ss, diffSetting{name: "--reduce " + red + " --search " + s, args: []string{"--reduce", red, "--search", s, "--all"}, all: true})
		}
		ss = append(ss, diffSetting{name: "--reduce " + red + " (swarm)", args: []string{"--reduce", red, "--workers", "3"}})
	}
	// Cut, saved and resumed: one worker, as a search that saves its
	// frontier runs; once without batches, whose cuts fall between the
	// instructions of a stretch a batch would run through.
	for _, a := range [][]string{{"--search", "bfs", "--all"}, {"--search", "bfs", "--all", "--batch", "off"}, {"--search", "dfs", "--all"}, {"--search", "best"}, {"--search", "best", "--reduce", "por"}, {"--search", "random", "--seed", "3"}} {
		ss = append(ss, diffSetting{name: "resumed " + strings.Join(a, " "), args: a, all: slices.Contains(a, "--all"), resume: true})
	}
	return append(ss,
		diffSetting{name: "--workers 2 --search bfs", args: []string{"--workers", "2", "--search", "bfs", "--all"}, all: true},
		diffSetting{name: "--hash-compact --search dfs", args: []string{"--hash-compact", "--search", "dfs", "--all"}, all: true},
		diffSetting{name: "--engine hmc --pr-depth 8", args: []string{"--engine", "hmc", "--pr-depth", "8"}, engine: true},
		diffSetting{name: "--engine auto", args: []string{"--engine", "auto"}, engine: true},
		diffSetting{name: "--sci-timing idle --search bfs", args: []string{"--sci-timing", "idle", "--search", "bfs", "--all"}, subset: true},
		// The board member's model: the exact clock (a restriction of the
		// abstract clock's timings) with each byte at the first wait,
		// without reductions, as the board member runs it.
		diffSetting{name: "--clock exact --sci-timing first --reduce none --search bfs", args: []string{"--clock", "exact", "--sci-timing", "first", "--reduce", "none", "--search", "bfs", "--all"}, subset: true},
		// The same under the default reductions, where dead-data
		// elimination leaves the exact clock's timer counters out until
		// the firmware looks at the timer.
		diffSetting{name: "--clock exact --sci-timing first --search bfs", args: []string{"--clock", "exact", "--sci-timing", "first", "--search", "bfs", "--all"}, subset: true},
	)
}

// diffResult is what the differential test reads of check --json.
type diffResult struct {
	Verdict   string `json:"verdict"`
	Violation *struct {
		Kind string `json:"kind"`
	} `json:"violation"`
	Violations []struct {
		Kind string `json:"kind"`
	} `json:"violations"`
	Limit   string `json:"limit"`
	Privacy string `json:"stack_privacy"`
	Stats   struct {
		StatesStored int `json:"states_stored"`
	} `json:"stats"`
}

// kinds lists the kinds of violation a result reports, sorted.
func (r *diffResult) kinds() []string {
	var k []string
	for _, v := range r.Violations {
		k = append(k, v.Kind)
	}
	if len(k) == 0 && r.Violation != nil {
		k = append(k, r.Violation.Kind)
	}
	sort.Strings(k)
	return slices.Compact(k)
}

// honestLimit reports whether an incomplete verdict's reason is one of
// the reductions' stated withdrawals: dead-data elimination's assumptions
// broken by the firmware (a return elsewhere than after a call, a read
// below SP of what pulls leave), which is allowed, rather than a limit or
// a violation that did not happen without the reduction (the reduction
// changed what executes).
func honestLimit(limit string) bool {
	return strings.Contains(limit, "returned elsewhere than after a call") ||
		strings.Contains(limit, "stack bytes below SP")
}

// diffProgram is a generated program written to files.
type diffProgram struct {
	seed uint64
	p    *randprog.Prog
	load []string // the file and the flags that load it
	dir  string
}

// writeProgram generates program seed and writes its files into dir.
func writeProgram(t *testing.T, seed uint64, dir string) *diffProgram {
	t.Helper()
	p := randprog.Generate(rand.New(rand.NewPCG(seed, 0x5eed)), randprog.Options{More: rand.New(rand.NewPCG(seed, 0x1e4d))})
	img := filepath.Join(dir, fmt.Sprintf("p%d.bin", seed))
	if err := os.WriteFile(img, p.Bytes, 0o644); err != nil {
		t.Fatal(err)
	}
	syms := ""
	if s := p.SymbolFile(); s != "" {
		syms = filepath.Join(dir, fmt.Sprintf("p%d.sym", seed))
		if err := os.WriteFile(syms, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &diffProgram{seed: seed, p: p, load: p.LoadFlags(img, syms), dir: dir}
}

// check runs check --json on the program with the given flags and a
// trace file, and returns the result and the exit code; usage errors
// come back as code 2 with the message in the limit.
func (d *diffProgram) check(extra ...string) (diffResult, int, string) {
	trace := filepath.Join(d.dir, fmt.Sprintf("p%d-cex.json", d.seed))
	os.Remove(trace)
	args := append(append(append([]string{"check"}, d.load...), d.p.CheckFlags()...), "--json", "--max-states", fmt.Sprint(diffStates), "--trace", trace)
	args = append(args, extra...)
	var out, errb bytes.Buffer
	code := Main(args, nil, &out, &errb)
	var r diffResult
	if code == ExitUsage {
		r.Limit = strings.TrimSpace(errb.String())
		return r, code, ""
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		r.Verdict, r.Limit = "bad-json", fmt.Sprintf("%q: %v (stderr %s)", out.String(), err, errb.String())
	}
	if _, err := os.Stat(trace); err != nil {
		trace = ""
	}
	return r, code, trace
}

// resumed runs the program with args cut by a --max-states drawn from
// its seed (below the plain search's states, which bounds the reduced
// search's), saves the frontier and resumes it; a run the cut did not
// stop is the result as it is. Once in a while it resumes the saved
// frontier under the other of bfs and dfs instead, which must go on to
// the same verdict, and under --engine auto, which goes on to the same
// verdict where the saved search ran its reductions (--reduce por) and is
// refused (exit 2) where not.
func (d *diffProgram) resumed(st *diffStats, plain int, args []string) (diffResult, int, string) {
	h := d.seed*0x9E3779B97F4A7C15 ^ uint64(len(strings.Join(args, " ")))*0xBF58476D1CE4E5B9
	cut := 1 + int((h>>17)%uint64(max(1, plain*2/3)))
	saved := filepath.Join(d.dir, fmt.Sprintf("p%d-frontier", d.seed))
	os.Remove(saved)
	r, code, trace := d.check(append(slices.Clone(args), "--workers", "1", "--max-states", fmt.Sprint(cut), "--save-frontier", saved)...)
	if code == ExitUsage || r.Verdict != "incomplete" || !strings.Contains(r.Limit, "max-states") {
		return r, code, trace
	}
	if st != nil {
		st.resumed++
	}
	if h%7 == 0 {
		if o, c, tr := d.check(append(slices.Clone(args), "--engine", "auto", "--resume", saved)...); c != ExitUsage {
			// Another engine goes on from the frontier (--engine auto,
			// where it runs the saved search's reductions and order;
			// refused otherwise): to the same verdict.
			if st != nil {
				st.resumedAuto++
			}
			return o, c, tr
		}
		// Another order goes on from the same frontier, to the same
		// verdict.
		other := slices.Clone(args)
		swap := map[string]string{"bfs": "dfs", "dfs": "bfs"}
		if i := slices.Index(other, "--search"); i >= 0 && i+1 < len(other) && swap[other[i+1]] != "" {
			other[i+1] = swap[other[i+1]]
			return d.check(append(other, "--workers", "1", "--resume", saved)...)
		}
	}
	return d.check(append(slices.Clone(args), "--workers", "1", "--resume", saved)...)
}

// diffStats counts what the differential runs saw.
type diffStats struct {
	programs, skipped, violated, verified int
	withdrawn, refused, engineIncomplete  int
	subset, subsetViolated                int // runs of a subset setting, and their violations
	resumed                               int // runs cut and resumed
	resumedAuto                           int // of them, resumed under --engine auto
	features                              map[string]int
}

// discrepancy is one setting that disagrees with the reference.
type discrepancy struct {
	setting string
	what    string
}

// diffOne checks program seed under every setting against the reference
// and returns the discrepancies (nil when they all agree); ok is false
// when the reference is not exhaustive (the program is skipped).
func diffOne(t *testing.T, seed uint64, dir string, st *diffStats, settings []diffSetting) (d *diffProgram, bad []discrepancy, ok bool) {
	t.Helper()
	d = writeProgram(t, seed, dir)
	ref, code, _ := d.check("--reduce", "none", "--search", "bfs", "--all", "--batch", "off")
	if code == ExitUsage || ref.Verdict == "bad-json" {
		return d, []discrepancy{{"--reduce none --search bfs --batch off", "refused: " + ref.Limit}}, true
	}
	if ref.Verdict == "incomplete" {
		if st != nil {
			st.skipped++
		}
		return d, nil, false
	}
	want := ref.kinds()
	if st != nil {
		st.programs++
		if len(want) > 0 {
			st.violated++
		} else {
			st.verified++
		}
		for _, f := range d.p.Features {
			st.features[f]++
		}
	}
	for _, s := range settings {
		if s.engine && ref.Stats.StatesStored > diffEngineStates {
			continue
		}
		var r diffResult
		var code int
		var trace string
		switch {
		case s.subset:
			r, code, trace = d.check(s.args...)
			if code != ExitUsage {
				bad = append(bad, subsetDiscrepancies(s, r, want, trace)...)
				if st != nil {
					st.subset++
					if r.Verdict == "violation" {
						st.subsetViolated++
					}
				}
			}
			continue
		case s.resume:
			r, code, trace = d.resumed(st, ref.Stats.StatesStored, s.args)
		default:
			r, code, trace = d.check(s.args...)
		}
		if code == ExitUsage {
			if !s.engine {
				bad = append(bad, discrepancy{s.name, "refused: " + r.Limit})
			} else if st != nil {
				st.refused++
			}
			continue
		}
		got := r.kinds()
		switch r.Verdict {
		case "verified":
			if len(want) > 0 {
				bad = append(bad, discrepancy{s.name, fmt.Sprintf("verified; --reduce none finds %v", want)})
			}
		case "violation":
			switch {
			case len(want) == 0:
				bad = append(bad, discrepancy{s.name, fmt.Sprintf("violation %v; --reduce none verifies", got)})
			case s.all && !slices.Equal(got, want):
				bad = append(bad, discrepancy{s.name, fmt.Sprintf("violations %v; --reduce none finds %v", got, want)})
			case !s.all && !slices.Contains(want, got[0]):
				bad = append(bad, discrepancy{s.name, fmt.Sprintf("violation %s; --reduce none finds %v", got[0], want)})
			}
			if trace == "" {
				bad = append(bad, discrepancy{s.name, "violation without a counterexample"})
				break
			}
			var out, errb bytes.Buffer
			if c := Main([]string{"replay", trace}, nil, &out, &errb); c != ExitViolation {
				bad = append(bad, discrepancy{s.name, fmt.Sprintf("the counterexample does not replay (exit %d): %s", c, strings.TrimSpace(errb.String()))})
			}
		case "incomplete":
			switch {
			case honestLimit(r.Limit):
				if st != nil {
					st.withdrawn++
				}
			case s.engine:
				if st != nil {
					st.engineIncomplete++
				}
			default:
				bad = append(bad, discrepancy{s.name, fmt.Sprintf("incomplete (%s); --reduce none is exhaustive and finds %v", r.Limit, want)})
			}
		default:
			bad = append(bad, discrepancy{s.name, fmt.Sprintf("verdict %q (%s)", r.Verdict, r.Limit)})
		}
	}
	return d, bad, true
}

// subsetDiscrepancies compares the result r of a run that restricts the
// environment (diffSetting.subset) with the kinds the reference finds:
// every execution it explores is one the reference explores, so each of
// its violations is one of the reference's, and replays; it says nothing
// of the violations it does not reach.
func subsetDiscrepancies(s diffSetting, r diffResult, want []string, trace string) []discrepancy {
	switch r.Verdict {
	case "incomplete", "verified":
		return nil
	case "violation":
		var bad []discrepancy
		for _, k := range r.kinds() {
			if !slices.Contains(want, k) {
				bad = append(bad, discrepancy{s.name, fmt.Sprintf("violation %s; --reduce none finds %v", k, want)})
			}
		}
		if trace == "" {
			return append(bad, discrepancy{s.name, "violation without a counterexample"})
		}
		var out, errb bytes.Buffer
		if c := Main([]string{"replay", trace}, nil, &out, &errb); c != ExitViolation {
			bad = append(bad, discrepancy{s.name, fmt.Sprintf("the counterexample does not replay (exit %d): %s", c, strings.TrimSpace(errb.String()))})
		}
		return bad
	}
	return []discrepancy{{s.name, fmt.Sprintf("verdict %q (%s)", r.Verdict, r.Limit)}}
}

// diffRange is the seeds TestRandomDifferential runs.
func diffRange() (start, n uint64) {
	n = 400
	if testing.Short() {
		n = 80
	}
	if *soundnessN > 0 {
		n = uint64(*soundnessN)
	}
	return *soundnessStart, n
}

// TestRandomDifferential: on programs drawn from randprog.Generate's
// grammar (threads and stacks in varied layouts, harness stubs entered in
// every way, code in RAM and on the stack, tables read through SP,
// interrupt handlers, the chip's peripherals and INIT), every reduction
// under every search, the swarm, the parallel search, the hash-compact
// store and the engines hmc and auto agree with the plain breadth-first
// search (--reduce none, exhaustive, every kind with --all): the same
// verdict; with --all the same kinds, without it a kind the plain search
// finds; an incomplete verdict only where a reduction says its assumption
// broke (or the symbolic engine stops at its limits, or refuses the
// program); and every counterexample replays. make soundness N=100000
// runs more programs.
func TestRandomDifferential(t *testing.T) {
	start, n := diffRange()
	dir := t.TempDir()
	st := &diffStats{features: map[string]int{}}
	settings := diffSettings()
	failed := 0
	for seed := start; seed < start+n; seed++ {
		d, bad, _ := diffOne(t, seed, dir, st, settings)
		if len(bad) == 0 {
			continue
		}
		failed++
		var b strings.Builder
		for _, x := range bad {
			fmt.Fprintf(&b, "  %s: %s\n", x.setting, x.what)
		}
		t.Errorf("program %d disagrees with --reduce none --search bfs --batch off:\n%s%s", seed, b.String(), d.p)
		if failed >= 5 {
			t.Fatalf("stopping after %d programs that disagree", failed)
		}
	}
	t.Logf("%d programs compared (%d violate, %d verified), %d skipped (the plain search hit %d states); %d runs withdrawn by a stated reason, "+
		"%d refused by an engine, %d engine runs incomplete, %d runs cut and resumed (%d under --engine auto); lend-stack in %d programs, pulled-late in %d; "+
		"%d runs of a restricted environment, %d of them violations",
		st.programs, st.violated, st.verified, st.skipped, diffStates, st.withdrawn, st.refused, st.engineIncomplete, st.resumed, st.resumedAuto,
		st.features["lend-stack"], st.features["pulled-late"], st.subset, st.subsetViolated)
	if st.resumed < int(n) || st.resumedAuto == 0 || st.features["lend-stack"] < int(n)/20 || st.features["pulled-late"] < int(n)/50 {
		t.Errorf("the programs do not exercise resuming: %d runs cut and resumed (%d under --engine auto), lend-stack in %d programs, pulled-late in %d",
			st.resumed, st.resumedAuto, st.features["lend-stack"], st.features["pulled-late"])
	}
	if st.programs < int(n)*8/10 || st.violated < int(n)/5 || st.verified < int(n)/5 {
		t.Errorf("the programs do not exercise the comparison: %d of %d compared, %d violate, %d verified", st.programs, n, st.violated, st.verified)
	}
}
