package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/bench"
)

func benchJSON(t *testing.T, args ...string) []bench.Record {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Main(append([]string{"bench", "../../../../testdata/bench", "--format", "json"}, args...), nil, &out, &errb); code != 0 {
		t.Fatalf("bench %v: exit %d: %s", args, code, errb.String())
	}
	var recs []bench.Record
	if err := json.Unmarshal(out.Bytes(), &recs); err != nil {
		t.Fatal(err)
	}
	return recs
}

// The deterministic strategies give the same counts on every run, every
// verdict is the manifest's, and random runs use one seed each.
func TestBenchDeterministic(t *testing.T) {
	args := []string{"--models", "naive2,lockorder,naive3_bp", "--strategies", "bfs,dfs,best+fsm,best+efsm,random", "--runs", "3"}
	a, b := benchJSON(t, args...), benchJSON(t, args...)
	if len(a) != 3*(4+3) || len(a) != len(b) {
		t.Fatalf("%d and %d records", len(a), len(b))
	}
	for i := range a {
		if !a[i].Expected {
			t.Errorf("%s %s: verdict %s %s", a[i].Model, a[i].Strategy, a[i].Verdict, a[i].Kind)
		}
		if a[i].States != b[i].States || a[i].TraceLength != b[i].TraceLength || a[i].Seed != b[i].Seed {
			t.Errorf("%s %s seed %d: %d then %d states", a[i].Model, a[i].Strategy, a[i].Seed, a[i].States, b[i].States)
		}
		if a[i].Model == "naive2" && a[i].Strategy == "bfs" && a[i].PaperStates != 19013 {
			t.Errorf("naive2 bfs: paper column %d, want Table 1's 19,013", a[i].PaperStates)
		}
	}
}

func TestBenchFormats(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "r.svg")
	for _, f := range []string{"text", "markdown", "csv"} {
		var out, errb bytes.Buffer
		args := []string{"bench", "../../../../testdata/bench", "--models", "hyman", "--strategies", "bfs,best+efsm", "--format", f, "--plot", svg}
		if code := Main(args, nil, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, errb.String())
		}
		want := map[string]string{"text": "paper: Hyman", "markdown": "| hyman |", "csv": "model,strategy,seed"}[f]
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s output lacks %q:\n%s", f, want, out.String())
		}
	}
	b, err := os.ReadFile(svg)
	if err != nil || !bytes.HasPrefix(b, []byte("<svg")) || !bytes.Contains(b, []byte("best+efsm")) {
		t.Errorf("plot: %v %.100s", err, b)
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"bench", "../../../../testdata/bench", "--strategies", "best+magic"}, nil, &out, &errb); code != ExitUsage {
		t.Errorf("unknown heuristic: exit %d", code)
	}
}

// --reduce runs each strategy under each setting: a column per pair,
// named STRATEGY/SETTING, the setting in every record; a verified model
// stores no more states reduced than plain; a bad setting is exit 2.
func TestBenchReduce(t *testing.T) {
	recs := benchJSON(t, "--models", "peterson,lockorder", "--strategies", "bfs", "--reduce", "none,por+dead")
	if len(recs) != 4 {
		t.Fatalf("%d records, want 2 models × 2 settings", len(recs))
	}
	states := map[string]int{}
	for _, r := range recs {
		if !r.Expected || r.Limit != "" {
			t.Errorf("%s %s --reduce %s: verdict %s %s %s", r.Model, r.Strategy, r.Reduce, r.Verdict, r.Kind, r.Limit)
		}
		states[r.Model+" "+r.Reduce] = r.States
	}
	if states["peterson por+dead"] == 0 || states["peterson por+dead"] > states["peterson none"] {
		t.Errorf("peterson: %d states reduced, %d plain", states["peterson por+dead"], states["peterson none"])
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"bench", "../../../../testdata/bench", "--models", "lockorder", "--strategies", "bfs,dfs", "--reduce", "none,por"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "bfs/none  bfs/por  dfs/none  dfs/por") {
		t.Errorf("the columns are not STRATEGY/SETTING:\n%s", out.String())
	}
	out.Reset()
	errb.Reset()
	if code := Main([]string{"bench", "../../../../testdata/bench", "--reduce", "por,fast"}, nil, &out, &errb); code != ExitUsage || !strings.Contains(errb.String(), "--reduce") {
		t.Errorf("--reduce por,fast: exit %d: %s", code, errb.String())
	}
}

// The symbolic engine's configurations on testdata/models/symbolic, the
// comparison of the HMC paper's Table I: every one finds secret4's
// violation (BMC's witness no longer than any other) and proves
// crc8_table; BMC on crc8 stops at its time limit with the depth it
// reached. The table is Table I's layout, the plot time and memory.
func TestBenchSymbolic(t *testing.T) {
	dir := "../../../../testdata/models/symbolic"
	var out, errb bytes.Buffer
	args := []string{"bench", dir, "--models", "secret4,crc8_table", "--strategies", "bmc,st,hmc+dfs,hmc+glh", "--format", "json"}
	if code := Main(args, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var recs []bench.Record
	if err := json.Unmarshal(out.Bytes(), &recs); err != nil || len(recs) != 8 {
		t.Fatalf("%v: %d records\n%s", err, len(recs), out.String())
	}
	for _, r := range recs {
		if !r.Expected || r.Limit != "" || r.PeakMemory == 0 || r.MaxDepth == 0 {
			t.Errorf("%s %s: %+v", r.Model, r.Strategy, r)
		}
		if r.Model == "secret4" && r.TraceLength != 76 {
			t.Errorf("secret4 %s: a witness of %d transitions, want 76", r.Strategy, r.TraceLength)
		}
		if r.Strategy == "bmc" && (r.States != 0 || r.Expanded == 0) {
			t.Errorf("%s bmc stored %d states, expanded %d", r.Model, r.States, r.Expanded)
		}
	}
	svg := filepath.Join(t.TempDir(), "t1.svg")
	out.Reset()
	args = []string{"bench", dir, "--models", "secret4,crc8", "--strategies", "bmc,hmc+glh", "--timeout", "1s", "--format", "markdown", "--plot", svg}
	if code := Main(args, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"| model | expected | bmc T | bmc M | bmc d*/wd | hmc+glh T |", "| secret4 | violation |", "**76**", "| crc8 | verified | ≥", "454* |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
	if b, err := os.ReadFile(svg); err != nil || !bytes.Contains(b, []byte("peak memory (MiB)")) || !bytes.Contains(b, []byte("hmc+glh")) {
		t.Errorf("plot: %v %.200s", err, b)
	}
	for _, args := range [][]string{
		{"--strategies", "bmc,st", "--reduce", "none"},
		{"--strategies", "bmc", "--k", "2"},
		{"--strategies", "bmc+dfs"},
		{"--strategies", "hmc+bfs"},
	} {
		out.Reset()
		errb.Reset()
		if code := Main(append([]string{"bench", dir}, args...), nil, &out, &errb); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d: %s", args, code, ExitUsage, errb.String())
		}
	}
}

// --repeat runs every strategy once per round and the tables give the
// median; with the swarm they end with its bound.
func TestBenchRepeat(t *testing.T) {
	recs := benchJSON(t, "--models", "lockorder", "--strategies", "bfs,swarm", "--workers", "2", "--repeat", "3")
	rounds := map[string][]int{}
	for _, r := range recs {
		rounds[r.Strategy] = append(rounds[r.Strategy], r.Round)
		if !r.Expected {
			t.Errorf("%s round %d: %s %s", r.Strategy, r.Round, r.Verdict, r.Kind)
		}
	}
	for _, s := range []string{"bfs", "swarm"} {
		if got := rounds[s]; len(got) != 3 || got[0] != 1 || got[2] != 3 {
			t.Errorf("%s: rounds %v, want 1, 2, 3", s, got)
		}
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"bench", "../../../../testdata/bench", "--models", "lockorder,naive2", "--strategies", "dfs,swarm", "--workers", "2", "--repeat", "2"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "swarm of 2: at most 2 × the fastest other strategy's time on ") || !strings.Contains(out.String(), " of 2 models") {
		t.Errorf("no bound line:\n%s", out.String())
	}
}
