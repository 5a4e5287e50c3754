package loader

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// Format is a firmware file format.
type Format int

// The file formats Load understands. FormatAuto tells them apart by content.
const (
	FormatAuto Format = iota // decide by content (see LoadBytes)
	FormatELF                // ELF32 executable for EM_68HC11
	FormatSRec               // Motorola S-records (.s19, .s28, .s37, .srec)
	FormatIHex               // Intel HEX
	FormatBin                // raw binary loaded at Options.Base
)

var formatNames = [...]string{
	FormatAuto: "auto",
	FormatELF:  "elf",
	FormatSRec: "s19",
	FormatIHex: "ihex",
	FormatBin:  "bin",
}

// String returns the name --format uses: "auto", "elf", "s19", "ihex" or "bin".
func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat parses a --format value: auto, elf, s19 (or srec), ihex (or
// hex) or bin, in any case. The empty string means auto.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return FormatAuto, nil
	case "elf":
		return FormatELF, nil
	case "s19", "srec":
		return FormatSRec, nil
	case "ihex", "hex":
		return FormatIHex, nil
	case "bin":
		return FormatBin, nil
	}
	return FormatAuto, fmt.Errorf("unknown format %q: want auto, elf, s19, ihex or bin", s)
}

var elfMagic = []byte("\x7fELF")

// detect decides the format of data by its content (see LoadBytes).
func detect(name string, data []byte, opts Options) (Format, error) {
	if bytes.HasPrefix(data, elfMagic) {
		return FormatELF, nil
	}
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) >= 2 && t[0] == 'S' && t[1] >= '0' && t[1] <= '9' {
		return FormatSRec, nil
	}
	if len(t) >= 1 && t[0] == ':' {
		return FormatIHex, nil
	}
	if strings.EqualFold(filepath.Ext(name), ".bin") || opts.BaseSet {
		return FormatBin, nil
	}
	return FormatAuto, offsetErr(name, 0,
		"cannot tell the format of %s (not ELF, S-records or Intel HEX); pass --format, and --base ADDR for a raw binary", name)
}
