package gdbremote

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hc11mc/hc11mc/sim"
)

// Register numbers and sizes of GDB's 68HC11 target (gdb/m68hc11-tdep.c):
// the raw registers x, d, y, sp, pc (2 bytes each), a, b, ccr and page
// (1 byte each), big-endian, in that order in the g packet. The soft
// registers (frame, tmp, d1...) are GDB's pseudo registers, read as
// memory at their symbols' addresses: the m packet serves them. The
// 68HC11 has no page register; it reads as 0.
const (
	regX = iota
	regD
	regY
	regSP
	regPC
	regA
	regB
	regCCR
	regPage
	numRegs
)

// regSize is the size in bytes of each raw register.
var regSize = [numRegs]int{2, 2, 2, 2, 2, 1, 1, 1, 1}

// maxPacket is the packet size announced in qSupported (the data of the
// longest packet GDB may send, in bytes).
const maxPacket = 0x1000

// Server serves one History to GDB. It holds the position GDB is at, the
// breakpoints it set and the threads it selected. Threads are GDB's
// threads 1, 2, ...: hc11mc's thread 0 is GDB's thread 1.
type Server struct {
	h       *History
	pos     int
	bps     map[uint16]bool
	watches []watch // write watchpoints (Z2)
	// gThread and cThread are the threads Hg and Hc selected, as sim
	// thread indexes; -1 for any (0 or -1 in the packet).
	gThread, cThread int
	// stopThread is the thread the last stop reply named.
	stopThread int
	swbreak    bool // GDB takes swbreak in stop replies
	c          *conn
}

// NewServer returns a server at the start of h (position 0).
func NewServer(h *History) *Server {
	return &Server{h: h, bps: map[uint16]bool{}, gThread: -1, cThread: -1, stopThread: h.firstThread()}
}

// Position is where in the history the server is.
func (s *Server) Position() int { return s.pos }

// firstThread is the thread the history starts with.
func (h *History) firstThread() int {
	for i := 0; i < len(h.moves); i++ {
		if t := h.Mover(i); t >= 0 {
			return t
		}
	}
	return 0
}

// watch is a write watchpoint: n bytes from addr.
type watch struct {
	addr uint16
	n    int
}

// errClosed ends a session: GDB detached or killed the target.
var errClosed = errors.New("closed")

// Serve talks to GDB on rw until GDB detaches (D), kills the target (k)
// or closes the connection; it returns nil then, or the error that ended
// the session.
func (s *Server) Serve(rw io.ReadWriter) error {
	s.c = &conn{r: bufio.NewReader(rw), w: rw}
	for {
		p, err := s.c.readPacket()
		if errors.Is(err, errInterrupt) {
			continue // nothing runs between packets: every resume has already stopped
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := s.handle(string(p)); err != nil {
			if errors.Is(err, errClosed) {
				return nil
			}
			return err
		}
	}
}

// handle answers one packet.
func (s *Server) handle(p string) error {
	reply := func(r string) error { return s.c.writePacket(r) }
	if p == "" {
		return reply("")
	}
	switch p[0] {
	case '?':
		return reply(s.stopReply("", false))
	case 'q':
		return s.query(p)
	case 'Q':
		if p == "QStartNoAckMode" {
			if err := reply("OK"); err != nil {
				return err
			}
			s.c.noAck = true
			return nil
		}
		return reply("")
	case 'H':
		if len(p) < 2 {
			return reply("E01")
		}
		t, ok := s.threadID(p[2:])
		if !ok {
			return reply("E01")
		}
		switch p[1] {
		case 'g':
			s.gThread = t
		case 'c':
			s.cThread = t
		default:
			return reply("")
		}
		return reply("OK")
	case 'T':
		t, ok := s.threadID(p[1:])
		if !ok || t < 0 || !s.alive(t) {
			return reply("E01")
		}
		return reply("OK")
	case 'g':
		return reply(s.registers(s.regThread()))
	case 'G':
		if !strings.EqualFold(p[1:], s.registers(s.regThread())) {
			return reply("E01") // the history is what happened: only the values it has are written
		}
		return reply("OK")
	case 'p':
		n, err := strconv.ParseUint(p[1:], 16, 16)
		if err != nil || n >= numRegs {
			return reply("E01")
		}
		return reply(s.register(s.regThread(), int(n)))
	case 'P':
		num, val, ok := strings.Cut(p[1:], "=")
		n, err := strconv.ParseUint(num, 16, 16)
		if !ok || err != nil || n >= numRegs || !strings.EqualFold(val, s.register(s.regThread(), int(n))) {
			return reply("E01")
		}
		return reply("OK")
	case 'm':
		a, n, ok := addrLen(p[1:])
		if !ok {
			return reply("E01")
		}
		return reply(s.memory(a, min(n, maxPacket/2)))
	case 'M':
		head, data, ok := strings.Cut(p[1:], ":")
		a, n, ok2 := addrLen(head)
		if !ok || !ok2 || len(data) != 2*n || !strings.EqualFold(data, s.memory(a, n)) {
			return reply("E01")
		}
		return reply("OK")
	case 'Z', 'z':
		return s.breakpoint(p)
	case 's', 'S':
		return s.resume(s.cThread, true, false)
	case 'c', 'C':
		return s.resume(s.cThread, false, false)
	case 'b':
		switch p {
		case "bs":
			return s.resume(s.cThread, true, true)
		case "bc":
			return s.resume(s.cThread, false, true)
		}
		return reply("")
	case 'v':
		return s.vPacket(p)
	case 'k':
		return errClosed
	case 'D':
		if err := reply("OK"); err != nil {
			return err
		}
		return errClosed
	}
	return reply("")
}

// query answers the q packets.
func (s *Server) query(p string) error {
	reply := func(r string) error { return s.c.writePacket(r) }
	name, args, _ := strings.Cut(p, ":")
	switch {
	case name == "qSupported":
		for _, f := range strings.Split(args, ";") {
			if f == "swbreak+" {
				s.swbreak = true
			}
		}
		return reply(fmt.Sprintf("PacketSize=%x;QStartNoAckMode+;ReverseStep+;ReverseContinue+;swbreak+", maxPacket))
	case p == "qAttached":
		return reply("1")
	case p == "qC":
		return reply(fmt.Sprintf("QC%x", s.stopThread+1))
	case p == "qfThreadInfo":
		var ids []string
		for t := range s.h.states[s.pos].Threads {
			if s.alive(t) {
				ids = append(ids, strconv.FormatInt(int64(t+1), 16))
			}
		}
		return reply("m" + strings.Join(ids, ","))
	case p == "qsThreadInfo":
		return reply("l")
	case strings.HasPrefix(p, "qThreadExtraInfo,"):
		t, ok := s.threadID(p[len("qThreadExtraInfo,"):])
		if !ok || t < 0 || !s.alive(t) {
			return reply("E01")
		}
		return reply(hex.EncodeToString([]byte(s.threadInfo(t))))
	case p == "qSymbol::":
		return reply("OK")
	case strings.HasPrefix(p, "qRcmd,"):
		return s.monitor(p[len("qRcmd,"):])
	}
	return reply("")
}

// vPacket answers the v packets: vCont and vKill; the others are not
// supported (an empty reply).
func (s *Server) vPacket(p string) error {
	reply := func(r string) error { return s.c.writePacket(r) }
	switch {
	case p == "vCont?":
		return reply("vCont;c;C;s;S")
	case strings.HasPrefix(p, "vCont;"):
		// The first action that steps decides: step that thread, the
		// others running meanwhile as they did; without one, continue.
		for _, a := range strings.Split(p[len("vCont;"):], ";") {
			act, thread, hasThread := strings.Cut(a, ":")
			if act == "" || (act[0] != 's' && act[0] != 'S') {
				continue
			}
			t := -1
			if hasThread {
				id, ok := s.threadID(thread)
				if !ok {
					return reply("E01")
				}
				t = id
			}
			return s.resume(t, true, false)
		}
		return s.resume(-1, false, false)
	case strings.HasPrefix(p, "vKill"):
		if err := reply("OK"); err != nil {
			return err
		}
		return errClosed
	}
	return reply("")
}

// monitor answers GDB's monitor command (qRcmd): it prints where in the
// history GDB is.
func (s *Server) monitor(hexCmd string) error {
	b, err := hex.DecodeString(hexCmd)
	if err != nil {
		return s.c.writePacket("E01")
	}
	var out string
	switch strings.TrimSpace(string(b)) {
	case "where", "":
		out = s.h.Describe(s.pos) + "\n"
	default:
		out = "monitor commands: where (the position in the counterexample)\n"
	}
	if err := s.c.writePacket("O" + hex.EncodeToString([]byte(out))); err != nil {
		return err
	}
	return s.c.writePacket("OK")
}

// breakpoint sets (Z0, Z1) or clears (z0, z1) a breakpoint, and sets
// (Z2) or clears (z2) a write watchpoint; read and access watchpoints
// (Z3, Z4) are not supported: the history has the values, not every read.
func (s *Server) breakpoint(p string) error {
	f := strings.Split(p[1:], ",")
	if len(f) < 3 || (f[0] != "0" && f[0] != "1" && f[0] != "2") {
		return s.c.writePacket("")
	}
	a, err1 := strconv.ParseUint(f[1], 16, 16)
	n, err2 := strconv.ParseUint(f[2], 16, 16)
	if err1 != nil || err2 != nil {
		return s.c.writePacket("E01")
	}
	set := p[0] == 'Z'
	switch {
	case f[0] == "2" && set:
		s.watches = append(s.watches, watch{uint16(a), int(n)})
	case f[0] == "2":
		for i, w := range s.watches {
			if w == (watch{uint16(a), int(n)}) {
				s.watches = append(s.watches[:i], s.watches[i+1:]...)
				break
			}
		}
	case set:
		s.bps[uint16(a)] = true
	default:
		delete(s.bps, uint16(a))
	}
	return s.c.writePacket("OK")
}

// written reports the first write watchpoint whose bytes move i changes.
func (s *Server) written(i int) (watch, bool) {
	before, after := s.h.states[i], s.h.states[i+1]
	for _, w := range s.watches {
		for k := 0; k < w.n; k++ {
			a := w.addr + uint16(k)
			if s.h.m.ReadMem(before, a) != s.h.m.ReadMem(after, a) {
				return w, true
			}
		}
	}
	return watch{}, false
}

// resume moves along the history, forward or back, and sends the stop
// reply. A step of thread t (t < 0: the thread g reads) ends after t's
// next instruction (backward: before t's previous one), the other
// threads moving meanwhile as the history has them; a continue ends at a
// breakpoint. Either ends where a thread is about to execute an
// instruction at a breakpoint (the position resumed from aside), after a
// move that changes a watched byte (backward: before it), and at the
// ends of the history.
func (s *Server) resume(t int, step, back bool) error {
	h := s.h
	if t < 0 || !s.alive(t) {
		// Any thread: the one GDB reads the registers of, as it steps
		// the thread it shows.
		t = s.regThread()
	}
	steps := func(i int) bool { return step && h.Mover(i) == t }
	hit := func(i int) bool {
		a, ok := h.fetches(i)
		return ok && s.bps[a]
	}
	if !back {
		for i := s.pos; i < h.Len(); i++ {
			if i > s.pos && hit(i) {
				s.pos, s.stopThread = i, h.Mover(i)
				return s.c.writePacket(s.stopReply("", true))
			}
			if w, ok := s.written(i); ok {
				s.pos, s.stopThread = i+1, moverOr(h.Mover(i), t)
				return s.c.writePacket(s.stopReply(fmt.Sprintf("watch:%x;", w.addr), false))
			}
			if steps(i) {
				s.pos, s.stopThread = i+1, h.Mover(i)
				return s.c.writePacket(s.stopReply("", false))
			}
		}
		s.pos = h.Len()
		if v := h.violation; v != nil && v.Thread >= 0 && v.Thread < len(h.states[s.pos].Threads) {
			s.stopThread = v.Thread
		} else {
			s.stopThread = t
		}
		if v := h.violation; v != nil {
			msg := fmt.Sprintf("hc11mc: the end of the counterexample: %v\n", v)
			if err := s.c.writePacket("O" + hex.EncodeToString([]byte(msg))); err != nil {
				return err
			}
		}
		return s.c.writePacket(s.stopReply("replaylog:end;", false))
	}
	for i := s.pos - 1; i >= 0; i-- {
		if w, ok := s.written(i); ok {
			s.pos, s.stopThread = i, moverOr(h.Mover(i), t)
			return s.c.writePacket(s.stopReply(fmt.Sprintf("watch:%x;", w.addr), false))
		}
		if steps(i) {
			s.pos, s.stopThread = i, h.Mover(i)
			return s.c.writePacket(s.stopReply("", false))
		}
		if hit(i) {
			s.pos, s.stopThread = i, h.Mover(i)
			return s.c.writePacket(s.stopReply("", true))
		}
	}
	s.pos = 0
	s.stopThread = t
	return s.c.writePacket(s.stopReply("replaylog:begin;", false))
}

// moverOr is mover, or t where no thread moves (an environment event).
func moverOr(mover, t int) int {
	if mover < 0 {
		return t
	}
	return mover
}

// stopReply is the T packet for the current position: signal 5 (SIGTRAP,
// as GDB numbers signals), the thread that stopped, its PC, and extra.
func (s *Server) stopReply(extra string, bp bool) string {
	r := "T05" + extra
	if bp && s.swbreak {
		r += "swbreak:;"
	}
	t := s.stopThread
	if !s.alive(t) {
		t = 0
	}
	return r + fmt.Sprintf("%02x:%s;thread:%x;", regPC, s.register(t, regPC), t+1)
}

// alive reports whether thread t exists and has not exited at the
// current position.
func (s *Server) alive(t int) bool {
	ts := s.h.states[s.pos].Threads
	return t >= 0 && t < len(ts) && ts[t].Status != sim.Exited
}

// threadID reads a thread id of an H or T packet: -1 or 0 for any
// thread (-1 returned), else GDB's thread number (sim index + 1).
func (s *Server) threadID(f string) (int, bool) {
	if f == "-1" || f == "0" {
		return -1, true
	}
	n, err := strconv.ParseUint(f, 16, 16)
	if err != nil {
		return 0, false
	}
	return int(n) - 1, true
}

// regThread is the thread whose registers g and p read: the one Hg
// selected, else the one that stopped.
func (s *Server) regThread() int {
	if s.gThread >= 0 && s.alive(s.gThread) {
		return s.gThread
	}
	if s.alive(s.stopThread) {
		return s.stopThread
	}
	return 0
}

// register is raw register n of thread t at the current position, in
// hex, big-endian.
func (s *Server) register(t, n int) string {
	th := &s.h.states[s.pos].Threads[t]
	var v uint16
	switch n {
	case regX:
		v = th.X
	case regD:
		v = th.D()
	case regY:
		v = th.Y
	case regSP:
		v = th.SP
	case regPC:
		v = th.PC
	case regA:
		v = uint16(th.A)
	case regB:
		v = uint16(th.B)
	case regCCR:
		v = uint16(th.CCR)
	}
	return fmt.Sprintf("%0*x", 2*regSize[n], v)
}

// registers is the g packet's reply for thread t.
func (s *Server) registers(t int) string {
	var b strings.Builder
	for n := 0; n < numRegs; n++ {
		b.WriteString(s.register(t, n))
	}
	return b.String()
}

// memory is n bytes from address a at the current position, in hex;
// addresses wrap at 0x10000 as the 68HC11's do.
func (s *Server) memory(a uint16, n int) string {
	st := s.h.states[s.pos]
	buf := make([]byte, n)
	for i := range buf {
		buf[i] = s.h.m.ReadMem(st, a+uint16(i))
	}
	return hex.EncodeToString(buf)
}

// threadInfo describes thread t for GDB's info threads.
func (s *Server) threadInfo(t int) string {
	switch s.h.states[s.pos].Threads[t].Status {
	case sim.Waiting:
		return "in WAI"
	case sim.Stopped:
		return "in STOP"
	}
	return "running"
}

// addrLen reads ADDR,LENGTH in hex.
func addrLen(f string) (uint16, int, bool) {
	as, ls, ok := strings.Cut(f, ",")
	a, err1 := strconv.ParseUint(as, 16, 16)
	n, err2 := strconv.ParseUint(ls, 16, 32)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uint16(a), int(n), true
}
