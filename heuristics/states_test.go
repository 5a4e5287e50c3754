package heuristics

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// TestStateEstimate: on the philosophers the deadlock estimate of a state
// is the per-thread estimates combined over its live threads, read from
// their stacks; an aim without a target is ErrNoTarget; hamming counts the
// differing bits of its goal bytes and refuses read-only ones.
func TestStateEstimate(t *testing.T) {
	img, err := loader.Load(filepath.Join("..", "testdata", "examples", "philosophers.elf"), loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := sim.NewMachine(img, sim.Config{Entry: img.Entry})
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewStateEstimate(m, StateConfig{Kind: EFSM, K: 1})
	if err != nil {
		t.Fatal(err)
	}
	if e.Aim() != "deadlock" {
		t.Errorf("aims at %s, want deadlock (the philosophers call no __mc_error or __mc_assert)", e.Aim())
	}
	// Walk a few transitions and compare with the per-thread estimates.
	s := m.Initial()
	for step := 0; step < 40; step++ {
		var dists []int
		for i := range s.Threads {
			if s.Threads[i].Status != sim.Exited {
				dists = append(dists, e.Heuristic().Estimate(s.Threads[i].PC, m.Returns(s, i, nil)))
			}
		}
		if got, want := e.Estimate(s), Combine(Deadlock, dists); got != want {
			t.Fatalf("step %d: estimate %d, want %d", step, got, want)
		}
		if c := e.Clone().Estimate(s); c != e.Estimate(s) {
			t.Fatalf("step %d: the clone estimates %d", step, c)
		}
		succ, _ := m.Successors(s, nil, nil)
		if len(succ) == 0 {
			break
		}
		s = succ[len(succ)-1].State
	}
	if _, err := NewStateEstimate(m, StateConfig{Kind: EFSM, Aims: []Property{Error}}); !errors.Is(err, ErrNoTarget) {
		t.Errorf("aim at error: %v, want ErrNoTarget", err)
	}
	if _, err := NewStateEstimate(m, StateConfig{Kind: FSM, Reach: "nosuch"}); !errors.Is(err, ErrUnknownSymbol) {
		t.Errorf("reach nosuch: %v, want ErrUnknownSymbol", err)
	}
	ram := uint16(0x0000)
	h, err := NewStateEstimate(m, StateConfig{Kind: Hamming, GoalAddrs: []uint16{ram}, GoalBytes: []byte{0x81}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := h.Estimate(m.Initial()), popcount8[m.ReadMem(m.Initial(), ram)^0x81]; got != want {
		t.Errorf("hamming: %d, want %d", got, want)
	}
	if _, err := NewStateEstimate(m, StateConfig{Kind: Hamming, GoalAddrs: []uint16{img.Entry}, GoalBytes: []byte{0}}); err == nil {
		t.Error("hamming aims at ROM without complaint")
	}
}
