// Package settings is the schema of the settings that load the firmware
// and shape the simulated machine, as the command line's flags give them
// and as a counterexample's trace records them (package cex), so that
// replay builds the machine a counterexample was found on. The values are
// the flags' text: package check reads them into a check's configuration
// against the image (check.MachineOf), the command line fills them from
// its flags.
//
// It imports nothing of the module: the trace format, the check and the
// command line all stand on it.
package settings

// LoadSpec says how the firmware was loaded, as the command line's
// loading flags give it (--format, --base, --symbols, --hook, --chip,
// --ram, --rom).
type LoadSpec struct {
	Format  string   `json:"format,omitempty"`
	Base    string   `json:"base,omitempty"`
	Symbols string   `json:"symbols,omitempty"`
	Hooks   []string `json:"hook,omitempty"`
	Chip    string   `json:"chip,omitempty"`
	RAM     []string `json:"ram,omitempty"`
	ROM     []string `json:"rom,omitempty"`
}

// MachineSpec holds the settings that shape the simulated machine, as the
// command line's flags of the same names give them, so that replay builds
// the machine a counterexample was found on.
type MachineSpec struct {
	Preempt string   `json:"preempt"`
	IRQ     []string `json:"irq,omitempty"`
	Input   []string `json:"input,omitempty"`
	Stack   []string `json:"stack,omitempty"`
	Entry   string   `json:"entry,omitempty"`
	Reach   []string `json:"reach,omitempty"`
	MaxRun  int      `json:"max_run,omitempty"`
	// Batch is check's --batch: "off" stores a state at every
	// scheduling point; "" or "on" runs a transition on through the
	// points where nothing can choose (sim.Config.Unbatched).
	Batch string `json:"batch,omitempty"`
	// The firmware's environment: the chip's peripherals and the board.
	Peripherals  string   `json:"peripherals,omitempty"`
	SCIInput     string   `json:"sci_input,omitempty"`
	Device       []string `json:"device,omitempty"`
	Wire         []string `json:"wire,omitempty"`
	ExpectOutput string   `json:"expect_output,omitempty"`
	Config       string   `json:"config,omitempty"`
	SCITiming    string   `json:"sci_timing,omitempty"`
	Clock        string   `json:"clock,omitempty"` // check --clock; "": the default

	MaxReceived int `json:"max_received,omitempty"` // bound + 1; 0: none
	MaxTimer    int `json:"max_timer_events,omitempty"`
	// IgnoreIllegal is check's --ignore illegal-opcode, which changes
	// what the machine does: an illegal opcode traps through its vector,
	// when the image programs it, and the execution goes on
	// (sim.Config.IgnoreIllegal). A trace records it, so that replay
	// follows the same trap.
	IgnoreIllegal bool `json:"ignore_illegal,omitempty"`
	// The timing properties of check (--max-masked N, --deadline
	// FROM:TO:N, --latency IRQ:N, --report-timing, --timing-cap): they
	// add the timing page to the states and, for --latency, the
	// interrupt requests to the transitions, so a trace records them.
	MaxMasked    string   `json:"max_masked,omitempty"`
	Deadline     []string `json:"deadline,omitempty"`
	Latency      []string `json:"latency,omitempty"`
	ReportTiming bool     `json:"report_timing,omitempty"`
	TimingCap    uint32   `json:"timing_cap,omitempty"`
}
