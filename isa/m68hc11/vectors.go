package m68hc11

import (
	"sort"
	"strings"
)

// The interrupt vector table: NumVectors big-endian words from VectorBase
// to 0xFFFF, one per interrupt source, in the order of the M68HC11
// Reference Manual. Entries 0–10 (0xFFC0–0xFFD5) are reserved.
const (
	VectorBase = 0xFFC0 // address of vector 0
	NumVectors = 32     // entries, the reset vector last
)

// Vector indexes: vector i is the word at VectorAddr(i).
const (
	VecSCI     = 11 + iota // serial communications interface
	VecSPI                 // serial peripheral interface
	VecPAIE                // pulse accumulator input edge
	VecPAO                 // pulse accumulator overflow
	VecTOF                 // timer overflow
	VecTOC5                // timer output compare 5 or input capture 4 (TI4O5)
	VecTOC4                // timer output compare 4
	VecTOC3                // timer output compare 3
	VecTOC2                // timer output compare 2
	VecTOC1                // timer output compare 1
	VecTIC3                // timer input capture 3
	VecTIC2                // timer input capture 2
	VecTIC1                // timer input capture 1
	VecRTI                 // real-time interrupt
	VecIRQ                 // the IRQ pin
	VecXIRQ                // the XIRQ pin: masked by CCR.X, not CCR.I
	VecSWI                 // the SWI instruction
	VecIllegal             // illegal opcode trap
	VecCOP                 // COP watchdog failure
	VecCLM                 // clock monitor failure
	VecReset               // reset: where the chip starts
)

// vectorNames are the vectors' names as --irq and the control-flow
// graph's roots spell them; reserved entries have none.
var vectorNames = [NumVectors]string{
	VecSCI: "sci", VecSPI: "spi", VecPAIE: "paie", VecPAO: "pao", VecTOF: "tof",
	VecTOC5: "toc5", VecTOC4: "toc4", VecTOC3: "toc3", VecTOC2: "toc2", VecTOC1: "toc1",
	VecTIC3: "tic3", VecTIC2: "tic2", VecTIC1: "tic1", VecRTI: "rti", VecIRQ: "irq",
	VecXIRQ: "xirq", VecSWI: "swi", VecIllegal: "illop", VecCOP: "cop", VecCLM: "clm",
	VecReset: "reset",
}

// vectorAliases are second names of vectors that serve two sources.
var vectorAliases = map[string]int{"tic4": VecTOC5}

// VectorAddr returns the address of vector i's word.
func VectorAddr(i int) uint16 { return uint16(VectorBase + 2*i) }

// VectorName returns the name of vector i, "" for a reserved entry or an
// index out of range.
func VectorName(i int) string {
	if i < 0 || i >= NumVectors {
		return ""
	}
	return vectorNames[i]
}

// VectorNames returns every name of vector i: its name, then its aliases
// (toc5's vector is also tic4's). It is empty for a reserved entry.
func VectorNames(i int) []string {
	n := VectorName(i)
	if n == "" {
		return nil
	}
	names := []string{n}
	for a, j := range vectorAliases {
		if j == i {
			names = append(names, a)
		}
	}
	sort.Strings(names[1:])
	return names
}

// VectorIndex returns the index of the vector with the given name or alias,
// in any case.
func VectorIndex(name string) (int, bool) {
	name = strings.ToLower(name)
	if i, ok := vectorAliases[name]; ok {
		return i, true
	}
	for i, n := range vectorNames {
		if n != "" && n == name {
			return i, true
		}
	}
	return 0, false
}
