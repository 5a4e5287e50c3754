// Package check is one check of a firmware image, whichever engine runs
// it: its typed configuration (Config: the machine, the engine and its
// order, heuristic and limits), what that builds (New: the simulated
// machine with the firmware's environment, the estimate that ranks its
// states, the explicit search's options, HMC's configuration), what a
// verdict covers (Report: the properties checked and not, the inputs
// held constant, the bounds of the exploration, the reductions that ran)
// and the result itself (Result, with package verdict's Verdict and the
// typed Stop of an incomplete one, text only where it is printed).
//
// It defines the door every engine runs through: Engine, whose Run gives
// a Result, the one result that leaves an engine. Explicit (package
// search) and Symbolic (HMC from the initial state, package symbolic) are
// engines here; the two together (package hybrid) and the swarm (package
// portfolio) are engines above, on what New builds, and package plan
// chooses among them. It sits above settings and cex; reading the flags,
// printing and exit codes are the command line's (package cmd/hc11mc/internal/cli),
// reading images package loader's.
//
// Settings come as text: a trace records the load and machine settings
// as the command line gives them (settings.LoadSpec, settings.MachineSpec),
// and LoadImage, MachineOf, OpenTrace (a trace's machine) and ReadBoard
// (a board file of --chip, --ram, --rom, --device and --wire lines) read
// them. A setting that names something in the image (a symbol, a chip
// register) stays text until the machine is built, and messages name a
// setting by its flag. MachineConfig.Peripherals decides whether the
// chip's peripherals (package devices) are the environment: by default on
// for real firmware (no harness stub, no --irq), off for harness models;
// the settings that need them are refused without them, and a bounded
// exploration's verified verdict is made incomplete (Report.Bound).
//
// FromSymbolic replays HMC's counterexample on the concrete simulator
// (Confirm) before it gives the result: one that does not replay is an
// error (NotReplayed), a bug in hc11mc, never a verdict. Coverage,
// Uncovered and WaitSites say what a search reached of the code. Users
// see all this in docs/cli.md ("check", "What a verdict covers") and
// docs/engines.md.
package check
