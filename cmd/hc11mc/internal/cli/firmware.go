package cli

import (
	"fmt"
	"github.com/hc11mc/hc11mc/settings"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// The flags of the commands that load firmware and build its machine, kept
// as text (settings.LoadSpec, settings.MachineSpec) for a trace file to record;
// package check reads them.

// loadFlags are the flags of every command that loads firmware; their
// values are what a trace file records of the loading.
type loadFlags struct {
	settings.LoadSpec
	// Board is --board FILE until applyBoard writes what the file says
	// into the other flags (check.Board).
	Board string `json:"-"`
}

func (l *loadFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&l.Format, "format", "auto", "image format: auto (by content), elf, s19 (srec), ihex or bin")
	fs.StringVar(&l.Base, "base", "", "load address of a raw binary (--format bin), e.g. 0xD000")
	fs.StringVar(&l.Symbols, "symbols", "", "symbol file in m68hc11-nm output format, for images without symbols")
	fs.StringArrayVar(&l.Hooks, "hook", nil, "NAME=ADDR: define a symbol, e.g. --hook __mc_error=0xD100 (repeatable)")
	fs.StringVar(&l.Chip, "chip", "", "memory-map profile and peripherals: e9 (default: MC68HC11E9 expanded), e1, a8, a1, f1, flat")
	fs.StringArrayVar(&l.RAM, "ram", nil, "LO-HI: add a RAM range, e.g. 0x2000-0x3FFF (repeatable)")
	fs.StringArrayVar(&l.ROM, "rom", nil, "LO-HI: add a read-only range (repeatable)")
	fs.StringVar(&l.Board, "board", "", "FILE: the board around the chip, described once: --chip, --ram, --rom, --device and --wire lines, # comments")
}

// applyBoard reads the --board file, if one is given, into the loading
// flags and, when spec is not nil, the --device and --wire lists, and
// forgets the file: what it said is now the flags'.
func (l *loadFlags) applyBoard(spec *settings.MachineSpec) error {
	if l.Board == "" {
		return nil
	}
	b, err := check.ReadBoard(l.Board)
	if err == nil {
		var devices *[]string
		if spec != nil {
			devices = &spec.Device
			b.ApplyWires(&spec.Wire)
		}
		err = b.Apply(&l.LoadSpec, devices)
	}
	l.Board = ""
	return err
}

// load reads the firmware with the flags; entry is --entry ("" for none).
// A --board file not yet applied gives its chip and ranges (a command
// with --device applies it first).
func (l *loadFlags) load(path, entry string, allowNoEntry bool) (*loader.Image, error) {
	if err := l.applyBoard(nil); err != nil {
		return nil, err
	}
	img, err := check.LoadImage(l.LoadSpec, path, entry, allowNoEntry)
	if err != nil {
		return nil, err
	}
	printWarnings(img)
	return img, nil
}

// printWarnings shows what did not stop loading img.
func printWarnings(img *loader.Image) {
	for _, w := range img.Warnings {
		fmt.Fprintf(os.Stderr, "hc11mc: warning: %s\n", w)
	}
}

// machineFlags configure the simulated machine. The flags are a
// settings.MachineSpec, which a trace file records so that replay builds the
// same machine; check.MachineOf reads them into the check.MachineConfig that
// package check builds it from (the firmware's environment: see
// registerEnvironment).
type machineFlags struct {
	settings.MachineSpec
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
	countVar(fs, &f.MaxRun, "max-run", 100000, 1, math.MaxInt, "most instructions one thread runs back to back between two scheduling points inside one transition (--preempt calls|yield); a longer run is cut there and its state stored")
	fs.StringVar(&f.Batch, "batch", "on", "on: a transition runs on through every scheduling point where nothing can choose (no other thread can run, no interrupt can be taken, no event of the environment can happen, no harness call follows), so that only states where something chooses are stored; every instruction is still checked, and counterexamples list every instruction. off: a state at every scheduling point (the reference the batches are tested against)")
	f.registerEnvironment(fs)
}

// machine reads the flags into the machine's settings; run's --sci-input
// is the bytes it feeds, which run reads itself.
func (f *machineFlags) machine() (check.MachineConfig, error) {
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

// The firmware's environment: the chip's peripherals (package devices),
// board hardware outside the chip, and what the firmware is expected to
// print; check.MachineConfig says what each setting means.

func (f *machineFlags) registerEnvironment(fs *pflag.FlagSet) {
	fs.StringVar(&f.Peripherals, "peripherals", "auto", "the chip's peripherals (SCI, timer, ports, COP) as the environment: on, off, or auto (on for firmware that calls no harness stub and has no --irq)")
	fs.StringVar(&f.SCIInput, "sci-input", "", "check: the bytes a received character may be, e.g. 'A-Z,0-9,\\r' (default every byte); run: the characters to receive, in order, each when the firmware waits for one, e.g. 'help\\r' (escapes \\r \\n \\t \\xHH \\\\ \\,)")
	fs.StringArrayVar(&f.Device, "device", nil, "LO-HI[=v1,v2,...]: board hardware outside the chip: writes are recorded, reads return any of the values (default 0) (repeatable)")
	fs.StringArrayVar(&f.Wire, "wire", nil, "ocN=xirq|irq: the board wires the pin of output compare N (PA7 for oc1, PA6-PA3 for oc2-oc5) to XIRQ or IRQ: the line is low while the pin drives a low level (the EVB's oc5=xirq, for BUFFALO's trace) (repeatable)")
	fs.StringVar(&f.ExpectOutput, "expect-output", "", "REGEX: a goal: find an input that makes the firmware send, on the SCI, output containing a match (property output)")
	fs.StringVar(&f.Config, "config", "", "the CONFIG register's value instead of the chip's (0x0B: the COP on); its EEON, ROMON and, on the F1, EE3-EE0 bits place the EEPROM and ROM as at reset")
	fs.StringVar(&f.SCITiming, "sci-timing", "any", "when a byte may arrive on the SCI, and the transmitter finish one: any (at every scheduling point), idle (a bounded exploration, a slow line: a byte arrives only while the firmware waits, with its output gone, and the transmitter finishes one only while it waits; it waits where its execution would cycle without an event: in WAI or STOP, in a loop reading the SCI or the timer, or in a loop waiting for an interrupt it has armed, such as a main loop polling a RAM ring buffer), or first (with --clock exact: input as a person or a host sends it — each byte at the first wait after reset or after the byte before it, or no byte after that; a polling loop waits when it comes back but for the clock's counters)")
	fs.Var(boundValue{&f.MaxReceived}, "max-received", "a bounded exploration: at most N bytes arrive on the SCI along an execution (0 to 254)")
	fs.Var(boundValue{&f.MaxTimer}, "max-timer-events", "a bounded exploration: at most N timer events (a source firing, an edge) along an execution (0 to 254; 0: the timer never fires)")
}

// boundValue is a flag holding an optional bound N as N+1 (0: none), so
// that the zero value of machineFlags has no bound.
type boundValue struct{ p *int }

func (b boundValue) String() string {
	if b.p == nil || *b.p == 0 {
		return ""
	}
	return strconv.Itoa(*b.p - 1)
}

func (b boundValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 254 || strings.TrimSpace(s) != s {
		return fmt.Errorf("want a count from 0 to 254")
	}
	*b.p = n + 1
	return nil
}

func (b boundValue) Type() string { return "N" }
