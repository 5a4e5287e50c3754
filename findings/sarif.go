package findings

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/sim"
)

// The SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format,
// version 2.1.0): a run of one tool, hc11mc, whose rules are the
// properties (the kinds of violation), one result per violation with its
// location (§3.28: a region's startLine and startColumn, or the image's
// address, §3.32) and its counterexample as a code flow (§3.36) with a
// thread flow per thread (§3.37) whose locations carry the step's number
// as their executionOrder (§3.38.11) and the thread's registers before it
// as their state (§3.38.9). The properties not checked, the inputs held
// constant and a limit that stopped the search are the invocation's
// toolExecutionNotifications (§3.20.21). Relative paths are given
// against the uriBaseId SRCROOT, the working directory (§3.14.14).

// sarifSchema is the schema the log names (§3.13.3).
const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// Run is what a SARIF log says of one check.
type Run struct {
	// Version is hc11mc's version; InformationURI where to read about it.
	Version, InformationURI string
	// Command is the command line that ran the check, "" to leave it out.
	Command string
	Result  *check.Result
	Report  check.Report
	// Findings are the violations (New).
	Findings []Finding
}

// Rule descriptions: one per property, what a violation of it means.
var ruleText = map[sim.Kind][2]string{
	sim.KindAssert:   {"An assertion failed.", "The firmware called __mc_assert with A = 0 on some schedule and input."},
	sim.KindError:    {"An error call was reached.", "The firmware reached a call of __mc_error on some schedule and input."},
	sim.KindDeadlock: {"No thread can move.", "Every thread is blocked (waiting for a lock, or ended) while some has not ended: a deadlock."},
	sim.KindMutex:    {"Two threads are inside a critical section together.", "Two threads are between __mc_cs_enter and __mc_cs_exit at once: mutual exclusion is violated."},
	sim.KindUnlock:   {"A lock was released by a thread that does not hold it.", "__mc_unlock was called on a lock byte the calling thread does not hold."},
	sim.KindIllegal:  {"An illegal opcode was fetched.", "The CPU fetched an opcode the 68HC11 does not define (M68HC11 Reference Manual, the illegal-opcode trap)."},
	sim.KindROMWrite: {"A write into ROM.", "An instruction wrote into memory the memory map declares read-only."},
	sim.KindUnmapped: {"An access to unmapped memory.", "An instruction read or wrote an address no memory or register block answers."},
	sim.KindStack:    {"A stack left its bounds.", "A thread's stack pointer went below the bound --stack gives."},
	sim.KindReach:    {"The goal was reached.", "Execution reached the address --reach names: a goal, not an error."},
	sim.KindWatchdog: {"The COP watchdog timed out.", "The firmware did not service the COP watchdog in time."},
	sim.KindOutput:   {"The expected output was sent.", "The SCI sent what --expect-output looks for: a goal, not an error."},
	sim.KindMasked:   {"Interrupts were masked too long.", "After the first CLI, CCR.I stayed set for more E cycles than --max-masked allows."},
	sim.KindDeadline: {"A deadline was missed.", "A thread reached the end of a --deadline interval later than its bound in E cycles."},
	sim.KindLatency:  {"An interrupt was served too late.", "An interrupt's handler began more E cycles after its request than --latency allows."},
}

// Notification descriptors (§3.49), by index.
var notifications = []sarifDescriptor{
	{ID: "property-unchecked", Short: &sarifText{Text: "A property the check could not look at: the verdict does not cover it."}},
	{ID: "input-held", Short: &sarifText{Text: "An input the firmware read that nothing drove: the verdict covers the value it held only."}},
	{ID: "incomplete", Short: &sarifText{Text: "A limit stopped the search before it was exhaustive."}},
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool                `json:"tool"`
	Invocations []sarifInvocation        `json:"invocations"`
	BaseIDs     map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
	Results     []sarifResult            `json:"results"`
	Properties  map[string]any           `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string            `json:"name"`
	Version        string            `json:"version,omitempty"`
	InformationURI string            `json:"informationUri,omitempty"`
	Rules          []sarifDescriptor `json:"rules"`
	Notifications  []sarifDescriptor `json:"notifications"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifDescriptor struct {
	ID     string     `json:"id"`
	Short  *sarifText `json:"shortDescription,omitempty"`
	Full   *sarifText `json:"fullDescription,omitempty"`
	Help   *sarifText `json:"help,omitempty"`
	Config *struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration,omitempty"`
}

type sarifInvocation struct {
	Successful    bool                `json:"executionSuccessful"`
	CommandLine   string              `json:"commandLine,omitempty"`
	Notifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level      string         `json:"level"`
	Message    sarifText      `json:"message"`
	Descriptor sarifReference `json:"descriptor"`
}

type sarifReference struct {
	ID    string `json:"id"`
	Index int    `json:"index"`
}

type sarifArtifact struct {
	URI    string `json:"uri"`
	BaseID string `json:"uriBaseId,omitempty"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
	Related   []sarifLocation `json:"relatedLocations,omitempty"`
	CodeFlows []sarifCodeFlow `json:"codeFlows,omitempty"`
}

type sarifLocation struct {
	ID       *int           `json:"id,omitempty"`
	Physical sarifPhysical  `json:"physicalLocation"`
	Logical  []sarifLogical `json:"logicalLocations,omitempty"`
	Message  *sarifText     `json:"message,omitempty"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
	Region   *sarifRegion  `json:"region,omitempty"`
	Address  *sarifAddress `json:"address,omitempty"`
}

type sarifRegion struct {
	StartLine   int  `json:"startLine,omitempty"`
	StartColumn int  `json:"startColumn,omitempty"`
	ByteOffset  *int `json:"byteOffset,omitempty"`
	ByteLength  int  `json:"byteLength,omitempty"`
}

type sarifAddress struct {
	Absolute int    `json:"absoluteAddress"`
	Name     string `json:"name,omitempty"`
}

type sarifLogical struct {
	Name string `json:"name"`
	Kind string `json:"kind,omitempty"`
}

type sarifCodeFlow struct {
	Message     sarifText         `json:"message"`
	ThreadFlows []sarifThreadFlow `json:"threadFlows"`
}

type sarifThreadFlow struct {
	ID        string                    `json:"id"`
	Message   sarifText                 `json:"message"`
	Locations []sarifThreadFlowLocation `json:"locations"`
}

type sarifThreadFlowLocation struct {
	Location       sarifLocation        `json:"location"`
	ExecutionOrder int                  `json:"executionOrder"`
	Importance     string               `json:"importance"`
	State          map[string]sarifText `json:"state,omitempty"`
}

// WriteSARIF writes r as a SARIF 2.1.0 log.
func WriteSARIF(w io.Writer, r Run) error {
	cwd, _ := os.Getwd()
	u := &uris{cwd: cwd}
	driver := sarifDriver{Name: "hc11mc", Version: r.Version, InformationURI: r.InformationURI, Notifications: notifications}
	ruleIndex := map[sim.Kind]int{}
	for _, name := range sim.KindNames() {
		k, _ := sim.ParseKind(name)
		t := ruleText[k]
		level := "error"
		if k == sim.KindReach || k == sim.KindOutput {
			level = "note"
		}
		d := sarifDescriptor{ID: name, Short: &sarifText{Text: t[0]}, Full: &sarifText{Text: t[1]},
			Help: &sarifText{Text: t[1] + " The result's code flow is the counterexample: hc11mc check --trace FILE writes it for hc11mc replay."},
			Config: &struct {
				Level string `json:"level"`
			}{level}}
		ruleIndex[k] = len(driver.Rules)
		driver.Rules = append(driver.Rules, d)
	}
	inv := sarifInvocation{Successful: true, CommandLine: r.Command}
	note := func(i int, level, text string) {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: level, Message: sarifText{Text: sentence(text)},
			Descriptor: sarifReference{ID: notifications[i].ID, Index: i}})
	}
	for _, p := range r.Report.Unchecked {
		note(0, "warning", fmt.Sprintf("property %s not checked: %s", p.Property, p.Reason))
	}
	for _, h := range r.Report.Held {
		note(1, "warning", h.String())
	}
	run := sarifRun{Tool: sarifTool{driver}, Results: []sarifResult{}}
	if r.Result != nil {
		if r.Result.Verdict == check.Incomplete {
			note(2, "warning", "the check is incomplete: "+check.Stopped(r.Result.Limit))
		}
		run.Properties = map[string]any{"verdict": r.Result.Verdict.String(), "propertiesChecked": r.Report.Checked}
	}
	run.Invocations = []sarifInvocation{inv}
	for _, f := range r.Findings {
		run.Results = append(run.Results, u.result(f, ruleIndex[f.Kind]))
	}
	if u.relative {
		run.BaseIDs = map[string]sarifArtifact{"SRCROOT": {URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(cwd) + "/"}).String()}}
	}
	b, err := json.MarshalIndent(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// sentence ends s with a full stop, as SARIF's messages are written.
func sentence(s string) string {
	if strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}

// uris turns the findings' paths into artifact locations.
type uris struct {
	cwd      string
	relative bool // some location is relative to SRCROOT
}

// artifact is the artifact location of the file at p.
func (u *uris) artifact(p string) sarifArtifact {
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(u.cwd, p)
	}
	if rel, err := filepath.Rel(u.cwd, abs); err == nil && u.cwd != "" && !strings.HasPrefix(rel, "..") {
		u.relative = true
		return sarifArtifact{URI: (&url.URL{Path: filepath.ToSlash(rel)}).String(), BaseID: "SRCROOT"}
	}
	return sarifArtifact{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()}
}

// location is l as a SARIF location with message msg ("" for none).
func (u *uris) location(l Location, msg string) sarifLocation {
	sl := sarifLocation{}
	if l.File != "" {
		sl.Physical = sarifPhysical{Artifact: u.artifact(l.File), Region: &sarifRegion{StartLine: l.Line, StartColumn: l.Column}}
	} else {
		// The whole image, and the address in it (§3.30.2, §3.32).
		sl.Physical = sarifPhysical{Artifact: u.artifact(l.Image), Address: &sarifAddress{Absolute: int(l.Addr), Name: l.Symbol}}
		if st, err := os.Stat(l.Image); err == nil && st.Size() > 0 {
			zero := 0
			sl.Physical.Region = &sarifRegion{ByteOffset: &zero, ByteLength: int(st.Size())}
		}
	}
	if msg != "" {
		sl.Message = &sarifText{Text: sentence(msg)}
	}
	return sl
}

// result is finding f as a SARIF result of the rule at index rule.
func (u *uris) result(f Finding, rule int) sarifResult {
	level := "error"
	if f.Goal {
		level = "note"
	}
	res := sarifResult{RuleID: f.Kind.String(), RuleIndex: rule, Level: level, Message: sarifText{Text: sentence(f.Message)},
		Locations: []sarifLocation{u.location(f.Location, "")}}
	for i, n := range f.Notes {
		l := u.location(n.Location, n.Message)
		id := i + 1
		l.ID = &id
		res.Related = append(res.Related, l)
	}
	if len(f.Steps) == 0 {
		return res
	}
	var flows []sarifThreadFlow
	index := map[int]int{} // thread -> its flow
	for _, s := range f.Steps {
		i, ok := index[s.Thread]
		if !ok {
			i = len(flows)
			index[s.Thread] = i
			flows = append(flows, sarifThreadFlow{ID: fmt.Sprintf("thread %d", s.Thread), Message: sarifText{Text: fmt.Sprintf("Thread %d.", s.Thread)}})
		}
		who := fmt.Sprintf("thread %d", s.Thread)
		if s.Handler != "" {
			who += " in the " + s.Handler + " handler"
		}
		importance := "unimportant"
		if s.Essential {
			importance = "essential"
		}
		r := s.Registers
		flows[i].Locations = append(flows[i].Locations, sarifThreadFlowLocation{
			Location:       u.location(s.Location, fmt.Sprintf("step %d, %s at %s: %s", s.Step, who, s.Symbol, s.Text)),
			ExecutionOrder: s.Step, Importance: importance,
			State: map[string]sarifText{"A": {r.A}, "B": {r.B}, "X": {r.X}, "Y": {r.Y}, "SP": {r.SP}, "CCR": {r.CCR},
				"cycles": {fmt.Sprint(r.Cycles)}},
		})
	}
	res.CodeFlows = []sarifCodeFlow{{Message: sarifText{Text: fmt.Sprintf("The counterexample: %d transitions, %d threads.", len(f.Steps), len(flows))}, ThreadFlows: flows}}
	return res
}
