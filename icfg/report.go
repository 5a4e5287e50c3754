package icfg

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// Report is the summary the cfg command prints, as text or JSON.
// Addresses are strings "0xD00A".
type Report struct {
	Image        string           `json:"image"`
	Instructions int              `json:"instructions"`
	Roots        []ReportRoot     `json:"roots"`
	Procedures   []ReportProc     `json:"procedures"`
	Graphs       []ReportGraph    `json:"graphs"`
	Indirect     []ReportIndirect `json:"indirect,omitempty"`
	Notes        []string         `json:"notes,omitempty"`
}

// ReportRoot is a root of the disassembly.
type ReportRoot struct {
	Kind   string `json:"kind"`
	Addr   string `json:"addr"`
	Name   string `json:"name"`             // vector name, symbol, or "created at 0x…" for a thread
	Symbol string `json:"symbol,omitempty"` // the symbol at the address
}

// ReportProc is one procedure with its place in the call graph.
type ReportProc struct {
	Name         string   `json:"name"`
	Entry        string   `json:"entry"`
	Stub         bool     `json:"stub,omitempty"`
	Instructions int      `json:"instructions"`
	Bytes        int      `json:"bytes"`
	Exits        []string `json:"exits,omitempty"`
	Callees      []string `json:"callees,omitempty"`
	CalledBy     []string `json:"called_by,omitempty"`
	TailCalls    []string `json:"tail_calls,omitempty"`
	Roots        []string `json:"roots,omitempty"`
	Recursive    bool     `json:"recursive,omitempty"`
}

// ReportGraph gives the size of an ICFG (k = 0) or AICFG(k).
type ReportGraph struct {
	K        int `json:"k"`
	Vertices int `json:"vertices"`
	Edges    int `json:"edges"`
	Flow     int `json:"flow_edges"`
	Tail     int `json:"tail_edges"`
	Call     int `json:"call_edges"`
	Return   int `json:"return_edges"`
}

// ReportIndirect is a JMP or JSR through an index register.
type ReportIndirect struct {
	Addr        string   `json:"addr"`
	Instruction string   `json:"instruction"`
	Procedure   string   `json:"procedure,omitempty"`
	Call        bool     `json:"call"`
	Resolved    bool     `json:"resolved"`
	How         string   `json:"how,omitempty"`
	Targets     []string `json:"targets,omitempty"`
	// Connected is, for an unresolved site, the number of procedure
	// entries it is connected to instead.
	Connected int `json:"connected,omitempty"`
}

func hex4(a uint16) string { return fmt.Sprintf("0x%04X", a) }

// Report summarises the program and the given graphs.
func (p *Program) Report(graphs ...*Graph) *Report {
	r := &Report{Instructions: len(p.Instrs), Notes: p.Notes}
	if p.Image != nil {
		r.Image = p.Image.Path
	}
	for _, rt := range p.Roots {
		rr := ReportRoot{Kind: rt.Kind.String(), Addr: hex4(rt.Addr), Name: rt.Name}
		if pr, ok := p.Proc(rt.Addr); ok && !strings.HasPrefix(pr.Name, "sub_") {
			rr.Symbol = pr.Name
		}
		r.Roots = append(r.Roots, rr)
	}
	for i := range p.Procs {
		pr := &p.Procs[i]
		rp := ReportProc{
			Name: pr.Name, Entry: hex4(pr.Entry), Stub: pr.Stub != "",
			Instructions: len(pr.Body), Bytes: pr.Bytes, Recursive: pr.Recursive,
		}
		for _, a := range pr.Exits {
			rp.Exits = append(rp.Exits, hex4(a))
		}
		rp.Callees = p.procNames(pr.Callees)
		rp.TailCalls = p.procNames(pr.TailCalls)
		var callers []string
		for _, c := range pr.Callers {
			for _, o := range p.ProcsOf(c) {
				callers = append(callers, o.Name)
			}
		}
		rp.CalledBy = uniqueStrings(callers)
		for _, k := range pr.Roots {
			rp.Roots = append(rp.Roots, k.String())
		}
		r.Procedures = append(r.Procedures, rp)
	}
	for _, g := range graphs {
		c := g.EdgeCounts()
		r.Graphs = append(r.Graphs, ReportGraph{
			K: g.K, Vertices: g.Order(), Edges: g.NumEdges(),
			Flow: c[EdgeFlow], Tail: c[EdgeTail], Call: c[EdgeCall], Return: c[EdgeReturn],
		})
	}
	for _, s := range p.Indirect {
		ri := ReportIndirect{Addr: hex4(s.Addr), Instruction: p.Disasm(s.Addr), Call: s.Call, Resolved: s.Resolved, How: s.How}
		if ps := p.ProcsOf(s.Addr); len(ps) > 0 {
			ri.Procedure = ps[0].Name
		}
		for _, t := range s.Targets {
			ri.Targets = append(ri.Targets, p.Name(t))
		}
		if !s.Resolved {
			if x, ok := p.Instr(s.Addr); ok {
				ri.Connected = len(x.Next) + len(x.Callees)
			}
		}
		r.Indirect = append(r.Indirect, ri)
	}
	return r
}

// procNames names procedure entries.
func (p *Program) procNames(entries []uint16) []string {
	var out []string
	for _, e := range entries {
		if pr, ok := p.Proc(e); ok {
			out = append(out, pr.Name)
		} else {
			out = append(out, hex4(e))
		}
	}
	return out
}

// uniqueStrings sorts and deduplicates.
func uniqueStrings(s []string) []string {
	sort.Strings(s)
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report for people: roots, procedures, the call
// graph, graph sizes, indirect jumps and notes.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	stubs := 0
	for _, p := range r.Procedures {
		if p.Stub {
			stubs++
		}
	}
	fmt.Fprintf(&b, "image %s: %d instructions, %d procedures (%d harness stubs)\n",
		r.Image, r.Instructions, len(r.Procedures)-stubs, stubs)

	b.WriteString("\nroots:\n")
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	for _, rt := range r.Roots {
		name := rt.Name
		if rt.Symbol != "" && rt.Symbol != rt.Name {
			name = rt.Symbol + " (" + rt.Name + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", rt.Kind, rt.Addr, name)
	}
	tw.Flush()

	b.WriteString("\nprocedures:\n")
	tw = tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "  entry\tname\tinstrs\tbytes\texits\tcalls\n")
	for _, p := range r.Procedures {
		if p.Stub {
			continue
		}
		calls := strings.Join(p.Callees, ", ")
		if len(p.TailCalls) > 0 {
			if calls != "" {
				calls += "; "
			}
			calls += "tail: " + strings.Join(p.TailCalls, ", ")
		}
		name := p.Name
		if p.Recursive {
			name += " (recursive)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\t%d\t%s\n", p.Entry, name, p.Instructions, p.Bytes, len(p.Exits), calls)
	}
	tw.Flush()
	var used []string
	for _, p := range r.Procedures {
		if p.Stub && len(p.CalledBy) > 0 {
			used = append(used, p.Name)
		}
	}
	if len(used) > 0 {
		fmt.Fprintf(&b, "  harness stubs called: %s\n", strings.Join(used, ", "))
	}

	b.WriteString("\ncall graph:\n")
	for _, p := range r.Procedures {
		if p.Stub || (len(p.Callees) == 0 && len(p.TailCalls) == 0) {
			continue
		}
		targets := append(append([]string(nil), p.Callees...), p.TailCalls...)
		fmt.Fprintf(&b, "  %s -> %s\n", p.Name, strings.Join(targets, ", "))
	}

	b.WriteString("\ngraphs:\n")
	tw = tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	for _, g := range r.Graphs {
		name := fmt.Sprintf("AICFG(%d)", g.K)
		if g.K == 0 {
			name = "ICFG"
		}
		fmt.Fprintf(tw, "  %s\t%d vertices\t%d edges\t(flow %d, tail %d, call %d, return %d)\n",
			name, g.Vertices, g.Edges, g.Flow, g.Tail, g.Call, g.Return)
	}
	tw.Flush()

	if len(r.Indirect) > 0 {
		b.WriteString("\nindirect jumps and calls:\n")
		for _, s := range r.Indirect {
			where := ""
			if s.Procedure != "" {
				where = " in " + s.Procedure
			}
			if s.Resolved {
				fmt.Fprintf(&b, "  %s  %s%s: %s -> %s\n", s.Addr, s.Instruction, where, s.How, strings.Join(s.Targets, ", "))
			} else {
				fmt.Fprintf(&b, "  %s  %s%s: unresolved, connected to every procedure entry (%d)\n", s.Addr, s.Instruction, where, s.Connected)
			}
		}
	}
	if len(r.Notes) > 0 {
		b.WriteString("\nnotes:\n")
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "  %s\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
