package cex

// How counterexamples name addresses, violations, values and outputs.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// Describe renders a violation with its symbolic location: "thread 0 at
// 0xD02E <main+0x4>: assertion failed".
func Describe(img *loader.Image, v *sim.Violation) string {
	where := ""
	if v.Thread >= 0 {
		where = fmt.Sprintf("thread %d at %s: ", v.Thread, SymAddr(img, v.PC))
	}
	return where + v.Message
}

// SymAddr prints a code address as 0xD012 <name+0x4>, or in hex alone
// where no code label precedes it or the address lies outside the image's
// code and loaded bytes (a PC that ran off into unmapped memory is not
// "stack_top+0x40f9").
func SymAddr(img *loader.Image, a uint16) string {
	if name, off, ok := codeName(img, a); ok {
		if off == 0 {
			return fmt.Sprintf("0x%04X <%s>", a, name)
		}
		return fmt.Sprintf("0x%04X <%s+0x%x>", a, name, off)
	}
	return fmt.Sprintf("0x%04X", a)
}

// symName names a code address as "main+0x3", or "".
func symName(img *loader.Image, a uint16) string {
	if name, off, ok := codeName(img, a); ok {
		return offsetName(name, off)
	}
	return ""
}

// codeName names a code address after the label before it, as objdump
// does (loader.Image.SymbolAt), where the address is in the image's code
// or among the bytes it loads; elsewhere it has no name.
func codeName(img *loader.Image, a uint16) (string, uint16, bool) {
	if _, loaded := img.Byte(a); !img.InCode(a) && !loaded {
		return "", 0, false
	}
	return img.SymbolAt(a)
}

// shortFile is a source file's name without its directory.
func shortFile(f string) string {
	if i := strings.LastIndexByte(f, '/'); i >= 0 {
		return f[i+1:]
	}
	return f
}

// offsetName names a byte off bytes into a symbol: name, or name+0x3.
func offsetName(name string, off uint16) string {
	if off == 0 {
		return name
	}
	return fmt.Sprintf("%s+0x%x", name, off)
}

// formatValue prints a value of n bytes in hex and decimal.
func formatValue(v uint16, n int) string {
	if n == 2 {
		return fmt.Sprintf("0x%04X (%d)", v, v)
	}
	return fmt.Sprintf("0x%02X (%d)", v, v)
}

// memAddr prints a data address as 0x0001 <fork+0x1>.
func memAddr(img *loader.Image, a uint16) string {
	if name, base, ok := img.MemoryName(a); ok {
		return fmt.Sprintf("0x%04X <%s>", a, offsetName(name, a-base))
	}
	return fmt.Sprintf("0x%04X", a)
}

// who names a thread and the interrupt handler it ran.
func who(thread int, ctx string) string {
	if ctx != "" {
		return fmt.Sprintf("thread %d (%s handler)", thread, ctx)
	}
	return fmt.Sprintf("thread %d", thread)
}

// OutputNote shows what a transition showed the outside world, as
// "  [SCI sends 'A']" notes after its line; "" for nothing.
func OutputNote(out []sim.Output) string {
	s := ""
	for _, o := range out {
		switch o.Kind {
		case sim.OutSCI:
			s += "  [SCI sends " + quoteBytes([]byte{o.Value}) + "]"
		case sim.OutPort:
			s += fmt.Sprintf("  [port 0x%04X <- 0x%02X]", o.Addr, o.Value)
		case sim.OutBoard:
			s += fmt.Sprintf("  [board 0x%04X <- 0x%02X]", o.Addr, o.Value)
		}
	}
	return s
}

// quoteBytes shows bytes as a Go string literal.
func quoteBytes(b []byte) string { return strconv.Quote(string(b)) }

// registers prints a thread's registers, with PC as given.
func registers(t *sim.Thread, pc uint16) string {
	return fmt.Sprintf("PC=%04x A=%02x B=%02x X=%04x Y=%04x SP=%04x CCR=%02x", pc, t.A, t.B, t.X, t.Y, t.SP, t.CCR)
}

// count spells "1 write", "3 reads".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
