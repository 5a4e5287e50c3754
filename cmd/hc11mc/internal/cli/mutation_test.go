package cli

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
)

// The mutation check of TestRandomDifferential: each fault of package
// mutation, put back into the reductions, must make the comparison fail
// on programs of randprog.Generate; otherwise the comparison could not
// catch it.

var (
	mutationScan = flag.Int("mutation.scan", 0, "TestMutationScan: the number of generated programs to scan for the seeds that catch each fault (0: skip)")
	mutationMax  = flag.Int("mutation.max", 3, "TestMutationScan: stop looking for a fault's programs after this many")
	mutationOnly = flag.String("mutation.only", "", "TestMutationScan: scan for these faults only (comma-separated names, e.g. unseen-other)")
	mutationFrom = flag.Uint64("mutation.from", 0, "TestMutationScan: the first seed to scan")
)

// caughtElsewhere names, for the faults that another differential test
// catches on programs of its own, that test.
var caughtElsewhere = map[mutation.Fault]string{
	mutation.DeepClaim:    "search.TestProvedDepthCatches (random programs against a plain breadth-first search's levels)",
	mutation.ResumeClaim:  "search.TestProvedDepthCatches (random programs saved depth-first and resumed breadth-first)",
	mutation.SkipHandoff:  "hybrid.TestDifferentialCatches (programs that draw wide values)",
	mutation.JoinConcrete: "symbolic.TestJoinDifferentialCatches (programs of if-elses on drawn values)",
	mutation.UnjoinOne:    "symbolic.TestJoinDifferentialCatches (programs of if-elses on drawn values)",
	// The generator's --stack ranges cover whole stack areas, so none of
	// its steps that a reduction follows alone is itself a violation.
	mutation.VisibleAlone: "search.TestInvisibility",
	// The exact clock is compared with a reference that counts one E
	// cycle at a time.
	mutation.PrescalerPhase: "devices.TestExactClockDifferentialCatches",
	// The timing properties' values, compared on the programs of
	// randprog.Program.
	mutation.TimingPOR: "search.TestTimingDifferentialCatches",
	// A timer source's request dated to its instruction's end.
	mutation.SourceBoundary: "cli.TestSourceLatencyCatches",
	// The symbolic engine's concrete steps reading placeholders.
	mutation.PlaceholderRead: "cli.TestReadsDifferentialCatches (programs of reads from every kind of source)",
	// The output compares' pin levels, compared with the same reference.
	mutation.PinOrder: "devices.TestExactClockDifferentialCatches",
	// A wait on an armed interrupt, on firmware written to wait so.
	mutation.ArmedWait:   "cli.TestArmedWaitCatches",
	mutation.ReceiveOnly: "cli.TestReceiveOnlyCatches",
	// Requests served in the order of the flags: the timing oracle on
	// randprog.Program's programs with three interrupts, and the bounds
	// of testdata/timing/prio_xirq under --report-timing.
	mutation.LatencyOrder: "search.TestTimingOracleCatches, cli.TestLatencyOrderCatches",
	// One deadline interval at a time: testdata/timing/deadline_threads.
	mutation.DeadlineOne: "cli.TestDeadlineOneCatches",
	// The interval drawn back from the saturated count: the timing
	// oracle on the counterexamples, and latency.elf's listing.
	mutation.SaturatedInterval: "search.TestTimingOracleCatches, cli.TestSaturatedIntervalCatches",
	// A timer source's request under the abstract clock dated to the
	// boundary: testdata/timing/oc1_abstract.
	mutation.AbstractBoundary: "cli.TestAbstractBoundaryCatches",
	// The entry from WAI charged as a full entry: the handler's start
	// after WAI, compared with the manual's reckoned in TCNT's counts.
	mutation.WaiEntryStacks: "sim.TestWaiEntryDifferentialCatches",
	// The wait's cycles in WAI left out of the global time, compared
	// with TCNT.
	mutation.WaitUncounted: "sim.TestWaitTimeDifferentialCatches",
	// The SCI's frames and the entry from STOP, against the manual's.
	mutation.SCITenBits:    "devices.TestManualSCIFrameCatches",
	mutation.StopNoRestart: "sim.TestSleepEntryCatches",
	// The generator's programs run their threads side by side, where no
	// batch forms; the batches' own programs run one thread through
	// interrupt windows.
	mutation.BatchIRQ: "search.TestBatchDifferentialCatches",
	// The board member's proof taken for the swarm's: its model is a
	// restriction no generated program is compared under.
	mutation.BoardProof: "cli.TestBoardProofCatches (testdata/firmware/wai_tcnt)",
	// Pages kept as differences, against a map from contents to ids.
	mutation.DeltaLoses: "search.TestPageDeltaDifferentialCatches",
	// The device's answers through the memo, against the functions that
	// ask one question each, on firmware states.
	mutation.MemoStale: "sim.TestDevMemoCatches",
	// A saved frontier without what the machine learned: the generator's
	// programs are too small for a cut between what is learned and what it
	// guards once batches run their stretches; the soundness models are
	// written for it.
	mutation.ForgetLearned: "cli.TestForgetLearnedCatches (testdata/soundness/resume_escape, resume_masked)",
}

// mutationCatch is a fault and the programs that catch it.
type mutationCatch struct {
	fault mutation.Fault
	seeds []uint64
	by    string // the setting that disagreed
}

// mutationCatches lists, for every fault, programs (seeds of
// randprog.Generate, as TestRandomDifferential numbers them) on which the
// comparison disagrees once the fault is switched on, and the setting
// that disagreed when TestMutationScan chose them.
var mutationCatches = []mutationCatch{
	{mutation.ExitAlone, []uint64{29, 73}, "--reduce por --search best"},
	{mutation.ImageCode, []uint64{4, 22}, "--reduce por --search bfs"},
	{mutation.UnseenFetch, []uint64{292}, "--reduce dead --search bfs"},
	{mutation.UnseenOther, []uint64{496}, "--reduce dead --search dfs"},
	{mutation.ClearWrite, []uint64{5, 7}, "--reduce dead --search bfs"},
	{mutation.StubEntry, []uint64{367}, "--reduce dead --search bfs"},
	{mutation.IRQCandidate, []uint64{198, 296}, "--reduce por --search bfs"},
	{mutation.NoIntrusion, []uint64{63, 78}, "--reduce por --search bfs"},
	{mutation.NoProviso, []uint64{15, 25}, "--reduce por --search bfs"},
	{mutation.IgnoreReliance, []uint64{63, 78}, "--reduce por --search best"},
	{mutation.CurrentReliance, []uint64{195, 263}, "resumed --search bfs --all"},
	{mutation.ROMByImage, []uint64{22, 43}, "--reduce por --search bfs"},
	{mutation.WaitUnfinished, []uint64{18}, "--clock exact --sci-timing first --search bfs"},
}

// TestMutationCaught: for every fault of mutation.All(), the programs
// listed for it agree with the plain search without the fault, and with
// the fault switched on at least one of them disagrees: the comparison of
// TestRandomDifferential catches it.
func TestMutationCaught(t *testing.T) {
	for _, f := range mutation.All() {
		if caughtElsewhere[f] != "" {
			continue
		}
		if !slices.ContainsFunc(mutationCatches, func(c mutationCatch) bool { return c.fault == f && len(c.seeds) > 0 }) {
			t.Errorf("no program listed that catches the fault %s (run TestMutationScan)", f)
		}
	}
	dir := t.TempDir()
	settings := diffSettings()
	for _, c := range mutationCatches {
		if len(c.seeds) == 0 {
			continue
		}
		t.Run(c.fault.String(), func(t *testing.T) {
			caught := false
			var last *diffProgram
			for _, seed := range c.seeds {
				if _, bad, ok := diffOne(t, seed, dir, nil, settings); !ok || len(bad) > 0 {
					t.Errorf("program %d disagrees with the plain search without any fault (%s): it cannot show that %s is caught",
						seed, describeBad(bad, ok), c.fault)
					continue
				}
				restore := mutation.Set(c.fault)
				d, bad, ok := diffOne(t, seed, dir, nil, settings)
				restore()
				last = d
				if ok && len(bad) > 0 {
					caught = true
					t.Logf("program %d catches %s: %s", seed, c.fault, describeBad(bad[:1], true))
				}
			}
			if !caught && last != nil {
				t.Errorf("fault %s switched on: programs %v still agree with the plain search in every setting (%s disagreed when they were chosen); the last:\n%s",
					c.fault, c.seeds, c.by, last.p)
			}
		})
	}
}

// describeBad summarises the discrepancies of one program.
func describeBad(bad []discrepancy, ok bool) string {
	if !ok {
		return "the plain search is not exhaustive"
	}
	var b []string
	for _, x := range bad {
		b = append(b, x.setting+": "+x.what)
	}
	return strings.Join(b, "; ")
}

// goName is each fault's name in Go, for the printed table.
var goName = map[mutation.Fault]string{
	mutation.ExitAlone: "ExitAlone", mutation.ImageCode: "ImageCode", mutation.UnseenFetch: "UnseenFetch",
	mutation.UnseenOther: "UnseenOther", mutation.ClearWrite: "ClearWrite", mutation.StubEntry: "StubEntry",
	mutation.IRQCandidate: "IRQCandidate", mutation.NoIntrusion: "NoIntrusion", mutation.NoProviso: "NoProviso",
	mutation.VisibleAlone: "VisibleAlone", mutation.IgnoreReliance: "IgnoreReliance", mutation.SkipHandoff: "SkipHandoff",
	mutation.JoinConcrete: "JoinConcrete", mutation.UnjoinOne: "UnjoinOne", mutation.PrescalerPhase: "PrescalerPhase",
	mutation.TimingPOR: "TimingPOR", mutation.SourceBoundary: "SourceBoundary", mutation.CurrentReliance: "CurrentReliance",
	mutation.ForgetLearned: "ForgetLearned",
	mutation.BatchIRQ:      "BatchIRQ",
}

// TestMutationScan finds, for each fault, programs that catch it: those
// of the first -mutation.scan seeds that agree with the plain search
// without the fault and disagree with it. It prints the table for
// mutationCatches; it is skipped without the flag.
func TestMutationScan(t *testing.T) {
	if *mutationScan == 0 {
		t.Skip("run with -mutation.scan=N")
	}
	dir := t.TempDir()
	settings := diffSettings()
	var clean []uint64
	for seed := *mutationFrom; seed < *mutationFrom+uint64(*mutationScan); seed++ {
		if _, bad, ok := diffOne(t, seed, dir, nil, settings); ok && len(bad) == 0 {
			clean = append(clean, seed)
		}
	}
	t.Logf("%d of %d programs agree without a fault", len(clean), *mutationScan)
	for _, f := range mutation.All() {
		if *mutationOnly != "" && !slices.Contains(strings.Split(*mutationOnly, ","), f.String()) {
			continue
		}
		var found []string
		var first string
		for _, seed := range clean {
			restore := mutation.Set(f)
			_, bad, _ := diffOne(t, seed, dir, nil, settings)
			restore()
			if len(bad) == 0 {
				continue
			}
			if first == "" {
				first = bad[0].setting
			}
			found = append(found, fmt.Sprint(seed))
			t.Logf("%s: program %d: %s", f, seed, describeBad(bad, true))
			if len(found) == *mutationMax {
				break
			}
		}
		fmt.Printf("\t{mutation.%s, []uint64{%s}, %q},\n", goName[f], strings.Join(found, ", "), first)
	}
}
