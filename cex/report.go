package cex

import (
	"fmt"

	"github.com/hc11mc/hc11mc/sim"
)

// Report is a replayed counterexample as data: what replay --json prints.
type Report struct {
	Trace      string       `json:"trace"`
	Firmware   string       `json:"firmware"`
	Reproduced bool         `json:"reproduced"`
	Expected   *Violation   `json:"expected,omitempty"`  // the violation the trace records
	Violation  *Violation   `json:"violation,omitempty"` // the violation the replay ended with
	Error      string       `json:"error,omitempty"`     // why it does not replay
	Watch      []string     `json:"watch,omitempty"`
	Steps      []ReportStep `json:"steps"`
	Final      *ReportFinal `json:"final,omitempty"` // at the violation
}

// ReportStep is one transition of a Report.
type ReportStep struct {
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
	Registers    Registers         `json:"registers"` // before the step
	Watch        map[string]uint32 `json:"watch,omitempty"`
	Accesses     []ReportAccess    `json:"accesses,omitempty"`
}

// Registers are a thread's registers, in hex.
type Registers struct {
	Cycles uint64 `json:"cycles"`
	PC     string `json:"pc"`
	A      string `json:"a"`
	B      string `json:"b"`
	X      string `json:"x"`
	Y      string `json:"y"`
	SP     string `json:"sp"`
	CCR    string `json:"ccr"`
}

// ReportAccess is one operand a transition read or wrote, with its value
// before and after (big-endian for two bytes).
type ReportAccess struct {
	PC     string `json:"pc"` // the instruction that accessed it
	Addr   string `json:"addr"`
	Name   string `json:"name,omitempty"`
	Size   int    `json:"size"`
	Read   bool   `json:"read,omitempty"`
	Write  bool   `json:"write,omitempty"`
	Before uint16 `json:"before"`
	After  uint16 `json:"after"`
}

// ReportFinal is the state at the violation.
type ReportFinal struct {
	Threads   []ReportThread    `json:"threads"`
	Watch     map[string]uint32 `json:"watch,omitempty"`
	Variables []ReportVariable  `json:"variables,omitempty"`
}

// ReportThread is one thread at the violation and what it is doing.
type ReportThread struct {
	Thread    int       `json:"thread"`
	Status    string    `json:"status"`
	Registers Registers `json:"registers"`
}

// ReportVariable is a variable the trace accessed: its value at the
// violation and how often it was written and read.
type ReportVariable struct {
	Name   string `json:"name"`
	Addr   string `json:"addr"`
	Size   int    `json:"size"`
	Value  uint16 `json:"value"`
	Writes int    `json:"writes"`
	Reads  int    `json:"reads"`
}

// regsJSON shows t's registers, with PC as given.
func regsJSON(t *sim.Thread, pc uint16) Registers {
	return Registers{Cycles: t.Cycles, PC: fmt.Sprintf("0x%04X", pc), A: fmt.Sprintf("0x%02X", t.A), B: fmt.Sprintf("0x%02X", t.B),
		X: fmt.Sprintf("0x%04X", t.X), Y: fmt.Sprintf("0x%04X", t.Y), SP: fmt.Sprintf("0x%04X", t.SP), CCR: fmt.Sprintf("0x%02X", t.CCR)}
}

// watchMap holds the watched values in s.
func (c *Counterexample) watchMap(ws []Watch, s *sim.State) map[string]uint32 {
	if len(ws) == 0 {
		return nil
	}
	m := map[string]uint32{}
	for _, w := range ws {
		m[w.Name] = c.wide(s, w.Addr, w.Size)
	}
	return m
}

// Report is the replay as replay --json prints it: the steps with their
// registers, watched values and accesses, and the threads and variables
// at the violation; recorded is the violation the trace file records.
// Trace and Firmware are left to the caller.
func (c *Counterexample) Report(recorded *Violation, ws []Watch) *Report {
	r := &Report{Expected: recorded}
	if err := c.Check(recorded); err != nil {
		r.Error = err.Error()
	} else {
		r.Reproduced = true
	}
	if c.Violation != nil {
		r.Violation = NewViolation(c.m, c.Violation)
	}
	for _, w := range ws {
		r.Watch = append(r.Watch, w.Name)
	}
	r.Steps = []ReportStep{}
	acc := c.acc
	for i, st := range c.steps {
		if st.after == nil {
			break
		}
		l := st.label
		t := &st.before.Threads[l.Thread]
		sj := ReportStep{Step: i + 1, Thread: l.Thread, Handler: st.ctx, PC: fmt.Sprintf("0x%04X", t.PC), Symbol: symName(c.img, t.PC),
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
			aj := ReportAccess{PC: fmt.Sprintf("0x%04X", a.pc), Addr: fmt.Sprintf("0x%04X", a.addr), Size: int(a.size), Read: a.read, Write: a.write, Before: a.before, After: a.after}
			if name, base, ok := c.img.MemoryName(a.addr); ok {
				aj.Name = offsetName(name, a.addr-base)
			}
			sj.Accesses = append(sj.Accesses, aj)
		}
		r.Steps = append(r.Steps, sj)
	}
	if c.Final != nil {
		f := &ReportFinal{Watch: c.watchMap(ws, c.Final)}
		for i := range c.Final.Threads {
			f.Threads = append(f.Threads, ReportThread{Thread: i, Status: c.status(i), Registers: regsJSON(&c.Final.Threads[i], c.threadPC(i))})
		}
		for _, h := range c.history() {
			f.Variables = append(f.Variables, ReportVariable{Name: h.v.name, Addr: fmt.Sprintf("0x%04X", h.v.addr), Size: h.v.size,
				Value: c.value(c.Final, h.v.addr, h.v.size), Writes: len(h.writes), Reads: len(h.reads)})
		}
		r.Final = f
	}
	return r
}
