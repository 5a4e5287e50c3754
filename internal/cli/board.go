package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// A board file (--board FILE) describes the hardware around the chip
// once, for every command that loads the firmware: one setting a line,
// written as its flag is — "--chip e9", "--ram 0x2000-0x7FFF", "--rom
// LO-HI", "--device LO-HI[=v,...]" (the dashes may be left out, and "="
// may stand for the space) — with blank lines and comments from "#" to
// the end of the line. Its ranges come before those of the command line,
// and a --chip on the command line must name the board's chip, if the
// board names one. A line that is not such a setting, or whose value the
// flag would refuse, is bad input (exit 2) named by the file's name and
// the line's number.
//
// The board is read when the command starts and written into the
// settings it stands for, so that a trace file records them and replays
// without the board file.

// board is what a board file says.
type board struct {
	path     string
	chip     string
	chipLine int
	ram      []string
	rom      []string
	device   []string
}

// readBoard reads and checks a board file.
func readBoard(path string) (*board, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, usagef("--board %s: no such file", path)
		}
		return nil, usagef("--board %s: %v", path, err)
	}
	defer f.Close()
	b := &board{path: path}
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		bad := func(format string, args ...any) error {
			return usagef("%s:%d: %s", path, line, fmt.Sprintf(format, args...))
		}
		name, value := text, ""
		if i := strings.IndexAny(text, " \t="); i >= 0 {
			name, value = text[:i], strings.TrimSpace(text[i+1:])
		}
		flag := "--" + strings.TrimPrefix(name, "--")
		switch flag {
		case "--chip", "--ram", "--rom", "--device":
		default:
			return nil, bad("%q is not a board setting: a board file has --chip, --ram, --rom and --device lines", name)
		}
		if value == "" {
			return nil, bad("%s wants a value, e.g. %s", flag, boardExample[flag])
		}
		if strings.ContainsAny(value, " \t") {
			return nil, bad("%s %s: one value a line", flag, value)
		}
		switch flag {
		case "--chip":
			if b.chip != "" {
				return nil, bad("a second --chip (line %d names %s)", b.chipLine, b.chip)
			}
			if _, err := loader.FindChip(value); err != nil {
				return nil, bad("--chip %s: %v", value, err)
			}
			b.chip, b.chipLine = value, line
		case "--ram", "--rom":
			if _, err := loader.ParseRange(value); err != nil {
				return nil, bad("%s %s: %v", flag, value, err)
			}
			if flag == "--ram" {
				b.ram = append(b.ram, value)
			} else {
				b.rom = append(b.rom, value)
			}
		case "--device":
			if _, err := parseDevice(value); err != nil {
				return nil, bad("--device %s: %v", value, err)
			}
			b.device = append(b.device, value)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, usagef("--board %s: %v", path, err)
	}
	return b, nil
}

var boardExample = map[string]string{
	"--chip":   "--chip e9",
	"--ram":    "--ram 0x2000-0x7FFF",
	"--rom":    "--rom 0xE000-0xFFFF",
	"--device": "--device 0x4000-0x4000",
}

// applyBoard reads the --board file, if one is given, into the loading
// flags and, when devices is not nil, the --device list, and forgets the
// file: what it said is now the flags'.
func (l *loadFlags) applyBoard(devices *[]string) error {
	if l.Board == "" {
		return nil
	}
	b, err := readBoard(l.Board)
	if err != nil {
		return err
	}
	if b.chip != "" {
		if l.Chip != "" && !strings.EqualFold(l.Chip, b.chip) {
			return usagef("--chip %s disagrees with the board (%s:%d: --chip %s)", l.Chip, b.path, b.chipLine, b.chip)
		}
		l.Chip = b.chip
	}
	l.RAM = append(append([]string(nil), b.ram...), l.RAM...)
	l.ROM = append(append([]string(nil), b.rom...), l.ROM...)
	if devices != nil {
		*devices = append(append([]string(nil), b.device...), *devices...)
	}
	l.Board = ""
	return nil
}

// parseDevice reads a --device value: LO-HI, and the values a read may
// return after "=".
func parseDevice(d string) (sim.BoardRange, error) {
	rs, vals, _ := strings.Cut(d, "=")
	rg, err := loader.ParseRange(rs)
	if err != nil {
		return sim.BoardRange{}, err
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
