package cex

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/settings"
	"github.com/hc11mc/hc11mc/sim"
)

// Version is the trace format's version, the value of "hc11mc_trace".
const Version = 1

// Trace is a counterexample as a file: the firmware and every setting that
// shapes the machine it was found on, the violation, and one entry per
// transition.
type Trace struct {
	Version  int    `json:"hc11mc_trace"`
	Firmware string `json:"firmware"` // absolute (relative to where check ran in older traces)
	// FromTrace is the firmware's path relative to the trace file's
	// directory, for a trace moved together with its firmware.
	FromTrace string               `json:"firmware_from_trace,omitempty"`
	Load      settings.LoadSpec    `json:"load"`
	Machine   settings.MachineSpec `json:"machine"`
	Violation *Violation           `json:"violation"`
	Steps     []Step               `json:"steps"`
}

// Step is one transition of a trace.
type Step struct {
	Thread int    `json:"thread"`
	IRQ    string `json:"irq,omitempty"`
	Steps  uint32 `json:"instructions"`
	Choice uint64 `json:"choice"`
	PC     string `json:"pc"` // where the thread was before the transition, for reading
	// Event is an environment event's number (sim.Label.Event), What
	// says what it is, for reading.
	Event uint32 `json:"event,omitempty"`
	What  string `json:"what,omitempty"`
}

// Violation is a violation as traces and JSON results name it.
type Violation struct {
	Kind        string `json:"kind"`
	Message     string `json:"message"`
	Thread      int    `json:"thread"`
	PC          string `json:"pc"`
	Instruction string `json:"instruction,omitempty"`
	// Interval is, for a timing property, the interval of global time
	// (cycles since power-up along the trace) the violation measured.
	Interval *Interval `json:"interval,omitempty"`
}

// Interval is a timing violation's interval: from and to the global
// cycle, and its length.
type Interval struct {
	From   uint64 `json:"from_cycle"`
	To     uint64 `json:"to_cycle"`
	Cycles uint64 `json:"cycles"`
}

// NewViolation describes v, found on m, with the instruction at its PC.
func NewViolation(m *sim.Machine, v *sim.Violation) *Violation {
	vj := &Violation{Kind: v.Kind.String(), Message: v.Message, Thread: v.Thread, PC: fmt.Sprintf("0x%04X", v.PC)}
	if v.To != 0 {
		vj.Interval = &Interval{From: v.From, To: v.To, Cycles: v.To - v.From}
	}
	if v.Thread >= 0 {
		_, text := m.Disasm(m.Initial(), v.PC)
		vj.Instruction = text
	}
	return vj
}

// NewTrace records the counterexample labels, ending in v, that was found
// on m for the firmware at path, loaded and set up as load and machine
// say. Where m's own configuration decides what the trace records (the
// illegal-opcode trap), m wins: a swarm member's settings are a copy. A
// batch of the search (sim/batch.go) is recorded as the transitions it
// ran through (search.Unbatch), so that the trace replays with --batch
// on and off alike.
func NewTrace(path string, load settings.LoadSpec, machine settings.MachineSpec, m *sim.Machine, labels []sim.Label, v *sim.Violation) *Trace {
	t := &Trace{Version: Version, Firmware: path, Load: load, Machine: machine, Violation: NewViolation(m, v)}
	t.Machine.IgnoreIllegal = m.Config.IgnoreIllegal
	labels = search.Unbatch(m, labels)
	m = m.Counted() // the machine search.Replay replays on
	states, _, _ := search.Replay(m, labels)
	for i, l := range labels {
		st := Step{Thread: l.Thread, Steps: l.Steps, Choice: l.Choice, Event: l.Event, What: eventWhat(m, states, i, l)}
		if l.IRQ >= 0 {
			st.IRQ = sim.IRQName(l.IRQ)
		}
		if i < len(states) {
			st.PC = fmt.Sprintf("0x%04X", states[i].Threads[l.Thread].PC)
		}
		t.Steps = append(t.Steps, st)
	}
	return t
}

// eventWhat describes transition i of a trace when it is an environment
// event.
func eventWhat(m *sim.Machine, states []*sim.State, i int, l sim.Label) string {
	if l.Event == 0 || i >= len(states) {
		return ""
	}
	return m.EventText(states[i], int(l.Event-1))
}

// Label is the transition s stands for.
func (s *Step) Label() (sim.Label, error) {
	l := sim.Label{Thread: s.Thread, IRQ: -1, Steps: s.Steps, Choice: s.Choice, Event: s.Event}
	if s.IRQ != "" {
		v, ok := sim.VectorIndex(s.IRQ)
		if !ok {
			return l, fmt.Errorf("unknown interrupt %q", s.IRQ)
		}
		l.IRQ = v
	}
	return l, nil
}

// Labels returns the transitions of t, for search.Replay; the error names
// the first step that is not one (counting from 1).
func (t *Trace) Labels() ([]sim.Label, error) {
	var labels []sim.Label
	for i := range t.Steps {
		l, err := t.Steps[i].Label()
		if err != nil {
			return nil, fmt.Errorf("step %d: %v", i+1, err)
		}
		labels = append(labels, l)
	}
	return labels, nil
}

// WriteFile writes t to path as indented JSON.
func (t *Trace) WriteFile(path string) error {
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// Locate records the firmware's path absolute, and relative to the trace
// file to be written at tracePath, so that ReadFile finds it from any
// directory and after the two have moved together.
func (t *Trace) Locate(tracePath string) {
	abs, err := filepath.Abs(t.Firmware)
	if err != nil {
		return
	}
	t.Firmware = abs
	if dir, err := filepath.Abs(filepath.Dir(tracePath)); err == nil {
		if rel, err := filepath.Rel(dir, abs); err == nil {
			t.FromTrace = filepath.ToSlash(rel)
		}
	}
}

// ReadFile reads the trace file at path. Its Firmware is where the trace
// says, else where it lies relative to the trace file (a trace moved with
// its firmware); a relative path in an older trace, written relative to
// where check ran, may also be relative to the trace. Every error is about
// the file: it cannot be read, or it is not a trace.
func ReadFile(path string) (*Trace, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var t Trace
	if err := json.Unmarshal(b, &t); err != nil {
		if se, ok := err.(*json.SyntaxError); ok {
			return nil, fmt.Errorf("%s: offset %d: not a trace file: %v", path, se.Offset, err)
		}
		return nil, fmt.Errorf("%s: not a trace file: %v", path, err)
	}
	if t.Version != Version || t.Firmware == "" {
		return nil, fmt.Errorf("%s: not an hc11mc trace (no \"hc11mc_trace\": 1 and firmware)", path)
	}
	if _, err := os.Stat(t.Firmware); err != nil {
		var alts []string
		if t.FromTrace != "" {
			alts = append(alts, filepath.Join(filepath.Dir(path), t.FromTrace))
		}
		if !filepath.IsAbs(t.Firmware) {
			alts = append(alts, filepath.Join(filepath.Dir(path), t.Firmware))
		}
		for _, alt := range alts {
			if _, err := os.Stat(alt); err == nil {
				t.Firmware = alt
				break
			}
		}
	}
	return &t, nil
}
