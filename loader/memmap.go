package loader

import (
	"fmt"
	"sort"
	"strings"
)

// RegionKind says what kind of memory a region is.
type RegionKind uint8

// Region kinds. RAM is readable and writable; I/O is the register block;
// EEPROM and ROM are read-only to ordinary stores.
const (
	RegionRAM RegionKind = iota
	RegionIO
	RegionEEPROM
	RegionROM
)

var regionKindNames = [...]string{"ram", "io", "eeprom", "rom"}

// String returns "ram", "io", "eeprom" or "rom".
func (k RegionKind) String() string {
	if int(k) < len(regionKindNames) {
		return regionKindNames[k]
	}
	return "region?"
}

// Region is an inclusive address range of one kind of memory.
type Region struct {
	Lo, Hi uint16 // inclusive
	Kind   RegionKind
	Name   string // where it comes from: the chip's name for it, a section name, "--ram", "--rom"
}

// String formats the region as "0x0000-0x01FF ram (ram)".
func (r Region) String() string {
	return fmt.Sprintf("0x%04X-0x%04X %s (%s)", r.Lo, r.Hi, r.Kind, r.Name)
}

// MemoryMap is the resolved memory map: regions sorted by Lo, not
// overlapping. Addresses in no region are unmapped.
type MemoryMap struct {
	Regions []Region
}

// Lookup returns the region containing addr; ok is false if addr is unmapped.
func (m *MemoryMap) Lookup(addr uint16) (Region, bool) {
	i := sort.Search(len(m.Regions), func(i int) bool { return m.Regions[i].Hi >= addr })
	if i < len(m.Regions) && m.Regions[i].Lo <= addr {
		return m.Regions[i], true
	}
	return Region{}, false
}

// String lists the regions, one per line.
func (m *MemoryMap) String() string {
	var b strings.Builder
	for _, r := range m.Regions {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// ChipProfile is the on-chip memory of one 68HC11 variant in one mode, the
// starting point of the memory map (--chip).
type ChipProfile struct {
	Name        string // the --chip value
	Description string
	Regions     []Region
	// LoadedROM makes every byte the image loads read-only even where the
	// profile has RAM (the "flat" profile: RAM wherever nothing is loaded).
	LoadedROM bool
	// Series is the register set of the chip's peripherals: "a" (A1,
	// A8), "e" (E1, E9) or "f" (F1); "" for a profile without on-chip
	// peripherals (flat).
	Series string
	// Config is the value of the CONFIG register (0x103F) the chip comes
	// with: its EEPROM cell as shipped.
	Config uint8
}

// RAM returns the on-chip RAM where it lies after reset (INIT = 0x01),
// and false for a profile without one (flat).
func (c ChipProfile) RAM() (Region, bool) { return c.region("ram", RegionRAM) }

// Registers returns the register block where it lies after reset (INIT =
// 0x01), and false for a profile without one (flat).
func (c ChipProfile) Registers() (Region, bool) { return c.region("registers", RegionIO) }

func (c ChipProfile) region(name string, k RegionKind) (Region, bool) {
	if c.Series == "" {
		return Region{}, false
	}
	for _, r := range c.Regions {
		if r.Name == name && r.Kind == k {
			return r, true
		}
	}
	return Region{}, false
}

// The CONFIG bits that shape the memory map, read from the chip's EEPROM
// cell at reset (M68HC11 Reference Manual, 3.2 EEPROM-Based CONFIG
// Register; MC68HC11F1 Technical Data, CONFIG): EEON enables the 512-byte
// EEPROM and ROMON the on-chip ROM, where the chip has them; on the F1,
// EE3–EE0 (bits 7–4) are the top four bits of the EEPROM's address, which
// then spans 0xXE00–0xXFFF. With a memory disabled its addresses are the
// external bus: unmapped unless the image loads bytes there or --ram or
// --rom maps them.
const (
	configEEON  = 0x01
	configROMON = 0x02
)

// Configured returns the profile with its on-chip memories as CONFIG
// value config sets them up at reset: the EEPROM gone with EEON clear,
// moved by EE3–EE0 on the F1; the ROM gone with ROMON clear. The value
// shipped, c.Config, leaves the profile as it is.
func (c ChipProfile) Configured(config uint8) ChipProfile {
	out := c
	out.Regions = nil
	out.Config = config
	for _, r := range c.Regions {
		switch {
		case r.Kind == RegionEEPROM && config&configEEON == 0:
			continue
		case r.Kind == RegionEEPROM && c.Series == "f":
			r.Lo = uint16(config>>4)<<12 | 0x0E00
			r.Hi = r.Lo + 0x01FF
		case r.Kind == RegionROM && r.Name == "rom" && c.Series != "" && config&configROMON == 0:
			continue
		}
		out.Regions = append(out.Regions, r)
	}
	return out
}

// FindChip returns the profile a --chip value names ("" is DefaultChip;
// "E9", "68hc11e9" and "MC68HC11E9" all name "e9").
func FindChip(name string) (ChipProfile, error) {
	c, err := findChip(name)
	c.Regions = append([]Region(nil), c.Regions...)
	return c, err
}

// DefaultChip is the profile used when Options.Chip is empty.
const DefaultChip = "e9"

// The register block of the A and E series after reset (INIT = 0x01).
var regs64 = Region{Lo: 0x1000, Hi: 0x103F, Kind: RegionIO, Name: "registers"}

// EEPROM of the A and E series.
var eepromB600 = Region{Lo: 0xB600, Hi: 0xB7FF, Kind: RegionEEPROM, Name: "eeprom"}

// The register block of the F1 after reset: 96 registers.
var regs96 = Region{Lo: 0x1000, Hi: 0x105F, Kind: RegionIO, Name: "registers"}

// CONFIG as the chips are shipped: NOSEC, NOCOP, ROMON and EEON set (no
// security, no COP, ROM and EEPROM on) on the A8 and E9; ROMON clear on
// the ROM-less A1 and E1; on the F1, EE3-EE0 place the EEPROM at 0xFE00.
const (
	configROM   = 0x0F
	configNoROM = 0x0D
	configF1    = 0xFF
)

var chips = []ChipProfile{
	{
		Name:        "e9",
		Series:      "e",
		Config:      configROM,
		Description: "MC68HC11E9, expanded mode: 512 B RAM, 64 I/O registers, 512 B EEPROM, 12 KiB ROM",
		Regions: []Region{
			{Lo: 0x0000, Hi: 0x01FF, Kind: RegionRAM, Name: "ram"},
			regs64,
			eepromB600,
			{Lo: 0xD000, Hi: 0xFFFF, Kind: RegionROM, Name: "rom"},
		},
	},
	{
		Name:        "e1",
		Series:      "e",
		Config:      configNoROM,
		Description: "MC68HC11E1 (an E9 with its ROM disabled), expanded mode: 512 B RAM, 64 I/O registers, 512 B EEPROM",
		Regions: []Region{
			{Lo: 0x0000, Hi: 0x01FF, Kind: RegionRAM, Name: "ram"},
			regs64,
			eepromB600,
		},
	},
	{
		Name:        "a8",
		Series:      "a",
		Config:      configROM,
		Description: "MC68HC11A8, expanded mode: 256 B RAM, 64 I/O registers, 512 B EEPROM, 8 KiB ROM",
		Regions: []Region{
			{Lo: 0x0000, Hi: 0x00FF, Kind: RegionRAM, Name: "ram"},
			regs64,
			eepromB600,
			{Lo: 0xE000, Hi: 0xFFFF, Kind: RegionROM, Name: "rom"},
		},
	},
	{
		Name:        "a1",
		Series:      "a",
		Config:      configNoROM,
		Description: "MC68HC11A1 (an A8 with its ROM disabled), expanded mode: 256 B RAM, 64 I/O registers, 512 B EEPROM",
		Regions: []Region{
			{Lo: 0x0000, Hi: 0x00FF, Kind: RegionRAM, Name: "ram"},
			regs64,
			eepromB600,
		},
	},
	{
		Name:        "f1",
		Series:      "f",
		Config:      configF1,
		Description: "MC68HC11F1 (no ROM), expanded mode: 1 KiB RAM, 96 I/O registers, 512 B EEPROM at 0xFE00",
		Regions: []Region{
			{Lo: 0x0000, Hi: 0x03FF, Kind: RegionRAM, Name: "ram"},
			regs96,
			{Lo: 0xFE00, Hi: 0xFFFF, Kind: RegionEEPROM, Name: "eeprom"},
		},
	},
	{
		Name:        "flat",
		Description: "no particular chip: everything the image loads is ROM, all other memory is RAM",
		Regions: []Region{
			{Lo: 0x0000, Hi: 0xFFFF, Kind: RegionRAM, Name: "ram"},
		},
		LoadedROM: true,
	},
}

// Chips returns the chip profiles --chip accepts, the default first.
func Chips() []ChipProfile {
	out := make([]ChipProfile, len(chips))
	for i, c := range chips {
		c.Regions = append([]Region(nil), c.Regions...)
		out[i] = c
	}
	return out
}

// findChip resolves a --chip value; "E9", "68hc11e9" and "MC68HC11E9" all
// name the profile "e9".
func findChip(name string) (ChipProfile, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		n = DefaultChip
	}
	n = strings.TrimPrefix(n, "mc")
	n = strings.TrimPrefix(n, "68hc11")
	for _, c := range chips {
		if c.Name == n {
			return c, nil
		}
	}
	names := make([]string, len(chips))
	for i, c := range chips {
		names[i] = c.Name
	}
	return ChipProfile{}, fmt.Errorf("unknown chip %q: known profiles are %s", name, strings.Join(names, ", "))
}

// area is a named address range used while building the map; end is
// exclusive so that a range can reach 0xFFFF.
type area struct {
	lo, end int
	name    string
}

// mapPainter resolves the memory map by painting layers over a per-byte
// array, later layers winning. A layer only changes a byte whose kind it
// changes, so the chip's names survive where a layer agrees with the chip.
type mapPainter struct {
	cell   [65536]int32 // index into layers, -1 = unmapped
	layers []Region     // only Kind and Name are used
	ids    map[Region]int32
}

func newMapPainter() *mapPainter {
	p := &mapPainter{ids: make(map[Region]int32)}
	for i := range p.cell {
		p.cell[i] = -1
	}
	return p
}

func (p *mapPainter) kind(a int) (RegionKind, bool) {
	if c := p.cell[a]; c >= 0 {
		return p.layers[c].Kind, true
	}
	return 0, false
}

// paint sets [lo, end) to kind, where keep does not hold for the byte's
// current kind.
func (p *mapPainter) paint(lo, end int, kind RegionKind, name string, keep func(cur RegionKind, mapped bool) bool) {
	id := int32(-1)
	for a := lo; a < end; a++ {
		cur, mapped := p.kind(a)
		if mapped && cur == kind {
			continue
		}
		if keep != nil && keep(cur, mapped) {
			continue
		}
		if id < 0 {
			id = p.layer(kind, name)
		}
		p.cell[a] = id
	}
}

// layer returns the index of the layer (kind, name), adding it if new.
func (p *mapPainter) layer(kind RegionKind, name string) int32 {
	key := Region{Kind: kind, Name: name}
	if id, ok := p.ids[key]; ok {
		return id
	}
	id := int32(len(p.layers))
	p.layers = append(p.layers, key)
	p.ids[key] = id
	return id
}

func (p *mapPainter) regions() []Region {
	var out []Region
	for a := 0; a < len(p.cell); {
		c := p.cell[a]
		b := a
		for b+1 < len(p.cell) && p.cell[b+1] == c {
			b++
		}
		if c >= 0 {
			l := p.layers[c]
			out = append(out, Region{Lo: uint16(a), Hi: uint16(b), Kind: l.Kind, Name: l.Name})
		}
		a = b + 1
	}
	return out
}

// buildMap resolves the memory map: the chip profile, then every loaded byte
// outside RAM becomes ROM, then writable sections become RAM, then --ram and
// then --rom ranges.
func buildMap(chip ChipProfile, segs []Segment, writable []area, ram, rom []Range) MemoryMap {
	p := newMapPainter()
	for _, r := range chip.Regions {
		p.paint(int(r.Lo), int(r.Hi)+1, r.Kind, r.Name, nil)
	}
	keepRAM := func(cur RegionKind, mapped bool) bool {
		return mapped && cur == RegionRAM && !chip.LoadedROM
	}
	for _, s := range segs {
		name := s.Name
		if name == "" {
			name = "image"
		}
		p.paint(int(s.Addr), s.End(), RegionROM, name, keepRAM)
	}
	for _, w := range writable {
		p.paint(w.lo, w.end, RegionRAM, w.name, nil)
	}
	for _, r := range ram {
		p.paint(int(r.Lo), int(r.Hi)+1, RegionRAM, "--ram", nil)
	}
	for _, r := range rom {
		p.paint(int(r.Lo), int(r.Hi)+1, RegionROM, "--rom", nil)
	}
	return MemoryMap{Regions: p.regions()}
}
