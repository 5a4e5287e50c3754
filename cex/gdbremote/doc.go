// Package gdbremote serves a counterexample to GDB over its remote serial
// protocol (GDB's manual, appendix "Remote Protocol"), so that a firmware
// engineer steps through it in the debugger they know: `hc11mc replay
// cex.json --gdb :PORT`, then `target remote :PORT` in m68hc11-elf-gdb.
//
// # The history
//
// A [History] is the machine state at every instruction boundary of the
// trace, from power-up to the violation, built with the replay every
// other view of a counterexample uses (search.Replay; a transition of
// several instructions is re-executed one instruction at a time). The
// trace is what happened: GDB moves along it, it cannot change it.
// Stepping forward (s, c, vCont) moves toward the violation, stepping
// backward (bs, bc: GDB's reverse-stepi and reverse-continue) toward
// power-up; past either end GDB is told "replaylog:begin" or
// "replaylog:end" and prints "No more reverse-execution history". Writes
// of registers (G, P) and memory (M) are accepted only when they write
// what is already there.
//
// # Threads
//
// hc11mc's threads are GDB's threads (thread 0 is GDB's thread 1); an
// interrupt handler runs on the thread it interrupted, as on the chip. A
// step of a thread ends after that thread's next instruction in the trace
// (or its entry into an interrupt handler), the other threads moving
// meanwhile as the trace has them — GDB's all-stop mode with the
// scheduler unlocked. The stop reply names the thread that stopped, so
// GDB switches to the thread that hit a breakpoint.
//
// # Registers
//
// The g packet holds the registers in the layout of GDB's 68HC11 target
// (gdb/m68hc11-tdep.c): x, d, y, sp, pc as 2 bytes, a, b, ccr and page
// as 1 byte, big-endian; the 68HC11 has no page register (0). GCC's soft
// registers (_.frame, _.d1, ...) are memory to the target: GDB reads them
// with m at their symbols.
//
// # Breakpoints
//
// A breakpoint (Z0, or Z1 for hbreak) stops a move at the position where
// a thread is about to execute the instruction at its address: forward,
// the position resumed from aside; backward, as GDB's reverse execution
// expects, at the state before that instruction. A write watchpoint (Z2)
// stops after the move that changes one of its bytes, backward before
// it. Read and access watchpoints (Z3, Z4) are not supported: GDB is
// told so.
//
// The package reads and writes an io.ReadWriter; the command line listens
// on TCP and hands it the connection.
package gdbremote
