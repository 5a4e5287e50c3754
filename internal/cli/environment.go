package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
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

// environment reads the flags of the firmware's environment into mc.
func (f *machineFlags) environment(mc *check.Machine) error {
	switch f.Peripherals {
	case "", "auto":
	case "on":
		mc.Peripherals = check.PeripheralsOn
	case "off":
		mc.Peripherals = check.PeripheralsOff
	default:
		return usagef("--peripherals %q: use on, off or auto", f.Peripherals)
	}
	for _, d := range f.Device {
		br, err := parseDevice(d)
		if err != nil {
			return usagef("--device %q: %v", d, err)
		}
		mc.Board = append(mc.Board, br)
	}
	switch f.SCITiming {
	case "", "any":
	case "idle":
		mc.SCIIdle = true
	default:
		return usagef("--sci-timing %q: use any or idle", f.SCITiming)
	}
	switch {
	case f.SCIInput == "":
	case f.runFeed:
		mc.SCIFed = true // run reads its bytes (parseBytes)
	default:
		var err error
		if mc.SCIInput, err = parseAlphabet(f.SCIInput); err != nil {
			return usagef("--sci-input %q: %v", f.SCIInput, err)
		}
	}
	if f.Config != "" {
		n, err := loader.ParseAddr(f.Config)
		if err != nil || n > 255 {
			return usagef("--config %q: not a byte value", f.Config)
		}
		v := uint8(n)
		mc.ConfigRegister = &v
	}
	if f.ExpectOutput != "" {
		var err error
		if mc.ExpectOutput, err = devices.CompileMatcher(f.ExpectOutput); err != nil {
			return usagef("--expect-output: %v", err)
		}
	}
	if f.MaxReceived > 0 {
		n := f.MaxReceived - 1
		mc.MaxReceived = &n
	}
	if f.MaxTimer > 0 {
		n := f.MaxTimer - 1
		mc.MaxTimerEvents = &n
	}
	return nil
}

// unescape reads the next byte of s, with the escapes \r \n \t \\ \, \-
// and \xHH; escaped reports a backslash.
func unescape(s string) (b byte, rest string, escaped bool, err error) {
	if s[0] != '\\' {
		return s[0], s[1:], false, nil
	}
	if len(s) < 2 {
		return 0, "", true, fmt.Errorf("a lone \\ at the end")
	}
	switch s[1] {
	case 'r':
		return '\r', s[2:], true, nil
	case 'n':
		return '\n', s[2:], true, nil
	case 't':
		return '\t', s[2:], true, nil
	case '0':
		return 0, s[2:], true, nil
	case 'x':
		if len(s) < 4 {
			return 0, "", true, fmt.Errorf("\\x wants two hex digits")
		}
		n, err := strconv.ParseUint(s[2:4], 16, 8)
		if err != nil {
			return 0, "", true, fmt.Errorf("\\x%s is not a hex byte", s[2:4])
		}
		return byte(n), s[4:], true, nil
	}
	return s[1], s[2:], true, nil
}

// parseBytes reads a string of characters with escapes (run's
// --sci-input).
func parseBytes(s string) ([]byte, error) {
	var out []byte
	for s != "" {
		b, rest, _, err := unescape(s)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
		s = rest
	}
	return out, nil
}

// parseAlphabet reads check's --sci-input: characters and ranges X-Y,
// separated by commas, with escapes; each byte once, in the order given.
func parseAlphabet(s string) ([]byte, error) {
	type tok struct {
		b   byte
		esc bool
	}
	var toks []tok
	for s != "" {
		b, rest, esc, err := unescape(s)
		if err != nil {
			return nil, err
		}
		toks = append(toks, tok{b, esc})
		s = rest
	}
	var out []byte
	seen := [256]bool{}
	add := func(b byte) {
		if !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.b == ',' && !t.esc {
			continue
		}
		if i+2 < len(toks) && toks[i+1].b == '-' && !toks[i+1].esc && !(toks[i+2].b == ',' && !toks[i+2].esc) {
			lo, hi := t.b, toks[i+2].b
			if lo > hi {
				return nil, fmt.Errorf("range %s-%s runs backwards", strconv.QuoteRune(rune(lo)), strconv.QuoteRune(rune(hi)))
			}
			for c := int(lo); c <= int(hi); c++ {
				add(byte(c))
			}
			i += 2
			continue
		}
		add(t.b)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no bytes")
	}
	return out, nil
}
