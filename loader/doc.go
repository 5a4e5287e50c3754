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
// # Entry point
//
// Image.Entry is where thread 0 starts. It is, in order of precedence:
// Options.Entry (--entry SYM|ADDR: an address if it parses as one, else a
// symbol name); the reset vector at 0xFFFE if the image loads both of its
// bytes; the entry address the file declares (ELF e_entry, the S7/S8/S9
// record, the Intel HEX 03 or 05 record), which is also kept in
// Image.FileEntry. A declared entry address of 0 counts as none, because
// tools write 0 when there is none (objcopy's "S9030000FC"). An image with
// none of these is an error ("no entry point ...") unless
// Options.AllowNoEntry is set, for commands that only inspect the image.
// The reset vector beats the file's entry because it is what the chip
// itself uses; the two normally agree.
//
// # ELF
//
// Every allocated section with contents is loaded at its run address (VMA)
// as a Segment named after it. A section whose load address (LMA, computed as
// p_paddr + (sh_offset - p_offset) from the program header holding its
// bytes) differs from its VMA is loaded at the LMA too, as a read-only
// segment named "NAME@lma": the ROM copy that start-up code copies into RAM.
// Loading both means the image runs whether or not its start-up code does
// the copy. NOBITS sections (.bss) are not loaded (they read as 0) but are
// RAM. A file without section headers is loaded from its PT_LOAD program
// headers instead. Overlapping sections, or a load copy overlapping
// anything, are an error naming both. Addresses beyond 0xFFFF are an error,
// except symbol values, which are skipped with a warning (linker scripts
// define sizes and other constants as symbols). Unreadable DWARF costs only
// the line information and adds a warning to Image.Warnings.
//
// # S-records and Intel HEX
//
// Checksums, record lengths and hex digits are checked, and an error names
// the line. Two records may load the same address only with the same value.
// S0 headers are ignored; S5/S6 counts must match the data records before
// them; a termination record (S7-S9) is optional, but no record may follow
// it. In Intel HEX, type 02 sets a segment base (value * 16), 04 a linear
// base (value << 16); type 03 gives the entry as the linear address
// CS * 16 + IP and 05 as the 32-bit address itself, both of which must fit in
// 16 bits; two start records that disagree are an error. The end-of-file
// record is required, since a file without it is usually truncated, and
// only blank lines and an MS-DOS end-of-file mark (0x1A) may follow it,
// since anything else usually means two files joined together. Loaded
// bytes become segments of maximal consecutive runs, with no name, Exec
// set (the format cannot tell code from data) and Writable clear. A raw
// binary is one segment at Options.Base.
//
// # Memory map
//
// The map is painted in layers, later layers winning for the bytes they
// cover: the chip profile (--chip, default "e9"); every byte the image
// loads outside RAM becomes ROM (including loaded bytes in the EEPROM or the
// register block, and in the "flat" profile every loaded byte, since there
// all unloaded memory is RAM); writable and NOBITS ELF sections become RAM;
// then the --ram ranges; then the --rom ranges, so that --rom wins where
// the two overlap. A layer changes only bytes whose kind it changes, so
// regions keep the chip's names where a layer agrees with the chip. Bytes
// in no region are unmapped. S-records, Intel HEX and raw binaries carry no
// writability: initialised data they load outside the profile's RAM is ROM
// unless --ram says otherwise.
//
// # Symbols
//
// Symbols come from the ELF symbol table (undefined symbols left out;
// section symbols only for allocated sections, named after the section),
// from a symbol side file (Options.Symbols; nm types T and t are functions,
// D, B, R, G, S, C and V data objects, the rest untyped, upper case
// global) and from hooks (Options.Hooks), which replace any symbol of the
// same name. A side-file symbol repeating an ELF symbol (same name and
// address) is dropped. Symbol.Abs marks absolute symbols (ELF SHN_ABS, nm
// type A): constants, not addresses. See [Image.SymbolAt] for how listings
// name addresses (as objdump does) and [Image.MemoryName],
// [Image.ValueName] and [Image.CodeSymbolAt] for how traces name them by
// the role an address plays.
//
// The harness stubs' names (DESIGN.md, "The harness") are listed here, as
// [Stub], since both package sim and package icfg look them up among the
// symbols ([Image.StubAddr]); what each stub does is package sim's. The
// vector table's layout and names are package isa/m68hc11's (VectorAddr,
// VecReset); Image.Vectors holds the words the image loads there.
//
// # Errors
//
// Problems with an input file are [*FormatError] values naming the file and
// the line or byte offset. No input makes the package panic; declared
// sizes are checked before anything is allocated for them. The fuzz tests
// (FuzzSRec, FuzzIHex, FuzzELF, FuzzLoadBytes, FuzzSymbolFile) check this;
// run one with, for example,
//
//	go test -run='^$' -fuzz=FuzzELF -fuzztime=60s -fuzzminimizetime=2s ./loader/
//
// (a short minimisation time keeps the fuzzer from spending a minute on each
// new ELF input it finds). The test images in testdata are rebuilt from
// their sources with "make -C loader/testdata".
package loader
