package cli

import (
	"math"
	"strings"

	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// machineFlags configure the simulated machine. The flags are a
// cex.MachineSpec, which a trace file records so that replay builds the
// same machine; check.MachineOf reads them into the check.Machine that
// package check builds it from (the firmware's environment: see
// environment.go).
type machineFlags struct {
	cex.MachineSpec
	// runFeed: --sci-input is run's sequence of bytes, not an alphabet.
	runFeed bool
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

// machine reads the flags into the machine's settings; run's --sci-input
// is the bytes it feeds, which run reads itself.
func (f *machineFlags) machine() (check.Machine, error) {
	spec := f.MachineSpec
	if f.runFeed {
		spec.SCIInput = ""
	}
	mc, err := check.MachineOf(spec)
	mc.SCIFed = f.runFeed && f.SCIInput != ""
	return mc, err
}

// newMachine builds the machine of the flags on img.
func newMachine(img *loader.Image, mf *machineFlags) (*sim.Machine, error) {
	mc, err := mf.machine()
	if err != nil {
		return nil, err
	}
	return check.NewMachine(img, mc)
}
