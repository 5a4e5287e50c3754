package m68hc11

import "testing"

// TestVectors: every named vector is found by its name, in any case, and
// sits where the manual puts it.
func TestVectors(t *testing.T) {
	for _, c := range []struct {
		name string
		i    int
		addr uint16
	}{
		{"sci", VecSCI, 0xFFD6}, {"TOC1", VecTOC1, 0xFFE8}, {"tic4", VecTOC5, 0xFFE0},
		{"irq", VecIRQ, 0xFFF2}, {"xirq", VecXIRQ, 0xFFF4}, {"swi", VecSWI, 0xFFF6},
		{"illop", VecIllegal, 0xFFF8}, {"reset", VecReset, 0xFFFE},
	} {
		i, ok := VectorIndex(c.name)
		if !ok || i != c.i || VectorAddr(i) != c.addr {
			t.Errorf("VectorIndex(%q) = %d, %v (0x%04X); want %d at 0x%04X", c.name, i, ok, VectorAddr(i), c.i, c.addr)
		}
	}
	for i := 0; i < NumVectors; i++ {
		names := VectorNames(i)
		if (i < VecSCI) != (len(names) == 0) {
			t.Errorf("vector %d: names %v", i, names)
		}
		for _, n := range names {
			if j, ok := VectorIndex(n); !ok || j != i {
				t.Errorf("VectorIndex(%q) = %d, %v; want %d", n, j, ok, i)
			}
		}
	}
	if _, ok := VectorIndex("toc6"); ok || VectorName(-1) != "" || VectorName(NumVectors) != "" {
		t.Error("unknown names and indexes must not resolve")
	}
	if VectorAddr(VecReset) != 0xFFFE || VectorAddr(0) != VectorBase {
		t.Error("table placement")
	}
}
