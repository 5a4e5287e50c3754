package cli

import (
	"encoding/json"
	"fmt"
	"github.com/hc11mc/hc11mc/plan"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/portfolio"
)

// hc11mc swarm: the swarm beyond one process (package portfolio). `swarm
// plan` writes the job for a cluster's scheduler (portfolio.Plan), `swarm
// run` runs the members as processes here (portfolio.RunProcesses), `swarm
// merge` combines their JSON results (portfolio.Merge). Here are their
// flags: check's flags, which each member takes, on the swarm's commands.

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
	"search": "", "workers": "", "swarm-member": "", "stop-file": "", "json": "", "trace": "", "trace-svg": "", "quiet": "", "full": "",
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
	o.strategy = plan.Swarm
	if err := o.refuseIdle(fs); err != nil {
		return err
	}
	cfg, err := o.config()
	if err != nil {
		return err
	}
	img, err := o.load.load(fw, o.machine.Entry, false)
	if err != nil {
		return err
	}
	req := o.request(cfg, img)
	req.Search, req.Member = plan.Swarm, fmt.Sprintf("0/%d", size)
	_, err = plan.Choose(img, req)
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
	plan := portfolio.Plan{Size: o.size, Firmware: fw, Flags: o.flags.args(fs), Binary: o.binary, Results: o.results, Name: o.name,
		Image: o.image, Claim: o.claim, Parallel: o.parallel, Timeout: o.check.timeout}
	if o.check.maxMemorySet { // not this machine's default: the nodes' are their own
		plan.MaxMemory = o.check.maxMemory
	}
	text := plan.Kubernetes()
	if o.format == "slurm" {
		text = plan.Slurm()
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
	results, err := portfolio.RunProcesses(bin, fw, o.size, flags, dir)
	if err != nil {
		return err
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

func mergeAndPrint(files []string, asJSON bool, trace string, stdout, stderr io.Writer) error {
	m, rs, err := portfolio.Merge(files)
	if err != nil {
		return err
	}
	for _, w := range m.Warnings {
		fmt.Fprintf(os.Stderr, "hc11mc: warning: %s\n", w)
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
		m.WriteText(stdout, rs, trace, mergedImage(rs))
	}
	if m.InternalError != nil {
		return &exitError{code: ExitInternal, msg: m.InternalError.Text()}
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

// mergedImage loads the firmware the members checked, for the coverage
// of the merged text; nil when it cannot be read from here.
func mergedImage(rs []*portfolio.MemberResult) *loader.Image {
	lf := loadFlags{LoadSpec: rs[0].Load}
	img, err := lf.load(rs[0].Firmware, "", true)
	if err != nil {
		return nil
	}
	return img
}
