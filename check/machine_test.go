package check

import (
	"slices"
	"strings"
	"testing"

	"github.com/hc11mc/hc11mc/devices"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

const (
	reachELF    = "../testdata/models/reach.elf"    // a harness model: __mc_nondet, a goal
	mutexOK     = "../testdata/models/mutex_ok.elf" // a harness model with threads, locks, critical sections
	switchesELF = "../testdata/firmware/switches.elf"
	monitorELF  = "../testdata/firmware/monitor.elf" // firmware with board hardware at 0x4000-0x4001
)

func load(t *testing.T, path string) *loader.Image {
	t.Helper()
	img, err := loader.Load(path, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// A harness model's machine: the register block stays plain memory
// (the peripherals are off by default), --input addresses and --reach
// goals are read against the image's symbols, the stack ranges and
// interrupts pass through, and thread 0 starts at the image's entry.
func TestNewMachineHarness(t *testing.T) {
	img := load(t, reachELF)
	goal, _ := img.Lookup("goal")
	stack0, _ := img.Lookup("stack0") // in RAM
	stack := sim.StackRange{Thread: -1, Lo: 0x0000, Hi: 0x00FF}
	m, err := NewMachine(img, MachineConfig{Preempt: sim.PreemptCalls, Inputs: []string{"0x1003=1, 0x2,3", "stack0"},
		Reach: []string{"goal", "0xD000"}, Stacks: []sim.StackRange{stack}, MaxRun: 7})
	if err != nil {
		t.Fatal(err)
	}
	c := m.Config
	if m.HasDevice() || c.Device != nil {
		t.Errorf("a harness model got the chip's peripherals")
	}
	if c.Preempt != sim.PreemptCalls || c.MaxRun != 7 || c.Entry != img.Entry || !slices.Equal(c.Stacks, []sim.StackRange{stack}) {
		t.Errorf("config %+v", c)
	}
	if !slices.Equal(c.Inputs[0x1003], []uint8{1, 2, 3}) || c.Inputs[stack0.Addr] != nil || len(c.Inputs) != 2 {
		t.Errorf("inputs %v, want 0x1003 = 1,2,3 and stack0 (0x%04X) every value", c.Inputs, stack0.Addr)
	}
	if _, ok := c.Inputs[stack0.Addr]; !ok {
		t.Errorf("inputs %v: no stack0", c.Inputs)
	}
	if !slices.Equal(c.Reach, []uint16{goal.Addr, 0xD000}) {
		t.Errorf("reach %04X, want goal (0x%04X) and 0xD000", c.Reach, goal.Addr)
	}

	// The environment's settings need the peripherals, which a harness
	// model turns on only when told.
	one := 1
	for name, mc := range map[string]MachineConfig{
		"--sci-input":        {SCIInput: []byte("A")},
		"--max-received":     {MaxReceived: &one},
		"--max-timer-events": {MaxTimerEvents: &one},
		"--sci-timing":       {SCIIdle: true},
		"--config":           {ConfigRegister: new(uint8)},
	} {
		_, err := NewMachine(img, mc)
		if err == nil || !strings.Contains(err.Error(), name+" needs the chip's peripherals") || !strings.Contains(err.Error(), "add --peripherals on") {
			t.Errorf("%s on a harness model: %v", name, err)
		}
	}
	m, err = NewMachine(img, MachineConfig{Peripherals: PeripheralsOn, SCIInput: []byte("A")})
	if err != nil || !m.HasDevice() {
		t.Errorf("--peripherals on: device %t, %v", err == nil && m.HasDevice(), err)
	}

	// Names that are not in the image, said with the setting as given.
	for _, tt := range []struct {
		mc   MachineConfig
		want string
	}{
		{MachineConfig{Inputs: []string{"nowhere=1"}}, `--input "nowhere=1": no symbol "nowhere" in ../testdata/models/reach.elf, and not an address`},
		{MachineConfig{Inputs: []string{"0x10=1,300"}}, `--input "0x10=1,300": "300" is not a byte value`},
		{MachineConfig{Reach: []string{"nowhere"}}, `--reach "nowhere": no symbol "nowhere"`},
		{MachineConfig{IRQs: []string{"nmi"}}, "nmi"},
	} {
		if _, err := NewMachine(img, tt.mc); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.mc, err, tt.want)
		}
	}
}

// Firmware (no harness stub): the chip's peripherals are its environment
// by default. An --input address of a register, by address or by name in
// any case, goes to the device, another address to the machine; the
// SCI's settings, the CONFIG register and the bounds reach the device;
// board hardware needs its range.
func TestNewMachineFirmware(t *testing.T) {
	img := load(t, switchesELF)
	two, five := 2, 5
	cfgReg := uint8(0x0B)
	out, err := devices.CompileMatcher("OK")
	if err != nil {
		t.Fatal(err)
	}
	mc := MachineConfig{Inputs: []string{"porte=0,1", "0x1031", "0x0042=7"}, SCIInput: []byte("AB"), SCIIdle: true,
		MaxReceived: &two, MaxTimerEvents: &five, ConfigRegister: &cfgReg, ExpectOutput: out, Dead: true}
	m, err := NewMachine(img, mc)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Config
	if !m.HasDevice() || !c.SCIWhenIdle || !c.ExpectOutput || !c.DeadStack || !c.Dead {
		t.Errorf("device %t, idle %t, output %t, dead stack %t, dead %t: want all", m.HasDevice(), c.SCIWhenIdle, c.ExpectOutput, c.DeadStack, c.Dead)
	}
	if len(c.Inputs) != 1 || !slices.Equal(c.Inputs[0x0042], []uint8{7}) {
		t.Errorf("the machine's inputs are %v, want 0x0042 alone (PORTE and ADR1 are the device's)", c.Inputs)
	}
	if b := mc.Bounds(); b != "at most 2 bytes received (--max-received), at most 5 timer events (--max-timer-events), "+
		"the SCI receives a byte only while the firmware waits with its output gone, and finishes sending one only while it waits or when it is overdue; it waits where its execution would cycle without an event (--sci-timing idle)" {
		t.Errorf("bounds %q", b)
	}
	if b := (MachineConfig{}).Bounds(); b != "" {
		t.Errorf("no bounds: %q", b)
	}

	// --peripherals off leaves the register block plain memory, where an
	// --input of a register is the machine's and a name is no address.
	m, err = NewMachine(img, MachineConfig{Peripherals: PeripheralsOff, Inputs: []string{"0x100A=3"}})
	if err != nil || m.HasDevice() || !slices.Equal(m.Config.Inputs[0x100A], []uint8{3}) {
		t.Errorf("--peripherals off: %v, device %t, inputs %v", err, err == nil && m.HasDevice(), m.Config.Inputs)
	}
	if _, err := NewMachine(img, MachineConfig{Peripherals: PeripheralsOff, Inputs: []string{"PORTE"}}); err == nil {
		t.Errorf("--peripherals off: PORTE read as a register's name")
	}
	if _, err := NewMachine(img, MachineConfig{Peripherals: PeripheralsOff, SCIInput: []byte("A")}); err == nil ||
		!strings.Contains(err.Error(), "--sci-input needs the chip's peripherals: --peripherals off") {
		t.Errorf("--sci-input with --peripherals off: %v", err)
	}
	// An --irq makes the image a harness model, as stubs do.
	if m, err := NewMachine(img, MachineConfig{IRQs: []string{"toc1"}}); err != nil || m.HasDevice() {
		t.Errorf("firmware with --irq: %v, device %t", err, err == nil && m.HasDevice())
	}
	// A profile without peripherals cannot have them on.
	flat, err := loader.Load(switchesELF, loader.Options{Chip: "flat"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewMachine(flat, MachineConfig{Peripherals: PeripheralsOn}); err == nil || !strings.Contains(err.Error(), "no on-chip peripherals") {
		t.Errorf("--peripherals on with --chip flat: %v", err)
	}

	// Board hardware: the monitor writes its LED latch at 0x4000, which
	// is unmapped unless a --device range covers it.
	mon := load(t, monitorELF)
	board := sim.BoardRange{Lo: 0x4000, Hi: 0x4001, Values: []uint8{1, 2}}
	m, err = NewMachine(mon, MachineConfig{Board: []sim.BoardRange{board}})
	if err != nil || len(m.Config.Board) != 1 || !slices.Equal(m.Config.Board[0].Values, board.Values) {
		t.Errorf("--device: %v, board %+v", err, m.Config.Board)
	}
}
