package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// usageLine runs hc11mc and returns its exit code and its one line of
// complaint, failing the test when the complaint is not exactly one line.
func usageLine(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, nil, &out, &errb)
	msg := errb.String()
	if code == ExitUsage && (strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "hc11mc: ")) {
		t.Errorf("%v: stderr %q is not one line", args, msg)
	}
	if strings.Contains(msg, "goroutine") || strings.Contains(msg, "panic") {
		t.Errorf("%v: stack trace: %s", args, msg)
	}
	return code, strings.TrimSpace(msg)
}

// A missing --symbols file is named as such, not taken for the firmware.
func TestMissingSymbolsFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "fw.nm")
	for _, cmd := range []string{"check", "run", "disasm", "cfg"} {
		code, msg := usageLine(t, cmd, allopsELF, "--symbols", missing)
		want := "--symbols " + missing + ": no such file"
		if code != ExitUsage || !strings.Contains(msg, want) || strings.Contains(msg, allopsELF) {
			t.Errorf("%s --symbols missing: exit %d %q, want %q", cmd, code, msg, want)
		}
	}
}
