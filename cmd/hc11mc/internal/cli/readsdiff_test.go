package cli

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/testkit/randprog"
)

// readsSettings are the settings TestReadsDifferential compares with the
// plain search: the symbolic engine alone, --engine auto, and the default
// race.
var readsSettings = []diffSetting{
	{name: "--engine hmc", args: []string{"--engine", "hmc"}},
	{name: "--engine auto", args: []string{"--engine", "auto"}},
	{name: "the default", args: nil},
}

// writeReads writes program seed of randprog.Reads into dir.
func writeReads(t *testing.T, seed uint64, dir string) *diffProgram {
	t.Helper()
	p := randprog.Reads(rand.New(rand.NewPCG(seed, 0x4ead)))
	img := filepath.Join(dir, fmt.Sprintf("r%d.bin", seed))
	if err := os.WriteFile(img, p.Bytes, 0o644); err != nil {
		t.Fatal(err)
	}
	return &diffProgram{seed: seed, p: p, load: p.LoadFlags(img, ""), dir: dir}
}

// readsOne compares program seed of randprog.Reads under readsSettings
// with the plain breadth-first search: ok is false when the plain search
// does not end within its bound.
func readsOne(t *testing.T, seed uint64, dir string, settings []diffSetting) (d *diffProgram, bad []discrepancy, ok bool) {
	d, bad, _, ok = readsCompare(t, seed, dir, settings)
	return d, bad, ok
}

// readsCompare is readsOne saying also which settings ended incomplete.
func readsCompare(t *testing.T, seed uint64, dir string, settings []diffSetting) (d *diffProgram, bad []discrepancy, incomplete []string, ok bool) {
	t.Helper()
	d = writeReads(t, seed, dir)
	ref, code, _ := d.check("--reduce", "none", "--search", "bfs", "--engine", "explicit", "--all")
	if code == ExitUsage || ref.Verdict == "bad-json" {
		return d, []discrepancy{{"--reduce none --search bfs", "refused: " + ref.Limit}}, nil, true
	}
	if ref.Verdict == "incomplete" {
		return d, nil, nil, false
	}
	want := ref.kinds()
	for _, s := range settings {
		r, code, trace := d.check(s.args...)
		if code == ExitUsage {
			bad = append(bad, discrepancy{s.name, "refused: " + r.Limit})
			continue
		}
		got := r.kinds()
		switch r.Verdict {
		case "verified":
			if len(want) > 0 {
				bad = append(bad, discrepancy{s.name, fmt.Sprintf("verified; the plain search finds %v", want)})
			}
		case "violation":
			if len(want) == 0 || len(got) == 0 || !slices.Contains(want, got[0]) {
				bad = append(bad, discrepancy{s.name, fmt.Sprintf("violation %v; the plain search finds %v", got, want)})
			}
			if trace == "" || !replays(trace) {
				bad = append(bad, discrepancy{s.name, "the counterexample does not replay"})
			}
		case "incomplete":
			incomplete = append(incomplete, s.name+": "+r.Limit)
		default:
			bad = append(bad, discrepancy{s.name, r.Verdict + ": " + r.Limit})
		}
	}
	return d, bad, incomplete, true
}

// replays reports whether the counterexample in trace replays to its
// violation.
func replays(trace string) bool {
	return Main([]string{"replay", trace}, nil, io.Discard, io.Discard) == ExitViolation
}

// TestReadsDifferential: on programs of randprog.Reads — an instruction
// of the table in an addressing mode drawn for it, reading a table in
// ROM, a RAM window, an --input register, a drawn value or a byte code
// patched from it, at a fixed address or indexed by the drawn value, by
// loads, arithmetic, compares, bit tests, BRSET and BRCLR,
// read-modify-writes, 16-bit loads and pulls — --engine hmc, --engine
// auto and the default reach the plain search's verdict, and every
// counterexample replays.
func TestReadsDifferential(t *testing.T) {
	const n = 60
	dir := t.TempDir()
	compared, violated, incomplete := 0, 0, 0
	feats := map[string]int{}
	for seed := range uint64(n) {
		d, bad, inc, ok := readsCompare(t, seed, dir, readsSettings)
		if !ok {
			continue
		}
		compared++
		for _, why := range inc {
			t.Logf("program %d: %s", seed, why)
		}
		incomplete += len(inc)
		for _, f := range d.p.Features {
			feats[f]++
		}
		for _, b := range bad {
			t.Errorf("program %d: %s: %s\n%s", seed, b.setting, b.what, d.p)
		}
		if r, _, _ := d.check("--reduce", "none", "--search", "bfs", "--engine", "explicit"); r.Verdict == "violation" {
			violated++
		}
	}
	t.Logf("%d programs compared, %d with a violation, %d runs incomplete; pieces: %v", compared, violated, incomplete, feats)
	if compared < n*9/10 || violated < compared/5 || violated > compared*4/5 || incomplete > compared/4 {
		t.Errorf("the programs do not exercise the engines: %d of %d compared, %d with a violation, %d runs incomplete", compared, n, violated, incomplete)
	}
	// Every kind of source, and each shape the rule is for, is read.
	for _, want := range []string{" rom", " rom[d]", " ram", " ram[d]", " input", " adr", " drawn", "brset ", "brclr ", "pul", "patched page-2"} {
		seen := false
		for f := range feats {
			seen = seen || strings.Contains(f, want)
		}
		if !seen {
			t.Errorf("no piece %q among the programs", want)
		}
	}
}

// TestReadsDifferentialCatches: the programs of TestReadsDifferential
// tell a symbolic engine whose concrete steps read placeholders
// (mutation.PlaceholderRead) from the plain search, under --engine hmc.
func TestReadsDifferentialCatches(t *testing.T) {
	defer mutation.Set(mutation.PlaceholderRead)()
	dir := t.TempDir()
	for seed := range uint64(60) {
		d, bad, ok := readsOne(t, seed, dir, readsSettings[:1])
		if ok && len(bad) > 0 {
			t.Logf("caught by program %d (%s): %s: %s", seed, d.p.Features, bad[0].setting, bad[0].what)
			return
		}
	}
	t.Errorf("no program told the fault from the plain search")
}
