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

// TestValues: Value and Slice take any type, nil and empty included, and
// change nothing.
func TestValues(t *testing.T) {
	type thread struct {
		pc     uint16
		shadow [40]uint16
	}
	ts := []thread{{pc: 1}, {pc: 2}, {pc: 3, shadow: [40]uint16{39: 7}}}
	Value(&ts[1])
	Value[thread](nil)
	Slice(ts)
	Slice(ts[:0])
	Slice([]*thread(nil))
	if ts[0].pc != 1 || ts[1].pc != 2 || ts[2].pc != 3 || ts[2].shadow[39] != 7 {
		t.Errorf("memory changed: %+v", ts)
	}
}
