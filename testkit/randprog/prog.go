package randprog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// Image loads the program as the loader would load the file with
// LoadFlags: a raw binary at Base, the hooks, and the symbols of
// SymbolFile.
func (p *Prog) Image() (*loader.Image, error) {
	img, err := loader.LoadBytes("random.bin", p.Bytes, loader.Options{Format: loader.FormatBin, Base: p.Base, BaseSet: true, Hooks: p.Hooks})
	if err != nil {
		return nil, err
	}
	img.Symbols = append(img.Symbols, p.Symbols...)
	sort.SliceStable(img.Symbols, func(i, j int) bool { return img.Symbols[i].Addr < img.Symbols[j].Addr })
	return img, nil
}

// Config is the machine configuration CheckFlags describe, for a program
// without the chip's peripherals (Harness); the others need the command
// line, which builds the peripherals, and get an error.
func (p *Prog) Config(img *loader.Image) (sim.Config, error) {
	if p.Mode != Harness {
		return sim.Config{}, fmt.Errorf("a %s program needs the chip's peripherals: check it through the command line", p.Mode)
	}
	cfg := sim.Config{Entry: img.Entry, Preempt: sim.PreemptEvery, IRQs: p.IRQ, Stacks: p.Stacks}
	for a, vs := range p.Inputs {
		if cfg.Inputs == nil {
			cfg.Inputs = map[uint16][]uint8{}
		}
		n, err := loader.ParseAddr(a)
		if err != nil {
			return sim.Config{}, err
		}
		cfg.Inputs[n] = vs
	}
	return cfg, nil
}

// SymbolFile is the --symbols file of the program's data symbols and
// equates, in the format of m68hc11-nm ("" when it has none).
func (p *Prog) SymbolFile() string {
	var b strings.Builder
	for _, s := range p.Symbols {
		t := "B"
		if s.Abs {
			t = "A"
		}
		fmt.Fprintf(&b, "%04x %s %s\n", s.Addr, t, s.Name)
	}
	return b.String()
}

// LoadFlags are the flags that load the program from image (the file
// holding Bytes) and symbols (the file holding SymbolFile, "" when it is
// empty).
func (p *Prog) LoadFlags(image, symbols string) []string {
	args := []string{image, "--format", "bin", "--base", fmt.Sprintf("0x%04x", p.Base)}
	names := make([]string, 0, len(p.Hooks))
	for n := range p.Hooks {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		args = append(args, "--hook", fmt.Sprintf("%s=0x%04x", n, p.Hooks[n]))
	}
	if symbols != "" {
		args = append(args, "--symbols", symbols)
	}
	return args
}

// CheckFlags are the flags of the machine the program is checked on:
// interrupts, stack range, inputs, and the environment of its chip.
func (p *Prog) CheckFlags() []string {
	var args []string
	if p.Mode == HarnessChip {
		args = append(args, "--peripherals", "on")
	}
	if len(p.IRQ) > 0 {
		args = append(args, "--irq", strings.Join(p.IRQ, ","))
	}
	for _, s := range p.Stacks {
		r := fmt.Sprintf("0x%04x-0x%04x", s.Lo, s.Hi)
		if s.Thread >= 0 {
			r = fmt.Sprintf("%d:%s", s.Thread, r)
		}
		args = append(args, "--stack", r)
	}
	keys := make([]string, 0, len(p.Inputs))
	for k := range p.Inputs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var vs []string
		for _, v := range p.Inputs[k] {
			vs = append(vs, fmt.Sprintf("0x%02x", v))
		}
		args = append(args, "--input", k+"="+strings.Join(vs, ","))
	}
	if p.SCIInput != "" {
		args = append(args, "--sci-input", p.SCIInput)
	}
	if p.ExpectOutput != "" {
		args = append(args, "--expect-output", p.ExpectOutput)
	}
	return args
}

// String describes the program for a failing test: its kind, its
// features, the flags it is checked with, its symbols and its listing.
func (p *Prog) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s program, image at 0x%04x; features: %s\n", p.Mode, p.Base, strings.Join(p.Features, " "))
	fmt.Fprintf(&b, "flags: %s\n", strings.Join(p.CheckFlags(), " "))
	if s := p.SymbolFile(); s != "" {
		fmt.Fprintf(&b, "symbols:\n%s", s)
	}
	b.WriteString(p.Listing)
	return b.String()
}
