package findings

import (
	"fmt"
	"io"
)

// WriteLines writes the findings as compilers write diagnostics, one line
// each, FILE:LINE:COL: error: MESSAGE [KIND], followed by a note: line
// for each step that matters; a goal reached (reach, output) is a note:
// line of its own. A location without a source line is the image's path
// with the address in the message.
func WriteLines(w io.Writer, fs []Finding) {
	for _, f := range fs {
		level := "error"
		if f.Goal {
			level = "note"
		}
		msg := f.Message
		if f.Thread < 0 {
			msg = "at " + f.Symbol + ": " + msg
		}
		fmt.Fprintf(w, "%s: %s: %s [%s]\n", f.Location.prefix(), level, msg, f.Kind)
		for _, n := range f.Notes {
			m := n.Message
			if n.File == "" {
				m = "at " + n.Symbol + ": " + m
			}
			fmt.Fprintf(w, "%s: note: %s\n", n.Location.prefix(), m)
		}
	}
}

// prefix is the location as a diagnostic begins: FILE:LINE:COL, or the
// image's path without a source line.
func (l Location) prefix() string {
	if l.File == "" {
		return l.Image
	}
	return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Column)
}
