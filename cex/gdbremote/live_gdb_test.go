package gdbremote

import (
	"bytes"
	"context"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// runLiveGDB serves a live run of the bundled image file (with the
// chip's peripherals and input on its SCI when chip is set) on a
// loopback port and runs GDB in batch mode on the image with cmds after
// target remote; it returns what GDB printed.
func runLiveGDB(t *testing.T, file, input string, chip bool, cmds ...string) string {
	t.Helper()
	gdbPath(t) // skips without a GDB before the machine is made
	fw, err := filepath.Abs(filepath.Join("..", "..", "testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	img, err := loader.Load(fw, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.Config{Entry: img.Entry}
	if chip {
		p, _ := loader.FindChip("e9")
		if cfg.Device, err = devices.New(p, devices.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	m, err := sim.NewMachine(img, cfg)
	if err != nil {
		t.Fatal(err)
	}
	l := NewLive(m, func() sim.RunOptions { return sim.RunOptions{SCIInput: []byte(input)} })
	return batchGDB(t, fw, NewLiveServer(l), cmds...)
}

// A real GDB drives collect.s live with the input "AB\r" (see
// TestLiveCollect for the values, the Reference Manual's): to the
// breakpoint at eol, where A is the CR (13) and Y is line+2 = 2 (line is
// at 0x0000); stepi over INC count (1); reverse-stepi (0); a write of 7
// to count, stepi (8); a watchpoint on count set after reverse-continue
// to reset, where count is 0 (.bss), and a continue: it stops after the
// INC, count 8 (GDB's 7 written at eol is part of the run's history, not
// a change the firmware made).
func TestGDBBatchLive(t *testing.T) {
	out := runLiveGDB(t, "firmware/collect.elf", "AB\r", true,
		"break eol",
		"continue",
		"print $a",
		"print $y",
		"x/2c &line",
		"stepi",
		"print *(unsigned char *)&count",
		"reverse-stepi",
		"print *(unsigned char *)&count",
		"set var *(unsigned char *)&count = 7",
		"stepi",
		"print *(unsigned char *)&count",
		"reverse-continue",
		"reverse-continue",
		"print/x $pc",
		"delete",
		"watch *(unsigned char *)&count",
		"continue",
		"detach")
	wantLines(t, out,
		`Breakpoint 1, eol \(\) at firmware/collect.s:36`,
		`\$1 = 13`,
		`\$2 = 2`,
		`65 'A'\s+66 'B'`,
		`\$3 = 1`,
		`\$4 = 0`,
		`\$5 = 8`,
		`Breakpoint 1, eol`,
		`No more reverse-execution history`,
		`\$6 = 0xd000`,
		`atchpoint 2: \*\(unsigned char \*\)&count`,
		`Old value = 0`,
		`New value = 8`,
		`eol \(\) at firmware/collect.s:37`,
		`Inferior 1 \(Remote target\) detached`)
}

// A violation stops GDB with its signal: rom_write.s stores into its
// gain table in ROM, SIGSEGV.
func TestGDBBatchLiveViolation(t *testing.T) {
	out := runLiveGDB(t, "models/rom_write.elf", "", false, "continue", "print/x $x", "detach")
	wantLines(t, out, `hc11mc: violation rom-write`, `Program received signal SIGSEGV`, `\$1 = 0x`, `detached`)
}

// Read and access watchpoints with the real GDB on collect.s: awatch on
// line stops after the first STAA 0,Y stored 'A' (65), at the INY on
// line 34; rwatch on count after INC count read it, making it 1.
func TestGDBBatchLiveReadWatch(t *testing.T) {
	out := runLiveGDB(t, "firmware/collect.elf", "AB\r", true,
		"awatch *(unsigned char *)&line",
		"continue",
		"delete",
		"rwatch *(unsigned char *)&count",
		"continue",
		"detach")
	wantLines(t, out,
		`Hardware access \(read/write\) watchpoint 1: \*\(unsigned char \*\)&line`,
		`Old value = 0 '.000'`,
		`New value = 65 'A'`,
		`wait \(\) at firmware/collect.s:34`,
		`Hardware read watchpoint 2: \*\(unsigned char \*\)&count`,
		`Value = 1 '\\001'`,
		`eol \(\) at firmware/collect.s:37`,
		`detached`)
}

// Ctrl-C in a real GDB on a terminal (script(1) gives it one) stops
// irq_counter.s's endless run with SIGINT, in its main loop or its
// handler, and the session goes on: ticks, read after it, is not 0 (the
// TOC1 handler counts each tick; the run went on until the Ctrl-C, which
// is sent only once the server has the resume).
func TestGDBInterruptLive(t *testing.T) {
	gdb := gdbPath(t)
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to give GDB a terminal")
	}
	fw, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "models", "irq_counter.elf"))
	img, err := loader.Load(fw, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := sim.NewMachine(img, sim.Config{Entry: img.Entry, IRQs: []string{"toc1"}})
	if err != nil {
		t.Fatal(err)
	}
	l := NewLive(m, func() sim.RunOptions { return sim.RunOptions{} }) // no --steps bound
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan error, 1)
	resumed := make(chan struct{})
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			served <- err
			return
		}
		defer conn.Close()
		served <- NewLiveServer(l).Serve(&resumeTap{Conn: conn, resumed: resumed})
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a bound against a hang, not a measurement
	defer cancel()
	cmd := exec.CommandContext(ctx, script, "-qfc", gdb+" -nx "+fw+" -ex 'set style enabled off' -ex 'target remote "+ln.Addr().String()+"'", "/dev/null")
	cmd.Dir = filepath.Join("..", "..", "testdata")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var seen strings.Builder
	buf := make([]byte, 4096)
	until := func(s string) {
		t.Helper()
		for !strings.Contains(seen.String(), s) {
			n, err := outPipe.Read(buf)
			seen.Write(buf[:n])
			if err != nil {
				t.Fatalf("no %q in GDB's output: %v\n%s", s, err, seen.String())
			}
		}
	}
	until("(gdb)")
	io.WriteString(in, "continue\n")
	until("Continuing.")
	<-resumed // GDB waits for the stop now, ready for Ctrl-C
	io.WriteString(in, "\x03")
	until("Program received signal SIGINT")
	until("(gdb)")
	io.WriteString(in, "print *(unsigned long *)&ticks > 0\ndetach\nquit\n")
	until("detached")
	in.Close()
	cmd.Wait()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	t.Logf("%s", seen.String())
	wantLines(t, seen.String(), `Program received signal SIGINT, Interrupt.`, `\$1 = 1`, `detached`)
}

// resumeTap is a connection that closes resumed when the first resume
// packet (c or vCont;c) arrives.
type resumeTap struct {
	net.Conn
	resumed chan struct{}
	seen    []byte
	done    bool
}

func (r *resumeTap) Read(p []byte) (int, error) {
	n, err := r.Conn.Read(p)
	if !r.done {
		r.seen = append(r.seen, p[:n]...)
		if bytes.Contains(r.seen, []byte("$c#")) || bytes.Contains(r.seen, []byte("$vCont;c")) {
			r.done = true
			close(r.resumed)
		}
	}
	return n, err
}
