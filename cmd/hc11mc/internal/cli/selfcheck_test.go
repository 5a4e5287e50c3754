package cli

import (
	"bytes"
	"encoding/json"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/verdict"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/portfolio"
	"github.com/hc11mc/hc11mc/search"
)

const assertFail = "../../../../testdata/models/assert_fail.elf"

// setEndHook sets memberEndHook for the rest of the test.
func setEndHook(t *testing.T, hook func(i int, res *check.Result, end func(*check.Result))) {
	t.Helper()
	memberEndHook = hook
	t.Cleanup(func() { memberEndHook = nil })
}

// unsoundMember makes member wrong of the next swarm of n (one swarm
// only) end with change(its result) and orders the ends: with wrongFirst, the wrong member ends
// first, once every other member's search has returned (so none of them
// is stopped by it); otherwise it ends last, once every other member has
// ended.
func unsoundMember(t *testing.T, n, wrong int, wrongFirst bool, change func(*check.Result) *check.Result) {
	var searched, ended sync.WaitGroup
	searched.Add(n - 1)
	ended.Add(n - 1)
	left := make(chan struct{})
	setEndHook(t, func(i int, res *check.Result, end func(*check.Result)) {
		if i == wrong {
			if wrongFirst {
				searched.Wait()
				end(change(res))
				close(left)
			} else {
				ended.Wait()
				end(change(res))
			}
			return
		}
		if wrongFirst {
			searched.Done()
			<-left
			end(res)
		} else {
			end(res)
			ended.Done()
		}
	})
}

// wrongVerified turns a result into an exhaustive end without a violation.
func wrongVerified(res *check.Result) *check.Result {
	w := *res
	w.Verdict, w.Found, w.Limit = search.Verified, nil, verdict.Stop{}
	return &w
}

// selfCheckJSON is what the self-check tests read of a result.
type selfCheckJSON struct {
	Verdict   string `json:"verdict"`
	Member    string `json:"member"`
	Violation *struct {
		Kind string `json:"kind"`
	} `json:"violation"`
	TraceFile     string                   `json:"trace_file"`
	InternalError *portfolio.InternalError `json:"internal_error"`
	SelfCheck     string                   `json:"self_check"`
}

func mainJSON(t *testing.T, args ...string) (selfCheckJSON, int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, nil, &out, &errb)
	var r selfCheckJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("hc11mc %s: exit %d, %v: %q %s", strings.Join(args, " "), code, err, out.String(), errb.String())
	}
	return r, code, errb.String()
}

// checkSettings checks the settings of the two members the internal error
// names: dfs proved verified, best-first on efsm found the violation.
func checkSettings(t *testing.T, what string, e *portfolio.InternalError, proof, viol string) {
	t.Helper()
	if e == nil {
		t.Fatalf("%s: no internal_error", what)
	}
	if !strings.Contains(e.Message, "report") || !strings.Contains(e.Message, proof) || !strings.Contains(e.Message, viol) {
		t.Errorf("%s: message %q", what, e.Message)
	}
	for _, c := range []struct {
		s    portfolio.Settings
		want string
	}{{e.VerifiedBy, proof}, {e.ViolatedBy, viol}} {
		i := c.want[:strings.Index(c.want, " ")]
		if c.s.Member != c.want || c.s.Engine != "explicit" || c.s.Preempt != "every" || strings.Join(c.s.Reductions, ",") != "por,dead" ||
			c.s.Repeat != "--swarm-member "+i+" --seed 1" || c.s.Seed != 1 {
			t.Errorf("%s: settings %+v, want member %s", what, c.s, c.want)
		}
	}
	if e.VerifiedBy.Search != "dfs" && e.ViolatedBy.Search != "dfs" || e.VerifiedBy.Search == e.ViolatedBy.Search {
		t.Errorf("%s: searches %q and %q", what, e.VerifiedBy.Search, e.ViolatedBy.Search)
	}
}

// checkStderr checks the internal error as stderr shows it.
func checkStderr(t *testing.T, what, stderr, proof, viol string) {
	t.Helper()
	for _, want := range []string{"internal error", "report", "verified by member " + proof, "violated by member " + viol,
		"--swarm-member " + proof[:3], "--swarm-member " + viol[:3], "reductions por,dead"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("%s: stderr lacks %q:\n%s", what, want, stderr)
		}
	}
}

// A member that proves verified while another finds a violation that
// replays is an unsound member: the swarm reports the violation, exits 4
// and names both members' settings, in text and in JSON, whichever of the
// two ends first.
func TestSwarmSelfCheckRace(t *testing.T) {
	const best, dfs = "0/2 (best+efsm k=1)", "1/2 (dfs)"
	for _, c := range []struct {
		name        string
		wrong       int
		wrongFirst  bool
		proof, viol string
	}{
		{"verified wins", 1, true, dfs, best},
		{"violation wins", 1, false, dfs, best},
		{"member 0 unsound, wins", 0, true, best, dfs},
		{"member 0 unsound, ends last", 0, false, best, dfs},
	} {
		t.Run(c.name, func(t *testing.T) {
			unsoundMember(t, 2, c.wrong, c.wrongFirst, wrongVerified)
			trace := filepath.Join(t.TempDir(), "cex.json")
			r, code, stderr := mainJSON(t, "check", assertFail, "--workers", "2", "--json", "--trace", trace)
			if code != ExitInternal || r.Verdict != "violation" || r.Violation == nil || r.Violation.Kind != "assert" || r.Member != c.viol {
				t.Errorf("exit %d, %+v", code, r)
			}
			checkSettings(t, "json", r.InternalError, c.proof, c.viol)
			checkStderr(t, "json", stderr, c.proof, c.viol)
			run(t, ExitViolation, "replay", trace)

			var out, errb bytes.Buffer
			unsoundMember(t, 2, c.wrong, c.wrongFirst, wrongVerified) // the hook ends one swarm
			code = Main([]string{"check", assertFail, "--workers", "2", "-q"}, nil, &out, &errb)
			if code != ExitInternal {
				t.Errorf("text: exit %d", code)
			}
			for _, want := range []string{"violation: assert", "found by member " + c.viol, "--swarm-member " + c.viol[:3]} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("text: stdout lacks %q:\n%s", want, out.String())
				}
			}
			checkStderr(t, "text", errb.String(), c.proof, c.viol)
		})
	}
}

// No false alarm: a member stopped by a limit beside a violation is no
// contradiction, nor is a verified member beside a violation that does not
// replay (the result is then what it would be without the check: the
// verdict of the member that decided first).
func TestSwarmSelfCheckNoContradiction(t *testing.T) {
	limit := func(res *check.Result) *check.Result {
		w := *res
		w.Verdict, w.Found, w.Limit = search.Incomplete, nil, verdict.MaxStates(10)
		return &w
	}
	unsoundMember(t, 2, 1, true, limit)
	r, code, stderr := mainJSON(t, "check", assertFail, "--workers", "2", "--json")
	if code != ExitViolation || r.Verdict != "violation" || r.InternalError != nil || stderr != "" {
		t.Errorf("limit beside a violation: exit %d, %+v, %s", code, r, stderr)
	}
	for _, c := range []struct {
		wrongFirst bool
		code       int
		verdict    string
	}{{true, ExitVerified, "verified"}, {false, ExitViolation, "violation"}} {
		// Member 1 proves verified; member 0's counterexample stops one
		// transition short of its violation.
		var mu sync.Mutex
		cut := false
		unsoundMember(t, 2, 1, c.wrongFirst, wrongVerified)
		hook := memberEndHook
		setEndHook(t, func(i int, res *check.Result, end func(*check.Result)) {
			if i == 0 && len(res.Found) > 0 {
				w := *res
				f := w.Found[0]
				f.Trace = f.Trace[:len(f.Trace)-1]
				w.Found = []search.Found{f}
				res = &w
				mu.Lock()
				cut = true
				mu.Unlock()
			}
			hook(i, res, end)
		})
		r, code, _ := mainJSON(t, "check", assertFail, "--workers", "2", "--json")
		if !cut || code != c.code || r.Verdict != c.verdict || r.InternalError != nil {
			t.Errorf("verified first %t, a violation that does not replay: exit %d, %+v", c.wrongFirst, code, r)
		}
	}
}

// No false alarm where the members agree: on every model of the manifests
// each member runs to its own end (none is stopped by another's decision),
// the swarm compares all of them and flags nothing.
func TestSwarmSelfCheckModels(t *testing.T) {
	const n = 4
	var mu sync.Mutex
	var searched *sync.WaitGroup
	setEndHook(t, func(i int, res *check.Result, end func(*check.Result)) {
		mu.Lock()
		wg := searched
		mu.Unlock()
		wg.Done()
		wg.Wait()
		end(res)
	})
	for _, dir := range []string{"../../../../testdata/models", "../../../../testdata/bench", "../../../../testdata/soundness"} {
		for _, e := range readManifest(t, dir) {
			if e.Kind == "throughput" {
				continue
			}
			t.Run(e.Name, func(t *testing.T) {
				mu.Lock()
				searched = &sync.WaitGroup{}
				searched.Add(n)
				mu.Unlock()
				var out, errb bytes.Buffer
				args := append([]string{"check", filepath.Join(dir, e.File), "--workers", "4", "--json", "--max-states", "200000"}, e.Flags...)
				code := Main(args, nil, &out, &errb)
				var r struct {
					selfCheckJSON
					Members []portfolio.Summary `json:"members"`
				}
				if err := json.Unmarshal(out.Bytes(), &r); err != nil {
					t.Fatalf("exit %d: %v: %s", code, err, errb.String())
				}
				decided := 0
				for _, m := range r.Members {
					if m.Verdict != "incomplete" {
						decided++
					}
					if m.Verdict != e.Expect && m.Verdict != "incomplete" || strings.Contains(m.Limit, "another member decided") {
						t.Errorf("member %s: %s (%s)", m.Member, m.Verdict, m.Limit)
					}
				}
				if code == ExitInternal || r.InternalError != nil || strings.Contains(errb.String(), "internal error") {
					t.Errorf("exit %d, internal error %+v: %s", code, r.InternalError, errb.String())
				}
				if r.Verdict != e.Expect && (r.Verdict != "incomplete" || decided > 0) || len(r.Members) != n {
					t.Errorf("verdict %s, %d members decided; want %s", r.Verdict, decided, e.Expect)
				}
			})
		}
	}
}

// swarm merge checks the members' results as the race does: a verified
// member beside a violation whose trace replays is an internal error
// (exit 4, both members' settings); without the trace, or with one that
// does not replay, it warns that the check could not be done and keeps
// the violation; a member stopped by a limit is no contradiction.
func TestSwarmSelfCheckMerge(t *testing.T) {
	const best, dfs = "0/2 (best+efsm k=1)", "1/2 (dfs)"
	dir := t.TempDir()
	member := func(i string) string {
		trace := filepath.Join(dir, "trace-"+i+".json")
		var out, errb bytes.Buffer
		if code := Main([]string{"check", assertFail, "--swarm-member", i + "/2", "--json", "--trace", trace}, nil, &out, &errb); code != ExitViolation {
			t.Fatalf("member %s: exit %d: %s", i, code, errb.String())
		}
		p := filepath.Join(dir, "member-"+i+".json")
		os.WriteFile(p, out.Bytes(), 0o644)
		return p
	}
	viol, other := member("0"), member("1")
	// craft rewrites a member's result: fields to set, fields to remove.
	craft := func(path, name string, set map[string]any, drop ...string) string {
		b, _ := os.ReadFile(path)
		var fields map[string]any
		if err := json.Unmarshal(b, &fields); err != nil {
			t.Fatal(err)
		}
		for k, v := range set {
			fields[k] = v
		}
		for _, k := range drop {
			delete(fields, k)
		}
		b, _ = json.Marshal(fields)
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	verified := craft(other, "verified-1.json", map[string]any{"verdict": "verified"}, "violation", "trace_length", "trace_file")
	r, code, stderr := mainJSON(t, "swarm", "merge", "--json", viol, verified)
	if code != ExitInternal || r.Verdict != "violation" || r.Violation == nil || r.Violation.Kind != "assert" || r.Member != best {
		t.Errorf("merge: exit %d, %+v", code, r)
	}
	checkSettings(t, "merge json", r.InternalError, dfs, best)
	checkStderr(t, "merge json", stderr, dfs, best)
	var out, errb bytes.Buffer
	if code := Main([]string{"swarm", "merge", viol, verified}, nil, &out, &errb); code != ExitInternal || !strings.Contains(out.String(), "violation: assert") {
		t.Errorf("merge text: exit %d:\n%s", code, out.String())
	}
	checkStderr(t, "merge text", errb.String(), dfs, best)

	// No trace to replay: a warning, the violation kept.
	noTrace := craft(viol, "notrace-0.json", nil, "trace_file")
	r, code, stderr = mainJSON(t, "swarm", "merge", "--json", noTrace, verified)
	if code != ExitViolation || r.InternalError != nil || !strings.Contains(r.SelfCheck, "kept no counterexample") ||
		!strings.Contains(stderr, "warning") || !strings.Contains(stderr, "could be replayed") {
		t.Errorf("merge without a trace: exit %d, %+v, %s", code, r, stderr)
	}
	// A trace that does not replay: a warning, the violation kept.
	b, _ := os.ReadFile(filepath.Join(dir, "trace-0.json"))
	var tf cex.Trace
	json.Unmarshal(b, &tf)
	tf.Steps = tf.Steps[:len(tf.Steps)-1]
	cut := filepath.Join(dir, "cut.json")
	tf.WriteFile(cut)
	cutMember := craft(viol, "cut-0.json", map[string]any{"trace_file": cut})
	r, code, stderr = mainJSON(t, "swarm", "merge", "--json", cutMember, verified)
	if code != ExitViolation || r.InternalError != nil || !strings.Contains(r.SelfCheck, "does not replay") || !strings.Contains(stderr, "warning") {
		t.Errorf("merge with a trace that does not replay: exit %d, %+v, %s", code, r, stderr)
	}
	// A member stopped by a limit beside the violation, and two members
	// that agree: nothing flagged.
	limited := craft(other, "limit-1.json", map[string]any{"verdict": "incomplete", "limit": "--max-states 10"}, "violation", "trace_file")
	for _, files := range [][]string{{viol, limited}, {viol, other}} {
		r, code, stderr = mainJSON(t, append([]string{"swarm", "merge", "--json"}, files...)...)
		if code != ExitViolation || r.InternalError != nil || r.SelfCheck != "" || stderr != "" {
			t.Errorf("merge %v: exit %d, %+v, %s", files, code, r, stderr)
		}
	}
}
