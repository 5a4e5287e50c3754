package sim

import "testing"

// TestWriteMem: WriteMem changes the state it is given and no other that
// shares the page, and refuses read-only memory.
func TestWriteMem(t *testing.T) {
	m := testMachine(t, []byte{0x01}, nil, nil, Config{})
	s := m.Initial()
	s.Freeze()
	c := s.Clone()
	if !m.WriteMem(c, 0x0010, 0xab) || m.ReadMem(c, 0x0010) != 0xab || m.ReadMem(s, 0x0010) != 0 {
		t.Fatalf("after WriteMem: clone %02x, original %02x", m.ReadMem(c, 0x0010), m.ReadMem(s, 0x0010))
	}
	if m.WriteMem(c, 0xd000, 0) || m.ReadMem(c, 0xd000) != 0x01 {
		t.Fatal("WriteMem wrote ROM")
	}
	if !c.MayRun(0) || !m.SchedPoint(c, 0) || m.IsGoal(0xd000) || m.HookAt(0xd000) != 0 {
		t.Fatal("the exports disagree with the machine")
	}
}
