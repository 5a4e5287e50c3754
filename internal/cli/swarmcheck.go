package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/internal/units"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// singleSearchFlags name one search: given without --search, they make
// the default best-first search instead of the swarm.
var singleSearchFlags = []string{"heuristic", "k", "goal-mem", "all", "save-frontier", "resume"}

// defaultSearch picks best-first search when --search is not given but a
// flag of singleSearchFlags is: `check --heuristic fsm` means best-first
// search on the FSM distance, as it did before the swarm was the default.
func (o *checkOptions) defaultSearch(fs *pflag.FlagSet) {
	if (o.engine == "auto" || o.engine == "hmc") && !fs.Changed("reduce") {
		o.reduce = "por" // dead-data elimination clears bytes HMC would read
	}
	if fs.Changed("search") {
		return
	}
	if o.engine == "auto" {
		// One explicit search, which hands its wide choices to HMC:
		// breadth-first, which no model of testdata/bench leads astray
		// (best-first with efsm misses tick_counter) and which gives the
		// shortest prefixes.
		o.strategy = "bfs"
		for _, f := range singleSearchFlags {
			if fs.Changed(f) && f != "all" && f != "save-frontier" && f != "resume" {
				o.strategy = "best" // a heuristic's flag names best-first
			}
		}
		return
	}
	for _, f := range singleSearchFlags {
		if fs.Changed(f) {
			o.strategy = "best"
			return
		}
	}
}

// refuseSwarm refuses the flags of one search under --search swarm, and
// the swarm's flags under the other searches.
func (o *checkOptions) refuseSwarm(fs *pflag.FlagSet) error {
	if o.strategy != "swarm" {
		for _, f := range []string{"workers", "swarm-member", "stop-file"} {
			if f == "workers" {
				continue // the workers of one search, or refused (workers.go)
			}
			if fs.Changed(f) {
				return usagef("--%s: only --search swarm runs several searches (the search is %s)", f, o.strategy)
			}
		}
		return o.refuseWorkers(fs)
	}
	for _, f := range singleSearchFlags {
		if fs.Changed(f) {
			return usagef("--%s: the members of --search swarm each have their own search and heuristic; --%s belongs to one search (--search best, astar, ...)", f, f)
		}
	}
	if fs.Changed("workers") && fs.Changed("swarm-member") {
		return usagef("--workers: --swarm-member runs one member alone")
	}
	return nil
}

// runSwarmCheck is check with --search swarm: the members in this process
// or, with --swarm-member, one of them alone.
func runSwarmCheck(o *checkOptions, path string, stdout, stderr io.Writer) error {
	// From the start: swarm run interrupts a member when another decides,
	// which may be while this one sets up.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var runs []*memberRun
	size := o.swarm.workers
	single := o.swarm.member != ""
	cfg, err := o.config()
	if err != nil {
		return err
	}
	if single {
		i, n, err := parseMember(o.swarm.member)
		if err != nil {
			return err
		}
		cs, sm, err := setupMember(o, cfg, path, i, n)
		if err != nil {
			return err
		}
		runs, size = []*memberRun{{member: sm, cs: cs}}, n
	} else if runs, err = setupSwarm(o, cfg, path, size); err != nil {
		return err
	}
	cs0 := runs[0].cs
	img, props := cs0.Image, cs0.Properties
	if w := check.SymbolWarning(img, o.load.LoadSpec, path); w != "" {
		fmt.Fprintf(stderr, "hc11mc: warning: %s\n", w)
	}
	if !o.json {
		if single {
			fmt.Fprintf(stdout, "checking %s: swarm member %s alone, preempt %s\n", path, runs[0].member, cs0.Machine.Config.Preempt)
		} else {
			fmt.Fprintf(stdout, "checking %s: swarm of %d, preempt %s\n", path, size, cs0.Machine.Config.Preempt)
		}
		for _, r := range runs {
			note := ""
			if r.cs.Note != "" && r.cs.Options.Estimate != nil {
				note = " (" + r.cs.Note + ")"
			}
			if !single {
				fmt.Fprintf(stdout, "  member %d/%d: %s%s\n", r.member.Index, size, r.member.Describe(), note)
			} else if note != "" {
				fmt.Fprintf(stdout, "note: %s\n", r.cs.Note)
			}
		}
	}
	var progress func(swarmProgress)
	if !o.json && !o.quiet && isTerminal(stderr) {
		progress = func(p swarmProgress) {
			fmt.Fprintf(stderr, "\r%d states (%.0f/s) in %d running members, %d MiB   ",
				p.Stored, float64(p.Stored)/p.Elapsed.Seconds(), p.Running, p.Memory>>20)
		}
	}
	out := runSwarm(ctx, runs, swarmLimits{maxMemory: o.maxMemory, stopFile: o.swarm.stopFile}, progress)
	if progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	res := check.FromSearch(out.res)
	var win *memberRun
	if out.winner >= 0 {
		win = runs[out.winner]
	}
	var ierr *internalError
	if c := out.conflict; c != nil {
		proof, viol := runs[c.verified], runs[c.violated]
		ierr = newInternalError(settingsOf(proof, o.seed), settingsOf(viol, o.seed), viol.res.Found[0].Violation.Kind.String(), proof.res.Omission)
	}
	m := cs0.Machine
	if win != nil {
		m = win.cs.Machine
	}
	var ms []*sim.Machine
	for _, r := range runs {
		ms = append(ms, r.cs.Machine)
	}
	props.Held = check.HeldInputs(img, ms...)
	props.Bound(res)
	var first *search.Found
	if len(res.Found) > 0 && win != nil {
		first = &res.Found[0]
	}
	if o.trace != "" && first != nil {
		if err := makeTrace(m, path, o, first).WriteFile(o.trace); err != nil {
			return usagef("--trace: %v", err)
		}
	}
	if o.traceSVG != "" && first != nil {
		sub := fmt.Sprintf("check --search swarm: member %s, --preempt %s", win.member, m.Config.Preempt)
		if err := writeTraceSVG(o.traceSVG, img, m, first.Trace, sub); err != nil {
			return usagef("--trace-svg: %v", err)
		}
	}
	if o.json {
		var buf bytes.Buffer
		printJSON(&buf, img, m, res, first, props)
		extra := map[string]any{}
		if win != nil {
			extra["member"] = win.member.String()
		}
		if ierr != nil {
			extra["internal_error"] = ierr
		}
		if single {
			extra["member"] = runs[0].member.String()
			extra["settings"] = settingsOf(runs[0], o.seed)
			extra["swarm_key"] = swarmKey(cs0, o, size)
			extra["firmware"] = path
			extra["load"] = o.load
			extra["covered_pcs"] = sortedPCs(res.Covered)
			if o.trace != "" && first != nil {
				extra["trace_file"] = o.trace
			}
		} else {
			var ms []memberSummary
			for _, r := range runs {
				ms = append(ms, summarize(r))
			}
			extra["members"] = ms
		}
		line, err := addFields(buf.Bytes(), extra)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, string(line))
	} else {
		printResult(stdout, img, m, res, o, props)
		printMembers(stdout, out, size, single)
	}
	if ierr != nil {
		return &exitError{code: ExitInternal, msg: ierr.text()}
	}
	return verdictExit(res.Verdict)
}

// addFields adds fields to a JSON object.
func addFields(obj []byte, extra map[string]any) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(obj, &fields); err != nil {
		return nil, err
	}
	for k, v := range extra {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		fields[k] = b
	}
	return json.Marshal(fields)
}

// printMembers says which member decided and what each did.
func printMembers(w io.Writer, out *swarmOutcome, size int, single bool) {
	if single {
		fmt.Fprintf(w, "swarm member %s (hc11mc swarm merge combines the members' --json results)\n", out.runs[0].member)
		return
	}
	if out.winner >= 0 {
		r := out.runs[out.winner]
		st := r.res.Stats
		switch r.res.Verdict {
		case search.Violated:
			fmt.Fprintf(w, "found by member %s after %s of its states in %.2fs; repeat it alone with --swarm-member %d/%d\n",
				r.member, units.Count(int64(st.StatesStored)), st.Seconds, r.member.Index, size)
		case search.Verified:
			fmt.Fprintf(w, "verified by member %s, which searched all %s reachable states\n", r.member, units.Count(int64(st.StatesStored)))
		}
	}
	for _, r := range out.runs {
		s := summarize(r)
		what := s.Verdict
		if s.Limit != "" {
			what += ": " + s.Limit
		}
		fmt.Fprintf(w, "  member %s: %s; %s states, %.2fs\n", s.Member, what, units.Count(int64(s.Stored)), s.Seconds)
	}
}

// memberLimitText turns the search's "--max-memory N bytes" into a size.
func memberLimitText(l string) string {
	var b int64
	if _, err := fmt.Sscanf(l, "--max-memory %d bytes", &b); err == nil && strings.HasSuffix(l, " bytes") {
		return "--max-memory " + units.Size(b)
	}
	return l
}
