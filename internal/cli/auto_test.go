package cli

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
)

// A random program for TestAutoDifferential: thread 0 starts at 0xD000
// with its stack at 0x01FF and may create a second thread with its own;
// each runs a random body that draws values with __mc_nondet (ranges of 3
// to 300 values: some enumerated under --max-branch 4, most handed to
// HMC), stores them in shared bytes 0x00-0x03, adds and compares them,
// looks them up in a table in ROM, assumes and asserts on them, takes a
// lock, and publishes its stack for the other thread to write through
// (breaking stack privacy); it ends by exiting.
const (
	autoStubs = 0xE000
	autoTable = 0xDE00
)

var autoStubNames = []string{"__mc_assert", "__mc_assume", "__mc_nondet", "__mc_thread_create", "__mc_thread_exit",
	"__mc_lock", "__mc_unlock"}

func autoJSR(name string) []byte {
	a := autoStubs + 2*uint16(slices.Index(autoStubNames, name))
	return []byte{0xBD, byte(a >> 8), byte(a)}
}

func autoBody(r *rand.Rand, n int) []byte {
	shared := func() byte { return byte(r.IntN(4)) }
	var drawn []byte // the bytes this body stored a drawn value in
	asserted := func() byte {
		if len(drawn) > 0 && r.IntN(4) > 0 {
			return drawn[r.IntN(len(drawn))]
		}
		return shared()
	}
	var pieces [][]byte
	for range n {
		var p []byte
		switch r.IntN(12) {
		case 0, 1, 2:
			bound := []uint16{3, 5, 9, 20, 40, 300}[r.IntN(6)]
			p = append([]byte{0xCC, byte(bound >> 8), byte(bound)}, autoJSR("__mc_nondet")...) // ldd #N; nondet
			a := shared()
			drawn = append(drawn, a)
			p = append(p, 0xD7, a) // stab dir
		case 3:
			p = []byte{0x96, shared(), 0x9B, shared(), 0x97, shared()} // ldaa; adda; staa
		case 4, 11:
			p = append([]byte{0x96, asserted(), 0x80, byte(1 + r.IntN(6))}, autoJSR("__mc_assert")...) // ldaa; suba #k; assert
		case 5:
			p = append([]byte{0x96, shared(), 0x84, byte(1 + r.IntN(7))}, autoJSR("__mc_assume")...) // ldaa; anda #k; assume
		case 6:
			p = []byte{0xD6, shared(), 0xC4, 0x0F, 0xCE, autoTable >> 8, autoTable & 0xFF, 0x3A, 0xA6, 0x00, 0x97, shared()} // ldab; andb #15; ldx #table; abx; ldaa 0,x; staa
		case 7:
			p = []byte{0x96, shared(), 0x81, byte(r.IntN(30)), 0x22, 0x03, 0x7C, 0x00, shared()} // ldaa; cmpa #k; bhi +3; inc ext
		case 8:
			p = append(append([]byte{0xCE, 0x00, 0x08}, autoJSR("__mc_lock")...), 0x7C, 0x00, shared())
			p = append(append(p, 0xCE, 0x00, 0x08), autoJSR("__mc_unlock")...)
		case 9:
			p = []byte{0x86, 0x01, 0x36, 0x30, 0xDF, 0x0A, 0x32} // ldaa #1; psha; tsx; stx 0x0A; pula: publish a stack address
		default:
			p = []byte{0xDE, 0x0A, 0x8C, 0x00, 0x00, 0x27, 0x02, 0x6C, 0x00} // ldx 0x0A; cpx #0; beq +2; inc 0,x
		}
		pieces = append(pieces, p)
	}
	var code []byte
	for _, p := range pieces {
		code = append(code, p...)
	}
	return append(code, autoJSR("__mc_thread_exit")...)
}

// autoProgram builds a random program's machine.
func autoProgram(t *testing.T, r *rand.Rand) (*sim.Machine, string) {
	rom := make([]byte, 0x10000-0xD000)
	put := func(a uint16, b []byte) { copy(rom[int(a)-0xD000:], b) }
	main := []byte{0x8E, 0x01, 0xFF} // lds #0x01FF
	if r.IntN(2) == 0 {
		main = append(main, 0xCC, 0xD4, 0x00, 0xCE, 0x01, 0x80, 0x18, 0xCE, 0, 0) // ldd #0xD400; ldx #0x0180; ldy #0
		main = append(main, autoJSR("__mc_thread_create")...)
		put(0xD400, autoBody(r, 1+r.IntN(4)))
	}
	main = append(main, autoBody(r, 1+r.IntN(5))...)
	put(0xD000, main)
	for i := range autoStubNames {
		put(autoStubs+2*uint16(i), []byte{0x39})
	}
	table := make([]byte, 16)
	for i := range table {
		table[i] = byte(r.IntN(24))
	}
	put(autoTable, table)
	put(0xFFFE, []byte{0xD0, 0x00})
	hooks := map[string]uint16{}
	for i, s := range autoStubNames {
		hooks[s] = autoStubs + 2*uint16(i)
	}
	img, err := loader.LoadBytes("random.bin", rom, loader.Options{Format: loader.FormatBin, Base: 0xD000, BaseSet: true, Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []uint16{0x0181, 0x0141} { // each stack's region: 64 bytes (sim/private.go)
		img.Symbols = append(img.Symbols, loader.Symbol{Name: fmt.Sprintf("stack_%04x", a), Addr: a, Kind: loader.SymObject})
	}
	m, err := sim.NewMachine(img, sim.Config{Entry: 0xD000, Preempt: sim.PreemptEvery,
		Stacks: []sim.StackRange{{Thread: -1, Lo: 0x0100, Hi: 0x01FF}}})
	if err != nil {
		t.Fatal(err)
	}
	return m, fmt.Sprintf("code %x / %x, table %x", main, rom[0x400:0x440], table)
}

// checkHMC checks --engine hmc --hmc-mode st with partial-order reduction on the image
// of m (symbolic/reduce.go) against the kinds of violation the plain
// explicit search finds (want): verified exactly when there are none,
// otherwise one of them, whose trace replays.
func checkHMC(t *testing.T, m *sim.Machine, i int, desc string, want map[sim.Kind]bool) {
	t.Helper()
	m3, err := sim.NewMachine(m.Image, m.Config) // privacy is a machine's
	if err != nil {
		t.Fatal(err)
	}
	e, err := symbolic.NewEngine(m3, symbolic.Options{Reduce: true})
	if err != nil {
		t.Fatal(err)
	}
	// The state traversal alone: bounded model checks, which do not
	// reduce, would decide many of these programs before it ran.
	r := e.Check(context.Background(), []*symbolic.State{e.Initial()}, symbolic.Config{Mode: symbolic.ST, Timeout: 20 * time.Second})
	switch r.Verdict {
	case symbolic.Verified:
		if len(want) > 0 {
			t.Errorf("program %d (%s): hmc verified, the plain search finds %v", i, desc, want)
		}
	case symbolic.Violated:
		if !want[r.Violation.Kind] {
			t.Errorf("program %d (%s): hmc finds %s, the plain search %v", i, desc, r.Violation.Kind, want)
		}
		if err := confirmSymbolic(m, r.Violation, r.Trace); err != nil {
			t.Errorf("program %d (%s): hmc's trace of %s does not replay: %v", i, desc, r.Violation.Kind, err)
		}
	default:
		t.Logf("program %d (%s): hmc incomplete: %s", i, desc, r.Limit)
	}
	if r.Stats.Reduced > 0 {
		hmcReduced++
	}
	if r.Privacy != "" {
		hmcPrivacy++
	}
}

// hmcReduced and hmcPrivacy count the programs on which checkHMC followed
// one thread alone, and on which stack privacy broke.
var hmcReduced, hmcPrivacy int

// TestAutoDifferential: on random two-thread programs that draw wide
// nondeterministic values, --engine auto (an explicit search with
// partial-order reduction and stack privacy, --max-branch 4, its wide
// choices handed to HMC) reaches the verdict of the plain explicit search
// that enumerates every value (--reduce none, every kind found with
// --all): verified exactly when the plain search finds nothing, and
// otherwise a violation of a kind the plain search finds, whose trace
// replays. An incomplete HMC part (a limit) is allowed but counted. And
// --engine hmc with partial-order reduction reaches the same verdicts.
func TestAutoDifferential(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 40
	}
	r := rand.New(rand.NewPCG(7, 11))
	var handed, violated, verified, incomplete, intruded int
	hmcReduced, hmcPrivacy = 0, 0
	for i := range n {
		m, desc := autoProgram(t, r)
		ref := search.Run(context.Background(), m, search.Options{Strategy: search.BFS, All: true, MaxStates: 2_000_000})
		if ref.Verdict == search.Incomplete {
			continue
		}
		want := map[sim.Kind]bool{}
		for _, f := range ref.Found {
			want[f.Violation.Kind] = true
		}
		m2, err := sim.NewMachine(m.Image, m.Config) // a fresh one: privacy is a machine's
		if err != nil {
			t.Fatal(err)
		}
		o := &checkOptions{timeout: 20 * time.Second, hmc: engineFlags{maxBranch: 4, mode: "hmc", priority: "dfs", prDepth: 8}}
		opts := search.Options{Strategy: search.DFS, Reduce: true}
		cs := &checkSetup{m: m2, opts: opts}
		e, err := symbolic.NewEngine(m2, symbolic.Options{MaxBranch: 4})
		if err != nil {
			t.Fatal(err)
		}
		m2.Config.MaxBranch = 4
		begin := time.Now()
		res := search.Run(context.Background(), m2, opts)
		got, rep, err := handOver(context.Background(), o, cs, e, res, func() *search.Result {
			return search.Run(context.Background(), m2, opts)
		}, begin, io.Discard)
		if err != nil {
			t.Fatalf("program %d (%s): %v", i, desc, err)
		}
		if rep.Ran {
			handed++
		}
		if m2.Intrusion() != nil {
			intruded++
		}
		checkHMC(t, m, i, desc, want)
		switch got.Verdict {
		case search.Verified:
			verified++
			if len(want) > 0 {
				t.Errorf("program %d (%s): auto verified, the plain search finds %v", i, desc, want)
			}
		case search.Violated:
			violated++
			f := got.Found[0]
			if !want[f.Violation.Kind] {
				t.Errorf("program %d (%s): auto finds %s, the plain search %v", i, desc, f.Violation.Kind, want)
			}
			if err := confirmSymbolic(m, f.Violation, f.Trace); err != nil {
				t.Errorf("program %d (%s): the trace of %s does not replay: %v", i, desc, f.Violation.Kind, err)
			}
		default:
			incomplete++
			t.Logf("program %d (%s): auto incomplete: %s", i, desc, got.Limit)
		}
	}
	t.Logf("%d programs: %d handed choices to HMC, %d violated, %d verified, %d incomplete, %d broke stack privacy; hmc reduced %d, its privacy broke on %d",
		n, handed, violated, verified, incomplete, intruded, hmcReduced, hmcPrivacy)
	if hmcReduced < n/2 || hmcPrivacy == 0 {
		t.Errorf("the programs do not exercise hmc's reduction: %d reduced, %d with privacy broken", hmcReduced, hmcPrivacy)
	}
	if handed < n/3 || verified == 0 || violated == 0 || incomplete > n/10 {
		t.Errorf("the programs do not exercise the handoff: %d of %d handed, %d verified, %d violated, %d incomplete",
			handed, n, verified, violated, incomplete)
	}
}
