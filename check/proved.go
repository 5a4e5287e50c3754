package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/icfg"
	"github.com/hc11mc/hc11mc/internal/units"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
)

// What a check that stops proved (conditional model checking): the depth
// a breadth-first search explored completely (search.Result.Levels), the
// input sequences a search within --max-received and --max-timer-events
// covered, where the states went (the PCs the frontier's states are at,
// what differs between them, and the flag that would help), and how far
// the check got against a plain run of the same firmware.

// Proved is what an incomplete check proved, as check --json's "proved"
// gives it.
type Proved struct {
	// Depth, when set, is D: no execution of at most D transitions from
	// From (reset, or the initial state of a harness program) reaches a
	// violation, on any schedule and input the check explores; a
	// transition is a step of a counterexample's listing.
	Depth *int   `json:"depth,omitempty"`
	From  string `json:"from,omitempty"`
	// NoDepth says why no depth is claimed, where the search was stopped
	// by a limit.
	NoDepth string `json:"no_depth,omitempty"`
	// OtherThan says the claims are of violations other than those the
	// check found and reported (--all goes on after them).
	OtherThan bool `json:"other_than_found,omitempty"`
	// Inputs, when the search was exhaustive within the bounds on the
	// firmware's environment, are the input sequences its verdict covers:
	// every state reachable by them was explored.
	Inputs string `json:"inputs,omitempty"`
	// Claim is the sentence the text gives.
	Claim string `json:"claim"`
}

// Proved is what the incomplete check res proved on m, nil for a check
// that is not incomplete or proved nothing it can say.
func (res *Result) Proved(m *sim.Machine, rep Report) *Proved {
	if res.Verdict != Incomplete {
		return nil
	}
	p := &Proved{OtherThan: len(res.Found) > 0, NoDepth: res.LevelsNote}
	sched := "any schedule"
	if pm := m.Config.Preempt; pm != sim.PreemptEvery {
		sched = fmt.Sprintf("any schedule of --preempt %s", pm)
	}
	over := "on " + sched + " and input"
	if rep.Bounds != "" {
		over = "on " + sched + " and any input within the bounds"
	}
	other := ""
	if p.OtherThan {
		other = " other than those found"
	}
	switch {
	case rep.withinBounds:
		p.Inputs = rep.inputClaim()
		p.NoDepth = ""
		p.Claim = fmt.Sprintf("no violation%s in any reachable state, %s", other, p.Inputs)
		if c := rep.Input.String(); c != "" {
			// Fewer bytes arrived than the bounds allow (none, say):
			// the claim covers what did.
			p.Claim += "; but " + c
		}
	case res.Levels > 0:
		d := res.Levels - 1
		p.Depth, p.NoDepth = &d, ""
		p.From = "the initial state"
		if m.HasDevice() {
			p.From = "reset"
		}
		p.Claim = fmt.Sprintf("no violation%s within %s of %s, %s (every state fewer than %d transitions from it was expanded; a transition is a step of a counterexample's listing)",
			other, units.Of(d, "transition"), p.From, over, d+1)
	case p.NoDepth != "":
		p.Claim = "no depth is claimed: " + p.NoDepth
	default:
		return nil
	}
	return p
}

// inputClaim names the input sequences a search exhaustive within the
// bounds covered.
func (r *Report) inputClaim() string {
	var parts []string
	if r.maxReceived != nil {
		parts = append(parts, fmt.Sprintf("of at most %s of --sci-input (--max-received %d)", units.Of(*r.maxReceived, "byte"), *r.maxReceived))
	}
	if r.maxTimerEvents != nil {
		parts = append(parts, fmt.Sprintf("with at most %s (--max-timer-events %d)", units.Of(*r.maxTimerEvents, "timer event"), *r.maxTimerEvents))
	}
	s := "for every input sequence"
	if len(parts) > 0 {
		s += " " + strings.Join(parts, ", ")
	}
	switch {
	case r.sciFirst:
		s += ", each byte arriving at the first wait after the one before it, or none after that (--sci-timing first)"
	case r.sciIdle:
		s += ", each byte arriving while the firmware waits (--sci-timing idle)"
	}
	return s
}

// FrontierSite is a PC where states of an incomplete search's frontier
// have a thread, as check --json's "frontier" lists them.
type FrontierSite struct {
	PC     string `json:"pc"`
	Symbol string `json:"symbol,omitempty"` // name+offset
	Line   string `json:"line,omitempty"`   // file:line, where the image says
	States int    `json:"states"`
	// Differ says what the states at the PC (a sample of them) differ
	// in: the registers of the thread there, named memory, the
	// peripherals.
	Differ []string `json:"differ,omitempty"`
	// Advice is the flag that would help, when what they differ in
	// points at one.
	Advice string `json:"advice,omitempty"`
}

// FrontierSites describes where the frontier of an incomplete search on m
// went, for cfg's bounds.
func FrontierSites(img *loader.Image, m *sim.Machine, mc MachineConfig, fs []search.FrontierPC) []FrontierSite {
	var out []FrontierSite
	var prog *icfg.Program
	for _, f := range fs {
		s := FrontierSite{PC: fmt.Sprintf("0x%04X", f.PC), States: f.States}
		if name, off, ok := img.SymbolAt(f.PC); ok {
			s.Symbol = name
			if off > 0 {
				s.Symbol += fmt.Sprintf("+%d", off)
			}
		} else {
			// Without symbols: the procedure of the ICFG it is in.
			if prog == nil {
				prog, _ = icfg.Build(img, icfg.Options{})
			}
			if prog != nil {
				if ps := prog.ProcsOf(f.PC); len(ps) > 0 {
					s.Symbol = ps[0].Name
					if d := f.PC - ps[0].Entry; d > 0 && f.PC > ps[0].Entry {
						s.Symbol += fmt.Sprintf("+%d", d)
					}
				}
			}
		}
		if l, ok := img.LineAt(f.PC); ok {
			s.Line = fmt.Sprintf("%s:%d", baseName(l.File), l.Line)
		}
		var cats map[string]bool
		s.Differ, cats = differ(img, m, f.PC, f.Sample)
		s.Advice = advice(m, mc, cats)
		out = append(out, s)
	}
	return out
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// The kinds of what frontier states differ in (differ).
const (
	diffRegs    = "registers" // of the thread at the PC
	diffThreads = "threads"   // where the other threads are
	diffMemory  = "memory"    // outside the register block
	diffTimer   = "timer"     // the timer's registers
	diffSCI     = "sci"       // the SCI's registers
	diffPeriph  = "periph"    // other registers, or the peripherals' state outside memory
)

// regKind is the kind of the register named name (devices.Chip.RegName).
func regKind(name string) string {
	switch {
	case strings.HasPrefix(name, "SC") || strings.HasPrefix(name, "BAUD"):
		return diffSCI
	case strings.HasPrefix(name, "T") || strings.HasPrefix(name, "PAC"):
		return diffTimer
	}
	return diffPeriph
}

// differ names what the states of sample, whose threads include one at
// pc, differ in, and the kinds of it.
func differ(img *loader.Image, m *sim.Machine, pc uint16, sample []*sim.State) (what []string, kinds map[string]bool) {
	kinds = map[string]bool{}
	if len(sample) < 2 {
		return nil, kinds
	}
	first := sample[0]
	at := func(s *sim.State) *sim.Thread {
		for i := range s.Threads {
			if s.Threads[i].PC == pc && s.Threads[i].Status != sim.Exited {
				return &s.Threads[i]
			}
		}
		return nil
	}
	t0 := at(first)
	regs := map[string]bool{}
	others := false
	for _, s := range sample[1:] {
		t := at(s)
		if t == nil || t0 == nil {
			continue
		}
		for _, r := range []struct {
			name string
			a, b uint16
		}{{"A", uint16(t.A), uint16(t0.A)}, {"B", uint16(t.B), uint16(t0.B)}, {"X", t.X, t0.X}, {"Y", t.Y, t0.Y},
			{"SP", t.SP, t0.SP}, {"CCR", uint16(t.CCR), uint16(t0.CCR)}} {
			if r.a != r.b {
				regs[r.name] = true
			}
		}
		if len(s.Threads) != len(first.Threads) {
			others = true
			continue
		}
		for i := range s.Threads {
			if &s.Threads[i] != t && (s.Threads[i].PC != first.Threads[i].PC || s.Threads[i].Status != first.Threads[i].Status) {
				others = true
			}
		}
	}
	for _, r := range []string{"A", "B", "X", "Y", "SP", "CCR"} {
		if regs[r] {
			what = append(what, "register "+r+" of the thread at it")
			kinds[diffRegs] = true
		}
	}
	if others {
		what = append(what, "where the other threads are")
		kinds[diffThreads] = true
	}
	// Memory, address by address, named by the image's symbols or the
	// register block's names.
	var chip *devices.Chip
	var regLo uint16
	if m.HasDevice() {
		if p, err := loader.FindChip(img.Chip); err == nil {
			chip, _ = devices.New(p, devices.Options{})
		}
		_, regLo, _ = m.DeviceRegisters(first)
	}
	names := map[string]bool{}
	var order []string
	memDiffers := false
	for a := 0; a < 1<<16; a++ {
		if r, ok := img.Map.Lookup(uint16(a)); ok && r.Kind == loader.RegionROM {
			continue
		}
		v := m.ReadMem(first, uint16(a))
		same := true
		for _, s := range sample[1:] {
			if m.ReadMem(s, uint16(a)) != v {
				same = false
				break
			}
		}
		if same {
			continue
		}
		memDiffers = true
		name := fmt.Sprintf("0x%04X", a)
		if chip != nil && uint16(a) >= regLo && int(uint16(a)-regLo) < 64 {
			if n := chip.RegName(int(uint16(a) - regLo)); n != "" {
				name = n
			}
			kinds[regKind(name)] = true
		} else {
			if n, base, ok := img.MemoryName(uint16(a)); ok {
				name = n
				if uint16(a) != base {
					name += fmt.Sprintf("+%d", uint16(a)-base)
				}
			}
			kinds[diffMemory] = true
		}
		if !names[name] {
			names[name] = true
			order = append(order, name)
		}
	}
	const maxNames = 6
	if len(order) > maxNames {
		order = append(order[:maxNames], fmt.Sprintf("%d more", len(order)-maxNames))
	}
	if len(order) > 0 {
		what = append(what, "memory: "+strings.Join(order, ", "))
	}
	// Pages that differ where no address does: the peripherals' state
	// kept outside memory (pending events, counters).
	if !memDiffers && m.HasDevice() {
		for _, s := range sample[1:] {
			if pagesDiffer(s, first) {
				what = append(what, "the peripherals' state kept outside memory (their counters and pending events)")
				kinds[diffPeriph] = true
				break
			}
		}
	}
	return what, kinds
}

func pagesDiffer(a, b *sim.State) bool {
	if len(a.Pages) != len(b.Pages) {
		return true
	}
	for i := range a.Pages {
		if a.Pages[i] != b.Pages[i] && a.Pages[i].Data != b.Pages[i].Data {
			return true
		}
	}
	return false
}

// advice is the flags that would help where the states at a PC differ
// in kinds (differ): only what was measured decides it.
func advice(m *sim.Machine, mc MachineConfig, kinds map[string]bool) string {
	var out []string
	if kinds[diffSCI] && mc.MaxReceived == nil {
		a := "they differ in the SCI's registers (bytes received): --max-received N bounds the bytes received along an execution"
		if mc.SCIInput == nil {
			a += ", --sci-input narrows their values"
		}
		out = append(out, a)
	}
	if kinds[diffTimer] && mc.MaxTimerEvents == nil {
		a := "they differ in the timer's registers (timer events taken): --max-timer-events N bounds them along an execution"
		if !m.Config.ExactClock {
			a += ", --clock exact gives them their times"
		}
		out = append(out, a)
	}
	if len(kinds) == 1 && kinds[diffRegs] {
		if m.Config.Preempt == sim.PreemptEvery && len(m.Initial().Threads) > 1 {
			out = append(out, "they differ only in the registers of the thread at it (a loop that counts): each of its instructions is a point where another thread may run; --preempt calls switches threads at calls and returns only (a coarser model)")
		} else {
			out = append(out, "they differ only in the registers of the thread at it (a loop that counts), an iteration a state; --search dfs reaches its exit sooner (and claims no depth)")
		}
	}
	return strings.Join(out, "; ")
}

// RunSteps bounds the plain run the coverage of an incomplete check is
// compared with (ProcCoverage).
const RunSteps = 1 << 20

// ProcCoverage is a procedure's instructions reached by the check and by
// a plain run of the same firmware with the same flags (check --json's
// "procedures").
type ProcCoverage struct {
	Procedure    string `json:"procedure"`
	Instructions int    `json:"instructions"`
	Check        int    `json:"check"`
	Run          int    `json:"run"`
}

// RunCovered is the instructions a plain run (sim.Machine.Run, the
// lowest-numbered thread first, nondeterministic values 0, no input)
// of a fresh machine of mc on img reaches in at most steps
// instructions; nil when the machine cannot be made.
func RunCovered(img *loader.Image, mc MachineConfig, steps uint64) map[uint16]bool {
	m, err := NewMachine(img, mc)
	if err != nil {
		return nil
	}
	pcs := map[uint16]bool{}
	m.Run(m.Initial(), sim.RunOptions{Steps: steps, Visit: func(pc uint16) { pcs[pc] = true }})
	return pcs
}

// ProcCoverages compares, procedure by procedure of img's ICFG, the
// instructions covered (the check's) and run (a plain run's) reach,
// those where they differ first, the check furthest behind first.
func ProcCoverages(img *loader.Image, covered, run map[uint16]bool) []ProcCoverage {
	prog, err := icfg.Build(img, icfg.Options{})
	if err != nil {
		return nil
	}
	var out []ProcCoverage
	for _, p := range prog.Procs {
		if p.Stub != "" {
			continue
		}
		c := ProcCoverage{Procedure: p.Name, Instructions: len(p.Body)}
		if c.Procedure == "" {
			c.Procedure = fmt.Sprintf("0x%04X", p.Entry)
		}
		for _, a := range p.Body {
			if covered[a] {
				c.Check++
			}
			if run[a] {
				c.Run++
			}
		}
		if c.Check > 0 || c.Run > 0 {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Run-out[i].Check > out[j].Run-out[j].Check })
	return out
}
