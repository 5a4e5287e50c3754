package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Model is one entry of a benchmark manifest (DIR/manifest.json).
type Model struct {
	Name string `json:"name"`
	// File is the firmware, relative to the manifest's directory; Flags
	// are check's flags for it.
	File  string   `json:"file"`
	Flags []string `json:"flags"`
	// Expect is the verdict (violation, verified), Property the kind of
	// the violation expected.
	Expect   string `json:"expect"`
	Property string `json:"property"`
	// Kind selects the model: bug, exhaustive or throughput.
	Kind string `json:"kind"`
	// PaperRow names the model's row of Rungta & Mercer's Tables 1 and 2
	// (heuristics.PaperRowNamed), "" for none.
	PaperRow string `json:"paper_row,omitempty"`
	// Misses names the strategies (SEARCH+HEURISTIC) known not to find
	// the error within the test suite's limits: the model tests skip them.
	Misses []string `json:"misses,omitempty"`
}

// ReadManifest reads the models of the benchmark directory dir.
func ReadManifest(dir string) ([]Model, error) {
	path := filepath.Join(dir, "manifest.json")
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, fmt.Errorf("%s has no manifest.json: a benchmark directory lists its models there (see testdata/bench)", dir)
	}
	if err != nil {
		return nil, err
	}
	var ms []Model
	if err := json.Unmarshal(b, &ms); err != nil {
		if se, ok := err.(*json.SyntaxError); ok {
			return nil, fmt.Errorf("%s: offset %d: %v", path, se.Offset, err)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return ms, nil
}
