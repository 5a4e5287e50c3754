package check

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/hc11mc/hc11mc/settings"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
)

// A board file (--board FILE) describes the hardware around the chip
// once, for every command that loads the firmware: one setting a line,
// written as its flag is — "--chip e9", "--ram 0x2000-0x7FFF", "--rom
// LO-HI", "--device LO-HI[=v,...]", "--wire oc5=xirq" (the dashes may be
// left out, and "=" may stand for the space) — with blank lines and comments from "#" to
// the end of the line. Its ranges come before those of the command line,
// and a --chip on the command line must name the board's chip, if the
// board names one. A line that is not such a setting, or whose value the
// flag would refuse, is bad input named by the file's name and the
// line's number.
//
// The board is read when the command starts and written into the
// settings it stands for (Board.Apply), so that a trace file records them
// and replays without the board file.

// Board is what a board file says.
type Board struct {
	Path string
	// Chip is the --chip line's value, "" for none; ChipLine its line.
	Chip     string
	ChipLine int
	// RAM, ROM, Device and Wire are the values of the --ram, --rom,
	// --device and --wire lines, in order.
	RAM, ROM, Device, Wire []string
}

// boardExample is an example of each setting, for the messages.
var boardExample = map[string]string{
	"--chip":   "--chip e9",
	"--ram":    "--ram 0x2000-0x7FFF",
	"--rom":    "--rom 0xE000-0xFFFF",
	"--device": "--device 0x4000-0x4000",
	"--wire":   "--wire oc5=xirq",
}

// ReadBoard reads and checks the board file at path.
func ReadBoard(path string) (*Board, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("--board %s: no such file", path)
		}
		return nil, fmt.Errorf("--board %s: %v", path, err)
	}
	defer f.Close()
	b := &Board{Path: path}
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		if err := b.setting(text, line); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--board %s: %v", path, err)
	}
	return b, nil
}

// setting reads line number line of a board file, comments gone.
func (b *Board) setting(text string, line int) error {
	name, value := text, ""
	if i := strings.IndexAny(text, " \t="); i >= 0 {
		name, value = text[:i], strings.TrimSpace(text[i+1:])
	}
	flag := "--" + strings.TrimPrefix(name, "--")
	switch flag {
	case "--chip", "--ram", "--rom", "--device", "--wire":
	default:
		return fmt.Errorf("%q is not a board setting: a board file has --chip, --ram, --rom, --device and --wire lines", name)
	}
	if value == "" {
		return fmt.Errorf("%s wants a value, e.g. %s", flag, boardExample[flag])
	}
	if strings.ContainsAny(value, " \t") {
		return fmt.Errorf("%s %s: one value a line", flag, value)
	}
	switch flag {
	case "--chip":
		if b.Chip != "" {
			return fmt.Errorf("a second --chip (line %d names %s)", b.ChipLine, b.Chip)
		}
		if _, err := loader.FindChip(value); err != nil {
			return fmt.Errorf("--chip %s: %v", value, err)
		}
		b.Chip, b.ChipLine = value, line
	case "--ram", "--rom":
		if _, err := loader.ParseRange(value); err != nil {
			return fmt.Errorf("%s %s: %v", flag, value, err)
		}
		if flag == "--ram" {
			b.RAM = append(b.RAM, value)
		} else {
			b.ROM = append(b.ROM, value)
		}
	case "--device":
		if _, err := ParseDevice(value); err != nil {
			return fmt.Errorf("--device %s: %v", value, err)
		}
		b.Device = append(b.Device, value)
	case "--wire":
		if _, err := devices.ParseWire(value); err != nil {
			return fmt.Errorf("--wire %s: %v", value, err)
		}
		b.Wire = append(b.Wire, value)
	}
	return nil
}

// Apply writes the board into the loading settings and, when devices is
// not nil, before the --device list: the board's ranges come first, and
// its chip must be the one load names, if load names one. ApplyWires
// writes its wires.
func (b *Board) Apply(load *settings.LoadSpec, devices *[]string) error {
	if b.Chip != "" {
		if load.Chip != "" && !strings.EqualFold(load.Chip, b.Chip) {
			return fmt.Errorf("--chip %s disagrees with the board (%s:%d: --chip %s)", load.Chip, b.Path, b.ChipLine, b.Chip)
		}
		load.Chip = b.Chip
	}
	load.RAM = append(append([]string(nil), b.RAM...), load.RAM...)
	load.ROM = append(append([]string(nil), b.ROM...), load.ROM...)
	if devices != nil {
		*devices = append(append([]string(nil), b.Device...), *devices...)
	}
	return nil
}

// ApplyWires writes the board's --wire lines before those of wires.
func (b *Board) ApplyWires(wires *[]string) {
	*wires = append(append([]string(nil), b.Wire...), *wires...)
}

// unescape reads the next byte of s, with the escapes \r \n \t \0, \a \b
// \e (ESC) \f \v, \xHH, and \ before punctuation (\\ \, \-) for the
// character itself; escaped reports a backslash. Another letter or digit
// after \ is refused, not read as itself.
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
	case 'a':
		return '\a', s[2:], true, nil
	case 'b':
		return '\b', s[2:], true, nil
	case 'e':
		return 0x1B, s[2:], true, nil
	case 'f':
		return '\f', s[2:], true, nil
	case 'v':
		return '\v', s[2:], true, nil
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
	if c := s[1]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80 {
		r, _ := utf8.DecodeRuneInString(s[1:])
		return 0, "", true, fmt.Errorf("unknown escape \\%c: the escapes are \\r \\n \\t \\0 \\a \\b \\e \\f \\v and \\xHH, and \\ before any other punctuation stands for it", r)
	}
	return s[1], s[2:], true, nil
}

// ParseBytes reads a string of characters with escapes (run's
// --sci-input, the bytes to feed in order).
func ParseBytes(s string) ([]byte, error) {
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

// ParseAlphabet reads check's --sci-input: characters and ranges X-Y,
// separated by commas, with escapes; each byte once, in the order given.
func ParseAlphabet(s string) ([]byte, error) {
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
