package sim

import (
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/mutation"
)

// echoFirmware is a small terminal program in the manner of a ROM
// monitor: at 9600 baud (BAUD = 0x30: a frame of 10 bits of 16 E cycles
// times the prescaler 13, 2080 E cycles) it prints "ABC", polling the
// receiver once after each byte and dropping what it finds, as BUFFALO's
// OUTSTRG does to catch ^W; then it echoes what it receives, polling
// through a subroutine (JSR getc; TSTA; BEQ) rather than in a loop of
// one instruction.
var echoFirmware = b(
	0x8E, 0x01, 0xFF, // D000 lds #$01FF
	0xCE, 0x10, 0x00, // D003 ldx #$1000
	0x86, 0x30, 0xA7, 0x2B, // D006 BAUD = $30
	0x86, 0x0C, 0xA7, 0x2D, // D00A SCCR2 = TE|RE
	0x86, 'A', 0xBD, 0xD0, 0x40, // D00E ldaa #'A'; jsr putc
	0xBD, 0xD0, 0x50, // D013 jsr getc: once, the byte dropped
	0x86, 'B', 0xBD, 0xD0, 0x40, // D016 ldaa #'B'; jsr putc
	0xBD, 0xD0, 0x50, // D01B jsr getc
	0x86, 'C', 0xBD, 0xD0, 0x40, // D01E ldaa #'C'; jsr putc: waits for TDRE
	0xBD, 0xD0, 0x50, // D023 jsr getc
	0xBD, 0xD0, 0x50, // D026 loop: jsr getc
	0x4D,       // D029 tsta
	0x27, 0xFA, // D02A beq loop
	0xBD, 0xD0, 0x40, // D02C jsr putc
	0x20, 0xF5, // D02F bra loop
)

var echoRoutines = map[uint16][]byte{
	0xD040: b(0x1F, 0x2E, 0x80, 0xFC, // putc: brclr SCSR,x,#TDRE,putc
		0xA7, 0x2F, // staa SCDR,x
		0x39), // rts
	0xD050: b(0x4F, // getc: clra
		0x1F, 0x2E, 0x20, 0x04, // brclr SCSR,x,#RDRF,done
		0xA6, 0x2F, // ldaa SCDR,x
		0x84, 0x7F, // anda #$7F
		0x39), // done: rts
}

const frame9600 = 2080 // E cycles of a frame at BAUD = 0x30

// TestRunFeedsWhenWaiting: run gives the next input byte only when the
// firmware waits for one with its output gone, so nothing is dropped
// while it prints; each byte takes a frame on the line, as on the chip;
// and the run stops when the firmware waits with no input left.
func TestRunFeedsWhenWaiting(t *testing.T) {
	m := deviceMachine(t, echoFirmware, echoRoutines, devices.Options{}, Config{})
	s := m.Initial()
	var sent []byte
	var at []uint64
	res := m.Run(s, RunOptions{Steps: 1000000, SCIInput: []byte("xy"), Output: func(o Output) {
		if o.Kind == OutSCI {
			sent = append(sent, o.Value)
			at = append(at, s.Threads[0].Cycles)
		}
	}})
	if res.Violation != nil || string(sent) != "ABCxy" || res.Received != 2 {
		t.Fatalf("sent %q, received %d, %v; want \"ABCxy\", both bytes", sent, res.Received, res.Violation)
	}
	if !strings.Contains(res.Reason, "waits for input: every --sci-input byte was received") || res.Steps > 20000 {
		t.Errorf("stopped after %d steps: %q, want soon after the last echo, waiting for input", res.Steps, res.Reason)
	}
	// 'B' goes into TDR at once and enters the shift register when 'A'
	// has been shifted out, 'C' when 'B' has: a frame apart, to within
	// a poll's seven cycles. (While the firmware waits for TDRE to send
	// 'C', nothing arrives: the getc after it would drop it.)
	for i := 1; i < 3; i++ {
		if d := at[i] - at[i-1]; d < frame9600 || d >= frame9600+8 {
			t.Errorf("%q entered the shift register %d cycles after %q, want a frame (%d)", sent[i], d, sent[i-1], frame9600)
		}
	}
	// Each echo follows a byte that could only arrive once the output
	// had gone: five frames at least, and the run ends soon after.
	if res.Cycles < 5*frame9600 || res.Cycles > 5*frame9600+1000 {
		t.Errorf("%d cycles, want five frames (%d) and the polls between", res.Cycles, 5*frame9600)
	}
}

// TestRunStopsInEndlessLoop: a loop that reads nothing and enables no
// interrupt can never end: run says so at once (after two samples, taken
// every 1,024 steps) instead of running to its bound. With the COP on the same loop is no cycle — the COP's count
// grows — and the watchdog ends it.
func TestRunStopsInEndlessLoop(t *testing.T) {
	m := deviceMachine(t, b(0x20, 0xFE), nil, devices.Options{}, Config{}) // bra *
	res := m.Run(m.Initial(), RunOptions{Steps: 1000000})
	if res.Violation != nil || !strings.Contains(res.Reason, "loops at 0xD000, and nothing it reads or has enabled can end the loop") || res.Steps > 2048 {
		t.Errorf("bra *: %q after %d steps, %v", res.Reason, res.Steps, res.Violation)
	}
	m = deviceMachine(t, b(0x20, 0xFE), nil, devices.Options{Config: 0x0B, ConfigSet: true}, Config{})
	if res := m.Run(m.Initial(), RunOptions{Steps: 1000000}); res.Violation == nil || res.Violation.Kind != KindWatchdog {
		t.Errorf("bra * with the COP on: %q, %v; want the watchdog", res.Reason, res.Violation)
	}
}

// TestRunWAIFirmware: firmware that sleeps in WAI and takes each byte in
// its SCI interrupt (no timer) receives every byte, one per wake-up.
func TestRunWAIFirmware(t *testing.T) {
	code := b(0x8E, 0x01, 0xFF, // lds #$01FF
		0x86, 0x2C, 0xB7, 0x10, 0x2D, // SCCR2 = RIE|TE|RE
		0x0E,       // cli
		0x3E,       // loop: wai
		0x20, 0xFD) // bra loop
	handler := b(0xB6, 0x10, 0x2E, // ldaa SCSR
		0xB6, 0x10, 0x2F, // ldaa SCDR
		0xD6, 0x7F, // ldab $7F: the count
		0xCE, 0x00, 0x80, 0x3A, // ldx #$80; abx
		0xA7, 0x00, // staa 0,x
		0x7C, 0x00, 0x7F, // inc $7F
		0x3B) // rti
	m := deviceMachine(t, code, map[uint16][]byte{0xD100: handler, 0xFFD6: b(0xD1, 0x00)}, devices.Options{}, Config{})
	s := m.Initial()
	res := m.Run(s, RunOptions{Steps: 100000, SCIInput: []byte("12345678")})
	var got []byte
	for a := uint16(0x80); a < 0x88; a++ {
		got = append(got, m.ReadMem(s, a))
	}
	if res.Violation != nil || res.Received != 8 || string(got) != "12345678" {
		t.Errorf("received %d, buffer %q, %v; want all eight bytes", res.Received, got, res.Violation)
	}
	if !strings.Contains(res.Reason, "waits in WAI or STOP: every --sci-input byte was received") {
		t.Errorf("reason %q", res.Reason)
	}
}

// stateAt runs m from reset, one instruction at a time, until its PC is
// pc for the n-th time (counting from 1). The transmitter finishes a
// byte when the firmware polls TDRE at txWait or nothing else can move.
func stateAt(t *testing.T, m *Machine, pc uint16, n int, txWait uint16) *State {
	t.Helper()
	s := m.Initial()
	for i := 0; i < 100000; i++ {
		if s.Threads[0].PC == pc {
			if n--; n == 0 {
				return s
			}
		}
		var next *State
		succ, _ := m.Successors(s, nil, nil)
		for _, x := range succ {
			// The thread's own move, or the transmitter finishing when
			// only it can move: the execution without input.
			tx := x.Label.Event > 0 && m.EventInfo(s, int(x.Label.Event-1)).Kind == devices.EvTxDone
			if tx && s.Threads[0].PC == txWait {
				next = x.State
				break
			}
			if x.Label.Event == 0 || next == nil && tx {
				next = x.State
			}
		}
		if next == nil {
			t.Fatalf("no move at %04x", s.Threads[0].PC)
		}
		s = next
	}
	t.Fatalf("PC %04x not reached %d times", pc, n)
	return nil
}

// stepTo runs thread 0 of s, at least one instruction, until its PC is
// pc.
func stepTo(t *testing.T, m *Machine, s *State, pc uint16) *State {
	t.Helper()
	for i := 0; i < 1000; i++ {
		ns, v, ok := m.Replay(s, Label{IRQ: -1, Steps: 1})
		if !ok || v != nil {
			t.Fatalf("step at %04x: %v %v", s.Threads[0].PC, ok, v)
		}
		if s = ns; s.Threads[0].PC == pc {
			return s
		}
	}
	t.Fatalf("PC %04x not reached", pc)
	return nil
}

// TestSCIIdleGate: under --sci-timing idle a byte may arrive only at a
// state of a loop the firmware would not leave without an event, and
// only once its output has gone; the transmitter may finish a byte at
// any such state.
func TestSCIIdleGate(t *testing.T) {
	m := deviceMachine(t, echoFirmware, echoRoutines, devices.Options{SCIInput: []byte("x")}, Config{SCIWhenIdle: true})
	// getc's poll after 'A': the firmware goes on to print 'B' — not
	// waiting.
	if g := m.gateOf(stateAt(t, m, 0xD051, 1, 0xD040)); g.rx || g.tx {
		t.Errorf("the poll after 'A': gate %+v, want closed", g)
	}
	// The echo loop's poll while 'B' is still on the line: the firmware
	// waits, but its output has not gone.
	s := stateAt(t, m, 0xD051, 5, 0xD040)
	if busy, _ := m.sending(s); !busy {
		t.Fatal("the transmitter is idle at the echo loop's second poll")
	}
	if g := m.gateOf(s); g.rx || !g.tx {
		t.Errorf("the echo loop, sending: gate %+v, want the transmitter only", g)
	}
	// Once the transmitter is done, the same loop takes input. (A poll
	// that first sees a flag change is not yet on the loop: the reads of
	// SCSR after it remember the flag, for the clearing sequence.)
	for busy, _ := m.sending(s); busy; busy, _ = m.sending(s) {
		if !m.gateOf(s).tx {
			s = stepTo(t, m, s, 0xD051)
			continue
		}
		for k, n := 0, m.events(s); k < n; k++ {
			if m.EventInfo(s, k).Kind == devices.EvTxDone {
				ns, _, ok := m.Replay(s, Label{IRQ: -1, Event: uint32(k + 1)})
				if !ok {
					t.Fatalf("the transmitter cannot finish at %04x: gate %+v", s.Threads[0].PC, m.gateOf(s))
				}
				s = ns
				break
			}
		}
	}
	if g := m.gateOf(s); g.rx {
		t.Errorf("the first poll after the output went: gate %+v, want closed", g)
	}
	s = stepTo(t, m, s, 0xD051)
	if g := m.gateOf(s); !g.rx || !g.tx {
		t.Errorf("the echo loop, output gone: gate %+v, want open", g)
	}
	if on, ok := m.waitsAt(s); !ok || on&devices.SrcReceive == 0 {
		t.Errorf("waitsAt: %v %v, want waiting on the receiver", on, ok)
	}
	// A state inside the loop that is not about to read SCSR.
	ns, _, _ := m.Replay(s, Label{IRQ: -1, Steps: 1})
	if g := m.gateOf(ns); g.rx {
		t.Errorf("after the poll: gate %+v, want closed (bytes arrive at the poll)", g)
	}
}

// TestSCIIdleBusyLoop: a loop that polls SCSR while counting in X comes
// back to a state only after 65536 rounds, past the steps a question
// about waiting follows: it is busy, not waiting.
func TestSCIIdleBusyLoop(t *testing.T) {
	code := b(0x18, 0xCE, 0x10, 0x00, // ldy #$1000
		0x86, 0x0C, 0x18, 0xA7, 0x2D, // SCCR2 = TE|RE
		0x08,                         // loop: inx
		0x18, 0x1F, 0x2E, 0x20, 0xFA, // brclr SCSR,y,#RDRF,loop
		0x20, 0xFE) // bra *
	m := deviceMachine(t, code, nil, devices.Options{SCIInput: []byte("x")}, Config{SCIWhenIdle: true})
	s := stateAt(t, m, 0xD00A, 3, 0)
	if _, ok := m.waitsAt(s); ok {
		t.Errorf("a counting poll waits")
	}
	if g := m.gateOf(s); g.rx {
		t.Errorf("gate %+v at a counting poll", g)
	}
}

// TestSCIIdleArmedLoop: a loop that reads RAM only, with the receive
// interrupt armed (RIE set, I clear), waits for that interrupt to change
// the RAM; a byte may arrive at each of its states. With I set nothing can
// end it: it waits for nothing the SCI does. With the fault armed-wait the
// loop is not seen waiting. (The states looked at are past the first 64
// cycles, whose count is part of the state.)
func TestSCIIdleArmedLoop(t *testing.T) {
	prog := func(cli byte) []byte {
		return b(0x18, 0xCE, 0x10, 0x00, // ldy #$1000
			0x86, 0x24, 0x18, 0xA7, 0x2D, // SCCR2 = RIE|RE
			cli,              // cli, or nop
			0xB6, 0x00, 0x40, // loop: ldaa $0040 (the handler's flag)
			0x27, 0xFB, // beq loop
			0x20, 0xFE) // bra *
	}
	m := deviceMachine(t, prog(0x0E), nil, devices.Options{SCIInput: []byte("x")}, Config{SCIWhenIdle: true})
	for _, pc := range []uint16{0xD00A, 0xD00D} {
		s := stateAt(t, m, pc, 12, 0)
		if g := m.gateOf(s); !g.rx || !g.tx {
			t.Errorf("the armed loop at %04X: gate %+v, want open", pc, g)
		}
		if on, ok := m.waitsAt(s); !ok || on&devices.SrcReceive == 0 {
			t.Errorf("the armed loop at %04X: waitsAt %v %v, want waiting on the receiver", pc, on, ok)
		}
	}
	restore := mutation.Set(mutation.ArmedWait)
	if g := m.gateOf(stateAt(t, m, 0xD00A, 12, 0)); g.rx {
		t.Errorf("armed-wait on: gate %+v, want closed", g)
	}
	restore()
	m = deviceMachine(t, prog(0x01), nil, devices.Options{SCIInput: []byte("x")}, Config{SCIWhenIdle: true})
	if g := m.gateOf(stateAt(t, m, 0xD00A, 12, 0)); g.rx {
		t.Errorf("the loop with I set: gate %+v, want closed", g)
	}
}

// TestRunInterruptedInput: an interrupt (run --terminal's Ctrl-C) ends the
// input of a run; the run then says it was interrupted, not that the
// firmware waits because its input ended.
func TestRunInterruptedInput(t *testing.T) {
	m := deviceMachine(t, echoFirmware, echoRoutines, devices.Options{}, Config{})
	interrupted := false
	keys := 0
	res := m.Run(m.Initial(), RunOptions{Steps: 1000000,
		Input: func() (byte, bool) {
			if keys == 1 {
				interrupted = true // Ctrl-C: no more keys
				return 0, false
			}
			keys++
			return 'x', true
		},
		Stop: func() bool { return interrupted }})
	if res.Violation != nil || res.Reason != "stopped by an interrupt" {
		t.Errorf("interrupted while waiting for input: %q, %v; want \"stopped by an interrupt\"", res.Reason, res.Violation)
	}
}
