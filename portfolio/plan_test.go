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

// The Kubernetes Indexed Job: the index from JOB_COMPLETION_INDEX, the
// parallelism at most the size, memory requested and limited only when
// given.
func TestPlanKubernetes(t *testing.T) {
	p := Plan{Size: 3, Firmware: "fw.elf", Binary: "hc11mc", Results: "res", Name: "job", Image: "img:1", Claim: "pvc", Parallel: 5, MaxMemory: 1 << 30}
	var job struct {
		Spec struct {
			CompletionMode string `json:"completionMode"`
			Completions    int    `json:"completions"`
			Parallelism    int    `json:"parallelism"`
			Template       struct {
				Spec struct {
					Containers []struct {
						Image     string   `json:"image"`
						Command   []string `json:"command"`
						Resources struct {
							Requests map[string]string `json:"requests"`
							Limits   map[string]string `json:"limits"`
						} `json:"resources"`
					} `json:"containers"`
					Volumes []struct {
						PVC struct {
							ClaimName string `json:"claimName"`
						} `json:"persistentVolumeClaim"`
					} `json:"volumes"`
				} `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	text := p.Kubernetes()
	if err := json.Unmarshal([]byte(text), &job); err != nil || !strings.HasSuffix(text, "}\n") {
		t.Fatalf("%v:\n%s", err, text)
	}
	sp := job.Spec
	c := sp.Template.Spec.Containers[0]
	if sp.CompletionMode != "Indexed" || sp.Completions != 3 || sp.Parallelism != 3 || c.Image != "img:1" || sp.Template.Spec.Volumes[0].PVC.ClaimName != "pvc" ||
		c.Resources.Requests["memory"] != "1366Mi" || c.Resources.Limits["memory"] != "1366Mi" || c.Resources.Requests["cpu"] != "1" {
		t.Errorf("job: %+v", sp)
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
