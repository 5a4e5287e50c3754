package randprog

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// A random program that draws wide values, for the engines that hand a
// choice from one to another (package hybrid) or make it a symbol
// (package symbolic): thread 0 starts at 0xD000 with its stack at 0x01FF
// and may create a second thread with its own; each runs a random body
// that draws values with __mc_nondet (ranges of 3 to 300 values: some
// enumerated under a --max-branch of 4, most handed over), stores them in
// shared bytes 0x00-0x03, adds and compares them, looks them up in a
// table in ROM, assumes and asserts on them, takes a lock, and publishes
// its stack for the other thread to write through (breaking stack
// privacy); it ends by exiting.
const (
	wideStubs = 0xE000
	wideTable = 0xDE00
)

var wideStubNames = []string{"__mc_assert", "__mc_assume", "__mc_nondet", "__mc_thread_create", "__mc_thread_exit",
	"__mc_lock", "__mc_unlock"}

func wideJSR(name string) []byte {
	a := wideStubs + 2*uint16(slices.Index(wideStubNames, name))
	return []byte{0xBD, byte(a >> 8), byte(a)}
}

// wideBody returns a thread's random body of n pieces, ending in
// __mc_thread_exit.
func wideBody(r *rand.Rand, n int) []byte {
	shared := func() byte { return byte(r.IntN(4)) }
	var drawn []byte // the bytes this body stored a drawn value in
	asserted := func() byte {
		if len(drawn) > 0 && r.IntN(4) > 0 {
			return drawn[r.IntN(len(drawn))]
		}
		return shared()
	}
	var code []byte
	for range n {
		var p []byte
		switch r.IntN(12) {
		case 0, 1, 2:
			bound := []uint16{3, 5, 9, 20, 40, 300}[r.IntN(6)]
			p = append([]byte{0xCC, byte(bound >> 8), byte(bound)}, wideJSR("__mc_nondet")...) // ldd #N; nondet
			a := shared()
			drawn = append(drawn, a)
			p = append(p, 0xD7, a) // stab dir
		case 3:
			p = []byte{0x96, shared(), 0x9B, shared(), 0x97, shared()} // ldaa; adda; staa
		case 4, 11:
			p = append([]byte{0x96, asserted(), 0x80, byte(1 + r.IntN(6))}, wideJSR("__mc_assert")...) // ldaa; suba #k; assert
		case 5:
			p = append([]byte{0x96, shared(), 0x84, byte(1 + r.IntN(7))}, wideJSR("__mc_assume")...) // ldaa; anda #k; assume
		case 6:
			p = []byte{0xD6, shared(), 0xC4, 0x0F, 0xCE, wideTable >> 8, wideTable & 0xFF, 0x3A, 0xA6, 0x00, 0x97, shared()} // ldab; andb #15; ldx #table; abx; ldaa 0,x; staa
		case 7:
			p = []byte{0x96, shared(), 0x81, byte(r.IntN(30)), 0x22, 0x03, 0x7C, 0x00, shared()} // ldaa; cmpa #k; bhi +3; inc ext
		case 8:
			p = append(append([]byte{0xCE, 0x00, 0x08}, wideJSR("__mc_lock")...), 0x7C, 0x00, shared())
			p = append(append(p, 0xCE, 0x00, 0x08), wideJSR("__mc_unlock")...)
		case 9:
			p = []byte{0x86, 0x01, 0x36, 0x30, 0xDF, 0x0A, 0x32} // ldaa #1; psha; tsx; stx 0x0A; pula: publish a stack address
		default:
			p = []byte{0xDE, 0x0A, 0x8C, 0x00, 0x00, 0x27, 0x02, 0x6C, 0x00} // ldx 0x0A; cpx #0; beq +2; inc 0,x
		}
		code = append(code, p...)
	}
	return append(code, wideJSR("__mc_thread_exit")...)
}

// Wide builds a random program that draws wide values (see above): its
// image, the machine configuration to check it under (--preempt every, a
// stack range, each stack's region bounded by a symbol), and a
// description for a failing test's message.
func Wide(r *rand.Rand) (*loader.Image, sim.Config, string) {
	rom := make([]byte, 0x10000-0xD000)
	put := func(a uint16, b []byte) { copy(rom[int(a)-0xD000:], b) }
	main := []byte{0x8E, 0x01, 0xFF} // lds #0x01FF
	if r.IntN(2) == 0 {
		main = append(main, 0xCC, 0xD4, 0x00, 0xCE, 0x01, 0x80, 0x18, 0xCE, 0, 0) // ldd #0xD400; ldx #0x0180; ldy #0
		main = append(main, wideJSR("__mc_thread_create")...)
		put(0xD400, wideBody(r, 1+r.IntN(4)))
	}
	main = append(main, wideBody(r, 1+r.IntN(5))...)
	put(0xD000, main)
	for i := range wideStubNames {
		put(wideStubs+2*uint16(i), []byte{0x39})
	}
	table := make([]byte, 16)
	for i := range table {
		table[i] = byte(r.IntN(24))
	}
	put(wideTable, table)
	put(0xFFFE, []byte{0xD0, 0x00})
	hooks := map[string]uint16{}
	for i, s := range wideStubNames {
		hooks[s] = wideStubs + 2*uint16(i)
	}
	img, err := loader.LoadBytes("random.bin", rom, loader.Options{Format: loader.FormatBin, Base: 0xD000, BaseSet: true, Hooks: hooks})
	if err != nil {
		panic(err) // the image is made here: a bug of this package
	}
	for _, a := range []uint16{0x0181, 0x0141} { // each stack's region: 64 bytes (sim/private.go)
		img.Symbols = append(img.Symbols, loader.Symbol{Name: fmt.Sprintf("stack_%04x", a), Addr: a, Kind: loader.SymObject})
	}
	cfg := sim.Config{Entry: 0xD000, Preempt: sim.PreemptEvery, Stacks: []sim.StackRange{{Thread: -1, Lo: 0x0100, Hi: 0x01FF}}}
	return img, cfg, fmt.Sprintf("code %x / %x, table %x", main, rom[0x400:0x440], table)
}
