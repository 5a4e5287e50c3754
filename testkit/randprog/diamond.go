package randprog

import (
	"fmt"
	"math/rand/v2"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// A random program of if-elses on drawn values, for the symbolic engine's
// merge of the two sides of a branch (package symbolic, merge.go): thread
// 0 starts at 0xD000 with its stack at 0x01FF, may create a second thread
// (its stack at 0x0180) that increments and clears shared bytes, draws one
// to three values with __mc_nondet (2 to 16 values each, so that the plain
// explicit search enumerates them cheaply) into bytes 0x00-0x02, and runs
// pieces that branch on them: if-elses whose two sides load different
// constants into A, B and X and store, increment or clear different
// bytes of 0x04-0x07, so that the data differ where the sides join; loops
// that shift a drawn value and xor a constant into it where the bit
// shifted out is set, as a CRC does; and sums of the bytes. In half of
// the programs the pieces are if-elses that keep no drawn value, only
// constants, and the drawn values are cleared after one of them (with A and B),
// so that which way the if-elses went is all that depends on the values
// from there on. It asserts on the registers and bytes the pieces leave,
// and ends by exiting.
const (
	diamondDrawn  = 0x00 // 0x00-0x02: the drawn values
	diamondShared = 0x04 // 0x04-0x07: what the pieces write
	diamondWord   = 0x08 // 0x08-0x09: X, stored to be asserted on
)

// diamondGen holds what a program's pieces wrote: the constants, and
// those stored in each byte, which its assertions compare with.
type diamondGen struct {
	r      *rand.Rand
	consts []byte
	stored map[byte][]byte
	// flags only: the pieces keep no drawn value, only which way they
	// branched on one.
	flags bool
}

// konst returns a small constant for an assignment, and remembers it.
func (g *diamondGen) konst() byte {
	k := byte(g.r.IntN(8))
	g.consts = append(g.consts, k)
	return k
}

// arm returns one side of an if-else: up to three assignments.
func (g *diamondGen) arm() []byte {
	r := g.r
	var p []byte
	for range r.IntN(4) {
		w := byte(diamondShared + r.IntN(4))
		kinds := 7
		if g.flags {
			kinds = 6 // not a drawn value copied
		}
		switch r.IntN(kinds) {
		case 0:
			p = append(p, 0x86, g.konst()) // ldaa #
		case 1:
			p = append(p, 0xC6, g.konst()) // ldab #
		case 2:
			p = append(p, 0xCE, 0x00, g.konst()) // ldx #
		case 3:
			k := g.konst()
			g.stored[w] = append(g.stored[w], k)
			p = append(p, 0x86, k, 0x97, w) // ldaa #; staa dir
		case 4:
			p = append(p, 0x7C, 0x00, w) // inc ext
		case 5:
			p = append(p, 0x7F, 0x00, w) // clr ext
		default:
			p = append(p, 0x96, byte(diamondDrawn+r.IntN(3)), 0x97, w) // ldaa drawn; staa dir
		}
	}
	return p
}

// piece returns one piece of thread 0's body.
func (g *diamondGen) piece(draws int) []byte {
	r := g.r
	v := byte(diamondDrawn + r.IntN(draws))
	w := byte(diamondShared + r.IntN(4))
	kinds := 5
	if g.flags {
		kinds = 3 // if-elses only
	}
	switch r.IntN(kinds) {
	case 0, 1, 2:
		// if (cond(v)) then else
		var test []byte
		var br byte
		if r.IntN(2) == 0 {
			test = []byte{0x96, v, 0x85, byte(1 << r.IntN(4))} // ldaa v; bita #bit
			br = []byte{0x26, 0x27}[r.IntN(2)]                 // bne, beq
		} else {
			test = []byte{0x96, v, 0x81, byte(r.IntN(16))}             // ldaa v; cmpa #k
			br = []byte{0x22, 0x23, 0x24, 0x25, 0x26, 0x27}[r.IntN(6)] // bhi bls bcc bcs bne beq
		}
		then, els := g.arm(), g.arm()
		p := append(test, br, byte(len(then)+2))
		p = append(append(p, then...), 0x20, byte(len(els))) // bra over the else
		return append(p, els...)
	case 3:
		// a CRC's bit loop over v, the result in w
		p := []byte{0x96, v, 0xC6, byte(2 + r.IntN(3))}            // ldaa v; ldab #n
		p = append(p, 0x48, 0x24, 0x02, 0x88, byte(1+r.IntN(255))) // lsla; bcc +2; eora #k
		p = append(p, 0x5A, 0x26, 0xF8)                            // decb; bne back to lsla
		return append(p, 0x97, w)                                  // staa w
	default:
		// w = w' + v
		return []byte{0x96, byte(diamondShared + r.IntN(4)), 0x9B, v, 0x97, w} // ldaa; adda; staa
	}
}

// assert returns an assertion on what the pieces left: a register or a
// byte, less a constant (most often one the pieces wrote), must not be 0.
func (g *diamondGen) assert() []byte {
	r := g.r
	var p []byte
	kind := r.IntN(4)
	if g.flags && r.IntN(2) == 0 {
		kind = 3 // a byte: the registers were cleared with the drawn values
	}
	switch kind {
	case 0:
		p = []byte{0x17} // tba: B
	case 1:
		p = []byte{0xDF, diamondWord, 0x96, diamondWord + 1} // stx; ldaa low byte: X
	case 2:
		p = nil // A as it is
	default:
		w := byte(diamondShared + r.IntN(4))
		if ks := g.stored[w]; len(ks) > 0 && r.IntN(4) > 0 {
			// w less a constant one side stored in it
			p = []byte{0x96, w, 0x80, ks[r.IntN(len(ks))]} // ldaa w; suba #k
			return append(p, wideJSR("__mc_assert")...)
		}
		p = []byte{0x96, w} // ldaa w
	}
	k := byte(r.IntN(8))
	if len(g.consts) > 0 && r.IntN(4) > 0 {
		k = g.consts[r.IntN(len(g.consts))]
	}
	p = append(p, 0x80, k) // suba #k
	return append(p, wideJSR("__mc_assert")...)
}

// Diamonds builds a random program of if-elses on drawn values (see
// above): its image, the machine configuration to check it under
// (--preempt every, a stack range), and a description for a failing
// test's message.
func Diamonds(r *rand.Rand) (*loader.Image, sim.Config, string) {
	rom := make([]byte, 0x10000-0xD000)
	put := func(a uint16, b []byte) { copy(rom[int(a)-0xD000:], b) }
	main := []byte{0x8E, 0x01, 0xFF} // lds #0x01FF
	if r.IntN(3) == 0 {
		main = append(main, 0xCC, 0xD4, 0x00, 0xCE, 0x01, 0x80, 0x18, 0xCE, 0, 0) // ldd #0xD400; ldx #0x0180; ldy #0
		main = append(main, wideJSR("__mc_thread_create")...)
		var other []byte
		for range 1 + r.IntN(2) {
			w := byte(diamondShared + r.IntN(4))
			if r.IntN(2) == 0 {
				other = append(other, 0x7C, 0x00, w) // inc ext
			} else {
				other = append(other, 0x7F, 0x00, w) // clr ext
			}
		}
		put(0xD400, append(other, wideJSR("__mc_thread_exit")...))
	}
	draws := 1 + r.IntN(3)
	for i := range draws {
		n := []byte{1, 3, 7, 15}[r.IntN(4)]
		main = append(main, 0xCC, 0x00, n) // ldd #n
		main = append(main, wideJSR("__mc_nondet")...)
		main = append(main, 0xD7, byte(diamondDrawn+i)) // stab
	}
	g := &diamondGen{r: r, stored: map[byte][]byte{}}
	pieces := 2 + r.IntN(4)
	forget := -1 // after which piece the drawn values are cleared
	if r.IntN(2) == 0 {
		forget = max(r.IntN(2*pieces)-pieces, 0) + pieces/2 // after the later pieces more often
		g.flags = true
	}
	for k := range pieces {
		main = append(main, g.piece(draws)...)
		if k == forget {
			main = append(main, 0x7F, 0x00, diamondDrawn, 0x7F, 0x00, diamondDrawn+1, 0x7F, 0x00, diamondDrawn+2, 0x4F, 0x5F) // clr 0x00-0x02; clra; clrb
		}
	}
	for range 1 + r.IntN(2) {
		main = append(main, g.assert()...)
	}
	main = append(main, wideJSR("__mc_thread_exit")...)
	put(0xD000, main)
	for i := range wideStubNames {
		put(wideStubs+2*uint16(i), []byte{0x39})
	}
	put(0xFFFE, []byte{0xD0, 0x00})
	hooks := map[string]uint16{}
	for i, s := range wideStubNames {
		hooks[s] = wideStubs + 2*uint16(i)
	}
	img, err := loader.LoadBytes("diamonds.bin", rom, loader.Options{Format: loader.FormatBin, Base: 0xD000, BaseSet: true, Hooks: hooks})
	if err != nil {
		panic(err) // the image is made here: a bug of this package
	}
	cfg := sim.Config{Entry: 0xD000, Preempt: sim.PreemptEvery, Stacks: []sim.StackRange{{Thread: -1, Lo: 0x0100, Hi: 0x01FF}}}
	return img, cfg, fmt.Sprintf("code %x / %x", main, rom[0x400:0x410])
}
