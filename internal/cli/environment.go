package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// The firmware's environment: the chip's peripherals (package devices),
// board hardware outside the chip, and what the firmware is expected to
// print; check.Machine says what each setting means.

func (f *machineFlags) registerEnvironment(fs *pflag.FlagSet) {
	fs.StringVar(&f.Peripherals, "peripherals", "auto", "the chip's peripherals (SCI, timer, ports, COP) as the environment: on, off, or auto (on for firmware that calls no harness stub and has no --irq)")
	fs.StringVar(&f.SCIInput, "sci-input", "", "check: the bytes a received character may be, e.g. 'A-Z,0-9,\\r' (default every byte); run: the characters to receive, in order, each when the firmware waits for one, e.g. 'help\\r' (escapes \\r \\n \\t \\xHH \\\\ \\,)")
	fs.StringArrayVar(&f.Device, "device", nil, "LO-HI[=v1,v2,...]: board hardware outside the chip: writes are recorded, reads return any of the values (default 0) (repeatable)")
	fs.StringVar(&f.ExpectOutput, "expect-output", "", "REGEX: a goal: find an input that makes the firmware send, on the SCI, output containing a match (property output)")
	fs.StringVar(&f.Config, "config", "", "the CONFIG register's value instead of the chip's (0x0B: the COP on)")
	fs.StringVar(&f.SCITiming, "sci-timing", "any", "when a byte may arrive on the SCI, and the transmitter finish one: any (at every scheduling point), idle (a bounded exploration, a slow line: a byte arrives only while the firmware waits for one, with its output gone, and the transmitter finishes one only while it waits; it waits where its execution would cycle without an event: in WAI or in a loop reading the SCI or the timer)")
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
