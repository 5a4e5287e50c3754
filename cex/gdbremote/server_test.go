package gdbremote

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// The expected values in these tests come from the traces' own records
// (each step's thread and PC, the violation) and from the M68HC11
// Reference Manual's semantics of the instructions the traces run (their
// sources are testdata/models/tick_torn.s and mutex_bad.s), worked out by
// hand in the comments; never from the server's own output.

// history loads a bundled trace and replays it into a History.
func history(t testing.TB, name string) (*cex.Trace, *History) {
	t.Helper()
	tr, err := cex.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	img, err := loader.Load(tr.Firmware, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pre, err := sim.ParsePreempt(tr.Machine.Preempt)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sim.NewMachine(img, sim.Config{Preempt: pre, IRQs: tr.Machine.IRQ, MaxRun: tr.Machine.MaxRun, Entry: img.Entry})
	if err != nil {
		t.Fatal(err)
	}
	labels, err := tr.Labels()
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHistory(m, labels)
	if err != nil {
		t.Fatal(err)
	}
	return tr, h
}

// client is a plain RSP client, written from GDB's manual apart from the
// server: it frames and checks packets itself.
type client struct {
	t     *testing.T
	r     *bufio.Reader
	w     io.Writer
	noAck bool
	out   []string // the console output (O packets) since the last resume
	done  chan error
}

// dial starts a server on h over an in-memory connection and returns a
// client talking to it.
func dial(t *testing.T, h *History) *client {
	t.Helper()
	a, b := net.Pipe()
	c := &client{t: t, r: bufio.NewReader(a), w: a, done: make(chan error, 1)}
	go func() { c.done <- NewServer(h).Serve(b); b.Close() }()
	t.Cleanup(func() { a.Close() })
	return c
}

func checksum(s string) string {
	var sum int
	for i := 0; i < len(s); i++ {
		sum += int(s[i])
	}
	return fmt.Sprintf("%02x", sum%256)
}

func (c *client) send(p string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, "$"+p+"#"+checksum(p)); err != nil {
		c.t.Fatalf("send %q: %v", p, err)
	}
	if !c.noAck {
		if b, err := c.r.ReadByte(); err != nil || b != '+' {
			c.t.Fatalf("send %q: ack %q, %v", p, b, err)
		}
	}
}

// recv reads one packet, checks its checksum and undoes the escapes.
func (c *client) recv() string {
	c.t.Helper()
	b, err := c.r.ReadByte()
	if err != nil || b != '$' {
		c.t.Fatalf("recv: %q, %v", b, err)
	}
	raw, err := c.r.ReadString('#')
	if err != nil {
		c.t.Fatalf("recv: %v", err)
	}
	raw = raw[:len(raw)-1]
	cs := make([]byte, 2)
	if _, err := io.ReadFull(c.r, cs); err != nil {
		c.t.Fatal(err)
	}
	if string(cs) != checksum(raw) {
		c.t.Fatalf("recv %q: checksum %s, want %s", raw, cs, checksum(raw))
	}
	if !c.noAck {
		io.WriteString(c.w, "+")
	}
	var data []byte
	for i := 0; i < len(raw); i++ {
		if raw[i] == '}' && i+1 < len(raw) {
			i++
			data = append(data, raw[i]^0x20)
			continue
		}
		data = append(data, raw[i])
	}
	return string(data)
}

func (c *client) cmd(p string) string {
	c.t.Helper()
	c.send(p)
	return c.recv()
}

// stop sends a resume packet and returns the fields of the stop reply,
// collecting console output on the way.
func (c *client) stop(p string) map[string]string {
	c.t.Helper()
	c.send(p)
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
		if !strings.HasPrefix(r, "T05") {
			c.t.Fatalf("%s: stop reply %q", p, r)
		}
		f := map[string]string{}
		for _, kv := range strings.Split(strings.TrimSuffix(r[3:], ";"), ";") {
			k, v, _ := strings.Cut(kv, ":")
			f[k] = v
		}
		return f
	}
}

// hexToEscapes turns hex digits into \xNN escapes.
func hexToEscapes(h string) string {
	var b strings.Builder
	for i := 0; i+1 < len(h); i += 2 {
		b.WriteString(`\x` + h[i:i+2])
	}
	return b.String()
}

// regs are the registers of the g reply, decoded by the layout of
// gdb/m68hc11-tdep.c (x d y sp pc: 2 bytes; a b ccr page: 1 byte).
type regs struct{ X, D, Y, SP, PC, A, B, CCR, Page uint64 }

func (c *client) regs(thread int) regs {
	c.t.Helper()
	if r := c.cmd(fmt.Sprintf("Hg%x", thread)); r != "OK" {
		c.t.Fatalf("Hg%x: %q", thread, r)
	}
	g := c.cmd("g")
	if len(g) != 2*14 {
		c.t.Fatalf("g: %q, want 14 bytes", g)
	}
	field := func(off, n int) uint64 {
		v, err := strconv.ParseUint(g[2*off:2*(off+n)], 16, 32)
		if err != nil {
			c.t.Fatal(err)
		}
		return v
	}
	return regs{field(0, 2), field(2, 2), field(4, 2), field(6, 2), field(8, 2), field(10, 1), field(11, 1), field(12, 1), field(13, 1)}
}

func (c *client) close() {
	c.t.Helper()
	c.send("k")
	if err := <-c.done; err != nil {
		c.t.Errorf("Serve: %v", err)
	}
}

// The handshake GDB opens with, and stepping along tick_torn's trace
// one instruction at a time: at the start of each step the thread's PC
// is the one the trace recorded; registers and memory at chosen points
// are what the Reference Manual's instructions leave.
func TestStepTickTorn(t *testing.T) {
	tr, h := history(t, "tick_torn.json")
	c := dial(t, h)
	sup := c.cmd("qSupported:multiprocess+;swbreak+;hwbreak+;vContSupported+")
	for _, f := range []string{"ReverseStep+", "ReverseContinue+", "QStartNoAckMode+", "swbreak+"} {
		if !strings.Contains(";"+sup+";", ";"+f+";") {
			t.Errorf("qSupported: %q lacks %s", sup, f)
		}
	}
	if r := c.cmd("QStartNoAckMode"); r != "OK" {
		t.Fatalf("QStartNoAckMode: %q", r)
	}
	c.noAck = true
	if r := c.cmd("qfThreadInfo"); r != "m1" {
		t.Errorf("qfThreadInfo: %q, want one thread", r)
	}
	if r := c.cmd("qsThreadInfo"); r != "l" {
		t.Errorf("qsThreadInfo: %q", r)
	}
	if r := c.cmd("qC"); r != "QC1" {
		t.Errorf("qC: %q", r)
	}
	if r := c.cmd("?"); !strings.HasPrefix(r, "T05") || !strings.Contains(r, "thread:1;") {
		t.Errorf("?: %q", r)
	}
	// Power-up: the reset vector's entry, CCR with S, X and I set
	// (Reference Manual 5.1: reset sets S, X and I).
	if r := c.regs(1); r.PC != 0xD00D || r.CCR != 0xD0 {
		t.Errorf("at power-up: %+v, want PC=D00D CCR=D0", r)
	}
	// ticks = 0x00FF, budget = 1 as the image's .data has them.
	if m := c.cmd("m0,3"); m != "00ff01" {
		t.Errorf("ticks, budget at power-up: %q", m)
	}
	snaps := []string{c.cmd("g") + c.cmd("m0,60")}
	for k, st := range tr.Steps {
		want, _ := strconv.ParseUint(strings.TrimPrefix(st.PC, "0x"), 16, 16)
		if r := c.regs(st.Thread + 1); r.PC != want {
			t.Fatalf("step %d: PC %04X, the trace recorded %s", k+1, r.PC, st.PC)
		}
		f := c.stop("s")
		if f["thread"] != "1" {
			t.Errorf("step %d: stopped thread %q", k+1, f["thread"])
		}
		pos := k + 1 // every step is one instruction or an interrupt's entry
		r := c.regs(1)
		switch pos {
		case 1: // lds #stack0+47 (stack0 = 0x0005): SP = 0x0034
			if r.SP != 0x34 || r.PC != 0xD010 {
				t.Errorf("after lds: %+v", r)
			}
		case 2: // jsr main: return address 0xD013 pushed low byte first at 0x34
			if m := c.cmd("m33,2"); r.SP != 0x32 || r.PC != 0xD016 || m != "d013" {
				t.Errorf("after jsr main: %+v, stack %q", r, m)
			}
		case 5: // bset set TMSK1 (0 at reset) to 0x80: N; cli clears I
			if r.CCR != 0xC8 {
				t.Errorf("after cli: CCR %02X, want C8", r.CCR)
			}
		case 7: // ldaa ticks: A = 0x00, Z set
			if r.A != 0 || r.CCR != 0xC4 || r.D>>8 != r.A {
				t.Errorf("after ldaa ticks: %+v", r)
			}
		case 8: // ldab ticks+1: B = 0xFF, N set, Z clear
			if r.B != 0xFF || r.CCR != 0xC8 || r.D != 0x00FF {
				t.Errorf("after ldab ticks+1: %+v", r)
			}
		case 10: // std last: last = 0x00FF
			if m := c.cmd("m3,2"); m != "00ff" {
				t.Errorf("last after std: %q", m)
			}
		case 13: // the TOC1 interrupt (Reference Manual 5.4: the stacking
			// order): from SP 0x30 down, PCL PCH IYL IYH IXL IXH A B CCR,
			// with PC = 0xD039, Y = 0, X = 0x1000, A = 0x00, B = 0xFF and
			// CCR = 0xC4 (ldaa 0x00 set Z); then I is set and PC is
			// the vector's handler (0xD03D).
			if m := c.cmd("m28,9"); r.SP != 0x27 || r.PC != 0xD03D || r.CCR != 0xD4 || m != "c4ff00100000"+"00d039" {
				t.Errorf("after the interrupt: %+v, frame %q", r, m)
			}
		case 18: // ldd ticks; addd #1; std ticks: ticks = 0x0100
			if m := c.cmd("m0,2"); r.D != 0x0100 || m != "0100" {
				t.Errorf("after ticks++: %+v, ticks %q", r, m)
			}
		case 22: // rti restores the frame: SP 0x30, PC 0xD039, A 0, B 0xFF, CCR 0xC4
			if r.SP != 0x30 || r.PC != 0xD039 || r.A != 0 || r.B != 0xFF || r.CCR != 0xC4 {
				t.Errorf("after rti: %+v", r)
			}
		case 23: // ldab ticks+1 reads the low byte of 0x0100: the torn reading
			if r.D != 0x0000 {
				t.Errorf("after the torn read: D %04X, want 0000", r.D)
			}
		}
		if len(f) == 0 || f["replaylog"] != "" && pos < len(tr.Steps) {
			t.Errorf("step %d: stop %v", k+1, f)
		}
		snaps = append(snaps, c.cmd("g")+c.cmd("m0,60"))
	}
	// At the end: the harness call at the violation's PC (jsr extended,
	// 3 bytes) has returned; then no history further on.
	if pc, _ := strconv.ParseUint(strings.TrimPrefix(tr.Violation.PC, "0x"), 16, 16); c.regs(1).PC != pc+3 {
		t.Errorf("at the end: PC %04X, the violation at %s", c.regs(1).PC, tr.Violation.PC)
	}
	if f := c.stop("s"); f["replaylog"] != "end" {
		t.Errorf("a step past the end: %v", f)
	}
	// Back to power-up one reverse step at a time: the same registers and
	// memory at every position.
	for pos := len(tr.Steps) - 1; pos >= 0; pos-- {
		f := c.stop("bs")
		if f["replaylog"] != "" {
			t.Fatalf("reverse step to position %d: %v", pos, f)
		}
		if got := c.cmd("g") + c.cmd("m0,60"); got != snaps[pos] {
			t.Fatalf("position %d: backward %s, forward %s", pos, got, snaps[pos])
		}
	}
	if f := c.stop("bs"); f["replaylog"] != "begin" || c.regs(1).PC != 0xD00D {
		t.Errorf("a reverse step before power-up: %v", f)
	}
	c.close()
}

// Breakpoints stop continue and reverse-continue where the thread is
// about to execute the instruction at their address; the console hears
// of the violation at the end.
func TestBreakpointsTickTorn(t *testing.T) {
	tr, h := history(t, "tick_torn.json")
	c := dial(t, h)
	c.cmd("qSupported:swbreak+")
	if r := c.cmd("Z0,d03d,1"); r != "OK" { // toc1_isr
		t.Fatalf("Z0: %q", r)
	}
	f := c.stop("c")
	if f["swbreak"] != "" || f["04"] != "d03d" || c.regs(1).PC != 0xD03D {
		t.Errorf("continue to toc1_isr: %v", f)
	}
	if _, ok := f["swbreak"]; !ok {
		t.Errorf("no swbreak in %v", f)
	}
	f = c.stop("c")
	if f["replaylog"] != "end" || len(c.out) != 1 || !strings.Contains(c.out[0], tr.Violation.Kind) {
		t.Errorf("continue to the end: %v, output %q", f, c.out)
	}
	f = c.stop("bc")
	if f["replaylog"] != "" || c.regs(1).PC != 0xD03D {
		t.Errorf("reverse-continue to toc1_isr: %v", f)
	}
	// Going on backward from the handler's first instruction: the
	// interrupt's entry, at 0xD039 where main was interrupted.
	if f := c.stop("bs"); c.regs(1).PC != 0xD039 || c.regs(1).SP != 0x30 {
		t.Errorf("reverse step out of the handler: %v %+v", f, c.regs(1))
	}
	if r := c.cmd("z0,d03d,1"); r != "OK" {
		t.Fatalf("z0: %q", r)
	}
	if f := c.stop("bc"); f["replaylog"] != "begin" || c.regs(1).PC != 0xD00D {
		t.Errorf("reverse-continue without breakpoints: %v", f)
	}
	// A write of what is there is accepted; any other is refused.
	if r := c.cmd("M0,2:00ff"); r != "OK" {
		t.Errorf("M of the same bytes: %q", r)
	}
	if r := c.cmd("M0,2:1234"); !strings.HasPrefix(r, "E") {
		t.Errorf("M changing the history: %q", r)
	}
	if r := c.cmd("Z3,0,2"); r != "" {
		t.Errorf("a read watchpoint: %q, want unsupported", r)
	}
	// A write watchpoint on ticks: the handler's std (trace step 18)
	// changes it; forward, the stop is after it, at the PC the trace
	// recorded for step 19; backward, before it, at step 18's.
	if r := c.cmd("Z2,0,2"); r != "OK" {
		t.Fatalf("Z2: %q", r)
	}
	f = c.stop("c")
	if r := c.regs(1); f["watch"] != "0" || fmt.Sprintf("0x%04X", r.PC) != tr.Steps[18].PC || c.cmd("m0,2") != "0100" {
		t.Errorf("continue to the write of ticks: %v %+v", f, r)
	}
	if f := c.stop("c"); f["replaylog"] != "end" {
		t.Errorf("continue after the write: %v", f)
	}
	f = c.stop("bc")
	if r := c.regs(1); f["watch"] != "0" || fmt.Sprintf("0x%04X", r.PC) != tr.Steps[17].PC || c.cmd("m0,2") != "00ff" {
		t.Errorf("reverse-continue to the write of ticks: %v %+v", f, r)
	}
	if r := c.cmd("z2,0,2"); r != "OK" {
		t.Fatalf("z2: %q", r)
	}
	if f := c.stop("bc"); f["replaylog"] != "begin" {
		t.Errorf("reverse-continue without the watchpoint: %v", f)
	}
	c.close()
}

// Two threads: a transition of several instructions is stepped one at a
// time; a step of a thread waits for its next instruction, the other
// thread moving meanwhile; a breakpoint in code both threads run stops
// each in turn, and the stop reply names it.
func TestThreadsMutex(t *testing.T) {
	tr, h := history(t, "mutex_calls.json")
	c := dial(t, h)
	c.cmd("qSupported:swbreak+")
	if r := c.cmd("Hc1"); r != "OK" {
		t.Fatal(r)
	}
	// The first transition runs lds #0x20 (3 bytes), ldy #0 (4: page 2),
	// ldx #0x40 (3), ldd #worker (3).
	for _, pc := range []uint64{0xD010, 0xD014, 0xD017, 0xD01A} {
		c.stop("s")
		if r := c.regs(1); r.PC != pc {
			t.Errorf("PC %04X, want %04X", r.PC, pc)
		}
	}
	if r := c.regs(1); r.SP != 0x20 || r.Y != 0 || r.X != 0x40 || r.D != 0xD023 {
		t.Errorf("after the first transition: %+v", r)
	}
	if r := c.cmd("qfThreadInfo"); r != "m1" {
		t.Errorf("threads before the creation: %q", r)
	}
	c.stop("s") // jsr __mc_thread_create
	c.stop("s") // the harness creates thread 1: D = entry, X = its SP, Y = its D
	if r := c.cmd("qfThreadInfo"); r != "m1,2" {
		t.Errorf("threads after the creation: %q", r)
	}
	// docs/firmware.md: the creator gets D = the new thread's id (1); the
	// new thread starts at D's entry with SP = X and D = Y.
	if r := c.regs(1); r.D != 1 {
		t.Errorf("the creator: %+v", r)
	}
	if r := c.regs(2); r.PC != 0xD023 || r.SP != 0x40 || r.D != 0 {
		t.Errorf("the new thread: %+v", r)
	}
	// Thread 0's next instruction comes after thread 1's three
	// transitions (steps 4 to 7 of the trace): a step of GDB's thread 1
	// runs them all.
	if r := c.cmd("Hc1"); r != "OK" {
		t.Fatal(r)
	}
	if f := c.stop("s"); f["thread"] != "1" || c.regs(1).PC != 0xD027 || c.regs(2).PC != 0xD00C {
		t.Errorf("step of thread 1 over thread 2's run: %v %+v %+v", f, c.regs(1), c.regs(2))
	}
	if m := c.cmd("m0,1"); m != "01" { // thread 1's inc shared ran meanwhile
		t.Errorf("shared: %q", m)
	}
	// Backward: thread 1's previous instruction is that jsr update, at
	// 0xD01D (trace step 8).
	if r := c.cmd("Hc1"); r != "OK" {
		t.Fatal(r)
	}
	if f := c.stop("bs"); f["thread"] != "1" || c.regs(1).PC != 0xD01D {
		t.Errorf("reverse step of thread 1: %v %+v", f, c.regs(1))
	}
	// From power-up, a breakpoint at update: thread 1 reaches it first
	// (trace step 5), then thread 0 (step 9).
	if f := c.stop("bc"); f["replaylog"] != "begin" {
		t.Fatalf("reverse-continue to power-up: %v", f)
	}
	c.cmd("Z0,d027,1")
	want := []string{}
	for _, st := range tr.Steps {
		if st.PC == "0xD027" {
			want = append(want, strconv.Itoa(st.Thread+1))
		}
	}
	var got []string
	for range len(tr.Steps) + 1 { // each stop moves on: at most one per step
		f := c.stop("c")
		if f["replaylog"] == "end" {
			break
		}
		got = append(got, f["thread"])
		if f["04"] != "d027" {
			t.Errorf("stop %v not at the breakpoint", f)
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") || len(want) != 2 {
		t.Errorf("breakpoint stops in threads %v, the trace reaches update in %v", got, want)
	}
	// Backward from the end, the same stops in the reverse order.
	var back []string
	for range len(tr.Steps) + 1 {
		f := c.stop("bc")
		if f["replaylog"] == "begin" {
			break
		}
		back = append(back, f["thread"])
	}
	if len(back) != 2 || back[0] != want[1] || back[1] != want[0] {
		t.Errorf("reverse-continue stops in threads %v, want %v reversed", back, want)
	}
	if r := c.cmd("qThreadExtraInfo,1"); r != fmt.Sprintf("%x", "running") {
		t.Errorf("qThreadExtraInfo: %q", r)
	}
	// monitor where: console output, then OK; at power-up, thread 0
	// moves first (trace step 1).
	c.send("qRcmd," + fmt.Sprintf("%x", "where"))
	if o := c.recv(); !strings.HasPrefix(o, "O") || !strings.Contains(o, fmt.Sprintf("%x", "position 0 of")) {
		t.Errorf("monitor where: %q", o)
	}
	if r := c.recv(); r != "OK" {
		t.Errorf("monitor where: %q, want OK", r)
	}
	c.send("D")
	if r := c.recv(); r != "OK" {
		t.Errorf("D: %q", r)
	}
	if err := <-c.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// A packet with a wrong checksum is answered '-'; after a '-' from the
// client the server sends its last packet again.
func TestAcks(t *testing.T) {
	_, h := history(t, "tick_torn.json")
	c := dial(t, h)
	io.WriteString(c.w, "$qC#00")
	if b, _ := c.r.ReadByte(); b != '-' {
		t.Fatalf("a bad checksum: %q, want -", b)
	}
	if r := c.cmd("qC"); r != "QC1" {
		t.Fatalf("qC: %q", r)
	}
	io.WriteString(c.w, "-")
	if r := c.recv(); r != "QC1" {
		t.Errorf("after -: %q", r)
	}
	c.close()
}
