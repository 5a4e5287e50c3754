// Package loader reads 68HC11 firmware images into an [Image]: the bytes
// memory holds at power-up, the symbols, the entry point, the interrupt
// vector table, the memory map and, where the file has DWARF, the source
// line of each instruction.
//
// It reads ELF32 executables for EM_68HC11 (as m68hc11-ld writes them),
// Motorola S-records, Intel HEX and raw binaries, and symbol side files in
// the output format of m68hc11-nm. It is not a linker: it does not relocate
// object files (ET_REL is rejected), knows nothing of banked or paged memory
// beyond the 16-bit address space, and never writes images. Decoding
// instructions is package isa/m68hc11's job, running them package sim's.
//
// docs/loader.md is the long version of this page: "Entry point", "ELF",
// "S-records and Intel HEX", "Memory map", "Symbols", "Errors".
package loader
