package cli

import (
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/cex/gdbremote"
)

// serveGDB serves the counterexample in the trace file at path to one GDB
// session on addr (replay --gdb [HOST]:PORT; the host defaults to the
// loopback address): it checks that the trace replays to its violation,
// listens, prints how to connect, and returns when GDB detaches, kills
// the target or goes away, with replay's exit code.
func serveGDB(path, addr string, stdout io.Writer) error {
	tf, img, m, labels, err := loadTrace(path)
	if err != nil {
		return err
	}
	if fail := cex.Replay(img, m, labels).Check(tf.Violation); fail != nil {
		return &exitError{code: ExitNoReplay, msg: fmt.Sprintf("%s does not replay: %v", path, fail)}
	}
	h, err := gdbremote.NewHistory(m, labels)
	if err != nil {
		return &exitError{code: ExitNoReplay, msg: fmt.Sprintf("%s does not replay: %v", path, err)}
	}
	ln, err := listenGDB(addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	fmt.Fprintf(stdout, "serving %s to GDB on %s: %d instructions and interrupts from power-up to the violation\n", path, ln.Addr(), h.Len())
	fmt.Fprintf(stdout, "  m68hc11-elf-gdb %s -ex 'target remote %s'\n", tf.Firmware, ln.Addr())
	conn, err := ln.Accept()
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := gdbremote.NewServer(h).Serve(conn); err != nil && !errors.Is(err, net.ErrClosed) {
		fmt.Fprintf(stdout, "GDB session ended: %v\n", err)
	} else {
		fmt.Fprintln(stdout, "GDB session ended")
	}
	return exitCode(ExitViolation)
}

// listenGDB listens on --gdb's [HOST]:PORT, the host 127.0.0.1 when it
// is left out; a bad address or a port in use is a usage error.
func listenGDB(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, usagef("--gdb %q: want [HOST]:PORT, as :3333", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, usagef("--gdb %q: %v", addr, err)
	}
	return ln, nil
}
