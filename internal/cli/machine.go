package cli

import (
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// machineFlags configure the simulated machine. The flags that shape it
// are a cex.MachineSpec, which a trace file records so that replay builds
// the same machine (the firmware's environment: see environment.go).
type machineFlags struct {
	cex.MachineSpec
	// runFeed: --sci-input is run's sequence of bytes, not an alphabet;
	// regInputs: the --input domains of the chip's registers, by offset.
	runFeed   bool
	regInputs map[int][]uint8
	// Dead is --reduce dead (check's flag, not the machine's behaviour:
	// a trace replays the same without it).
	Dead bool `json:"-"`
}

func (f *machineFlags) register(fs *pflag.FlagSet, preemptDefault string) {
	fs.StringVar(&f.Preempt, "preempt", preemptDefault, "scheduling points: every (before every instruction, as on the hardware; the reductions of --reduce keep its verdicts), "+
		"calls (JSR/BSR/RTS/RTI and harness calls), yield (harness calls only); calls and yield are coarser models of atomicity, "+
		"not reductions: they can miss races that every finds")
	fs.StringSliceVar(&f.IRQ, "irq", nil, "interrupts that may be taken where CCR.I = 0: "+strings.Join(sim.IRQNames(), ", "))
	fs.StringArrayVar(&f.Input, "input", nil, "ADDR[=v1,v2,...]: reads of ADDR return any of the values (default all 256) (repeatable)")
	fs.StringArrayVar(&f.Stack, "stack", nil, "[THREAD:]LO-HI: SP must stay in this range (the stack property) (repeatable)")
	fs.StringVar(&f.Entry, "entry", "", "start thread 0 at this symbol or address instead of the reset vector")
	fs.StringArrayVar(&f.Reach, "reach", nil, "SYM|ADDR: a goal; reaching it is reported (property reach) (repeatable)")
	countVar(fs, &f.MaxRun, "max-run", 100000, 1, math.MaxInt, "most instructions one thread runs back to back inside one transition (--preempt calls|yield)")
	f.registerEnvironment(fs)
}

// config turns the flags into a sim.Config for img.
func (f *machineFlags) config(img *loader.Image) (sim.Config, error) {
	var cfg sim.Config
	var err error
	if cfg.Preempt, err = sim.ParsePreempt(f.Preempt); err != nil {
		return cfg, usagef("%v", err)
	}
	cfg.IRQs = f.IRQ
	cfg.MaxRun = f.MaxRun
	cfg.Dead = f.Dead
	cfg.IgnoreIllegal = f.IgnoreIllegal
	cfg.Entry = img.Entry
	regInputs, err := f.environment(img, &cfg)
	if err != nil {
		return cfg, err
	}
	for _, in := range f.Input {
		a, vals, _ := strings.Cut(in, "=")
		addr, ok := f.registerAddr(img, a)
		if !ok {
			if addr, err = resolve(img, a); err != nil {
				return cfg, usagef("--input %q: %v", in, err)
			}
		}
		var vs []uint8
		if vals != "" {
			for _, v := range strings.Split(vals, ",") {
				n, err := loader.ParseAddr(strings.TrimSpace(v))
				if err != nil || n > 255 {
					return cfg, usagef("--input %q: %q is not a byte value", in, v)
				}
				vs = append(vs, uint8(n))
			}
		}
		if regInputs != nil && regInputs(addr, vs) {
			continue
		}
		if cfg.Inputs == nil {
			cfg.Inputs = map[uint16][]uint8{}
		}
		cfg.Inputs[addr] = vs
	}
	for _, s := range f.Stack {
		r := sim.StackRange{Thread: -1}
		if th, rest, ok := strings.Cut(s, ":"); ok {
			n, err := strconv.Atoi(th)
			if err != nil || n < 0 {
				return cfg, usagef("--stack %q: %q is not a thread number", s, th)
			}
			r.Thread, s = n, rest
		}
		rg, err := loader.ParseRange(s)
		if err != nil {
			return cfg, usagef("--stack %q: %v", s, err)
		}
		r.Lo, r.Hi = rg.Lo, rg.Hi
		cfg.Stacks = append(cfg.Stacks, r)
	}
	if err := f.finishEnvironment(img, &cfg); err != nil {
		return cfg, err
	}
	for _, g := range f.Reach {
		a, err := resolve(img, g)
		if err != nil {
			return cfg, usagef("--reach %q: %v", g, err)
		}
		cfg.Reach = append(cfg.Reach, a)
	}
	return cfg, nil
}

// resolve reads a symbol name or an address.
func resolve(img *loader.Image, s string) (uint16, error) {
	if sym, ok := img.Lookup(s); ok {
		return sym.Addr, nil
	}
	a, err := loader.ParseAddr(s)
	if err != nil {
		return 0, usagef("no symbol %q in %s, and not an address", s, img.Path)
	}
	return a, nil
}

func newMachine(img *loader.Image, mf *machineFlags) (*sim.Machine, error) {
	cfg, err := mf.config(img)
	if err != nil {
		return nil, err
	}
	m, err := sim.NewMachine(img, cfg)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return m, nil
}
