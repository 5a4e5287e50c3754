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
var buffaloImage = filepath.Join("..", "..", "..", "..", "..", "shared", "firmware", "buffalo", "buffalo34.s19")

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
		out, diag := runSplit(t, 0, "run", fw, "--board", filepath.Join("..", "..", "..", "..", "testdata", "boards", board+".board"), "--sci-input", `\rMD E000\r`)
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
	out := run(t, ExitIncomplete, "check", fw, "--board", filepath.Join("..", "..", "..", "..", "testdata", "boards", "evb.board"),
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
	none := run(t, ExitIncomplete, "check", fw, "--board", filepath.Join("..", "..", "..", "..", "testdata", "boards", "evb.board"),
		"--sci-input", `\r`, "--sci-timing", "idle", "--max-received", "0", "--search", "bfs", firmwareQuiet)
	if a, b := reached(none), reached(out); a >= b {
		t.Errorf("%d instructions reached without input, %d with a carriage return", a, b)
	}
}

// buffaloCommands writes, in m68hc11-nm's format, a symbol per command
// of BUFFALO's command table — a length byte, the name, the handler's
// address; the table ends with 0xFF before the sign-on line — and returns
// the file, with each command's symbol by name.
func buffaloCommands(t *testing.T, img *loader.Image) (string, map[string]string) {
	t.Helper()
	mem := img.Memory()
	sign := strings.Index(string(mem[:]), "BUFFALO 3.4 (ext)")
	if sign < 0 || mem[sign-1] != 0xFF {
		t.Fatalf("no command table before the sign-on line")
	}
	// Walk the table from the first entry: the one of ASM.
	at := strings.Index(string(mem[:]), "\x03ASM")
	if at < 0 || at > sign {
		t.Fatalf("no ASM entry in the command table")
	}
	var b strings.Builder
	syms := map[string]string{}
	for at < sign-1 {
		n := int(mem[at])
		name := string(mem[at+1 : at+1+n])
		addr := int(mem[at+1+n])<<8 | int(mem[at+2+n])
		sym := "cmd_" + name
		syms[name] = sym
		fmt.Fprintf(&b, "%04x T %s\n", addr, sym)
		at += 3 + n
	}
	if at != sign-1 || syms["MD"] == "" {
		t.Fatalf("the command table does not end at the sign-on line (%#x, %#x): %v", at, sign-1, syms)
	}
	path := filepath.Join(t.TempDir(), "buffalo.sym")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, syms
}

// check types MD and an address at BUFFALO, a key at a time while it
// waits, and reaches its command dispatcher: with the command table's
// symbols, the coverage says which commands' code ran — MD's, which the
// keys can spell, and not ASM's or BF's, which they cannot — also when a
// violation ends the search (dumping unmapped memory is one: "MD EDD").
func TestBuffaloCommandCoverage(t *testing.T) {
	fw := needBuffalo(t)
	img, err := loader.Load(fw, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	syms, cmds := buffaloCommands(t, img)
	var out, errb strings.Builder
	code := Main([]string{"check", fw, "--symbols", syms, "--board", filepath.Join("..", "..", "..", "..", "testdata", "boards", "evb.board"),
		"--sci-input", `M,D, ,E,0,\r`, "--sci-timing", "idle", "--max-received", "8", firmwareQuiet}, nil, &out, &errb)
	if code != ExitViolation && code != ExitIncomplete {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), lastLines(out.String()))
	}
	m := regexp.MustCompile(`procedures never entered: (.*)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no coverage of procedures in:\n%s", lastLines(out.String()))
	}
	never := map[string]bool{}
	for _, s := range strings.Split(m[1], ", ") {
		never[s] = true
	}
	for _, c := range []string{"ASM", "BF"} {
		if !never[cmds[c]] {
			t.Errorf("%s entered, which M, D, space, E, 0 and Return cannot spell: %s", c, m[1])
		}
	}
	if never[cmds["MD"]] {
		t.Errorf("MD never entered: %s", m[1])
	}
}

// A user program that ends in SWI returns to BUFFALO, as on the board:
// the monitor writes JMP instructions into its RAM pseudo-vectors at
// start-up (the SWI vector at 0xFFF6 points at 0x00F4), so the SWI goes
// through the one it wrote, and BUFFALO shows the registers the program
// left (its SWI handler backs the PC up onto the SWI) and prompts again.
// MM puts the SWI (0x3F) at 0x0100 and G runs it.
func TestBuffaloSWIReturnsToMonitor(t *testing.T) {
	fw := needBuffalo(t)
	out, diag := runSplit(t, 0, "run", fw, "--board", filepath.Join("..", "..", "..", "..", "testdata", "boards", "evb.board"),
		"--sci-input", `\rMM 0100\r3F\rG 0100\r`)
	wantLines(t, out, ">G 0100\r\n", "P-0100 Y-0000 X-0000 A-00 B-00 ")
	if !strings.HasSuffix(strings.TrimSpace(out), ">") {
		t.Errorf("no prompt after the program's SWI:\n%q", out)
	}
	if strings.Contains(diag, "violation") || !strings.Contains(diag, "the firmware waits for input") {
		t.Errorf("run did not return to the monitor:\n%s", diag)
	}
}

// On the EVB, OC5's pin drives XIRQ (testdata/boards/evb.board): BUFFALO's
// T programs OC5 to pull it low a few cycles after it returns to the
// user's program, so that the XIRQ comes after one instruction. Under the
// exact clock run traces LDAA #$42 and then LDAB #$17 typed in with MM at
// 0x0100, the PC set with RM: each T prints the instruction and the
// registers after it — the PC two bytes on, A then B loaded, the
// condition codes 0x90 (S and I as BUFFALO's user CCR has them, X
// cleared for the trace, N, Z, V clear after a load of a positive value).
func TestBuffaloTrace(t *testing.T) {
	fw := needBuffalo(t)
	out, diag := runSplit(t, 0, "run", fw, "--board", filepath.Join("..", "..", "..", "..", "testdata", "boards", "evb.board"), "--clock", "exact",
		"--sci-input", `\rMM 0100\r86 42 C6 17 01\rRM\r0100\rT\rT\r`)
	wantLines(t, out, "LDAA #$42            P-0102 Y-0000 X-0000 A-42 B-00 C-90 S-0041 ",
		"LDAB #$17            P-0104 Y-0000 X-0000 A-42 B-17 C-90 S-0041 ")
	wantLines(t, diag, "the firmware waits for input: every --sci-input byte was received")
}
