package search

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"github.com/hc11mc/hc11mc/verdict"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

func machine(tb testing.TB, path string, preempt sim.Preempt) *sim.Machine {
	tb.Helper()
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("%s not built", path)
	}
	img, err := loader.Load(path, loader.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	m, err := sim.NewMachine(img, sim.Config{Entry: img.Entry, Preempt: preempt})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestStoreExact: a state is found again exactly when it is equal, and the
// compact and exact stores agree on small spaces.
func TestStoreExact(t *testing.T) {
	m := machine(t, "../testdata/bench/naive2.elf", sim.PreemptCalls)
	exact := Run(context.Background(), m, Options{Strategy: BFS, MaxStates: 20000, All: true})
	compact := Run(context.Background(), m, Options{Strategy: BFS, MaxStates: 20000, All: true, Compact: true})
	if exact.Stats.StatesStored != compact.Stats.StatesStored {
		t.Errorf("exact stored %d states, compact %d", exact.Stats.StatesStored, compact.Stats.StatesStored)
	}
	if compact.Omission <= 0 || compact.Omission > 1e-6 {
		t.Errorf("omission probability %g", compact.Omission)
	}
}

// BenchmarkSearch measures states stored per second and bytes per stored
// state on a dining-philosophers model, exhaustively up to b.N states.
func BenchmarkSearch(b *testing.B) {
	for _, c := range []struct {
		name    string
		compact bool
	}{{"exact", false}, {"compact", true}} {
		b.Run(c.name, func(b *testing.B) {
			m := machine(b, benchImage, sim.PreemptEvery)
			b.ReportAllocs()
			res := Run(context.Background(), m, Options{Strategy: DFS, MaxStates: max(b.N, 1000), Compact: c.compact, Ignore: map[sim.Kind]bool{sim.KindError: true}})
			b.ReportMetric(float64(res.Stats.StatesStored)/b.Elapsed().Seconds(), "states/s")
			b.ReportMetric(float64(res.Stats.StoreBytes)/float64(res.Stats.StatesStored), "bytes/state")
		})
	}
}

// corpus returns the images of testdata's models and benchmarks, but for
// the throughput benchmark's (too large to be a test's).
func corpus(t *testing.T) []string {
	files, _ := filepath.Glob("../testdata/*/*.elf")
	files = slices.DeleteFunc(files, func(f string) bool { return strings.Contains(f, "philo_big") })
	if len(files) == 0 {
		t.Skip("no images")
	}
	return files
}

var benchImage = func() string {
	if p := os.Getenv("HC11MC_BENCH_IMAGE"); p != "" {
		return p
	}
	return "../testdata/bench/philo_big.elf"
}()

// TestResume: a search stopped by --max-states and resumed from its saved
// frontier ends exactly as an uninterrupted one (states stored, states
// expanded, code covered), in both store modes.
func TestResume(t *testing.T) {
	m := machine(t, "testdata/counter.elf", sim.PreemptEvery)
	// The same with 8 KiB of RAM more: states keyed by groups of pages.
	img, err := loader.Load("testdata/counter.elf", loader.Options{RAM: []loader.Range{{Lo: 0x2000, Hi: 0x3FFF}}})
	if err != nil {
		t.Fatal(err)
	}
	big, err := sim.NewMachine(img, sim.Config{Entry: img.Entry, Preempt: sim.PreemptEvery})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m       *sim.Machine
		compact bool
		strat   Strategy
	}{{m, false, BFS}, {m, false, DFS}, {m, true, BFS}, {m, true, DFS}, {big, false, BFS}, {big, false, DFS}} {
		m, compact, strat := c.m, c.compact, c.strat
		{
			base := Options{Strategy: strat, Compact: compact, Ignore: map[sim.Kind]bool{sim.KindDeadlock: true}, Key: "k"}
			full := Run(context.Background(), m, base)
			if full.Verdict != Verified {
				t.Fatalf("full run: %v %v", full.Verdict, full.Limit)
			}
			part := base
			part.MaxStates = full.Stats.StatesStored / 3
			r1 := Run(context.Background(), m, part)
			if r1.Verdict != Incomplete {
				t.Fatalf("partial run: %v", r1.Verdict)
			}
			var buf bytes.Buffer
			if err := r1.SaveFrontier(&buf); err != nil {
				t.Fatal(err)
			}
			wrong := base
			wrong.Resume, wrong.Key = bytes.NewReader(buf.Bytes()), "other"
			if r := Run(context.Background(), m, wrong); r.Err == nil {
				t.Error("resumed with another key")
			}
			rest := base
			rest.Resume = &buf
			r2 := Run(context.Background(), m, rest)
			if r2.Err != nil || r2.Verdict != Verified {
				t.Fatalf("compact=%v %v: resumed run: %v %v", compact, strat, r2.Verdict, r2.Err)
			}
			if !maps.Equal(r2.Covered, full.Covered) {
				t.Errorf("compact=%v %v: resumed run covered %d PCs, uninterrupted %d", compact, strat, len(r2.Covered), len(full.Covered))
			}
			if r2.Stats.StatesStored != full.Stats.StatesStored || r2.Stats.StatesExpanded != full.Stats.StatesExpanded {
				t.Errorf("compact=%v %v: resumed run stored %d, expanded %d; uninterrupted %d, %d", compact, strat,
					r2.Stats.StatesStored, r2.Stats.StatesExpanded, full.Stats.StatesStored, full.Stats.StatesExpanded)
			}
		}
	}
	// A damaged or truncated file is refused with an error.
	part := Run(context.Background(), m, Options{Strategy: BFS, Key: "k", MaxStates: 20})
	var saved bytes.Buffer
	if err := part.SaveFrontier(&saved); err != nil {
		t.Fatal(err)
	}
	for _, damage := range []struct {
		name string
		f    func([]byte) []byte
	}{
		{"flipped byte", func(b []byte) []byte { b[len(b)/2] ^= 0x10; return b }},
		{"truncated", func(b []byte) []byte { return b[:len(b)-100] }},
		{"empty", func(b []byte) []byte { return nil }},
	} {
		b := damage.f(bytes.Clone(saved.Bytes()))
		r := Run(context.Background(), m, Options{Strategy: BFS, Key: "k", Resume: bytes.NewReader(b)})
		if r.Err == nil || !strings.Contains(r.Err.Error(), "not a saved frontier") {
			t.Errorf("%s: resumed with error %v", damage.name, r.Err)
		}
	}
	// A file that passes the checksum but does not hold together is
	// refused too, never followed into a panic.
	good, err := readSnapshot(bytes.NewReader(saved.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	entry := slices.IndexFunc(good.Table, func(e uint64) bool { return e != 0 })
	for _, bad := range []struct {
		name string
		f    func(sn *snapshot)
	}{
		{"frontier id", func(sn *snapshot) { sn.Frontier[0].ID = 1 << 30 }},
		{"table id", func(sn *snapshot) { sn.Table[entry] |= 0xffffff }},
		{"table order", func(sn *snapshot) { sn.Table[entry] = ^uint64(0) }},
		{"count", func(sn *snapshot) { sn.N++ }},
		{"arena cut", func(sn *snapshot) { sn.Arena[0] = sn.Arena[0][:len(sn.Arena[0])-3] }},
		// The root's record, first in the arena, names itself as its
		// parent (distance 0): make that 1.
		{"arena parent", func(sn *snapshot) { sn.Arena[0][1+int(sn.Arena[0][0])] = 1 }},
		// Frontier states are checked by sim.State.Unpack (whose own
		// test covers each field); here, that load asks it.
		{"packed cut", func(sn *snapshot) { p := sn.Frontier[0].Packed; sn.Frontier[0].Packed = p[:len(p)-1] }},
		{"page id", func(sn *snapshot) { sn.Frontier[0].Packed = append(sn.Frontier[0].Packed, 0x80, 0x80, 0x40) }},
		{"no state", func(sn *snapshot) { sn.Frontier[0].Packed = nil }},
	} {
		sn, err := readSnapshot(bytes.NewReader(saved.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		bad.f(sn)
		var buf bytes.Buffer
		if err := sn.write(&buf); err != nil {
			t.Fatal(err)
		}
		r := Run(context.Background(), m, Options{Strategy: BFS, Key: "k", Resume: &buf})
		if r.Err == nil || !strings.Contains(r.Err.Error(), "inconsistent") {
			t.Errorf("%s: resumed with error %v", bad.name, r.Err)
		}
	}
	// The unchanged file, written again, resumes.
	var again bytes.Buffer
	if err := good.write(&again); err != nil {
		t.Fatal(err)
	}
	if r := Run(context.Background(), m, Options{Strategy: BFS, Key: "k", Resume: &again}); r.Err != nil {
		t.Errorf("rewritten file: %v", r.Err)
	}
	// A file of an older version, without a checksum, is named as such.
	var v3 bytes.Buffer
	if err := gob.NewEncoder(&v3).Encode(&snapshot{Version: 3, Key: "k"}); err != nil {
		t.Fatal(err)
	}
	if r := Run(context.Background(), m, Options{Strategy: BFS, Key: "k", Resume: &v3}); r.Err == nil || !strings.Contains(r.Err.Error(), "version 3") {
		t.Errorf("version 3 file: %v", r.Err)
	}
	// A violation found after resuming has a full trace that replays.
	m = machine(t, "../testdata/examples/philosophers.elf", sim.PreemptEvery)
	base := Options{Strategy: BFS, Key: "k"}
	r1 := Run(context.Background(), m, Options{Strategy: BFS, Key: "k", MaxStates: 50})
	var buf bytes.Buffer
	if err := r1.SaveFrontier(&buf); err != nil {
		t.Fatal(err)
	}
	base.Resume = &buf
	r2 := Run(context.Background(), m, base)
	if r2.Verdict != Violated {
		t.Fatalf("resumed: %v", r2.Verdict)
	}
	if _, v, err := Replay(m, r2.Found[0].Trace); err != nil || v == nil || v.Kind != sim.KindDeadlock {
		t.Errorf("trace after resume: %v %v", v, err)
	}
}

// TestEncodeFrom: the incremental canonical string of a successor (only
// the thread that ran and the pages the transition wrote looked up again)
// equals the full one, on every transition of the corpus's first states.
func TestEncodeFrom(t *testing.T) {
	for _, f := range corpus(t) {
		img, err := loader.Load(f, loader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, irq := range [][]string{nil, {"toc1"}} {
			m, err := sim.NewMachine(img, sim.Config{Entry: img.Entry, IRQs: irq})
			if err != nil {
				continue // no toc1 vector
			}
			st := newStore(false)
			exp := m.NewExpander()
			queue := []*sim.State{m.Initial()}
			for n := 0; n < len(queue) && n < 300; n++ {
				s := queue[n]
				var par sim.ParentKey
				par.Set(s, st)
				if full := st.encode(nil, s); string(par.Key) != string(full) {
					t.Fatalf("%s: parent string %x, full %x", f, par.Key, full)
				}
				exp.Expand(s, nil, func(next *sim.State, l sim.Label, v *sim.Violation) {
					full := st.encode(nil, next)
					inc := par.AppendSuccessor(nil, next, l.Thread, st)
					if string(full) != string(inc) {
						t.Fatalf("%s: after %+v: incremental string %x, full %x", f, l, inc, full)
					}
					if _, isNew := st.insert(next, 0, l); isNew && v == nil {
						queue = append(queue, next.Clone())
					}
				})
			}
		}
	}
}

// FuzzResume: any bytes that pass the checksum (the fuzzer's input, with
// its checksum appended) are resumed or refused, never followed into a
// panic; a resumed search ends within its limit. Run it with
// -fuzzminimizetime 2s: the seeds are tens of kilobytes, and minimising
// each new input for the default minute stalls the fuzzer.
func FuzzResume(f *testing.F) {
	m := machine(f, "testdata/counter.elf", sim.PreemptEvery)
	for _, compact := range []bool{false, true} {
		part := Run(context.Background(), m, Options{Strategy: BFS, Key: "k", MaxStates: 30, Compact: compact})
		var saved bytes.Buffer
		if err := part.SaveFrontier(&saved); err != nil {
			f.Fatal(err)
		}
		f.Add(saved.Bytes()[:saved.Len()-8], compact)
	}
	f.Fuzz(func(t *testing.T, body []byte, compact bool) {
		file := binary.LittleEndian.AppendUint64(bytes.Clone(body), xxhash.Sum64(body))
		r := Run(context.Background(), m, Options{Strategy: BFS, Key: "k", Compact: compact, MaxStates: 200, Resume: bytes.NewReader(file)})
		if r.Err == nil && r.Verdict != Incomplete && r.Verdict != Verified && r.Verdict != Violated {
			t.Errorf("verdict %v", r.Verdict)
		}
	})
}

// A machine with Config.MaxBranch does not enumerate a wider choice: the
// search hands the state over (Result.Handed) with the thread and the
// path to it, and ends incomplete with LimitHanded instead of verified;
// without the bound it enumerates the choice.
func TestHanded(t *testing.T) {
	m := machine(t, filepath.Join("..", "testdata", "models", "symbolic", "crc8.elf"), sim.PreemptEvery)
	m.Config.MaxBranch = 16
	for _, strat := range []Strategy{BFS, DFS} {
		res := Run(context.Background(), m, Options{Strategy: strat, Reduce: true})
		if res.Verdict != Incomplete || res.Limit.Kind != verdict.StopHanded || len(res.Handed) != 1 {
			t.Fatalf("%v: %v (%s), %d handed", strat, res.Verdict, res.Limit, len(res.Handed))
		}
		h := res.Handed[0]
		states, v, err := Replay(m, h.Trace)
		if err != nil || v != nil || !states[len(states)-1].Equal(h.State) || !slices.Equal(h.Threads, []int{0}) {
			t.Errorf("%v: the handed state is not where its trace leads (%v, %v), threads %v", strat, err, v, h.Threads)
		}
		// The thread's next transition is the wide choice itself.
		if _, _, ok := m.Replay(h.State, sim.Label{Thread: 0, IRQ: -1, Steps: 1, Choice: 200}); !ok {
			t.Errorf("%v: the handed transition is not a choice among more than 200 values", strat)
		}
	}
	m.Config.MaxBranch = 0
	res := Run(context.Background(), m, Options{Strategy: DFS, Reduce: true, MaxStates: 50_000})
	if len(res.Handed) != 0 || res.Stats.Transitions < 256 {
		t.Errorf("without MaxBranch: %d handed, %d transitions", len(res.Handed), res.Stats.Transitions)
	}
}
