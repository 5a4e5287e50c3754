package gdbremote

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// The expected values in these tests come from the bundled firmware's
// sources (testdata/firmware/collect.s, testdata/models/irq_counter.s,
// rom_write.s, illegal.s) and the M68HC11 Reference Manual's semantics of
// their instructions, worked out by hand in the comments; never from the
// server's own output.

// liveRun is a live session under test: the client, the image, and what
// the firmware sent on its SCI.
type liveRun struct {
	*client
	img *loader.Image
	mu  sync.Mutex
	sci bytes.Buffer
}

// output is what the SCI has sent so far.
func (r *liveRun) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sci.String()
}

// sym is the address of a symbol of the image.
func (r *liveRun) sym(name string) uint16 {
	r.t.Helper()
	s, ok := r.img.Lookup(name)
	if !ok {
		r.t.Fatalf("no symbol %s", name)
	}
	return s.Addr
}

// dialLive starts a live run of the bundled image file (under testdata/)
// as run would — the chip's peripherals when chip is set, the SCI
// receiving input — and serves it over an in-memory connection.
func dialLive(t *testing.T, file, input string, chip bool, irqs ...string) *liveRun {
	t.Helper()
	return dialLiveSeed(t, file, input, chip, 0, irqs...)
}

// dialLiveSeed is dialLive with every choice at random from seed (0: no
// random source), as run --seed makes them.
func dialLiveSeed(t *testing.T, file, input string, chip bool, seed uint64, irqs ...string) *liveRun {
	t.Helper()
	img, err := loader.Load(filepath.Join("..", "..", "testdata", file), loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.Config{Entry: img.Entry, IRQs: irqs}
	if chip {
		p, err := loader.FindChip("e9")
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Device, err = devices.New(p, devices.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	m, err := sim.NewMachine(img, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := &liveRun{img: img}
	options := func() sim.RunOptions {
		o := sim.RunOptions{SCIInput: []byte(input), Output: func(o sim.Output) {
			if o.Kind == sim.OutSCI {
				r.mu.Lock()
				r.sci.WriteByte(o.Value)
				r.mu.Unlock()
			}
		}}
		if seed != 0 {
			o.Rand = rand.New(rand.NewPCG(seed, 1))
		}
		return o
	}
	l := NewLive(m, options)
	a, b := net.Pipe()
	r.client = &client{t: t, r: bufio.NewReader(a), w: a, done: make(chan error, 1)}
	go func() { r.done <- NewLiveServer(l).Serve(b); b.Close() }()
	t.Cleanup(func() { a.Close() })
	return r
}

// resume sends a resume packet and returns the stop reply's signal and
// fields, collecting console output on the way.
func (c *client) resume(p string) (int, map[string]string) {
	c.t.Helper()
	c.send(p)
	return c.stopReply(p)
}

// stopReply reads the stop reply to p.
func (c *client) stopReply(p string) (int, map[string]string) {
	c.t.Helper()
	c.out = nil
	for {
		r := c.recv()
		if strings.HasPrefix(r, "O") && r != "OK" {
			b, err := strconv.Unquote(`"` + hexToEscapes(r[1:]) + `"`)
			if err != nil {
				c.t.Fatalf("console output %q: %v", r, err)
			}
			c.out = append(c.out, b)
			continue
		}
		if len(r) < 3 || r[0] != 'T' {
			c.t.Fatalf("%s: stop reply %q", p, r)
		}
		sig, err := strconv.ParseUint(r[1:3], 16, 8)
		if err != nil {
			c.t.Fatalf("%s: stop reply %q", p, r)
		}
		f := map[string]string{}
		for _, kv := range strings.Split(strings.TrimSuffix(r[3:], ";"), ";") {
			k, v, _ := strings.Cut(kv, ":")
			f[k] = v
		}
		return int(sig), f
	}
}

// mem reads n bytes at a.
func (c *client) mem(a uint16, n int) string {
	c.t.Helper()
	return c.cmd(fmt.Sprintf("m%x,%x", a, n))
}

// TestLiveCollect drives collect.s, which reads SCI bytes into line
// until a carriage return (then INC count and start again), with the
// input "AB\r":
//
//	_start: LDS #0x01FF; LDX #0x1000; ... newline: LDY #line
//	wait:   BRCLR SCSR,X,#RDRF,wait; LDAA SCDR,X; CMPA #13; BEQ eol
//	        STAA 0,Y; INY; BRA wait
//	eol:    INC count; BRA newline
//
// At eol after the line: A = 13 (the CR; CMPA leaves A and sets Z, BEQ
// keeps the flags), B = 0, X = 0x1000, Y = line+2 (two bytes stored, INY
// after each), SP = 0x01FF, line = "AB". INC count (extended, 3 bytes)
// makes count 1 and leaves PC at eol+3.
func TestLiveCollect(t *testing.T) {
	c := dialLive(t, "firmware/collect.elf", "AB\r", true)
	line, count, eol := c.sym("line"), c.sym("count"), c.sym("eol")
	start := c.sym("_start")
	if g := c.regs(1); g.PC != uint64(start) || g.CCR != 0xD0 {
		t.Fatalf("at reset: PC %04x CCR %02x, want %04x and S X I set (0xD0)", g.PC, g.CCR, start)
	}
	if r := c.cmd(fmt.Sprintf("Z0,%x,1", eol)); r != "OK" {
		t.Fatalf("Z0: %q", r)
	}
	sig, f := c.resume("c")
	if sig != sigTrap || f["04"] != fmt.Sprintf("%04x", eol) {
		t.Fatalf("c: signal %d %v, want SIGTRAP at eol", sig, f)
	}
	g := c.regs(1)
	if g.PC != uint64(eol) || g.A != 13 || g.B != 0 || g.X != 0x1000 || g.Y != uint64(line)+2 || g.SP != 0x01FF || g.CCR&0x04 == 0 {
		t.Fatalf("at eol: %+v; want PC %04x A 0x0D B 0 X 0x1000 Y %04x SP 0x01FF, Z set", g, eol, line+2)
	}
	if m := c.mem(line, 2); m != "4142" {
		t.Errorf("line: %q, want \"AB\" (4142)", m)
	}
	if m := c.mem(count, 1); m != "00" {
		t.Errorf("count before INC: %q", m)
	}
	// stepi: INC count.
	if sig, _ := c.resume("s"); sig != sigTrap {
		t.Fatalf("s: signal %d", sig)
	}
	if g := c.regs(1); g.PC != uint64(eol)+3 {
		t.Errorf("after INC: PC %04x, want %04x", g.PC, eol+3)
	}
	if m := c.mem(count, 1); m != "01" {
		t.Errorf("count after INC: %q, want 01", m)
	}
	// reverse-stepi: back before INC.
	if sig, _ := c.resume("bs"); sig != sigTrap {
		t.Fatalf("bs: signal %d", sig)
	}
	if g := c.regs(1); g.PC != uint64(eol) || g.Y != uint64(line)+2 {
		t.Errorf("after bs: PC %04x Y %04x, want %04x %04x", g.PC, g.Y, eol, line+2)
	}
	if m := c.mem(count, 1); m != "00" {
		t.Errorf("count after bs: %q, want 00", m)
	}
	// A write to RAM, then INC: 7 + 1.
	if r := c.cmd(fmt.Sprintf("M%x,1:07", count)); r != "OK" {
		t.Fatalf("M count: %q", r)
	}
	if m := c.mem(count, 1); m != "07" {
		t.Errorf("count after M: %q", m)
	}
	c.resume("s")
	if m := c.mem(count, 1); m != "08" {
		t.Errorf("count after M and INC: %q, want 08", m)
	}
	// A register write: D = 0x1234 is A = 0x12, B = 0x34.
	if r := c.cmd("P1=1234"); r != "OK" {
		t.Fatalf("P1: %q", r)
	}
	if g := c.regs(1); g.A != 0x12 || g.B != 0x34 || g.D != 0x1234 {
		t.Errorf("after P1=1234: %+v", g)
	}
	// Writes refused: ROM (the LDS at _start, 0x8E) and the register
	// block (SCDR).
	if r := c.cmd(fmt.Sprintf("M%x,1:01", start)); r != "E01" {
		t.Errorf("M to ROM: %q, want E01", r)
	}
	if m := c.mem(start, 1); m != "8e" {
		t.Errorf("ROM at _start after a refused write: %q, want 8e (LDS #)", m)
	}
	if r := c.cmd("M102f,1:41"); r != "E01" {
		t.Errorf("M to SCDR: %q, want E01", r)
	}
	// reverse-continue: back to eol, where the write of 7 was made; the
	// history before it is the run's.
	if sig, f := c.resume("bc"); sig != sigTrap || f["thread"] != "1" {
		t.Fatalf("bc: %d %v", sig, f)
	}
	if g := c.regs(1); g.PC != uint64(eol) {
		t.Errorf("after bc: PC %04x, want eol %04x", g.PC, eol)
	}
	if m := c.mem(count, 1); m != "07" {
		t.Errorf("count at eol after bc: %q, want 07 (the write made there)", m)
	}
	// Back to reset, and the line empty there.
	sig, f = c.resume("bc")
	if sig != sigTrap || f["replaylog"] != "begin" {
		t.Fatalf("bc to reset: %d %v", sig, f)
	}
	if g := c.regs(1); g.PC != uint64(start) {
		t.Errorf("at reset: PC %04x", g.PC)
	}
	if m := c.mem(line, 2); m != "0000" {
		t.Errorf("line at reset: %q", m)
	}
	// A write watchpoint on count: the INC after the line changes it.
	c.cmd(fmt.Sprintf("z0,%x,1", eol))
	if r := c.cmd(fmt.Sprintf("Z2,%x,1", count)); r != "OK" {
		t.Fatalf("Z2: %q", r)
	}
	sig, f = c.resume("c")
	if sig != sigTrap || f["watch"] != strconv.FormatUint(uint64(count), 16) {
		t.Fatalf("c to the watchpoint: %d %v", sig, f)
	}
	if g := c.regs(1); g.PC != uint64(eol)+3 {
		t.Errorf("at the watchpoint: PC %04x, want after INC %04x", g.PC, eol+3)
	}
	// The writes GDB made are part of the run's history: 7 written at
	// eol (not a change the watchpoint sees: the firmware did not make
	// it), INC makes 8; D = 0x1234 written after the INC.
	if m := c.mem(count, 1); m != "08" {
		t.Errorf("count at the watchpoint: %q, want 08", m)
	}
	if g := c.regs(1); g.D != 0x1234 {
		t.Errorf("D at the watchpoint: %04x, want the 0x1234 written there", g.D)
	}
	c.close()
}

// TestLiveInterrupt: GDB's interrupt (0x03) stops a run that would go on
// forever — irq_counter.s, whose main loop sleeps in WAI and whose TOC1
// handler counts ticks, with no --steps bound — with SIGINT; the run then
// goes on as before: at toc1_isr twice in a row, ticks (32 bits,
// big-endian) has grown by one (LDD ticks+2; ADDD #1; STD ticks+2, the
// carry into the high word when the low word wraps).
func TestLiveInterrupt(t *testing.T) {
	c := dialLive(t, "models/irq_counter.elf", "", false, "toc1")
	ticks, isr := c.sym("ticks"), c.sym("toc1_isr")
	c.send("c")
	if _, err := c.w.Write([]byte{0x03}); err != nil {
		t.Fatal(err)
	}
	sig, f := c.stopReply("c, then 0x03")
	if sig != sigInt || f["thread"] != "1" {
		t.Fatalf("interrupted: signal %d %v, want SIGINT (2)", sig, f)
	}
	c.cmd(fmt.Sprintf("Z0,%x,1", isr))
	tick := func() uint64 {
		t.Helper()
		sig, _ := c.resume("c")
		if g := c.regs(1); sig != sigTrap || g.PC != uint64(isr) {
			t.Fatalf("c: signal %d at %04x, want SIGTRAP at toc1_isr %04x", sig, g.PC, isr)
		}
		v, err := strconv.ParseUint(c.mem(ticks, 4), 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	n := tick()
	if n2 := tick(); n2 != n+1 {
		t.Errorf("ticks at toc1_isr: %d, then %d; want one more", n, n2)
	}
	// Three steps run LDD, ADDD, STD: D and the low word are one more.
	for range 3 {
		c.resume("s")
	}
	if g := c.regs(1); g.D != (n+2)&0xFFFF {
		t.Errorf("after LDD ticks+2, ADDD #1: D %04x, want %04x", g.D, (n+2)&0xFFFF)
	}
	if v, _ := strconv.ParseUint(c.mem(ticks+2, 2), 16, 16); v != (n+2)&0xFFFF {
		t.Errorf("after STD ticks+2: %04x", v)
	}
	c.close()
}

// TestLiveViolation: a violation the run would report stops GDB with a
// signal and the run's description, and the run stays there (a resume
// gets the same stop), back to before it in reverse.
//
// rom_write.s: thread 0 calls set_gain(2, 33), whose STAA 0,X stores A =
// 33 at gain+2, in .rodata: a rom-write, SIGSEGV (11). illegal.s executes
// an undefined opcode: SIGILL (4).
func TestLiveViolation(t *testing.T) {
	c := dialLive(t, "models/rom_write.elf", "", false)
	gain, setGain := c.sym("gain"), c.sym("set_gain")
	sig, f := c.resume("c")
	if sig != sigSEGV {
		t.Fatalf("c: signal %d %v, want SIGSEGV (11)", sig, f)
	}
	if len(c.out) != 1 || !strings.Contains(c.out[0], "rom-write") {
		t.Errorf("console: %q, want the rom-write", c.out)
	}
	// TSX; LDAA 2,X; LDX #gain; ABX; STAA 0,X: X = gain+2, A = 33.
	g := c.regs(1)
	if g.X != uint64(gain)+2 || g.A != 33 {
		t.Errorf("at the violation: %+v, want X %04x A 33", g, gain+2)
	}
	if m := c.mem(gain+2, 1); m != "28" {
		t.Errorf("gain[2]: %q, want 40 (0x28) as the image has it", m)
	}
	if sig, _ := c.resume("s"); sig != sigSEGV {
		t.Errorf("s at the end: signal %d, want SIGSEGV again", sig)
	}
	// reverse-stepi: before STAA, the fifth instruction of set_gain
	// (TSX 1 byte, LDAA 2,X 2, LDX # 3, ABX 1).
	c.resume("bs")
	if g := c.regs(1); g.PC != uint64(setGain)+7 {
		t.Errorf("after bs: PC %04x, want STAA at %04x", g.PC, setGain+7)
	}
	c.close()

	c = dialLive(t, "models/illegal.elf", "", false)
	if sig, _ := c.resume("c"); sig != sigILL || len(c.out) != 1 || !strings.Contains(c.out[0], "illegal-opcode") {
		t.Errorf("illegal.elf: signal %d, console %q; want SIGILL (4) and the illegal opcode", sig, c.out)
	}
	c.close()
}

// TestLiveThreads: a run of several threads shows them as GDB's threads;
// a step of one thread ends after that thread's instruction; after the
// last thread has exited, GDB still reads them.
func TestLiveThreads(t *testing.T) {
	c := dialLive(t, "models/mutex_ok.elf", "", false)
	if r := c.cmd("qfThreadInfo"); r != "m1" {
		t.Fatalf("at reset: %q, want thread 1 alone", r)
	}
	// Step until thread 0 has created another thread.
	for i := 0; i < 200 && c.cmd("qfThreadInfo") == "m1"; i++ {
		c.resume("s")
	}
	r := c.cmd("qfThreadInfo")
	if !strings.HasPrefix(r, "m1,2") {
		t.Fatalf("threads: %q, want 1 and 2", r)
	}
	before := c.regs(2)
	if sig, f := c.resume("vCont;s:2"); sig != sigTrap || f["thread"] != "2" {
		t.Fatalf("vCont;s:2: %d %v, want thread 2", sig, f)
	}
	if after := c.regs(2); after.PC == before.PC {
		t.Errorf("thread 2 did not move: PC %04x", after.PC)
	}
	// Both threads call __mc_thread_exit: the run ends there, and GDB
	// still reads the threads as exited.
	sig, _ := c.resume("c")
	if sig != sigTrap || len(c.out) != 1 || !strings.Contains(c.out[0], "every thread has exited") {
		t.Errorf("c: signal %d, %q; want SIGTRAP at the run's end", sig, c.out)
	}
	if r := c.cmd("qThreadExtraInfo,1"); r != fmt.Sprintf("%x", "exited") {
		t.Errorf("qThreadExtraInfo,1 at the end: %q, want \"exited\" in hex", r)
	}
	c.close()
}

// TestLiveReadWatch: read and access watchpoints on collect.s with the
// input "AB\r". Nothing reads line (STAA 0,Y only writes it): a read
// watchpoint on line[0] lets the run go to its end. An access
// watchpoint there stops after the first STAA 0,Y — wait: BRCLR (4
// bytes), LDAA SCDR,X (2), CMPA # (2), BEQ (2), STAA 0,Y (3, page 0x18)
// — at wait+13 with A = 'A' stored. INC count reads count (a
// read-modify-write): a read watchpoint there stops after it, count 1,
// and going back from there stops before it.
func TestLiveReadWatch(t *testing.T) {
	c := dialLive(t, "firmware/collect.elf", "AB\r", true)
	line, count, eol, wait := c.sym("line"), c.sym("count"), c.sym("eol"), c.sym("wait")
	if r := c.cmd(fmt.Sprintf("Z3,%x,1", line)); r != "OK" {
		t.Fatalf("Z3: %q", r)
	}
	sig, f := c.resume("c")
	if sig != sigTrap || f["rwatch"] != "" || len(c.out) != 1 || !strings.Contains(c.out[0], "the run ended") {
		t.Fatalf("c with a read watchpoint on line: %d %v %q, want the run's end", sig, f, c.out)
	}
	if _, f := c.resume("bc"); f["replaylog"] != "begin" {
		t.Fatalf("bc: %v, want the start", f)
	}
	c.cmd(fmt.Sprintf("z3,%x,1", line))
	c.cmd(fmt.Sprintf("Z4,%x,1", line))
	sig, f = c.resume("c")
	if want := strconv.FormatUint(uint64(line), 16); sig != sigTrap || f["awatch"] != want {
		t.Fatalf("c with an access watchpoint on line: %d %v, want awatch:%s", sig, f, want)
	}
	if g := c.regs(1); g.PC != uint64(wait)+13 || g.A != 'A' {
		t.Errorf("after STAA 0,Y: PC %04x A %02x, want %04x and 'A'", g.PC, g.A, wait+13)
	}
	if m := c.mem(line, 1); m != "41" {
		t.Errorf("line[0]: %q, want 41", m)
	}
	c.cmd(fmt.Sprintf("z4,%x,1", line))
	c.cmd(fmt.Sprintf("Z3,%x,1", count))
	sig, f = c.resume("c")
	if want := strconv.FormatUint(uint64(count), 16); sig != sigTrap || f["rwatch"] != want {
		t.Fatalf("c with a read watchpoint on count: %d %v, want rwatch:%s", sig, f, want)
	}
	if g := c.regs(1); g.PC != uint64(eol)+3 || c.mem(count, 1) != "01" {
		t.Errorf("after INC count: PC %04x count %s, want %04x and 01", g.PC, c.mem(count, 1), eol+3)
	}
	if _, f := c.resume("bc"); f["rwatch"] == "" {
		t.Errorf("bc: %v, want the read watchpoint", f)
	}
	if g := c.regs(1); g.PC != uint64(eol) || c.mem(count, 1) != "00" {
		t.Errorf("back before INC count: PC %04x count %s, want %04x and 00", g.PC, c.mem(count, 1), eol)
	}
	c.close()
}

// TestLiveSeedBack: under a random schedule (run --seed), going back to
// reset and stepping forward again makes the same moves: the run is
// executed again with the same choices. Two threads of mutex_ok.s: the
// PC of each after each of 80 steps of thread 1, twice.
func TestLiveSeedBack(t *testing.T) {
	c := dialLiveSeed(t, "models/mutex_ok.elf", "", false, 5)
	steps := func() string {
		var b strings.Builder
		for range 80 {
			_, f := c.resume("s")
			fmt.Fprintf(&b, "%s@%s", f["thread"], f["04"])
			if strings.Contains(c.cmd("qfThreadInfo"), ",2") {
				fmt.Fprintf(&b, ",2@%04x", c.regs(2).PC)
				c.cmd("Hg1")
			}
			b.WriteByte(' ')
		}
		return b.String()
	}
	first := steps()
	if !strings.Contains(first, ",2@") {
		t.Fatalf("one thread only: %s", first)
	}
	if _, f := c.resume("bc"); f["replaylog"] != "begin" {
		t.Fatalf("bc: %v", f)
	}
	c.cmd("Hg1")
	if again := steps(); again != first {
		t.Errorf("after going back to reset, the steps differ:\n%s\n%s", first, again)
	}
	c.close()
}
