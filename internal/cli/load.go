package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/loader"
)

// loadFlags are the flags of every command that loads firmware; their
// values are what a trace file records of the loading.
type loadFlags struct {
	cex.LoadSpec
	// Board is --board FILE until applyBoard writes what the file says
	// into the other flags (board.go).
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
	fs.StringVar(&l.Board, "board", "", "FILE: the board around the chip, described once: --chip, --ram, --rom and --device lines, # comments")
}

// load reads the firmware with the flags; entry is --entry ("" for none).
// A --board file not yet applied gives its chip and ranges (a command
// with --device applies it first: applyBoard).
func (l *loadFlags) load(path, entry string, allowNoEntry bool) (*loader.Image, error) {
	var opts loader.Options
	if err := l.applyBoard(nil); err != nil {
		return nil, err
	}
	var err error
	if opts.Format, err = loader.ParseFormat(l.Format); err != nil {
		return nil, usagef("--format: %v", err)
	}
	if l.Base != "" {
		if opts.Base, err = loader.ParseAddr(l.Base); err != nil {
			return nil, usagef("--base: %v", err)
		}
		opts.BaseSet = true
	}
	opts.Symbols = l.Symbols
	opts.Chip = l.Chip
	opts.Entry = entry
	opts.AllowNoEntry = allowNoEntry
	for _, h := range l.Hooks {
		name, addr, ok := strings.Cut(h, "=")
		if !ok || name == "" {
			return nil, usagef("--hook %q: want NAME=ADDR", h)
		}
		a, err := loader.ParseAddr(addr)
		if err != nil {
			return nil, usagef("--hook %q: %v", h, err)
		}
		if opts.Hooks == nil {
			opts.Hooks = map[string]uint16{}
		}
		opts.Hooks[name] = a
	}
	for _, r := range l.RAM {
		rg, err := loader.ParseRange(r)
		if err != nil {
			return nil, usagef("--ram %q: %v", r, err)
		}
		opts.RAM = append(opts.RAM, rg)
	}
	for _, r := range l.ROM {
		rg, err := loader.ParseRange(r)
		if err != nil {
			return nil, usagef("--rom %q: %v", r, err)
		}
		opts.ROM = append(opts.ROM, rg)
	}
	img, err := loader.Load(path, opts)
	if err != nil {
		var fe *loader.FormatError
		if errors.As(err, &fe) {
			return nil, usagef("%v", err)
		}
		// The firmware and the --symbols file are the files read: name
		// the one that could not be.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			what := pe.Path
			if l.Symbols != "" && pe.Path == l.Symbols {
				what = "--symbols " + pe.Path
			}
			if errors.Is(err, fs.ErrNotExist) {
				return nil, usagef("%s: no such file", what)
			}
			return nil, usagef("%s: %v", what, pe.Err)
		}
		return nil, usagef("%v", err)
	}
	for _, w := range img.Warnings {
		fmt.Fprintf(os.Stderr, "hc11mc: warning: %s\n", w)
	}
	return img, nil
}
