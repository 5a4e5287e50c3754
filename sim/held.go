package sim

import (
	"sort"
	"sync/atomic"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
)

// Inputs held constant.
//
// Firmware reads the outside world through the chip's input registers —
// the ports' input pins, the byte the SPI shifted in, the A/D results
// (devices.InputOffsets, by chip profile) — and through board hardware
// (Config.Board). A read of one that nothing drives — no --input domain
// (Config.Inputs, or the device's own), no --device value list — returns
// whatever the register or the memory holds: the input is held constant,
// and a verdict holds for that value only. The machine records which of
// them the firmware read, over every transition it executed, so that the
// command line can say so (HeldInputs) as it says which properties went
// unchecked.
//
// With a device the device decides at each read (devices.Device.HeldInput:
// a port whose pins are all outputs is no input). Without one — a harness
// model, whose register block is plain memory — the input registers of
// the profile's block are held inputs unless --input names them; they stay
// plain memory (attrHeld: RAM whose reads are recorded). Reads of other
// memory never are. Board hardware is held where its range has no values.
//
// The record is a bitset of atomic words, shared by the threads of a
// search: a read that finds its bit set costs one load, and a bit is set
// once per input and machine; nothing is allocated.

// HeldInput is an input the firmware read that nothing drives.
type HeldInput struct {
	// Addr is the address read: for a register of the chip, its address
	// with the register block where reset puts it.
	Addr uint16
	// Reg is the register's offset in the chip's register block, -1 for
	// board hardware.
	Reg int
	// Value is what it reads as at power-up.
	Value uint8
}

// heldState is the Machine's record of held inputs.
type heldState struct {
	// regs are the chip's input registers read while held, by offset in
	// the register block (with a device); addrs the held addresses read
	// otherwise (board hardware, a harness model's input registers).
	regs  [devices.RegBytes / 64]atomic.Uint64
	addrs [65536 / 64]atomic.Uint64
	// regBase is where reset puts the register block, when the chip
	// profile has one (hasRegs).
	regBase uint16
	hasRegs bool
}

// markBit sets bit i of set, unless it is set.
func markBit(set []atomic.Uint64, i int) {
	w, bit := &set[i/64], uint64(1)<<(i%64)
	if w.Load()&bit == 0 {
		w.Or(bit)
	}
}

// setHeld marks, without a device, the chip profile's input registers that
// --input does not name as held inputs; NewMachine calls it once the
// inputs are marked.
func (m *Machine) setHeld(img *loader.Image) {
	chip, err := loader.FindChip(img.Chip)
	if err != nil {
		return
	}
	regs, ok := chip.Registers()
	if !ok {
		return
	}
	m.held.regBase, m.held.hasRegs = regs.Lo, true
	if m.dev != nil {
		return
	}
	for _, off := range devices.InputOffsets(chip) {
		if a := int(regs.Lo) + off; m.attr[a] == attrRAM {
			m.attr[a] = attrHeld
		}
	}
}

// heldRead records a read of register off of the device when it is held.
func (x *stepper) heldRead(b *devices.Block, off int) {
	if x.m.dev.HeldInput(b, off) {
		markBit(x.m.held.regs[:], off)
	}
}

// HeldInputs returns the inputs held constant that the firmware read in
// every transition the machine executed so far, by address.
func (m *Machine) HeldInputs() []HeldInput {
	var out []HeldInput
	for off := range devices.RegBytes {
		if m.held.regs[off/64].Load()&(1<<(off%64)) == 0 {
			continue
		}
		page := m.init[m.regPage+off/PageSize]
		out = append(out, HeldInput{Addr: m.held.regBase + uint16(off), Reg: off, Value: page.Data[off%PageSize]})
	}
	for a := range 65536 {
		if m.held.addrs[a/64].Load()&(1<<(a%64)) == 0 {
			continue
		}
		h := HeldInput{Addr: uint16(a), Reg: -1}
		if m.attr[a] == attrHeld {
			h.Reg = a - int(m.held.regBase)
			h.Value = m.init[m.pageOf[a/PageSize]].Data[a%PageSize]
		}
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
	return out
}
