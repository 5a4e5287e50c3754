package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkBuffaloStartup: what BUFFALO 3.4's start-up on the EVB costs
// a search, with and without batches of steps (check --batch): reset,
// the board's and the SCI's set-up, the sign-on line sent at the line's
// rate, and the wait for the first byte, under the exact clock with no
// byte allowed to arrive (--max-received 0), so that nothing can choose
// and the check is exhaustive with batches: every instruction run, the
// wait found to be a loop. Without batches every instruction is a
// stored state; the run stops at 300,000 of them. It reports the states
// stored per million instructions executed, the visited set's bytes per
// stored state and the peak memory. It skips without the image (kept
// outside the repository: ../shared/firmware/buffalo).
func BenchmarkBuffaloStartup(b *testing.B) {
	if _, err := os.Stat(buffaloImage); err != nil {
		b.Skipf("BUFFALO 3.4 is not at %s: %v", buffaloImage, err)
	}
	board := filepath.Join("..", "..", "..", "..", "testdata", "boards", "evb.board")
	for _, batch := range []string{"on", "off"} {
		b.Run("batch-"+batch, func(b *testing.B) {
			var states, instr, store, peak int64
			for b.Loop() {
				var out, errb bytes.Buffer
				code := Main([]string{"check", buffaloImage, "--board", board, "--clock", "exact", "--max-received", "0",
					"--search", "bfs", "--workers", "1", "--max-states", "300000", "--batch", batch, "--json", "-q"}, nil, &out, &errb)
				var r struct {
					Stats struct {
						StatesStored int64 `json:"states_stored"`
						Instructions int64 `json:"instructions"`
						StoreBytes   int64 `json:"store_bytes"`
						PeakMemory   int64 `json:"peak_memory_bytes"`
					} `json:"stats"`
				}
				if code == ExitUsage || code == ExitInternal || json.Unmarshal(out.Bytes(), &r) != nil {
					b.Fatalf("check: exit %d: %s", code, errb.String())
				}
				states += r.Stats.StatesStored
				instr += r.Stats.Instructions
				store += r.Stats.StoreBytes
				peak = max(peak, r.Stats.PeakMemory)
			}
			b.ReportMetric(float64(states)/(float64(instr)/1e6), "states/Minstr")
			b.ReportMetric(float64(instr)/float64(b.N), "instr/op")
			b.ReportMetric(float64(store)/float64(states), "store-B/state")
			b.ReportMetric(float64(peak), "peak-B")
		})
	}
}

// BenchmarkBuffaloBoardStore: what a stored state of BUFFALO 3.4 costs
// the visited set with 48 KiB of RAM fitted (0x0100-0xBFFF but the
// board's hardware at 0x4000 and 0x9800-0x9801) under the board member's
// model (--clock exact --sci-timing first: start-up in batches, then each
// byte at the first wait), breadth-first, the first 50,000 states. It
// reports the visited set's bytes per stored state (the pages and groups
// of page ids kept as differences, search/store.go), the peak memory and
// the states per second. It skips without the image.
func BenchmarkBuffaloBoardStore(b *testing.B) {
	if _, err := os.Stat(buffaloImage); err != nil {
		b.Skipf("BUFFALO 3.4 is not at %s: %v", buffaloImage, err)
	}
	board := filepath.Join("..", "..", "..", "..", "testdata", "boards", "evb.board")
	var states, store, peak int64
	var seconds float64
	for b.Loop() {
		var out, errb bytes.Buffer
		code := Main([]string{"check", buffaloImage, "--board", board, "--ram", "0x0100-0x3FFF", "--ram", "0x4100-0x97FF", "--ram", "0x9900-0xBFFF",
			"--clock", "exact", "--sci-timing", "first", "--search", "bfs", "--workers", "1", "--max-states", "50000", "--json", "-q"}, nil, &out, &errb)
		var r struct {
			Stats struct {
				StatesStored int64   `json:"states_stored"`
				StoreBytes   int64   `json:"store_bytes"`
				PeakMemory   int64   `json:"peak_memory_bytes"`
				Seconds      float64 `json:"seconds"`
			} `json:"stats"`
		}
		if code == ExitUsage || code == ExitInternal || json.Unmarshal(out.Bytes(), &r) != nil {
			b.Fatalf("check: exit %d: %s", code, errb.String())
		}
		states += r.Stats.StatesStored
		store += r.Stats.StoreBytes
		peak = max(peak, r.Stats.PeakMemory)
		seconds += r.Stats.Seconds
	}
	b.ReportMetric(float64(store)/float64(states), "store-B/state")
	b.ReportMetric(float64(peak), "peak-B")
	b.ReportMetric(float64(states)/seconds, "states/s")
}
