package cex

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/cex/internal/tracesvg"
)

// marked returns the highlighted accesses of d as "lane:W|R:addr" strings.
func marked(d *tracesvg.Trace) map[string]bool {
	out := map[string]bool{}
	for _, s := range d.Steps {
		for _, a := range s.Accesses {
			if a.Mark {
				rw := "R"
				if a.Write {
					rw = "W"
				}
				out[fmt.Sprintf("%d:%s:0x%04X", s.Lane, rw, a.Addr)] = true
			}
		}
	}
	return out
}

// The torn read: a lane for thread 0 and one for the toc1 handler, which
// the interrupt enters and the RTI leaves; highlighted, main's reads of
// ticks before the assertion and the handler's write between them.
func TestLanesInterrupt(t *testing.T) {
	tr, img, m, labels := fixture(t, "tick_torn.json")
	d := drawTrace(img, m, labels, "")
	if len(d.Lanes) != 2 || d.Lanes[0].Title != "thread 0" || d.Lanes[1].Title != "toc1 handler" || d.Lanes[1].Kind != tracesvg.HandlerLane {
		t.Fatalf("lanes %+v", d.Lanes)
	}
	irq := -1
	for i, s := range tr.Steps {
		if s.IRQ != "" {
			irq = i + 1
		}
	}
	inHandler, returns := 0, 0
	for _, s := range d.Steps {
		if s.Lane == 1 {
			inHandler++
			if s.N < irq {
				t.Errorf("step %d runs in the handler's lane before the interrupt (step %d)", s.N, irq)
			}
		}
		if s.Return {
			returns++
			if s.Lane != 1 || s.ReturnLane != 0 {
				t.Errorf("the return is in lane %d to lane %d", s.Lane, s.ReturnLane)
			}
		}
	}
	if inHandler == 0 || returns != 1 {
		t.Errorf("%d steps in the handler's lane, %d returns", inHandler, returns)
	}
	got := marked(d)
	for _, want := range []string{"0:R:0x0000", "0:R:0x0001", "1:W:0x0000", "1:W:0x0001"} {
		if !got[want] {
			t.Errorf("%s is not highlighted: %v", want, got)
		}
	}
	if d.Violation.Kind != "assert" || d.Violation.Lane != 0 || !d.Lanes[0].Alert {
		t.Errorf("violation %+v, thread 0's lane %+v", d.Violation, d.Lanes[0])
	}
}

// The philosophers' deadlock: the lock bytes the threads wait for are the
// addresses involved, each with the write that took it, in the lane of
// the thread that holds it.
func TestLanesDeadlock(t *testing.T) {
	_, img, m, labels := fixture(t, "philosophers.json")
	d := drawTrace(img, m, labels, "a search")
	if len(d.Lanes) != 3 || d.Violation.Kind != "deadlock" || d.Violation.Lane != -1 || !strings.HasSuffix(d.Subtitle, " · a search") {
		t.Fatalf("%d lanes, violation %+v, subtitle %q", len(d.Lanes), d.Violation, d.Subtitle)
	}
	if len(d.Watches) != 3 {
		t.Fatalf("watches %+v, want the three forks", d.Watches)
	}
	got := marked(d)
	for _, w := range d.Watches {
		holder := int(w.Value) - 1
		if !got[fmt.Sprintf("%d:W:0x%04X", holder, w.Addr)] || !strings.Contains(w.Why, "waits for this lock") {
			t.Errorf("fork %+v: no highlighted write by thread %d in %v", w, holder, got)
		}
	}
	for i, ln := range d.Lanes {
		if !ln.Alert || !strings.HasPrefix(ln.End, "blocked in __mc_lock") {
			t.Errorf("lane %d ends %q", i, ln.End)
		}
	}
	svg := SVG(img, m, labels, "")
	if !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte(`class="violation" data-kind="deadlock"`)) {
		t.Errorf("SVG: %.200s", svg)
	}
}
