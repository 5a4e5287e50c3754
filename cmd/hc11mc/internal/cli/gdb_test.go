package cli

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"regexp"
	"strings"
	"testing"
)

// replay --gdb listens on the address given (the loopback address for
// :PORT), prints where, serves one GDB session over TCP (here a qC and a
// detach, framed by hand after GDB's manual) and exits 1 as replay does
// for a violation reproduced; a malformed address is exit 2 and one line.
func TestReplayGDB(t *testing.T) {
	trace := "../../../../cex/gdbremote/testdata/tick_torn.json"
	pr, pw := io.Pipe()
	code := make(chan int, 1)
	go func() {
		var errb bytes.Buffer
		code <- Main([]string{"replay", trace, "--gdb", ":0"}, nil, pw, &errb)
		pw.Close()
	}()
	lines := pipeLines(pr)
	first := <-lines
	addr := regexp.MustCompile(`on (127\.0\.0\.1:[0-9]+):`).FindStringSubmatch(first)
	if addr == nil {
		t.Fatalf("no loopback address in %q", first)
	}
	conn, err := net.Dial("tcp", addr[1])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	exchange := func(send, want string) {
		t.Helper()
		if _, err := io.WriteString(conn, send); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(want))
		if _, err := io.ReadFull(r, got); err != nil || string(got) != want {
			t.Fatalf("sent %q: got %q, %v; want %q", send, got, err, want)
		}
		io.WriteString(conn, "+")
	}
	// Checksums: the sum of the data's bytes modulo 256 ('q'+'C' = 0xB4).
	exchange("$qC#b4", "+$QC1#c5")
	exchange("$D#44", "+$OK#9a")
	if c := <-code; c != ExitViolation {
		t.Errorf("exit %d, want %d", c, ExitViolation)
	}
	var rest []string
	for l := range lines {
		rest = append(rest, l)
	}
	if !strings.Contains(strings.Join(rest, "\n"), "target remote "+addr[1]) {
		t.Errorf("no connect command in %q", rest)
	}

	for _, args := range [][]string{{"--gdb", "3333"}, {"--gdb", ":0", "--json"}} {
		var out, errb bytes.Buffer
		if c := Main(append([]string{"replay", trace}, args...), nil, &out, &errb); c != ExitUsage || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, %q", args, c, errb.String())
		}
	}
}

// pipeLines sends the lines read from r on the channel it returns, closed
// at r's end.
func pipeLines(r io.Reader) chan string {
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return lines
}
