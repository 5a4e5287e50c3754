package icfg

import (
	"fmt"
	"sort"

	"github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// Inf is the distance of a vertex from which no target (or no exit) can be
// reached.
const Inf int32 = 1<<31 - 1

// Kind classifies an instruction vertex by what it does to control flow.
type Kind uint8

// Instruction kinds.
const (
	KindFlow         Kind = iota // falls through to the next instruction (WAI and STOP too)
	KindBranch                   // conditional branch (Bcc, BRSET, BRCLR): target and fall-through
	KindJump                     // BRA, JMP to a constant address: the target only
	KindIndirectJump             // JMP ff,X / ff,Y: the resolved targets, else every procedure entry
	KindCall                     // JSR/BSR to a constant address
	KindIndirectCall             // JSR ff,X / ff,Y: the resolved callees, else every procedure entry
	KindReturn                   // RTS, RTI: an exit vertex
	KindStub                     // a harness stub: one step that returns as RTS would
	KindStubNoReturn             // __mc_thread_exit: one step that ends the thread
	KindHalt                     // SWI, TEST: the path ends here
)

var kindNames = [...]string{"flow", "branch", "jump", "indirect-jump", "call", "indirect-call",
	"return", "stub", "stub-noreturn", "halt"}

// String returns the kind's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// IsCall reports whether the kind pushes a return address and enters a callee.
func (k Kind) IsCall() bool { return k == KindCall || k == KindIndirectCall }

// IsExit reports whether a vertex of this kind leaves its procedure by
// returning to the caller (RTS, RTI, a returning harness stub).
func (k Kind) IsExit() bool { return k == KindReturn || k == KindStub }

// Instr is one instruction vertex of the control-flow graph.
type Instr struct {
	Addr uint16
	Inst m68hc11.Inst // zero for a harness stub, whose body is never executed
	Kind Kind
	Stub string // the harness stub's name (KindStub, KindStubNoReturn)

	// Next are the successors within the same activation: the fall-through,
	// branch and jump targets (a jump to another procedure's entry is a tail
	// call and is listed here too). The return point of a call is not here.
	Next []uint16
	// Callees are the procedure entries a call enters.
	Callees []uint16
	// Ret is the return point of a call: the address after the instruction.
	Ret uint16
	// Unresolved marks an indirect jump or call whose targets could not be
	// determined: Next (jump) or Callees (call) then lists every procedure
	// entry except the harness stubs.
	Unresolved bool
}

// RootKind says why an address is a root of the disassembly.
type RootKind uint8

// Root kinds.
const (
	RootReset     RootKind = iota // the reset vector (index 31)
	RootEntry                     // the image's entry point when it differs from the reset vector
	RootVector                    // another loaded interrupt vector
	RootThread                    // an entry passed to __mc_thread_create
	RootSymbol                    // a function symbol (or a global untyped label in executable memory)
	RootJumpTable                 // a JMP of a table of JMP instructions the vector area overlaps (a monitor's entry points)
)

var rootKindNames = [...]string{"reset", "entry", "vector", "thread", "symbol", "jmp-table"}

// String returns the root kind's name.
func (k RootKind) String() string {
	if int(k) < len(rootKindNames) {
		return rootKindNames[k]
	}
	return "root?"
}

// Root is an address where the disassembly starts.
type Root struct {
	Addr uint16
	Kind RootKind
	// Name: the vector's name ("toc1"), the symbol, or for a thread the
	// address of the __mc_thread_create call ("created at 0xD00C").
	Name string
}

// Proc is a procedure: a call target or a root, with the instructions its
// activation executes before it returns (calls summarised, tail calls not
// followed).
type Proc struct {
	Entry uint16
	Name  string
	Stub  string // the harness stub's name, "" for code

	Body      []uint16 // instruction addresses, ascending; Body contains Entry
	Exits     []uint16 // the RTS/RTI instructions of the body (the stub itself for a returning stub)
	CallSites []uint16 // call instructions in the body
	Callees   []uint16 // distinct entries called from the body, ascending
	Callers   []uint16 // call instructions (anywhere) that enter this procedure, ascending
	TailCalls []uint16 // entries of procedures the body continues into by jump or fall-through
	Roots     []RootKind
	Recursive bool // on a cycle of the call graph (calls and tail calls)
	Bytes     int  // the size of the body in bytes
}

// IndirectSite is a JMP or JSR through X or Y.
type IndirectSite struct {
	Addr     uint16
	Call     bool     // JSR (a call) rather than JMP
	Resolved bool     // the targets were found
	Targets  []uint16 // the resolved targets, ascending; nil when unresolved
	How      string   // how they were resolved ("constant X", "jump table at 0xE000, 4 entries")
}

// Program is the result of disassembling an image: the instructions reached
// from the roots, grouped into procedures.
type Program struct {
	Image    *loader.Image
	Instrs   []Instr // sorted by Addr; the index of an instruction is its ICFG vertex
	Procs    []Proc  // sorted by Entry
	Roots    []Root
	Indirect []IndirectSite // every indexed JMP/JSR reached, sorted by Addr
	Notes    []string       // what the disassembly skipped or could not follow

	idx      []int32             // address → index in Instrs, -1 if none (65536 entries)
	procAt   map[uint16]int32    // entry → index in Procs
	owners   [][]int32           // per instruction: indices of the procedures whose body contains it
	retSet   [][]uint16          // per procedure: where its exits may return to
	ctxRoot  []bool              // per procedure: it may run with an empty stack
	below    map[uint16][]uint16 // return point r → return addresses that may lie below r on the stack
	belowNil map[uint16]bool     // return point r → the stack below r may be empty
	stubAt   map[uint16]string
}

// Index returns the index in Instrs of the instruction at addr.
func (p *Program) Index(addr uint16) (int, bool) {
	i := p.idx[addr]
	return int(i), i >= 0
}

// Instr returns the instruction vertex at addr.
func (p *Program) Instr(addr uint16) (*Instr, bool) {
	i := p.idx[addr]
	if i < 0 {
		return nil, false
	}
	return &p.Instrs[i], true
}

// Proc returns the procedure whose entry is addr.
func (p *Program) Proc(entry uint16) (*Proc, bool) {
	i, ok := p.procAt[entry]
	if !ok {
		return nil, false
	}
	return &p.Procs[i], true
}

// ProcsOf returns the procedures whose body contains the instruction at
// addr (usually one; code shared by several procedures has more).
func (p *Program) ProcsOf(addr uint16) []*Proc {
	i := p.idx[addr]
	if i < 0 {
		return nil
	}
	var out []*Proc
	for _, pi := range p.owners[i] {
		out = append(out, &p.Procs[pi])
	}
	return out
}

// StubAt returns the name of the harness stub at addr, if any.
func (p *Program) StubAt(addr uint16) (string, bool) {
	s, ok := p.stubAt[addr]
	return s, ok
}

// ReturnPoints returns where the exit at addr may return to when nothing is
// known about the stack: the return points of every call of every
// procedure containing addr (and of the procedures that tail-call them).
// This is the set of ICFG return edges of an exit vertex.
func (p *Program) ReturnPoints(addr uint16) []uint16 {
	i := p.idx[addr]
	if i < 0 {
		return nil
	}
	var out []uint16
	for _, pi := range p.owners[i] {
		out = append(out, p.retSet[pi]...)
	}
	return sortedSet(out)
}

// Name names an address for listings: "sym" or "sym+0x3", else "0xD00A".
func (p *Program) Name(addr uint16) string {
	if p.Image != nil {
		if name, off, ok := p.Image.SymbolAt(addr); ok {
			if off == 0 {
				return name
			}
			return fmt.Sprintf("%s+0x%x", name, off)
		}
	}
	return fmt.Sprintf("0x%04X", addr)
}

// Disasm prints the instruction at addr in objdump syntax, with symbols.
func (p *Program) Disasm(addr uint16) string {
	in, ok := p.Instr(addr)
	if !ok {
		return "?"
	}
	if in.Kind == KindStub || in.Kind == KindStubNoReturn {
		return "<harness " + in.Stub + ">"
	}
	var sym m68hc11.Symbolizer
	if p.Image != nil && len(p.Image.Symbols) > 0 {
		img := p.Image
		sym = func(a uint16) (string, uint16, bool) {
			name, off, ok := img.SymbolAt(a)
			return name, a - off, ok
		}
	}
	return m68hc11.GNUSyntax(in.Inst, addr, sym)
}

// sortedSet sorts a slice of addresses and removes duplicates, in place.
func sortedSet(a []uint16) []uint16 {
	if len(a) == 0 {
		return nil
	}
	sort.Slice(a, func(i, j int) bool { return a[i] < a[j] })
	out := a[:1]
	for _, x := range a[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}
