package check

import (
	"errors"
	"fmt"
	"github.com/hc11mc/hc11mc/settings"
	"io/fs"
	"strconv"
	"strings"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// The settings as text: a trace file records the load and machine
// settings as the command line gives them (settings.LoadSpec, settings.MachineSpec),
// and the command line keeps its flags in the same form. LoadImage and
// MachineOf read them; their messages name each setting by its flag.

// LoadImage reads the firmware at path as s says; entry is --entry (""
// for none), and allowNoEntry lets an image without an entry load (for
// the commands that run nothing). What did not stop loading is in the
// image's Warnings, for the caller to show.
func LoadImage(s settings.LoadSpec, path, entry string, allowNoEntry bool) (*loader.Image, error) {
	opts := loader.Options{Symbols: s.Symbols, Chip: s.Chip, Entry: entry, AllowNoEntry: allowNoEntry}
	var err error
	if opts.Format, err = loader.ParseFormat(s.Format); err != nil {
		return nil, fmt.Errorf("--format: %v", err)
	}
	if s.Base != "" {
		if opts.Base, err = loader.ParseAddr(s.Base); err != nil {
			return nil, fmt.Errorf("--base: %v", err)
		}
		opts.BaseSet = true
	}
	for _, h := range s.Hooks {
		name, addr, ok := strings.Cut(h, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("--hook %q: want NAME=ADDR", h)
		}
		a, err := loader.ParseAddr(addr)
		if err != nil {
			return nil, fmt.Errorf("--hook %q: %v", h, err)
		}
		if opts.Hooks == nil {
			opts.Hooks = map[string]uint16{}
		}
		opts.Hooks[name] = a
	}
	for _, r := range []struct {
		flag   string
		ranges []string
		to     *[]loader.Range
	}{{"--ram", s.RAM, &opts.RAM}, {"--rom", s.ROM, &opts.ROM}} {
		for _, v := range r.ranges {
			rg, err := loader.ParseRange(v)
			if err != nil {
				return nil, fmt.Errorf("%s %q: %v", r.flag, v, err)
			}
			*r.to = append(*r.to, rg)
		}
	}
	img, err := loader.Load(path, opts)
	// The firmware and the --symbols file are the files read: name the
	// one that could not be.
	var pe *fs.PathError
	var fe *loader.FormatError
	switch {
	case err == nil:
		return img, nil
	case errors.As(err, &fe) || !errors.As(err, &pe):
		return nil, err
	}
	what := pe.Path
	if s.Symbols != "" && pe.Path == s.Symbols {
		what = "--symbols " + pe.Path
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file", what)
	}
	return nil, fmt.Errorf("%s: %v", what, pe.Err)
}

// MachineOf reads the settings into the machine's. --sci-input is an
// alphabet (check's); run, which feeds its bytes in order, leaves it out
// and sets Machine.SCIFed.
func MachineOf(s settings.MachineSpec) (MachineConfig, error) {
	mc := MachineConfig{IRQs: s.IRQ, Inputs: s.Input, Reach: s.Reach, MaxRun: s.MaxRun, IgnoreIllegal: s.IgnoreIllegal}
	var err error
	if mc.Preempt, err = sim.ParsePreempt(s.Preempt); err != nil {
		return mc, err
	}
	switch s.Batch {
	case "", "on":
	case "off":
		mc.Unbatched = true
	default:
		return mc, fmt.Errorf("--batch %q: on or off", s.Batch)
	}
	for _, st := range s.Stack {
		r := sim.StackRange{Thread: -1}
		if th, rest, ok := strings.Cut(st, ":"); ok {
			n, err := strconv.Atoi(th)
			if err != nil || n < 0 {
				return mc, fmt.Errorf("--stack %q: %q is not a thread number", st, th)
			}
			r.Thread, st = n, rest
		}
		rg, err := loader.ParseRange(st)
		if err != nil {
			return mc, fmt.Errorf("--stack %q: %v", st, err)
		}
		r.Lo, r.Hi = rg.Lo, rg.Hi
		mc.Stacks = append(mc.Stacks, r)
	}
	if s.MaxMasked != "" {
		n, err := strconv.ParseUint(strings.TrimSpace(s.MaxMasked), 0, 32)
		if err != nil || n >= 1<<31 {
			return mc, fmt.Errorf("--max-masked %q: not a number of cycles", s.MaxMasked)
		}
		v := uint32(n)
		mc.Timing.MaxMasked = &v
	}
	mc.Timing.Deadlines, mc.Timing.Latencies = s.Deadline, s.Latency
	mc.Timing.Report, mc.Timing.Cap = s.ReportTiming, s.TimingCap
	return mc, readEnvironment(s, &mc)
}

// BuildMachine builds the machine s describes on img.
func BuildMachine(img *loader.Image, s settings.MachineSpec) (*sim.Machine, error) {
	mc, err := MachineOf(s)
	if err != nil {
		return nil, err
	}
	return NewMachine(img, mc)
}

// OpenTrace reads the trace file at path and builds what replaying it
// needs: the image and the machine it was found on, and its labels. Once
// the firmware has loaded, the image comes back even with an error, for
// its warnings.
func OpenTrace(path string) (tf *cex.Trace, img *loader.Image, m *sim.Machine, labels []sim.Label, err error) {
	if tf, err = cex.ReadFile(path); err != nil {
		return nil, nil, nil, nil, err
	}
	if img, err = LoadImage(tf.Load, tf.Firmware, tf.Machine.Entry, false); err != nil {
		return nil, nil, nil, nil, err
	}
	if m, err = BuildMachine(img, tf.Machine); err != nil {
		return nil, img, nil, nil, err
	}
	if labels, err = tf.Labels(); err != nil {
		return nil, img, nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	return tf, img, m, labels, nil
}

// readEnvironment reads the settings of the firmware's environment into mc.
func readEnvironment(s settings.MachineSpec, mc *MachineConfig) error {
	switch s.Peripherals {
	case "", "auto":
	case "on":
		mc.Peripherals = PeripheralsOn
	case "off":
		mc.Peripherals = PeripheralsOff
	default:
		return fmt.Errorf("--peripherals %q: use on, off or auto", s.Peripherals)
	}
	for _, d := range s.Device {
		br, err := ParseDevice(d)
		if err != nil {
			return fmt.Errorf("--device %q: %v", d, err)
		}
		mc.Board = append(mc.Board, br)
	}
	for _, w := range s.Wire {
		wire, err := devices.ParseWire(w)
		if err != nil {
			return fmt.Errorf("--wire %q: %v", w, err)
		}
		mc.Wires = append(mc.Wires, wire)
	}
	switch s.Clock {
	case "":
	case "exact":
		mc.Clock = ClockExact
	case "abstract":
		mc.Clock = ClockAbstract
	default:
		return fmt.Errorf("--clock %q: use exact or abstract", s.Clock)
	}
	switch s.SCITiming {
	case "", "any":
	case "idle":
		mc.SCIIdle = true
	case "first":
		mc.SCIIdle, mc.SCIFirst = true, true
	default:
		return fmt.Errorf("--sci-timing %q: use any, idle or first", s.SCITiming)
	}
	if s.SCIInput != "" {
		var err error
		if mc.SCIInput, err = ParseAlphabet(s.SCIInput); err != nil {
			return fmt.Errorf("--sci-input %q: %v", s.SCIInput, err)
		}
	}
	if s.Config != "" {
		n, err := loader.ParseAddr(s.Config)
		if err != nil || n > 255 {
			return fmt.Errorf("--config %q: not a byte value", s.Config)
		}
		v := uint8(n)
		mc.ConfigRegister = &v
	}
	if s.ExpectOutput != "" {
		var err error
		if mc.ExpectOutput, err = devices.CompileMatcher(s.ExpectOutput); err != nil {
			return fmt.Errorf("--expect-output: %v", err)
		}
	}
	if s.MaxReceived > 0 {
		n := s.MaxReceived - 1
		mc.MaxReceived = &n
	}
	if s.MaxTimer > 0 {
		n := s.MaxTimer - 1
		mc.MaxTimerEvents = &n
	}
	return nil
}

// ParseDevice reads a --device value: LO-HI, and the values a read may
// return after "=".
func ParseDevice(d string) (sim.BoardRange, error) {
	rs, vals, eq := strings.Cut(d, "=")
	rg, err := loader.ParseRange(rs)
	if err != nil {
		return sim.BoardRange{}, err
	}
	if eq && strings.TrimSpace(vals) == "" {
		return sim.BoardRange{}, fmt.Errorf("no values after '=': list them (%s=0x00,0x5A), or give %s alone for reads of 0", rs, rs)
	}
	br := sim.BoardRange{Lo: rg.Lo, Hi: rg.Hi}
	if vals != "" {
		for _, v := range strings.Split(vals, ",") {
			n, err := loader.ParseAddr(strings.TrimSpace(v))
			if err != nil || n > 255 {
				return sim.BoardRange{}, fmt.Errorf("%q is not a byte value", v)
			}
			br.Values = append(br.Values, uint8(n))
		}
	}
	return br, nil
}

// ParseReduce reads --reduce: a comma-separated list of the reductions
// por and dead, or none.
func ParseReduce(v string) (por, dead bool, err error) {
	if v == "none" {
		return false, false, nil
	}
	for _, r := range strings.Split(v, ",") {
		switch strings.TrimSpace(r) {
		case "por":
			por = true
		case "dead":
			dead = true
		default:
			return false, false, fmt.Errorf("--reduce %q: the reductions are por and dead (a list: por,dead), or none", r)
		}
	}
	return por, dead, nil
}

// SymbolWarning is the warning for an image whose format carries no
// symbols, loaded without a symbol file or hooks, that calls subroutines
// shaped as harness stubs (loader.Image.StubLikeCalls): its harness calls
// are plain RTS, and the properties they raise cannot be checked. ""
// when there is nothing to warn of: firmware that calls no bare RTS uses
// no harness stub (the result still lists the harness's properties as
// not checked).
func SymbolWarning(img *loader.Image, load settings.LoadSpec, path string) string {
	if img.Format == loader.FormatELF || load.Symbols != "" || len(load.Hooks) > 0 || len(img.Symbols) > 0 {
		return ""
	}
	calls := img.StubLikeCalls()
	if len(calls) == 0 {
		return ""
	}
	article := map[loader.Format]string{loader.FormatSRec: "an S-record", loader.FormatIHex: "an Intel HEX"}[img.Format]
	if article == "" {
		article = "a raw"
	}
	return fmt.Sprintf("%s is %s image without symbols that calls %s, as harness stubs are: the harness stubs (__mc_assert, __mc_lock, ...) are unknown, "+
		"so assert, error, deadlock, mutex and unlock cannot be checked; give --symbols FILE (the output of m68hc11-nm on the ELF) or --hook NAME=ADDR",
		path, article, stubCallNote(calls))
}

// stubCallNote names the bare-RTS subroutines an image calls: "a bare RTS
// at 0xD010", "bare RTSes at 0xD010 and 0xD011", or the first three and a
// count.
func stubCallNote(calls []uint16) string {
	if len(calls) == 1 {
		return fmt.Sprintf("a bare RTS at 0x%04X", calls[0])
	}
	var names []string
	for _, a := range calls[:min(len(calls), 3)] {
		names = append(names, fmt.Sprintf("0x%04X", a))
	}
	if len(calls) > 3 {
		return fmt.Sprintf("%d bare RTSes (at %s, ...)", len(calls), strings.Join(names, ", "))
	}
	return fmt.Sprintf("bare RTSes at %s and %s", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}
