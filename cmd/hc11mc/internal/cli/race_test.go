package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

const symbolicModels = "../../../../testdata/models/symbolic"

// The default check races the symbolic engine where the firmware draws
// nondeterministic data: on secret4 (one of 2^32 inputs fails) and crc8
// (a CRC check that never fails), where every explicit search runs past a
// minute, it decides within seconds, the symbolic member (member 1 of one
// member more than the processors) decides, the text and the JSON name
// it, and the counterexample replays.
func TestDefaultRacesHMC(t *testing.T) {
	hmc := fmt.Sprintf("1/%d (hmc)", runtime.GOMAXPROCS(0)+1)
	trace := filepath.Join(t.TempDir(), "cex.json")
	start := time.Now()
	r := swarmRun(t, ExitViolation, "check", filepath.Join(symbolicModels, "secret4.elf"), "--json", "--trace", trace)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("secret4 took %v", d)
	}
	if r.Verdict != "violation" || r.Violation == nil || r.Violation.Kind != "assert" || r.Member != hmc || len(r.Members) != runtime.GOMAXPROCS(0)+1 {
		t.Fatalf("secret4: %s, member %q, %d members", r.Verdict, r.Member, len(r.Members))
	}
	var out, errb bytes.Buffer
	if c := Main([]string{"replay", trace}, nil, &out, &errb); c != ExitViolation {
		t.Errorf("the symbolic member's counterexample: replay exit %d: %s", c, errb.String())
	}

	start = time.Now()
	r = swarmRun(t, ExitVerified, "check", filepath.Join(symbolicModels, "crc8.elf"), "--json")
	if d := time.Since(start); r.Verdict != "verified" || r.Member != hmc || d > 30*time.Second {
		t.Errorf("crc8: %s, member %q, in %v", r.Verdict, r.Member, d)
	}
	out.Reset()
	if c := Main([]string{"check", filepath.Join(symbolicModels, "crc8_table.elf")}, nil, &out, &errb); c != ExitVerified {
		t.Fatalf("crc8_table: exit %d", c)
	}
	listed := fmt.Sprintf("member 1/%d: hmc (the symbolic engine: every value drawn a symbol; the heuristic aims at assert)\n", runtime.GOMAXPROCS(0)+1)
	for _, want := range []string{listed, "verified by member " + hmc + ", which covered every path for every value"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the text does not say %q:\n%s", want, out.String())
		}
	}
}

// --engine explicit is the old default, the explicit searches alone: it
// does not decide secret4 within its limit, and no member is symbolic.
// --workers gives the swarm's size, the symbolic member among the
// members; a firmware that draws no data has none.
func TestEngineExplicitSwarm(t *testing.T) {
	secret4 := filepath.Join(symbolicModels, "secret4.elf")
	r := swarmRun(t, ExitIncomplete, "check", secret4, "--engine", "explicit", "--max-states", "20000", "--json")
	if len(r.Members) != runtime.GOMAXPROCS(0) {
		t.Errorf("--engine explicit: %d members, want one per processor", len(r.Members))
	}
	for _, m := range r.Members {
		if strings.Contains(m.Member, "hmc") || m.Verdict != "incomplete" {
			t.Errorf("--engine explicit: member %s, %s", m.Member, m.Verdict)
		}
	}
	// A loaded machine can starve a member until the race ends
	// incomplete (TestDefaultManifests): once more, then it must decide.
	var first, firstErr bytes.Buffer
	if c := Main([]string{"check", secret4, "--workers", "2", "--json"}, nil, &first, &firstErr); c == ExitIncomplete {
		t.Logf("--workers 2 ended incomplete once (a loaded machine); again: %s", lastLines(first.String()))
	}
	r = swarmRun(t, ExitViolation, "check", secret4, "--workers", "2", "--json")
	if r.Member != "1/2 (hmc)" || len(r.Members) != 2 || r.Members[0].Member != "0/2 (best+efsm k=1)" {
		t.Errorf("--workers 2: member %q of %v", r.Member, r.Members)
	}
	r = swarmRun(t, ExitIncomplete, "check", secret4, "--workers", "1", "--max-states", "20000", "--json")
	if len(r.Members) != 1 || r.Members[0].Member != "0/1 (best+efsm k=1)" {
		t.Errorf("--workers 1: %v", r.Members)
	}
	r = swarmRun(t, ExitVerified, "check", "../../../../testdata/models/mutex_ok.elf", "--json")
	for _, m := range r.Members {
		if strings.Contains(m.Member, "hmc") || len(r.Members) != runtime.GOMAXPROCS(0) {
			t.Errorf("mutex_ok draws no data: members %v", r.Members)
		}
	}
	// Alone, as a task of an array job runs it, the symbolic member is HMC.
	r = swarmRun(t, ExitViolation, "check", secret4, "--swarm-member", "1/3", "--json")
	if r.Member != "1/3 (hmc)" || r.Verdict != "violation" {
		t.Errorf("--swarm-member 1/3: %q %s", r.Member, r.Verdict)
	}
	// HMC's own flags configure it alone, not the swarm's member.
	var out, errb bytes.Buffer
	if c := Main([]string{"check", secret4, "--hmc-priority", "dfs"}, nil, &out, &errb); c != ExitUsage || !strings.Contains(errb.String(), "--engine hmc or auto") {
		t.Errorf("--hmc-priority without --engine: exit %d: %s", c, errb.String())
	}
}

// The default's verdict on every model of the manifests is the manifest's:
// racing the symbolic engine changes no verdict (it may only decide where
// the explicit searches would not).
func TestDefaultManifests(t *testing.T) {
	dirs := []string{"../../../../testdata/models", "../../../../testdata/soundness", symbolicModels}
	if !testing.Short() {
		dirs = append(dirs, "../../../../testdata/bench")
	}
	for _, dir := range dirs {
		for _, e := range readManifest(t, dir) {
			args := append([]string{"check", filepath.Join(dir, e.File), "--json", "--timeout", "2m"}, e.Flags...)
			r, code := runJSON(t, args...)
			if r.Verdict == "incomplete" && e.Expect != "incomplete" {
				// A loaded machine can starve a member until a limit of
				// the race stops it (incomplete decides nothing and
				// contradicts no verdict); once more, and say why.
				t.Logf("%s/%s: incomplete (%s) on the first run; running it again", filepath.Base(dir), e.Name, r.Limit)
				r, code = runJSON(t, args...)
			}
			kind := ""
			if r.Violation != nil {
				kind = r.Violation.Kind
			}
			if r.Verdict != e.Expect || e.Expect == "violation" && (kind != e.Property || code != ExitViolation) || e.Expect == "verified" && code != ExitVerified {
				t.Errorf("%s/%s: %s %s (exit %d, limit %q), want %s %s", filepath.Base(dir), e.Name, r.Verdict, kind, code, r.Limit, e.Expect, e.Property)
			}
		}
	}
}
