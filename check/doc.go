// Package check is one check of a firmware image, whichever engine runs
// it: its typed configuration (Config: the machine, the engine and its
// order, heuristic and limits), what that builds (New: the simulated
// machine with the firmware's environment, the estimate that ranks its
// states, the explicit search's options, HMC's configuration), what a
// verdict covers (Report: the properties checked and not, the inputs
// held constant, the bounds of the exploration, the reductions that ran)
// and the result itself (Result, with one Verdict for every engine). It
// also reads the settings as text (LoadImage, MachineOf, ReadBoard: see
// below), says what a search reached of the code (Coverage, Uncovered,
// WaitSites), and runs the firmware to a break for a heuristic's value at
// one state (RunToBreak, hc11mc estimate).
//
// It is not about reading the command line (package cmd/hc11mc/internal/cli turns
// the flags into a Config, prints the result and picks the exit code),
// about reading images (package loader), nor about choosing the engine
// (package plan). It defines the door every engine runs through: Engine,
// whose Run gives a Result, the one result that leaves an engine. Explicit
// (the explicit search, package search) and Symbolic (HMC from the
// initial state, package symbolic) are engines here; the two together
// (package hybrid) and the swarm (package portfolio) are engines above,
// on what New builds.
//
// # Settings as text
//
// A trace file records the load and machine settings as the command line
// gives them (package settings: settings.LoadSpec, settings.MachineSpec),
// so that replay builds the machine a counterexample was found on; the
// command line keeps its flags in the same form. LoadImage and MachineOf
// read them into a MachineConfig, OpenTrace builds a trace's machine, and
// a board file (ReadBoard) stands for --chip, --ram, --rom, --device and
// --wire lines. Packages settings and cex sit below check: check reads
// the settings a trace records, and names violations as cex does.
//
// # Settings that name the image
//
// A setting that names something in the image — a symbol, or a
// register of the chip by its name — is kept as the text the user gives
// (MachineConfig.Inputs, MachineConfig.Reach, Config.GoalMem) and read against the
// image when the machine is built; the others are values. Messages name
// a setting by its flag (--input, --reach), the name users know it by.
//
// # The firmware's environment
//
// MachineConfig.Peripherals decides whether the chip's peripherals (package
// devices) are the firmware's environment. By default they are on for
// real firmware — an image that defines no harness stub and is given no
// --irq — and off for harness models, whose register block stays plain
// memory, so that their behaviour does not change. With the peripherals
// on, an --input address inside the register block is the device's (its
// reads follow the register's own rules), others are the machine's; the
// SCI's alphabet and timing, the CONFIG register, the expected output
// and the bounds on received bytes and timer events need them, and are
// refused without them. A bounded exploration (MachineConfig.Bounds) proves
// nothing beyond its bounds: Report.Bound makes its verified verdict
// incomplete.
//
// # One verdict for every engine
//
// The explicit search and the symbolic engine give package verdict's
// Verdict, and the Stop that says why an incomplete one stopped (a limit
// and its bound), which is text only where a result is printed.
// FromSymbolic gives HMC's result the explicit search's shape, and
// replays its counterexample on the concrete simulator first (Confirm): a
// counterexample that does not replay is an error, a bug in hc11mc, never
// a verdict.
package check
