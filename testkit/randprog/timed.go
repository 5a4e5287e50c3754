package randprog

import (
	"fmt"
	"math/rand/v2"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// A random program for the timing properties (package search's timing
// oracle): thread 0 starts at 0xD000 with its stack at 0x01FF, clears
// S, X and I (TAP: STOP then stops, XIRQ is taken), creates one or two
// threads with their own stacks, and each thread runs a random body that
// loops back or exits. The pieces: NOPs, shared bytes, masked stretches
// (SEI, a delay loop, CLI), a call of TimedSub, a subroutine every
// thread may be inside at once (a deadline's FROM; its RTS at TimedRet
// the TO), WAI and STOP with I clear (woken by an interrupt). IRQ, XIRQ,
// RTI and TOC1 each have a handler of their own, a few instructions and
// RTI, so that requests of four priorities meet.
const (
	// TimedSub is the shared subroutine's entry, TimedRet its RTS.
	TimedSub = 0xDC00
	TimedRet = TimedSub + 5
)

// timedIRQs are the harness interrupts of Timed's programs.
var timedIRQs = []string{"irq", "xirq", "rti", "toc1"}

// timedPiece returns one random piece of a thread's body.
func timedPiece(r *rand.Rand) []byte {
	shared := func() byte { return sharedLo + byte(r.IntN(4)) }
	switch r.IntN(9) {
	case 0:
		return []byte{0x01} // nop
	case 1:
		return []byte{0x7C, 0x00, shared()} // inc ext
	case 2:
		// sei; ldaa #k; deca; bne -3; cli: a masked stretch
		return []byte{0x0F, 0x86, byte(1 + r.IntN(3)), 0x4A, 0x26, 0xFD, 0x0E}
	case 3, 4:
		return []byte{0xBD, TimedSub >> 8, TimedSub & 0xFF} // jsr TimedSub
	case 5:
		return []byte{0x0E, 0x3E} // cli; wai
	case 6:
		return []byte{0x0E, 0xCF} // cli; stop
	case 7:
		return []byte{0x0F, 0x01, 0x0E} // sei; nop; cli
	default:
		return []byte{0x96, shared(), 0x36, 0x32} // ldaa dir; psha; pula
	}
}

// timedBody returns a thread's body at org: n pieces, then a jump back
// to org or the thread's exit.
func timedBody(r *rand.Rand, org uint16, n int) []byte {
	var code []byte
	for range n {
		code = append(code, timedPiece(r)...)
	}
	if r.IntN(3) == 0 {
		return append(code, jsr("__mc_thread_exit")...)
	}
	return append(code, 0x7E, byte(org>>8), byte(org)) // jmp org
}

// Timed builds a random program of the shape above, the machine
// configuration to check it under (--preempt every, a stack range,
// --irq irq,xirq,rti,toc1), and describes it for a failing test's
// message.
func Timed(r *rand.Rand) (*loader.Image, sim.Config, string) {
	threads := 1 + r.IntN(2)
	rom := make([]byte, 0x10000-0xD000)
	put := func(a uint16, b []byte) { copy(rom[int(a)-0xD000:], b) }
	// lds #0x01FF; tpa; anda #0x2F; tap: S, X and I clear
	main := []byte{0x8E, 0x01, 0xFF, 0x07, 0x84, 0x2F, 0x06}
	for i := range threads {
		e := 0xD400 + 0x200*uint16(i)
		sp := uint16(0x0180 - 0x40*i)
		main = append(main, 0xCC, byte(e>>8), byte(e), 0xCE, byte(sp>>8), byte(sp), 0x18, 0xCE, 0, 0)
		main = append(main, jsr("__mc_thread_create")...)
		put(e, timedBody(r, e, 1+r.IntN(3)))
	}
	body := uint16(0xD000 + len(main))
	main = append(main, timedBody(r, body, 1+r.IntN(3))...)
	put(0xD000, main)
	// The subroutine: ldab #k; decb; bne -3; rts (at TimedRet).
	put(TimedSub, []byte{0xC6, byte(1 + r.IntN(2)), 0x5A, 0x26, 0xFD, 0x39})
	for i := range stubs {
		put(stubBase+2*uint16(i), []byte{0x39})
	}
	hooks := map[string]uint16{}
	for _, s := range stubs {
		hooks[s] = stubAddr(s)
	}
	put(0xFFFE, []byte{0xD0, 0x00})
	var hs []string
	for k, name := range timedIRQs {
		h := uint16(handlerOrg + 0x40*k)
		var code []byte
		for range r.IntN(3) {
			switch r.IntN(3) {
			case 0:
				code = append(code, 0x01) // nop
			case 1:
				code = append(code, 0x7C, 0x00, sharedLo+byte(r.IntN(4))) // inc ext
			default:
				code = append(code, 0x86, 0x02, 0x4A, 0x26, 0xFD) // ldaa #2; deca; bne -3
			}
		}
		put(h, append(code, 0x3B)) // rti
		v, _ := sim.VectorIndex(name)
		a := isa.VectorAddr(v)
		put(a, []byte{byte(h >> 8), byte(h)})
		hs = append(hs, fmt.Sprintf("%s %x", name, code))
	}
	img, err := loader.LoadBytes("timed.bin", rom, loader.Options{Format: loader.FormatBin, Base: 0xD000, BaseSet: true, Hooks: hooks})
	if err != nil {
		panic(err) // the image is made here: a bug of this package
	}
	cfg := sim.Config{Entry: 0xD000, IRQs: timedIRQs, Preempt: sim.PreemptEvery,
		Stacks: []sim.StackRange{{Thread: -1, Lo: 0x0100, Hi: 0x01FF}}}
	return img, cfg, fmt.Sprintf("%d threads, code %x / %x / %x, handlers %v", threads+1, main, rom[0x400:0x410], rom[0x600:0x610], hs)
}
