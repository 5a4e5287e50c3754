package verdict

import (
	"testing"
	"time"
)

// The verdicts are named as the results name them (docs/cli.md: "verdict":
// verified, violation or incomplete), and the stops as the flags that set
// their limits, with the bound in the flag's own form: a count of states,
// a duration, a size in binary units (docs/cli.md, --max-memory SIZE).
func TestNames(t *testing.T) {
	for v, want := range map[Verdict]string{Verified: "verified", Violated: "violation", Incomplete: "incomplete"} {
		if v.String() != want {
			t.Errorf("%d: %q, want %q", v, v.String(), want)
		}
	}
	for _, c := range []struct {
		s    Stop
		want string
	}{
		{Stop{}, ""},
		{MaxStates(1000000), "--max-states 1000000"},
		{Timeout(90 * time.Second), "--timeout 1m30s"},
		{MaxMemory(3 << 29), "--max-memory 1.5 GiB"},
		{Stop{Kind: StopMaxMemory, Bound: 1 << 30, Default: "75% of this machine's memory"},
			"--max-memory 1 GiB, the default: 75% of this machine's memory (set --max-memory SIZE, or none, to change it)"},
		{Stop{Kind: StopInterrupted}, "interrupted"},
		{Stop{Kind: StopPrivacy}, "stack privacy broken"},
		{Stop{Kind: StopDead}, "dead-data elimination broken"},
		{Because("no member finished"), "no member finished"},
		{MaxStates(5).In("in HMC's part"), "--max-states 5 in HMC's part"},
		{Because("a reason").In("in HMC's part"), "a reason in HMC's part"},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
		if c.s.Stopped() != (c.want != "") {
			t.Errorf("%+v: stopped %v", c.s, c.s.Stopped())
		}
	}
}
