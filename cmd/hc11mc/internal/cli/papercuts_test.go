package cli

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hc11mc/hc11mc/portfolio"
	"github.com/hc11mc/hc11mc/search"
)

// An address beyond 64 KiB is out of range, not a missing symbol: the
// message says the range.
func TestInputOutOfRange(t *testing.T) {
	for _, in := range []string{"0x10000", "65536=1", "$10000=0,1"} {
		_, diag := runSplit(t, ExitUsage, "check", "../../../../testdata/models/mutex_ok.elf", "--input", in, "-q")
		addr, _, _ := strings.Cut(in, "=")
		if want := fmt.Sprintf("address %s is out of range 0x0000–0xFFFF", addr); !strings.Contains(diag, want) || strings.Contains(diag, "no symbol") {
			t.Errorf("--input %s: %q, want it to say %q", in, diag, want)
		}
	}
}

// More --workers than processors is said, for the swarm and for one
// search; as many as there are is not.
func TestWorkersAboveProcessors(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	more := fmt.Sprint(procs + 1)
	_, diag := runSplit(t, ExitVerified, "check", "../../../../testdata/models/mutex_ok.elf", "--workers", more, "-q")
	if want := fmt.Sprintf("hc11mc: warning: --workers %s on %d processor", more, procs); !strings.Contains(diag, want) || !strings.Contains(diag, "visited set of its own") {
		t.Errorf("a swarm of %s on %d processors: %q", more, procs, diag)
	}
	_, diag = runSplit(t, ExitVerified, "check", "../../../../testdata/models/mutex_ok.elf", "--search", "bfs", "--workers", more, "-q")
	if !strings.Contains(diag, "--workers "+more) || !strings.Contains(diag, "does not run faster") {
		t.Errorf("bfs with %s workers on %d processors: %q", more, procs, diag)
	}
	if _, diag = runSplit(t, ExitVerified, "check", "../../../../testdata/models/mutex_ok.elf", "--workers", fmt.Sprint(procs), "-q"); strings.Contains(diag, "warning") {
		t.Errorf("--workers %d on %d processors: %q", procs, procs, diag)
	}
}

// A --timeout is named as given, also when the symbolic part of --engine
// auto ran on what the explicit part left of it (it used to say
// "--timeout 299.813764ms in HMC's part").
func TestTimeoutNamedAsGiven(t *testing.T) {
	out := run(t, ExitIncomplete, "check", "../../../../testdata/models/symbolic/torn16.elf", "--engine", "auto", "--max-branch", "300", "--timeout", "300ms", "-q")
	if l := lineWith(out, "incomplete ("); !strings.Contains(l, "stopped by --timeout 300ms") {
		t.Errorf("the verdict line %q does not name --timeout 300ms", l)
	}
}

// The progress line says what docs/cli.md promises of it (states,
// states/s, depth, frontier, memory), for one search and for a swarm.
func TestProgressLines(t *testing.T) {
	doc := readCLIDoc(t)
	i := strings.Index(doc, "A progress line (")
	if i < 0 {
		t.Fatal("docs/cli.md does not describe the progress line")
	}
	promised, _, _ := strings.Cut(doc[i+len("A progress line ("):], ")")
	sec := 2 * time.Second
	lines := map[string]string{
		"one search": searchProgressLine(search.Progress{Stored: 1000, Depth: 17, Frontier: 99, Memory: 5 << 20, Elapsed: sec}),
		"a swarm":    swarmProgressLine(portfolio.Progress{Stored: 1000, Depth: 17, Frontier: 99, Running: 2, Memory: 5 << 20, Elapsed: sec}),
	}
	shown := map[string]string{"states": "1000 states", "states/s": "(500/s)", "depth": "depth 17", "frontier": "frontier 99", "memory": "5 MiB"}
	for _, item := range strings.Split(strings.Join(strings.Fields(promised), " "), ", ") {
		want, ok := shown[item]
		if !ok {
			t.Errorf("docs/cli.md promises %q in the progress line: the test does not know it", item)
			continue
		}
		for who, l := range lines {
			if !strings.Contains(l, want) {
				t.Errorf("the progress line of %s, %q, lacks the %s (%q)", who, l, item, want)
			}
		}
	}
}

// The README's example of check's output is what check prints: the
// violation, every line of the counterexample with its cycle column, the
// threads at the violation and the compiler-style lines (member 0/2
// alone repeats the README's winner; the counts that depend on the race
// are left out).
func TestReadmeExample(t *testing.T) {
	b, err := os.ReadFile("../../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i := strings.Index(readme, "exits with 1 and prints")
	if i < 0 {
		t.Fatal("README.md: no example of check's output")
	}
	block := readme[i:]
	block = block[strings.Index(block, "```\n")+4:]
	block = block[:strings.Index(block, "```")]
	out := run(t, ExitViolation, "check", "../../../../testdata/models/mutex_bad.elf", "--swarm-member", "0/2", "-q")
	out = strings.ReplaceAll(out, "../../../../testdata/", "testdata/")
	compared := regexp.MustCompile(`^(violation: |  thread \d|counterexample: |(->|  ) +\d+  cyc |threads at the violation:|testdata/\S+:\d+:\d+: )`)
	pick := func(text string) []string {
		var ls []string
		for _, l := range strings.Split(text, "\n") {
			if compared.MatchString(l) {
				ls = append(ls, l)
			}
		}
		return ls
	}
	want, got := pick(block), pick(out)
	if len(want) < 20 {
		t.Fatalf("README.md's example has %d lines of the counterexample and the findings: %q", len(want), want)
	}
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("README.md's example:\n%s\ncheck prints:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

// A package built with cgo needs a C compiler: the README's set-up says
// so where go list finds one.
func TestReadmeNamesCCompiler(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", "./...")
	cmd.Dir = "../../../.."
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	cgo := strings.Fields(string(out))
	if len(cgo) == 0 {
		t.Skip("no package uses cgo")
	}
	b, err := os.ReadFile("../../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	setup, _, _ := strings.Cut(string(b)[strings.Index(string(b), "## Set-up"):], "The two commands")
	if !strings.Contains(setup, "C compiler") {
		t.Errorf("%s use cgo, and the README's set-up does not name a C compiler:\n%s", strings.Join(cgo, ", "), setup)
	}
}
