package icfg

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
)

// tableProgram is a command loop in the shape of a monitor's: a pointer to
// a table of records (a length byte, the name, the address) kept in a RAM
// cell across the search loop, the matching record's address loaded and
// called with JSR 0,X; then a dispatch through a word table by pushing the
// address and returning (PSHX; RTS); and a table of JMP instructions over
// the vector area at 0xFFC1, its words at 0xFFC2... read as vectors by the
// loader. The image is 0xE000-0xFFFF, loaded as a raw binary.
func tableProgram(t *testing.T) (*Program, map[string]uint16) {
	t.Helper()
	const cell = 0x40
	a := newAsm(0xE000)
	a.label("_start").b(opLDS, 0x01, 0xFF)
	a.label("loop").ext("cmdtab", opLDX).b(0xDF, cell) // ldx #cmdtab; stx cell
	a.label("search").b(0xDE, cell)                    // ldx cell
	a.b(0xE6, 0x00)                                    // ldab 0,x
	a.rel("loop", opBEQ)                               // the end of the table
	a.b(opPSHX, 0xCB, 0x03, opABX, 0xDF, cell, opPULX) // pshx; addb #3; abx; stx cell; pulx
	a.b(0xA6, 0x01, 0x81, 'B')                         // ldaa 1,x; cmpa #'B'
	a.rel("search", opBNE)
	a.b(0xDE, cell, 0x09, 0x09, opLDXX, 0x00) // ldx cell; dex; dex; ldx 0,x
	a.label("call").b(opJSRX, 0x00)           // jsr 0,x
	a.ext("rtab", opLDX).b(opLDAB, 0x02, opABX, opLDXX, 0x00, opPSHX)
	a.label("ret").b(opRTS) // pshx; rts: jumps to a word of rtab
	a.label("cmdA").b(opNOP, opRTS)
	a.label("cmdB").b(opINX, opRTS)
	a.label("r0").rel("loop", opBRA)
	a.label("r1").b(opNOP).rel("loop", opBRA)
	a.label("r2").b(opINX).rel("loop", opBRA)
	a.label("api0").b(opNOP, opRTS)
	a.label("api1").b(opINX, opRTS)
	a.label("api2").b(opNOP, opNOP, opRTS)
	a.label("api3").b(opINX, opINX, opRTS)
	a.label("cmdtab").b(1, 'A').word("cmdA").b(1, 'B').word("cmdB").b(0)
	a.label("rtab").word("r0").word("r1").word("r2").b(0, 0)
	for a.pc() < 0xFFC1 {
		a.b(0x00)
	}
	for _, api := range []string{"api0", "api1", "api2", "api3"} {
		a.ext(api, opJMP)
	}
	for a.pc() < 0xFFFE {
		a.b(0x00)
	}
	a.word("_start")
	a.resolve()
	file := filepath.Join(t.TempDir(), "table.bin")
	if err := os.WriteFile(file, a.buf, 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := loader.Load(file, loader.Options{Format: loader.FormatBin, Base: 0xE000, BaseSet: true})
	if err != nil {
		t.Fatal(err)
	}
	return build(t, img), a.labels
}

// The JSR 0,X over the records of the command table reaches the
// commands; the RTS after PSHX reaches the routines of the word table;
// the JMP table over the vector area gives roots, not vectors.
func TestRecordTableAndRTSDispatch(t *testing.T) {
	p, l := tableProgram(t)
	call, _ := p.Instr(l["call"])
	if call.Kind != KindIndirectCall || call.Unresolved || !reflect.DeepEqual(call.Callees, []uint16{l["cmdA"], l["cmdB"]}) {
		t.Errorf("jsr 0,x: %v unresolved=%v callees %x, want cmdA %x, cmdB %x", call.Kind, call.Unresolved, call.Callees, l["cmdA"], l["cmdB"])
	}
	ret, _ := p.Instr(l["ret"])
	want := []uint16{l["r0"], l["r1"], l["r2"]}
	if ret.Kind != KindIndirectJump || ret.Unresolved || !reflect.DeepEqual(ret.Next, want) {
		t.Errorf("rts after pshx: %v unresolved=%v next %x, want %x", ret.Kind, ret.Unresolved, ret.Next, want)
	}
	for _, r := range []string{"r0", "r1", "r2", "cmdA", "cmdB", "api0", "api1", "api2", "api3"} {
		if _, ok := p.Instr(l[r]); !ok {
			t.Errorf("%s (0x%04X) is not decoded", r, l[r])
		}
	}
	var jmps []uint16
	for _, r := range p.Roots {
		switch r.Kind {
		case RootJumpTable:
			jmps = append(jmps, r.Addr)
		case RootVector:
			t.Errorf("a word of the JMP table taken for a vector: %+v", r)
		}
	}
	if !reflect.DeepEqual(jmps, []uint16{0xFFC1, 0xFFC4, 0xFFC7, 0xFFCA}) {
		t.Errorf("JMP table roots %x, want 0xFFC1, 0xFFC4, 0xFFC7, 0xFFCA", jmps)
	}
}

// BUFFALO 3.4 dispatches its commands with JSR 0,X at 0xE1A8 over its
// command table at 0xE54E (records of a length byte, the name and the
// address: ASSEM 0xEB24 ... TEST 0xFEAD, read off the image's bytes), and
// with a constant X of 0xE917 (a jump to the same JSR); its JMP table of
// user entry points fills 0xFF7C-0xFFD2, below the SCI's vector at 0xFFD6.
func TestBuffaloCommandTable(t *testing.T) {
	fw := filepath.Join("..", "..", "shared", "firmware", "buffalo", "buffalo34.s19")
	if _, err := os.Stat(fw); err != nil {
		t.Skipf("BUFFALO 3.4 is not at %s (it is kept outside the repository): %v", fw, err)
	}
	img, err := loader.Load(fw, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := build(t, img)
	call, ok := p.Instr(0xE1A8)
	if !ok || call.Kind != KindIndirectCall || call.Unresolved {
		t.Fatalf("0xE1A8: %+v", call)
	}
	for _, c := range []uint16{0xEB24, 0xE6EE, 0xE7A9, 0xE7AD, 0xF9FD, 0xE7B6, 0xE84B, 0xE89B, 0xFA56, 0xF604,
		0xFBD1, 0xFC6F, 0xE903, 0xE9D7, 0xFD83, 0xFA44, 0xFDC4, 0xFB2C, 0xFAE7, 0xFC67, 0xFE34, 0xFEAC, 0xFEAD, 0xE917} {
		if !slices.Contains(call.Callees, c) {
			t.Errorf("the command dispatch does not reach 0x%04X: %x", c, call.Callees)
		}
	}
	if len(call.Callees) != 24 {
		t.Errorf("the command dispatch reaches %d routines, want 24 (23 commands, 0xE917): %x", len(call.Callees), call.Callees)
	}
	n := 0
	for _, r := range p.Roots {
		if r.Kind == RootVector { // BUFFALO's vectors point to RAM: none is a root
			t.Errorf("a vector root: %+v", r)
		}
		if r.Kind == RootJumpTable {
			n++
		}
	}
	if n != 29 {
		t.Errorf("%d JMP table roots, want 29 (0xFF7C-0xFFD2)", n)
	}
}
