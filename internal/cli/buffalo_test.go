package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
)

// buffaloImage is Motorola's BUFFALO 3.4 monitor, real firmware nobody
// here wrote. It is not part of the repository: it sits beside it, in
// ../shared/firmware/buffalo, and the tests that use it skip without it.
var buffaloImage = filepath.Join("..", "..", "..", "shared", "firmware", "buffalo", "buffalo34.s19")

// needBuffalo returns the path of the BUFFALO image, or skips the test.
func needBuffalo(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(buffaloImage); err != nil {
		t.Skipf("BUFFALO 3.4 is not at %s (it is kept outside the repository): %v", buffaloImage, err)
	}
	return buffaloImage
}

// BUFFALO on the EVB and the EVBU answers MD E000 typed at a terminal:
// the sign-on line, the prompt, the command echoed, and nine lines of
// sixteen bytes from 0xE000, each the address and the bytes the image
// holds there in hex; then it waits for the next command, and run stops,
// saying so, soon after.
func TestBuffaloMemoryDump(t *testing.T) {
	fw := needBuffalo(t)
	img, err := loader.Load(fw, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mem := img.Memory()
	for _, board := range []string{"evb", "evbu"} {
		out, diag := runSplit(t, 0, "run", fw, "--board", filepath.Join("..", "..", "testdata", "boards", board+".board"), "--sci-input", `\rMD E000\r`)
		wantLines(t, out, "BUFFALO 3.4 (ext) - Bit User Fast Friendly Aid to Logical Operation\r\n", ">MD E000\r\n")
		for a := 0xE000; a < 0xE090; a += 16 {
			var want strings.Builder
			fmt.Fprintf(&want, "\r\n\x00%04X", a)
			for k := range 16 {
				fmt.Fprintf(&want, " %02X", mem[a+k])
			}
			if !strings.Contains(out, want.String()) {
				t.Errorf("%s: no dump line %q in:\n%s", board, want.String(), out)
			}
		}
		if strings.Contains(out, "\x00E090") {
			t.Errorf("%s: a tenth dump line", board)
		}
		m := regexp.MustCompile(`the firmware waits for input: every --sci-input byte was received \(in its loop at 0x[0-9A-F]{4}\); (\d+) instructions`).FindStringSubmatch(diag)
		if m == nil {
			t.Fatalf("%s: run did not stop waiting for input:\n%s", board, diag)
		}
		// The sign-on, the echo and the dump are about 700 bytes, 2080
		// E cycles each at 9600 baud, polled a few instructions a time:
		// well under a million instructions, not the default billion.
		if n, _ := strconv.Atoi(m[1]); n > 1000000 {
			t.Errorf("%s: %d instructions before it stopped", board, n)
		}
	}
}

// check --sci-timing idle feeds BUFFALO a byte only while it waits for
// one: its input routine polls SCSR through a subroutine and its output
// routine polls TDRE, and the verdict names both loops; the carriage
// return it waits for at reset takes it to the prompt and its command
// loop.
func TestBuffaloIdleCheck(t *testing.T) {
	fw := needBuffalo(t)
	out := run(t, ExitIncomplete, "check", fw, "--board", filepath.Join("..", "..", "testdata", "boards", "evb.board"),
		"--sci-input", `\r`, "--sci-timing", "idle", "--max-received", "1", "--search", "bfs", firmwareQuiet)
	wantLines(t, out, "stopped by the bounds of the exploration", "no violation",
		"waits: 0xE459 polls in a loop: ldaa 0x102e; 0xE47B polls in a loop: ldab 0x102e")
	// Without a byte the monitor stays in its loop waiting for the
	// carriage return; with one it prints the prompt and reads a
	// command: more of its code.
	reached := func(out string) int {
		m := regexp.MustCompile(`(\d+) of the \d+ instructions in the ICFG reached`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no coverage in:\n%s", lastLines(out))
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	none := run(t, ExitIncomplete, "check", fw, "--board", filepath.Join("..", "..", "testdata", "boards", "evb.board"),
		"--sci-input", `\r`, "--sci-timing", "idle", "--max-received", "0", "--search", "bfs", firmwareQuiet)
	if a, b := reached(none), reached(out); a >= b {
		t.Errorf("%d instructions reached without input, %d with a carriage return", a, b)
	}
}
