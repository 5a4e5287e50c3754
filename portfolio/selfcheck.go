package portfolio

import (
	"cmp"
	"fmt"
	"sort"
	"strings"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// The swarm checks itself. Every member searches the same state space
// completely, so two members cannot both be right when one ends its search
// exhaustively (verified) and another finds a violation whose
// counterexample replays on the simulator with no reduction (the machine
// `hc11mc replay` builds): the violation is real, and the member that
// proved verified missed the states leading to it, through an unsound
// reduction or search of hc11mc. The swarm then reports the violation,
// with its counterexample, as an internal error (exit 4), and names both
// members' settings so that each can be repeated alone.
//
// In one process (Swarm.Run) every member has stopped before the check: those
// the winner stopped at their next expansion are incomplete, but a member
// that decided at nearly the same time as the winner keeps its verdict,
// and so its violation or its proof is compared too. Merge compares the
// final results of all the members it is given; it replays a violation
// from the trace file its member wrote (check --trace), and says so when
// there is none, or when it cannot be read: the contradiction is then
// reported as a warning, not confirmed.
//
// What is not a contradiction: a member stopped by a limit (incomplete)
// beside a violation; the board member's proof, which holds for its model
// only (board.go), beside another member's violation; a violation that
// does not replay (handled as
// without the check). A member whose reductions' assumptions broke
// searched again without them (search.Run), so its verified verdict
// stands on its own like any other.

// Settings are what repeats one member of a swarm: its search, the
// reductions and engine it ran with, and --swarm-member I/N with the
// swarm's --seed (with the rest of the command line as it was).
type Settings struct {
	Member     string   `json:"member"` // as results name it: "1/4 (dfs)"
	Search     string   `json:"search"`
	Heuristic  string   `json:"heuristic,omitempty"`
	K          int      `json:"k,omitempty"`
	RandomSeed uint64   `json:"random_seed,omitempty"`
	Shuffle    uint64   `json:"shuffle,omitempty"`
	Reductions []string `json:"reductions"`
	Engine     string   `json:"engine"`
	Preempt    string   `json:"preempt"`
	Seed       uint64   `json:"seed"` // the swarm's --seed
	Repeat     string   `json:"repeat"`
}

// SettingsOf returns the settings of a member run in this process, in a
// swarm with --seed seed.
func SettingsOf(r *Run, seed uint64) Settings {
	sm := r.Member
	s := Settings{Member: sm.String(), Search: sm.Search, Heuristic: sm.Heuristic, K: sm.K, RandomSeed: sm.Seed,
		Shuffle: sm.Shuffle, Reductions: append([]string{}, r.Check.Properties.Reductions...), Engine: cmp.Or(sm.Engine, "explicit"),
		Preempt: r.Check.Machine.Config.Preempt.String(), Seed: seed}
	s.Repeat = fmt.Sprintf("--swarm-member %d/%d --seed %d", sm.Index, sm.Size, seed)
	return s
}

// line is the settings on one line, for the message.
func (s Settings) line() string {
	var parts []string
	if s.Search != "" {
		parts = append(parts, "search "+s.Search)
	}
	if s.Heuristic != "" {
		parts = append(parts, "heuristic "+s.Heuristic)
	}
	if s.K > 0 {
		parts = append(parts, fmt.Sprintf("k %d", s.K))
	}
	if s.RandomSeed != 0 {
		parts = append(parts, fmt.Sprintf("random seed %d", s.RandomSeed))
	}
	if s.Shuffle != 0 {
		parts = append(parts, fmt.Sprintf("shuffle %d", s.Shuffle))
	}
	if s.Reductions != nil {
		red := strings.Join(s.Reductions, ",")
		if red == "" {
			red = "none"
		}
		parts = append(parts, "reductions "+red)
	}
	if s.Engine != "" {
		parts = append(parts, "engine "+s.Engine)
	}
	if s.Preempt != "" {
		parts = append(parts, "preempt "+s.Preempt)
	}
	text := "member " + s.Member
	if len(parts) > 0 {
		text += ": " + strings.Join(parts, ", ")
	}
	return text + fmt.Sprintf("; repeat it alone with check FIRMWARE %s and the same flags", s.Repeat)
}

// InternalError is a result's "internal_error": two members that
// contradict each other.
type InternalError struct {
	Message    string   `json:"message"`
	VerifiedBy Settings `json:"verified_by"`
	ViolatedBy Settings `json:"violated_by"`
}

// newInternalError says that the member of settings proof searched
// exhaustively while the one of settings viol found a violation of kind
// that replays; omission is the proof's hash-compaction bound.
func newInternalError(proof, viol Settings, kind string, omission float64) *InternalError {
	msg := fmt.Sprintf("internal error: the swarm contradicts itself: member %s searched every reachable state and found no violation, "+
		"but member %s found a violation (%s) whose counterexample replays on the simulator without reductions; "+
		"the search of member %s missed states, which is a bug in hc11mc (an unsound reduction or search)", proof.Member, viol.Member, kind, proof.Member)
	if omission > 0 {
		msg += fmt.Sprintf(", unless hash compaction missed them (probability ≤ %.3g)", omission)
	}
	msg += ". The verdict is the violation. Please report this to the hc11mc maintainers with the firmware, the command line and the two members' settings."
	return &InternalError{Message: msg, VerifiedBy: proof, ViolatedBy: viol}
}

// Text is the error as stderr shows it: the message and both members'
// settings.
func (e *InternalError) Text() string {
	return e.Message + "\n  verified by " + e.VerifiedBy.line() + "\n  violated by " + e.ViolatedBy.line()
}

// Conflict names two members of a swarm in one process that contradict
// each other, by their index in the runs.
type Conflict struct {
	Verified, Violated int
}

// selfCheck compares the final results of the members (all stopped) and
// returns the first contradiction it confirms, or nil: a member whose
// verified verdict stands, and a member whose violation replays on the
// machine without reductions. The proof is the winner's when it is one;
// the violation the winner's when it is one, else that of the member that
// expanded the fewest states.
func selfCheck(runs []*Run, winner int) *Conflict {
	proof := -1
	var viols []int
	for i, r := range runs {
		if r.Result == nil {
			continue
		}
		if r.Err == nil && r.Result.Verdict == check.Verified && !r.Member.Board && (proof < 0 || i == winner) {
			proof = i
		}
		if r.Err == nil && r.Result.Verdict == check.Violated && len(r.Result.Found) > 0 {
			viols = append(viols, i)
		}
	}
	if proof < 0 || len(viols) == 0 {
		return nil
	}
	sort.SliceStable(viols, func(a, b int) bool {
		i, j := viols[a], viols[b]
		if (i == winner) != (j == winner) {
			return i == winner
		}
		return runs[i].Result.Stats.StatesExpanded < runs[j].Result.Stats.StatesExpanded
	})
	for _, i := range viols {
		if replaysPlain(runs[i].Check.Machine, runs[i].Result.Found[0]) {
			return &Conflict{Verified: proof, Violated: i}
		}
	}
	return nil
}

// replaysPlain says whether f's counterexample leads to its violation on
// m without reductions: no dead-data elimination (of registers or stack
// bytes), every choice enumerated; the machine replay builds from a trace
// file.
func replaysPlain(m *sim.Machine, f search.Found) bool {
	cfg := m.Config
	cfg.Dead, cfg.DeadStack, cfg.MaxBranch = false, false, 0
	plain, err := sim.NewMachine(m.Image, cfg)
	if err != nil {
		return false
	}
	_, v, err := search.Replay(plain, f.Trace)
	return err == nil && v != nil && v.Kind == f.Violation.Kind && v.PC == f.Violation.PC
}

// settings returns the settings a member's result carries, or what its
// name says for a result that carries none.
func (r *MemberResult) settings() Settings {
	if r.Settings != nil {
		return *r.Settings
	}
	return Settings{Member: r.Member, Repeat: fmt.Sprintf("--swarm-member %d/%d", r.index, r.size)}
}

// selfCheck compares the members' results for Merge: when a member proved
// verified and another found a violation, the violation's trace is
// replayed on the firmware, on the machine it records (without
// reductions). A violation that replays makes m an internal error with
// that member's violation; when none can be replayed m.SelfCheck says why
// the contradiction could not be checked. viols are the members with a
// violation, the merge's winner first.
func (m *Merged) selfCheck(proof *MemberResult, viols []*MemberResult) {
	var why []string
	for _, r := range viols {
		if r.TraceFile == "" {
			why = append(why, fmt.Sprintf("member %s kept no counterexample (run its check with --trace)", r.Member))
			continue
		}
		path := r.findTrace()
		if err := m.replayTraceFile(path, r.Violation); err != nil {
			why = append(why, fmt.Sprintf("member %s's counterexample %s %v", r.Member, path, err))
			continue
		}
		m.Verdict, m.Violation, m.Member, m.TraceLength, m.TraceFile, m.Omission = "violation", r.Violation, r.Member, r.TraceLength, path, r.Omission
		m.InternalError = newInternalError(proof.settings(), r.settings(), r.Violation.Kind, proof.Omission)
		m.SelfCheck = ""
		return
	}
	m.SelfCheck = fmt.Sprintf("member %s searched every reachable state and found no violation, but %d members found one; "+
		"no counterexample could be replayed to tell which is wrong: %s", proof.Member, len(viols), strings.Join(why, "; "))
}

// replayTraceFile replays the trace file at path on the plain machine it
// records and returns nil when it ends in its violation, want's. The
// firmware's warnings join m's.
func (m *Merged) replayTraceFile(path string, want *cex.Violation) error {
	tf, img, mach, labels, err := check.OpenTrace(path)
	if img != nil {
		m.Warnings = append(m.Warnings, img.Warnings...)
	}
	if err != nil {
		return fmt.Errorf("cannot be read: %v", err)
	}
	_, v, err := search.Replay(mach, labels)
	got := ""
	if v != nil {
		got = fmt.Sprintf("%s at 0x%04X", v.Kind, v.PC)
	}
	switch {
	case err != nil:
		return fmt.Errorf("does not replay: %v", err)
	case v == nil:
		return fmt.Errorf("does not replay: no violation at the end")
	case tf.Violation != nil && got != tf.Violation.Kind+" at "+tf.Violation.PC:
		return fmt.Errorf("does not replay: got %s, the trace says %s at %s", got, tf.Violation.Kind, tf.Violation.PC)
	case want != nil && got != want.Kind+" at "+want.PC:
		return fmt.Errorf("is not the member's: it ends in %s, the member found %s at %s", got, want.Kind, want.PC)
	}
	return nil
}
