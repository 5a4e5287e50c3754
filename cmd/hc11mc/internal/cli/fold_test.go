package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A counterexample that runs a loop 300 times lists the loop once and
// folds the rest into a line that says how often it ran; --full lists
// every transition.
func TestLoopFolded(t *testing.T) {
	img := make([]byte, 0x3000) // 0xD000-0xFFFF
	copy(img, []byte{
		0x8E, 0x01, 0xFF, // lds #0x01FF
		0xCE, 0x01, 0x2C, // ldx #300
		0x09,       // loop: dex
		0x26, 0xFD, // bne loop
		0xBD, 0xD0, 0x20}) // jsr __mc_error
	img[0x20] = 0x39 // __mc_error: rts
	img[0x2FFE], img[0x2FFF] = 0xD0, 0x00
	file := filepath.Join(t.TempDir(), "loop.bin")
	if err := os.WriteFile(file, img, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"check", file, "--format", "bin", "--base", "0xD000", "--hook", "__mc_error=0xD020", "--search", "bfs", "-q"}
	out := run(t, ExitViolation, args...)
	wantLines(t, out, "counterexample: 604 transitions",
		"      5–602  thr 0  the loop at 0xD006 (2 transitions) 299 more times (--full lists them)\n    603  cyc 1806   thr 0  0xD009")
	if n := strings.Count(out, "dex"); n != 1 {
		t.Errorf("the folded listing shows dex %d times, want the loop's first round only:\n%s", n, out)
	}
	full := run(t, ExitViolation, append(args, "--full")...)
	if n := strings.Count(full, "dex"); n != 300 {
		t.Errorf("--full lists dex %d times, want 300", n)
	}
}

// Execution that an RTS sent somewhere bad says where the return address
// came from: the stack bytes RTS pulled and the store that last wrote
// them.
func TestBadReturnNamesTheStore(t *testing.T) {
	img := make([]byte, 0x3000)
	copy(img, []byte{
		0x8E, 0x01, 0xFF, // lds #0x01FF
		0xBD, 0xD0, 0x10, // jsr 0xD010
		0x20, 0xFE}) // bra *
	copy(img[0x10:], []byte{
		0xCC, 0x41, 0x35, // ldd #0x4135
		0xFD, 0x01, 0xFE, // std 0x01FE: over the return address
		0x39}) // rts
	img[0x2FFE], img[0x2FFF] = 0xD0, 0x00
	file := filepath.Join(t.TempDir(), "badret.bin")
	if err := os.WriteFile(file, img, 0o644); err != nil {
		t.Fatal(err)
	}
	out := run(t, ExitViolation, "check", file, "--format", "bin", "--base", "0xD000", "--search", "bfs", "-q")
	wantLines(t, out, "execution at unmapped address 0x4135", "where the bad return address came from:\n"+
		"    RTS at 0xD016 pulled 0x4135 from 0x01FE-0x01FF\n"+
		"    last written by thread 0 at transition 4: 0xD013 std 0x1fe")
}

// writeBin writes img to a file of the test's own directory.
func writeBin(t *testing.T, name string, img []byte) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, img, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// A return address a JSR pushed is explained as the JSR's: here the JSR
// is the last instruction of the image, so the routine returns past its
// end, to 0xD100, where the ROM holds 0x00 (TEST, illegal outside the
// test modes).
func TestBadReturnNamesTheJSR(t *testing.T) {
	img := make([]byte, 0x100) // 0xD000-0xD0FF
	copy(img, []byte{
		0x8E, 0x01, 0xFF, // lds #0x01FF
		0x7E, 0xD0, 0xFD}) // jmp 0xD0FD
	img[0x10] = 0x39                           // sub: rts
	copy(img[0xFD:], []byte{0xBD, 0xD0, 0x10}) // 0xD0FD: jsr sub, the image's last bytes
	file := writeBin(t, "jsrend.bin", img)
	out := run(t, ExitViolation, "check", file, "--format", "bin", "--base", "0xD000", "--entry", "0xD000", "--search", "bfs", "-q")
	wantLines(t, out, "TEST is legal only in test modes 00 at 0xD100", "where the bad return address came from:\n"+
		"    RTS at 0xD010 pulled 0xD100 from 0x01FE-0x01FF\n"+
		"    pushed by the JSR of thread 0 at transition 3: 0xD0FD jsr 0xd010")
}

// A routine that pushes a byte and returns without pulling it returns to
// an address made of that byte and half the JSR's: the explanation names
// the push that wrote the high byte last.
func TestBadReturnNamesThePush(t *testing.T) {
	img := make([]byte, 0x3000)
	copy(img, []byte{
		0x8E, 0x01, 0xFF, // lds #0x01FF
		0xBD, 0xD0, 0x10, // jsr 0xD010
		0x20, 0xFE}) // bra *
	copy(img[0x10:], []byte{
		0x86, 0x41, // ldaa #0x41
		0x36,  // psha: never pulled
		0x39}) // rts
	img[0x2FFE], img[0x2FFF] = 0xD0, 0x00
	file := writeBin(t, "pushret.bin", img)
	out := run(t, ExitViolation, "check", file, "--format", "bin", "--base", "0xD000", "--search", "bfs", "-q")
	wantLines(t, out, "execution at unmapped address 0x41D0", "where the bad return address came from:\n"+
		"    RTS at 0xD013 pulled 0x41D0 from 0x01FD-0x01FE\n"+
		"    pushed by the PSHA of thread 0 at transition 4: 0xD012 psha")
}

// A data access that faults right after a return says nothing about the
// return address, which was good: no "bad return address" section.
func TestDataFaultAfterReturn(t *testing.T) {
	img := make([]byte, 0x3000)
	copy(img, []byte{
		0x8E, 0x01, 0xFF, // lds #0x01FF
		0xBD, 0xD0, 0x10, // jsr 0xD010
		0xA6, 0x00, // ldaa 0,x: X is 0xC000, unmapped
		0x20, 0xFE}) // bra *
	copy(img[0x10:], []byte{
		0xCE, 0xC0, 0x00, // ldx #0xC000
		0x39}) // rts
	img[0x2FFE], img[0x2FFF] = 0xD0, 0x00
	file := writeBin(t, "dataret.bin", img)
	out := run(t, ExitViolation, "check", file, "--format", "bin", "--base", "0xD000", "--search", "bfs", "-q")
	if !strings.Contains(out, "read of unmapped address 0xC000") {
		t.Fatalf("no unmapped read:\n%s", out)
	}
	for _, bad := range []string{"bad return address", "held it from the start"} {
		if strings.Contains(out, bad) {
			t.Errorf("the explanation of a data fault speaks of the return address (%q):\n%s", bad, out)
		}
	}
}
