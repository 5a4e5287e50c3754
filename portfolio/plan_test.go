package portfolio

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The Slurm script: the array of Size tasks (Parallel at once), the
// memory asked for with a third to spare, the time with five minutes to
// set up, and the task's command with its flags quoted for the shell.
func TestPlanSlurm(t *testing.T) {
	p := Plan{Size: 8, Firmware: "fw dir/fw.elf", Flags: []string{"--irq=toc1", "--input=PORTE=1,2", "--expect-output=it's"}, Binary: "hc11mc",
		Results: "res", Name: "job", Parallel: 3, MaxMemory: 512 << 20, Timeout: 90 * time.Second}
	s := p.Slurm()
	for _, want := range []string{"#!/bin/bash\n", "#SBATCH --job-name=job\n", "#SBATCH --array=0-7%3\n", "#SBATCH --cpus-per-task=1\n",
		"#SBATCH --mem=683M\n", "#SBATCH --time=7\n", "#SBATCH --output=job-%A_%a.log\n", "i=$SLURM_ARRAY_TASK_ID\nmkdir -p res\n",
		`hc11mc check 'fw dir/fw.elf' --swarm-member "$i/8" --irq=toc1 --input=PORTE=1,2 '--expect-output=it'\''s' --stop-file res/decided --json -q --trace res/trace-"$i".json > res/member-"$i".json` + "\n",
		"case $code in 0|1|3) exit 0 ;; esac"} {
		if !strings.Contains(s, want) {
			t.Errorf("the script lacks %q:\n%s", want, s)
		}
	}
	p.MaxMemory, p.Timeout, p.Parallel = 0, 0, 0
	if s := p.Slurm(); strings.Contains(s, "--mem") || strings.Contains(s, "--time") || !strings.Contains(s, "--array=0-7\n") {
		t.Errorf("without limits:\n%s", s)
	}
}

// The Kubernetes manifest: an Indexed Job with the fields such a Job
// requires and no other, parsed as JSON (valid YAML, which kubectl reads
// either way); the index from JOB_COMPLETION_INDEX, the parallelism at
// most the size, memory requested and limited only when given.
func TestPlanKubernetes(t *testing.T) {
	p := Plan{Size: 3, Firmware: "fw.elf", Binary: "hc11mc", Results: "res", Name: "job", Image: "img:1", Claim: "pvc", Parallel: 5, MaxMemory: 1 << 30}
	text := p.Kubernetes()
	if !strings.HasSuffix(text, "}\n") {
		t.Errorf("no newline at the end:\n%s", text)
	}
	var job struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name   string            `json:"name"`
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
		Spec struct {
			CompletionMode string `json:"completionMode"`
			Completions    *int   `json:"completions"`
			Parallelism    *int   `json:"parallelism"`
			BackoffLimit   *int   `json:"backoffLimit"`
			Template       struct {
				Metadata struct {
					Labels map[string]string `json:"labels"`
				} `json:"metadata"`
				Spec struct {
					RestartPolicy string `json:"restartPolicy"`
					Containers    []struct {
						Name       string   `json:"name"`
						Image      string   `json:"image"`
						Command    []string `json:"command"`
						WorkingDir string   `json:"workingDir"`
						Resources  struct {
							Requests map[string]string `json:"requests"`
							Limits   map[string]string `json:"limits"`
						} `json:"resources"`
						VolumeMounts []struct {
							Name      string `json:"name"`
							MountPath string `json:"mountPath"`
						} `json:"volumeMounts"`
					} `json:"containers"`
					Volumes []struct {
						Name string `json:"name"`
						PVC  struct {
							ClaimName string `json:"claimName"`
						} `json:"persistentVolumeClaim"`
					} `json:"volumes"`
				} `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&job); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	sp := job.Spec
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || job.Metadata.Name == "" || sp.CompletionMode != "Indexed" ||
		sp.Completions == nil || *sp.Completions != 3 || sp.Parallelism == nil || *sp.Parallelism != 3 || sp.BackoffLimit == nil {
		t.Errorf("job: %+v", job)
	}
	ps := sp.Template.Spec
	if ps.RestartPolicy != "Never" || len(ps.Containers) != 1 || len(ps.Volumes) != 1 || ps.Volumes[0].PVC.ClaimName != "pvc" {
		t.Fatalf("pod: %+v", ps)
	}
	c := ps.Containers[0]
	if c.Image != "img:1" || c.Name == "" || len(c.Command) != 3 || c.Command[0] != "/bin/sh" || c.Command[1] != "-c" ||
		len(c.VolumeMounts) != 1 || c.VolumeMounts[0].Name != ps.Volumes[0].Name || c.VolumeMounts[0].MountPath != c.WorkingDir ||
		c.Resources.Limits["memory"] != "1366Mi" || c.Resources.Requests["cpu"] != "1" {
		t.Fatalf("container: %+v", c)
	}
	if !strings.HasPrefix(c.Command[2], "i=$JOB_COMPLETION_INDEX\nmkdir -p res\nhc11mc check fw.elf --swarm-member \"$i/3\"") {
		t.Errorf("script:\n%s", c.Command[2])
	}
	p.MaxMemory = 0
	if text := p.Kubernetes(); strings.Contains(text, "memory") {
		t.Errorf("memory without --max-memory:\n%s", text)
	}
}

// RunProcesses starts a process per member with its index, the flags,
// the stop file and its trace; an exit of 0, 1 or 3 is a result, another
// an error with what the member said.
func TestRunProcesses(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for the members")
	}
	dir := t.TempDir()
	member := filepath.Join(dir, "member.sh")
	// The member prints its arguments, says which it is on stderr and
	// exits with the code in $CODE_i.
	os.WriteFile(member, []byte("#!/bin/sh\necho \"$@\"\necho \"member $4\" >&2\neval \"exit \\${CODE_$(echo $4 | cut -d/ -f1):-0}\"\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "decided"), nil, 0o644) // an earlier swarm's
	t.Setenv("CODE_1", "3")
	files, err := RunProcesses(member, "fw.elf", 2, []string{"--irq=toc1"}, dir)
	if err != nil || len(files) != 2 {
		t.Fatalf("%v, %v", files, err)
	}
	b, _ := os.ReadFile(files[1])
	want := "check fw.elf --swarm-member 1/2 --irq=toc1 --stop-file=" + filepath.Join(dir, "decided") + " --json -q --trace " + filepath.Join(dir, "trace-1.json") + "\n"
	if string(b) != want {
		t.Errorf("member 1 ran with %q, want %q", b, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "decided")); err == nil {
		t.Error("the earlier swarm's stop file is still there")
	}
	t.Setenv("CODE_0", "2")
	if _, err := RunProcesses(member, "fw.elf", 2, nil, dir); err == nil || err.Error() != "member 0/2: exit 2: member 0/2" {
		t.Errorf("a member without a verdict: %v", err)
	}
}
