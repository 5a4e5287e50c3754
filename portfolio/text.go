package portfolio

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/internal/units"
	"github.com/hc11mc/hc11mc/loader"
)

// The text of a swarm's results: which member decided and what each did
// (Decision.WriteMembers), and the merged results of swarm merge
// (Merged.WriteText). The JSON forms are Summary and Merged themselves.

// WriteText writes the merged result as text: the verdict, what the
// members covered together (against the ICFG of img, the firmware they
// checked, when not nil) and a line per member. trace names the file the
// winning counterexample was copied to, if any.
func (m *Merged) WriteText(w io.Writer, rs []*MemberResult, trace string, img *loader.Image) {
	fmt.Fprintf(w, "swarm of %d: %d results", m.Size, len(rs))
	if len(m.Missing) > 0 {
		fmt.Fprintf(w, ", none from member %s", joinInts(m.Missing))
	}
	fmt.Fprintln(w)
	switch m.Verdict {
	case "violation":
		v := m.Violation
		fmt.Fprintf(w, "violation: %s\n  thread %d at %s: %s\n", v.Kind, v.Thread, v.PC, v.Message)
		if v.Instruction != "" {
			fmt.Fprintf(w, "  %s\n", v.Instruction)
		}
		fmt.Fprintf(w, "found by member %s: counterexample of %d transitions", m.Member, m.TraceLength)
		switch {
		case trace != "":
			fmt.Fprintf(w, " in %s (hc11mc replay %s)", trace, trace)
		case m.TraceFile != "":
			fmt.Fprintf(w, " in %s (hc11mc replay %s)", m.TraceFile, m.TraceFile)
		}
		fmt.Fprintln(w)
	case "verified":
		fmt.Fprintf(w, "verified: member %s searched every reachable state and found no violation\n", m.Member)
		check.WriteHeld(w, m.Held)
	default:
		fmt.Fprintf(w, "incomplete: %s\n", m.Limit)
		fmt.Fprintf(w, "  covered: %d states stored by the members, depth %d, %s\n", m.Stats.StatesStored, m.Stats.MaxDepth, m.coverage(rs, img))
		check.WriteHeld(w, m.Held)
	}
	for _, s := range m.Members {
		fmt.Fprintf(w, "  %s\n", s.Line())
	}
}

// coverage says how much code the members reached together, against the
// ICFG of img when it is not nil.
func (m *Merged) coverage(rs []*MemberResult, img *loader.Image) string {
	if img == nil {
		return fmt.Sprintf("%d distinct PCs reached", m.CoveredPCs)
	}
	covered := map[uint16]bool{}
	for _, r := range rs {
		for _, pc := range r.CoveredPCs {
			covered[uint16(pc)] = true
		}
	}
	text := check.Coverage(img, covered)
	if never := check.Uncovered(img, covered); len(never) > 0 {
		text += "; procedures never entered: " + strings.Join(never, ", ")
	}
	return text
}

func joinInts(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, ", ")
}

// WriteMembers says which member decided and what each did, in a swarm
// of size members, or of the one member that ran alone (single).
func (d *Decision) WriteMembers(w io.Writer, size int, single bool) {
	out := d.outcome
	if single {
		fmt.Fprintf(w, "swarm member %s (hc11mc swarm merge combines the members' --json results)\n", out.Runs[0].Member)
		return
	}
	if r := d.Winner; r != nil {
		st := r.Result.Stats
		switch {
		case r.Result.Verdict == check.Violated:
			fmt.Fprintf(w, "found by member %s after %s of its states in %.2fs; repeat it alone with --swarm-member %d/%d\n",
				r.Member, units.Count(int64(st.StatesStored)), st.Seconds, r.Member.Index, size)
		case d.Bounded:
			fmt.Fprintf(w, "explored within the bounds by member %s, which searched all %s states they allow\n", r.Member, units.Count(int64(st.StatesStored)))
		case r.Member.Engine != "":
			fmt.Fprintf(w, "verified by member %s, which covered every path for every value of every nondeterministic choice (%s symbolic states)\n",
				r.Member, units.Count(int64(st.StatesStored)))
		default:
			fmt.Fprintf(w, "verified by member %s, which searched all %s reachable states\n", r.Member, units.Count(int64(st.StatesStored)))
		}
	}
	for _, s := range d.Summaries() {
		fmt.Fprintf(w, "  %s\n", s.Line())
	}
}
