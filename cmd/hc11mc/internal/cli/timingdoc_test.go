package cli

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestTimingTableDoc: docs/timing.md's worst cases of the bundled programs
// (make results-timing: `check FILE FLAGS --report-timing`, the program
// and the flags as the table gives them) are the tool's, each exact, and
// the README's table of them gives the same cycles for the same program.
// The latency column is TOC1's, or "(irq) N", IRQ's, where the program
// reports none of TOC1; an empty cell is a property not reported. About
// 3 s, most of it prio_xirq.
func TestTimingTableDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check --report-timing on the bundled programs (-short)")
	}
	const page, title = "docs/timing.md", "## Worst cases of the bundled programs"
	table := docTable(t, readDoc(t, page), title)
	if len(table) == 0 {
		t.Fatalf("%s: the table %q is empty", page, title)
	}
	checked := 0
	for cell, row := range table {
		file := strings.Trim(cell, "`")
		args := append([]string{"check", "../../../../" + file}, strings.Fields(strings.Trim(row["flags"], "`"))...)
		out := run(t, 0, append(args, "--report-timing", "--json")...)
		var r struct {
			Timing []struct {
				Property string `json:"property"`
				Cycles   int    `json:"cycles"`
				Exact    bool   `json:"exact"`
			} `json:"timing"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		got := map[string]string{}
		for _, p := range r.Timing {
			v := strconv.Itoa(p.Cycles)
			if !p.Exact {
				v += " (a bound, not exact)"
			}
			switch {
			case strings.HasPrefix(p.Property, "deadline"):
				got["deadline"] = v
			case p.Property == "latency irq":
				got["latency irq"] = "(irq) " + v
			case p.Property == "max-masked" || p.Property == "latency toc1":
				got[p.Property] = v
			}
		}
		if _, ok := got["latency toc1"]; !ok && got["latency irq"] != "" {
			got["latency toc1"] = got["latency irq"]
		}
		for _, col := range []string{"max-masked", "latency toc1", "deadline"} {
			checked++
			if row[col] != got[col] {
				t.Errorf("%s: %s %s: %s is %q in the page, %q from check --report-timing", page, file, row["flags"], col, row[col], got[col])
			}
		}
	}
	// The README's table names the program first, its flags after it.
	const readme = "README.md"
	for cell, row := range docTable(t, readDoc(t, readme), "Worst cases found on the bundled programs") {
		file := strings.Trim(strings.Fields(cell)[0], "`")
		want, ok := table["`"+file+"`"]
		if !ok {
			t.Errorf("%s: %s is not in %s's table of worst cases", readme, file, page)
			continue
		}
		for _, col := range []string{"max-masked", "latency toc1"} {
			checked++
			if row[col] != want[col] {
				t.Errorf("%s: %s's %s is %q, %q in %s", readme, file, col, row[col], want[col], page)
			}
		}
	}
	if checked == 0 {
		t.Errorf("nothing of %q compared", title)
	}
}
