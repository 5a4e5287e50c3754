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

// SymbolicMember says whether a racing swarm of the check cfg on img has
// a symbolic member and, when it has none, why: it has one where the
// firmware draws nondeterministic data — some code calls __mc_nondet, or
// --input makes an address an input — and the symbolic engine models the
// machine (not the chip's peripherals, whose SCI input and other events
// it does not follow, nor board hardware). The error is the machine's,
// which check.New would give too.
func SymbolicMember(img *loader.Image, cfg check.Config) (ok bool, why string, err error) {
	mc := cfg.Machine
	mc.Dead = false // (its analysis takes milliseconds)
	m, err := check.NewMachine(img, mc)
	if err != nil {
		return false, "", err
	}
	switch {
	case m.HasTiming():
		return false, "the symbolic engine does not check timing properties", nil
	case m.HasDevice() || len(m.Config.Board) > 0:
		return false, "the symbolic engine does not model the chip's peripherals or board hardware", nil
	case len(m.Config.Inputs) > 0:
		return true, "", nil
	case m.HasHook[loader.StubNondet] && calls(img, m.HookAddr[loader.StubNondet]):
		return true, "", nil
	}
	return false, "the firmware draws no nondeterministic data (no call of __mc_nondet, no --input)", nil
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

// search runs the member's search, or for the symbolic member HMC, with
// the explicit search's options opts (the symbolic member takes their
// Progress only) until it ends or ctx is done. hmc are HMC's statistics,
// nil for an explicit member.
func (r *Run) search(ctx context.Context, opts search.Options) (res *search.Result, hmc *symbolic.Stats) {
	if r.Member.Engine == "" {
		return search.Run(ctx, r.Check.Machine, opts), nil
	}
	e, err := r.Check.SymbolicEngine()
	if err != nil {
		return &search.Result{Verdict: search.Incomplete, Err: err}, nil
	}
	cfg := r.Check.SymbolicConfig()
	if p := opts.Progress; p != nil {
		cfg.Progress = func(s symbolic.Stats) {
			p(search.Progress{Stored: s.States, Expanded: s.Images + s.Unrolled, Depth: s.MaxDepth, Frontier: s.Frontier,
				Memory: s.PeakMemory, Elapsed: s.Elapsed})
		}
	}
	sr := e.Check(ctx, []*symbolic.State{e.Initial()}, cfg)
	return symbolicResult(r.Check, &sr), &sr.Stats
}

// symbolicResult is the symbolic member's result sr on the check cs as
// the swarm takes it, the rule that lets it decide (the package doc has
// the argument):
//
//   - a violation decides only once its counterexample has replayed on
//     the simulator, on the member's machine (check.FromSymbolic, as
//     --engine hmc does) and on the machine without reductions
//     (replaysPlain, as the swarm's self-check does); one that does not
//     replay is a bug in hc11mc: the result is incomplete, its Err a
//     *check.NotReplayed, which decides nothing and which the check
//     reports as an internal error;
//   - verified decides only when the symbolic engine checks every
//     property the check checks (check.SymbolicChecks); otherwise the
//     result is incomplete and its limit says which properties the proof
//     leaves out;
//   - incomplete decides nothing.
func symbolicResult(cs *check.Check, sr *symbolic.Result) *search.Result {
	cr, err := check.FromSymbolic(cs.Machine, sr)
	if err == nil && cr.Verdict == check.Violated && !replaysPlain(cs.Machine, cr.Found[0]) {
		err = &check.NotReplayed{Kind: sr.Violation.Kind, Err: fmt.Errorf("on the machine without reductions, its %d steps do not end in %s at 0x%04X",
			len(sr.Trace), sr.Violation.Kind, sr.Violation.PC)}
	}
	if err != nil {
		st := sr.Stats
		return &search.Result{Verdict: search.Incomplete, Err: err, Stats: search.Stats{StatesStored: st.States,
			StatesExpanded: st.Images + st.Unrolled, MaxDepth: st.MaxDepth, Seconds: st.Elapsed.Seconds(), PeakMemory: st.PeakMemory}}
	}
	res := &search.Result{Verdict: search.Incomplete, Limit: cr.Limit, Found: cr.Found, Stats: cr.Stats, Privacy: cr.Privacy}
	switch cr.Verdict {
	case check.Violated:
		res.Verdict = search.Violated
	case check.Verified:
		if left := notSymbolic(cs.Properties.Checked); len(left) > 0 {
			res.Limit = verdict.Because(fmt.Sprintf("HMC found no violation, but it does not check %s, which this check does: its proof does not decide",
				strings.Join(left, ", ")))
			break
		}
		res.Verdict = search.Verified
	}
	return res
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
