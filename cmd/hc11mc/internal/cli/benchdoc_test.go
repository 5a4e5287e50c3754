package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// deterministic are the strategies of docs/benchmarks.md whose counts do
// not depend on the machine: one search each, in a fixed order (the
// swarm's members race, and times and memory are measured).
var deterministic = []string{"bfs", "dfs", "best+fsm", "best+efsm", "astar+efsm"}

// docTable reads the markdown table that follows the line containing
// title in doc: the cell of each row (by its first cell, paper rows left
// out) and column (by the header's name).
func docTable(t *testing.T, doc, title string) map[string]map[string]string {
	t.Helper()
	i := strings.Index(doc, title)
	if i < 0 {
		t.Fatalf("no table %q", title)
	}
	var header []string
	out := map[string]map[string]string{}
	inTable := false
	for _, l := range strings.Split(doc[i:], "\n")[1:] {
		if !strings.HasPrefix(l, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		switch {
		case header == nil:
			header = cells
		case strings.HasPrefix(cells[0], "---") || strings.HasPrefix(cells[0], ":") || strings.HasPrefix(cells[0], "paper:"):
		default:
			row := map[string]string{}
			for k := 1; k < len(cells) && k < len(header); k++ {
				row[header[k]] = cells[k]
			}
			out[cells[0]] = row
		}
	}
	return out
}

// TestBenchmarksDoc: the states and counterexample lengths docs/benchmarks.md
// gives for the five single strategies are the tool's (hc11mc bench, one
// round), and so are the states of docs/performance.md's table of the
// reductions (the default and, but for the largest models, none), and
// those of the fastest single strategy in docs/swarm.md's table of the
// swarm (swarmDoc). A change that moves them fails here: make
// results-bench and make results-swarm rewrite their tables (the first
// used to say peterson 3,018 states breadth-first where the tool stored
// 3,124), and make results-reductions the reductions' table. The
// two runs that end at --max-states (tick_counter, depth-first and
// best+efsm), most of the bench's time, are left out: their cells give
// the limit.
func TestBenchmarksDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the benchmarks (-short)")
	}
	// The runs that end at the limit (tick_counter, depth-first and
	// best+efsm: 2,000,000 states, most of the time) are left out.
	var models []string
	for _, e := range readManifest(t, "../../../../testdata/bench") {
		if e.Kind != "throughput" && e.Name != "tick_counter" {
			models = append(models, e.Name)
		}
	}
	var rows [][]string
	for _, a := range [][]string{
		{"--models", strings.Join(models, ","), "--strategies", strings.Join(deterministic, ",")},
		{"--models", "tick_counter", "--strategies", "bfs,best+fsm,astar+efsm"},
		// docs/performance.md's columns of --reduce none, but for the
		// philo5 layouts (3 and 14 million states) and philo_big (41
		// million): about a second.
		{"--models", "peterson,bakery,naive3,dining2,bakery_broken,hyman,dining3,irq_lostupdate", "--strategies", "bfs,dfs", "--reduce", "none"},
	} {
		out := run(t, 0, append([]string{"bench", "../../../../testdata/bench", "--format", "csv"}, a...)...)
		rs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if rows == nil {
			rows = rs
		} else {
			rows = append(rows, rs[1:]...)
		}
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	states := map[string]string{} // model/strategy -> as the table shows it
	length := map[string]string{}
	for _, r := range rows[1:] {
		n, _ := strconv.Atoi(r[col["states"]])
		limit := r[col["limit"]]
		var max int
		if _, err := fmt.Sscanf(limit, "--max-states %d", &max); err == nil && n > max {
			n = max
		}
		s := count(n)
		if limit != "" {
			s = "≥" + s
		}
		key := r[col["model"]] + "/" + r[col["strategy"]]
		if r[col["reduce"]] == "none" {
			key += "/none"
		}
		states[key] = s
		length[key] = "-"
		if r[col["violation"]] != "" {
			l, _ := strconv.Atoi(r[col["trace_length"]])
			length[key] = count(l)
		}
	}
	b, err := os.ReadFile("../../../../docs/benchmarks.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	compare := func(page, title string, want map[string]string, cols map[string]string) {
		table := docTable(t, doc, title)
		if len(table) == 0 {
			t.Fatalf("%s: the table %q is empty", page, title)
		}
		checked := 0
		for model, row := range table {
			for docCol, strat := range cols {
				got, ok := row[docCol]
				w, ran := want[strings.Fields(model)[0]+"/"+strat]
				if !ok || !ran {
					continue
				}
				checked++
				if got != w {
					regen := "make results-bench"
					if page != "docs/benchmarks.md" {
						regen = "make results-reductions"
					}
					t.Errorf("%s, %s: %s under %s is %s in the page, %s from the tool (%s)", page, title, model, docCol, got, w, regen)
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: nothing of %q compared", page, title)
		}
	}
	same := map[string]string{}
	for _, s := range deterministic {
		same[s] = s
	}
	compare("docs/benchmarks.md", "**States generated before the error", states, same)
	compare("docs/benchmarks.md", "**Counterexample length (transitions)**", length, same)
	b, err = os.ReadFile("../../../../docs/performance.md")
	if err != nil {
		t.Fatal(err)
	}
	doc = string(b)
	compare("docs/performance.md", "<!-- reductions-table:begin", states, map[string]string{"bfs, por,dead": "bfs", "dfs, por,dead": "dfs", "bfs, none": "bfs/none", "dfs, none": "dfs/none"})
	swarmDoc(t, states)
}

// swarmDoc: in docs/swarm.md's table of the swarm against the single
// strategies (make results-swarm), the states of the fastest single
// strategy are the tool's where that strategy is one of the deterministic
// five (which strategy was fastest, the times, and the swarm's states and
// winner are measured, not checked: they depend on the machine and on the
// race).
func swarmDoc(t *testing.T, states map[string]string) {
	t.Helper()
	const page, title, col = "docs/swarm.md", "<!-- swarm-table:begin", "fastest single strategy: ms (states)"
	table := docTable(t, readDoc(t, page), title)
	checked := 0
	for model, row := range table {
		cell := row[col]
		strat := strings.Fields(cell + " ")[0]
		open, end := strings.Index(cell, "("), strings.LastIndex(cell, ")")
		want, ok := states[model+"/"+strat]
		if !ok || open < 0 || end < open {
			continue
		}
		checked++
		if got := cell[open+1 : end]; got != want {
			t.Errorf("%s: %s's fastest single strategy, %s, generated %s states in the page, %s from the tool (make results-swarm)", page, model, strat, got, want)
		}
	}
	if checked == 0 {
		t.Errorf("%s: nothing of %q compared", page, title)
	}
}

// count prints n as the tables do: with thousands separators.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// readDoc returns the page (a path from the repository's root).
func readDoc(t *testing.T, page string) string {
	t.Helper()
	b, err := os.ReadFile("../../../../" + page)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameCells compares, for each row of tool (a table the tool printed, by
// docTable) and each of cols, the cell with the page's table of that
// title; a row the tool printed and the page lacks is an error too.
func sameCells(t *testing.T, page, title, regen string, tool map[string]map[string]string, cols []string) {
	t.Helper()
	table := docTable(t, readDoc(t, page), title)
	checked := 0
	for model, want := range tool {
		got, ok := table[model]
		if !ok {
			t.Errorf("%s, %s: no row %s (%s)", page, title, model, regen)
			continue
		}
		for _, c := range cols {
			w, ok := want[c]
			if !ok {
				continue
			}
			checked++
			if got[c] != w {
				t.Errorf("%s, %s: %s under %s is %q in the page, %q from the tool (%s)", page, title, model, c, got[c], w, regen)
			}
		}
	}
	if checked == 0 {
		t.Errorf("%s: nothing of %q compared", page, title)
	}
}

// TestHMCTableDoc: the verdicts expected and the depths (wd, the
// counterexample's transitions, or d*, the deepest state reached) of
// docs/engines.md's comparison of BMC, ST and HMC are the tool's; times
// and memory are measured, not checked. Left out, for the time they take:
// torn16 (2.5 s of the three symbolic searches), and BMC on crc8 and
// crc16_ok (stopped by the time limit, so their d* depends on the
// machine), crc16_bad (1 s) and torn16.
func TestHMCTableDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the symbolic engine (-short)")
	}
	const title = "**Time T (s), peak memory M (MiB) and witness depth wd"
	tool := map[string]map[string]string{}
	for _, a := range [][]string{
		{"--models", "secret4,crc8,crc8_table,secret6,crc16_bad,crc16_ok,race_input", "--strategies", "st,hmc+dfs,hmc+glh"},
		{"--models", "secret4,crc8_table,secret6,race_input", "--strategies", "bmc"},
	} {
		out := run(t, 0, append([]string{"bench", "../../../../testdata/models/symbolic", "--format", "markdown"}, a...)...)
		for model, row := range docTable(t, out, title) {
			if tool[model] == nil {
				tool[model] = map[string]string{}
			}
			for c, v := range row {
				tool[model][c] = v
			}
		}
	}
	sameCells(t, "docs/engines.md", title, "make results-hmc", tool,
		[]string{"expected", "bmc d*/wd", "st d*/wd", "hmc+dfs d*/wd", "hmc+glh d*/wd"})
	hasRows(t, "docs/engines.md", title, "make results-hmc", "../../../../testdata/models/symbolic")
}

// hasRows: the page's table of that title has a row for each model of
// the manifest in dir (a model added since the table was made is missing).
func hasRows(t *testing.T, page, title, regen, dir string) {
	t.Helper()
	table := docTable(t, readDoc(t, page), title)
	for _, m := range readManifest(t, dir) {
		if _, ok := table[m.Name]; !ok {
			t.Errorf("%s, %s: no row for %s of %s (%s)", page, title, m.Name, dir, regen)
		}
	}
}

// TestEngineRaceDoc: the README's table of check's default against each
// engine (make results-race) has a row for each model of both manifests,
// each with the manifest's expected verdict, and on the models below the
// verdict each cell implies (the expected one, or the one it names after
// "!") is the one check gives now, default and each --engine. Times are
// measured, not checked, and so is "decided by", the race's winner; a
// cell stopped by the limit (≥) is left out. The models checked are those
// all of whose runs take well under a second; left out, for their time:
// crc8, crc8_table, crc16_ok, secret4, secret6 and torn16 (the explicit
// engine runs to the limit), dining3, moody3, naive3_bp and philo_big
// (the HMC engine takes seconds).
func TestEngineRaceDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check on the models (-short)")
	}
	const page, title, regen = "README.md", "<!-- engine-race:begin", "make results-race"
	table := docTable(t, readDoc(t, page), title)
	cheap := map[string]bool{}
	for _, m := range strings.Split("crc16_bad race_input hyman naive2 dining2 moody2 naive3 peterson peterson_broken bakery bakery_broken lockorder prodcons irq_lostupdate tick_counter", " ") {
		cheap[m] = true
	}
	verdicts := map[int]string{0: "verified", 1: "violation", 3: "incomplete"}
	checked := 0
	for _, dir := range []string{"../../../../testdata/models/symbolic", "../../../../testdata/bench"} {
		for _, m := range readManifest(t, dir) {
			row, ok := table[m.Name]
			if !ok {
				t.Errorf("%s: no row for %s of %s (%s)", page, m.Name, dir, regen)
				continue
			}
			if row["expected"] != m.Expect {
				t.Errorf("%s: %s expects %q in the page, %q in %s/manifest.json (%s)", page, m.Name, row["expected"], m.Expect, dir, regen)
			}
			if !cheap[m.Name] {
				continue
			}
			for _, engine := range []string{"default", "explicit", "hmc", "auto"} {
				col := "--engine " + engine
				if engine == "default" {
					col = "default"
				}
				cell := row[col]
				want := m.Expect
				switch {
				case strings.HasPrefix(cell, "≥"):
					continue
				case strings.HasSuffix(cell, "(incomplete)"):
					want = "incomplete"
				case strings.Contains(cell, "!"):
					want = strings.Trim(cell[strings.Index(cell, "!")+1:], " ()")
				}
				args := append([]string{"check", dir + "/" + m.File}, m.Flags...)
				if engine != "default" {
					args = append(args, "--engine", engine)
				}
				var out, errb bytes.Buffer
				got, ok := verdicts[Main(append(args, "-q"), nil, &out, &errb)]
				if !ok {
					got = "error: " + errb.String()
				}
				checked++
				if got != want {
					t.Errorf("%s: %s under %s reads %q, the verdict %s; check gives %s (%s)", page, m.Name, col, cell, want, got, regen)
				}
			}
		}
	}
	if checked == 0 {
		t.Errorf("%s: no verdict of %q compared", page, title)
	}
}

// TestBatchTableDoc: the states stored, the instructions and the visited
// set's bytes per state (store_bytes, exact with one worker breadth-first)
// of BUFFALO 3.4's start-up without and with batches of steps, in
// docs/performance.md (make results-batch) and in the README's row of it,
// are the tool's; the memory and the seconds are measured, not checked.
// About 1.5 s, most of it the run without batches; skipped without the
// image.
func TestBatchTableDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check on BUFFALO (-short)")
	}
	if _, err := os.Stat(buffaloImage); err != nil {
		t.Skipf("BUFFALO 3.4 is not at %s: %v", buffaloImage, err)
	}
	tool := map[string]map[string]string{}
	readme := map[string][2]string{}
	for _, batch := range []string{"off", "on"} {
		out := run(t, ExitIncomplete, "check", buffaloImage, "--board", "../../../../testdata/boards/evb.board", "--clock", "exact",
			"--max-received", "0", "--search", "bfs", "--workers", "1", "--batch", batch, "--json", "-q")
		var r struct {
			Stats struct {
				States       int `json:"states_stored"`
				Instructions int `json:"instructions"`
				StoreBytes   int `json:"store_bytes"`
			} `json:"stats"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.Stats.Instructions == 0 {
			t.Fatalf("--batch %s: %v: %.300s", batch, err, out)
		}
		perMillion := count(int(math.Round(float64(r.Stats.States) * 1e6 / float64(r.Stats.Instructions))))
		tool["`--batch "+batch+"`"] = map[string]string{
			"states stored":                      count(r.Stats.States),
			"instructions":                       count(r.Stats.Instructions),
			"states per million instructions":    perMillion,
			"bytes per state in the visited set": count(int(math.Round(float64(r.Stats.StoreBytes) / float64(r.Stats.States)))),
		}
		readme[batch] = [2]string{perMillion, count(r.Stats.States)}
	}
	sameCells(t, "docs/performance.md", "<!-- batch-table:begin", "make results-batch", tool,
		[]string{"states stored", "instructions", "states per million instructions", "bytes per state in the visited set"})
	row := lineWith(readDoc(t, "README.md"), "BenchmarkBuffaloStartup")
	for _, want := range []string{
		fmt.Sprintf("%s states stored per million instructions (%s states)", readme["on"][0], readme["on"][1]),
		fmt.Sprintf("(%s per million; %s states)", readme["off"][0], readme["off"][1]),
	} {
		if !strings.Contains(row, want) {
			t.Errorf("README.md: the row of BUFFALO's start-up lacks %q, the tool's (make results-batch prints them): %s", want, row)
		}
	}
}
