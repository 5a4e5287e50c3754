package cli

import (
	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// writeCounterexample writes check's counterexample first, found on m for
// the firmware at path, to --trace and --trace-svg where they are given;
// subtitle heads the drawing. Without a counterexample it writes nothing.
func writeCounterexample(o *checkOptions, path string, img *loader.Image, m *sim.Machine, first *search.Found, subtitle string) error {
	if first == nil {
		return nil
	}
	if o.trace != "" {
		tf := cex.NewTrace(path, o.load.LoadSpec, o.machine.MachineSpec, m, first.Trace, first.Violation)
		tf.Locate(o.trace)
		if err := tf.WriteFile(o.trace); err != nil {
			return usagef("--trace: %v", err)
		}
	}
	if o.traceSVG != "" {
		if err := writeTraceSVG(o.traceSVG, img, m, first.Trace, subtitle); err != nil {
			return usagef("--trace-svg: %v", err)
		}
	}
	return nil
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
