package check

import (
	"github.com/hc11mc/hc11mc/settings"
	"github.com/hc11mc/hc11mc/verdict"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/sim"
)

func TestParseAlphabet(t *testing.T) {
	for in, want := range map[string]string{
		`A-C,0-1,\r`: "ABC01\r",
		`a,b,a`:      "ab",
		`\,,-`:       ",-",
		`\x41-\x42`:  "AB",
		`xyz`:        "xyz",
	} {
		got, err := ParseAlphabet(in)
		if err != nil || string(got) != want {
			t.Errorf("ParseAlphabet(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`Z-A`, `\`, `\xZZ`, `,`, `\q`, `A,\9`} {
		if _, err := ParseAlphabet(bad); err == nil {
			t.Errorf("ParseAlphabet(%q) accepted", bad)
		}
	}
	if b, err := ParseBytes(`help\r\x07\b\e\\\-`); err != nil || string(b) != "help\r\x07\b\x1b\\-" {
		t.Errorf("ParseBytes: %q %v", b, err)
	}
	// An unknown escape is refused, naming the escapes there are, not
	// read as the letter.
	if _, err := ParseBytes(`MD\qE000`); err == nil || !strings.Contains(err.Error(), `unknown escape \q`) {
		t.Errorf("ParseBytes of an unknown escape: %v", err)
	}
}

// The shipped boards: Motorola's EVB and EVBU, each with the E9, the
// flip-flop BUFFALO writes at 0x4000 and the ACIA range it probes.
func TestShippedBoards(t *testing.T) {
	for _, name := range []string{"evb", "evbu"} {
		b, err := ReadBoard(filepath.Join("..", "testdata", "boards", name+".board"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b.Chip != "e9" || !slices.Equal(b.Device, []string{"0x4000-0x4000", "0x9800-0x9801"}) || len(b.RAM) != 0 || len(b.ROM) != 0 {
			t.Errorf("%s: chip %q, devices %v, ram %v, rom %v", name, b.Chip, b.Device, b.RAM, b.ROM)
		}
	}
}

// A board's ranges come before the command line's, its chip must agree
// with a chip given there, and its devices join the --device list only
// where the command takes one.
func TestBoardApply(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.board")
	os.WriteFile(path, []byte("--chip e9\nram=0x2000-0x2FFF  # a comment\n--device 0x4000-0x4000=1,2\n"), 0o644)
	b, err := ReadBoard(path)
	if err != nil || b.ChipLine != 1 {
		t.Fatalf("%+v, %v", b, err)
	}
	load := settings.LoadSpec{RAM: []string{"0x3000-0x3FFF"}}
	devs := []string{"0x5000-0x5000"}
	if err := b.Apply(&load, &devs); err != nil {
		t.Fatal(err)
	}
	if load.Chip != "e9" || !slices.Equal(load.RAM, []string{"0x2000-0x2FFF", "0x3000-0x3FFF"}) || !slices.Equal(devs, []string{"0x4000-0x4000=1,2", "0x5000-0x5000"}) {
		t.Errorf("applied: %+v, devices %v", load, devs)
	}
	load = settings.LoadSpec{Chip: "a8"}
	if err := b.Apply(&load, nil); err == nil || !strings.Contains(err.Error(), "--chip a8 disagrees with the board ("+path+":1: --chip e9)") {
		t.Errorf("another chip: %v", err)
	}
}

// The machine settings as text: each read into its typed setting, each
// refused with its flag's name.
func TestMachineOf(t *testing.T) {
	mc, err := MachineOf(settings.MachineSpec{Preempt: "calls", Stack: []string{"1:0x0100-0x01FF", "0x0080-0x00FF"}, Peripherals: "on",
		Device: []string{"0x4000-0x4001=0x5A"}, SCITiming: "idle", SCIInput: "A-C", Config: "0x0B", MaxReceived: 3, ExpectOutput: "ok"})
	if err != nil {
		t.Fatal(err)
	}
	if mc.Preempt != sim.PreemptCalls || len(mc.Stacks) != 2 || mc.Stacks[0].Thread != 1 || mc.Stacks[1].Thread != -1 || mc.Stacks[1].Lo != 0x80 ||
		mc.Peripherals != PeripheralsOn || len(mc.Board) != 1 || !slices.Equal(mc.Board[0].Values, []uint8{0x5A}) || !mc.SCIIdle ||
		string(mc.SCIInput) != "ABC" || *mc.ConfigRegister != 0x0B || *mc.MaxReceived != 2 || mc.MaxTimerEvents != nil || mc.ExpectOutput == nil {
		t.Errorf("%+v", mc)
	}
	for _, c := range []struct {
		spec settings.MachineSpec
		want string
	}{
		{settings.MachineSpec{Preempt: "often"}, "often"},
		{settings.MachineSpec{Preempt: "every", Stack: []string{"x:0-1"}}, `--stack "x:0-1": "x" is not a thread number`},
		{settings.MachineSpec{Preempt: "every", Peripherals: "maybe"}, `--peripherals "maybe"`},
		{settings.MachineSpec{Preempt: "every", SCITiming: "slow"}, `--sci-timing "slow"`},
		{settings.MachineSpec{Preempt: "every", Config: "0x100"}, `--config "0x100": not a byte value`},
		{settings.MachineSpec{Preempt: "every", Device: []string{"0x10-0x11=300"}}, `--device "0x10-0x11=300": "300" is not a byte value`},
	} {
		if _, err := MachineOf(c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.spec, err, c.want)
		}
	}
}

func TestParseReduce(t *testing.T) {
	for in, want := range map[string][2]bool{"none": {}, "por": {true, false}, "dead": {false, true}, "por,dead": {true, true}, "dead, por": {true, true}} {
		por, dead, err := ParseReduce(in)
		if err != nil || por != want[0] || dead != want[1] {
			t.Errorf("ParseReduce(%q) = %t, %t, %v", in, por, dead, err)
		}
	}
	if _, _, err := ParseReduce("por,fast"); err == nil || !strings.Contains(err.Error(), `--reduce "fast"`) {
		t.Errorf("por,fast: %v", err)
	}
}

// A memory limit is printed by its size, and as the default when it was
// (docs/cli.md: "--max-memory SIZE" and its default); other stops pass.
func TestNamedStop(t *testing.T) {
	c := Config{MaxMemory: 3 << 29}
	if got := c.NamedStop(verdict.MaxMemory(3 << 29)).String(); got != "--max-memory 1.5 GiB" {
		t.Errorf("given: %q", got)
	}
	c.MaxMemoryDefault = "75% of this machine's memory"
	if got := c.NamedStop(verdict.MaxMemory(3 << 29)).String(); got != "--max-memory 1.5 GiB, the default: 75% of this machine's memory (set --max-memory SIZE, or none, to change it)" {
		t.Errorf("default: %q", got)
	}
	if got := c.NamedStop(verdict.MaxStates(10)).String(); got != "--max-states 10" {
		t.Errorf("another limit: %q", got)
	}
	// A timeout is the one given, not what was left of it when an engine
	// went on after a restart or a hand-over.
	c.Timeout = 2 * time.Minute
	for _, e := range []struct {
		stop verdict.Stop
		want string
	}{
		{verdict.Timeout(2*time.Minute - 207929*time.Nanosecond), "--timeout 2m0s"},
		{verdict.Timeout(299813764 * time.Nanosecond).In("in HMC's part (4 handed)"), "--timeout 2m0s in HMC's part (4 handed)"},
		{verdict.Timeout(2 * time.Minute), "--timeout 2m0s"},
	} {
		if got := c.NamedStop(e.stop).String(); got != e.want {
			t.Errorf("%v: %q, want %q", e.stop, got, e.want)
		}
	}
}
