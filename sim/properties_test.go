package sim

import (
	"slices"
	"strings"
	"testing"
)

// TestProperties: a property counts as checked only where the firmware and
// the flags make it meaningful, and every property but reach is in one of
// the two lists.
func TestProperties(t *testing.T) {
	names := func(ks []Kind, us []Unchecked) (c, u []string) {
		for _, k := range ks {
			c = append(c, k.String())
		}
		for _, x := range us {
			u = append(u, x.Kind.String())
			if x.Reason == "" {
				t.Errorf("%s unchecked without a reason", x.Kind)
			}
		}
		return c, u
	}
	for _, tc := range []struct {
		name    string
		syms    []string
		cfg     Config
		checked string
		reason  map[string]string // unchecked property → a word of its reason
	}{
		{"no symbols", nil, Config{},
			"illegal-opcode rom-write unmapped",
			map[string]string{"assert": "no symbols", "error": "no symbols", "deadlock": "no symbols", "mutex": "no symbols", "unlock": "no symbols", "stack": "--stack", "watchdog": "peripherals"}},
		{"assert only", []string{"__mc_assert", "main"}, Config{},
			"assert deadlock illegal-opcode rom-write unmapped",
			map[string]string{"error": "defines no __mc_error", "mutex": "__mc_cs_enter", "unlock": "__mc_unlock", "stack": "--stack", "watchdog": "peripherals"}},
		{"everything", []string{"__mc_assert", "__mc_error", "__mc_cs_enter", "__mc_unlock", "goal"},
			Config{Stacks: []StackRange{{Thread: -1, Lo: 0x100, Hi: 0x1FF}}, Reach: []uint16{0xD002}},
			"assert error deadlock mutex unlock illegal-opcode rom-write unmapped stack reach", map[string]string{"watchdog": "peripherals"}},
	} {
		syms := map[string]uint16{}
		a := uint16(0xD010)
		for _, n := range tc.syms {
			syms[n] = a
			a += 2
		}
		if tc.syms == nil {
			syms = nil
		}
		m := testMachine(t, stubBlock(0x39), nil, syms, tc.cfg)
		c, u := names(m.Properties())
		if strings.Join(c, " ") != tc.checked {
			t.Errorf("%s: checked %v, want %s", tc.name, c, tc.checked)
		}
		_, us := m.Properties()
		for _, x := range us {
			if w, ok := tc.reason[x.Kind.String()]; !ok || !strings.Contains(x.Reason, w) {
				t.Errorf("%s: %s unchecked because %q, want a reason with %q", tc.name, x.Kind, x.Reason, w)
			}
		}
		all := append(c, u...)
		for _, k := range KindNames() {
			timing := k == "max-masked" || k == "deadline" || k == "latency" // only when asked for (TestTimingProperties)
			if k != "reach" && k != "output" && !timing && !slices.Contains(all, k) {
				t.Errorf("%s: %s is in neither list", tc.name, k)
			}
		}
	}
}
