package cli

import (
	"bytes"
	"encoding/json"
	"testing"
)

// BenchmarkWorkloads runs the checks users run, whole and in process —
// loading the image, building the machine and the estimator, the search,
// the result — and reports what a user sees: states stored per second of
// search and peak bytes per stored state (the memory the Go runtime held
// at the search's peak, frontier and store together, over the states
// stored). Unlike the component benchmarks of sim and search, a loss
// anywhere on the way shows here. Compare two commits with
// `make bench-compare OLD=<commit>`.
//
//   - philo5/none: breadth-first over the first 2,000,000 states of the five
//     philosophers laid out with equates, every interleaving (--reduce
//     none, one worker): the search core's cost per state;
//   - philo5/default: the same model exhaustively with the default
//     reductions, breadth-first: stack privacy learned from intrusions;
//   - layouts/NAME: the same model in the other layouts of the family that
//     `make compare-spin` runs against SPIN (testdata/bench/philo5_NAME.s:
//     forks above or between the stacks or a data symbol, descriptors in
//     ROM, in RAM or on thread 0's stack, thread 0 ending or continuing,
//     think and eat as NOPs or delay loops), exhaustively with the default
//     reductions, breadth-first: the partial-order reduction on each;
//   - dining3/best: best-first on the extended FSM distance to the error
//     of a model with calls (--preempt calls): the heuristic's cost;
//   - serial_cmd/firmware: a firmware image on the chip's peripherals to
//     its lost update, breadth-first: the device's cost.
func BenchmarkWorkloads(b *testing.B) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"philo5/none", []string{"../../../../testdata/bench/philo5_equ.elf", "--reduce", "none", "--search", "bfs", "--workers", "1", "--max-states", "2000000"}},
		{"philo5/default", []string{"../../../../testdata/bench/philo5_equ.elf", "--search", "bfs", "--workers", "1"}},
		{"layouts/rom", []string{"../../../../testdata/bench/philo5_rom.elf", "--search", "bfs", "--workers", "1"}},
		{"layouts/above", []string{"../../../../testdata/bench/philo5_above.elf", "--search", "bfs", "--workers", "1"}},
		{"layouts/between", []string{"../../../../testdata/bench/philo5_between.elf", "--search", "bfs", "--workers", "1"}},
		{"layouts/data", []string{"../../../../testdata/bench/philo5_data.elf", "--search", "bfs", "--workers", "1"}},
		{"layouts/stackdesc", []string{"../../../../testdata/bench/philo5_stackdesc.elf", "--search", "bfs", "--workers", "1"}},
		{"layouts/loops", []string{"../../../../testdata/bench/philo5_loops.elf", "--search", "bfs", "--workers", "1"}},
		{"dining3/best", []string{"../../../../testdata/bench/dining3.elf", "--preempt", "calls", "--search", "best", "--heuristic", "efsm", "--workers", "1"}},
		{"serial_cmd/firmware", []string{"../../../../testdata/firmware/serial_cmd.elf", "--sci-input", `\r`, "--max-timer-events", "0",
			"--max-received", "1", "--expect-output", `\x00`, "--search", "bfs", "--workers", "1"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var states, peak int64
			var secs float64
			for b.Loop() {
				var out, errb bytes.Buffer
				code := Main(append([]string{"check", "--json", "-q"}, c.args...), nil, &out, &errb)
				var r struct {
					Stats struct {
						StatesStored int64   `json:"states_stored"`
						Seconds      float64 `json:"seconds"`
						PeakMemory   int64   `json:"peak_memory_bytes"`
					} `json:"stats"`
				}
				if code == ExitUsage || code == ExitInternal || json.Unmarshal(out.Bytes(), &r) != nil {
					b.Fatalf("check %v: exit %d: %s", c.args, code, errb.String())
				}
				states += r.Stats.StatesStored
				secs += r.Stats.Seconds
				peak = max(peak, r.Stats.PeakMemory)
			}
			b.ReportMetric(float64(states)/secs, "states/s")
			b.ReportMetric(float64(peak)/float64(states/int64(b.N)), "B/state")
		})
	}
}
