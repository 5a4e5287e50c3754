package prefetch

import "testing"

// TestHarmless: a prefetch changes nothing it points at, and neither an
// empty slice nor a nil one faults.
func TestHarmless(t *testing.T) {
	w := []uint64{1, 2, 3}
	b := []byte("abc")
	for i := range w {
		Word(&w[i])
	}
	Bytes(b)
	Bytes(b[3:])
	Bytes(nil)
	if w[0] != 1 || w[1] != 2 || w[2] != 3 || string(b) != "abc" {
		t.Errorf("memory changed: %v %q", w, b)
	}
}

// TestNoAllocs: the hint is free of allocations, for the search's hot loop.
func TestNoAllocs(t *testing.T) {
	w := make([]uint64, 1024)
	b := make([]byte, 64)
	if n := testing.AllocsPerRun(100, func() {
		Word(&w[512])
		Bytes(b)
	}); n != 0 {
		t.Errorf("%v allocations per call", n)
	}
}
