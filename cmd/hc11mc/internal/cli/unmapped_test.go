package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// An unmapped access names the --device range that would map it, in run
// and in check; a 16-bit access names both of its bytes.
func TestUnmappedNamesDevice(t *testing.T) {
	_, out := runSplit(t, ExitViolation, "run", monitorS19)
	wantLines(t, out, "write of 0xFF to unmapped address 0x4000 (board hardware there would need --device 0x4000-0x4000)")
	out = run(t, ExitViolation, "check", monitorS19, "--search", "bfs", firmwareQuiet)
	wantLines(t, out, "write of 0xFF to unmapped address 0x4000 (board hardware there would need --device 0x4000-0x4000)")

	img := make([]byte, 0x3000) // 0xD000-0xFFFF
	copy(img, []byte{
		0xFC, 0x98, 0x00, // ldd 0x9800
		0x20, 0xFE}) // bra *
	img[0x2FFE], img[0x2FFF] = 0xD0, 0x00
	file := filepath.Join(t.TempDir(), "acia.bin")
	if err := os.WriteFile(file, img, 0o644); err != nil {
		t.Fatal(err)
	}
	_, out = runSplit(t, ExitViolation, "run", file, "--format", "bin", "--base", "0xD000")
	wantLines(t, out, "read of unmapped address 0x9800 (board hardware there would need --device 0x9800-0x9801)")
}

// A --device range over memory already mapped — the image, RAM, the
// register block — is refused with the overlap named, not taken over (a
// device over the ROM once made the reset vector's code "unmapped"); an
// '=' with no values after it, for --device and --input, is refused too.
func TestDeviceRangeRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", monitorS19, "--device", "0x0000-0xFFFF"}, "--device 0x0000-0xFFFF covers 0x0000-0x01FF, RAM"},
		{[]string{"run", monitorS19, "--device", "0x4000-0x4001", "--device", "0xD000-0xD0FF"}, "covers 0xD000-0xD0FF, read-only memory the image loads"},
		{[]string{"check", monitorS19, "--device", "0x1030-0x1040"}, "covers 0x1030-0x103F, the chip's register block"},
		{[]string{"run", monitorS19, "--device", "0x4000-0x4001="}, "no values after '='"},
		{[]string{"check", philosophersELF, "--input", "0x0040="}, "no values after '='"},
	} {
		_, diag := runSplit(t, ExitUsage, c.args...)
		wantLines(t, diag, c.want)
	}
}
