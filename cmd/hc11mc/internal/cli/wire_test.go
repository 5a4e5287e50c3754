package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wireFirmware is firmware whose OC5 pin, wired to XIRQ, requests the
// interrupt only when its compare comes: it forces PA3 high (TCTL1's
// OM5:OL5 = 11 and CFORC's FOC5), sets OC5 to clear the pin at its next
// compare (OM5:OL5 = 10, TOC5 = TCNT + 100), clears X and loops; the
// XIRQ handler at 0xE030 loops too.
func wireFirmware(t *testing.T) string {
	t.Helper()
	img := make([]byte, 0x2000) // 0xE000-0xFFFF
	copy(img, []byte{
		0x8E, 0x00, 0xFF, // lds #0x00FF
		0xCE, 0x10, 0x00, // ldx #0x1000
		0x86, 0x03, 0xA7, 0x20, // ldaa #3; staa TCTL1,x: set PA3 at a compare
		0x86, 0x08, 0xA7, 0x0B, // ldaa #0x08; staa CFORC,x: FOC5, PA3 high now
		0x86, 0x02, 0xA7, 0x20, // ldaa #2; staa TCTL1,x: clear PA3 at the next compare
		0xEC, 0x0E, 0xC3, 0x00, 0x64, 0xED, 0x1E, // ldd TCNT,x; addd #100; std TOC5,x
		0x07, 0x84, 0xBF, 0x06, // tpa; anda #0xBF; tap: X clear
		0x20, 0xFE}) // bra *
	copy(img[0x30:], []byte{0x20, 0xFE})  // xirq handler: bra *
	img[0x1FF4], img[0x1FF5] = 0xE0, 0x30 // XIRQ vector
	img[0x1FFE], img[0x1FFF] = 0xE0, 0x00 // reset vector
	file := filepath.Join(t.TempDir(), "wire.bin")
	if err := os.WriteFile(file, img, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// A board's wire from OC5's pin to XIRQ: check reaches the XIRQ handler
// under both clocks (the abstract one fires OC5 at some scheduling point,
// the exact one 100 counts after the firmware read TCNT), and not when
// the timer never fires or nothing is wired.
func TestWireOC5ToXIRQ(t *testing.T) {
	fw := wireFirmware(t)
	base := []string{"check", fw, "--format", "bin", "--base", "0xE000", "--chip", "e9", "--reach", "0xE030", "--search", "bfs", "-q"}
	for _, clock := range []string{"abstract", "exact"} {
		out := run(t, ExitViolation, append(base, "--wire", "oc5=xirq", "--clock", clock)...)
		if !strings.Contains(out, "violation: reach") {
			t.Errorf("--clock %s: the XIRQ handler not reached:\n%s", clock, out)
		}
	}
	run(t, ExitIncomplete, append(base, "--wire", "oc5=xirq", "--max-timer-events", "0")...)
	run(t, ExitVerified, base...)
	// The board file says it too.
	board := filepath.Join(t.TempDir(), "b.board")
	if err := os.WriteFile(board, []byte("--chip e9\nwire oc5=xirq\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, ExitViolation, "check", fw, "--format", "bin", "--base", "0xE000", "--board", board, "--reach", "0xE030", "--search", "bfs", "-q")
	_, errs := runSplit(t, ExitUsage, "check", fw, "--format", "bin", "--base", "0xE000", "--chip", "e9", "--wire", "oc6=xirq")
	wantLines(t, errs, `"oc6" is not an output-compare pin`)
}
