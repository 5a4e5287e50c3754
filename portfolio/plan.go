package portfolio

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Plan is an array job whose task i runs member i of a swarm:
//
//	hc11mc check FIRMWARE --swarm-member i/N FLAGS --stop-file RESULTS/decided \
//	    --json -q --trace RESULTS/trace-i.json > RESULTS/member-i.json
//
// The task exits 0 when check gives a verdict (exit 0, 1 or 3): a
// violation or a limit is a result for Merge, not a failure for the
// scheduler.
type Plan struct {
	// Size is the swarm's N, the array's tasks.
	Size int
	// Firmware is the firmware's path as the tasks see it; Flags are
	// check's flags of every member, each one word (--name=value).
	Firmware string
	Flags    []string
	// Binary is the hc11mc command on the nodes; Results the directory
	// of the members' results, relative to a task's working directory.
	Binary, Results string
	// Name is the job's name.
	Name string
	// Image is the container image and Claim the PersistentVolumeClaim
	// mounted at /work (Kubernetes only).
	Image, Claim string
	// Parallel bounds the tasks running at once; 0: as many as the
	// scheduler allows.
	Parallel int
	// MaxMemory is each member's --max-memory, requested from the
	// scheduler with room to spare; 0: none given (the nodes' default is
	// their own).
	MaxMemory int64
	// Timeout is each member's --timeout, 0 for none: the Slurm task's
	// time limit, with five minutes to set up and write.
	Timeout time.Duration
}

// taskCommand is the shell command of task $idx (a shell variable).
func (p Plan) taskCommand(idx string) string {
	parts := []string{shellQuote(p.Binary), "check", shellQuote(p.Firmware), `--swarm-member "$` + idx + `/` + strconv.Itoa(p.Size) + `"`}
	for _, f := range p.Flags {
		parts = append(parts, shellQuote(f))
	}
	r := shellQuote(p.Results)
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

// Slurm is the plan as a batch script for sbatch: an array of Size tasks,
// one CPU each, run in the directory sbatch was called from.
func (p Plan) Slurm() string {
	var b strings.Builder
	array := fmt.Sprintf("0-%d", p.Size-1)
	if p.Parallel > 0 {
		array += fmt.Sprintf("%%%d", p.Parallel)
	}
	fmt.Fprintf(&b, "#!/bin/bash\n")
	fmt.Fprintf(&b, "# A swarm of %d hc11mc searches of %s: task i runs member i/%d.\n", p.Size, p.Firmware, p.Size)
	fmt.Fprintf(&b, "# Submit with sbatch from the directory that holds the firmware; then\n")
	fmt.Fprintf(&b, "#   hc11mc swarm merge %s/member-*.json\n", p.Results)
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", p.Name)
	fmt.Fprintf(&b, "#SBATCH --array=%s\n", array)
	fmt.Fprintf(&b, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n")
	if p.MaxMemory > 0 {
		fmt.Fprintf(&b, "#SBATCH --mem=%dM\n", requestMiB(p.MaxMemory))
	}
	if p.Timeout > 0 {
		// the search's limit, and five minutes to set up and write
		fmt.Fprintf(&b, "#SBATCH --time=%d\n", int64((p.Timeout+time.Minute-1)/time.Minute)+5)
	}
	fmt.Fprintf(&b, "#SBATCH --output=%s-%%A_%%a.log\n", p.Name)
	fmt.Fprintf(&b, "\ni=$SLURM_ARRAY_TASK_ID\nmkdir -p %s\n", shellQuote(p.Results))
	fmt.Fprintf(&b, "%s\n%s\n", p.taskCommand("i"), taskEnd)
	return b.String()
}

// Kubernetes is the plan as a Kubernetes Indexed Job manifest, in JSON
// (which kubectl reads as it reads YAML): Kubernetes sets
// JOB_COMPLETION_INDEX in each pod, whose working directory /work is the
// claim.
func (p Plan) Kubernetes() string {
	script := "i=$JOB_COMPLETION_INDEX\nmkdir -p " + shellQuote(p.Results) + "\n" + p.taskCommand("i") + "\n" + taskEnd + "\n"
	parallel := p.Size
	if p.Parallel > 0 {
		parallel = min(p.Parallel, p.Size)
	}
	res := map[string]any{"requests": map[string]any{"cpu": "1"}}
	if p.MaxMemory > 0 {
		mem := fmt.Sprintf("%dMi", requestMiB(p.MaxMemory))
		res["requests"].(map[string]any)["memory"] = mem
		res["limits"] = map[string]any{"memory": mem}
	}
	labels := map[string]any{"app.kubernetes.io/name": "hc11mc", "hc11mc/swarm": p.Name}
	job := map[string]any{
		"apiVersion": "batch/v1",
		"kind":       "Job",
		"metadata":   map[string]any{"name": p.Name, "labels": labels},
		"spec": map[string]any{
			"completionMode": "Indexed",
			"completions":    p.Size,
			"parallelism":    parallel,
			"backoffLimit":   p.Size, // a retry per task, on average, for pods lost with their node
			"template": map[string]any{
				"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{
					"restartPolicy": "Never",
					"containers": []any{map[string]any{
						"name":         "member",
						"image":        p.Image,
						"workingDir":   "/work",
						"command":      []any{"/bin/sh", "-c", script},
						"resources":    res,
						"volumeMounts": []any{map[string]any{"name": "work", "mountPath": "/work"}},
					}},
					"volumes": []any{map[string]any{"name": "work", "persistentVolumeClaim": map[string]any{"claimName": p.Claim}}},
				},
			},
		},
	}
	b, _ := json.MarshalIndent(job, "", "  ") // maps of strings and numbers
	return string(b) + "\n"
}

// RunProcesses runs the members of a swarm of size as processes of the
// program bin here, each `bin check firmware --swarm-member i/size flags
// --json -q --trace DIR/trace-i.json` writing its result to
// DIR/member-i.json, and returns the result files once every member has
// ended. The members stop each other through DIR/decided, as an array
// job's tasks do: the first to decide creates it, the others see it
// within a tenth of a second. An interrupt reaches the members too (they
// stop and report): this process waits for them. A member that gives no
// verdict (exit 0, 1 or 3) is an error, with what it printed on stderr.
func RunProcesses(bin, firmware string, size int, flags []string, dir string) ([]string, error) {
	stopFile := filepath.Join(dir, "decided")
	if err := os.Remove(stopFile); err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("--results: %v", err)
	}
	flags = append(flags, "--stop-file="+stopFile)
	cmds := make([]*exec.Cmd, size)
	logs := make([]strings.Builder, size)
	files := make([]string, size)
	for i := range cmds {
		files[i] = filepath.Join(dir, fmt.Sprintf("member-%d.json", i))
		f, err := os.Create(files[i])
		if err != nil {
			return nil, err
		}
		defer f.Close()
		args := append([]string{"check", firmware, "--swarm-member", fmt.Sprintf("%d/%d", i, size)}, flags...)
		args = append(args, "--json", "-q", "--trace", filepath.Join(dir, fmt.Sprintf("trace-%d.json", i)))
		cmds[i] = exec.Command(bin, args...)
		cmds[i].Stdout, cmds[i].Stderr = f, &logs[i]
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	for i, c := range cmds {
		if err := c.Start(); err != nil {
			for _, started := range cmds[:i] {
				started.Process.Kill()
				started.Wait()
			}
			return nil, fmt.Errorf("starting member %d: %v", i, err)
		}
	}
	var results []string
	for i, c := range cmds {
		c.Wait()
		switch code := c.ProcessState.ExitCode(); code {
		case 0, 1, 3: // verified, violation, incomplete
			results = append(results, files[i])
		default:
			return nil, fmt.Errorf("member %d/%d: exit %d: %s", i, size, code, strings.TrimSpace(logs[i].String()))
		}
	}
	return results, nil
}
