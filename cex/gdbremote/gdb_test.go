package gdbremote

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// gdbPath finds m68hc11-elf-gdb: $HC11_GDB, else on PATH, else the one
// make gdb builds (bin/m68hc11-elf-gdb); the test skips without one.
func gdbPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("HC11_GDB"); p != "" {
		return p
	}
	if p, err := exec.LookPath("m68hc11-elf-gdb"); err == nil {
		return p
	}
	p, _ := filepath.Abs(filepath.Join("..", "..", "bin", "m68hc11-elf-gdb"))
	if _, err := os.Stat(p); err == nil {
		return p
	}
	t.Skip("no m68hc11-elf-gdb (make gdb builds it into bin/, or set HC11_GDB)")
	return ""
}

// runGDB serves the bundled trace name on a loopback port and runs GDB in
// batch mode on its firmware with the commands cmds, after target remote;
// it returns what GDB printed.
func runGDB(t *testing.T, name string, cmds ...string) string {
	t.Helper()
	tr, h := history(t, name)
	fw, err := filepath.Abs(tr.Firmware)
	if err != nil {
		t.Fatal(err)
	}
	return batchGDB(t, fw, NewServer(h), cmds...)
}

// batchGDB serves one session of srv on a loopback port and runs GDB in
// batch mode on the firmware image fw with the commands cmds, after
// target remote; it returns what GDB printed (the test skips without a
// GDB: gdbPath).
func batchGDB(t *testing.T, fw string, srv *Server, cmds ...string) string {
	t.Helper()
	gdb := gdbPath(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan error, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			served <- err
			return
		}
		defer conn.Close()
		served <- srv.Serve(conn)
	}()
	args := []string{"-nx", "-batch", fw, "-ex", "target remote " + ln.Addr().String()}
	for _, c := range cmds {
		args = append(args, "-ex", c)
	}
	// A bound in case GDB waits for an answer that never comes: not a
	// measurement, the test asserts nothing about time.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, gdb, args...)
	cmd.Dir = filepath.Join("..", "..", "testdata") // where the line info's paths (models/x.s) start
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", gdb, err, out)
	}
	ln.Close()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	t.Logf("gdb %s\n%s", strings.Join(args, " "), out)
	return string(out)
}

// wantLines checks that out has each pattern, in order.
func wantLines(t *testing.T, out string, patterns ...string) {
	t.Helper()
	rest := out
	for _, p := range patterns {
		loc := regexp.MustCompile(p).FindStringIndex(rest)
		if loc == nil {
			t.Errorf("no %q (in order) in GDB's output:\n%s", p, out)
			return
		}
		rest = rest[loc[1]:]
	}
}

// A real GDB steps tick_torn's counterexample: to the interrupt handler
// at a breakpoint, on to the violation, back by reverse-stepi and
// reverse-continue, printing registers and variables on the way. The
// values are the Reference Manual's, worked out in tick_torn.s: ticks is
// 0x00FF until the handler's std makes it 0x0100; main read last =
// 0x00FF, then A = 0x00 before the interrupt and B = 0x00 after it.
func TestGDBBatchTickTorn(t *testing.T) {
	out := runGDB(t, "tick_torn.json",
		"print/x $pc",
		"break toc1_isr",
		"continue",
		"print/x $pc",
		"print/x *(unsigned short *)&ticks",
		"continue",
		"print/x *(unsigned short *)&ticks",
		"print/x *(unsigned short *)&last",
		"reverse-stepi",
		"print/x $pc",
		"reverse-stepi",
		"print/x $pc",
		"print/x $a",
		"print/x $d",
		"reverse-continue",
		"print/x $pc",
		"print/x *(unsigned short *)&ticks",
		"delete",
		"reverse-continue",
		"print/x $pc",
		"stepi",
		"print/x $sp",
		"info threads",
		"detach",
	)
	wantLines(t, out,
		`\$1 = 0xd00d`, // power-up: the entry
		`Breakpoint 1 at 0xd03d`,
		`Breakpoint 1, .*toc1_isr`,
		`\$2 = 0xd03d`,
		`\$3 = 0xff`, // ticks before the handler's increment
		`hc11mc: the end of the counterexample: assert`,
		`No more reverse-execution history`,
		`\$4 = 0x100`,  // ticks after it
		`\$5 = 0xff`,   // last
		`\$6 = 0xd002`, // reverse-stepi from the end: into __mc_assert
		`\$7 = 0xd031`, // and the jsr that called it
		`\$8 = 0x0`,    // A: the assertion's argument
		`\$9 = 0x0`,    // D = 0x0000: the torn reading
		`Breakpoint 1, .*toc1_isr`,
		`\$10 = 0xd03d`,
		`\$11 = 0xff`,
		`No more reverse-execution history`,
		`\$12 = 0xd00d`,
		`\$13 = 0x34`, // lds #stack0+47
		`Thread 1`,
	)
}

// Threads in GDB: a breakpoint in update, which both threads of
// mutex_bad run, stops first in thread 2 (hc11mc's thread 1, trace step
// 5), then in thread 1 (step 9); GDB switches to the thread that stopped
// and lists both.
func TestGDBBatchThreads(t *testing.T) {
	out := runGDB(t, "mutex_calls.json",
		"break update",
		"continue",
		"info threads",
		"continue",
		"print/x $pc",
		"print/x *(unsigned char *)&shared",
		"continue",
		"reverse-continue",
		"reverse-continue",
		"detach",
	)
	wantLines(t, out,
		`Breakpoint 1 at 0xd027`,
		`Switching to Thread 2`,
		`Thread 2 hit Breakpoint 1`,
		`\* 2 +Thread 2`,
		`Switching to Thread 1`,
		`Thread 1 hit Breakpoint 1`,
		`\$1 = 0xd027`,
		`\$2 = 0x1`, // thread 2 incremented shared before
		`No more reverse-execution history`,
		`Thread 1 hit Breakpoint 1`,
		`Switching to Thread 2`,
		`Thread 2 hit Breakpoint 1`,
	)
}

// Source lines and a watchpoint in a real GDB: next and step go by
// tick_torn.s's lines, reverse-next comes back one; watch on
// ticks stops where the handler's std (line 106) changes it, forward
// (0x00FF to 0x0100) and backward (GDB shows the values the other way).
func TestGDBBatchSourceAndWatch(t *testing.T) {
	out := runGDB(t, "tick_torn.json",
		"next",
		"next",
		"step",
		"next",
		"reverse-next",
		"watch *(unsigned short *)&ticks",
		"continue",
		"info registers",
		"continue",
		"reverse-continue",
		"detach",
	)
	wantLines(t, out,
		`72\s+jsr\s+main`,  // next: past lds
		`77\s+ldx\s+#REGS`, // into main: without frame info GDB steps in
		`78\s+bset`,
		`79\s+cli`,
		`78\s+bset`, // reverse-next
		`[Ww]atchpoint 1: \*\(unsigned short \*\)&ticks`,
		`Old value = 255\s+New value = 256`,
		`107\s+dec\s+budget`, // stopped after the std of line 106
		// After std: SP 0x27 (the interrupt's frame), CCR 0xD0 (I set,
		// N Z V clear for 0x0100), D 0x0100.
		`PC=0xd04b\s+SP=0x0027`,
		`CCR=0xd0`,
		`D=0x0100`,
		`No more reverse-execution history`,
		`Old value = 256\s+New value = 255`,
		`106\s+std\s+ticks`, // backward: stopped before the std
	)
}
