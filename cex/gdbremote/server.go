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

// Signals as GDB numbers them (include/gdb/signals.def).
const (
	sigInt  = 2
	sigILL  = 4
	sigTrap = 5
	sigAbrt = 6
	sigSEGV = 11
	sigAlrm = 14
)

// regSize is the size in bytes of each raw register.
var regSize = [numRegs]int{2, 2, 2, 2, 2, 1, 1, 1, 1}

// maxPacket is the packet size announced in qSupported (the data of the
// longest packet GDB may send, in bytes).
const maxPacket = 0x1000

// Server serves one backend to GDB — a recorded History or a Live run —
// and holds the breakpoints GDB set and the threads it selected. Threads
// are GDB's threads 1, 2, ...: hc11mc's thread 0 is GDB's thread 1.
type Server struct {
	b       backend
	bps     map[uint16]bool
	watches []watch // watchpoints (Z2, Z3, Z4)
	// gThread and cThread are the threads Hg and Hc selected, as sim
	// thread indexes; -1 for any (0 or -1 in the packet).
	gThread, cThread int
	// stopThread is the thread the last stop reply named.
	stopThread int
	swbreak    bool // GDB takes swbreak in stop replies
	c          *conn
}

// backend is what a Server serves: a machine whose state GDB reads at
// the position it stands at, and which moves as GDB asks. A History
// (replay) moves along a recorded counterexample; a Live run executes
// the firmware.
type backend interface {
	machine() *sim.Machine
	state() *sim.State // at the current position
	position() int
	firstThread() int // the thread the stop replies name before any move
	describe() string // the position, for a person (monitor where)
	// resume moves as q asks and says where it stopped.
	resume(q *request) stop
	// setRegister writes raw register n of thread t; false when the
	// backend refuses.
	setRegister(t, n int, v uint16) bool
	// writeMemory writes data at a: nil, or why it refuses (nothing is
	// written then).
	writeMemory(a uint16, data []byte) error
	// reverse reports whether bs and bc are served.
	reverse() bool
	// reads reports whether read and access watchpoints are served.
	reads() bool
}

// request is a resume GDB asks for.
type request struct {
	thread  int  // the thread a step steps
	step    bool // stop after thread's next move
	back    bool // toward the start
	bps     map[uint16]bool
	watches []watch
	// interrupted reports whether GDB sent its interrupt (0x03) since
	// the resume began; a backend that runs long asks it now and then.
	interrupted func() bool
}

// stop is where a resume stopped, for the stop reply.
type stop struct {
	thread int
	signal int    // as GDB numbers signals; 0 for SIGTRAP (5)
	bp     bool   // at a breakpoint
	extra  string // "watch:ADDR;", "replaylog:begin;" …
	msg    string // console output (an O packet) before the reply
}

// NewServer returns a server at the start of h (position 0).
func NewServer(h *History) *Server { return newServer(&replay{h: h}) }

// NewLiveServer returns a server of the run l.
func NewLiveServer(l *Live) *Server { return newServer(l) }

func newServer(b backend) *Server {
	return &Server{b: b, bps: map[uint16]bool{}, gThread: -1, cThread: -1, stopThread: b.firstThread()}
}

// Position is where the server stands: a position of the history, or
// the attempts a live run has made since reset.
func (s *Server) Position() int { return s.b.position() }

// watch is a watchpoint: n bytes from addr, of a kind.
type watch struct {
	addr uint16
	n    int
	kind byte // the Z packet's type: watchWrite, watchRead or watchAccess
}

// The watchpoints' kinds, as the Z packets number them.
const (
	watchWrite  = '2'
	watchRead   = '3'
	watchAccess = '4'
)

// reply is the stop reply's field for a stop at w.
func (w watch) reply() string {
	name := map[byte]string{watchWrite: "watch", watchRead: "rwatch", watchAccess: "awatch"}[w.kind]
	return fmt.Sprintf("%s:%x;", name, w.addr)
}

// covers reports whether the access a touches one of w's bytes.
func (w watch) covers(a sim.Access) bool {
	for k := 0; k < int(a.Size); k++ {
		if uint16(a.Addr+uint16(k)-w.addr) < uint16(w.n) {
			return true
		}
	}
	return false
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
		return reply(s.stopReply(stop{}))
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
		return reply(s.setRegisters(s.regThread(), p[1:]))
	case 'p':
		n, err := strconv.ParseUint(p[1:], 16, 16)
		if err != nil || n >= numRegs {
			return reply("E01")
		}
		return reply(s.register(s.regThread(), int(n)))
	case 'P':
		num, val, ok := strings.Cut(p[1:], "=")
		n, err := strconv.ParseUint(num, 16, 16)
		if !ok || err != nil || n >= numRegs || len(val) != 2*regSize[n] {
			return reply("E01")
		}
		return reply(s.setRegisters(s.regThread(), strings.Repeat("x", regOffset(int(n)))+val+
			strings.Repeat("x", 2*registerBytes-regOffset(int(n))-len(val))))
	case 'm':
		a, n, ok := addrLen(p[1:])
		if !ok {
			return reply("E01")
		}
		return reply(s.memory(a, min(n, maxPacket/2)))
	case 'M':
		head, data, ok := strings.Cut(p[1:], ":")
		a, n, ok2 := addrLen(head)
		b, err := hex.DecodeString(data)
		if !ok || !ok2 || err != nil || len(b) != n {
			return reply("E01")
		}
		if strings.EqualFold(data, s.memory(a, n)) {
			return reply("OK") // what is there already
		}
		if err := s.b.writeMemory(a, b); err != nil {
			return reply("E01") // GDB says it cannot access the memory
		}
		return reply("OK")
	case 'Z', 'z':
		return s.breakpoint(p)
	case 's', 'S':
		return s.resume(s.cThread, true, false)
	case 'c', 'C':
		return s.resume(s.cThread, false, false)
	case 'b':
		if !s.b.reverse() {
			return reply("")
		}
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
		rev := ""
		if s.b.reverse() {
			rev = "ReverseStep+;ReverseContinue+;"
		}
		return reply(fmt.Sprintf("PacketSize=%x;QStartNoAckMode+;%sswbreak+", maxPacket, rev))
	case p == "qAttached":
		return reply("1")
	case p == "qC":
		return reply(fmt.Sprintf("QC%x", s.stopThread+1))
	case p == "qfThreadInfo":
		var ids []string
		for t := range s.b.state().Threads {
			if s.alive(t) {
				ids = append(ids, strconv.FormatInt(int64(t+1), 16))
			}
		}
		return reply("m" + strings.Join(ids, ","))
	case p == "qsThreadInfo":
		return reply("l")
	case strings.HasPrefix(p, "qThreadExtraInfo,"):
		t, ok := s.threadID(p[len("qThreadExtraInfo,"):])
		if !ok || t < 0 || t >= len(s.b.state().Threads) {
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
		out = s.b.describe() + "\n"
	default:
		out = "monitor commands: where (" + whereHelp(s.b) + ")\n"
	}
	if err := s.console(out); err != nil {
		return err
	}
	return s.c.writePacket("OK")
}

// whereHelp says what monitor where shows.
func whereHelp(b backend) string {
	if _, ok := b.(*Live); ok {
		return "the instructions and cycles the run has taken, and what it does next"
	}
	return "the position in the counterexample"
}

// console sends text for GDB's console (an O packet).
func (s *Server) console(text string) error {
	return s.c.writePacket("O" + hex.EncodeToString([]byte(text)))
}

// breakpoint sets (Z0, Z1) or clears (z0, z1) a breakpoint, and sets
// (Z2) or clears (z2) a write watchpoint; read and access watchpoints
// (Z3, Z4) only where the backend sees reads (a live run): a history has
// the values, not every read.
func (s *Server) breakpoint(p string) error {
	f := strings.Split(p[1:], ",")
	if len(f) < 3 || (f[0] != "0" && f[0] != "1" && f[0] != "2" && f[0] != "3" && f[0] != "4") {
		return s.c.writePacket("")
	}
	if (f[0] == "3" || f[0] == "4") && !s.b.reads() {
		return s.c.writePacket("")
	}
	a, err1 := strconv.ParseUint(f[1], 16, 16)
	n, err2 := strconv.ParseUint(f[2], 16, 16)
	if err1 != nil || err2 != nil {
		return s.c.writePacket("E01")
	}
	set := p[0] == 'Z'
	w := watch{uint16(a), int(n), f[0][0]}
	switch {
	case w.kind != '0' && w.kind != '1' && set:
		s.watches = append(s.watches, w)
	case w.kind != '0' && w.kind != '1':
		for i, o := range s.watches {
			if o == w {
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

// resume moves the backend, forward or back, and sends the stop reply.
// A step of thread t (t < 0: the thread g reads) ends after t's next
// move; see the backends for the rest.
func (s *Server) resume(t int, step, back bool) error {
	if t < 0 || !s.alive(t) {
		// Any thread: the one GDB reads the registers of, as it steps
		// the thread it shows.
		t = s.regThread()
	}
	q := &request{thread: t, step: step, back: back, bps: s.bps, watches: s.watches, interrupted: s.c.interrupted}
	st := s.b.resume(q)
	s.stopThread = st.thread
	if st.msg != "" {
		if err := s.console(st.msg); err != nil {
			return err
		}
	}
	return s.c.writePacket(s.stopReply(st))
}

// changed reports the first write watchpoint whose bytes differ between
// before and after, states of m.
func changed(m *sim.Machine, ws []watch, before, after *sim.State) (watch, bool) {
	for _, w := range ws {
		if w.kind != watchWrite {
			continue
		}
		for k := 0; k < w.n; k++ {
			a := w.addr + uint16(k)
			if m.ReadMem(before, a) != m.ReadMem(after, a) {
				return w, true
			}
		}
	}
	return watch{}, false
}

// moverOr is mover, or t where no thread moves (an environment event).
func moverOr(mover, t int) int {
	if mover < 0 {
		return t
	}
	return mover
}

// stopReply is the T packet for the current position: the signal (5,
// SIGTRAP, as GDB numbers signals, unless st says another), the thread
// that stopped, its PC, and st's extra fields.
func (s *Server) stopReply(st stop) string {
	sig := st.signal
	if sig == 0 {
		sig = sigTrap
	}
	r := fmt.Sprintf("T%02x", sig) + st.extra
	if st.bp && s.swbreak {
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
	ts := s.b.state().Threads
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
	th := &s.b.state().Threads[t]
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

// registerBytes is the size of the g packet's registers in bytes.
const registerBytes = 2*5 + 4

// regOffset is where register n's digits begin in the g packet.
func regOffset(n int) int {
	o := 0
	for k := 0; k < n; k++ {
		o += 2 * regSize[k]
	}
	return o
}

// setRegisters writes thread t's registers from a g packet's layout in
// hex, an x digit leaving the register it is in as it is (a P packet
// writes one register so), and returns the reply: OK, or E01 when the
// packet is malformed or the backend refuses a register that changes.
func (s *Server) setRegisters(t int, hexRegs string) string {
	if len(hexRegs) != 2*registerBytes {
		return "E01"
	}
	type change struct {
		n int
		v uint16
	}
	var cs []change
	for n := 0; n < numRegs; n++ {
		f := hexRegs[regOffset(n) : regOffset(n)+2*regSize[n]]
		if strings.Contains(f, "x") {
			if strings.Trim(f, "x") != "" {
				return "E01"
			}
			continue
		}
		v, err := strconv.ParseUint(f, 16, 16)
		if err != nil {
			return "E01"
		}
		if !strings.EqualFold(f, s.register(t, n)) {
			cs = append(cs, change{n, uint16(v)})
		}
	}
	for _, c := range cs {
		if c.n == regPage {
			return "E01" // the 68HC11 has none: it stays 0
		}
	}
	for _, c := range cs {
		if !s.b.setRegister(t, c.n, c.v) {
			return "E01"
		}
	}
	return "OK"
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
	st, m := s.b.state(), s.b.machine()
	buf := make([]byte, n)
	for i := range buf {
		buf[i] = m.ReadMem(st, a+uint16(i))
	}
	return hex.EncodeToString(buf)
}

// threadInfo describes thread t for GDB's info threads.
func (s *Server) threadInfo(t int) string {
	switch s.b.state().Threads[t].Status {
	case sim.Waiting:
		return "in WAI"
	case sim.Stopped:
		return "in STOP"
	case sim.Exited:
		return "exited" // GDB shows the thread that stopped last after every thread has exited
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
