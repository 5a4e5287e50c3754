package check

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/search"
	"github.com/hc11mc/hc11mc/sim"
	"github.com/hc11mc/hc11mc/symbolic"
)

// Check is a check ready to run: the machine built on the image, the
// explicit search's options with the estimate that ranks its states, and
// what a verdict will cover.
type Check struct {
	Config  Config
	Image   *loader.Image
	Machine *sim.Machine
	// Options are the explicit search's; Options.Estimate is nil when the
	// search follows no heuristic.
	Options search.Options
	// Note says what the heuristic aims at, or why a search that would
	// follow one runs without it; "" for none.
	Note string
	// Properties are the properties checked and not, the reductions and
	// bounds; the inputs held constant are known after the search.
	Properties Report
}

// New builds the check cfg describes on img. Under EngineHMC the
// explicit search's order and dead-data elimination do not apply: the
// estimate (for HMC.Priority glh) is best-first search's, and no data is
// left out of states (the symbolic engine does not follow the stack bytes
// it clears).
func New(img *loader.Image, cfg Config) (*Check, error) {
	if cfg.Engine == EngineHMC {
		cfg.Strategy, cfg.Machine.Dead = search.Best, false
	}
	var untimed []Unchecked
	if cfg.Engine != EngineExplicit && cfg.Machine.Timing.On() {
		// The symbolic engine does not check timing properties: they
		// are listed as not checked, and its machine has none.
		for _, k := range timingAsked(cfg.Machine.Timing) {
			untimed = append(untimed, Unchecked{k.String(), "--engine " + cfg.Engine.String() + ": the symbolic engine does not check timing properties (use --engine explicit)"})
		}
		cfg.Machine.Timing = Timing{}
	}
	// An ignored timing property is not bounded (its violation would
	// end paths the other properties go on along); --report-timing still
	// measures it.
	for _, k := range timingAsked(cfg.Machine.Timing) {
		if cfg.Ignore[k] {
			untimed = append(untimed, Unchecked{k.String(), "--ignore"})
		}
	}
	cfg.Machine.Timing = cfg.Machine.Timing.without(cfg.Ignore)
	mc := cfg.Machine
	// An ignored illegal opcode is not the end of the path: the machine
	// goes on through the trap, as the hardware does.
	mc.IgnoreIllegal = mc.IgnoreIllegal || cfg.Ignore[sim.KindIllegal]
	cfg.Machine = mc
	img = mc.image(img)
	m, err := NewMachine(img, mc)
	if err != nil {
		return nil, err
	}
	if m.Config.Preempt == sim.PreemptYield && !m.HasHarness() {
		return nil, fmt.Errorf("--preempt yield: %s defines no harness stub (__mc_yield, __mc_lock, ...), so no thread could ever be preempted", img.Path)
	}
	est, note, err := Estimator(img, m, cfg)
	if err != nil {
		return nil, err
	}
	opts := search.Options{Strategy: cfg.Strategy, Estimate: est, Seed: cfg.Seed, MaxStates: cfg.MaxStates,
		Timeout: cfg.Timeout, MaxMemory: cfg.MaxMemory, Compact: cfg.Compact, All: cfg.All, Ignore: cfg.Ignore,
		Reduce: cfg.Reduce}
	props := Properties(m, cfg.Ignore)
	props.Unchecked = append(props.Unchecked, untimed...)
	props.Reductions = Reductions(opts, m)
	props.Bounds = mc.Bounds()
	props.sciInput, props.maxReceived = mc.SCIInput != nil, mc.MaxReceived
	props.maxTimerEvents, props.sciIdle, props.sciFirst = mc.MaxTimerEvents, mc.SCIIdle, mc.SCIFirst
	return &Check{Config: cfg, Image: img, Machine: m, Options: opts, Note: note, Properties: props}, nil
}

// Estimator returns the estimate the search of cfg ranks the states of m
// by, or nil when it follows none; note says what it aims at or why the
// search falls back to breadth-first order. The estimate itself is
// heuristics.StateEstimate.
func Estimator(img *loader.Image, m *sim.Machine, cfg Config) (est func(*sim.State) int, note string, err error) {
	strat, kind := cfg.Strategy, cfg.Heuristic
	if strat != search.Best && strat != search.AStar {
		return nil, "", nil
	}
	if kind == heuristics.None {
		return nil, "no heuristic: " + strat.String() + " search degenerates to breadth-first", nil
	}
	hc := heuristics.StateConfig{Kind: kind, K: cfg.K, Aims: cfg.Aims}
	if len(cfg.Machine.Reach) > 0 {
		hc.Reach = cfg.Machine.Reach[0]
	}
	if kind == heuristics.Hamming {
		if hc.GoalAddrs, hc.GoalBytes, err = goalMem(img, cfg.GoalMem); err != nil {
			return nil, "", err
		}
	}
	e, err := heuristics.NewStateEstimate(m, hc)
	switch {
	case errors.Is(err, heuristics.ErrNoTarget):
		return nil, fmt.Sprintf("%v: %s search degenerates to breadth-first", err, strat), nil
	case err != nil && kind == heuristics.Hamming:
		return nil, "", fmt.Errorf("--goal-mem: %v", err)
	case err != nil:
		return nil, "", fmt.Errorf("--heuristic %s: %v", kind, err)
	}
	return e.Estimate, "the heuristic aims at " + e.Aim(), nil
}

// goalMem reads the valuations ADDR=v1,v2,... that --heuristic hamming
// aims at: the bytes from ADDR on.
func goalMem(img *loader.Image, goals []string) ([]uint16, []byte, error) {
	if len(goals) == 0 {
		return nil, nil, errors.New("--heuristic hamming needs --goal-mem ADDR=v1,v2,...: the memory valuation to aim at")
	}
	var addrs []uint16
	var target []byte
	for _, g := range goals {
		a, vals, ok := strings.Cut(g, "=")
		if !ok || vals == "" {
			return nil, nil, fmt.Errorf("--goal-mem %q: want ADDR=v1,v2,... (an address and the byte values from it on)", g)
		}
		addr, err := Resolve(img, a)
		if err != nil {
			return nil, nil, fmt.Errorf("--goal-mem %q: %v", g, err)
		}
		for i, v := range strings.Split(vals, ",") {
			n, err := loader.ParseAddr(strings.TrimSpace(v))
			if err != nil || n > 255 {
				return nil, nil, fmt.Errorf("--goal-mem %q: %q is not a byte value", g, v)
			}
			addrs = append(addrs, addr+uint16(i))
			target = append(target, byte(n))
		}
	}
	return addrs, target, nil
}

// Reductions lists the reductions a search with opts runs on m: partial-
// order reduction needs the finest interleaving to reduce, and does not
// run under the exact clock (every instruction advances time, so the
// simulator expands every state in full).
func Reductions(opts search.Options, m *sim.Machine) []string {
	var r []string
	if opts.Reduce && m.Config.Preempt == sim.PreemptEvery && !m.Config.ExactClock && !m.HasTiming() {
		r = append(r, "por")
	}
	if m.Config.Dead {
		r = append(r, "dead")
	}
	return r
}

// SymbolicEngine makes the symbolic engine on the check's machine: every
// choice a symbol, or under --engine auto the choices wider than
// HMC.MaxBranch. It fails on a machine the engine does not model (the
// chip's peripherals, board hardware).
func (c *Check) SymbolicEngine() (*symbolic.Engine, error) {
	opts := symbolic.Options{Reduce: c.Config.Reduce}
	if c.Config.Engine == EngineAuto {
		opts.MaxBranch = c.Config.HMC.MaxBranch
	}
	return symbolic.NewEngine(c.Machine, opts)
}

// SymbolicChecks reports whether the symbolic engine reports violations
// of property k. It executes every instruction, harness call and
// interrupt with the simulator's step (its data as terms beside it), so
// it sees every property the step raises — assert, error, mutex, unlock,
// illegal-opcode, rom-write, unmapped, stack and the reach goal — and it
// decides deadlock on its symbolic states; not watchdog and output, which
// need the chip's peripherals, a machine it refuses (SymbolicEngine).
//
// Nor the timing properties (max-masked, deadline, latency): a check
// under --engine hmc or auto lists them as not checked, and the swarm's
// symbolic member does not run with them (portfolio.SymbolicMember).
func SymbolicChecks(k sim.Kind) bool {
	return k != sim.KindWatchdog && k != sim.KindOutput && !isTiming(k)
}

// SymbolicConfig is HMC's configuration for the check: its mode, the
// limits, and for the glh priority the check's estimate.
func (c *Check) SymbolicConfig() symbolic.Config {
	h := c.Config.HMC
	cfg := symbolic.Config{Mode: h.Mode, Priority: h.Priority, PRDepth: h.PRDepth, MaxStates: c.Config.MaxStates,
		Timeout: c.Config.Timeout, MaxMemory: c.Config.MaxMemory, Ignore: c.Options.Ignore}
	if est := c.Options.Estimate; est != nil && cfg.Priority == symbolic.GLH && cfg.Mode != symbolic.BMC {
		cfg.Estimate = func(s *sim.State) (int, bool) { return est(s), true }
	}
	return cfg
}
