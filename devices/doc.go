// Package devices models the on-chip peripherals of the 68HC11 — the SCI
// (serial port), the main timer with its real-time interrupt, the parallel
// ports, the COP watchdog and the system registers (INIT, OPTION, HPRIO,
// CONFIG) — as the environment of firmware under check: what the firmware
// reads from and writes to its register block, which interrupts are
// pending, and which events of the outside world (a byte arriving on the
// serial line, time passing) may happen next.
//
// It is not the CPU (package sim executes instructions) and it does not
// search (package search). It knows nothing of states beyond the bytes it
// is given.
//
// docs/devices.md is the long version of this page: "How the simulator sees
// the peripherals", "The environment", "The abstract clock", "The exact
// clock", "What waiting firmware waits for", "Registers".
package devices
