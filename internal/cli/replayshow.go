package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// replayOptions are replay's flags for what it shows.
type replayOptions struct {
	watch []string // --watch SYM[,SYM]: a column per variable
	json  bool     // --json: steps and watched values as one JSON object
}

// watched is a variable replay --watch shows at every step.
type watched struct {
	name string
	addr uint16
	size int
}

// parseWatch reads --watch: symbol names or addresses, each optionally
// with :N for its width in bytes. A symbol's width is its size (1 to 4
// bytes; else the distance to the next symbol, at most 4).
func parseWatch(img *loader.Image, list []string) ([]watched, error) {
	var ws []watched
	for _, item := range list {
		name, width, hasWidth := strings.Cut(item, ":")
		w := watched{name: name, size: 1}
		if s, ok := img.Lookup(name); ok {
			w.addr = s.Addr
			for i := range img.Symbols {
				if img.Symbols[i] == s {
					w.size = min(img.Extent(i), 4)
					break
				}
			}
		} else {
			a, err := loader.ParseAddr(name)
			if err != nil {
				return nil, usagef("--watch %q: no symbol %q in %s, and not an address", item, name, img.Path)
			}
			w.addr = a
		}
		if hasWidth {
			n, err := strconv.Atoi(width)
			if err != nil || n < 1 || n > 4 {
				return nil, usagef("--watch %q: the width after ':' is 1 to 4 bytes", item)
			}
			w.size = n
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// columns formats the watched values in s as name=hex fields.
func (c *replayed) columns(ws []watched, s *sim.State) string {
	var b strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&b, "  %s=%0*x", w.name, 2*w.size, c.wide(s, w.addr, w.size))
	}
	return b.String()
}

func (c *replayed) wide(s *sim.State, a uint16, n int) uint32 {
	var v uint32
	for k := 0; k < n; k++ {
		v = v<<8 | uint32(c.m.ReadMem(s, a+uint16(k)))
	}
	return v
}

// printReplayStep prints transition i as replay lists it: the registers
// before it, the watched values, the instruction and its source line.
func (c *replayed) printReplayStep(w io.Writer, i int, ws []watched) {
	st := c.steps[i]
	l := st.label
	t := &st.before.Threads[l.Thread]
	fields := sim.TraceFields(st.before, l.Thread, t.Cycles) + c.columns(ws, st.before)
	if l.Event > 0 {
		fmt.Fprintf(w, "%4d  %s  env: %s%s\n", i+1, fields, st.event, outputNote(st.out))
		return
	}
	if l.IRQ >= 0 {
		fmt.Fprintf(w, "%4d  %s  interrupt %s -> %s\n", i+1, fields, sim.IRQName(l.IRQ), symAddr(c.img, st.after.Threads[l.Thread].PC))
		return
	}
	hb, text := c.m.Disasm(st.before, t.PC)
	fmt.Fprintf(w, "%4d  %s  %-14s %s%s%s%s\n", i+1, fields, hb, text, c.source(t.PC), c.extra(i), outputNote(st.out))
}

// replayJSON is replay --json's output.
type replayJSON struct {
	Trace      string           `json:"trace"`
	Firmware   string           `json:"firmware"`
	Reproduced bool             `json:"reproduced"`
	Expected   *cex.Violation   `json:"expected,omitempty"`  // the violation the trace records
	Violation  *cex.Violation   `json:"violation,omitempty"` // the violation the replay ended with
	Error      string           `json:"error,omitempty"`     // why it does not replay
	Watch      []string         `json:"watch,omitempty"`
	Steps      []replayStepJSON `json:"steps"`
	Final      *finalJSON       `json:"final,omitempty"` // at the violation
}

type replayStepJSON struct {
	Step         int               `json:"step"`
	Thread       int               `json:"thread"`
	Handler      string            `json:"handler,omitempty"`  // the interrupt handler the thread ran in
	IRQ          string            `json:"irq,omitempty"`      // the interrupt this step takes
	Event        string            `json:"event,omitempty"`    // the environment event this step is
	Sent         string            `json:"sci_sent,omitempty"` // bytes the SCI sent in this step
	PC           string            `json:"pc"`
	Symbol       string            `json:"symbol,omitempty"`
	Source       string            `json:"source,omitempty"`
	Bytes        string            `json:"bytes,omitempty"`
	Instruction  string            `json:"instruction,omitempty"`
	Instructions uint32            `json:"instructions"`
	LastPC       string            `json:"last_pc,omitempty"` // the last instruction of a longer step
	Next         string            `json:"next_pc,omitempty"` // the thread's PC after the step
	Choice       uint64            `json:"choice,omitempty"`
	Registers    registersJSON     `json:"registers"` // before the step
	Watch        map[string]uint32 `json:"watch,omitempty"`
	Accesses     []accessJSON      `json:"accesses,omitempty"`
}

type registersJSON struct {
	Cycles uint64 `json:"cycles"`
	PC     string `json:"pc"`
	A      string `json:"a"`
	B      string `json:"b"`
	X      string `json:"x"`
	Y      string `json:"y"`
	SP     string `json:"sp"`
	CCR    string `json:"ccr"`
}

type accessJSON struct {
	Addr   string `json:"addr"`
	Name   string `json:"name,omitempty"`
	Size   int    `json:"size"`
	Read   bool   `json:"read,omitempty"`
	Write  bool   `json:"write,omitempty"`
	Before uint16 `json:"before"`
	After  uint16 `json:"after"`
}

type finalJSON struct {
	Threads   []threadJSON      `json:"threads"`
	Watch     map[string]uint32 `json:"watch,omitempty"`
	Variables []variableJSON    `json:"variables,omitempty"`
}

type threadJSON struct {
	Thread    int           `json:"thread"`
	Status    string        `json:"status"`
	Registers registersJSON `json:"registers"`
}

type variableJSON struct {
	Name   string `json:"name"`
	Addr   string `json:"addr"`
	Size   int    `json:"size"`
	Value  uint16 `json:"value"`
	Writes int    `json:"writes"`
	Reads  int    `json:"reads"`
}

func regsJSON(t *sim.Thread, pc uint16) registersJSON {
	return registersJSON{Cycles: t.Cycles, PC: fmt.Sprintf("0x%04X", pc), A: fmt.Sprintf("0x%02X", t.A), B: fmt.Sprintf("0x%02X", t.B),
		X: fmt.Sprintf("0x%04X", t.X), Y: fmt.Sprintf("0x%04X", t.Y), SP: fmt.Sprintf("0x%04X", t.SP), CCR: fmt.Sprintf("0x%02X", t.CCR)}
}

func (c *replayed) watchMap(ws []watched, s *sim.State) map[string]uint32 {
	if len(ws) == 0 {
		return nil
	}
	m := map[string]uint32{}
	for _, w := range ws {
		m[w.name] = c.wide(s, w.addr, w.size)
	}
	return m
}

// symName names a code address as "main+0x3", or "".
func symName(img *loader.Image, a uint16) string {
	if name, off, ok := img.SymbolAt(a); ok {
		return offsetName(name, off)
	}
	return ""
}

// writeReplayJSON prints the replay as one JSON object.
func (c *replayed) writeReplayJSON(w io.Writer, r *replayJSON, ws []watched) {
	for _, w := range ws {
		r.Watch = append(r.Watch, w.name)
	}
	r.Steps = []replayStepJSON{}
	acc := c.acc
	for i, st := range c.steps {
		if st.after == nil {
			break
		}
		l := st.label
		t := &st.before.Threads[l.Thread]
		sj := replayStepJSON{Step: i + 1, Thread: l.Thread, Handler: st.ctx, PC: fmt.Sprintf("0x%04X", t.PC), Symbol: symName(c.img, t.PC),
			Instructions: l.Steps, Choice: l.Choice, Registers: regsJSON(t, t.PC), Watch: c.watchMap(ws, st.before),
			Next: fmt.Sprintf("0x%04X", st.after.Threads[l.Thread].PC)}
		for _, o := range st.out {
			if o.Kind == sim.OutSCI {
				sj.Sent += string(rune(o.Value))
			}
		}
		switch {
		case l.Event > 0:
			sj.Event = st.event
		case l.IRQ >= 0:
			sj.IRQ = sim.IRQName(l.IRQ)
		default:
			sj.Bytes, sj.Instruction = c.m.Disasm(st.before, t.PC)
			if le, ok := c.img.LineAt(t.PC); ok {
				sj.Source = fmt.Sprintf("%s:%d", shortFile(le.File), le.Line)
			}
			if l.Steps > 1 {
				sj.LastPC = fmt.Sprintf("0x%04X", st.after.Threads[l.Thread].PrevPC)
			}
		}
		for len(acc) > 0 && acc[0].step == i {
			a := acc[0]
			acc = acc[1:]
			aj := accessJSON{Addr: fmt.Sprintf("0x%04X", a.addr), Size: int(a.size), Read: a.read, Write: a.write, Before: a.before, After: a.after}
			if name, base, ok := c.img.MemoryName(a.addr); ok {
				aj.Name = offsetName(name, a.addr-base)
			}
			sj.Accesses = append(sj.Accesses, aj)
		}
		r.Steps = append(r.Steps, sj)
	}
	if c.final != nil {
		f := &finalJSON{Watch: c.watchMap(ws, c.final)}
		for i := range c.final.Threads {
			f.Threads = append(f.Threads, threadJSON{Thread: i, Status: c.status(i), Registers: regsJSON(&c.final.Threads[i], c.threadPC(i))})
		}
		for _, h := range c.history() {
			f.Variables = append(f.Variables, variableJSON{Name: h.v.name, Addr: fmt.Sprintf("0x%04X", h.v.addr), Size: h.v.size,
				Value: c.value(c.final, h.v.addr, h.v.size), Writes: len(h.writes), Reads: len(h.reads)})
		}
		r.Final = f
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // instructions print as "jsr 0xd002 <__mc_assert>"
	enc.SetIndent("", "  ")
	enc.Encode(r)
}
