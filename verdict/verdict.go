// Package verdict is what every engine concludes, in one vocabulary: the
// Verdict of an exploration and, for an incomplete one, the Stop that
// says why it stopped — a limit of the command line with its bound
// (--max-states 1000), an interruption, a broken assumption of a
// reduction, or a reason in words.
//
// The explicit search (package search), the symbolic engine (package
// symbolic) and the check that runs either (package check) all give their
// verdicts and stops in these types, so that no layer reads another's
// text back: a Stop is made where the engine stops, kept as a value while
// the result travels up, and rendered as flag text (Stop.String) only
// where a result is printed.
//
// It imports nothing of the module but its units, with which a memory
// limit is named by its size.
package verdict

import (
	"fmt"
	"time"

	"github.com/hc11mc/hc11mc/internal/units"
)

// Verdict is what an exploration concludes, whichever engine explored.
type Verdict uint8

// The verdicts: no violation in any reachable state (the exploration was
// exhaustive), a violation found, or the exploration stopped before
// either (its Stop says why). The command line maps them to the exit
// codes 0, 1 and 3.
const (
	Verified Verdict = iota
	Violated
	Incomplete
)

// String is the verdict as the results name it: verified, violation,
// incomplete.
func (v Verdict) String() string { return [...]string{"verified", "violation", "incomplete"}[v] }

// StopKind is why an exploration stopped.
type StopKind uint8

// The kinds of stop. StopMaxStates, StopTimeout and StopMaxMemory are
// the limits of the flags of the same names, with their bound;
// StopInterrupted an interrupt, or the swarm stopping a member;
// StopPrivacy and StopDead a broken assumption of partial-order reduction
// (a stack's privacy) or of dead-data elimination; StopHanded a search
// that followed every transition but those it handed to another engine
// (choices wider than its MaxBranch); StopOther any other reason, in
// words (Stop.Text).
const (
	StopNone StopKind = iota
	StopMaxStates
	StopTimeout
	StopMaxMemory
	StopInterrupted
	StopPrivacy
	StopDead
	StopHanded
	StopOther
)

// Stop says why an exploration stopped; the zero value is no stop.
type Stop struct {
	Kind StopKind
	// Bound is the limit's: states for StopMaxStates, nanoseconds for
	// StopTimeout, bytes for StopMaxMemory; 0 for the other kinds.
	Bound int64
	// Text is StopOther's reason; for the other kinds, when not "", the
	// words that follow the stop's name (where it applied).
	Text string
	// Default says, for a memory limit that was the default rather than
	// --max-memory's, what it is a share of; "" otherwise.
	Default string
}

// MaxStates is the stop of --max-states n.
func MaxStates(n int) Stop { return Stop{Kind: StopMaxStates, Bound: int64(n)} }

// Timeout is the stop of --timeout d.
func Timeout(d time.Duration) Stop { return Stop{Kind: StopTimeout, Bound: int64(d)} }

// MaxMemory is the stop of --max-memory of n bytes.
func MaxMemory(n int64) Stop { return Stop{Kind: StopMaxMemory, Bound: n} }

// Because is a stop for a reason in words.
func Because(text string) Stop { return Stop{Kind: StopOther, Text: text} }

// Stopped reports whether s is a stop (not the zero value).
func (s Stop) Stopped() bool { return s.Kind != StopNone }

// In is s with where it applied said after it ("in HMC's part").
func (s Stop) In(where string) Stop {
	if s.Text != "" {
		where = s.Text + " " + where
	}
	s.Text = where
	return s
}

// String renders the stop as the results print it: a limit as its flag
// with its bound ("--max-states 1000", "--timeout 5s", "--max-memory 1.5
// GiB"), and "" for no stop.
func (s Stop) String() string {
	var name string
	switch s.Kind {
	case StopNone:
		return ""
	case StopMaxStates:
		name = fmt.Sprintf("--max-states %d", s.Bound)
	case StopTimeout:
		name = fmt.Sprintf("--timeout %v", time.Duration(s.Bound))
	case StopMaxMemory:
		name = "--max-memory " + units.Size(s.Bound)
		if s.Default != "" {
			name += ", the default: " + s.Default + " (set --max-memory SIZE, or none, to change it)"
		}
	case StopInterrupted:
		name = "interrupted"
	case StopPrivacy:
		name = "stack privacy broken"
	case StopDead:
		name = "dead-data elimination broken"
	case StopHanded:
		name = "choices wider than the machine's MaxBranch were not followed"
	case StopOther:
		return s.Text
	}
	if s.Text != "" {
		name += " " + s.Text
	}
	return name
}
