package check

import (
	"bytes"
	"fmt"
	"github.com/hc11mc/hc11mc/verdict"
	"strings"
	"testing"
	"time"
)

// The text of a report: a line per property not checked, then the inputs
// held, at most maxHeldLines of them and a line that counts the rest.
func TestReportWriteText(t *testing.T) {
	r := Report{Unchecked: []Unchecked{{"stack", "no stack range (--stack)"}}}
	for i := range maxHeldLines + 3 {
		r.Held = append(r.Held, HeldInput{Addr: fmt.Sprintf("0x%04X", 0x1000+i), Value: 0xFF})
	}
	var b bytes.Buffer
	r.WriteText(&b)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 1+maxHeldLines+1 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), maxHeldLines+2, b.String())
	}
	if lines[0] != "  not checked: stack (no stack range (--stack))" {
		t.Errorf("first line %q", lines[0])
	}
	if !strings.Contains(lines[1], "0x1000") || !strings.Contains(lines[1], "--input 0x1000") {
		t.Errorf("the first held input %q", lines[1])
	}
	if last := lines[len(lines)-1]; last != "  input held: 3 more (--json lists them)" {
		t.Errorf("last line %q", last)
	}
}

// The verdict note lists the properties checked, in order.
func TestVerdictNote(t *testing.T) {
	if got := VerdictNote(Report{Checked: []string{"assert", "deadlock"}}); got != "properties checked: assert, deadlock" {
		t.Errorf("VerdictNote = %q", got)
	}
}

// What stopped an incomplete check reads as a sentence: a limit stops it,
// an interrupt interrupts it.
func TestStopped(t *testing.T) {
	for _, c := range []struct {
		stop verdict.Stop
		want string
	}{
		{verdict.MaxStates(10), "stopped by --max-states 10"},
		{verdict.Stop{Kind: verdict.StopInterrupted}, "interrupted"},
		{verdict.Stop{Kind: verdict.StopInterrupted}.In("(every member)"), "interrupted (every member)"},
		{verdict.Timeout(2 * time.Second).In("(every member)"), "stopped by --timeout 2s (every member)"},
	} {
		if got := Stopped(c.stop); got != c.want {
			t.Errorf("Stopped(%v) = %q, want %q", c.stop, got, c.want)
		}
	}
	c, err := New(load(t, mutexOK), Config{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	res := &Result{Verdict: Incomplete, Limit: verdict.Stop{Kind: verdict.StopInterrupted}}
	res.WriteText(&b, c.Image, c.Machine, Report{Checked: []string{"assert"}}, TextOptions{})
	if !strings.HasPrefix(b.String(), "incomplete (properties checked: assert): interrupted\n") {
		t.Errorf("text of an interrupted check:\n%s", b.String())
	}
}
