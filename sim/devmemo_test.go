package sim

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/loader"
)

// TestDevMemo: the device's answers that a batch asks at every point it
// runs on through (devAnswers, through one memo kept across the states of
// a breadth-first exploration, as a batch keeps it across its points) are
// the answers of the functions that ask one question each (overdue,
// pending, events, EventInfo), on firmware under the abstract and the
// exact clock.
func TestDevMemo(t *testing.T) {
	if d := devMemoDiff(t); d != "" {
		t.Error(d)
	}
}

// TestDevMemoCatches: with the memo taking views that differ only in the
// hidden page for one (mutation.MemoStale), the comparison of TestDevMemo
// finds a difference.
func TestDevMemoCatches(t *testing.T) {
	defer mutation.Set(mutation.MemoStale)()
	if d := devMemoDiff(t); d == "" {
		t.Error("with the memo blind to the hidden page, every answer still agreed")
	}
}

// devMemoDiff explores the firmware of TestDevMemo and returns the first
// answer of the memo that differs from the plain one ("" for none).
func devMemoDiff(t *testing.T) string {
	p, err := loader.FindChip("e9")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file  string
		exact bool
		input string
	}{
		{"firmware/serial_cmd.elf", false, "\rE"},
		{"firmware/collect.elf", false, "A\r"},
		{"firmware/monitor.elf", false, "L\r"},
		{"firmware/serial_cmd.elf", true, "\r"},
		{"firmware/collect.elf", true, "A\r"},
	} {
		img, err := loader.Load(filepath.Join("..", "testdata", c.file), loader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		chip, err := devices.New(p, devices.Options{SCIInput: []byte(c.input), Exact: c.exact,
			BoundReceived: true, MaxReceived: 3, BoundTimer: true, MaxTimer: 3})
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewMachine(img, Config{Entry: img.Entry, Preempt: PreemptEvery, Device: chip, ExactClock: c.exact})
		if err != nil {
			t.Fatal(err)
		}
		var dm devMemo
		diff := ""
		n := bfs(t, m, m.Initial(), 3000, func(s *State, _ []Successor, _ *Violation) {
			if diff == "" {
				diff = m.devMemoAgrees(s, &dm)
			}
		})
		if diff != "" {
			return fmt.Sprintf("%s (exact clock %v), after %d states: %s", c.file, c.exact, n, diff)
		}
	}
	return ""
}

// devMemoAgrees compares devAnswers through dm with the plain answers for
// s, and returns the first difference ("" for none).
func (m *Machine) devMemoAgrees(s *State, dm *devMemo) string {
	a := *m.devAnswers(s, dm)
	if o := m.overdue(s); a.overdue != o {
		return fmt.Sprintf("overdue %v, plainly %v", a.overdue, o)
	}
	if p := m.pending(s); a.pend != p {
		return fmt.Sprintf("pending %d, plainly %d", a.pend, p)
	}
	n := m.events(s)
	if live(s) && a.events != n {
		return fmt.Sprintf("%d events, plainly %d", a.events, n)
	}
	var kinds uint64
	for k := n - 1; k >= 0; k-- {
		kind := m.EventInfo(s, k).Kind
		kinds |= 1 << kind
		if kind == devices.EvReceive || kind == devices.EvOverrun {
			break
		}
	}
	if live(s) && a.kinds != kinds {
		return fmt.Sprintf("event kinds %b, plainly %b", a.kinds, kinds)
	}
	return ""
}
