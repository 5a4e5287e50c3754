package portfolio

import (
	"encoding/json"
	"fmt"
	"github.com/hc11mc/hc11mc/settings"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/search"
)

// MemberResult is what check --swarm-member I/N --json prints: check's
// result with the fields that merging needs, each named as the JSON names
// it (docs/cli.md).
type MemberResult struct {
	Verdict     string            `json:"verdict"`
	Violation   *cex.Violation    `json:"violation"`
	Stats       search.Stats      `json:"stats"`
	TraceLength int               `json:"trace_length"`
	Limit       string            `json:"limit"`
	Member      string            `json:"member"`
	SwarmKey    string            `json:"swarm_key"`
	Firmware    string            `json:"firmware"`
	Load        settings.LoadSpec `json:"load"`
	CoveredPCs  []int             `json:"covered_pcs"`
	TraceFile   string            `json:"trace_file"`
	Checked     json.RawMessage   `json:"properties_checked"`
	Unchecked   json.RawMessage   `json:"properties_unchecked"`
	Held        []check.HeldInput `json:"inputs_held"`
	Omission    float64           `json:"omission_probability"`
	Settings    *Settings         `json:"settings"`

	file        string
	index, size int
}

var memberName = regexp.MustCompile(`^(\d+)/(\d+) \(`)

// ReadMemberResult reads a member's result from the file at path.
func ReadMemberResult(path string) (*MemberResult, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := &MemberResult{file: path}
	if err := json.Unmarshal(b, r); err != nil {
		return nil, fmt.Errorf("%s: not a result of check --json: %v", path, err)
	}
	m := memberName.FindStringSubmatch(r.Member)
	if m == nil || r.SwarmKey == "" {
		return nil, fmt.Errorf("%s: not the result of a swarm member (check --swarm-member I/N --json)", path)
	}
	r.index, _ = strconv.Atoi(m[1])
	r.size, _ = strconv.Atoi(m[2])
	return r, nil
}

// findTrace finds a member's trace: where it says, or beside its result.
func (r *MemberResult) findTrace() string {
	if _, err := os.Stat(r.TraceFile); err == nil {
		return r.TraceFile
	}
	beside := filepath.Join(filepath.Dir(r.file), filepath.Base(r.TraceFile))
	if _, err := os.Stat(beside); err == nil {
		return beside
	}
	return r.TraceFile
}

// Merged is the members' results combined, swarm merge's JSON result:
// the merged verdict, violation, counterexample and limit, the members'
// counts added up, each member's summary and the members missing, the
// swarm's size, the PCs the members covered together, what the verdict
// covers, and the swarm's check of itself.
type Merged struct {
	Verdict     string            `json:"verdict"`
	Violation   *cex.Violation    `json:"violation,omitempty"`
	Member      string            `json:"member,omitempty"`
	TraceFile   string            `json:"trace_file,omitempty"`
	TraceLength int               `json:"trace_length,omitempty"`
	Limit       string            `json:"limit,omitempty"`
	Stats       search.Stats      `json:"stats"`
	Members     []Summary         `json:"members"`
	Missing     []int             `json:"missing,omitempty"`
	Size        int               `json:"size"`
	CoveredPCs  int               `json:"covered_pc_count"`
	Checked     json.RawMessage   `json:"properties_checked,omitempty"`
	Unchecked   json.RawMessage   `json:"properties_unchecked,omitempty"`
	Held        []check.HeldInput `json:"inputs_held,omitempty"`
	Omission    float64           `json:"omission_probability,omitempty"`
	// InternalError names two members that contradict each other: one
	// proved verified, the other's violation replays (selfcheck.go).
	InternalError *InternalError `json:"internal_error,omitempty"`
	// SelfCheck says why members that contradict each other could not be
	// checked by replaying a counterexample.
	SelfCheck string `json:"self_check,omitempty"`
	// Warnings are those of loading the firmware to replay a trace.
	Warnings []string `json:"-"`
}

// Merge combines the members' results in files, which must come from one
// swarm (the same swarm_key and size), each member once: the violation
// found by the member that expanded the fewest states (then the lowest
// index), with its counterexample; verified when some member searched
// exhaustively; otherwise incomplete, with what stopped each member and
// the members that left no result. A verified member beside a violation
// is checked (selfcheck.go). It returns the results too, by index.
func Merge(files []string) (*Merged, []*MemberResult, error) {
	var rs []*MemberResult
	seen := map[int]string{}
	for _, f := range files {
		r, err := ReadMemberResult(f)
		if err != nil {
			return nil, nil, err
		}
		if len(rs) > 0 && (r.SwarmKey != rs[0].SwarmKey || r.size != rs[0].size) {
			return nil, nil, fmt.Errorf("%s and %s are results of different swarms (firmware, flags or size differ)", rs[0].file, f)
		}
		if prev, ok := seen[r.index]; ok {
			return nil, nil, fmt.Errorf("%s and %s are both results of member %d", prev, f, r.index)
		}
		seen[r.index] = f
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].index < rs[j].index })
	m := &Merged{Size: rs[0].size, Checked: rs[0].Checked, Unchecked: rs[0].Unchecked}
	for i := 0; i < m.Size; i++ {
		if _, ok := seen[i]; !ok {
			m.Missing = append(m.Missing, i)
		}
	}
	var win, proof *MemberResult
	var viols []*MemberResult
	covered := map[int]bool{}
	var limits []string
	for _, r := range rs {
		m.Members = append(m.Members, Summary{Member: r.Member, Verdict: r.Verdict, Limit: r.Limit, Stored: r.Stats.StatesStored,
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
			m.TraceFile = win.findTrace()
		}
		m.Omission = win.Omission
		if proof != nil {
			// The merge checks the swarm (selfcheck.go): the winner's
			// violation first.
			sort.SliceStable(viols, func(i, j int) bool { return viols[i] == win && viols[j] != win })
			m.selfCheck(proof, viols)
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
