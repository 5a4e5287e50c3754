// Package gdbremote serves a counterexample, or a live run of the
// firmware, to GDB over its remote serial protocol (GDB's manual,
// appendix "Remote Protocol"), so that a firmware engineer steps through
// it in the debugger they know: `hc11mc replay cex.json --gdb :PORT` or
// `hc11mc run fw.elf --gdb :PORT`, then `target remote :PORT` in
// m68hc11-elf-gdb. One Server speaks the protocol for both; what it
// serves is a backend: a History (below) or a Live run (live.go: the
// simulator's run stepped as GDB asks, with writes of registers and RAM,
// a violation's signal, GDB's interrupt, read and access watchpoints, and
// going back by running again from checkpoints of the run).
// It sits below the command line, which listens on TCP and hands it the
// connection (an io.ReadWriter), and above search and sim, whose replay
// builds its history. docs/cli.md, "Replay in GDB", shows a session.
//
// A [History] is the machine state at every instruction boundary of the
// trace, from power-up to the violation, built with the replay every
// other view of a counterexample uses (search.Replay; a transition of
// several instructions is re-executed one instruction at a time). GDB
// moves along it and cannot change it: s, c and vCont move toward the
// violation, bs and bc (reverse-stepi, reverse-continue) toward power-up;
// past either end GDB is told "replaylog:begin" or "replaylog:end"; a
// write of registers (G, P) or memory (M) is accepted only when it writes
// what is already there.
//
// hc11mc's threads are GDB's (thread 0 is GDB's thread 1); an interrupt
// handler runs on the thread it interrupted. A step of a thread ends
// after that thread's next instruction in the trace, the others moving
// meanwhile (all-stop mode, the scheduler unlocked), and the stop reply
// names the thread that stopped. The g packet is the layout of GDB's
// 68HC11 target (gdb/m68hc11-tdep.c): x, d, y, sp, pc as 2 bytes, a, b,
// ccr and page (always 0) as 1, big-endian; GCC's soft registers are
// memory. A breakpoint (Z0, Z1) stops where a thread is about to execute
// its address (backward, at the state before that instruction); a write
// watchpoint (Z2) after the move that changes one of its bytes (backward,
// before it); read and access watchpoints (Z3, Z4) are refused.
package gdbremote
