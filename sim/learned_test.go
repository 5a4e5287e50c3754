package sim

import (
	"reflect"
	"testing"
)

// TestLearnedRestore: what a machine learned (a shrunk region, a byte
// relied on, a pulled address, privacy withdrawn) is restored on a fresh
// machine of the same image exactly, and decides there as it did: the
// region is as shrunk, and an intrusion into the relied-on byte is
// recorded. Facts no machine could have learned are refused, leaving the
// machine as it was.
func TestLearnedRestore(t *testing.T) {
	code := at(0x20, 0x10, []byte{0xB7, 0x01, 0xC0}) // thread 1: staa $01C0
	m, _ := privateMachine(t, code)
	m.learn(0x01A0)
	m.rely(0x01B0, 0x01FF)
	m.pulled(0x0170)
	l := m.Learned()

	fresh, fs := privateMachine(t, code)
	if err := fresh.Restore(l); err != nil {
		t.Fatal(err)
	}
	if got := fresh.Learned(); !reflect.DeepEqual(got, l) {
		t.Fatalf("restored %+v, saved %+v", got, l)
	}
	if r, _ := fresh.regionOf(fs, 0); r != (region{0x01A0, 0x01FF}) {
		t.Errorf("restored region %04X-%04X, want 01A0-01FF", r.lo, r.hi)
	}
	if fresh.lowPulled.Load() != 0x0171 {
		t.Errorf("restored pull mark %04X", fresh.lowPulled.Load())
	}
	out, _ := successors(fresh, fs)
	pick(t, out, 1, -1)
	if fresh.Intrusion() == nil {
		t.Error("the restored reliance on 0x01B0 did not make the store at 0x01C0 an intrusion")
	}

	for _, bad := range []func(l *Learned){
		func(l *Learned) { l.Privacy = 7 },
		func(l *Learned) { l.Bounds = []uint16{0x0200, 0x0100} },
		func(l *Learned) { l.Relied = []uint32{0x0150<<17 | 0x20000} },
		func(l *Learned) { l.Relied = []uint32{0x0150<<17 | 0x0200, 0x0140<<17 | 0x0200} },
		func(l *Learned) { l.HeldAddrs = l.HeldAddrs[:3] },
		func(l *Learned) { l.LowPulled = 0x10001 },
	} {
		b := m.Learned()
		bad(&b)
		other, _ := privateMachine(t, code)
		before := other.Learned()
		if err := other.Restore(b); err == nil {
			t.Errorf("restored %+v", b)
		} else if !reflect.DeepEqual(other.Learned(), before) {
			t.Errorf("a refused restore changed the machine")
		}
	}
}
