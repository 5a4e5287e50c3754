package findings

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
)

const (
	mutexBad     = "../testdata/models/mutex_bad"
	assertFail   = "../testdata/models/assert_fail"
	illegal      = "../testdata/models/illegal"
	philosophers = "../testdata/examples/philosophers"
)

// checked runs the breadth-first search on the image at path and returns
// the image, the check and its result.
func checked(t *testing.T, path string, cfg check.Config) (*loader.Image, *check.Check, *check.Result) {
	t.Helper()
	img, err := loader.Load(path, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Strategy == 0 {
		cfg.Strategy = search.BFS
	}
	c, err := check.New(img, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res := check.FromSearch(search.Run(context.Background(), c.Machine, c.Options))
	c.Conclude(res)
	return img, c, res
}

// sourceLine finds, in the assembler source at path, the nth (from 1)
// line that contains text, and returns "path:LINE:COL" with the column of
// text on it: what the lines must say, read from the source itself.
func sourceLine(t *testing.T, path, text string, nth int) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if c := strings.Index(l, text); c >= 0 && !strings.HasPrefix(strings.TrimSpace(l), ";") {
			if nth--; nth == 0 {
				return fmt.Sprintf("%s:%d:%d", path, i+1, c+1)
			}
		}
	}
	t.Fatalf("%s: no line %d with %q", path, nth, text)
	return ""
}

// lines are the compiler-style lines of the findings of res.
func lines(img *loader.Image, c *check.Check, res *check.Result) []string {
	var b bytes.Buffer
	WriteLines(&b, New(img, c.Machine, res))
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// The mutex violation of mutex_bad points at the call of __mc_cs_enter
// in update, at the column of its mnemonic, and its note at the other
// thread's entry: the same call, by the other thread.
func TestLinesMutex(t *testing.T) {
	img, c, res := checked(t, mutexBad+".elf", check.Config{})
	got := lines(img, c, res)
	at := sourceLine(t, mutexBad+".s", "jsr     __mc_cs_enter", 1)
	if len(got) != 2 || !strings.HasPrefix(got[0], at+": error: thread ") || !strings.HasSuffix(got[0], " [mutex]") {
		t.Fatalf("lines:\n%s\nwant an error at %s and one note", strings.Join(got, "\n"), at)
	}
	v := res.First().Violation
	other := 1 - v.Thread
	if want := fmt.Sprintf("%s: note: thread %d entered its critical section here", at, other); !strings.HasPrefix(got[1], want) {
		t.Errorf("note %q, want it to begin %q", got[1], want)
	}
}

// The philosophers' deadlock points at the call that waits for the right
// fork; the notes at the calls that took the left forks, one per
// philosopher, and at the other two waits.
func TestLinesDeadlock(t *testing.T) {
	img, c, res := checked(t, philosophers+".elf", check.Config{})
	got := lines(img, c, res)
	left := sourceLine(t, philosophers+".s", "jsr     __mc_lock", 1)
	right := sourceLine(t, philosophers+".s", "jsr     __mc_lock", 2)
	if len(got) != 6 || !strings.HasPrefix(got[0], right+": error: ") || !strings.HasSuffix(got[0], "[deadlock]") {
		t.Fatalf("lines:\n%s\nwant an error at %s and five notes", strings.Join(got, "\n"), right)
	}
	took, waits := 0, 0
	for _, l := range got[1:] {
		switch {
		case strings.HasPrefix(l, left+": note: thread ") && strings.Contains(l, " took the lock fork"):
			took++
		case strings.HasPrefix(l, right+": note: thread ") && strings.Contains(l, " waits here for the lock fork"):
			waits++
		}
	}
	if took != 3 || waits != 2 {
		t.Errorf("%d notes of a left fork taken (want 3), %d of a wait (want 2):\n%s", took, waits, strings.Join(got, "\n"))
	}
}

// assert_fail's lost update: the assertion's call, and the writes of the
// worker whose values the main thread read (done, then counter).
func TestLinesAssert(t *testing.T) {
	img, c, res := checked(t, assertFail+".elf", check.Config{})
	got := lines(img, c, res)
	at := sourceLine(t, assertFail+".s", "jsr     __mc_assert", 1)
	if !strings.HasPrefix(got[0], at+": error: ") || !strings.HasSuffix(got[0], "[assert]") {
		t.Fatalf("lines:\n%s\nwant the error at %s", strings.Join(got, "\n"), at)
	}
	for _, w := range []string{
		sourceLine(t, assertFail+".s", "staa    done", 1) + ": note: thread 1 wrote done = 0x01 here",
		sourceLine(t, assertFail+".s", "staa    counter", 1) + ": note: thread ",
	} {
		found := false
		for _, l := range got[1:] {
			found = found || strings.HasPrefix(l, w)
		}
		if !found {
			t.Errorf("no note beginning %q in\n%s", w, strings.Join(got, "\n"))
		}
	}
}

// An image without line information is pointed at by its path, with the
// address of the violating instruction in the message: the address the
// ELF file of the same source gives the data byte the call lands on
// (version).
func TestLinesWithoutSource(t *testing.T) {
	img, c, res := checked(t, illegal+".s19", check.Config{})
	got := lines(img, c, res)
	elf, err := loader.Load(illegal+".elf", loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	version, ok := elf.Lookup("version")
	if !ok {
		t.Fatal("illegal.elf has no symbol version")
	}
	want := fmt.Sprintf("%s.s19: error: thread 0 at 0x%04X", illegal, version.Addr)
	if len(got) != 1 || !strings.HasPrefix(got[0], want) || !strings.HasSuffix(got[0], "[illegal-opcode]") {
		t.Errorf("lines:\n%s\nwant one beginning %q", strings.Join(got, "\n"), want)
	}
}

// The mnemonic's column: after blanks and a label; 1 for a line without
// an instruction.
func TestMnemonicColumn(t *testing.T) {
	for _, c := range []struct {
		line string
		want int
	}{
		{"        jsr     __mc_assert", 9},
		{"update: jsr     __mc_cs_enter           ; BUG", 9},
		{"\tldaa\tcounter", 2},
		{"loop:\tinca", 7},
		{"label:", 1},
		{"; a comment", 1},
		{"  ; a comment", 1},
		{"", 1},
		{"nop", 1},
	} {
		if got := mnemonicColumn(c.line); got != c.want {
			t.Errorf("mnemonicColumn(%q) = %d, want %d", c.line, got, c.want)
		}
	}
}
