package plan

import (
	"strings"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

const (
	assertOK = "../testdata/models/assert_ok.elf"           // draws no nondeterministic data
	secret4  = "../testdata/models/symbolic/secret4.elf"    // calls __mc_nondet
	serialFW = "../testdata/firmware/serial_cmd_fixed.elf"  // real firmware: the chip's peripherals
	portPoll = "../testdata/models/port_poll.elf"           // reads PORTE: data with --input 0x100A
	_        = "../testdata/models/symbolic/crc8_table.elf" // (see the symbolic member's tests in portfolio)
)

func load(t *testing.T, path string) *loader.Image {
	t.Helper()
	img, err := loader.Load(path, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func config() check.Config {
	return check.Config{Machine: check.MachineConfig{Preempt: sim.PreemptEvery}, Seed: 1, K: 1, Timeout: time.Minute}
}

// The search a check runs, as check --help and docs/cli.md say: the
// swarm by default; best-first search when a flag of one search is given
// without --search (--heuristic, --k, --goal-mem, --all, --save-frontier,
// --resume); under --engine auto breadth-first search, best-first when a
// heuristic's flag names it; --search wins over all of them.
func TestSearchOrder(t *testing.T) {
	auto := Request{Engine: check.EngineAuto, EngineGiven: true}
	for _, c := range []struct {
		name string
		req  Request
		want string
	}{
		{"default", Request{}, "swarm"},
		{"--engine explicit", Request{EngineGiven: true}, "swarm"},
		{"--heuristic", Request{Guided: true}, "best"},
		{"--save-frontier", Request{OneSearch: true}, "best"},
		{"--search dfs --heuristic fsm", Request{Search: "dfs", Guided: true}, "dfs"},
		{"--engine auto", auto, "bfs"},
		{"--engine auto --heuristic", Request{Engine: check.EngineAuto, EngineGiven: true, Guided: true}, "best"},
		{"--engine auto --search dfs", Request{Engine: check.EngineAuto, EngineGiven: true, Search: "dfs"}, "dfs"},
	} {
		if got := c.req.SearchOrder(); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// The engine Choose builds for each --engine and --search, and the
// workers of one search: --workers for bfs and dfs, one for the others and
// for a search that saves its frontier, with a note when --workers meant
// more.
func TestChooseEngine(t *testing.T) {
	img := load(t, assertOK)
	for _, c := range []struct {
		name    string
		req     Request
		kind    Kind
		workers int
		note    bool
	}{
		{"--search bfs --workers 3", Request{Search: "bfs", Workers: 3}, KindExplicit, 3, false},
		{"--search best --workers 3", Request{Search: "best", Workers: 3}, KindExplicit, 1, false},
		{"--search dfs --save-frontier", Request{Search: "dfs", Workers: 3, SaveTo: t.TempDir() + "/f"}, KindExplicit, 1, true},
		{"--engine auto", Request{Engine: check.EngineAuto, EngineGiven: true, Workers: 3}, KindAuto, 0, false},
		{"--engine hmc", Request{Engine: check.EngineHMC, EngineGiven: true, Workers: 3}, KindHMC, 0, false},
		{"default", Request{Workers: 3}, KindSwarm, 0, false},
	} {
		c.req.Config = config()
		p, err := Choose(img, c.req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.Kind != c.kind || p.Engine == nil || p.Check == nil {
			t.Fatalf("%s: kind %d, want %d", c.name, p.Kind, c.kind)
		}
		switch c.kind {
		case KindExplicit:
			if p.Explicit.Options.Workers != c.workers || (p.WorkersNote != "") != c.note || p.Explicit.Options.Strategy.String() != c.req.Search {
				t.Errorf("%s: search %s, %d workers, note %q", c.name, p.Explicit.Options.Strategy, p.Explicit.Options.Workers, p.WorkersNote)
			}
		case KindAuto:
			if p.Auto == nil || p.Check.Config.Strategy.String() != "bfs" || p.Check.Config.Engine != check.EngineAuto {
				t.Errorf("%s: %+v", c.name, p.Check.Config)
			}
		case KindHMC:
			if p.Symbolic == nil || p.Check.Config.Engine != check.EngineHMC {
				t.Errorf("%s: %+v", c.name, p.Check.Config)
			}
		}
	}
	if _, err := Choose(load(t, serialFW), Request{Config: config(), Engine: check.EngineHMC, EngineGiven: true}); err == nil ||
		!strings.HasPrefix(err.Error(), "--engine hmc: ") {
		t.Errorf("--engine hmc on the chip's peripherals: %v, want refused", err)
	}
}

// The swarm's size and its symbolic member, as docs/cli.md says: where
// the firmware draws nondeterministic data (it calls __mc_nondet, or
// --input names an input) and runs without the chip's peripherals, the
// symbolic engine races as member 1, one member more than --workers when
// --workers is not given; on firmware (the chip's peripherals as its
// environment, no --clock or --sci-timing given) the board member races
// as member 1 instead, one member more too; --engine explicit runs the
// explicit searches alone; --swarm-member I/N builds member I of N alone, the symbolic
// member when I is 1.
func TestChooseSwarm(t *testing.T) {
	input := config()
	input.Machine.Inputs = []string{"0x100A"}
	for _, c := range []struct {
		name    string
		path    string
		cfg     check.Config
		req     Request
		size    int
		members []string
	}{
		{"nondet data", secret4, config(), Request{Workers: 2}, 3, []string{"0/3 (best+efsm k=1)", "1/3 (hmc)", "2/3 (dfs)"}},
		{"nondet data, --workers 2", secret4, config(), Request{Workers: 2, WorkersGiven: true}, 2, []string{"0/2 (best+efsm k=1)", "1/2 (hmc)"}},
		{"--engine explicit", secret4, config(), Request{Workers: 2, EngineGiven: true}, 2, []string{"0/2 (best+efsm k=1)", "1/2 (dfs)"}},
		{"no data", assertOK, config(), Request{Workers: 2}, 2, []string{"0/2 (best+efsm k=1)", "1/2 (dfs)"}},
		{"--input", portPoll, input, Request{Workers: 2}, 3, []string{"0/3 (best+efsm k=1)", "1/3 (hmc)", "2/3 (dfs)"}},
		{"the chip's peripherals", serialFW, check.Config{Seed: 1, K: 1}, Request{Workers: 2}, 3, []string{"0/3 (best+fsm)", "1/3 (board: bfs, exact clock, each byte at the first wait)", "2/3 (dfs)"}},
		{"the chip's peripherals, --clock exact", serialFW, check.Config{Seed: 1, K: 1, Machine: check.MachineConfig{Clock: check.ClockExact}}, Request{Workers: 2}, 2, nil},
		{"--swarm-member 1/4", secret4, config(), Request{Workers: 2, Member: "1/4"}, 4, []string{"1/4 (hmc)"}},
		{"--swarm-member 2/4", secret4, config(), Request{Workers: 2, Member: "2/4"}, 4, []string{"2/4 (dfs)"}},
		{"--swarm-member 1/4, no data", assertOK, config(), Request{Workers: 2, Member: "1/4"}, 4, []string{"1/4 (dfs)"}},
	} {
		c.req.Config = c.cfg
		p, err := Choose(load(t, c.path), c.req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.Swarm == nil || p.Size != c.size {
			t.Fatalf("%s: size %d, want %d", c.name, p.Size, c.size)
		}
		var got []string
		for _, r := range p.Swarm.Runs {
			got = append(got, r.Member.String())
			if r.Member.Engine != "" && strings.Join(r.Check.Properties.Reductions, ",") == "dead" {
				t.Errorf("%s: the symbolic member with dead-data elimination", c.name)
			}
		}
		if c.members == nil {
			for _, r := range p.Swarm.Runs {
				if r.Member.Engine != "" {
					t.Errorf("%s: a symbolic member on the chip's peripherals: %v", c.name, got)
				}
			}
		} else if strings.Join(got, ", ") != strings.Join(c.members, ", ") {
			t.Errorf("%s: members %v, want %v", c.name, got, c.members)
		}
		if want := KindSwarm; c.req.Member != "" && p.Kind != KindMember || c.req.Member == "" && p.Kind != want {
			t.Errorf("%s: kind %d", c.name, p.Kind)
		}
	}
	if _, err := Choose(load(t, assertOK), Request{Config: config(), Member: "4/4"}); err == nil {
		t.Error("--swarm-member 4/4: no error")
	}
}
