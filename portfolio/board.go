package portfolio

import (
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/settings"
	"github.com/hc11mc/hc11mc/sim"
)

// The board member: the environment a firmware engineer means, beside
// the over-approximating members. On firmware (BoardMember says when) the
// default swarm's member 1 is a breadth-first search of the machine under
// the exact clock (the timer, the real-time interrupt, the COP and the
// SCI's line counted in E cycles) with input as a person or a host sends
// it: each byte at the first state, after reset or after the byte before
// it, at which the firmware waits with its output gone — or no byte after
// that (sim.Config.SCIFirstWait; check --clock exact --sci-timing first).
// Start-up then runs in batches to the first wait for input, and each
// wait offers one byte of --sci-input at one moment, where the
// over-approximating members let a byte or a timer event come at every
// instruction.
//
// Its model is a restriction of theirs: every execution it explores is
// one of the exact clock's, and the exact clock's are among the abstract
// clock's. So:
//
//   - its violation decides the race as any member's does: its
//     counterexample replays under that model (the trace file records
//     --clock exact --sci-timing first, which hc11mc replay rebuilds),
//     and it is an execution of the board, within the exact clock's
//     conditions, which the result lists;
//   - its exhaustive end proves nothing of the other members' models: it
//     does not decide the race while another member runs, and when every
//     other member has stopped without deciding, the check is
//     incomplete, its limit and its claim naming the model the
//     exploration was exhaustive for (check.Report.Bound: the board's
//     model is a bound of the exploration), never verified;
//   - the swarm's self-check takes its proof for no member's
//     contradiction (a violation of the abstract clock need not be one of
//     the board's), and takes its violation against any member's proof,
//     as any member's.

// BoardMember says whether a racing swarm of the check cfg on img has a
// board member: where the chip's peripherals are the firmware's
// environment (firmware that calls no harness stub, or --peripherals on)
// and the flags leave the environment's timing to the checker — no
// --clock, no --sci-timing other than any, no --max-timer-events (the
// abstract clock's bound), no timing property (the swarm reports the
// largest value any member measured, and the board's clock measures
// another model: its values are not the abstract clock's), and the exact
// clock takes the other settings.
// A swarm never has both a board member and a symbolic member (the
// symbolic engine runs without the peripherals).
// m is member 0's machine, built from cfg. The error is the machine's,
// which check.New would give too.
func BoardMember(img *loader.Image, cfg check.Config, m *sim.Machine) (bool, error) {
	mc := cfg.Machine
	if mc.Clock != check.ClockDefault || mc.SCIIdle || mc.MaxTimerEvents != nil || mc.Timing.On() || !m.HasDevice() {
		return false, nil
	}
	// Settings the exact clock refuses leave the swarm without one.
	_, err := check.NewMachine(img, BoardMachine(mc))
	return err == nil, nil
}

// BoardMachine is the machine mc as the board member runs it: the exact
// clock, each byte at the first wait, and no dead-data elimination. The
// exact clock runs no partial-order reduction; with dead-data elimination
// it leaves the timer's counters out of states until the firmware reads
// one (devices.Block.Lazy), which firmware on a board does at start-up,
// withdrawing the elimination, and a deadlock it reports in a WAI before
// then need not replay on the plain machine (time could still pass
// there): the board member runs as --reduce none would.
func BoardMachine(mc check.MachineConfig) check.MachineConfig {
	mc.Clock, mc.SCIIdle, mc.SCIFirst = check.ClockExact, true, true
	mc.Dead = false
	if mc.SCIInput == nil && !mc.SCIFed {
		mc.SCIInput, _ = check.ParseAlphabet(Keyboard)
	}
	return mc
}

// Keyboard is the alphabet of the board member's input where --sci-input
// gives none: what a person at a terminal types — the printable
// characters, Enter (a carriage return, or a line feed from a host),
// tab, backspace, delete, escape, Ctrl-C and Ctrl-X — in --sci-input's
// syntax. A byte no key sends (a binary protocol's) is left to the other
// members, which receive every byte; the board member's exhaustive end
// says so, since it names its model.
const Keyboard = ` -~,\r,\n,\t,\x08,\x7f,\x1b,\x03,\x18`

// Spec is the machine's settings s as member m runs them, as a trace
// file of its counterexample records them: the board member's with
// --clock exact --sci-timing first and, unless --sci-input gave one, the
// keyboard's alphabet (Keyboard).
func (m Member) Spec(s settings.MachineSpec) settings.MachineSpec {
	if m.Board {
		s.Clock, s.SCITiming = "exact", "first"
		if s.SCIInput == "" {
			s.SCIInput = Keyboard
		}
	}
	return s
}
