// Package randprog makes random 68HC11 programs for the differential
// tests of the reductions, which check every reduced (or otherwise
// different) way of searching a program against the plain search.
//
// Program makes multi-threaded harness programs of one fixed shape, which
// package search's (explicit states) and package symbolic's (symbolic
// states) tests run through their own APIs; Wide (wide.go) makes
// two-thread programs of another fixed shape that draw values too wide to
// enumerate cheaply, for the tests of the symbolic engine and of --engine
// auto's hand-off between the engines; Timed (timed.go) makes programs
// for the timing properties' oracle: several interrupts with handlers of
// their own, WAI, STOP and a subroutine several threads are inside at
// once. Generate draws programs from a
// grammar of weighted, nested productions (gen.go) — harness programs with
// threads, programs with the chip's peripherals, firmware without a
// harness — each with the command-line flags to check it, for the
// differential test of cmd/hc11mc/internal/cli that runs every engine, search and
// reduction; its bytes come from a small encoder over the decoder's own
// opcode tables (asm.go), so that no assembler is needed.
package randprog

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// A random multi-threaded program: thread 0
// starts at 0xD000 with its stack at 0x01FF, creates one or two threads
// with their own stacks, and each thread (and a TOC1 handler, when the
// program has interrupts) runs a random body of instructions that touch
// registers only, shared bytes at 0x00-0x07, its own stack directly and
// through X (including stack addresses published in shared memory and
// written through by other threads), the lock at 0x08, critical sections,
// assertions on shared bytes, CLI/SEI windows, forward branches, and ends
// by exiting or looping back to its start (cycles).
const (
	stubBase   = 0xE000 // the harness stubs: one RTS each
	subOrg     = 0xDC00 // three subroutines of one instruction and an RTS, then one of two
	handlerOrg = 0xD800
	sharedLo   = 0x00
	lockByte   = 0x08
)

var stubs = []string{"__mc_assert", "__mc_thread_create", "__mc_thread_exit", "__mc_lock", "__mc_unlock",
	"__mc_cs_enter", "__mc_cs_exit", "__mc_yield", "__mc_atomic_begin", "__mc_atomic_end"}

func stubAddr(name string) uint16 { return stubBase + 2*uint16(slices.Index(stubs, name)) }

func jsr(name string) []byte { a := stubAddr(name); return []byte{0xBD, byte(a >> 8), byte(a)} }

// body returns the code of a random body of n pieces placed at org; the
// last piece jumps back to org (a cycle) or exits the thread (or, for an
// interrupt handler, returns with RTI).
func body(r *rand.Rand, org uint16, n int, handler, irqs bool) []byte {
	shared := func() byte { return sharedLo + byte(r.IntN(8)) }
	var pieces [][]byte
	for range n {
		var p []byte
		switch r.IntN(20) {
		case 0:
			p = []byte{0x4C} // inca
		case 1:
			p = []byte{0x5A} // decb
		case 2:
			p = []byte{0x86, byte(r.IntN(3))} // ldaa #
		case 3:
			p = []byte{0x16, 0x1B} // tab; aba
		case 4:
			p = []byte{0x96, shared()} // ldaa dir
		case 5:
			p = []byte{0x97, shared()} // staa dir
		case 6:
			p = []byte{0x7C, 0x00, shared()} // inc ext
		case 7:
			p = []byte{0x36, 0x30, 0xA6, 0x00, 0x4C, 0xA7, 0x00, 0x32} // psha; tsx; ldaa 0,x; inca; staa 0,x; pula
		case 8:
			if r.IntN(2) == 0 {
				p = []byte{0x30, 0xDF, 0x04} // tsx; stx 0x04: publish a stack address
			} else {
				// A local set to 1, published, and asserted on.
				p = append([]byte{0x86, 0x01, 0x36, 0x30, 0xDF, 0x04, 0xA6, 0x00}, jsr("__mc_assert")...) // ldaa #1; psha; tsx; stx 0x04; ldaa 0,x; assert
				p = append(p, 0x32)                                                                       // pula
			}
		case 9:
			p = []byte{0xDE, 0x04, 0x8C, 0x00, 0x00, 0x27, 0x02, 0x6C, 0x00} // ldx 0x04; cpx #0; beq +2; inc 0,x
			if r.IntN(2) == 0 {
				p[7] = 0x6F // clr 0,x
			}
		case 10:
			p = append([]byte{0x96, shared()}, jsr("__mc_assert")...) // assert(shared != 0)
		case 11:
			p = append(append([]byte{0xCE, 0x00, lockByte}, jsr("__mc_lock")...), append([]byte{0xCE, 0x00, lockByte}, jsr("__mc_unlock")...)...)
		case 12:
			p = append(append(jsr("__mc_cs_enter"), 0x96, shared()), jsr("__mc_cs_exit")...)
		case 13:
			if irqs && !handler {
				p = []byte{0x0E, 0x01, 0x0F} // cli; nop; sei
			} else {
				p = []byte{0x01}
			}
		case 14:
			p = []byte{0x8F, 0x08, 0x8F} // xgdx; inx; xgdx
		case 15:
			p = []byte{0x36, 0x37, 0x33, 0x32} // psha; pshb; pulb; pula
		case 16:
			p = []byte{0x4D, 0x26, 0} // tsta; bne forward (patched below)
		case 17:
			if r.IntN(2) == 0 {
				p = []byte{0x18, 0x30, 0x18, 0xE6, 0x00} // tsy; ldab 0,y
			} else {
				p = []byte{0xBD, subOrg >> 8, subOrg&0xFF + byte(3*r.IntN(3))} // jsr one of the subroutines
			}
		case 18:
			if !handler {
				p = append(append(jsr("__mc_atomic_begin"), 0x7C, 0x00, shared()), jsr("__mc_atomic_end")...)
			} else {
				p = []byte{0x5F} // clrb
			}
		default:
			p = []byte{0x97, shared(), 0x4F} // staa dir; clra
		}
		pieces = append(pieces, p)
	}
	var code []byte
	starts := make([]int, len(pieces)+1)
	for i, p := range pieces {
		starts[i] = len(code)
		code = append(code, p...)
	}
	starts[len(pieces)] = len(code)
	// Forward branches skip to a later piece.
	for i, p := range pieces {
		if len(p) == 3 && p[0] == 0x4D && p[1] == 0x26 {
			j := i + 1 + r.IntN(len(pieces)-i)
			code[starts[i]+2] = byte(starts[j] - (starts[i] + 3))
		}
	}
	switch {
	case handler:
		code = append(code, 0x3B) // rti
	case r.IntN(2) == 0:
		code = append(code, jsr("__mc_thread_exit")...)
	default:
		code = append(code, 0x7E, byte(org>>8), byte(org)) // jmp org
	}
	return code
}

// Program builds a random program's image and the machine configuration
// to check it under (--preempt every, a stack range, TOC1 when it has a
// handler), and describes it for a failing test's message.
func Program(r *rand.Rand) (*loader.Image, sim.Config, string) {
	irqs := r.IntN(3) == 0
	threads := 1 + r.IntN(2)
	rom := make([]byte, 0x10000-0xD000)
	put := func(a uint16, b []byte) { copy(rom[int(a)-0xD000:], b) }
	// Thread 0: its stack, the threads it creates, its own body.
	main := []byte{0x8E, 0x01, 0xFF} // lds #0x01FF
	entries := make([]uint16, threads)
	for i := range threads {
		entries[i] = 0xD400 + 0x200*uint16(i)
		sp := uint16(0x0180 - 0x40*i)
		main = append(main, 0xCC, byte(entries[i]>>8), byte(entries[i]), 0xCE, byte(sp>>8), byte(sp), 0x18, 0xCE, 0, 0)
		main = append(main, jsr("__mc_thread_create")...)
	}
	mainBody := uint16(0xD000 + len(main))
	main = append(main, body(r, mainBody, 1+r.IntN(4), false, irqs)...)
	put(0xD000, main)
	for i, e := range entries {
		put(e, body(r, e, 1+r.IntN(4), false, irqs))
		_ = i
	}
	for i := range stubs {
		put(stubBase+2*uint16(i), []byte{0x39})
	}
	// The subroutines: at subOrg, subOrg+3 and subOrg+6; the last reads
	// B and the flags, then falls into an RTS at subOrg+8 or makes up a
	// return address (a foreign return: dead-data elimination must say).
	sub := []byte{0x4F, 0x01, 0x39, 0x16, 0x01, 0x39, 0x1B, 0x24, 0x01, 0x39}
	if r.IntN(4) == 0 {
		sub = append(sub[:9], 0x18, 0xCE, 0xD0, 0x00, 0x18, 0x3C, 0x39) // ldy #0xD000; pshy; rts
	}
	put(subOrg, sub)
	hooks := map[string]uint16{}
	for _, s := range stubs {
		hooks[s] = stubAddr(s)
	}
	put(0xFFFE, []byte{0xD0, 0x00})
	var irq []string
	if irqs {
		put(handlerOrg, body(r, handlerOrg, 1+r.IntN(3), true, true))
		put(0xFFE8, []byte{handlerOrg >> 8, handlerOrg & 0xFF}) // TOC1
		irq = []string{"toc1"}
	}
	img, err := loader.LoadBytes("random.bin", rom, loader.Options{Format: loader.FormatBin, Base: 0xD000, BaseSet: true, Hooks: hooks})
	if err != nil {
		panic(err) // the image is made here: a bug of this package
	}
	// Symbols that bound the stacks' regions (sim/private.go): most often
	// each stack's 64 bytes; sometimes only a few bytes below each top,
	// so that deeper accesses are not private; sometimes none, so that
	// the regions overlap and the first thread created breaks privacy.
	switch r.IntN(4) {
	case 0, 1:
		for _, a := range []uint16{0x0181, 0x0141, 0x0101} {
			img.Symbols = append(img.Symbols, loader.Symbol{Name: fmt.Sprintf("stack_%04x", a), Addr: a, Kind: loader.SymObject})
		}
	case 2:
		for _, top := range []uint16{0x01FF, 0x0180, 0x0140} {
			a := top - uint16(r.IntN(4))
			img.Symbols = append(img.Symbols, loader.Symbol{Name: fmt.Sprintf("stack_%04x", a), Addr: a, Kind: loader.SymObject})
		}
	}
	cfg := sim.Config{Entry: 0xD000, IRQs: irq, Preempt: sim.PreemptEvery,
		Stacks: []sim.StackRange{{Thread: -1, Lo: 0x0100, Hi: 0x01FF}}}
	return img, cfg, fmt.Sprintf("%d threads, irq %v, code %x / %x / %x", threads+1, irqs, main, rom[0x400:0x420], rom[0x600:0x620])
}
