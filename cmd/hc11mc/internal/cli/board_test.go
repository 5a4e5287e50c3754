package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBoard writes a board file into a temporary directory.
func writeBoard(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.board")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A board file stands for its flags: the monitor's latch, given by a
// board file with comments, blank lines and both spellings of a setting,
// reads as the value the file gives it, as with --device.
func TestBoardFile(t *testing.T) {
	board := writeBoard(t, "# the monitor's board\n\n"+
		"--chip e9   # the default, named\n"+
		"device=0x4000-0x4001=0x5A\n"+
		"--ram 0x2000-0x2FFF\n")
	out, diag := runSplit(t, 0, "run", monitorS19, "--board", board, "--sci-input", `S\r`)
	wantLines(t, out, "HC11 monitor 1.0", "> S\r\nS5A")
	wantLines(t, diag, "the firmware waits for input")
	// The same board on the command line's chip, and with a device of
	// the command line's after it.
	run(t, 0, "run", monitorS19, "--board", board, "--chip", "E9", "--device", "0x5000-0x5000")

	// The board's settings are read before the image is: disasm lists
	// with the board's chip.
	run(t, 0, "disasm", monitorS19, "--board", board)
}

// Bad board files are bad input: exit 2, with the file, the line and
// what is wrong with it.
func TestBoardFileErrors(t *testing.T) {
	for _, tc := range []struct {
		text, want string
	}{
		{"--device 0x4000-0x4000\n--irq sci\n", `:2: "--irq" is not a board setting`},
		{"# comment\n\n--device 0x9800\n", ":3: --device 0x9800: bad range"},
		{"--ram\n", ":1: --ram wants a value, e.g. --ram 0x2000-0x7FFF"},
		{"--rom 0xE000-0xDFFF\n", ":1: --rom 0xE000-0xDFFF: bad range"},
		{"--device 0x4000-0x4000=0x100\n", `:1: --device 0x4000-0x4000=0x100: "0x100" is not a byte value`},
		{"--chip e9\n--chip a8\n", ":2: a second --chip (line 1 names e9)"},
		{"--chip z80\n", ":1: --chip z80:"},
		{"--device 0x4000-0x4000 0x9800-0x9801\n", ":1: --device 0x4000-0x4000 0x9800-0x9801: one value a line"},
	} {
		board := writeBoard(t, tc.text)
		for _, cmd := range []string{"run", "check"} {
			var out, errb bytes.Buffer
			code := Main([]string{cmd, monitorS19, "--board", board}, nil, &out, &errb)
			if code != ExitUsage || !strings.Contains(errb.String(), board+tc.want) {
				t.Errorf("%s with %q: exit %d, %q; want exit 2 and %q", cmd, tc.text, code, errb.String(), board+tc.want)
			}
		}
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"run", monitorS19, "--board", "/no/such.board"}, nil, &out, &errb); code != ExitUsage ||
		!strings.Contains(errb.String(), "--board /no/such.board: no such file") {
		t.Errorf("missing board file: exit %d, %q", code, errb.String())
	}
	board := writeBoard(t, "--chip e9\n")
	errb.Reset()
	if code := Main([]string{"run", monitorS19, "--board", board, "--chip", "a8"}, nil, &out, &errb); code != ExitUsage ||
		!strings.Contains(errb.String(), "--chip a8 disagrees with the board ("+board+":1: --chip e9)") {
		t.Errorf("--chip against the board's: exit %d, %q", code, errb.String())
	}
}
