// Package cli is the hc11mc command line: one cobra command per verb, each
// with an options struct and a run function. It reads the flags into the
// configuration of the packages that do the work — check (a check's
// configuration, the settings as text), hybrid (--engine auto), portfolio
// (the swarm, its array jobs and merge), bench (the benchmarks), cex
// (counterexamples) — and prints their results, the progress lines and
// the warnings. It is not where any of that is decided: a rule that is not
// about a flag, a line of output or an exit code belongs in one of them.
//
// The tests run every command in-process through Main. Errors are printed
// once, here, and mapped to the exit codes of the design: 0 verified, 1
// violation found, 2 bad usage or bad input, 3 incomplete, 4 an internal
// error (a trace that does not replay, members of a swarm that contradict
// each other).
package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Version is the program's version, printed by --version.
var Version = "0.1.0"

// Exit codes.
const (
	ExitVerified   = 0
	ExitViolation  = 1
	ExitUsage      = 2
	ExitIncomplete = 3
	// ExitInternal is an internal error of hc11mc: a counterexample that
	// does not replay, or members of a swarm that contradict each other.
	ExitInternal = 4
	// ExitNoReplay is replay's exit code for a trace that does not
	// reproduce its violation: an internal error.
	ExitNoReplay = ExitInternal
)

// exitError carries an exit code with or without a message.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &exitError{code: ExitUsage, msg: fmt.Sprintf(format, args...)}
}

// exitCode ends a command with a code and nothing more to print.
func exitCode(code int) error { return &exitError{code: code} }

// Main runs the command line and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	root.SetIn(stdin)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(stderr, "hc11mc: %s\n", ee.msg)
		}
		return ee.code
	}
	// Everything else — flag errors, unreadable or malformed files — is
	// bad usage or bad input.
	fmt.Fprintf(stderr, "hc11mc: %s\n", strings.TrimSpace(err.Error()))
	return ExitUsage
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "hc11mc",
		Short: "a model checker for Motorola 68HC11 firmware",
		Long: `hc11mc runs 68HC11 firmware on an exact instruction-set simulator as
concurrent threads and interrupt handlers, and searches every reachable state
for failed assertions, deadlocks, races on critical sections, illegal opcodes,
stack overflows and writes into ROM.

Firmware talks to the checker by calling harness stubs by name
(__mc_nondet, __mc_assert, __mc_thread_create, __mc_lock, ...): each stub is
just an RTS, so the same image runs on hardware.

Exit codes: 0 verified, 1 violation found, 2 bad usage or input,
3 incomplete (a limit stopped the search), 4 an internal error of hc11mc
(a trace that does not replay, members of a swarm that contradict each other).`,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usagef("%v (see '%s --help')", err, c.CommandPath())
	})
	root.AddCommand(newDisasm(stdout), newRun(stdout, stderr), newCheck(stdout, stderr), newReplay(stdout, stderr), newCfg(stdout), newEstimate(stdout), newBench(stdout, stderr), newSwarm(stdout, stderr))
	return root
}
