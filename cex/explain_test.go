package cex

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
)

// At the torn read, the replay knows who wrote and read the counter: the
// toc1 handler, running on thread 0, wrote ticks once (0x00FF to 0x0100),
// and main read its two bytes around that write.
func TestAccesses(t *testing.T) {
	tr, img, m, labels := fixture(t, "tick_torn.json")
	c := Replay(img, m, labels)
	if err := c.Check(tr.Violation); err != nil {
		t.Fatal(err)
	}
	r := c.Report(tr.Violation, nil)
	if !r.Reproduced || r.Error != "" || len(r.Steps) != len(labels) {
		t.Fatalf("report: reproduced %v, %q, %d steps", r.Reproduced, r.Error, len(r.Steps))
	}
	var handlerWrites, mainReads []ReportAccess
	for _, s := range r.Steps {
		for _, a := range s.Accesses {
			if !strings.HasPrefix(a.Name, "ticks") {
				continue
			}
			switch {
			case s.Handler == "toc1" && a.Write:
				handlerWrites = append(handlerWrites, a)
			case s.Handler == "" && a.Read:
				mainReads = append(mainReads, a)
			}
		}
	}
	if len(handlerWrites) != 1 || handlerWrites[0].Before != 0x00FF || handlerWrites[0].After != 0x0100 || handlerWrites[0].Size != 2 {
		t.Errorf("the handler's writes of ticks: %+v", handlerWrites)
	}
	if len(mainReads) != 4 {
		t.Errorf("main read ticks %d times, want 4 (two bytes, twice): %+v", len(mainReads), mainReads)
	}
	vars := map[string]ReportVariable{}
	for _, v := range r.Final.Variables {
		vars[v.Name] = v
	}
	if v := vars["ticks"]; v.Size != 2 || v.Value != 0x0100 || v.Writes != 1 {
		t.Errorf("ticks at the violation: %+v", v)
	}
	if v := vars["last"]; v.Size != 2 || v.Value != 0x00FF {
		t.Errorf("last at the violation: %+v", v)
	}
	if _, ok := vars["stack0"]; ok {
		t.Errorf("a stack is shown as a variable: %+v", r.Final.Variables)
	}
}

// Check tells a trace that reproduces its violation from one that ends
// elsewhere, ends in nothing, or does not replay.
func TestCheck(t *testing.T) {
	tr, img, m, labels := fixture(t, "tick_torn.json")
	other := *tr.Violation
	other.Kind = "deadlock"
	for _, c := range []struct {
		name   string
		n      int // labels kept
		thread int // given to the 11th label, -1: none
		want   *Violation
		err    string
	}{
		{"whole", len(labels), -1, tr.Violation, ""},
		{"any violation", len(labels), -1, nil, ""},
		{"another violation", len(labels), -1, &other, "got assert at 0xD031, expected deadlock at 0xD031"},
		{"cut", len(labels) - 3, -1, tr.Violation, "no violation at the end (expected assert)"},
		{"cut, nothing recorded", len(labels) - 3, -1, nil, "no violation at the end"},
		{"no such thread", len(labels), 7, tr.Violation, "step 11"},
	} {
		ls := append(labels[:0:0], labels[:c.n]...)
		if c.thread >= 0 {
			ls[10].Thread = c.thread
		}
		got := Replay(img, m, ls).Check(c.want)
		if c.err == "" && got != nil || c.err != "" && (got == nil || !strings.Contains(got.Error(), c.err)) {
			t.Errorf("%s: %v, want %q", c.name, got, c.err)
		}
	}
}

// check's listing has a line per transition, "->" where the thread
// changes, and the threads at the violation; a trace that does not replay
// says so instead.
func TestWriteListing(t *testing.T) {
	tr, img, m, labels := fixture(t, "philosophers.json")
	var b bytes.Buffer
	Replay(img, m, labels).WriteListing(&b)
	lines := strings.Split(b.String(), "\n")
	if lines[0] != "counterexample: 77 transitions" {
		t.Fatalf("first line %q", lines[0])
	}
	for i, st := range tr.Steps {
		switch l := lines[1+i]; {
		case !strings.Contains(l, "thr "+string(rune('0'+st.Thread))+"  "+st.PC):
			t.Errorf("line of step %d, thread %d at %s: %q", i+1, st.Thread, st.PC, l)
		case strings.HasPrefix(l, "->") != (i > 0 && tr.Steps[i-1].Thread != st.Thread):
			t.Errorf("switch mark of step %d: %q", i+1, l)
		}
	}
	if !strings.Contains(b.String(), "threads at the violation:") || strings.Count(b.String(), "blocked on lock") != 3 {
		t.Errorf("no threads at the violation, each blocked:\n%s", b.String())
	}
	labels[5].Thread = 9
	b.Reset()
	Replay(img, m, labels).WriteListing(&b)
	if !strings.Contains(b.String(), "(the trace did not replay: ") || strings.Contains(b.String(), "threads at the violation") {
		t.Errorf("a trace that does not replay:\n%s", b.String())
	}
}

// A watch names a symbol, with its size as width, or an address; :N sets
// the width.
func TestParseWatch(t *testing.T) {
	_, img, _, _ := fixture(t, "tick_torn.json")
	for _, c := range []struct {
		item string
		want Watch
		err  string
	}{
		{"ticks", Watch{"ticks", 0x0000, 2}, ""},
		{"budget", Watch{"budget", 0x0002, 1}, ""},
		{"ticks:1", Watch{"ticks", 0x0000, 1}, ""},
		{"0x0003:4", Watch{"0x0003", 0x0003, 4}, ""},
		{"nosuch", Watch{}, `no symbol "nosuch" in`},
		{"ticks:5", Watch{}, "the width after ':' is 1 to 4 bytes"},
	} {
		w, err := ParseWatch(img, c.item)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want %q", c.item, err, c.err)
			}
			continue
		}
		if err != nil || w != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.item, w, err, c.want)
		}
	}
}

// A variable defined with `=` (an absolute symbol, nm type A) is one byte
// wide unless the width is given: the source gives it no extent, and the
// next equate may be anywhere.
func TestParseWatchEquate(t *testing.T) {
	dir := t.TempDir()
	syms := filepath.Join(dir, "fw.nm")
	if err := os.WriteFile(syms, []byte("00000040 A count\n00000048 A flags\n0000d000 T start\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := loader.LoadBytes("fw.bin", []byte{0x20, 0xFE}, loader.Options{Format: loader.FormatBin, Base: 0xD000, BaseSet: true, AllowNoEntry: true, Symbols: syms})
	if err != nil {
		t.Fatal(err)
	}
	for item, want := range map[string]Watch{
		"count":   {"count", 0x0040, 1},
		"flags":   {"flags", 0x0048, 1},
		"count:2": {"count", 0x0040, 2},
	} {
		if w, err := ParseWatch(img, item); err != nil || w != want {
			t.Errorf("%s: %+v, %v; want %+v", item, w, err, want)
		}
	}
}
