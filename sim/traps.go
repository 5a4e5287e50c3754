package sim

import (
	"fmt"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
)

// Traps: SWI, and the illegal opcodes (TEST included, outside the test
// modes).
//
// Executing an illegal opcode is an illegal-opcode violation whether or
// not the firmware programs the illegal-opcode vector (0xFFF8): the vector
// only says what the firmware does after the bug. With
// Config.IgnoreIllegal (check --ignore illegal-opcode) the violation is not
// reported and the execution goes on as the hardware's does, through the
// vector, when it is programmed; when it is not, the path ends there.
//
// SWI is a legal instruction that goes through the SWI vector (0xFFF6).
// Through a vector the image does not program it is an illegal-opcode
// violation: the hardware would jump to whatever the unprogrammed vector
// holds. Under Config.IgnoreIllegal that path ends there too.
//
// A vector is programmed when the image loads both its bytes, their value
// is neither 0x0000 (the unused entries of a vector table written with
// zeros) nor 0xFFFF (erased EPROM), and it points at a byte the image
// loads.
//
// Monitors such as BUFFALO point their vectors into RAM, at a table of
// pseudo-vectors (three bytes each, JMP and an address) that the firmware
// writes at start-up and a user program may rewrite. Such a vector is
// programmed from the moment the firmware writes its target: it is judged
// at the trap, in the state that takes it (Machine.vectorAt). RAM the image
// does not load holds 0 at power-up in the model, and 0x00 is TEST, which
// is illegal outside the test modes, so a target still holding 0 is one
// the firmware has not written; the hardware would run whatever RAM held.

// vectorWhy says why vector v is not programmed, "" when it is.
func vectorWhy(img *loader.Image, v int) string {
	t := img.Vectors[v]
	switch {
	case !img.VectorLoaded[v]:
		return "the image does not load it"
	case t == 0x0000:
		return "it holds 0x0000"
	case t == 0xFFFF:
		return "it holds 0xFFFF, erased"
	}
	if _, ok := img.Byte(t); !ok {
		return fmt.Sprintf("it points at 0x%04X, where the image loads nothing", t)
	}
	return ""
}

// ramVector returns the target of vector v when the image loads the
// vector with an address other than 0x0000 and 0xFFFF at which it loads
// nothing: a pseudo-vector, programmed or not by what RAM holds there.
func (m *Machine) ramVector(v int) (uint16, bool) { return m.PseudoVector(v) }

// PseudoVector returns the target of vector v when it may be a RAM
// pseudo-vector: the image loads the vector with an address other than
// 0x0000 and 0xFFFF, at which it loads nothing. Whether it is programmed
// depends on the state (VectorProgrammedIn).
func (m *Machine) PseudoVector(v int) (uint16, bool) {
	t := m.Image.Vectors[v]
	if !m.Image.VectorLoaded[v] || t == 0x0000 || t == 0xFFFF {
		return 0, false
	}
	_, loaded := m.Image.Byte(t)
	return t, !loaded
}

// vectorAt says why vector v is not programmed in state s, "" when it is:
// as vectorWhy, except that a vector pointing at RAM the image does not
// load is programmed once the firmware has written a non-zero byte at its
// target. read reads that byte: the stepper's own read, so that the
// reductions see the access, or ReadMem for display.
func (m *Machine) vectorAt(s *State, v int, read func(uint16) uint8) string {
	why := vectorWhy(m.Image, v)
	if why == "" {
		return ""
	}
	t, ok := m.ramVector(v)
	if !ok || !m.writableIn(s, t) {
		return why
	}
	if read(t) != 0 {
		return ""
	}
	return fmt.Sprintf("it points at 0x%04X in RAM, which the firmware has not written (it holds 0x00)", t)
}

// VectorProgrammedIn reports whether interrupt vector v is programmed in
// state s: the image programs it, or it points into RAM where the firmware
// has written its target (a RAM pseudo-vector, vectorAt).
func (m *Machine) VectorProgrammedIn(s *State, v int) bool {
	return m.vectorAt(s, v, func(a uint16) uint8 { return m.ReadMem(s, a) }) == ""
}

// VectorProgrammed reports whether the image programs interrupt vector v
// (an index of package isa/m68hc11): it loads the vector with an address
// other than 0x0000 and 0xFFFF, at which it loads code or data.
func (m *Machine) VectorProgrammed(v int) bool { return vectorWhy(m.Image, v) == "" }

// TrapsIllegal reports whether an illegal opcode traps through the
// illegal-opcode vector and the execution goes on: with
// Config.IgnoreIllegal, when the image programs the vector. Otherwise
// executing one is an illegal-opcode violation.
func (m *Machine) TrapsIllegal() bool { return m.trapIllegal }

// setTraps decides, once, what SWI and the illegal opcodes do.
func (m *Machine) setTraps() {
	m.trapIllegal = m.Config.IgnoreIllegal && m.VectorProgrammed(isa.VecIllegal)
	m.swiOK = m.VectorProgrammed(isa.VecSWI)
}

// trapsIllegalIn reports whether an illegal opcode traps in state s: as
// TrapsIllegal, or with Config.IgnoreIllegal through a RAM pseudo-vector
// the firmware has written (vectorAt).
func (x *stepper) trapsIllegalIn() bool {
	return x.m.trapIllegal || x.m.Config.IgnoreIllegal && x.m.vectorAt(x.s, isa.VecIllegal, x.read8) == ""
}

// illegal executes the illegal opcode in at pc: the trap, when the machine
// takes it (TrapsIllegal), otherwise the illegal-opcode violation.
func (x *stepper) illegal(pc uint16, in isa.Inst, why string) event {
	if x.trapsIllegalIn() {
		x.t.PrevPC = pc
		x.trap(pc)
		x.t.PC = x.m.Image.Vectors[isa.VecIllegal]
		x.t.Cycles += 14
		if len(x.m.stacks) > 0 {
			x.checkStack(pc)
		}
		if x.bad {
			return evViolation
		}
		return evOK
	}
	var buf [5]byte
	n := 0
	for ; n < 2 && n < int(max(in.Len, 1)); n++ {
		buf[n] = x.m.ReadMem(x.s, pc+uint16(n))
	}
	img := x.m.Image
	note := ""
	if w := x.m.vectorAt(x.s, isa.VecIllegal, x.read8); w != "" {
		note = "no illegal-opcode vector is programmed at 0xFFF8: " + w
	} else {
		note = fmt.Sprintf("the illegal-opcode vector at 0xFFF8 goes to 0x%04X, what the firmware does after the fault; "+
			"--ignore illegal-opcode follows it", img.Vectors[isa.VecIllegal])
	}
	x.fault(KindIllegal, pc, pc, "%s % x at 0x%04X (%s)", why, buf[:n], pc, note)
	return evViolation
}

// swiFault reports SWI at pc through a vector that is not programmed.
func (x *stepper) swiFault(pc uint16, why string) {
	x.fault(KindIllegal, pc, pc, "swi through the SWI vector at 0xFFF6, which is not programmed: %s", why)
}

// writableIn reports whether a is RAM in the memory map of state s (INIT
// included).
func (m *Machine) writableIn(s *State, a uint16) bool {
	return m.layoutOf(s).attr[a] == attrRAM
}
