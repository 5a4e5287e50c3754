package cli

import (
	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// makeTrace records check's counterexample f, found on m for the firmware
// at path, as the trace file o.trace.
func makeTrace(m *sim.Machine, path string, o *checkOptions, f *search.Found) *cex.Trace {
	tf := cex.NewTrace(path, o.load.LoadSpec, o.machine.MachineSpec, m, f.Trace, f.Violation)
	tf.Locate(o.trace)
	return tf
}

// loadTrace reads the trace file at path and builds what replaying it
// needs: the image and the machine it was found on, and its labels.
func loadTrace(path string) (*cex.Trace, *loader.Image, *sim.Machine, []sim.Label, error) {
	tf, err := cex.ReadFile(path)
	if err != nil {
		return nil, nil, nil, nil, usagef("%v", err)
	}
	lf := loadFlags{LoadSpec: tf.Load}
	img, err := lf.load(tf.Firmware, tf.Machine.Entry, false)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	m, err := newMachine(img, &machineFlags{MachineSpec: tf.Machine})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	labels, err := tf.Labels()
	if err != nil {
		return nil, nil, nil, nil, usagef("%s: %v", path, err)
	}
	return tf, img, m, labels, nil
}
