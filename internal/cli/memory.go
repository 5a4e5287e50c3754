package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/internal/memlimit"
	"github.com/hc11mc/hc11mc/internal/units"
)

// detectMemory finds the memory this process may use. Tests replace it to
// give the machine a size of their choosing.
var detectMemory = memlimit.Detect

// registerMaxMemory defines --max-memory with its default: memlimit.Share
// percent of the machine's memory or of the cgroup's limit, so that a
// search that grows without bound stops with a report (exit 3) before the
// kernel kills it. The --help text says the figure on this machine.
func (o *checkOptions) registerMaxMemory(fs *pflag.FlagSet) {
	in := detectMemory()
	o.maxMemory = in.Default()
	o.memoryNote = fmt.Sprintf("%d%% of %s", memlimit.Share, in.Source())
	def := "default: none, as this machine's memory could not be read"
	if o.maxMemory > 0 {
		def = fmt.Sprintf("default: %s, %s here", o.memoryNote, units.Size(o.maxMemory))
	}
	fs.Var(&sizeValue{p: &o.maxMemory, set: &o.maxMemorySet}, "max-memory",
		"stop with a report (exit 3) when the search would hold more memory than SIZE: "+sizeForms+"; with --save-frontier the search stops at four fifths of it, to leave room to save and resume ("+def+")")
	fs.Lookup("max-memory").DefValue = "" // the usage says the default
}

// withGCLimit runs f with limit as the garbage collector's soft memory
// limit, as the search had it: saving a frontier makes garbage too.
func withGCLimit(limit int64, f func() error) error {
	if limit > 0 {
		if prev := debug.SetMemoryLimit(-1); limit < prev {
			debug.SetMemoryLimit(limit)
			defer debug.SetMemoryLimit(prev)
		}
	}
	return f()
}
