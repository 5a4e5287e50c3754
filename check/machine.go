package check

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/internal/units"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// NewMachine builds the machine mc describes on img: thread 0 starts at
// img.Entry. With --config the memory map is the one that CONFIG value
// sets up (loader.Image.WithConfig).
func NewMachine(img *loader.Image, mc MachineConfig) (*sim.Machine, error) {
	img = mc.image(img)
	cfg, err := mc.simConfig(img)
	if err != nil {
		return nil, err
	}
	return sim.NewMachine(img, cfg)
}

// image is img with the memory map of --config, where it is given.
func (mc MachineConfig) image(img *loader.Image) *loader.Image {
	if mc.ConfigRegister != nil {
		return img.WithConfig(*mc.ConfigRegister)
	}
	return img
}

// Resolve reads a symbol of img or an address.
func Resolve(img *loader.Image, s string) (uint16, error) {
	if sym, ok := img.Lookup(s); ok {
		return sym.Addr, nil
	}
	a, err := loader.ParseAddr(s)
	var re *loader.RangeError
	if errors.As(err, &re) {
		return 0, err // a number, too large: not a missing symbol
	}
	if err != nil {
		return 0, fmt.Errorf("no symbol %q in %s, and not an address", s, img.Path)
	}
	return a, nil
}

// simConfig is the sim.Config of mc on img.
func (mc MachineConfig) simConfig(img *loader.Image) (sim.Config, error) {
	cfg := sim.Config{Preempt: mc.Preempt, IRQs: mc.IRQs, MaxRun: mc.MaxRun, Dead: mc.Dead, Unbatched: mc.Unbatched,
		IgnoreIllegal: mc.IgnoreIllegal, Entry: img.Entry, Stacks: mc.Stacks, Board: mc.Board}
	env, err := mc.environment(img)
	if err != nil {
		return cfg, err
	}
	regInputs := map[int][]uint8{}
	for _, in := range mc.Inputs {
		a, vals, eq := strings.Cut(in, "=")
		if eq && strings.TrimSpace(vals) == "" {
			return cfg, fmt.Errorf("--input %q: no values after '=': list them (%s=0,1,0x80), or give %s alone for every value", in, a, a)
		}
		addr, ok := env.register(a)
		if !ok {
			if addr, err = Resolve(img, a); err != nil {
				return cfg, fmt.Errorf("--input %q: %v", in, err)
			}
		}
		var vs []uint8
		if vals != "" {
			for _, v := range strings.Split(vals, ",") {
				n, err := loader.ParseAddr(strings.TrimSpace(v))
				if err != nil || n > 255 {
					return cfg, fmt.Errorf("--input %q: %q is not a byte value", in, v)
				}
				vs = append(vs, uint8(n))
			}
		}
		if env.on && env.regs.Lo <= addr && addr <= env.regs.Hi {
			regInputs[int(addr-env.regs.Lo)] = vs // for the device
			continue
		}
		if cfg.Inputs == nil {
			cfg.Inputs = map[uint16][]uint8{}
		}
		cfg.Inputs[addr] = vs
	}
	if err := mc.devices(env, regInputs, &cfg); err != nil {
		return cfg, err
	}
	if cfg.Timing, err = mc.Timing.simTiming(img, mc.IRQs, env.on, mc.Exact()); err != nil {
		return cfg, err
	}
	for _, g := range mc.Reach {
		a, err := Resolve(img, g)
		if err != nil {
			return cfg, fmt.Errorf("--reach %q: %v", g, err)
		}
		cfg.Reach = append(cfg.Reach, a)
	}
	return cfg, nil
}

// environment is what the chip's peripherals are for one image.
type environment struct {
	on      bool
	profile loader.ChipProfile
	regs    loader.Region // the register block after reset
	chip    *devices.Chip // the chip after reset, to read registers' names
}

// peripheralsOn decides mc.Peripherals for img.
func (mc MachineConfig) peripheralsOn(img *loader.Image) (bool, error) {
	switch mc.Peripherals {
	case PeripheralsOn:
		return true, nil
	case PeripheralsOff:
		return false, nil
	}
	for h := loader.NoStub + 1; h < loader.NumStubs; h++ {
		if _, ok := img.StubAddr(h); ok {
			return false, nil
		}
	}
	p, err := loader.FindChip(img.Chip)
	if err != nil {
		return false, err
	}
	_, ok := p.Registers()
	return ok && len(mc.IRQs) == 0, nil
}

// environment finds the chip's register block when its peripherals are
// on for img.
func (mc MachineConfig) environment(img *loader.Image) (environment, error) {
	var env environment
	on, err := mc.peripheralsOn(img)
	if err != nil || !on {
		return env, err
	}
	p, err := loader.FindChip(img.Chip)
	if err != nil {
		return env, err
	}
	regs, ok := p.Registers()
	if !ok {
		return env, fmt.Errorf("--peripherals on: the %s profile has no on-chip peripherals", p.Name)
	}
	chip, _ := devices.New(p, devices.Options{}) // nil: no names
	return environment{on: true, profile: p, regs: regs, chip: chip}, nil
}

// register reads a register's name (PORTE, ADR1, any case) as its
// address after reset, when the peripherals are on.
func (env environment) register(name string) (uint16, bool) {
	if env.chip == nil {
		return 0, false
	}
	off, ok := env.chip.RegOffset(name)
	return env.regs.Lo + uint16(off), ok
}

// devices builds the peripherals into cfg, the inputs among their
// registers by offset, or refuses the settings that need them when they
// are off.
func (mc MachineConfig) devices(env environment, regInputs map[int][]uint8, cfg *sim.Config) error {
	if !env.on {
		for _, s := range []struct {
			flag  string
			given bool
		}{{"--sci-input", mc.SCIInput != nil || mc.SCIFed}, {"--expect-output", mc.ExpectOutput != nil},
			{"--config", mc.ConfigRegister != nil}, {"--max-received", mc.MaxReceived != nil},
			{"--max-timer-events", mc.MaxTimerEvents != nil}, {"--sci-timing", mc.SCIIdle},
			{"--clock", mc.Clock != ClockDefault}, {"--wire", len(mc.Wires) > 0}} {
			if s.given {
				why := "--peripherals off"
				if mc.Peripherals != PeripheralsOff {
					why = "the firmware is a harness model (it defines harness stubs, or --irq is given): add --peripherals on"
				}
				return fmt.Errorf("%s needs the chip's peripherals: %s", s.flag, why)
			}
		}
		return nil
	}
	if mc.Clock == ClockExact {
		if mc.MaxTimerEvents != nil {
			return fmt.Errorf("--max-timer-events bounds the abstract clock's timer events; under --clock exact time passes with the cycles: drop it, or give --clock abstract")
		}
		if mc.SCIIdle && !mc.SCIFirst {
			return fmt.Errorf("--sci-timing idle is a timing of the abstract clock; under --clock exact bytes arrive at the pace of the line: drop it, give --sci-timing first, or give --clock abstract")
		}
	} else if mc.SCIFirst {
		return fmt.Errorf("--sci-timing first is a timing of the exact clock (the board's: each byte at the first wait after the one before it): add --clock exact")
	}
	o := devices.Options{Inputs: regInputs, SCIInput: mc.SCIInput, ExpectOutput: mc.ExpectOutput, Exact: mc.Exact(), Wires: mc.Wires}
	cfg.ExactClock = o.Exact
	if mc.MaxReceived != nil {
		o.BoundReceived, o.MaxReceived = true, *mc.MaxReceived
	}
	if mc.MaxTimerEvents != nil {
		o.BoundTimer, o.MaxTimer = true, *mc.MaxTimerEvents
	}
	if mc.ConfigRegister != nil {
		o.Config, o.ConfigSet = *mc.ConfigRegister, true
	}
	cfg.SCIWhenIdle, cfg.SCIFirstWait = mc.SCIIdle, mc.SCIFirst
	cfg.ExpectOutput = mc.ExpectOutput != nil
	chip, err := devices.New(env.profile, o)
	if err != nil {
		return fmt.Errorf("--input: %v", err)
	}
	cfg.Device = chip
	// Dead-data elimination extends, for firmware, to the stack bytes
	// below SP, left out of state keys (sim.Config.DeadStack).
	cfg.DeadStack = mc.Dead
	return nil
}

// Bounds describes the bounds mc puts on the exploration of the
// firmware's environment, "" for none: a verdict is exhaustive within
// them only.
func (mc MachineConfig) Bounds() string {
	var bs []string
	if mc.MaxReceived != nil {
		bs = append(bs, fmt.Sprintf("at most %s received (--max-received)", units.Of(*mc.MaxReceived, "byte")))
	}
	if mc.MaxTimerEvents != nil {
		bs = append(bs, fmt.Sprintf("at most %s (--max-timer-events)", units.Of(*mc.MaxTimerEvents, "timer event")))
	}
	if mc.SCIFirst {
		bs = append(bs, "the SCI receives each byte at the first state after reset, or after the byte before it, at which the firmware waits with its output gone, or no byte after that; it waits where its execution would come back to a state but for the clock's counters (--sci-timing first)")
	} else if mc.SCIIdle {
		bs = append(bs, "the SCI receives a byte only while the firmware waits with its output gone, and finishes sending one only while it waits or when it is overdue; it waits where its execution would cycle without an event (--sci-timing idle)")
	}
	return strings.Join(bs, ", ")
}
