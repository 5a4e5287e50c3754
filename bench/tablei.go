package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"strings"
)

// The symbolic engine's configurations compared as in Table I of the HMC
// paper (Ganai, Wang & Li): bounded model checking alone, state traversal
// alone and HMC with each prioritization, on data-heavy models
// (testdata/models/symbolic). Each configuration is a strategy:
//
//	bmc            check --engine hmc --hmc-mode bmc
//	st, st+PRIO    check --engine hmc --hmc-mode st [--hmc-priority PRIO]
//	hmc, hmc+PRIO  check --engine hmc [--hmc-priority PRIO]
//
// PRIO is glh (the default) or dfs. The table is laid out as Table I: per
// configuration the time T, the peak memory M, and the witness depth wd
// (a counterexample's transitions) or, without one, d*, the deepest state
// reached. Memory is the Go runtime's and Z3's (symbolic.Stats.PeakMemory),
// what earlier runs left collected before each run.

// depthCell is the paper's d*/wd: the witness depth when a counterexample
// was found, else the deepest state reached, starred.
func depthCell(recs []Record, model, col string, md bool) string {
	c := summarise(recs, model, col, func(r Record) float64 {
		if r.Kind != "" {
			return float64(r.TraceLength)
		}
		return float64(r.MaxDepth)
	})
	witness := false
	for _, r := range recs {
		witness = witness || r.Model == model && r.Column() == col && r.Kind != ""
	}
	wrong := c.wrong
	c.limit, c.wrong = false, false // the time cell says whether a limit stopped it
	s := c.format(intf)
	switch {
	case c.n == 0:
		return s
	case !witness:
		s += "*"
	case md:
		s = "**" + s + "**"
	}
	if wrong {
		s += " !"
	}
	return s
}

// writeTableI prints the comparison as the paper's Table I: a row per
// model, and per configuration T (seconds), M (MiB) and d*/wd.
func writeTableI(w io.Writer, md bool, models []Model, strats []string, recs []Record) {
	header := []string{"model", "expected"}
	for _, s := range strats {
		header = append(header, s+" T", s+" M", s+" d*/wd")
	}
	var rows [][]string
	for _, m := range models {
		row := []string{m.Name, m.Expect}
		for _, s := range strats {
			sec := summarise(recs, m.Name, s, func(r Record) float64 { return r.Seconds })
			sec.wrong = false // the depth cell says so
			mem := summarise(recs, m.Name, s, func(r Record) float64 { return float64(r.PeakMemory) })
			mem.limit, mem.wrong = false, false
			row = append(row, sec.format(secf), mem.format(mibf), depthCell(recs, m.Name, s, md))
		}
		rows = append(rows, row)
	}
	title := "Time T (s), peak memory M (MiB) and witness depth wd, or d*, per configuration (the layout of Table I of the HMC paper)"
	note := "wd: the counterexample's transitions" + map[bool]string{true: " (bold)", false: ""}[md] +
		"; d*: no counterexample, the deepest state reached (starred); ≥: a limit stopped the run (incomplete); !: not the manifest's verdict. " +
		"M: the Go runtime's memory and Z3's."
	if md {
		fmt.Fprintf(w, "**%s**\n\n", title)
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat("---|", len(header)))
		for _, r := range rows {
			fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
		}
		fmt.Fprintf(w, "\n%s\n", note)
		return
	}
	fmt.Fprintln(w, title)
	writeAligned(w, append([][]string{header}, rows...))
	fmt.Fprintf(w, "\n%s\n", note)
}

// writeTableIPlot draws the comparison: per model, a bar per configuration
// of its time (log scale, left) and of its peak memory (right), the
// witness depth or d* above each time bar.
func writeTableIPlot(path string, models []Model, strats []string, recs []Record) error {
	const (
		left, top, bottom = 60.0, 84.0, 36.0
		barW, gap         = 16.0, 22.0
		height            = 300.0
		panelGap          = 80.0
	)
	panelW := math.Max((float64(len(strats))*barW+gap)*float64(len(models)), 380)
	groupW := panelW / float64(max(len(models), 1))
	width := left + panelW + panelGap + panelW + 30
	minT, maxT, maxM := math.Inf(1), 0.0, 1.0
	for _, r := range recs {
		if r.Seconds > 0 {
			minT = math.Min(minT, r.Seconds)
		}
		maxT = math.Max(maxT, r.Seconds)
		maxM = math.Max(maxM, float64(r.PeakMemory)/(1<<20))
	}
	if math.IsInf(minT, 1) {
		minT, maxT = 0.001, 1
	}
	// Room above the slowest bar for its label.
	lo, hi := math.Floor(math.Log10(minT)), math.Ceil(math.Log10(math.Max(maxT*4, minT*10)))
	yT := func(v float64) float64 {
		v = math.Max(v, math.Pow(10, lo))
		return top + height - height*(math.Log10(v)-lo)/(hi-lo)
	}
	stepM := math.Pow(10, math.Floor(math.Log10(maxM)))
	if maxM/stepM < 3 {
		stepM /= 2
	}
	topM := math.Ceil(maxM/stepM) * stepM
	yM := func(v float64) float64 { return top + height - height*v/topM }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n", width, top+height+bottom)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="18" font-size="14" font-weight="bold">Time and peak memory per model and configuration, as in Table I of the HMC paper</text>`+"\n", left)
	lx := left
	for si, s := range strats {
		fmt.Fprintf(&b, `<rect x="%.0f" y="28" width="10" height="10" fill="%s"/><text x="%.0f" y="37">%s</text>`+"\n", lx, plotColours[si%len(plotColours)], lx+14, html.EscapeString(s))
		lx += 14 + 7*float64(len(s)) + 16
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="56" fill="#444">Above the time bars: wd, the counterexample's length, or d* (starred), the depth reached without one; ≥: stopped by a limit.</text>`+"\n", left)
	panels := []struct {
		x0    float64
		title string
		y     func(float64) float64
		val   func(Record) float64
		f     func(float64) string
	}{
		{left, "time (s, log scale)", yT, func(r Record) float64 { return r.Seconds }, secf},
		{left + panelW + panelGap, "peak memory (MiB)", yM, func(r Record) float64 { return float64(r.PeakMemory) / (1 << 20) }, func(v float64) string { return fmt.Sprintf("%.0f", v) }},
	}
	for pi, p := range panels {
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-weight="bold">%s</text>`+"\n", p.x0, top-8, p.title)
		if pi == 0 {
			for d := lo; d <= hi; d++ {
				yy := yT(math.Pow(10, d))
				fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", p.x0, p.x0+panelW, yy, yy)
				fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">10<tspan dy="-5" font-size="8">%.0f</tspan></text>`+"\n", p.x0-6, yy+4, d)
			}
		} else {
			for v := 0.0; v <= topM+stepM/2; v += stepM {
				yy := yM(v)
				fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", p.x0, p.x0+panelW, yy, yy)
				fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%.0f</text>`+"\n", p.x0-6, yy+4, v)
			}
		}
		for mi, m := range models {
			x0 := p.x0 + (groupW-float64(len(strats))*barW)/2 + float64(mi)*groupW
			for si, s := range strats {
				c := summarise(recs, m.Name, s, p.val)
				if c.n == 0 {
					continue
				}
				x := x0 + float64(si)*barW
				yy := p.y(c.median)
				depth := depthCell(recs, m.Name, s, false)
				title := fmt.Sprintf("%s, %s: %s; depth %s", m.Name, s, c.format(p.f), depth)
				fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`+"\n",
					x, yy, barW-2, top+height-yy, plotColours[si%len(plotColours)], html.EscapeString(title))
				if pi == 0 {
					if c.limit {
						depth = "≥" + depth
					}
					fmt.Fprintf(&b, `<text transform="translate(%.1f,%.1f) rotate(-90)" font-size="9">%s</text>`+"\n", x+barW/2+3, yy-3, html.EscapeString(depth))
				}
			}
			cx := x0 + float64(len(strats))*barW/2
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", cx, top+height+16, html.EscapeString(m.Name))
		}
		fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="black"/>`+"\n", p.x0, p.x0+panelW, top+height, top+height)
	}
	b.WriteString("</svg>\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
