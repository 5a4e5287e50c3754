package heuristics

import (
	"errors"
	"sort"
	"testing"

	"github.com/hc11mc/hc11mc/icfg"
	"github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// program assembles raw code at 0xD000 with labels at the given offsets.
func program(t *testing.T, code []byte, labels map[string]int, reset string) *icfg.Program {
	t.Helper()
	img := &loader.Image{Path: "test"}
	img.Segments = []loader.Segment{{Addr: 0xD000, Data: code, Name: ".text", Exec: true}}
	for name, off := range labels {
		img.Symbols = append(img.Symbols, loader.Symbol{Name: name, Addr: 0xD000 + uint16(off), Kind: loader.SymNone, Global: name[0] == '_'})
	}
	sort.Slice(img.Symbols, func(i, j int) bool {
		if img.Symbols[i].Addr != img.Symbols[j].Addr {
			return img.Symbols[i].Addr < img.Symbols[j].Addr
		}
		return img.Symbols[i].Name < img.Symbols[j].Name
	})
	e := 0xD000 + uint16(labels[reset])
	img.Vectors[m68hc11.VecReset], img.VectorLoaded[m68hc11.VecReset] = e, true
	img.Entry, img.HasEntry = e, true
	prog, err := icfg.Build(img, icfg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestRecursionAdmissible: in a recursive procedure the target after the
// recursive call is reached through an inner activation's return. Blocking
// the frame's abstract return vertex (which the inner activation shares)
// would call this unreachable; the estimate must be the true distance at
// any depth and any k: 4 through an inner activation when r was called from
// _start, 2 (beq, rts) when it returns to tgt itself.
//
//	D000 __mc_error: rts
//	D001 _start:     jsr r
//	D004 stop:       bra stop
//	D006 r:          beq done
//	D008             jsr r
//	D00B tgt:        jsr __mc_error
//	D00E done:       rts
func TestRecursionAdmissible(t *testing.T) {
	code := []byte{0x39, 0xBD, 0xD0, 0x06, 0x20, 0xFE, 0x27, 0x06, 0xBD, 0xD0, 0x06, 0xBD, 0xD0, 0x00, 0x39}
	prog := program(t, code, map[string]int{"__mc_error": 0, "_start": 1, "stop": 4, "r": 6, "tgt": 11, "done": 14}, "_start")
	stop, tgt := uint16(0xD004), uint16(0xD00B)
	for _, returns := range [][]uint16{{stop}, {tgt, stop}, {tgt, tgt, tgt, stop}} {
		for k := 0; k <= 3; k++ {
			h, err := NewFromProgram(prog, Config{Kind: EFSM, K: k, Property: Reach, Reach: "tgt"})
			if err != nil {
				t.Fatal(err)
			}
			want := 4
			if returns[0] == tgt {
				want = 2
			}
			if got := h.Estimate(0xD006, returns); got != want {
				t.Errorf("efsm k=%d at r with stack %x: %d, want %d", k, returns, got, want)
			}
			// At done (the RTS) the next frame decides: 1 if it returns to tgt.
			want = Inf
			if returns[0] == tgt {
				want = 1
			}
			if got := h.Estimate(0xD00E, returns); got != want {
				t.Errorf("efsm k=%d at done with stack %x: %d, want %d", k, returns, got, want)
			}
		}
	}
}

// TestTargetsAndCombine: the targets of mutex and deadlock, and how the
// threads' distances combine.
//
//	D000 __mc_lock:     rts
//	D001 __mc_cs_enter: rts
//	D002 _start:        jsr __mc_lock
//	D005                jsr __mc_cs_enter
//	D008 w:             wai
//	D009                bra w
func TestTargetsAndCombine(t *testing.T) {
	code := []byte{0x39, 0x39, 0xBD, 0xD0, 0x00, 0xBD, 0xD0, 0x01, 0x3E, 0x20, 0xFD}
	prog := program(t, code, map[string]int{"__mc_lock": 0, "__mc_cs_enter": 1, "_start": 2, "w": 8}, "_start")
	dl, err := FindTargets(prog, Deadlock, "")
	if err != nil || len(dl.Addrs) != 2 || dl.Addrs[0] != 0xD000 || dl.Addrs[1] != 0xD008 {
		t.Errorf("deadlock targets %+v, %v", dl, err)
	}
	mx, err := FindTargets(prog, Mutex, "")
	if err != nil || len(mx.Addrs) != 1 || mx.Addrs[0] != 0xD001 {
		t.Errorf("mutex targets %+v, %v", mx, err)
	}
	if _, err := FindTargets(prog, Error, ""); !errors.Is(err, ErrNoTarget) {
		t.Errorf("error: %v", err)
	}

	h, err := NewFromProgram(prog, Config{Kind: EFSM, K: 1, Property: Mutex})
	if err != nil {
		t.Fatal(err)
	}
	// At _start: jsr __mc_lock, lock, jsr __mc_cs_enter: 3.
	if got := h.Estimate(0xD002, nil); got != 3 {
		t.Errorf("mutex distance at _start: %d", got)
	}
	if got := h.Combine([]int{3, 7, 1}); got != 4 {
		t.Errorf("mutex combine: %d, want 4", got)
	}
	for _, c := range []struct {
		p     Property
		dists []int
		want  int
	}{
		{Error, []int{5, 2, Inf}, 2},
		{Error, nil, Inf},
		{Reach, []int{Inf, Inf}, Inf},
		{Mutex, []int{9}, 9},
		{Mutex, []int{Inf, 4}, Inf},
		{Mutex, nil, 0},
		{Deadlock, []int{1, 2, 3}, 6},
		{Deadlock, []int{1, Inf}, Inf},
		{Deadlock, []int{Inf - 1, Inf - 1}, Inf},
	} {
		if got := Combine(c.p, c.dists); got != c.want {
			t.Errorf("Combine(%s, %v) = %d, want %d", c.p, c.dists, got, c.want)
		}
	}
	none, _ := NewFromProgram(prog, Config{Kind: None, Property: Deadlock})
	if none.Combine([]int{5, 6}) != 0 || none.Estimate(0xD002, nil) != 0 {
		t.Error("none is not 0")
	}
	// A PC outside the decoded code estimates 0.
	if got := h.Estimate(0xE000, []uint16{0xD005}); got != 0 {
		t.Errorf("unknown PC: %d", got)
	}
}

// TestHamming checks the memory heuristic.
func TestHamming(t *testing.T) {
	if d := HammingDistance([]byte{0xFF, 0x00, 0x0F}, []byte{0x00, 0x00, 0x0F}, nil); d != 8 {
		t.Errorf("distance %d, want 8", d)
	}
	if d := HammingDistance([]byte{0xFF, 0x01}, []byte{0x00, 0x00}, []byte{0x0F, 0xFF}); d != 5 {
		t.Errorf("masked distance %d, want 5", d)
	}
	if d := HammingDistance([]byte{0xFF}, []byte{0x00, 0xFF}, nil); d != 8 {
		t.Errorf("short state: %d, want 8", d)
	}
	prog := loadFig(t, "fig1.elf")
	if _, err := NewFromProgram(prog, Config{Kind: Hamming}); !errors.Is(err, ErrNoTarget) {
		t.Errorf("hamming without a valuation: %v", err)
	}
	h, err := NewFromProgram(prog, Config{Kind: Hamming, HammingTarget: []byte{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if h.EstimateMemory([]byte{1, 3}) != 1 || h.Estimate(0xD000, nil) != 0 || h.Combine([]int{4}) != 0 {
		t.Error("hamming: wrong terms")
	}
}

// TestParse round-trips the names.
func TestParse(t *testing.T) {
	for k := None; k <= EFSM; k++ {
		if got, err := ParseKind(k.String()); err != nil || got != k {
			t.Errorf("ParseKind(%s) = %v, %v", k, got, err)
		}
	}
	for p := Reach; p <= Deadlock; p++ {
		if got, err := ParseProperty(p.String()); err != nil || got != p {
			t.Errorf("ParseProperty(%s) = %v, %v", p, got, err)
		}
	}
	if _, err := ParseKind("astar"); err == nil {
		t.Error("ParseKind accepted astar")
	}
}
