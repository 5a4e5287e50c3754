package cli

import (
	"os"
	"path/filepath"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// writeTraceSVG draws the counterexample labels into path (check
// --trace-svg).
func writeTraceSVG(path string, img *loader.Image, m *sim.Machine, labels []sim.Label, subtitle string) error {
	return os.WriteFile(path, cex.SVG(img, m, labels, subtitle), 0o644)
}

// replaySVG draws the counterexample in the trace file tracePath into
// svgPath (replay --svg).
func replaySVG(tracePath, svgPath string) error {
	_, img, m, labels, err := loadTrace(tracePath)
	if err != nil {
		return err
	}
	if err := writeTraceSVG(svgPath, img, m, labels, "replay of "+filepath.Base(tracePath)); err != nil {
		return usagef("--svg: %v", err)
	}
	return nil
}
