package findings

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/sim"
)

// sarifLogs are the SARIF logs of checks that cover what a log holds:
// a mutex violation with a note, a deadlock of three threads, a
// violation in an image without line information, a verified check with
// properties unchecked and an input held, and one a limit stopped.
func sarifLogs(t *testing.T) map[string][]byte {
	t.Helper()
	logs := map[string][]byte{}
	for name, c := range map[string]struct {
		path string
		cfg  check.Config
	}{
		"mutex":      {mutexBad + ".elf", check.Config{}},
		"deadlock":   {philosophers + ".elf", check.Config{}},
		"no-source":  {illegal + ".s19", check.Config{}},
		"verified":   {"../testdata/models/port_poll.elf", check.Config{Ignore: map[sim.Kind]bool{sim.KindMutex: true}}},
		"incomplete": {philosophers + ".elf", check.Config{MaxStates: 5}},
	} {
		img, ck, res := checked(t, c.path, c.cfg)
		var b bytes.Buffer
		rep := ck.Conclude(res)
		if err := WriteSARIF(&b, Run{Version: "0.1.0", InformationURI: "https://github.com/hc11mc/hc11mc", Result: res, Report: rep,
			Findings: New(img, ck.Machine, res)}); err != nil {
			t.Fatal(err)
		}
		logs[name] = b.Bytes()
	}
	return logs
}

// The logs say what the checks found, in SARIF's terms: a result per
// violation whose rule is its kind, a thread flow per thread with every
// step once in execution order, the notes as related locations, the
// image's address where there is no source line; the unchecked
// properties, the held input and the limit as notifications.
func TestSARIFContents(t *testing.T) {
	type loc struct {
		Physical struct {
			Artifact struct {
				URI    string `json:"uri"`
				BaseID string `json:"uriBaseId"`
			} `json:"artifactLocation"`
			Region  *struct{ StartLine, StartColumn int } `json:"region"`
			Address *struct {
				Absolute int `json:"absoluteAddress"`
			} `json:"address"`
		} `json:"physicalLocation"`
	}
	var logs = sarifLogs(t)
	for name, b := range logs {
		var l struct {
			Version string `json:"version"`
			Runs    []struct {
				Tool struct {
					Driver struct {
						Rules []struct{ ID string } `json:"rules"`
					} `json:"driver"`
				} `json:"tool"`
				Invocations []struct {
					Notifications []struct {
						Level      string `json:"level"`
						Descriptor struct{ ID string }
						Message    struct{ Text string }
					} `json:"toolExecutionNotifications"`
				} `json:"invocations"`
				Results []struct {
					RuleID    string `json:"ruleId"`
					RuleIndex int    `json:"ruleIndex"`
					Level     string `json:"level"`
					Locations []loc  `json:"locations"`
					Related   []loc  `json:"relatedLocations"`
					CodeFlows []struct {
						ThreadFlows []struct {
							ID        string `json:"id"`
							Locations []struct {
								ExecutionOrder int `json:"executionOrder"`
							} `json:"locations"`
						} `json:"threadFlows"`
					} `json:"codeFlows"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if l.Version != "2.1.0" || len(l.Runs) != 1 {
			t.Fatalf("%s: version %q, %d runs", name, l.Version, len(l.Runs))
		}
		run := l.Runs[0]
		var notes []string
		for _, n := range run.Invocations[0].Notifications {
			notes = append(notes, n.Descriptor.ID+": "+n.Message.Text)
		}
		for _, r := range run.Results {
			if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
				t.Errorf("%s: result of rule %s points at rule %s", name, r.RuleID, run.Tool.Driver.Rules[r.RuleIndex].ID)
			}
		}
		switch name {
		case "mutex", "deadlock":
			want, threads := "mutex", 2
			if name == "deadlock" {
				want, threads = "deadlock", 3
			}
			if len(run.Results) != 1 || run.Results[0].RuleID != want || run.Results[0].Level != "error" {
				t.Fatalf("%s: %d results, want one error of rule %s", name, len(run.Results), want)
			}
			r := run.Results[0]
			if a := r.Locations[0].Physical.Artifact; r.Locations[0].Physical.Region == nil || a.BaseID != "SRCROOT" && !strings.HasPrefix(a.URI, "file:///") ||
				!strings.HasSuffix(r.Locations[0].Physical.Artifact.URI, ".s") || len(r.Related) == 0 {
				t.Errorf("%s: location %+v, %d related", name, r.Locations[0], len(r.Related))
			}
			if len(r.CodeFlows) != 1 || len(r.CodeFlows[0].ThreadFlows) != threads {
				t.Fatalf("%s: %d code flows, want one with %d thread flows", name, len(r.CodeFlows), threads)
			}
			var order []int
			for _, tf := range r.CodeFlows[0].ThreadFlows {
				for i, fl := range tf.Locations {
					if i > 0 && fl.ExecutionOrder <= tf.Locations[i-1].ExecutionOrder {
						t.Errorf("%s: %s out of order", name, tf.ID)
					}
					order = append(order, fl.ExecutionOrder)
				}
			}
			slices.Sort(order)
			for i, o := range order {
				if o != i+1 {
					t.Fatalf("%s: execution orders %v, want 1..%d once each", name, order, len(order))
				}
			}
		case "no-source":
			if len(run.Results) != 1 || run.Results[0].Locations[0].Physical.Address == nil || run.Results[0].Locations[0].Physical.Region == nil ||
				!strings.HasSuffix(run.Results[0].Locations[0].Physical.Artifact.URI, "illegal.s19") {
				t.Errorf("no-source: %+v", run.Results)
			}
		case "verified":
			if len(run.Results) != 0 || !slices.ContainsFunc(notes, func(n string) bool { return strings.HasPrefix(n, "input-held: ") && strings.Contains(n, "0x100A") }) ||
				!slices.ContainsFunc(notes, func(n string) bool {
					return strings.HasPrefix(n, "property-unchecked: property mutex not checked: --ignore")
				}) {
				t.Errorf("verified: %d results, notifications %q", len(run.Results), notes)
			}
		case "incomplete":
			if len(run.Results) != 0 || !slices.ContainsFunc(notes, func(n string) bool { return strings.HasPrefix(n, "incomplete: ") }) {
				t.Errorf("incomplete: %d results, notifications %q", len(run.Results), notes)
			}
		}
	}
}

// multitool is Microsoft's SARIF validator: $SARIF_MULTITOOL, else where
// make sarif-multitool installs it; "" when it is not there.
func multitool() string {
	if p := os.Getenv("SARIF_MULTITOOL"); p != "" {
		return p
	}
	if runtime.GOOS != "linux" {
		return ""
	}
	p := filepath.Join("..", ".cache", "sarif-multitool", "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
	if st, err := os.Stat(p); err == nil && st.Mode()&0o100 != 0 {
		return p
	}
	return ""
}

// Microsoft's SARIF validator (sarif-multitool validate: the JSON schema
// of SARIF 2.1.0 and its rules of good practice) accepts every log with no
// error and no warning. It skips a log it cannot read into its object
// model without saying so, so the test also gives it a copy of one log
// without the driver's informationUri: it must warn of that one
// (SARIF2005), which shows it read the logs.
func TestSARIFValidator(t *testing.T) {
	tool := multitool()
	if tool == "" {
		t.Skip("Microsoft's SARIF validator is not installed: make sarif-multitool installs it (npm, @microsoft/sarif-multitool 5.7.0)")
	}
	dir := t.TempDir()
	var files []string
	for name, b := range sarifLogs(t) {
		p := filepath.Join(dir, name+".sarif")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	control := filepath.Join(dir, "control.sarif")
	b, _ := os.ReadFile(files[0])
	if err := os.WriteFile(control, bytes.Replace(b, []byte(`"informationUri": "https://github.com/hc11mc/hc11mc",`), nil, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "validation.sarif")
	cmd := exec.Command(tool, append([]string{"validate", "-o", out}, append(files, control)...)...)
	text, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sarif-multitool validate: %v\n%s", err, text)
	}
	vb, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					Physical struct {
						Artifact struct{ URI string } `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Message struct{ Text string } `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(vb, &v); err != nil {
		t.Fatal(err)
	}
	controlWarned := false
	for _, r := range v.Runs[0].Results {
		uri := ""
		if len(r.Locations) > 0 {
			uri = r.Locations[0].Physical.Artifact.URI
		}
		if strings.HasSuffix(uri, "control.sarif") {
			controlWarned = controlWarned || r.RuleID == "SARIF2005"
			continue
		}
		if r.Level == "" || r.Level == "error" || r.Level == "warning" {
			t.Errorf("%s: %s %s: %s", uri, r.Level, r.RuleID, r.Message.Text)
		}
	}
	if !controlWarned {
		t.Errorf("the validator did not warn of the log without informationUri: it did not read the logs\n%s", text)
	}
}
