package cli

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// clocksTableLarge are the runs of docs/clocks.md's table that
// TestClocksTableDoc leaves out, for their seconds: serial_cmd under the
// abstract clock (1.6 and 5.2 million states) and its search for the
// output under the exact clock (2.5 s). Keys are the flags as the table
// shows them and the clock.
var clocksTableLarge = map[string]bool{
	`--sci-input 'A,\r' --max-received 0/abstract`:                      true,
	`--sci-input '\r' --max-received 1 --expect-output '\x00'/abstract`: true,
	`--sci-input '\r' --max-received 1 --expect-output '\x00'/exact`:    true,
}

// clocksSeconds is the measured end of a cell of docs/clocks.md's table.
var clocksSeconds = regexp.MustCompile(`, [0-9.]+ s$`)

// TestClocksTableDoc: in docs/clocks.md's table of firmware under the
// abstract and the exact clock (make results-clocks: `check FW FLAGS
// --clock C --search bfs --workers 1`), each cell's verdict and states are
// the tool's; the seconds are measured, not checked, and the runs of
// clocksTableLarge are left out. About 4 s.
func TestClocksTableDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check under both clocks (-short)")
	}
	const page, title, regen = "docs/clocks.md", "<!-- clocks-table:begin", "make results-clocks"
	// docTable keys rows by their first cell, and serial_cmd has two rows:
	// read them in order instead.
	doc := readDoc(t, page)
	begin, end := strings.Index(doc, title), strings.Index(doc, "<!-- clocks-table:end")
	if begin < 0 || end < begin {
		t.Fatalf("%s: no table between %q and its end (%s)", page, title, regen)
	}
	doc = doc[begin:end]
	checked := 0
	for _, l := range strings.Split(doc, "\n")[3:] {
		cells := strings.Split(strings.Trim(l, "|"), "|")
		if len(cells) != 4 {
			continue
		}
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		fw, shown := strings.Trim(cells[0], "`"), strings.Trim(cells[1], "`")
		for k, clock := range []string{"abstract", "exact"} {
			if clocksTableLarge[shown+"/"+clock] {
				continue
			}
			var flags []string
			for _, f := range strings.Fields(shown) {
				flags = append(flags, strings.Trim(f, "'"))
			}
			args := append(append([]string{"check", "../../../../testdata/" + fw + ".elf"}, flags...), "--clock", clock, "--search", "bfs", "--workers", "1", "--json")
			var out, errb bytes.Buffer
			code := Main(args, nil, &out, &errb)
			var r checkJSON
			if (code != 0 && code != ExitViolation && code != ExitIncomplete) || json.Unmarshal(out.Bytes(), &r) != nil {
				t.Fatalf("hc11mc %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
			}
			verdict := r.Verdict
			switch {
			case r.Verdict == "violation" && r.Violation != nil:
				verdict = "violation (" + r.Violation.Kind + ")"
			case r.Verdict == "incomplete" && strings.HasPrefix(r.Limit, "the bounds"):
				verdict = "verified within the bound"
			}
			want := verdict + ", " + count(r.Stats.StatesStored) + " states"
			checked++
			if got := clocksSeconds.ReplaceAllString(cells[2+k], ""); got != want {
				t.Errorf("%s: %s %s under the %s clock is %q in the page, %q from the tool (%s)", page, fw, shown, clock, got, want, regen)
			}
		}
	}
	if checked == 0 {
		t.Errorf("%s: nothing of %q compared (%s)", page, title, regen)
	}
}
