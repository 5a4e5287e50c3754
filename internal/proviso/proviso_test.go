package proviso

import "testing"

// The flags' life: a state tried is refused as its own successor; one
// expanded in full is accepted; one not yet expanded is accepted and
// must then be expanded in full, and Try refuses to reduce it.
func TestFlags(t *testing.T) {
	var v uint8
	if !Try(&v) || Accept(&v) {
		t.Fatalf("a state being reduced: Try then Accept of itself gave flags %03b", v)
	}
	Expand(&v)
	if !Accept(&v) || v != Expanded {
		t.Fatalf("a state expanded in full: flags %03b", v)
	}
	var w uint8
	if !Accept(&w) || w != Full {
		t.Fatalf("a state not expanded yet: flags %03b, want Full", w)
	}
	if Try(&w) {
		t.Fatal("a state marked Full was reduced")
	}
	Expand(&w)
	if !Accept(&w) {
		t.Fatalf("a state expanded in full after its mark: flags %03b", w)
	}
	if !Try(nil) {
		t.Fatal("without flags (a compact store) every state may be reduced")
	}
	Expand(nil)
}
