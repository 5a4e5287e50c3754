package cli

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
)

// loadFlags are the flags of every command that loads firmware; their
// values are what a trace file records of the loading.
type loadFlags struct {
	cex.LoadSpec
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
	fs.StringVar(&l.Board, "board", "", "FILE: the board around the chip, described once: --chip, --ram, --rom and --device lines, # comments")
}

// applyBoard reads the --board file, if one is given, into the loading
// flags and, when devices is not nil, the --device list, and forgets the
// file: what it said is now the flags'.
func (l *loadFlags) applyBoard(devices *[]string) error {
	if l.Board == "" {
		return nil
	}
	b, err := check.ReadBoard(l.Board)
	if err == nil {
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
