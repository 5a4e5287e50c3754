package icfg

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// DOTOptions tunes WriteDOT.
type DOTOptions struct {
	// Dist, when not nil, holds a distance per vertex (for example from
	// DistancesTo for --target), printed under each vertex's instruction.
	Dist []int32
	// Name is the graph's name (default "icfg" or "aicfg_k").
	Name string
}

// WriteDOT writes the graph in Graphviz syntax: a digraph with one cluster
// per procedure (per procedure and context for k > 0), flow edges solid,
// tail calls bold, call and return edges dashed.
func (g *Graph) WriteDOT(w io.Writer, opt DOTOptions) error {
	bw := bufio.NewWriter(w)
	p := g.Prog
	name := opt.Name
	if name == "" {
		name = "icfg"
		if g.K > 0 {
			name = fmt.Sprintf("aicfg_%d", g.K)
		}
	}
	fmt.Fprintf(bw, "digraph %s {\n", dotID(name))
	fmt.Fprintf(bw, "  node [shape=box, fontname=\"monospace\", fontsize=10];\n")
	fmt.Fprintf(bw, "  edge [fontsize=9];\n")

	// Group the vertices into clusters.
	type cluster struct {
		label string
		verts []int32
	}
	clusters := map[string]*cluster{}
	var keys []string
	var loose []int32
	for v := range g.Verts {
		vert := &g.Verts[v]
		owners := p.owners[g.instr[v]]
		if len(owners) == 0 {
			loose = append(loose, int32(v))
			continue
		}
		pr := &p.Procs[owners[0]]
		key := fmt.Sprintf("%04X", pr.Entry)
		label := pr.Name
		if g.K > 0 {
			label += " " + ctxLabel(vert)
			for _, r := range vert.Returns() {
				key += fmt.Sprintf("_%04X", r)
			}
			key += fmt.Sprintf("_n%d", vert.N)
		}
		c := clusters[key]
		if c == nil {
			c = &cluster{label: label}
			clusters[key] = c
			keys = append(keys, key)
		}
		c.verts = append(c.verts, int32(v))
	}
	sort.Strings(keys)
	for i, key := range keys {
		c := clusters[key]
		fmt.Fprintf(bw, "  subgraph cluster_%d {\n    label=%s;\n", i, dotString(c.label))
		for _, v := range c.verts {
			g.dotVertex(bw, v, opt, "    ")
		}
		fmt.Fprintf(bw, "  }\n")
	}
	for _, v := range loose {
		g.dotVertex(bw, v, opt, "  ")
	}
	for v := range g.Verts {
		adj, ek := g.Edges(int32(v))
		for j, u := range adj {
			style := ""
			switch ek[j] {
			case EdgeTail:
				style = " [style=bold]"
			case EdgeCall:
				style = " [style=dashed, color=blue]"
			case EdgeReturn:
				style = " [style=dashed, color=darkgreen]"
			}
			fmt.Fprintf(bw, "  v%d -> v%d%s;\n", v, u, style)
		}
	}
	fmt.Fprintf(bw, "}\n")
	return bw.Flush()
}

// dotVertex writes one vertex: address, instruction, distance.
func (g *Graph) dotVertex(w io.Writer, v int32, opt DOTOptions, indent string) {
	vert := &g.Verts[v]
	label := fmt.Sprintf("%04X: %s", vert.PC, strings.ReplaceAll(g.Prog.Disasm(vert.PC), "\t", " "))
	if g.K > 0 {
		label += "\n" + ctxLabel(vert)
	}
	attrs := ""
	if opt.Dist != nil && int(v) < len(opt.Dist) {
		if d := opt.Dist[v]; d == Inf {
			label += "\nd=inf"
		} else {
			label += fmt.Sprintf("\nd=%d", d)
			if d == 0 {
				attrs = ", style=filled, fillcolor=salmon"
			}
		}
	}
	switch g.Instr(v).Kind {
	case KindStub, KindStubNoReturn:
		attrs += ", shape=ellipse"
	}
	fmt.Fprintf(w, "%sv%d [label=%s%s];\n", indent, v, dotString(label), attrs)
}

// ctxLabel prints a context as the paper does: "(init)" or "RA:D013,D01E".
func ctxLabel(v *Vertex) string {
	if v.N == 0 {
		return "(init)"
	}
	var parts []string
	for _, r := range v.Returns() {
		parts = append(parts, fmt.Sprintf("%04X", r))
	}
	return "RA:" + strings.Join(parts, ",")
}

// dotString quotes a string for DOT.
func dotString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// dotID returns s if it is a valid DOT identifier, else s quoted.
func dotID(s string) string {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return dotString(s)
		}
	}
	if s == "" {
		return `""`
	}
	return s
}
