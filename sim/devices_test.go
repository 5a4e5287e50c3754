package sim

import (
	"testing"

	"github.com/hc11mc/hc11mc/devices"
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// deviceMachine is testMachine with the E9's peripherals.
func deviceMachine(t testing.TB, code []byte, extra map[uint16][]byte, o devices.Options, cfg Config) *Machine {
	t.Helper()
	p, err := loader.FindChip("e9")
	if err != nil {
		t.Fatal(err)
	}
	chip, err := devices.New(p, o)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Device = chip
	return testMachine(t, code, extra, nil, cfg)
}

// TestINITRelocation: a write of INIT in the first 64 cycles moves the
// register block (and RAM) to the 4 KiB boundaries it names; a later one
// is ignored.
func TestINITRelocation(t *testing.T) {
	code := b(0x86, 0x00, 0xB7, 0x10, 0x3D, // ldaa #0; staa INIT: registers and RAM at 0x0000
		0xB6, 0x00, 0x2E, // ldaa 0x002E: SCSR
		0xF6, 0x00, 0x40, // ldab 0x0040: RAM under the registers' end
		0xB6, 0x10, 0x2E) // ldaa 0x102E: nothing there now
	m := deviceMachine(t, code, nil, devices.Options{}, Config{})
	s := m.Initial()
	res := m.Run(s, RunOptions{Steps: 4})
	if res.Violation != nil || s.Threads[0].A != 0xC0 {
		t.Fatalf("SCSR at 0x002E after INIT = 0: A = %02x, %v", s.Threads[0].A, res.Violation)
	}
	if regs, at, ok := m.DeviceRegisters(s); !ok || at != 0x0000 || regs[0x3D] != 0x00 {
		t.Errorf("registers at 0x%04X, INIT %02x", at, regs[0x3D])
	}
	res = m.Run(s, RunOptions{Steps: 1})
	if res.Violation == nil || res.Violation.Kind != KindUnmapped {
		t.Errorf("0x102E after the move: %+v, want unmapped", res.Violation)
	}

	late := b()
	for range 40 {
		late = append(late, 0x01) // nop: 2 cycles each
	}
	late = append(late, 0x86, 0x00, 0xB7, 0x10, 0x3D, 0xB6, 0x10, 0x2E)
	m = deviceMachine(t, late, nil, devices.Options{}, Config{})
	s = m.Initial()
	res = m.Run(s, RunOptions{Steps: 43})
	if res.Violation != nil || s.Threads[0].A != 0xC0 {
		t.Errorf("INIT written after 80 cycles: A = %02x, %v; want the registers still at 0x1000", s.Threads[0].A, res.Violation)
	}
}

// sciProgram enables the SCI's receiver and its interrupt, clears I and
// spins; the handler reads SCSR and SCDR and returns.
func sciProgram(t *testing.T, cli bool) *Machine {
	code := b(0x8E, 0x01, 0xFF, // lds #0x1FF
		0x86, 0x2C, 0xB7, 0x10, 0x2D) // ldaa #RIE|TE|RE; staa SCCR2
	if cli {
		code = append(code, 0x0E) // cli
	}
	code = append(code, 0x20, 0xFE) // bra *
	extra := map[uint16][]byte{
		0xD100: b(0xB6, 0x10, 0x2E, 0xB6, 0x10, 0x2F, 0x3B), // ldaa SCSR; ldaa SCDR; rti
		0xFFD6: b(0xD1, 0x00),
	}
	return deviceMachine(t, code, extra, devices.Options{SCIInput: []byte("xy")}, Config{})
}

// runTo runs thread 0 until its PC is pc.
func runTo(t *testing.T, m *Machine, s *State, pc uint16) {
	t.Helper()
	for i := 0; s.Threads[0].PC != pc; i++ {
		if i > 100 {
			t.Fatalf("PC %04x never reached", pc)
		}
		ns, v, ok := m.Replay(s, Label{Thread: 0, IRQ: -1, Steps: 1})
		if !ok || v != nil {
			t.Fatalf("step at %04x: %v %v", s.Threads[0].PC, ok, v)
		}
		*s = *ns
	}
}

// TestDeviceTransitions: a received byte is an event of its own; with I
// clear the SCI interrupt is then the thread's only move; with I set the
// thread goes on and the byte waits. Events replay, and their labels
// encode and decode.
func TestDeviceTransitions(t *testing.T) {
	m := sciProgram(t, true)
	s := m.Initial()
	runTo(t, m, s, 0xD009) // the spin
	// The instruction after CLI runs before any interrupt is taken (the
	// manual's delay in clearing I): one turn of the spin.
	if ns, _, ok := m.Replay(s, Label{Thread: 0, IRQ: -1, Steps: 1}); ok {
		*s = *ns
	}
	succ, dl := m.Successors(s, nil, nil)
	if dl != nil || len(succ) != 3 {
		t.Fatalf("at the spin: %d successors (%v), want the thread and two bytes", len(succ), dl)
	}
	var rx *State
	for _, x := range succ {
		if x.Label.Event == 2 {
			rx = x.State
			if e := m.EventInfo(s, 1); e.Kind != devices.EvReceive || e.Byte != 'y' {
				t.Errorf("event 2: %+v", e)
			}
		}
	}
	if rx == nil {
		t.Fatal("no event 2")
	}
	ns, v, ok := m.Replay(s, Label{IRQ: -1, Event: 2})
	if !ok || v != nil || !ns.Equal(rx) {
		t.Errorf("replay of event 2: %v %v, equal %v", ok, v, ok && ns.Equal(rx))
	}
	if _, _, ok := m.Replay(s, Label{IRQ: -1, Event: 4}); ok {
		t.Errorf("event 4 of 2 replayed")
	}
	succ, _ = m.Successors(rx, nil, nil)
	irq := 0
	for _, x := range succ {
		switch {
		case x.Label.IRQ == isa.VecSCI:
			irq++
			if x.State.Threads[0].PC != 0xD100 {
				t.Errorf("SCI interrupt lands at %04x", x.State.Threads[0].PC)
			}
		case x.Label.Event == 0:
			t.Errorf("thread ran with the SCI interrupt pending and I clear: %+v", x.Label)
		}
	}
	if irq != 1 {
		t.Errorf("%d SCI interrupts among %d successors", irq, len(succ))
	}
	if _, _, ok := m.Replay(rx, Label{Thread: 0, IRQ: -1, Steps: 1}); ok {
		t.Errorf("an instruction replayed while the interrupt was pending")
	}
	// Distinct bytes received: distinct states, distinct keys.
	var rx2 *State
	for _, x := range func() []Successor { r, _ := m.Successors(s, nil, nil); return r }() {
		if x.Label.Event == 1 {
			rx2 = x.State
		}
	}
	in := newMapInterner()
	if rx2.Equal(rx) || rx2.Hash() == rx.Hash() || string(rx2.AppendKey(nil, in)) == string(rx.AppendKey(nil, in)) {
		t.Errorf("states with different received bytes compare equal")
	}
	var u State
	if err := u.Unpack(rx.AppendPacked(nil, in), len(rx.Pages), in); err != nil || !u.Equal(rx) {
		t.Errorf("packed device state: %v", err)
	}
	for _, l := range []Label{{IRQ: -1, Event: 1}, {IRQ: -1, Event: 300}} {
		got, n := ReadLabel(AppendLabel(nil, l))
		if n == 0 || got != l {
			t.Errorf("label %+v encodes and decodes to %+v", l, got)
		}
	}

	// With I set, the byte waits and the thread goes on.
	m = sciProgram(t, false)
	s = m.Initial()
	runTo(t, m, s, 0xD008)
	ns, _, _ = m.Replay(s, Label{IRQ: -1, Event: 1})
	succ, _ = m.Successors(ns, nil, nil)
	for _, x := range succ {
		if x.Label.IRQ >= 0 {
			t.Errorf("interrupt taken with I set")
		}
	}
	if len(succ) != 2 { // the thread, an overrun
		t.Errorf("RDRF set, I set: %d successors", len(succ))
	}
}

// TestDeviceAmple: partial-order reduction offers a register-only
// instruction alone only when an event cannot make an interrupt its
// thread must take (I set), and not while the device counts cycles.
func TestDeviceAmple(t *testing.T) {
	for _, cli := range []bool{false, true} {
		m := sciProgram(t, cli)
		s := m.Initial()
		spin := uint16(0xD008)
		if cli {
			spin++
		}
		runTo(t, m, s, spin)
		e := m.NewExpander()
		offered := func() bool { return e.AmpleCandidates(s, nil, func(*State, Label) bool { return true }) }
		if offered() {
			t.Errorf("cli %v: offered in the first 64 cycles", cli)
		}
		for range 30 {
			ns, _, _ := m.Replay(s, Label{Thread: 0, IRQ: -1, Steps: 1})
			s = ns
		}
		if got := offered(); got != !cli {
			t.Errorf("cli %v: BRA offered alone: %v", cli, got)
		}
	}
}

// TestBoardDevice: reads of --device ranges choose among their values,
// writes are outputs and change nothing.
func TestBoardDevice(t *testing.T) {
	code := b(0xB6, 0x40, 0x00, 0xB7, 0x40, 0x01) // ldaa 0x4000; staa 0x4001
	m := testMachine(t, code, nil, nil, Config{Board: []BoardRange{{Lo: 0x4000, Hi: 0x4000, Values: []uint8{7, 9}}, {Lo: 0x4001, Hi: 0x4001}}})
	s := m.Initial()
	succ, _ := m.Successors(s, nil, nil)
	if len(succ) != 2 || succ[1].State.Threads[0].A != 9 {
		t.Fatalf("read of the board: %d successors", len(succ))
	}
	var out []Output
	ns, v, ok := m.ReplayObserved(succ[1].State, Label{Thread: 0, IRQ: -1, Steps: 1}, &out)
	if !ok || v != nil || len(out) != 1 || out[0] != (Output{Kind: OutBoard, Addr: 0x4001, Value: 9}) || !ns.Equal(func() *State { n := succ[1].State.Clone(); n.Threads[0].PC += 3; return n }()) {
		t.Errorf("write to the board: %v %v %+v", ok, v, out)
	}
}

// TestDeviceStepAllocs: an instruction that reads a register allocates
// nothing in steady state.
func TestDeviceStepAllocs(t *testing.T) {
	code := b(0xB6, 0x10, 0x2E, 0x20, 0xFB) // loop: ldaa SCSR; bra loop
	m := deviceMachine(t, code, nil, devices.Options{}, Config{})
	s := m.Initial()
	x := stepper{m: m, s: s, t: &s.Threads[0], tid: 0, radix: 1, lay: m.layoutOf(s)}
	x.step()
	allocs := testing.AllocsPerRun(1000, func() {
		x.radix, x.choice = 1, 0
		if ev := x.step(); ev != evOK {
			t.Fatalf("event %d", ev)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per register read", allocs)
	}
}

// TestWatchdog: with CONFIG's NOCOP clear, a loop that never writes 0x55
// and 0xAA to COPRST is a watchdog violation after 2^15 cycles; one that
// does runs on. With NOCOP set the property is not checked.
func TestWatchdog(t *testing.T) {
	cop := devices.Options{Config: 0x0B, ConfigSet: true}
	m := deviceMachine(t, b(0x20, 0xFE), nil, cop, Config{}) // bra *
	if c, _ := m.Properties(); !containsKind(c, KindWatchdog) {
		t.Errorf("watchdog not checked with the COP on: %v", c)
	}
	res := m.Run(m.Initial(), RunOptions{Steps: 20000})
	if res.Violation == nil || res.Violation.Kind != KindWatchdog || res.Cycles < 1<<15 || res.Cycles > 1<<15+3 {
		t.Errorf("unserviced loop: %+v after %d cycles, want watchdog at 2^15", res.Violation, res.Cycles)
	}
	service := b(0x86, 0x55, 0xB7, 0x10, 0x3A, 0x86, 0xAA, 0xB7, 0x10, 0x3A, 0x20, 0xF4)
	m = deviceMachine(t, service, nil, cop, Config{})
	if res := m.Run(m.Initial(), RunOptions{Steps: 100000}); res.Violation != nil {
		t.Errorf("serviced loop: %v", res.Violation)
	}
	m = deviceMachine(t, b(0x20, 0xFE), nil, devices.Options{}, Config{})
	if c, _ := m.Properties(); containsKind(c, KindWatchdog) {
		t.Errorf("watchdog checked with NOCOP set")
	}
	if res := m.Run(m.Initial(), RunOptions{Steps: 20000}); res.Violation != nil {
		t.Errorf("COP off: %v", res.Violation)
	}
}

func containsKind(ks []Kind, k Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// TestDeadStack: with Config.DeadStack a pulled byte keeps its value in
// the state that executes and only its key is masked; a read of it below
// SP is recorded as a break of the elimination, as is one by an
// instruction fetch and one that uncovers it (SP moved down without a
// write), while a read below the masked bytes is not.
func TestDeadStack(t *testing.T) {
	code := b(0x8E, 0x01, 0xFF, // lds #0x1FF
		0x86, 0x05, 0x36, 0x32, // ldaa #5; psha; pula
		0xF6, 0x01, 0x00, // ldab 0x0100: not a masked byte
		0xF6, 0x01, 0xFF) // ldab 0x01FF: below SP now
	m := deviceMachine(t, code, nil, devices.Options{}, Config{DeadStack: true})
	s := m.Initial()
	m.Run(s, RunOptions{Steps: 4})
	if m.DeadBroken() != nil {
		t.Fatalf("broken before any masked read: %v", m.DeadBroken())
	}
	if got := m.ReadMem(s, 0x01FF); got != 5 {
		t.Errorf("the pulled byte holds %02x in the executing state, want 05 (no write on the reduction's behalf)", got)
	}
	var v KeyView
	ks := m.KeyState(s, &v)
	if ks == s || ks.Pages[0x1FF/PageSize].Data[0x1FF%PageSize] != 0 || s.Pages[0x1FF/PageSize].Data[0x1FF%PageSize] != 5 {
		t.Errorf("the key view does not mask the pulled byte, or the state lost it")
	}
	m.Run(s, RunOptions{Steps: 1})
	if m.DeadBroken() != nil {
		t.Errorf("a read below the masked bytes broke the elimination: %v", m.DeadBroken())
	}
	m.Run(s, RunOptions{Steps: 1})
	if s.Threads[0].B != 5 {
		t.Errorf("B = %02x, want the byte the hardware holds, 05", s.Threads[0].B)
	}
	if d := m.DeadBroken(); d == nil || d.What != "read" || d.Addr != 0x01FF {
		t.Errorf("break %v, want the read of 0x01FF", d)
	}

	// An instruction fetch from a masked byte: code pushed on the stack
	// (a NOP, then BRA to itself), pulled back off, then jumped to.
	code = b(0x8E, 0x01, 0xFF, // lds #0x1FF
		0x86, 0xFE, 0x36, // ldaa #$FE; psha -> 0x1FF
		0x86, 0x20, 0x36, // ldaa #$20 (bra); psha -> 0x1FE
		0x86, 0x01, 0x36, // ldaa #$01 (nop); psha -> 0x1FD
		0x32, 0x32, 0x32, // pula x3: SP back to 0x1FF, the code below it
		0x7E, 0x01, 0xFD) // jmp 0x01FD
	m = deviceMachine(t, code, nil, devices.Options{}, Config{DeadStack: true})
	s = m.Initial()
	m.Run(s, RunOptions{Steps: 12})
	if d := m.DeadBroken(); d == nil || d.What != "fetch" || d.Addr != 0x01FD {
		t.Errorf("break %v, want the fetch of the code below SP", d)
	}

	// Uncovering: des over a pulled byte.
	code = b(0x8E, 0x01, 0xFF, 0x36, 0x32, 0x34) // lds; psha; pula; des
	m = deviceMachine(t, code, nil, devices.Options{}, Config{DeadStack: true})
	s = m.Initial()
	m.Run(s, RunOptions{Steps: 4})
	if d := m.DeadBroken(); d == nil || d.What != "uncover" {
		t.Errorf("break %v, want des uncovering the pulled byte", d)
	}
}

// TestTransmitterDeadline: while the COP counts cycles, a byte leaves the
// shift register within a frame's time: a loop polling TDRE cannot spin
// past it, and the only move then is the transmitter finishing.
func TestTransmitterDeadline(t *testing.T) {
	code := b(0x8E, 0x01, 0xFF, // lds #0x1FF
		0xCE, 0x10, 0x00, // ldx #0x1000
		0x86, 0x30, 0xA7, 0x2B, // BAUD = 0x30: 2080 cycles a frame
		0x86, 0x08, 0xA7, 0x2D, // SCCR2 = TE
		0x86, 0x55, // loop: ldaa #'U'
		0x1F, 0x2E, 0x80, 0xFC, // wait: brclr SCSR,x,#TDRE,wait
		0xA7, 0x2F, // staa SCDR,x
		0x86, 0x55, 0xA7, 0x3A, 0x86, 0xAA, 0xA7, 0x3A, // service the COP
		0x20, 0xEE) // bra loop
	m := deviceMachine(t, code, nil, devices.Options{Config: 0x0B, ConfigSet: true}, Config{})
	s := m.Initial()
	// Send two bytes: the second waits in TDR; then spin on TDRE.
	spins := 0
	for {
		succ, _ := m.Successors(s, nil, nil)
		var next *State
		for _, x := range succ {
			if x.Violation != nil {
				t.Fatalf("violation %v after %d spins", x.Violation, spins)
			}
			if x.Label.Event == 0 {
				next = x.State
			}
		}
		if next == nil {
			// Overdue: only the transmitter may move.
			if len(succ) != 1 || m.EventInfo(s, int(succ[0].Label.Event-1)).Kind != devices.EvTxDone {
				t.Fatalf("overdue with %d successors", len(succ))
			}
			if s.Threads[0].Cycles < 2080 {
				t.Errorf("overdue after %d cycles", s.Threads[0].Cycles)
			}
			return
		}
		if s.Threads[0].PC == 0xD010 {
			spins++
		}
		s = next
		if spins > 2000 {
			t.Fatal("the transmitter never became overdue")
		}
	}
}
