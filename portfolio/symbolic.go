package portfolio

import (
	"context"
	"fmt"
	"github.com/hc11mc/hc11mc/verdict"
	"strings"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
)

// The symbolic member: HMC (package symbolic) racing the explicit
// searches where the firmware draws nondeterministic data. The package
// doc says when it runs, why it is HMC and not --engine auto, and why
// its verdict may decide the swarm's; symbolicResult is the rule.

// SymbolicMember says whether a racing swarm of the check cfg on img,
// whose member 0 runs on the machine m, may have a symbolic member and,
// when it may not, why: it may where the firmware draws nondeterministic
// data — some code calls __mc_nondet, or --input makes an address an
// input — and the symbolic engine models the machine (not the chip's
// peripherals, whose SCI input and other events it does not follow, nor
// board hardware, nor timing properties).
func SymbolicMember(img *loader.Image, cfg check.Config, m *sim.Machine) (ok bool, why string) {
	switch {
	case cfg.Machine.Timing.On():
		return false, "the symbolic engine does not check timing properties"
	case m.HasDevice() || len(m.Config.Board) > 0:
		return false, "the symbolic engine does not model the chip's peripherals or board hardware"
	case len(m.Config.Inputs) > 0:
		return true, ""
	case m.HasHook[loader.StubNondet] && calls(img, m.HookAddr[loader.StubNondet]):
		return true, ""
	}
	return false, "the firmware draws no nondeterministic data (no call of __mc_nondet, no --input)"
}

// calls says whether some code of img may call or jump to addr: whether
// the image holds addr as a 16-bit word (the operand of JSR, JMP or LDX
// #, an entry of a table of routines) or, where a relative branch or BSR
// could reach addr, the byte of one with the offset to it. Data that
// happen to look like either make a false positive, which costs a member
// that is not needed; an indirect call to an address the firmware
// computes is not seen, which costs a member that would have helped:
// time either way, never a verdict.
func calls(img *loader.Image, addr uint16) bool {
	for _, s := range img.Segments {
		for i := 0; i+1 < len(s.Data); i++ {
			at := s.Addr + uint16(i)
			op, next := s.Data[i], s.Data[i+1]
			switch {
			case op == byte(addr>>8) && next == byte(addr):
				return true
			case (op == 0x8D || op&0xF0 == 0x20) && at+2+uint16(int8(next)) == addr:
				return true // BSR, BRA or Bcc to addr
			}
		}
	}
	return false
}

// engine is the member's engine: its explicit search with the options
// opts, or for the symbolic member HMC, which takes their Progress only
// and gives its result as the swarm takes it (symbolicResult).
func (r *Run) engine(opts search.Options) check.Engine {
	if r.Member.Engine == "" {
		e := r.Check.Explicit()
		e.Options = opts
		return e
	}
	s := r.Check.Symbolic()
	if p := opts.Progress; p != nil {
		s.Config.Progress = func(s symbolic.Stats) {
			p(search.Progress{Stored: s.States, Expanded: s.Images + s.Unrolled, Depth: s.MaxDepth, Frontier: s.Frontier,
				Memory: s.PeakMemory, Elapsed: s.Elapsed})
		}
	}
	return symbolicMember{s}
}

// symbolicMember is HMC as the swarm's symbolic member.
type symbolicMember struct{ *check.Symbolic }

// Run runs HMC and takes its result by the rule of symbolicResult.
func (s symbolicMember) Run(ctx context.Context) (*check.Result, error) {
	res, err := s.Symbolic.Run(ctx)
	return symbolicResult(s.Check, res, err)
}

// symbolicResult is the symbolic member's result res (err, the engine's
// error) on the check cs as the swarm takes it, the rule that lets it
// decide (docs/soundness.md, "When the swarm's symbolic member decides",
// has the argument):
//
//   - a violation decides only once its counterexample has replayed on
//     the simulator, on the member's machine (check.FromSymbolic, as
//     --engine hmc does) and on the machine without reductions
//     (replaysPlain, as the swarm's self-check does); one that does not
//     replay is a bug in hc11mc: the result is incomplete and the error
//     a *check.NotReplayed, which decides nothing and which the check
//     reports as an internal error;
//   - verified decides only when the symbolic engine checks every
//     property the check checks (check.SymbolicChecks); otherwise the
//     result is incomplete and its limit says which properties the proof
//     leaves out;
//   - incomplete decides nothing.
func symbolicResult(cs *check.Check, res *check.Result, err error) (*check.Result, error) {
	if err == nil && res.Verdict == check.Violated && !replaysPlain(cs.Machine, res.Found[0]) {
		f := res.Found[0]
		err = &check.NotReplayed{Kind: f.Violation.Kind, Err: fmt.Errorf("on the machine without reductions, its %d steps do not end in %s at 0x%04X",
			len(f.Trace), f.Violation.Kind, f.Violation.PC)}
		res.Verdict, res.Found = check.Incomplete, nil
	}
	if err != nil {
		if res == nil {
			res = &check.Result{Verdict: check.Incomplete}
		}
		res.Verdict, res.Limit, res.Found = check.Incomplete, verdict.Stop{}, nil
		return res, err
	}
	if res.Verdict == check.Verified {
		if left := notSymbolic(cs.Properties.Checked); len(left) > 0 {
			res.Verdict = check.Incomplete
			res.Limit = verdict.Because(fmt.Sprintf("HMC found no violation, but it does not check %s, which this check does: its proof does not decide",
				strings.Join(left, ", ")))
		}
	}
	return res, nil
}

// notSymbolic lists the properties of checked that the symbolic engine
// does not check.
func notSymbolic(checked []string) []string {
	var left []string
	for _, p := range checked {
		if k, ok := sim.ParseKind(p); !ok || !check.SymbolicChecks(k) {
			left = append(left, p)
		}
	}
	return left
}
