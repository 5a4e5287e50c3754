package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/internal/units"
	"github.com/hc11mc/hc11mc/search"
)

// hc11mc swarm: the swarm beyond one process. A member is a function of
// its index (see swarm.go), so the members of a swarm of N can run
// anywhere: `swarm plan` writes the job for a cluster's scheduler (a Slurm
// array job, a Kubernetes Indexed Job) whose task i runs
// `hc11mc check --swarm-member i/N ... --json --trace ...`; `swarm run` runs
// them as processes here; `swarm merge` combines their JSON results. There
// is no cluster code of our own: the scheduler places, restarts and
// accounts for the tasks, and the members do not talk to each other (in an
// array job each runs to its own end; `swarm run` stops the others when one
// decides, as the in-process swarm does).

func newSwarm(stdout, stderr io.Writer) *cobra.Command {
	c := &cobra.Command{
		Use:   "swarm",
		Short: "run a swarm of searches as an array job or as processes, and merge the results",
		Long: `A swarm is many different searches of the same firmware, the first violation
winning (check runs one in its own process by default). Member i of a swarm
of N is the same search everywhere (check --swarm-member i/N), so the members
can run as the tasks of a cluster's array job:

  hc11mc swarm plan --size 64 --format slurm fw.elf --irq toc1 > swarm.sbatch
  sbatch swarm.sbatch
  hc11mc swarm merge swarm-results/member-*.json

plan writes the job (a Slurm array batch script, or a Kubernetes Indexed Job
manifest); run runs the members as processes on this machine; merge combines
the members' JSON results into one verdict.`,
	}
	c.AddCommand(newSwarmPlan(stdout), newSwarmRun(stdout, stderr), newSwarmMerge(stdout, stderr))
	return c
}

// memberFlagsExcluded are check's flags that a member's command line sets
// itself or that belong to one search.
var memberFlagsExcluded = map[string]string{
	"search": "", "workers": "", "swarm-member": "", "stop-file": "", "json": "", "trace": "", "trace-svg": "", "quiet": "",
	"save-frontier": "", "resume": "", "all": "", "heuristic": "", "k": "", "goal-mem": "",
}

// memberFlags maps the names of check's flags on a swarm command to their
// names on check's command line.
type memberFlags map[string]string

// addMemberFlags defines check's flags that members take on fs: the
// firmware's --format, which would clash with plan's, as --firmware-format.
// keep names excluded flags that the command uses itself (not passed on).
func addMemberFlags(fs *pflag.FlagSet, o *checkOptions, keep ...string) memberFlags {
	tmp := pflag.NewFlagSet("check", pflag.ContinueOnError)
	o.register(tmp)
	names := memberFlags{}
	tmp.VisitAll(func(f *pflag.Flag) {
		_, excluded := memberFlagsExcluded[f.Name]
		if excluded && !slices.Contains(keep, f.Name) {
			return
		}
		name := f.Name
		if f.Name == "format" {
			f.Name = "firmware-format"
			f.Usage = "the firmware's format (check's --format): auto, elf, s19, ihex or bin"
		}
		if !excluded {
			names[f.Name] = name
		}
		fs.AddFlag(f)
	})
	return names
}

// args rebuilds the check flags given on fs for a member's command line,
// in --name=value form.
func (mf memberFlags) args(fs *pflag.FlagSet) []string {
	var args []string
	fs.Visit(func(f *pflag.Flag) {
		name, ok := mf[f.Name]
		if !ok {
			return
		}
		switch v := f.Value.(type) {
		case pflag.SliceValue:
			for _, s := range v.GetSlice() {
				args = append(args, "--"+name+"="+s)
			}
		case *sizeValue:
			args = append(args, "--"+name+"="+strconv.FormatInt(*v.p, 10))
		default:
			args = append(args, "--"+name+"="+f.Value.String())
		}
	})
	return args
}

// validateMember sets up member 0 of the swarm, as a task would: flags and
// firmware that a task would refuse are refused here.
func validateMember(o *checkOptions, fs *pflag.FlagSet, fw string, size int) error {
	o.strategy = "swarm"
	if err := o.refuseIdle(fs); err != nil {
		return err
	}
	cfg, err := o.config()
	if err != nil {
		return err
	}
	_, _, err = setupMember(o, cfg, fw, 0, size)
	return err
}

type swarmPlanOptions struct {
	check    checkOptions
	size     int
	format   string
	output   string
	binary   string
	results  string
	name     string
	image    string
	claim    string
	parallel int
	flags    memberFlags
}

func newSwarmPlan(stdout io.Writer) *cobra.Command {
	o := &swarmPlanOptions{}
	c := &cobra.Command{
		Use:   "plan --size N --format slurm|k8s FIRMWARE [check flags]",
		Short: "write a Slurm array job or a Kubernetes Indexed Job whose task i runs swarm member i",
		Long: `plan writes the job that runs a swarm of --size members on a cluster, task i
running

  hc11mc check FIRMWARE --swarm-member i/N [check flags] --json -q \
      --trace RESULTS/trace-i.json > RESULTS/member-i.json

--format slurm writes a batch script for sbatch (#SBATCH --array=0-(N-1),
one CPU per task); --format k8s a Kubernetes Indexed Job manifest
(completionMode: Indexed) as JSON, which kubectl reads as it reads YAML.
The firmware's own format is --firmware-format. A task exits 0 when check
gives a verdict (0, 1 or 3): a violation or a limit is a result for merge,
not a failure for the scheduler. Collect the results with

  hc11mc swarm merge RESULTS/member-*.json

Slurm tasks run in the directory sbatch was called from, which the nodes
share; Kubernetes tasks in /work, a PersistentVolumeClaim (--claim) that
holds the firmware and receives RESULTS, in an image (--image) that has
hc11mc and /bin/sh. --max-memory, when given, bounds each member and is
requested from the scheduler with room to spare.`,
		Example: `  hc11mc swarm plan --size 64 --format slurm fw.elf --irq toc1 > swarm.sbatch && sbatch swarm.sbatch
  hc11mc swarm plan --size 16 --format k8s --image registry.example/hc11mc:1 fw.elf > swarm.json && kubectl create -f swarm.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSwarmPlan(o, cmd.Flags(), args[0], stdout)
		},
	}
	fs := c.Flags()
	countVar(fs, &o.size, "size", 0, 1, 1<<20, "members in the swarm: the array's tasks (required)")
	fs.StringVar(&o.format, "format", "", "slurm (an sbatch array script) or k8s (an Indexed Job manifest) (required)")
	fs.StringVarP(&o.output, "output", "o", "", "write to FILE instead of standard output")
	fs.StringVar(&o.binary, "hc11mc", "hc11mc", "the hc11mc command on the nodes")
	fs.StringVar(&o.results, "results", "swarm-results", "directory of the members' results, relative to the task's working directory")
	fs.StringVar(&o.name, "name", "hc11mc-swarm", "the job's name")
	fs.StringVar(&o.image, "image", "hc11mc:latest", "k8s: the container image (with hc11mc and /bin/sh)")
	fs.StringVar(&o.claim, "claim", "hc11mc-swarm", "k8s: the PersistentVolumeClaim mounted at /work, holding the firmware and the results")
	countVar(fs, &o.parallel, "parallel", 0, 0, 1<<20, "tasks running at once (0: as many as the scheduler allows)")
	o.flags = addMemberFlags(fs, &o.check)
	return c
}

func runSwarmPlan(o *swarmPlanOptions, fs *pflag.FlagSet, fw string, stdout io.Writer) error {
	if o.size == 0 {
		return usagef("--size N: the number of members (array tasks) is required")
	}
	switch o.format {
	case "slurm", "k8s":
	case "":
		return usagef("--format slurm|k8s is required")
	default:
		return usagef("--format %q: use slurm or k8s (the firmware's format is --firmware-format)", o.format)
	}
	if o.format == "slurm" {
		for _, f := range []string{"image", "claim"} {
			if fs.Changed(f) {
				return usagef("--%s: belongs to --format k8s", f)
			}
		}
	}
	if err := validateMember(&o.check, fs, fw, o.size); err != nil {
		return err
	}
	flags := o.flags.args(fs)
	var text string
	if o.format == "slurm" {
		text = slurmScript(o, fw, flags)
	} else {
		b, err := json.MarshalIndent(k8sJob(o, fw, flags), "", "  ")
		if err != nil {
			return err
		}
		text = string(b) + "\n"
	}
	if o.output == "" {
		_, err := io.WriteString(stdout, text)
		return err
	}
	if err := os.WriteFile(o.output, []byte(text), 0o644); err != nil {
		return usagef("--output: %v", err)
	}
	return nil
}

// taskCommand is the shell command of task $idx (a shell variable).
func taskCommand(binary, fw string, size int, flags []string, results, idx string) string {
	parts := []string{shellQuote(binary), "check", shellQuote(fw), `--swarm-member "$` + idx + `/` + strconv.Itoa(size) + `"`}
	for _, f := range flags {
		parts = append(parts, shellQuote(f))
	}
	r := shellQuote(results)
	parts = append(parts, "--stop-file", r+"/decided", "--json", "-q", `--trace `+r+`/trace-"$`+idx+`".json`, `> `+r+`/member-"$`+idx+`".json`)
	return strings.Join(parts, " ")
}

var shellPlain = regexp.MustCompile(`^[A-Za-z0-9_./=:,+@%-]+$`)

// shellQuote quotes s for the shell when it needs it.
func shellQuote(s string) string {
	if shellPlain.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// taskEnd maps check's exit code to the task's: a verdict is a result.
const taskEnd = `code=$?
case $code in 0|1|3) exit 0 ;; esac   # verified, violation, incomplete: results for swarm merge
exit $code`

// requestMiB is what a task asks the scheduler for when --max-memory
// bounds its search: a third more, for the process beyond the search.
func requestMiB(maxMemory int64) int64 {
	return (maxMemory + maxMemory/3 + 1<<20 - 1) >> 20
}

func slurmScript(o *swarmPlanOptions, fw string, flags []string) string {
	var b strings.Builder
	array := fmt.Sprintf("0-%d", o.size-1)
	if o.parallel > 0 {
		array += fmt.Sprintf("%%%d", o.parallel)
	}
	fmt.Fprintf(&b, "#!/bin/bash\n")
	fmt.Fprintf(&b, "# A swarm of %d hc11mc searches of %s: task i runs member i/%d.\n", o.size, fw, o.size)
	fmt.Fprintf(&b, "# Submit with sbatch from the directory that holds the firmware; then\n")
	fmt.Fprintf(&b, "#   hc11mc swarm merge %s/member-*.json\n", o.results)
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", o.name)
	fmt.Fprintf(&b, "#SBATCH --array=%s\n", array)
	fmt.Fprintf(&b, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n")
	if o.check.maxMemorySet && o.check.maxMemory > 0 { // not this machine's default: the nodes' are their own
		fmt.Fprintf(&b, "#SBATCH --mem=%dM\n", requestMiB(o.check.maxMemory))
	}
	if o.check.timeout > 0 {
		// the search's limit, and five minutes to set up and write
		fmt.Fprintf(&b, "#SBATCH --time=%d\n", int64((o.check.timeout+time.Minute-1)/time.Minute)+5)
	}
	fmt.Fprintf(&b, "#SBATCH --output=%s-%%A_%%a.log\n", o.name)
	fmt.Fprintf(&b, "\ni=$SLURM_ARRAY_TASK_ID\nmkdir -p %s\n", shellQuote(o.results))
	fmt.Fprintf(&b, "%s\n%s\n", taskCommand(o.binary, fw, o.size, flags, o.results, "i"), taskEnd)
	return b.String()
}

// k8sJob is the Indexed Job: Kubernetes sets JOB_COMPLETION_INDEX in each
// pod.
func k8sJob(o *swarmPlanOptions, fw string, flags []string) map[string]any {
	script := "i=$JOB_COMPLETION_INDEX\nmkdir -p " + shellQuote(o.results) + "\n" +
		taskCommand(o.binary, fw, o.size, flags, o.results, "i") + "\n" + taskEnd + "\n"
	parallel := o.size
	if o.parallel > 0 {
		parallel = min(o.parallel, o.size)
	}
	res := map[string]any{"requests": map[string]any{"cpu": "1"}}
	if o.check.maxMemorySet && o.check.maxMemory > 0 {
		mem := fmt.Sprintf("%dMi", requestMiB(o.check.maxMemory))
		res["requests"].(map[string]any)["memory"] = mem
		res["limits"] = map[string]any{"memory": mem}
	}
	labels := map[string]any{"app.kubernetes.io/name": "hc11mc", "hc11mc/swarm": o.name}
	return map[string]any{
		"apiVersion": "batch/v1",
		"kind":       "Job",
		"metadata":   map[string]any{"name": o.name, "labels": labels},
		"spec": map[string]any{
			"completionMode": "Indexed",
			"completions":    o.size,
			"parallelism":    parallel,
			"backoffLimit":   o.size, // a retry per task, on average, for pods lost with their node
			"template": map[string]any{
				"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{
					"restartPolicy": "Never",
					"containers": []any{map[string]any{
						"name":         "member",
						"image":        o.image,
						"workingDir":   "/work",
						"command":      []any{"/bin/sh", "-c", script},
						"resources":    res,
						"volumeMounts": []any{map[string]any{"name": "work", "mountPath": "/work"}},
					}},
					"volumes": []any{map[string]any{"name": "work", "persistentVolumeClaim": map[string]any{"claimName": o.claim}}},
				},
			},
		},
	}
}

type swarmRunOptions struct {
	check   checkOptions
	size    int
	results string
	binary  string
	flags   memberFlags
}

func newSwarmRun(stdout, stderr io.Writer) *cobra.Command {
	o := &swarmRunOptions{}
	c := &cobra.Command{
		Use:   "run --size N FIRMWARE [check flags]",
		Short: "run the members of a swarm as processes on this machine and merge their results",
		Long: `run starts the --size members of the swarm as processes here, each
hc11mc check --swarm-member i/N with the check flags given, then merges their
results as swarm merge does and prints the merged result (--json: as JSON;
--trace FILE: the winning counterexample). When a member decides (a
violation, or an exhaustive search), the others are interrupted. The
members share --max-memory (default: check's), a share each.`,
		Example: `  hc11mc swarm run --size 8 fw.elf --irq toc1 --trace cex.json`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSwarmRun(o, cmd.Flags(), args[0], stdout, stderr)
		},
	}
	fs := c.Flags()
	countVar(fs, &o.size, "size", 0, 1, 4096, "members in the swarm, each a process (required)")
	fs.StringVar(&o.results, "results", "", "keep the members' results in this directory (default: a temporary one, removed)")
	fs.StringVar(&o.binary, "hc11mc", "", "the hc11mc to run the members with (default: this one)")
	o.flags = addMemberFlags(fs, &o.check, "json", "trace", "quiet")
	return c
}

func runSwarmRun(o *swarmRunOptions, fs *pflag.FlagSet, fw string, stdout, stderr io.Writer) error {
	if o.size == 0 {
		return usagef("--size N: the number of members is required")
	}
	if err := validateMember(&o.check, fs, fw, o.size); err != nil {
		return err
	}
	bin := o.binary
	if bin == "" {
		var err error
		if bin, err = os.Executable(); err != nil {
			return usagef("cannot find this program (give --hc11mc PATH): %v", err)
		}
	}
	dir := o.results
	if dir == "" {
		tmp, err := os.MkdirTemp("", "hc11mc-swarm-")
		if err != nil {
			return usagef("%v", err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return usagef("--results: %v", err)
	}
	flags := o.flags.args(fs)
	if !fs.Changed("max-memory") || o.check.maxMemory > 0 {
		// The members share the memory: each gets its part.
		flags = append(flags, fmt.Sprintf("--max-memory=%d", o.check.maxMemory/int64(o.size)))
	}
	// The members stop each other through a file, as an array job's tasks
	// do: the first to decide creates it, the others see it within a
	// tenth of a second.
	stopFile := filepath.Join(dir, "decided")
	if err := os.Remove(stopFile); err != nil && !os.IsNotExist(err) {
		return usagef("--results: %v", err)
	}
	flags = append(flags, "--stop-file="+stopFile)
	cmds := make([]*exec.Cmd, o.size)
	logs := make([]strings.Builder, o.size)
	files := make([]string, o.size)
	for i := range cmds {
		files[i] = filepath.Join(dir, fmt.Sprintf("member-%d.json", i))
		f, err := os.Create(files[i])
		if err != nil {
			return usagef("%v", err)
		}
		defer f.Close()
		args := append([]string{"check", fw, "--swarm-member", fmt.Sprintf("%d/%d", i, o.size)}, flags...)
		args = append(args, "--json", "-q", "--trace", filepath.Join(dir, fmt.Sprintf("trace-%d.json", i)))
		cmds[i] = exec.Command(bin, args...)
		cmds[i].Stdout, cmds[i].Stderr = f, &logs[i]
	}
	// An interrupt reaches the members too (they stop and report): this
	// process waits for them and merges what they found.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	for i, c := range cmds {
		if err := c.Start(); err != nil {
			for _, started := range cmds[:i] {
				started.Process.Kill()
				started.Wait()
			}
			return usagef("starting member %d: %v", i, err)
		}
	}
	var results []string
	for i, c := range cmds {
		c.Wait()
		switch code := c.ProcessState.ExitCode(); code {
		case ExitVerified, ExitViolation, ExitIncomplete:
			results = append(results, files[i])
		default:
			return usagef("member %d/%d: exit %d: %s", i, o.size, code, strings.TrimSpace(logs[i].String()))
		}
	}
	return mergeAndPrint(results, o.check.json, o.check.trace, stdout, stderr)
}

type swarmMergeOptions struct {
	json  bool
	trace string
}

func newSwarmMerge(stdout, stderr io.Writer) *cobra.Command {
	o := &swarmMergeOptions{}
	c := &cobra.Command{
		Use:   "merge RESULT.json...",
		Short: "combine the JSON results of a swarm's members into one verdict",
		Long: `merge reads the results that check --swarm-member i/N --json wrote, one per
member, and combines them: the violation found first (by the member that
expanded the fewest states, as in check's swarm, then the lowest index)
with its counterexample;
verified when some member searched exhaustively; otherwise incomplete, with
the union of what the members covered. Members whose results are missing are
named. The results must come from one swarm (the same firmware, flags and N).

When one member proved verified and another found a violation, merge
replays that violation's trace (check --trace) on the firmware without
reductions: if it replays, the members contradict each other, a bug in
hc11mc, and merge reports the violation, names both members and exits 4;
without a trace to replay it warns that the check could not be done.

Exit codes as check's: 0 verified, 1 violation, 2 bad input, 3 incomplete,
4 members that contradict each other (an internal error, to report).`,
		Example: `  hc11mc swarm merge swarm-results/member-*.json --trace cex.json && hc11mc replay cex.json`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return mergeAndPrint(args, o.json, o.trace, stdout, stderr)
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print the merged result as one JSON object")
	c.Flags().StringVar(&o.trace, "trace", "", "copy the winning counterexample to FILE (for hc11mc replay)")
	return c
}

// memberResult is what check --swarm-member --json prints.
type memberResult struct {
	Verdict     string            `json:"verdict"`
	Violation   *cex.Violation    `json:"violation"`
	Stats       search.Stats      `json:"stats"`
	TraceLength int               `json:"trace_length"`
	Limit       string            `json:"limit"`
	Member      string            `json:"member"`
	SwarmKey    string            `json:"swarm_key"`
	Firmware    string            `json:"firmware"`
	Load        loadFlags         `json:"load"`
	CoveredPCs  []int             `json:"covered_pcs"`
	TraceFile   string            `json:"trace_file"`
	Checked     json.RawMessage   `json:"properties_checked"`
	Unchecked   json.RawMessage   `json:"properties_unchecked"`
	Held        []check.HeldInput `json:"inputs_held"`
	Omission    float64           `json:"omission_probability"`
	Settings    *memberSettings   `json:"settings"`

	file        string
	index, size int
}

var memberName = regexp.MustCompile(`^(\d+)/(\d+) \(`)

func readMemberResult(path string) (*memberResult, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	r := &memberResult{file: path}
	if err := json.Unmarshal(b, r); err != nil {
		return nil, usagef("%s: not a result of check --json: %v", path, err)
	}
	m := memberName.FindStringSubmatch(r.Member)
	if m == nil || r.SwarmKey == "" {
		return nil, usagef("%s: not the result of a swarm member (check --swarm-member I/N --json)", path)
	}
	r.index, _ = strconv.Atoi(m[1])
	r.size, _ = strconv.Atoi(m[2])
	return r, nil
}

// mergedResult is swarm merge's JSON result.
type mergedResult struct {
	Verdict     string            `json:"verdict"`
	Violation   *cex.Violation    `json:"violation,omitempty"`
	Member      string            `json:"member,omitempty"`
	TraceFile   string            `json:"trace_file,omitempty"`
	TraceLength int               `json:"trace_length,omitempty"`
	Limit       string            `json:"limit,omitempty"`
	Stats       search.Stats      `json:"stats"`
	Members     []memberSummary   `json:"members"`
	Missing     []int             `json:"missing,omitempty"`
	Size        int               `json:"size"`
	CoveredPCs  int               `json:"covered_pc_count"`
	Checked     json.RawMessage   `json:"properties_checked,omitempty"`
	Unchecked   json.RawMessage   `json:"properties_unchecked,omitempty"`
	Held        []check.HeldInput `json:"inputs_held,omitempty"`
	Omission    float64           `json:"omission_probability,omitempty"`
	// InternalError names two members that contradict each other: one
	// proved verified, the other's violation replays (selfcheck.go).
	InternalError *internalError `json:"internal_error,omitempty"`
	// SelfCheck says why members that contradict each other could not be
	// checked by replaying a counterexample.
	SelfCheck string `json:"self_check,omitempty"`
}

// mergeResults combines the members' results.
func mergeResults(files []string) (*mergedResult, []*memberResult, error) {
	var rs []*memberResult
	seen := map[int]string{}
	for _, f := range files {
		r, err := readMemberResult(f)
		if err != nil {
			return nil, nil, err
		}
		if len(rs) > 0 && (r.SwarmKey != rs[0].SwarmKey || r.size != rs[0].size) {
			return nil, nil, usagef("%s and %s are results of different swarms (firmware, flags or size differ)", rs[0].file, f)
		}
		if prev, ok := seen[r.index]; ok {
			return nil, nil, usagef("%s and %s are both results of member %d", prev, f, r.index)
		}
		seen[r.index] = f
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].index < rs[j].index })
	m := &mergedResult{Size: rs[0].size, Checked: rs[0].Checked, Unchecked: rs[0].Unchecked}
	for i := 0; i < m.Size; i++ {
		if _, ok := seen[i]; !ok {
			m.Missing = append(m.Missing, i)
		}
	}
	var win, proof *memberResult
	var viols []*memberResult
	covered := map[int]bool{}
	var limits []string
	for _, r := range rs {
		m.Members = append(m.Members, memberSummary{Member: r.Member, Verdict: r.Verdict, Limit: r.Limit, Stored: r.Stats.StatesStored,
			Expanded: r.Stats.StatesExpanded, Depth: r.Stats.MaxDepth, Seconds: r.Stats.Seconds, Trace: r.TraceLength})
		st := &m.Stats
		st.StatesStored += r.Stats.StatesStored
		st.StatesExpanded += r.Stats.StatesExpanded
		st.Transitions += r.Stats.Transitions
		st.Instructions += r.Stats.Instructions
		st.MaxDepth = max(st.MaxDepth, r.Stats.MaxDepth)
		st.PeakMemory = max(st.PeakMemory, r.Stats.PeakMemory)
		st.Seconds = max(st.Seconds, r.Stats.Seconds)
		for _, pc := range r.CoveredPCs {
			covered[pc] = true
		}
		for _, h := range r.Held {
			if !slices.ContainsFunc(m.Held, func(k check.HeldInput) bool { return k.Addr == h.Addr }) {
				m.Held = append(m.Held, h)
			}
		}
		switch r.Verdict {
		case "violation":
			if win == nil || r.Stats.StatesExpanded < win.Stats.StatesExpanded {
				win = r
			}
			viols = append(viols, r)
		case "verified":
			if proof == nil {
				proof = r
			}
		default:
			limits = append(limits, fmt.Sprintf("%s (member %d)", r.Limit, r.index))
		}
	}
	m.Stats.SecondsTotal = m.Stats.Seconds
	m.CoveredPCs = len(covered)
	sort.Slice(m.Held, func(i, j int) bool { return m.Held[i].Addr < m.Held[j].Addr })
	switch {
	case win != nil:
		m.Verdict, m.Violation, m.Member, m.TraceLength, m.TraceFile = "violation", win.Violation, win.Member, win.TraceLength, win.TraceFile
		if m.TraceFile != "" {
			m.TraceFile = findTrace(win)
		}
		m.Omission = win.Omission
		if proof != nil {
			// The merge checks the swarm (selfcheck.go): the winner's
			// violation first.
			sort.SliceStable(viols, func(i, j int) bool { return viols[i] == win && viols[j] != win })
			mergeSelfCheck(m, proof, viols)
		}
	case proof != nil:
		m.Verdict, m.Member, m.Omission = "verified", proof.Member, proof.Omission
	default:
		m.Verdict = "incomplete"
		m.Limit = "no member finished: " + strings.Join(limits, "; ")
		if len(m.Missing) > 0 {
			m.Limit += fmt.Sprintf("; %d members left no result", len(m.Missing))
		}
	}
	return m, rs, nil
}

// findTrace finds a member's trace: where it says, or beside its result.
func findTrace(r *memberResult) string {
	if _, err := os.Stat(r.TraceFile); err == nil {
		return r.TraceFile
	}
	beside := filepath.Join(filepath.Dir(r.file), filepath.Base(r.TraceFile))
	if _, err := os.Stat(beside); err == nil {
		return beside
	}
	return r.TraceFile
}

func mergeAndPrint(files []string, asJSON bool, trace string, stdout, stderr io.Writer) error {
	m, rs, err := mergeResults(files)
	if err != nil {
		return err
	}
	if trace != "" && m.TraceFile != "" {
		b, err := os.ReadFile(m.TraceFile)
		if err == nil {
			err = os.WriteFile(trace, b, 0o644)
		}
		if err != nil {
			return usagef("--trace: %v", err)
		}
	}
	if asJSON {
		b, _ := json.Marshal(m)
		fmt.Fprintln(stdout, string(b))
	} else {
		printMerged(stdout, m, rs, trace)
	}
	if m.InternalError != nil {
		return &exitError{code: ExitInternal, msg: m.InternalError.text()}
	}
	if m.SelfCheck != "" {
		fmt.Fprintf(stderr, "hc11mc: warning: %s\n", m.SelfCheck)
	}
	switch m.Verdict {
	case "violation":
		return exitCode(ExitViolation)
	case "incomplete":
		return exitCode(ExitIncomplete)
	}
	return nil
}

func printMerged(w io.Writer, m *mergedResult, rs []*memberResult, trace string) {
	fmt.Fprintf(w, "swarm of %d: %d results", m.Size, len(rs))
	if len(m.Missing) > 0 {
		fmt.Fprintf(w, ", none from member %s", joinInts(m.Missing))
	}
	fmt.Fprintln(w)
	switch m.Verdict {
	case "violation":
		v := m.Violation
		fmt.Fprintf(w, "violation: %s\n  thread %d at %s: %s\n", v.Kind, v.Thread, v.PC, v.Message)
		if v.Instruction != "" {
			fmt.Fprintf(w, "  %s\n", v.Instruction)
		}
		fmt.Fprintf(w, "found by member %s: counterexample of %d transitions", m.Member, m.TraceLength)
		switch {
		case trace != "":
			fmt.Fprintf(w, " in %s (hc11mc replay %s)", trace, trace)
		case m.TraceFile != "":
			fmt.Fprintf(w, " in %s (hc11mc replay %s)", m.TraceFile, m.TraceFile)
		}
		fmt.Fprintln(w)
	case "verified":
		fmt.Fprintf(w, "verified: member %s searched every reachable state and found no violation\n", m.Member)
		printHeld(w, m.Held)
	default:
		fmt.Fprintf(w, "incomplete: %s\n", m.Limit)
		fmt.Fprintf(w, "  covered: %d states stored by the members, depth %d, %s\n", m.Stats.StatesStored, m.Stats.MaxDepth, mergedCoverage(m, rs))
		printHeld(w, m.Held)
	}
	for _, s := range m.Members {
		what := s.Verdict
		if s.Limit != "" {
			what += ": " + s.Limit
		}
		fmt.Fprintf(w, "  member %s: %s; %s states, %.2fs\n", s.Member, what, units.Count(int64(s.Stored)), s.Seconds)
	}
}

// mergedCoverage says how much code the members reached together, against
// the ICFG when the firmware can be read from here.
func mergedCoverage(m *mergedResult, rs []*memberResult) string {
	covered := map[uint16]bool{}
	for _, r := range rs {
		for _, pc := range r.CoveredPCs {
			covered[uint16(pc)] = true
		}
	}
	img, err := rs[0].Load.load(rs[0].Firmware, "", true)
	if err != nil {
		return fmt.Sprintf("%d distinct PCs reached", m.CoveredPCs)
	}
	var b strings.Builder
	printUncovered(&b, img, covered)
	return check.Coverage(img, covered) + strings.TrimRight(strings.Replace(b.String(), "  procedures", "; procedures", 1), "\n")
}

func joinInts(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, ", ")
}
