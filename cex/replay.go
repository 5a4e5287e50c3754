package cex

// Replay's listing: the registers before each transition, and the
// variables watched.

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// Watch is a variable replay shows at every step (replay --watch).
type Watch struct {
	Name string // as given: a symbol or an address
	Addr uint16
	Size int // 1 to 4 bytes, read big-endian
}

// ParseWatch reads a variable to watch: a symbol name or an address,
// optionally with :N for its width in bytes. A symbol's width is its size
// (1 to 4 bytes; else the distance to the next symbol, at most 4). An
// absolute symbol (a variable defined with `=`, as `count = 0x0040`)
// has no extent the source gives: one byte, unless the symbol table gives
// its size or :N says otherwise.
func ParseWatch(img *loader.Image, item string) (Watch, error) {
	name, width, hasWidth := strings.Cut(item, ":")
	w := Watch{Name: name, Size: 1}
	if s, ok := img.Lookup(name); ok {
		w.Addr = s.Addr
		for i := range img.Symbols {
			if img.Symbols[i] == s {
				w.Size = min(img.Extent(i), 4)
				if s.Abs && s.Size == 0 {
					w.Size = 1
				}
				break
			}
		}
	} else {
		a, err := loader.ParseAddr(name)
		var re *loader.RangeError
		if errors.As(err, &re) {
			return w, err // a number, too large: not a missing symbol
		}
		if err != nil {
			return w, fmt.Errorf("no symbol %q in %s, and not an address", name, img.Path)
		}
		w.Addr = a
	}
	if hasWidth {
		n, err := strconv.Atoi(width)
		if err != nil || n < 1 || n > 4 {
			return w, errors.New("the width after ':' is 1 to 4 bytes")
		}
		w.Size = n
	}
	return w, nil
}

// columns formats the watched values in s as name=hex fields.
func (c *Counterexample) columns(ws []Watch, s *sim.State) string {
	var b strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&b, "  %s=%0*x", w.Name, 2*w.Size, c.wide(s, w.Addr, w.Size))
	}
	return b.String()
}

// wide reads n bytes at a in s, big-endian.
func (c *Counterexample) wide(s *sim.State, a uint16, n int) uint32 {
	var v uint32
	for k := 0; k < n; k++ {
		v = v<<8 | uint32(c.m.ReadMem(s, a+uint16(k)))
	}
	return v
}

// WriteReplay writes the counterexample as replay lists it: one line per
// transition that replayed, with the registers before it, the watched
// values, the instruction and its source line; then, with watches, a
// line of their values at the end.
func (c *Counterexample) WriteReplay(w io.Writer, ws []Watch) {
	for i := range c.steps {
		if c.steps[i].after == nil {
			break
		}
		c.printReplayStep(w, i, ws)
	}
	if c.Final != nil && len(ws) > 0 {
		fmt.Fprintf(w, "final%s\n", c.columns(ws, c.Final))
	}
}

// printReplayStep prints transition i as replay lists it: the registers
// before it, the watched values, the instruction and its source line.
func (c *Counterexample) printReplayStep(w io.Writer, i int, ws []Watch) {
	st := c.steps[i]
	l := st.label
	t := &st.before.Threads[l.Thread]
	fields := sim.TraceFields(st.before, l.Thread, t.Cycles) + c.columns(ws, st.before)
	if l.Event > 0 {
		fmt.Fprintf(w, "%4d  %s  env: %s%s\n", i+1, fields, st.event, OutputNote(st.out))
		return
	}
	if l.IRQ >= 0 {
		fmt.Fprintf(w, "%4d  %s  interrupt %s -> %s\n", i+1, fields, sim.IRQName(l.IRQ), SymAddr(c.img, st.after.Threads[l.Thread].PC))
		return
	}
	hb, text := c.m.Disasm(st.before, t.PC)
	fmt.Fprintf(w, "%4d  %s  %-14s %s%s%s%s\n", i+1, fields, hb, text, c.source(t.PC), c.extra(i), OutputNote(st.out))
}
