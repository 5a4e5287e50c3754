package cli

import (
	"encoding/csv"
	"fmt"
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
// round), and so are the states of the default reductions in
// docs/performance.md's table of the reductions. A change that moves them
// fails here: make results-bench rewrites the tables (it used to say
// peterson 3,018 states breadth-first where the tool stored 3,124). The
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
					t.Errorf("%s, %s: %s under %s is %s in the page, %s from the tool (make results-bench)", page, title, model, docCol, got, w)
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
	compare("docs/performance.md", "State counts are exact, the same on every run.", states, map[string]string{"bfs, por,dead": "bfs", "dfs, por,dead": "dfs"})
}

// count prints n as the tables do: with thousands separators.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
