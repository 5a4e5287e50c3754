package sim

import (
	"fmt"

	"github.com/hc11mc/hc11mc/loader"
)

// Unchecked is a property a search on a machine cannot check, and why.
type Unchecked struct {
	Kind   Kind
	Reason string
}

// Properties says which properties a search of m's states checks and which
// it cannot, each with the reason, so that a verdict is never wider than
// what was looked at. A property is checked when the firmware and the
// configuration make it meaningful:
//
//   - assert, error, unlock and mutex need the harness stub that raises
//     them (__mc_assert, __mc_error, __mc_unlock, __mc_cs_enter); an
//     image without any symbols (an S-record, Intel HEX or raw image
//     loaded without a symbol file or hooks) knows none of them, and its
//     calls to the stubs run as plain RTS.
//   - deadlock is checked whenever symbols are known (a thread then blocks
//     in __mc_lock, if the firmware has it, or in WAI/STOP); without any
//     symbols, __mc_lock is a plain RTS and locks never block, so a
//     deadlock on a lock cannot be seen.
//   - stack needs a stack range (Config.Stacks); reach is a goal, listed
//     when Config.Reach names one.
//   - illegal-opcode, rom-write and unmapped are always checked.
//   - watchdog needs the chip's peripherals (Config.Device) with the COP
//     on at power-up (CONFIG's NOCOP clear); output is a goal, listed
//     when Config.ExpectOutput says the device watches for one.
func (m *Machine) Properties() (checked []Kind, unchecked []Unchecked) {
	noSymbols := len(m.Image.Symbols) == 0
	stub := func(k Kind, hook loader.Stub) {
		switch {
		case m.HasHook[hook]:
			checked = append(checked, k)
		case noSymbols:
			unchecked = append(unchecked, Unchecked{k, fmt.Sprintf("the image has no symbols, so the harness stub %s is unknown", hook)})
		default:
			unchecked = append(unchecked, Unchecked{k, fmt.Sprintf("the firmware defines no %s", hook)})
		}
	}
	stub(KindAssert, loader.StubAssert)
	stub(KindError, loader.StubError)
	if noSymbols {
		unchecked = append(unchecked, Unchecked{KindDeadlock, "the image has no symbols, so __mc_lock is unknown and locks never block"})
	} else {
		checked = append(checked, KindDeadlock)
	}
	stub(KindMutex, loader.StubCSEnter)
	stub(KindUnlock, loader.StubUnlock)
	checked = append(checked, KindIllegal, KindROMWrite, KindUnmapped)
	if len(m.stacks) > 0 {
		checked = append(checked, KindStack)
	} else {
		unchecked = append(unchecked, Unchecked{KindStack, "no stack range (--stack)"})
	}
	if m.hasGoals {
		checked = append(checked, KindReach)
	}
	switch {
	case m.dev == nil:
		unchecked = append(unchecked, Unchecked{KindWatchdog, "no on-chip peripherals (--chip, --peripherals)"})
	case !m.clocked(m.Initial()) || m.Initial().Pages[m.regPage].Data[0x3F]&0x04 != 0:
		unchecked = append(unchecked, Unchecked{KindWatchdog, "the COP is off: CONFIG's NOCOP bit is set (--config)"})
	default:
		checked = append(checked, KindWatchdog)
	}
	if m.Config.ExpectOutput && m.dev != nil {
		checked = append(checked, KindOutput)
	}
	if tm := m.timing; tm != nil {
		// The timing properties given a bound (timing.go); measured
		// without one (--report-timing), they are values, not checks.
		if tm.cfg.Masked.Bounded {
			checked = append(checked, KindMasked)
		}
		for _, d := range tm.cfg.Deadlines {
			if d.Bounded {
				checked = append(checked, KindDeadline)
				break
			}
		}
		for _, l := range tm.cfg.Latencies {
			if l.Bounded {
				checked = append(checked, KindLatency)
				break
			}
		}
	}
	return checked, unchecked
}
