package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/portfolio"
)

// asCLI makes the test binary run the command line instead of the tests
// when it is started as hc11mc: swarm run starts its members with this
// program, and the planned jobs' tasks are run with it.
const asCLI = "HC11MC_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(asCLI) == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// selfAsCLI returns this test binary, which runs as hc11mc in the
// processes it starts from now on in the test.
func selfAsCLI(t *testing.T) string {
	t.Helper()
	t.Setenv(asCLI, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Skip("cannot find the test binary:", err)
	}
	return exe
}

const tickCounter = "../../../../testdata/bench/tick_counter.elf"

// The firmware decides which search is member 0: with --irq, best-first
// search on fsm; without, best-first search on efsm.
func TestSwarmMembers(t *testing.T) {
	// The firmware decides: with --irq, best-first search on fsm first.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{tickCounter, "--irq", "toc1"}, "0/2 (best+fsm)"},
		{[]string{"../../../../testdata/bench/naive2.elf"}, "0/2 (best+efsm k=1)"},
	} {
		r := swarmRun(t, ExitViolation, append([]string{"check", "--json", "--swarm-member", "0/2"}, c.args...)...)
		if r.Member != c.want {
			t.Errorf("%v: member %q, want %q", c.args, r.Member, c.want)
		}
	}
}

type swarmJSON struct {
	Verdict   string `json:"verdict"`
	Member    string `json:"member"`
	Violation *struct {
		Kind string `json:"kind"`
	} `json:"violation"`
	Members []portfolio.Summary `json:"members"`
	Stats   struct {
		StatesStored int `json:"states_stored"`
	} `json:"stats"`
	TraceLength int    `json:"trace_length"`
	Limit       string `json:"limit"`
	SwarmKey    string `json:"swarm_key"`
	CoveredPCs  []int  `json:"covered_pcs"`
	TraceFile   string `json:"trace_file"`
	// InternalError and SelfCheck are the swarm's check of itself
	// (portfolio/selfcheck.go).
	InternalError json.RawMessage `json:"internal_error"`
	SelfCheck     string          `json:"self_check"`
}

func swarmRun(t *testing.T, want int, args ...string) swarmJSON {
	t.Helper()
	var out, errb bytes.Buffer
	if c := Main(args, nil, &out, &errb); c != want {
		t.Fatalf("hc11mc %s: exit %d, want %d: %s%s", strings.Join(args, " "), c, want, errb.String(), lastLines(out.String()))
	}
	var r swarmJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("hc11mc %s: %v: %q", strings.Join(args, " "), err, out.String())
	}
	return r
}

// The default check is the swarm, and it finds the torn read of the tick
// counter, where depth-first search alone does not; the winner's
// counterexample replays.
func TestSwarmTickCounter(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "cex.json")
	start := time.Now()
	r := swarmRun(t, ExitViolation, "check", tickCounter, "--irq", "toc1", "--json", "--trace", trace, "--workers", "2")
	if r.Violation == nil || r.Violation.Kind != "assert" || !strings.HasPrefix(r.Member, "0/2 (best+fsm)") || len(r.Members) != 2 {
		t.Errorf("violation %+v found by %q, members %+v", r.Violation, r.Member, r.Members)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the swarm took %v", d)
	}
	run(t, ExitViolation, "replay", trace)
	// Member 0 alone gives the same counterexample, as often as it runs.
	one := swarmRun(t, ExitViolation, "check", tickCounter, "--irq", "toc1", "--json", "--swarm-member", "0/2")
	again := swarmRun(t, ExitViolation, "check", tickCounter, "--irq", "toc1", "--json", "--swarm-member", "0/2")
	if one.TraceLength != r.TraceLength || one.Stats != again.Stats || one.SwarmKey == "" || one.SwarmKey != again.SwarmKey || len(one.CoveredPCs) == 0 {
		t.Errorf("member 0/2 alone: %+v, again %+v; in the swarm: %d transitions", one, again, r.TraceLength)
	}
	// Depth-first search alone, and best-first search on efsm alone,
	// stop at the limit.
	for _, member := range []string{"1/2", "2/3"} {
		lim := swarmRun(t, ExitIncomplete, "check", tickCounter, "--irq", "toc1", "--json", "--swarm-member", member, "--max-states", "20000")
		if lim.Verdict != "incomplete" || !strings.Contains(lim.Limit, "--max-states 20000") {
			t.Errorf("member %s alone: %+v", member, lim)
		}
	}
	// The text output names the winner and how to repeat it.
	out := run(t, ExitViolation, "check", tickCounter, "--irq", "toc1", "--workers", "2", "-q")
	for _, want := range []string{"swarm of 2", "member 0/2: best+fsm", "found by member 0/2 (best+fsm)", "--swarm-member 0/2"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A member that searches exhaustively decides for the swarm; when every
// member stops at a limit the swarm is incomplete and says why.
func TestSwarmVerdicts(t *testing.T) {
	r := swarmRun(t, ExitVerified, "check", "../../../../testdata/models/assert_ok.elf", "--json", "--workers", "3")
	if r.Verdict != "verified" || r.Member == "" || len(r.Members) != 3 {
		t.Errorf("assert_ok: %+v", r)
	}
	r = swarmRun(t, ExitIncomplete, "check", "../../../../testdata/models/irq_counter.elf", "--irq", "toc1", "--json", "--workers", "2", "--max-states", "5000")
	if r.Verdict != "incomplete" || r.Member != "" || !strings.Contains(r.Limit, "--max-states 5000 (every member)") || r.Stats.StatesStored < 10000 {
		t.Errorf("irq_counter: %+v", r)
	}
	out := run(t, ExitIncomplete, "check", "../../../../testdata/models/irq_counter.elf", "--irq", "toc1", "--workers", "2", "--max-states", "5000", "-q")
	for _, want := range []string{"incomplete", "covered:", "member 0/2 (best+fsm): incomplete: --max-states 5000"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A firmware without a target for the heuristic runs its guided members
// as shuffled depth-first searches, not as copies of breadth-first search.
func TestSwarmNoTarget(t *testing.T) {
	r := swarmRun(t, ExitViolation, "check", "../../../../testdata/models/illegal.elf", "--json", "--workers", "4")
	descs := ""
	for _, m := range r.Members {
		descs += m.Member + "; "
	}
	for _, want := range []string{"0/4 (dfs shuffle 1 (for best+efsm k=1: no target))", "2/4 (dfs shuffle 3 (for best+fsm: no target))"} {
		if !strings.Contains(descs, want) {
			t.Errorf("members lack %q: %s", want, descs)
		}
	}
}

func TestSwarmRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", tickCounter, "--search", "swarm", "--heuristic", "fsm"}, "--heuristic: the members"},
		{[]string{"check", tickCounter, "--search", "swarm", "--all"}, "--all: the members"},
		{[]string{"check", tickCounter, "--search", "best", "--workers", "2"}, "--workers: --search best runs one search"},
		{[]string{"check", tickCounter, "--search", "bfs", "--workers", "2", "--save-frontier", "f"}, "runs one worker; give --workers 1"},
		{[]string{"check", tickCounter, "--search", "dfs", "--swarm-member", "1/2"}, "--swarm-member: only --search swarm"},
		{[]string{"check", tickCounter, "--swarm-member", "2/2"}, "want I/N"},
		{[]string{"check", tickCounter, "--swarm-member", "1/2", "--workers", "3"}, "runs one member alone"},
		{[]string{"bench", "../../../../testdata/bench", "--workers", "2", "--strategies", "bfs"}, "--workers: no strategy"},
		{[]string{"swarm", "plan", tickCounter, "--format", "slurm"}, "--size"},
		{[]string{"swarm", "plan", tickCounter, "--size", "4"}, "--format slurm|k8s is required"},
		{[]string{"swarm", "plan", tickCounter, "--size", "4", "--format", "elf"}, "--firmware-format"},
		{[]string{"swarm", "plan", tickCounter, "--size", "4", "--format", "slurm", "--image", "x"}, "--image: belongs to --format k8s"},
		{[]string{"swarm", "plan", tickCounter, "--size", "4", "--format", "slurm", "--heuristic", "fsm"}, "unknown flag: --heuristic"},
		{[]string{"swarm", "plan", tickCounter, "--size", "4", "--format", "slurm", "--max-run", "5"}, "--max-run"},
		{[]string{"swarm", "merge", tickCounter}, "not a result of check --json"},
	} {
		var out, errb bytes.Buffer
		if code := Main(c.args, nil, &out, &errb); code != ExitUsage || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
	// --heuristic without --search names one best-first search, as before.
	r, code := runJSON(t, "check", tickCounter, "--irq", "toc1", "--heuristic", "fsm", "--json")
	if code != ExitViolation || r.Stats.StatesStored > 5000 {
		t.Errorf("--heuristic fsm: exit %d, %d states", code, r.Stats.StatesStored)
	}
}

// The Slurm script: an array of N tasks, each running its member with the
// check flags and writing its result; run here with bash, task by task,
// as Slurm would, and merged.
func TestSwarmPlanSlurm(t *testing.T) {
	exe := selfAsCLI(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "swarm.sbatch")
	run(t, 0, "swarm", "plan", "--size", "4", "--format", "slurm", "--hc11mc", exe, "-o", script, "--max-memory", "512M",
		"--timeout", "90s", "--parallel", "2", tickCounter, "--irq", "toc1", "--preempt", "every", "--reduce", "none", "--max-states", "100000")
	b, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.HasPrefix(s, "#!/bin/bash\n") {
		t.Errorf("no bash shebang:\n%s", s)
	}
	directives := map[string]string{}
	for _, l := range strings.Split(s, "\n") {
		if d, ok := strings.CutPrefix(l, "#SBATCH --"); ok {
			k, v, _ := strings.Cut(d, "=")
			directives[k] = v
		} else if directives["array"] != "" && strings.HasPrefix(l, "#SBATCH") {
			t.Errorf("malformed directive %q", l)
		}
	}
	for k, v := range map[string]string{"array": "0-3%2", "cpus-per-task": "1", "mem": "683M", "time": "7", "job-name": "hc11mc-swarm"} {
		if directives[k] != v {
			t.Errorf("#SBATCH --%s=%q, want %q", k, directives[k], v)
		}
	}
	// Directives must come before the first command.
	if i, j := strings.LastIndex(s, "#SBATCH"), strings.Index(s, "\ni=$SLURM_ARRAY_TASK_ID"); i < 0 || j < i {
		t.Errorf("directives after the commands:\n%s", s)
	}
	cmd := regexp.MustCompile(`(?m)^\S+ check \S+ --swarm-member "\$i/4" .*--irq=toc1.*--reduce=none.* --stop-file swarm-results/decided --json -q --trace swarm-results/trace-"\$i".json > swarm-results/member-"\$i".json$`)
	if !cmd.MatchString(s) {
		t.Errorf("no task command:\n%s", s)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run the tasks")
	}
	work := filepath.Join(dir, "work")
	os.MkdirAll(work, 0o755)
	fw, _ := filepath.Abs(tickCounter)
	s = strings.ReplaceAll(s, tickCounter, fw)
	os.WriteFile(script, []byte(s), 0o755)
	for i := 0; i < 4; i++ {
		c := exec.Command("bash", script)
		c.Dir = work
		c.Env = append(os.Environ(), fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i))
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("task %d: %v: %s", i, err, out)
		}
	}
	files, _ := filepath.Glob(filepath.Join(work, "swarm-results", "member-*.json"))
	trace := filepath.Join(dir, "cex.json")
	r := swarmRun(t, ExitViolation, append([]string{"swarm", "merge", "--json", "--trace", trace}, files...)...)
	if r.Verdict != "violation" || r.Violation.Kind != "assert" || len(r.Members) != 4 || !strings.HasPrefix(r.Member, "0/4") && !strings.HasPrefix(r.Member, "3/4") {
		t.Errorf("merged: %+v", r)
	}
	run(t, ExitViolation, "replay", trace)
}

// The Kubernetes manifest: plan's flags reach the Indexed Job, and its
// container's script runs here with sh, as a pod would.
func TestSwarmPlanK8s(t *testing.T) {
	exe := selfAsCLI(t)
	var out, errb bytes.Buffer
	args := []string{"swarm", "plan", "--size", "3", "--format", "k8s", "--hc11mc", exe, "--image", "registry.example/hc11mc:1",
		"--claim", "fw", "--max-memory", "1G", tickCounter, "--irq", "toc1", "--max-states", "100000"}
	if code := Main(args, nil, &out, &errb); code != 0 {
		t.Fatalf("plan: exit %d: %s", code, errb.String())
	}
	// The manifest itself is portfolio's (TestPlanKubernetes there); here
	// the flags reach it, and its script runs.
	var job map[string]any
	if err := json.Unmarshal(out.Bytes(), &job); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	pod := job["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
	c := pod["containers"].([]any)[0].(map[string]any)
	limits, _ := c["resources"].(map[string]any)["limits"].(map[string]any)
	if c["image"] != "registry.example/hc11mc:1" || pod["volumes"].([]any)[0].(map[string]any)["persistentVolumeClaim"].(map[string]any)["claimName"] != "fw" ||
		limits["memory"] != "1366Mi" || job["spec"].(map[string]any)["completions"] != 3.0 {
		t.Fatalf("the flags do not reach the job: %v", job)
	}
	script := c["command"].([]any)[2].(string)
	if !strings.Contains(script, "$JOB_COMPLETION_INDEX") || !strings.Contains(script, `--swarm-member "$i/3"`) {
		t.Errorf("script:\n%s", script)
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run the tasks")
	}
	work := t.TempDir()
	fw, _ := filepath.Abs(tickCounter)
	script = strings.ReplaceAll(script, tickCounter, fw)
	for i := 0; i < 3; i++ {
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pod %d: %v: %s", i, err, out)
		}
	}
	files, _ := filepath.Glob(filepath.Join(work, "swarm-results", "member-*.json"))
	r := swarmRun(t, ExitViolation, append([]string{"swarm", "merge", "--json"}, files...)...)
	if r.Verdict != "violation" || len(r.Members) != 3 {
		t.Errorf("merged: %+v", r)
	}
}

// swarm merge: results of different swarms are refused, a member's result
// twice too, and missing members are named; with no member finished the
// verdict is incomplete with the union of the coverage.
func TestSwarmMerge(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, args ...string) string {
		var out, errb bytes.Buffer
		Main(args, nil, &out, &errb)
		p := filepath.Join(dir, name)
		os.WriteFile(p, out.Bytes(), 0o644)
		return p
	}
	counter := "../../../../testdata/models/irq_counter.elf"
	a := write("a.json", "check", counter, "--irq", "toc1", "--max-states", "3000", "--swarm-member", "0/3", "--json")
	b := write("b.json", "check", counter, "--irq", "toc1", "--max-states", "3000", "--swarm-member", "2/3", "--json")
	other := write("c.json", "check", counter, "--irq", "toc1", "--max-states", "3000", "--swarm-member", "1/4", "--json")
	r := swarmRun(t, ExitIncomplete, "swarm", "merge", "--json", a, b)
	var m portfolio.Merged
	var out, errb bytes.Buffer
	Main([]string{"swarm", "merge", "--json", a, b}, nil, &out, &errb)
	json.Unmarshal(out.Bytes(), &m)
	if r.Verdict != "incomplete" || len(m.Missing) != 1 || m.Missing[0] != 1 || m.CoveredPCs == 0 || !strings.Contains(m.Limit, "1 members left no result") {
		t.Errorf("merged: %+v", m)
	}
	text := run(t, ExitIncomplete, "swarm", "merge", a, b)
	for _, want := range []string{"swarm of 3: 2 results, none from member 1", "instructions in the ICFG reached"} {
		if !strings.Contains(text, want) {
			t.Errorf("merge lacks %q:\n%s", want, text)
		}
	}
	for _, c := range [][]string{{a, other}, {a, a}} {
		errb.Reset()
		if code := Main(append([]string{"swarm", "merge"}, c...), nil, &out, &errb); code != ExitUsage {
			t.Errorf("merge %v: exit %d (%s)", c, code, errb.String())
		}
	}
}

// swarm run --size 4, then swarm merge of what it kept, gives the verdict
// of check on every model with a known verdict.
func TestSwarmRunModels(t *testing.T) {
	selfAsCLI(t)
	for _, dir := range []string{"../../../../testdata/models", "../../../../testdata/bench", "../../../../testdata/soundness"} {
		for _, e := range readManifest(t, dir) {
			if e.Kind == "throughput" {
				continue
			}
			t.Run(e.Name, func(t *testing.T) {
				file := filepath.Join(dir, e.File)
				res := filepath.Join(t.TempDir(), "results")
				want := map[string]int{"violation": ExitViolation, "verified": ExitVerified}[e.Expect]
				single := swarmRun(t, want, append([]string{"check", file, "--json", "--max-states", "2000000"}, e.Flags...)...)
				args := append([]string{"swarm", "run", "--size", "4", "--results", res, file, "--json", "--max-states", "2000000"}, e.Flags...)
				r := swarmRun(t, want, args...)
				files, _ := filepath.Glob(filepath.Join(res, "member-*.json"))
				merged := swarmRun(t, want, append([]string{"swarm", "merge", "--json"}, files...)...)
				if r.Verdict != e.Expect || merged.Verdict != e.Expect || single.Verdict != e.Expect || len(files) == 0 {
					t.Errorf("check %s, swarm run %s, merge %s of %d results; want %s", single.Verdict, r.Verdict, merged.Verdict, len(files), e.Expect)
				}
				if e.Expect == "violation" && (r.Violation == nil || r.Violation.Kind != e.Property || merged.Member != r.Member) {
					t.Errorf("swarm run: %+v; merge: %+v", r, merged)
				}
				// The members agree: the swarm's check of itself flags nothing.
				for _, x := range []swarmJSON{single, r, merged} {
					if x.InternalError != nil || x.SelfCheck != "" {
						t.Errorf("a contradiction flagged where the members agree: %s %s", x.InternalError, x.SelfCheck)
					}
				}
			})
		}
	}
}

// The swarm's result says, as a single search's does, when a thread broke
// the privacy of another's stack and the search ran again without it.
// Without batches of steps: with them the swarm's deciding member
// (best-first) reaches the intrusion before any transition followed
// alone relied on the byte, and has nothing to withdraw.
func TestSwarmStackPrivacy(t *testing.T) {
	for _, args := range [][]string{{"--search", "bfs"}, {"--workers", "2"}} {
		var out, errb bytes.Buffer
		Main(append([]string{"check", "../../../../testdata/soundness/stack_escape_ok.elf", "--json", "--batch", "off"}, args...), nil, &out, &errb)
		var r struct {
			Verdict      string `json:"verdict"`
			StackPrivacy string `json:"stack_privacy"`
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("%v: %v: %s", args, err, errb.String())
		}
		if r.Verdict != "verified" || !strings.Contains(r.StackPrivacy, "in thread 0's stack") {
			t.Errorf("%v: verdict %s, stack_privacy %q", args, r.Verdict, r.StackPrivacy)
		}
	}
}
