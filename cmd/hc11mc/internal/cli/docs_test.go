package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// cliDoc is the command-line reference, which must name every command,
// every flag and every field of check's JSON result.
const cliDoc = "../../../../docs/cli.md"

func readCLIDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(cliDoc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every command and every flag a user can see in --help is in the
// reference, as `hc11mc COMMAND` (or a heading) and as --flag.
func TestReferenceNamesEveryFlag(t *testing.T) {
	doc := readCLIDoc(t)
	flag := regexp.MustCompile(`--[a-z0-9][a-z0-9-]*`)
	documented := map[string]bool{}
	for _, f := range flag.FindAllString(doc, -1) {
		documented[f] = true
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			path := strings.TrimPrefix(sub.CommandPath(), "hc11mc ")
			if !strings.Contains(doc, "hc11mc "+path) && !strings.Contains(doc, "## "+path) {
				t.Errorf("%s does not name the command %q", cliDoc, path)
			}
			sub.LocalFlags().VisitAll(func(f *pflag.Flag) {
				if f.Hidden || f.Name == "help" {
					return
				}
				if !documented["--"+f.Name] {
					t.Errorf("%s: no --%s (a flag of %s)", cliDoc, f.Name, path)
				}
			})
			walk(sub)
		}
	}
	walk(newRoot(io.Discard, io.Discard))
}

// jsonKeys collects the keys of a JSON value, nested ones included, as
// "a", "a.b", "a[].b"; the loading flags a swarm member records ("load")
// are check's flags, not fields of their own.
func jsonKeys(v any, prefix string, into map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, sub := range v {
			into[prefix+k] = true
			if k != "load" {
				jsonKeys(sub, prefix+k+".", into)
			}
		}
	case []any:
		for _, sub := range v {
			jsonKeys(sub, strings.TrimSuffix(prefix, ".")+"[].", into)
		}
	}
}

// Every field check --json prints, on a range of runs that between them
// produce every kind of result, is named in the reference.
func TestReferenceNamesEveryJSONField(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the checker a dozen times")
	}
	doc := readCLIDoc(t)
	const models = "../../../../testdata/models/"
	runs := [][]string{
		{models + "mutex_bad.elf"}, // the swarm: member, members, violation
		{models + "mutex_bad.elf", "--swarm-member", "0/2", "--trace", filepath.Join(t.TempDir(), "t.json")},
		{models + "mutex_ok.elf", "--search", "bfs"},  // verified, reductions
		{models + "port_poll.elf", "--search", "bfs"}, // inputs held constant
		{models + "illop_trap.elf", "--search", "bfs", "--all", "--ignore", "illegal-opcode"},
		{models + "symbolic/secret4.elf"},                          // the swarm racing HMC, which decides
		{models + "symbolic/secret4.elf", "--swarm-member", "1/3"}, // the symbolic member alone
		{models + "symbolic/crc8.elf", "--engine", "hmc"},
		{models + "symbolic/torn16.elf", "--engine", "auto"},
		{"../../../../testdata/bench/philo_big.elf", "--search", "dfs", "--workers", "1", "--hash-compact", "--max-states", "2000"},
		{"../../../../testdata/bench/philo_big.elf", "--search", "bfs", "--reduce", "none", "--workers", "1", "--all", "--max-states", "2000"}, // proved.depth
		{"../../../../testdata/firmware/serial_cmd_fixed.elf", "--sci-input", `\r`, "--max-timer-events", "0", "--max-received", "1", "--search", "dfs"},
		{"../../../../testdata/timing/latency.elf", "--irq", "toc1", "--report-timing", "--search", "bfs"},      // timing
		{"../../../../testdata/timing/latency.elf", "--irq", "toc1", "--latency", "toc1:39", "--search", "bfs"}, // its interval
	}
	keys := map[string]bool{}
	for _, args := range runs {
		args = append([]string{"check"}, append(args, "--json", "-q")...)
		var out, errb bytes.Buffer
		if code := Main(args, nil, &out, &errb); code == ExitUsage || code == ExitInternal {
			t.Fatalf("hc11mc %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		var v any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("hc11mc %s: %v", strings.Join(args, " "), err)
		}
		jsonKeys(v, "", keys)
	}
	for _, want := range []string{"verdict", "stats.states_stored", "violation.kind", "members[].member", "inputs_held[].addr",
		"hmc.solver_queries", "auto.handed", "bounds", "waits", "omission_probability", "settings", "reductions",
		"timing[].path[].pc", "violation.interval.cycles", "proved.depth", "proved.no_depth", "proved.inputs", "frontier[].differ", "procedures[].run"} {
		if !keys[want] {
			t.Errorf("no run printed %s: the runs no longer cover what they should", want)
		}
	}
	var names []string
	for k := range keys {
		name := k[strings.LastIndexAny(k, ".]")+1:]
		if !strings.Contains(doc, "`"+name+"`") && !strings.Contains(doc, `"`+name+`"`) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		t.Errorf("%s: check --json prints %s, which the reference does not name", cliDoc, k)
	}
}
