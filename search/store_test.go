package search

import (
	"math/rand/v2"
	"testing"
)

// TestOrderedFTable: the compact table answers like a set, and keeps its
// invariants — fingerprints in increasing order, each at or after its home
// slot with no empty slot in between — through growth, for uniform
// fingerprints and for ones crowded at the top of the range, which fill
// the slack past the nominal size (and make it longer).
func TestOrderedFTable(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 9))
	for _, c := range []struct {
		name    string
		fp      func() uint64
		extends bool // the slack must have grown
	}{
		{"uniform", func() uint64 { return rnd.Uint64() | 1 }, false},
		// One in a hundred in the last 2^-40 of the range: a run at
		// the top longer than the slack, at every size.
		{"top", func() uint64 {
			if rnd.IntN(100) == 0 {
				return ^uint64(0) - rnd.Uint64N(1<<23)*2
			}
			return rnd.Uint64() | 1
		}, true},
	} {
		st := newStore(true)
		seen := map[uint64]bool{}
		for range 300000 {
			fp := c.fp()
			if got := st.insertFP(fp); got == seen[fp] {
				t.Fatalf("%s: insertFP(%#x) = %v after %d distinct", c.name, fp, got, len(seen))
			}
			seen[fp] = true
		}
		if st.n != len(seen) {
			t.Errorf("%s: %d stored, %d distinct", c.name, st.n, len(seen))
		}
		checkFTable(t, c.name, st, seen)
		if extended := len(st.ftable) > st.fsize+fslack(st.fsize); extended != c.extends {
			t.Errorf("%s: slack extended %v, want %v", c.name, extended, c.extends)
		}
	}
}

func checkFTable(t *testing.T, name string, st *store, seen map[uint64]bool) {
	t.Helper()
	var prev uint64
	n := 0
	for i, fp := range st.ftable {
		if fp == 0 {
			continue
		}
		n++
		if fp <= prev {
			t.Fatalf("%s: slot %d holds %#x after %#x", name, i, fp, prev)
		}
		prev = fp
		if !seen[fp] {
			t.Fatalf("%s: slot %d holds %#x, never inserted", name, i, fp)
		}
		h := slot(fp, st.fsize)
		if h > i {
			t.Fatalf("%s: %#x at slot %d before its home %d", name, fp, i, h)
		}
		for j := h; j < i; j++ {
			if st.ftable[j] == 0 {
				t.Fatalf("%s: empty slot %d between %#x's home %d and its slot %d", name, j, fp, h, i)
			}
		}
	}
	if n != len(seen) {
		t.Errorf("%s: %d fingerprints in the table, %d inserted", name, n, len(seen))
	}
	if load := float64(n) / float64(st.fsize); load > 0.8 || load < 0.5 {
		t.Errorf("%s: load %.2f", name, load)
	}
}
