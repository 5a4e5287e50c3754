package cli

import (
	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
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
// needs (check.OpenTrace), showing the firmware's warnings.
func loadTrace(path string) (*cex.Trace, *loader.Image, *sim.Machine, []sim.Label, error) {
	tf, img, m, labels, err := check.OpenTrace(path)
	if img != nil {
		printWarnings(img)
	}
	return tf, img, m, labels, err
}
