package bench

import (
	"fmt"
	"html"
	"math"
	"os"
	"strings"
)

// WritePlot draws the results into the SVG file path: the states per
// strategy per model, or with the symbolic engine's configurations their
// time and peak memory.
func (r *Results) WritePlot(path string) error {
	if r.Symbolic {
		return writeTableIPlot(path, r.Models, r.Columns, r.Records)
	}
	return writePlot(path, r.Models, r.Columns, r.Records)
}

// plotColours are distinguishable colours for the strategies' bars.
var plotColours = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7"}

// writePlot draws a grouped bar chart of the states each strategy
// generated per model, on a logarithmic axis, as a self-contained SVG.
func writePlot(path string, models []Model, strats []string, recs []Record) error {
	const (
		left, right, top, bottom = 70.0, 20.0, 50.0, 110.0
		barW, gap                = 12.0, 18.0
		height                   = 360.0
	)
	maxV := 10.0
	for _, r := range recs {
		maxV = math.Max(maxV, float64(r.States))
	}
	decades := math.Ceil(math.Log10(maxV))
	groupW := float64(len(strats))*barW + gap
	width := math.Max(left+right+groupW*float64(len(models)), 720)
	y := func(v float64) float64 {
		if v < 1 {
			v = 1
		}
		return top + height - height*math.Log10(v)/decades
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n", width, top+height+bottom)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="20" font-size="14" font-weight="bold">States generated before the error, per model and strategy (log scale)</text>`+"\n", left)
	for d := 0.0; d <= decades; d++ {
		yy := y(math.Pow(10, d))
		fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, width-right, yy, yy)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">10<tspan dy="-5" font-size="8">%.0f</tspan></text>`+"\n", left-6, yy+4, d)
	}
	for mi, m := range models {
		x0 := left + gap/2 + float64(mi)*groupW
		for si, s := range strats {
			c := summarise(recs, m.Name, s, shownStates)
			if c.n == 0 {
				continue
			}
			x := x0 + float64(si)*barW
			yy := y(c.median)
			title := fmt.Sprintf("%s, %s: %s states", m.Name, s, c.format(intf))
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`+"\n",
				x, yy, barW-1, top+height-yy, plotColours[si%len(plotColours)], html.EscapeString(title))
			if c.n > 1 {
				fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="black"/>`+"\n", x+barW/2, x+barW/2, y(c.lo), y(c.hi))
			}
			if c.limit {
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="9">≥</text>`+"\n", x+barW/2, yy-3)
			}
		}
		cx := x0 + float64(len(strats))*barW/2
		fmt.Fprintf(&b, `<text transform="translate(%.1f,%.1f) rotate(-40)" text-anchor="end">%s</text>`+"\n", cx, top+height+14, html.EscapeString(m.Name))
	}
	fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="black"/>`+"\n", left, width-right, top+height, top+height)
	lx := left
	for si, s := range strats {
		fmt.Fprintf(&b, `<rect x="%.0f" y="32" width="10" height="10" fill="%s"/><text x="%.0f" y="41">%s</text>`+"\n", lx, plotColours[si%len(plotColours)], lx+14, html.EscapeString(s))
		lx += 14 + 7*float64(len(s)) + 16
	}
	b.WriteString("</svg>\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
