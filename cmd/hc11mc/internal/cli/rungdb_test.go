package cli

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// run --gdb serves the run it would make: GDB continues it to its end
// (the firmware waits with nothing left to come), the SCI's output
// appears on stdout as plain run prints it, and after the detach the
// summary is plain run's (exit 0). A malformed address, a port in use and
// flags that do not apply are exit 2 and one line.
func TestRunGDB(t *testing.T) {
	fw := "../../../../testdata/firmware/serial_cmd_fixed.elf"
	args := []string{"run", fw, "--sci-input", `E hi\r`}
	var plainOut, plainErr bytes.Buffer
	if c := Main(args, nil, &plainOut, &plainErr); c != 0 {
		t.Fatalf("plain run: exit %d, %s", c, plainErr.String())
	}

	pr, pw := io.Pipe()
	var out syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- Main(append(args, "--gdb", ":0"), nil, &out, pw)
		pw.Close()
	}()
	lines := pipeLines(pr)
	first := <-lines
	addr := regexp.MustCompile(`on (127\.0\.0\.1:[0-9]+), stopped at 0xD000`).FindStringSubmatch(first)
	if addr == nil {
		t.Fatalf("no loopback address and reset vector in %q", first)
	}
	conn, err := net.Dial("tcp", addr[1])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	// Packets framed by hand after GDB's manual: $data#checksum, the
	// checksum the sum of data's bytes modulo 256.
	send := func(p string) {
		t.Helper()
		var sum byte
		for i := 0; i < len(p); i++ {
			sum += p[i]
		}
		if _, err := io.WriteString(conn, "$"+p+"#"+hex2(sum)); err != nil {
			t.Fatal(err)
		}
		if b, err := r.ReadByte(); err != nil || b != '+' {
			t.Fatalf("%s: ack %q, %v", p, b, err)
		}
	}
	recv := func() string {
		t.Helper()
		if b, err := r.ReadByte(); err != nil || b != '$' {
			t.Fatalf("recv: %q %v", b, err)
		}
		s, err := r.ReadString('#')
		if err != nil {
			t.Fatal(err)
		}
		r.Discard(2)
		io.WriteString(conn, "+")
		return strings.TrimSuffix(s, "#")
	}
	send("c")
	reply := recv()
	for strings.HasPrefix(reply, "O") {
		reply = recv()
	}
	if !strings.HasPrefix(reply, "T05") {
		t.Fatalf("c: %q, want a SIGTRAP stop at the run's end", reply)
	}
	send("D")
	if r := recv(); r != "OK" {
		t.Fatalf("D: %q", r)
	}
	if c := <-code; c != 0 {
		t.Errorf("exit %d, want 0", c)
	}
	var rest []string
	for l := range lines {
		rest = append(rest, l)
	}
	if out.String() != plainOut.String() {
		t.Errorf("stdout %q, want plain run's %q", out.String(), plainOut.String())
	}
	if got, want := rest[len(rest)-1], strings.TrimSpace(plainErr.String()); got != want {
		t.Errorf("summary %q, want plain run's %q", got, want)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, extra := range [][]string{{"--gdb", "3333"}, {"--gdb", "nohost.invalid.:x"}, {"--gdb", ln.Addr().String()},
		{"--gdb", ":0", "--trace"}, {"--gdb", ":0", "--terminal"}} {
		var o, e bytes.Buffer
		if c := Main(append(args, extra...), nil, &o, &e); c != ExitUsage || strings.Count(e.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, %q", extra, c, e.String())
		}
	}
}

// hex2 is a byte in two hex digits.
func hex2(b byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[b>>4], digits[b&15]})
}

// syncBuffer is a buffer written by one goroutine and read by another.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
