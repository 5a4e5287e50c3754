package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

type runOptions struct {
	load    loadFlags
	machine machineFlags
	steps   uint64
	start   string
	trace   bool
	seed    uint64
	seedSet bool
	xtal    float64 // the crystal's frequency in hertz

	terminal  bool   // the SCI on the terminal: stdin to the receiver, the transmitter to stdout
	sciOutput string // where the SCI's output goes instead of stdout
	ignore    []string
	gdb       string // --gdb [HOST]:PORT: a live session in GDB
}

func newRun(stdout, stderr io.Writer) *cobra.Command {
	o := &runOptions{}
	c := &cobra.Command{
		Use:   "run FIRMWARE",
		Short: "simulate one schedule, optionally printing every instruction",
		Long: `run executes the firmware along one schedule: the lowest-numbered thread that
can move, value 0 for every nondeterministic choice, an interrupt only when no
thread can move otherwise — or, with --seed, random choices everywhere.

--preempt and --max-run shape the transitions of a search, not this one
schedule, and are refused.

It stops at a violation (exit 1), when every thread has exited, at a
deadlock (exit 1), or after --steps instructions (a billion by default, a
few seconds: firmware that never ends cannot hang the tool).

Firmware with its peripherals runs as on a board at a terminal: the
transmitter takes ten bit times at the rate BAUD sets for each byte, so
output paces the firmware; each --sci-input character arrives when the
firmware waits for one (its execution would cycle without an event,
reading the SCI, or it sleeps in WAI) and its output has gone, as a person
types who reads what it prints; and the run stops, saying so, when the
firmware waits with nothing left to come. Memory the image does not
load reads as 0 at power-up; registers are as the reset leaves them (CCR =
S X I set, everything else 0).

--terminal puts the SCI on this terminal, as a board's serial port: each key
typed goes to the receiver when the firmware waits for one (after the
--sci-input bytes, if any), and what the firmware sends appears as it is
sent; Ctrl-C ends the run with its summary. On a terminal the keys go
unedited and unechoed (the firmware echoes what it wants shown), Enter as
a carriage return; from a pipe or a file, each newline arrives as a
carriage return. --sci-output FILE writes what the SCI sends to FILE
instead of stdout.

Diagnostics — why the run stopped, a violation, the instructions and
cycles it took — go to stderr, so that stdout holds only what the firmware
sent (or the trace).

--ignore KIND,... does not report those violations. An ignored illegal
opcode goes on through the firmware's illegal-opcode trap vector, as the
hardware does (a monitor's trap handler then runs); any other ignored
violation ends the run there without a finding (exit 0), as it ends a path
of check.

When the run stops at a violation, the byte the SCI's transmitter still
holds in TDR is printed too: the line carries it after the CPU stops (not
after a watchdog timeout, a reset, which clears the SCI).

--gdb [HOST]:PORT serves the run to GDB instead (the host 127.0.0.1 when
left out): it starts as run does, with the same flags, but stopped at the
reset vector, and executes instructions only as GDB asks — stepi,
continue until a breakpoint, a watchpoint, a violation (which stops with a
signal: SIGILL for an illegal opcode, SIGSEGV for a write to ROM...), the
run's end or Ctrl-C in GDB; reverse-stepi and reverse-continue back to
reset (the run executed again from checkpoints). GDB writes registers and RAM;
ROM and the register block are refused. The SCI's output appears on
stdout as run prints it; when GDB detaches, run prints its summary.
--terminal and --trace do not apply.

--trace prints one line per instruction before it executes:
  cyc=<decimal> thr=<n> PC=<hex4> A=<hex2> B=<hex2> X=<hex4> Y=<hex4> SP=<hex4> CCR=<hex2>
followed by the bytes and the disassembly; a last line "final" has the same fields.`,
		Example: "  hc11mc run fw.elf --steps 1000 --trace\n  hc11mc run fw.elf --start 0xD100 --steps 50\n" +
			"  hc11mc run buffalo34.s19 --board testdata/boards/evb.board --terminal\n" +
			"  hc11mc run fw.elf --sci-input 'T\\r' --gdb :3333   # then in m68hc11-elf-gdb fw.elf: target remote :3333",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := refused(cmd.Flags(), runIgnores); err != nil {
				return err
			}
			if o.gdb != "" && (o.terminal || o.trace) {
				return usagef("--gdb serves the run to GDB, which shows the registers and drives the run: --terminal and --trace do not apply")
			}
			if o.start != "" && o.machine.Entry != "" {
				return usagef("--start %s and --entry %s both say where thread 0 begins: give one", o.start, o.machine.Entry)
			}
			return runRun(o, args[0], cmd.InOrStdin(), stdout, stderr)
		},
	}
	fs := c.Flags()
	o.load.register(fs)
	o.machine.register(fs, "every")
	uintVar(fs, &o.steps, nil, "steps", 1000000000, 0, math.MaxUint64, "stop after N instructions (0: no bound, until the firmware stops by itself)")
	fs.StringVar(&o.start, "start", "", "begin at this address or symbol instead of the reset vector (the same as --entry)")
	fs.BoolVar(&o.trace, "trace", false, "print every instruction with the registers before it")
	uintVar(fs, &o.seed, &o.seedSet, "seed", 0, 0, math.MaxUint64, "make every choice at random with this seed (default: no random choices)")
	fs.StringVar(&o.machine.Clock, "clock", "", "how the chip's peripherals keep time: abstract (the default: a timer source fires every 1024 instructions, the sources taking turns) or exact (the timer, the real-time interrupt, the SCI's line and the COP counted in E cycles: an output compare fires at its count, as BUFFALO's trace needs)")
	o.xtal = 8e6
	fs.Var(freqValue{&o.xtal}, "xtal", "the crystal's frequency: the E clock is a quarter of it; run reports the time the cycles took at that rate")
	fs.BoolVar(&o.terminal, "terminal", false, "the SCI on this terminal: keys typed go to the receiver when the firmware waits for one, what it sends appears at once; Ctrl-C ends the run")
	fs.StringVar(&o.sciOutput, "sci-output", "", "write what the SCI sends to this file instead of stdout")
	fs.StringSliceVar(&o.ignore, "ignore", nil, "violations not to report: "+strings.Join(sim.KindNames(), ", ")+
		" (an ignored illegal opcode goes on through the firmware's illegal-opcode trap vector; any other ends the run without a finding)")
	fs.StringVar(&o.gdb, "gdb", "", "serve the run to GDB on [HOST]:PORT (host 127.0.0.1 by default), stopped at the reset vector: it runs as GDB steps and continues it, back to reset in reverse")
	hideIgnored(fs, runIgnores)
	return c
}

func runRun(o *runOptions, path string, stdin io.Reader, stdout, stderr io.Writer) error {
	entry := o.machine.Entry
	if o.start != "" {
		entry = o.start
	}
	if err := o.load.applyBoard(&o.machine.MachineSpec); err != nil {
		return err
	}
	img, err := o.load.load(path, entry, false)
	if err != nil {
		if o.start != "" {
			err = usagef("%s", strings.Replace(err.Error(), "--entry", "--start", 1))
		}
		return err
	}
	ignore := map[sim.Kind]bool{}
	for _, k := range o.ignore {
		kind, ok := sim.ParseKind(k)
		if !ok {
			return usagef("--ignore %q: properties are %s", k, strings.Join(sim.KindNames(), ", "))
		}
		ignore[kind] = true
	}
	o.machine.IgnoreIllegal = ignore[sim.KindIllegal]
	o.machine.runFeed = true
	m, err := newMachine(img, &o.machine)
	if err != nil {
		return err
	}
	if (o.terminal || o.sciOutput != "") && !m.HasDevice() {
		return usagef("--terminal and --sci-output need the chip's SCI: this run has no peripherals (give --chip, or drop --peripherals off)")
	}
	s := m.Initial()
	w := bufio.NewWriterSize(stdout, 1<<16)
	defer w.Flush()
	sci := w // where the SCI's bytes go
	if o.sciOutput != "" {
		f, err := os.Create(o.sciOutput)
		if err != nil {
			return usagef("--sci-output: %v", err)
		}
		defer f.Close()
		sci = bufio.NewWriter(f)
		defer sci.Flush()
	}
	ro := sim.RunOptions{Steps: o.steps}
	if o.trace {
		ro.Trace = w
	}
	if ro.SCIInput, err = check.ParseBytes(o.machine.SCIInput); err != nil {
		return usagef("--sci-input %q: %v", o.machine.SCIInput, err)
	}
	if o.terminal {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		var restore func()
		ro.Input, restore = terminalInput(ctx, stdin)
		defer restore()
		ro.Stop = func() bool { return ctx.Err() != nil }
	}
	// What the SCI sends is printed as it goes: raw, or with --trace as
	// lines among the instructions.
	var last byte = '\n'
	ro.Output = func(out sim.Output) {
		switch {
		case out.Kind != sim.OutSCI:
			if o.trace {
				fmt.Fprintf(w, "output%s\n", cex.OutputNote([]sim.Output{out}))
			}
		case o.trace && o.sciOutput == "":
			fmt.Fprintf(w, "SCI sends %s\n", strconv.Quote(string([]byte{out.Value})))
		default:
			sci.WriteByte(out.Value)
			last = out.Value
			if out.Value == '\n' || o.terminal || o.gdb != "" {
				sci.Flush() // as it runs: a line at a time, on a terminal a byte
			}
		}
	}
	if o.trace {
		ro.Event = func(e devices.EventInfo) { fmt.Fprintf(w, "env    %s\n", e) }
	}
	if o.seedSet {
		ro.Rand = rand.New(rand.NewPCG(o.seed, 0x68c11))
	}
	endOutput := func() {
		if last != '\n' && o.sciOutput == "" {
			w.WriteByte('\n') // the summary begins a line of its own
		}
		w.Flush()
	}
	if o.gdb != "" {
		return serveLive(o, path, img, m, ro, endOutput, stderr, ignore)
	}
	res := m.Run(s, ro)
	endOutput()
	return runSummary(o, img, res, stderr, ignore)
}

// runSummary prints why the run ended, and returns run's exit code.
func runSummary(o *runOptions, img *loader.Image, res sim.RunResult, stderr io.Writer, ignore map[sim.Kind]bool) error {
	if v := res.Violation; v != nil && ignore[v.Kind] {
		fmt.Fprintf(stderr, "stopped at an ignored %s violation: %s; %d instructions, %d cycles (%s at --xtal %s)\n",
			v.Kind, cex.Describe(img, v), res.Steps, res.Cycles, formatSeconds(float64(res.Cycles)*4/o.xtal), formatFreq(o.xtal))
		return nil
	}
	if res.Violation != nil {
		fmt.Fprintf(stderr, "violation %s after %d instructions (%d cycles): %s\n", res.Violation.Kind, res.Steps, res.Cycles, cex.Describe(img, res.Violation))
		return exitCode(ExitViolation)
	}
	fmt.Fprintf(stderr, "%s; %d instructions, %d cycles (%s at --xtal %s)\n", res.Reason, res.Steps, res.Cycles,
		formatSeconds(float64(res.Cycles)*4/o.xtal), formatFreq(o.xtal))
	return nil
}

// terminalInput is run --terminal's source of keys: stdin, raw when it is
// a terminal (until restore), a newline from a pipe or a file
// arriving as a carriage return. It blocks until a key comes, and says
// there is none when stdin ends or ctx is done (Ctrl-C).
func terminalInput(ctx context.Context, stdin io.Reader) (input func() (byte, bool), restore func()) {
	raw := false
	restore = func() {}
	if f, ok := stdin.(*os.File); ok {
		if r, ok := rawTerminal(f); ok {
			raw, restore = true, r
		}
	}
	keys := make(chan byte)
	go func() {
		defer close(keys)
		r := bufio.NewReader(stdin)
		for {
			b, err := r.ReadByte()
			if err != nil {
				return
			}
			if b == '\n' && !raw {
				b = '\r'
			}
			select {
			case keys <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() (byte, bool) {
		select {
		case b, ok := <-keys:
			return b, ok
		case <-ctx.Done():
			return 0, false
		}
	}, restore
}

// formatSeconds writes a time in seconds with three digits, in s, ms or µs.
func formatSeconds(t float64) string {
	switch {
	case t >= 1:
		return strconv.FormatFloat(t, 'f', 3, 64) + " s"
	case t >= 1e-3:
		return strconv.FormatFloat(t*1e3, 'f', 3, 64) + " ms"
	}
	return strconv.FormatFloat(t*1e6, 'f', 3, 64) + " µs"
}
