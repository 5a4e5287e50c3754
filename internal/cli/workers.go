package cli

import (
	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/search"
)

// --workers has two meanings: the members of --search swarm (swarm.go),
// and the workers of one breadth-first or depth-first search, which share
// its visited set, each owning a part of the states (search.Options.
// Workers, search/parallel.go). The default is the processor count for
// both. The other searches rank every frontier state against the others
// and run one worker: --workers given with them is refused (refuseSwarm).
// A search that saves or resumes its frontier runs one worker too: with
// the default --workers it says so in a note, an explicit --workers above
// 1 is refused.

// parallelSearch reports whether --search s can run several workers.
func parallelSearch(s string) bool { return s == "bfs" || s == "dfs" }

// refuseWorkers refuses an explicit --workers above 1 that the search
// would not use.
func (o *checkOptions) refuseWorkers(fs *pflag.FlagSet) error {
	if !fs.Changed("workers") || o.swarm.workers == 1 {
		return nil
	}
	switch {
	case !parallelSearch(o.strategy):
		return usagef("--workers: --search %s runs one search in one worker (it ranks every frontier state against the others); --workers is for --search bfs, dfs and swarm", o.strategy)
	case o.saveTo != "":
		return usagef("--workers %d: a search that saves its frontier (--save-frontier) runs one worker; give --workers 1", o.swarm.workers)
	case o.resume != "":
		return usagef("--workers %d: a resumed search (--resume) runs one worker; give --workers 1", o.swarm.workers)
	}
	return nil
}

// searchWorkers sets the workers of a single search from --workers, and
// returns a note when it runs one worker where --workers, not given,
// would have meant more.
func (o *checkOptions) searchWorkers(opts *search.Options) (note string) {
	opts.Workers = 1
	if !parallelSearch(o.strategy) {
		return ""
	}
	if o.saveTo != "" || o.resume != "" {
		if o.swarm.workers > 1 {
			return "one worker: a search that saves or resumes its frontier runs one"
		}
		return ""
	}
	opts.Workers = o.swarm.workers
	return ""
}
