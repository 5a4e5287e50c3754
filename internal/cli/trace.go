package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// traceFile is a counterexample as `check --trace` writes it and `replay`
// reads it: the firmware and every flag that shapes the machine, the
// violation, and one entry per transition.
type traceFile struct {
	Version  int    `json:"hc11mc_trace"`
	Firmware string `json:"firmware"` // absolute (relative to where check ran in older traces)
	// FromTrace is the firmware's path relative to the trace file's
	// directory, for a trace moved together with its firmware.
	FromTrace string         `json:"firmware_from_trace,omitempty"`
	Load      loadFlags      `json:"load"`
	Machine   machineFlags   `json:"machine"`
	Violation *violationJSON `json:"violation"`
	Steps     []traceStep    `json:"steps"`
}

type traceStep struct {
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

// eventWhat describes transition i of a trace when it is an environment
// event.
func eventWhat(m *sim.Machine, states []*sim.State, i int, l sim.Label) string {
	if l.Event == 0 || i >= len(states) {
		return ""
	}
	return m.EventInfo(states[i], int(l.Event-1)).String()
}

type violationJSON struct {
	Kind        string `json:"kind"`
	Message     string `json:"message"`
	Thread      int    `json:"thread"`
	PC          string `json:"pc"`
	Instruction string `json:"instruction,omitempty"`
}

func (t *traceStep) label() (sim.Label, error) {
	l := sim.Label{Thread: t.Thread, IRQ: -1, Steps: t.Steps, Choice: t.Choice, Event: t.Event}
	if t.IRQ != "" {
		v, ok := sim.VectorIndex(t.IRQ)
		if !ok {
			return l, fmt.Errorf("unknown interrupt %q", t.IRQ)
		}
		l.IRQ = v
	}
	return l, nil
}

func writeTrace(path string, tf *traceFile) error {
	b, err := json.MarshalIndent(tf, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func readTrace(path string) (*traceFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	var tf traceFile
	if err := json.Unmarshal(b, &tf); err != nil {
		if se, ok := err.(*json.SyntaxError); ok {
			return nil, usagef("%s: offset %d: not a trace file: %v", path, se.Offset, err)
		}
		return nil, usagef("%s: not a trace file: %v", path, err)
	}
	if tf.Version != 1 || tf.Firmware == "" {
		return nil, usagef("%s: not an hc11mc trace (no \"hc11mc_trace\": 1 and firmware)", path)
	}
	// The firmware is where the trace says, else where it lies relative to
	// the trace file (a trace moved with its firmware); a relative path in
	// an older trace, written relative to where check ran, may also be
	// relative to the trace.
	if _, err := os.Stat(tf.Firmware); err != nil {
		var alts []string
		if tf.FromTrace != "" {
			alts = append(alts, filepath.Join(filepath.Dir(path), tf.FromTrace))
		}
		if !filepath.IsAbs(tf.Firmware) {
			alts = append(alts, filepath.Join(filepath.Dir(path), tf.Firmware))
		}
		for _, alt := range alts {
			if _, err := os.Stat(alt); err == nil {
				tf.Firmware = alt
				break
			}
		}
	}
	return &tf, nil
}

// locate records the firmware's path absolute, and relative to the trace
// file written at tracePath, so that replay finds it from any directory.
func (tf *traceFile) locate(tracePath string) {
	abs, err := filepath.Abs(tf.Firmware)
	if err != nil {
		return
	}
	tf.Firmware = abs
	if dir, err := filepath.Abs(filepath.Dir(tracePath)); err == nil {
		if rel, err := filepath.Rel(dir, abs); err == nil {
			tf.FromTrace = filepath.ToSlash(rel)
		}
	}
}

// loadTrace reads the trace file at path and builds what replaying it
// needs: the image and the machine it was found on, and its labels.
func loadTrace(path string) (*traceFile, *loader.Image, *sim.Machine, []sim.Label, error) {
	tf, err := readTrace(path)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	img, err := tf.Load.load(tf.Firmware, tf.Machine.Entry, false)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	m, err := newMachine(img, &tf.Machine)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	var labels []sim.Label
	for i := range tf.Steps {
		l, err := tf.Steps[i].label()
		if err != nil {
			return nil, nil, nil, nil, usagef("%s: step %d: %v", path, i+1, err)
		}
		labels = append(labels, l)
	}
	return tf, img, m, labels, nil
}
