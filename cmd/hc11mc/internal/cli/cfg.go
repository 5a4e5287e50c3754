package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/hc11mc/hc11mc/check"
	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/icfg"
)

type cfgOptions struct {
	load   loadFlags
	k      int
	output string
	target string
	svg    string
}

func newCfg(stdout io.Writer) *cobra.Command {
	o := &cfgOptions{}
	c := &cobra.Command{
		Use:   "cfg FIRMWARE",
		Short: "show the procedures, the ICFG and the AICFG(k) the heuristics use",
		Long: `cfg recovers the control flow of the image by recursive descent from the reset
vector, every installed interrupt vector, every thread entry passed to
__mc_thread_create and every function symbol, and prints the procedures, the
call graph, the sizes of the ICFG and of AICFG(k), and the indirect jumps and
calls: resolved through a jump table, or connected to every procedure entry.

With --target every vertex is labelled with its distance to the target:
the number of instructions executed until the PC equals it. A target is a
symbol; else one of the properties assert, error, mutex, deadlock (the
calls of its harness stub, and for deadlock the WAI instructions too); else
the address a symbol starts at. estimate --target takes the same.

Output: text (default), json, or dot for Graphviz; --svg FILE renders the
DOT with Graphviz's dot. Because --format names the image format on every
command, cfg also accepts --format text|json|dot for its output.`,
		Example: "  hc11mc cfg testdata/examples/philosophers.elf\n  hc11mc cfg fw.elf --k 2 --output dot --target __mc_error > cfg.dot\n  hc11mc cfg fw.elf --target deadlock --svg cfg.svg",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch o.load.Format {
			case "text", "json", "dot":
				o.output, o.load.Format = o.load.Format, "auto"
			}
			return runCfg(o, args[0], stdout)
		},
	}
	o.load.register(c.Flags())
	countVar(c.Flags(), &o.k, "k", 0, 0, icfg.MaxK, fmt.Sprintf("calling-context bound of the AICFG (0 = the ICFG, at most %d)", icfg.MaxK))
	c.Flags().StringVarP(&o.output, "output", "o", "text", "text, json or dot")
	c.Flags().StringVar(&o.target, "target", "", "label vertices with their distance to the target: "+check.TargetForms)
	c.Flags().StringVar(&o.svg, "svg", "", "render the graph as SVG into FILE (needs Graphviz's dot)")
	return c
}

// cfgTargets resolves --target to addresses: a property's targets or one
// symbol's (see check.ParseTarget).
func cfgTargets(prog *icfg.Program, target string) ([]uint16, string, error) {
	p, sym, err := check.ParseTarget(prog.Image, target)
	if err != nil {
		return nil, "", err
	}
	t, err := heuristics.FindTargets(prog, p, sym)
	if err != nil {
		return nil, "", usagef("--target %s: %v", target, err)
	}
	return t.Addrs, t.Desc, nil
}

func runCfg(o *cfgOptions, path string, stdout io.Writer) error {
	if o.output != "text" && o.output != "json" && o.output != "dot" {
		return usagef("--output %q: use text, json or dot", o.output)
	}
	if o.k < 0 || o.k > icfg.MaxK {
		return usagef("--k %d: the context bound must be 0..%d", o.k, icfg.MaxK)
	}
	img, err := o.load.load(path, "", true)
	if err != nil {
		return err
	}
	prog, err := icfg.Build(img, icfg.Options{})
	if err != nil {
		return usagef("%s: %v", path, err)
	}
	g0 := prog.ICFG()
	graphs := []*icfg.Graph{g0}
	g := g0
	if o.k > 0 {
		if g, err = prog.AICFG(o.k, icfg.GraphOptions{}); err != nil {
			return usagef("%v", err)
		}
		graphs = append(graphs, g)
	}
	var dist []int32
	var desc string
	if o.target != "" {
		var addrs []uint16
		if addrs, desc, err = cfgTargets(prog, o.target); err != nil {
			return err
		}
		dist = g.DistancesTo(addrs)
	}
	if o.svg != "" {
		var b bytes.Buffer
		if err := g.WriteDOT(&b, icfg.DOTOptions{Dist: dist}); err != nil {
			return err
		}
		if err := renderSVG(b.Bytes(), o.svg); err != nil {
			return err
		}
	}
	switch o.output {
	case "dot":
		return g.WriteDOT(stdout, icfg.DOTOptions{Dist: dist})
	case "json":
		r := prog.Report(graphs...)
		if dist != nil {
			r.Notes = append(r.Notes, "distances to "+desc+": see --output dot or text")
		}
		return r.WriteJSON(stdout)
	}
	if err := prog.Report(graphs...).WriteText(stdout); err != nil {
		return err
	}
	if dist != nil {
		fmt.Fprintf(stdout, "\ndistance to %s (instructions), per vertex of the %s:\n", desc, graphName(g))
		for v := range g.Verts {
			in := g.Instr(int32(v))
			d := "inf"
			if dist[v] < icfg.Inf {
				d = fmt.Sprint(dist[v])
			}
			ctx := ""
			for _, r := range g.Verts[v].Returns() {
				ctx += fmt.Sprintf(" ↩%04X", r)
			}
			fmt.Fprintf(stdout, "  %5s  %04X%-12s %s\n", d, in.Addr, ctx, prog.Disasm(in.Addr))
		}
	}
	return nil
}

func graphName(g *icfg.Graph) string {
	if g.K == 0 {
		return "ICFG"
	}
	return fmt.Sprintf("AICFG(%d)", g.K)
}

// renderSVG runs Graphviz's dot on a DOT text.
func renderSVG(dot []byte, out string) error {
	path, err := exec.LookPath("dot")
	if err != nil {
		return usagef("--svg needs Graphviz's dot (Debian: apt-get install graphviz)")
	}
	cmd := exec.Command(path, "-Tsvg", "-o", out)
	cmd.Stdin = bytes.NewReader(dot)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return usagef("dot failed: %s", bytes.TrimSpace(stderr.Bytes()))
		}
		return usagef("dot: %v", err)
	}
	if _, err := os.Stat(out); err != nil {
		return usagef("dot wrote no %s", out)
	}
	return nil
}
