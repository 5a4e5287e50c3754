package icfg

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// randomCode makes code at 0xD000 biased towards control flow, so that
// calls, branches, returns, loops, recursion and indirect jumps abound.
func randomCode(r *rand.Rand, n int) []byte {
	var code []byte
	target := func() (byte, byte) {
		t := 0xD000 + r.IntN(n+8)
		return byte(t >> 8), byte(t)
	}
	for len(code) < n {
		switch r.IntN(16) {
		case 0, 1:
			code = append(code, opNOP)
		case 2:
			code = append(code, opBEQ, byte(r.IntN(40)-20))
		case 3:
			code = append(code, opBRA, byte(r.IntN(40)-20))
		case 4, 5:
			h, l := target()
			code = append(code, opJSR, h, l)
		case 6:
			code = append(code, opBSR, byte(r.IntN(60)-30))
		case 7:
			h, l := target()
			code = append(code, opJMP, h, l)
		case 8, 9:
			code = append(code, opRTS)
		case 10:
			h, l := target()
			code = append(code, opLDX, h, l, opJSRX, 0)
		case 11:
			code = append(code, opJMPX, byte(r.IntN(4)))
		case 12:
			code = append(code, opWAI)
		case 13:
			code = append(code, opRTI)
		default:
			code = append(code, byte(r.IntN(256)))
		}
	}
	return code
}

// checkImage builds everything for an image and checks the invariants that
// do not depend on what the code does.
func checkImage(t *testing.T, img *loader.Image) {
	p, err := Build(img, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.Instrs {
		x := &p.Instrs[i]
		for _, list := range [][]uint16{x.Next, x.Callees} {
			for _, w := range list {
				if _, ok := p.Instr(w); !ok {
					t.Fatalf("%04X: successor %04X is not an instruction", x.Addr, w)
				}
			}
		}
	}
	g0 := p.ICFG()
	if g0.Order() != len(p.Instrs) {
		t.Fatalf("ICFG has %d vertices for %d instructions", g0.Order(), len(p.Instrs))
	}
	// A target: every return and every third instruction.
	var targets []uint16
	for i := range p.Instrs {
		if i%3 == 0 {
			targets = append(targets, p.Instrs[i].Addr)
		}
	}
	d0 := g0.DistancesTo(targets)
	ft0 := g0.FrameTables(targets)
	for k := 1; k <= 2; k++ {
		g, err := p.AICFG(k, GraphOptions{MaxVertices: 100000})
		if err != nil {
			continue // large: fine, the limit works
		}
		d := g.DistancesTo(targets)
		ft := g.FrameTables(targets)
		for v := range g.Verts {
			pc := g.Verts[v].PC
			u, ok := g0.Lookup(pc, nil)
			if !ok {
				t.Fatalf("k=%d: vertex %04X has no ICFG vertex", k, pc)
			}
			// AICFG(k) refines the ICFG: distances only grow.
			if d[v] < d0[u] {
				t.Fatalf("k=%d: distance at %04X %x is %d < ICFG %d", k, pc, g.Verts[v].Returns(), d[v], d0[u])
			}
			// Same-level tables do not depend on the context.
			if ft.InScope[v] != ft0.InScope[u] || ft.Exit[v] != ft0.Exit[u] || ft.PostDom[v] != ft0.PostDom[u] {
				t.Fatalf("k=%d: frame tables at %04X %x differ from the ICFG's: in %d/%d exit %d/%d pd %v/%v",
					k, pc, g.Verts[v].Returns(), ft.InScope[v], ft0.InScope[u], ft.Exit[v], ft0.Exit[u], ft.PostDom[v], ft0.PostDom[u])
			}
			if ft.InScope[v] < d0[u] {
				t.Fatalf("k=%d: in-scope distance %d below the ICFG distance %d at %04X", k, ft.InScope[v], d0[u], pc)
			}
		}
	}
	r := p.Report(g0)
	if r.Instructions != len(p.Instrs) {
		t.Fatal("report")
	}
}

// imageOf wraps random bytes as an image with a reset vector and a few
// symbols.
func imageOf(code []byte, seed uint64) *loader.Image {
	a := newAsm(0xD000)
	a.b(code...)
	img := a.image("")
	img.Vectors[m68hc11.VecReset], img.VectorLoaded[m68hc11.VecReset] = 0xD000, true
	r := rand.New(rand.NewPCG(seed, 7))
	for i := 0; i < 3; i++ {
		if len(code) == 0 {
			break
		}
		addr := 0xD000 + uint16(r.IntN(len(code)))
		kind := loader.SymFunc
		if i == 2 {
			kind = loader.SymNone
		}
		img.Symbols = append(img.Symbols, loader.Symbol{Name: string(rune('a' + i)), Addr: addr, Kind: kind, Global: true})
	}
	if r.IntN(2) == 0 && len(code) > 0 {
		img.Vectors[20], img.VectorLoaded[20] = 0xD000+uint16(r.IntN(len(code))), true
	}
	sortSymbols(img)
	return img
}

func sortSymbols(img *loader.Image) {
	s := img.Symbols
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && (s[j].Addr < s[j-1].Addr || s[j].Addr == s[j-1].Addr && s[j].Name < s[j-1].Name); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// TestRandomImages runs checkImage on random code.
func TestRandomImages(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := 0; i < n; i++ {
		checkImage(t, imageOf(randomCode(r, 16+r.IntN(300)), uint64(i)))
	}
}

// TestAllOpcodes disassembles the decoder's image of every opcode.
func TestAllOpcodes(t *testing.T) {
	img, err := loader.Load(filepath.Join("..", "isa", "m68hc11", "testdata", "allops.elf"), loader.Options{AllowNoEntry: true})
	if err != nil {
		t.Skip("allops.elf: ", err)
	}
	checkImage(t, img)
}

// FuzzBuild: no panic and the invariants of checkImage on any bytes.
func FuzzBuild(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 8; i++ {
		f.Add(randomCode(r, 64), uint64(i))
	}
	f.Add([]byte{opRTS}, uint64(0))
	f.Fuzz(func(t *testing.T, code []byte, seed uint64) {
		if len(code) > 2048 {
			return
		}
		checkImage(t, imageOf(code, seed))
	})
}
