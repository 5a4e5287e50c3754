package loader

import "fmt"

// FormatError reports a problem with an input file and where in the file it is.
// Line-oriented formats (S-records, Intel HEX, symbol files) set Line;
// binary formats (ELF, raw binary) set Offset. A problem that belongs to no
// single position has Line 0 and Offset -1.
type FormatError struct {
	File   string // the file's name as given to Load or LoadBytes
	Line   int    // 1-based line number, 0 if not applicable
	Offset int64  // byte offset into the file, -1 if not applicable
	Msg    string // what is wrong, lower case, and where useful what to do
}

// Error formats the error as "file:line: msg", "file: offset 0x1a4: msg"
// or "file: msg".
func (e *FormatError) Error() string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	case e.Offset >= 0:
		return fmt.Sprintf("%s: offset %#x: %s", e.File, e.Offset, e.Msg)
	default:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
}

func lineErr(file string, line int, format string, args ...any) *FormatError {
	return &FormatError{File: file, Line: line, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

func offsetErr(file string, off int64, format string, args ...any) *FormatError {
	return &FormatError{File: file, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func fileErr(file string, format string, args ...any) *FormatError {
	return &FormatError{File: file, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}
