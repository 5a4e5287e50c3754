package tracesvg

import (
	"fmt"
	"strings"
)

const (
	codeFont = `font-family="DejaVu Sans Mono, Menlo, Consolas, monospace"`
	halo     = `stroke="white" stroke-width="4" stroke-linejoin="round" paint-order="stroke"`
)

// arrowColours are the colours of the kinds of arrow.
var arrowColours = map[string]string{"switch": "#48484a", "interrupt": "#d9480f", "return": "#d9480f"}

// legendKey is one sample in the legend's first row, with its meaning.
type legendKey struct{ kind, text string }

// legendKeys are the legend's samples, in order.
var legendKeys = []legendKey{
	{"write", "a write that matters"},
	{"read", "a read that matters"},
	{"switch", "thread switch"},
	{"interrupt", "interrupt"},
	{"return", "return from interrupt"},
}

// legend picks the samples for what the drawing shows: the kinds of
// highlight and of arrow that occur.
func (r *renderer) legend() {
	used := map[string]bool{}
	for _, s := range r.t.Steps {
		for _, a := range s.Accesses {
			switch {
			case a.Mark && a.Write:
				used["write"] = true
			case a.Mark:
				used["read"] = true
			}
		}
	}
	var prev *box
	for _, e := range r.elems {
		if e.b == nil {
			prev = nil
			continue
		}
		for _, h := range r.hops(prev, e.b) {
			used[h.kind] = true
		}
		prev = e.b
	}
	for _, k := range legendKeys {
		if used[k.kind] {
			r.keys = append(r.keys, k)
			r.legendW += 32 + runes(k.text)*textW + 16
		}
	}
}

func (r *renderer) legendHeight() float64 {
	row := 0.0
	if len(r.keys) > 0 {
		row = 20
	}
	return row + float64(len(r.rule))*16 + float64(len(watchRuns(r.t.Watches)))*16 + 6
}

// watchRuns groups the watches into runs of consecutive addresses with
// the same reason, listed as one line each (a 16-bit variable is one run).
func watchRuns(ws []Watch) [][]Watch {
	var out [][]Watch
	for i := 0; i < len(ws); {
		j := i + 1
		for j < len(ws) && ws[j].Addr == ws[j-1].Addr+1 && ws[j].Why == ws[i].Why {
			j++
		}
		out = append(out, ws[i:j])
		i = j
	}
	return out
}

// draw writes the document.
func (r *renderer) draw() {
	t := r.t
	r.printf(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	r.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">`+"\n",
		r.width, r.height, r.width, r.height)
	r.printf("<title>%s</title>\n", esc(t.Title))
	r.printf("<defs>\n")
	for _, kind := range []string{"switch", "interrupt", "return"} {
		r.printf(`<marker id="head-%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="%.0f" markerHeight="%.0f" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n",
			kind, arrowHead+2, arrowHead+2, arrowColours[kind])
	}
	r.printf("</defs>\n")
	r.printf(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")

	y := margin + 16.0
	r.printf(`<text class="title" x="%.1f" y="%.1f" font-size="18" font-weight="bold" fill="%s">%s</text>`+"\n", margin, y, ink, esc(t.Title))
	if t.Subtitle != "" {
		y += 20
		r.printf(`<text class="subtitle" x="%.1f" y="%.1f" font-size="12" fill="%s">%s</text>`+"\n", margin, y, grey, esc(t.Subtitle))
	}
	r.drawLegend()
	r.drawLanes()
	var prev *box
	for _, e := range r.elems {
		if e.b == nil {
			r.drawOmitted(e)
			prev = nil
			continue
		}
		r.drawArrow(prev, e.b, e.y)
		prev = e.b
	}
	for _, e := range r.elems {
		if e.b != nil {
			r.drawBox(e.b)
		}
	}
	r.drawEnds()
	r.drawViolation()
	r.printf("</svg>\n")
}

func (r *renderer) drawLegend() {
	x, y := margin, r.legendY+12
	r.printf(`<g class="legend">` + "\n")
	for _, k := range r.keys {
		switch k.kind {
		case "write", "read":
			fill, bar := writeFill, writeBar
			if k.kind == "read" {
				fill, bar = readFill, readBar
			}
			r.printf(`<rect x="%.1f" y="%.1f" width="26" height="12" rx="2" fill="%s"/><rect x="%.1f" y="%.1f" width="3" height="12" fill="%s"/>`, x, y-10, fill, x, y-10, bar)
		default:
			dash := ""
			if k.kind == "return" {
				dash = ` stroke-dasharray="5 3"`
			}
			r.printf(`<path d="M%.1f,%.1f h24" stroke="%s" stroke-width="1.6"%s marker-end="url(#head-%s)"/>`, x, y-4, arrowColours[k.kind], dash, k.kind)
		}
		r.printf(`<text x="%.1f" y="%.1f" fill="%s">%s</text>`, x+32, y, ink, k.text)
		x += 32 + runes(k.text)*textW + 16
	}
	r.printf("\n")
	if len(r.keys) > 0 {
		y += 20
	}
	for _, l := range r.rule {
		r.printf(`<text class="rule" x="%.1f" y="%.1f" fill="%s">%s</text>`+"\n", margin, y, grey, esc(l))
		y += 16
	}
	for _, ws := range watchRuns(r.t.Watches) {
		w := ws[0]
		name := fmt.Sprintf("0x%04X", w.Addr)
		if w.Name != "" {
			name = fmt.Sprintf("%s (0x%04X)", w.Name, w.Addr)
		}
		var vals []string
		for _, x := range ws {
			vals = append(vals, fmt.Sprintf("%02X", x.Value))
		}
		r.printf(`<text class="watch" data-addr="0x%04X" data-bytes="%d" x="%.1f" y="%.1f" fill="%s"><tspan font-weight="bold">%s</tspan> = %s`,
			w.Addr, len(ws), margin+10, y, ink, esc(name), strings.Join(vals, " "))
		if w.Why != "" {
			r.printf(`<tspan fill="%s"> — %s</tspan>`, grey, esc(w.Why))
		}
		r.printf("</text>\n")
		y += 16
	}
	r.printf("</g>\n")
}

func (r *renderer) drawLanes() {
	endLife := r.endY - 6
	for i, l := range r.t.Lanes {
		c := r.laneColour(i)
		x, w := r.laneX[i], r.laneW[i]
		kind := "thread"
		if l.Kind == HandlerLane {
			kind = "handler"
		}
		r.printf(`<g class="lane" data-lane="%d" data-kind="%s">`+"\n", i, kind)
		r.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-opacity="0.35" stroke-width="1.5" stroke-dasharray="4 4"/>`+"\n",
			r.centre(i), r.top+headerH, r.centre(i), endLife, c)
		r.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="8" fill="%s"/>`+"\n", x, r.top, w, headerH, c)
		r.printf(`<text class="lane-title" x="%.1f" y="%.1f" font-size="14" font-weight="bold" fill="white">%s</text>`+"\n", x+padX+2, r.top+18, esc(l.Title))
		if l.Note != "" {
			r.printf(`<text class="lane-note" x="%.1f" y="%.1f" font-size="11" fill="white" fill-opacity="0.92">%s</text>`+"\n", x+padX+2, r.top+35, esc(l.Note))
		}
		r.printf("</g>\n")
	}
}

// drawArrow joins box a (nil: none) to box b, whose top is at top.
func (r *renderer) drawArrow(a, b *box, top float64) {
	hs := r.hops(a, b)
	if len(hs) == 0 {
		return
	}
	var y0 float64
	if a != nil {
		y0 = a.y + a.h
	} else {
		y0 = top - gapAbove(len(hs))
	}
	x := r.centre(hs[0].from)
	if a == nil || a.lane != hs[0].from {
		// The arrow starts from a lane that was not the last to run.
		r.printf(`<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", x, y0, arrowColours[hs[0].kind])
	}
	// Draw each hop as its own group, so that each has its kind and colour.
	for k, h := range hs {
		yk := y0 + hopY(k)
		xf, xt := r.centre(h.from), r.centre(h.to)
		next := top
		if k+1 < len(hs) {
			next = y0 + hopY(k+1)
		}
		var p strings.Builder
		// In from the previous hop (or the box above), across, then down
		// to where the next hop starts (or into the box below).
		prevY := y0
		if k > 0 {
			prevY = y0 + hopY(k-1)
		}
		fmt.Fprintf(&p, "M%.1f,%.1f V%.1f H%.1f V%.1f", xf, prevY, yk, xt, next)
		dash := ""
		if h.kind == "return" {
			dash = ` stroke-dasharray="5 3"`
		}
		head := ""
		if k == len(hs)-1 {
			head = fmt.Sprintf(` marker-end="url(#head-%s)"`, h.kind)
		}
		c := arrowColours[h.kind]
		r.printf(`<g class="arrow" data-kind="%s" data-from="%d" data-to="%d" data-step="%d">`, h.kind, h.from, h.to, h.step)
		r.printf(`<path d="%s" fill="none" stroke="%s" stroke-width="1.6"%s%s/>`, p.String(), c, dash, head)
		lx, anchor := (xf+xt)/2, "middle"
		if h.from == h.to {
			lx, anchor = xf+8, "start"
		}
		r.printf(`<text x="%.1f" y="%.1f" text-anchor="%s" font-size="11" fill="%s" %s>%s</text>`, lx, yk-5, anchor, c, halo, esc(h.label))
		r.printf("</g>\n")
	}
}

func (r *renderer) drawOmitted(e element) {
	first := e.omitted[0].steps[0].N
	lastBox := e.omitted[len(e.omitted)-1]
	last := lastBox.steps[len(lastBox.steps)-1].N
	x, w := margin, r.width-2*margin
	r.printf(`<g class="omitted" data-boxes="%d" data-first="%d" data-last="%d">`, len(e.omitted), first, last)
	r.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="6" fill="#f2f2f4" stroke="#aeaeb2" stroke-dasharray="6 4"/>`, x, e.y, w, e.h)
	r.printf(`<text x="%.1f" y="%.1f" text-anchor="middle" fill="%s">⋯ transitions %d–%d (%d boxes) not shown ⋯</text>`, x+w/2, e.y+e.h/2+4, grey, first, last, len(e.omitted))
	r.printf("</g>\n")
}

func (r *renderer) drawBox(b *box) {
	c := r.laneColour(b.lane)
	last := b.steps[len(b.steps)-1]
	r.printf(`<g class="box" data-lane="%d" data-thread="%d" data-first="%d" data-last="%d">`+"\n", b.lane, b.thread, b.steps[0].N, last.N)
	// A white ground under the tint keeps the lifeline from showing through.
	r.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="6" fill="white"/>`, b.x, b.y, b.w, b.h)
	r.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="6" fill="%s" fill-opacity="0.07" stroke="%s" stroke-width="1.3"/>`+"\n", b.x, b.y, b.w, b.h, c, c)
	y := b.y + padY
	numX := b.x + padX + r.numCols*codeW
	symX := numX + codeW
	textX := symX + (r.symCols[b.lane]+1)*codeW
	final := &r.t.Steps[len(r.t.Steps)-1]
	for _, l := range b.lines {
		h := lineH + float64(len(l.notes))*noteH
		base := y + 12.5
		if l.step == nil {
			r.printf(`<g class="more" data-count="%d"><title>%s</title>`, len(l.left), esc(r.hiddenTitle(l.left)))
			r.printf(`<text x="%.1f" y="%.1f" font-style="italic" fill="%s">… %d more</text></g>`+"\n", symX, base, grey, len(l.left))
			y += h
			continue
		}
		s := l.step
		r.printf(`<g class="step" data-n="%d"><title>%s</title>`, s.N, esc(r.stepTitle(s)))
		if len(l.marks) > 0 {
			fill, bar := readFill, readBar
			if l.write {
				fill, bar = writeFill, writeBar
			}
			r.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/><rect x="%.1f" y="%.1f" width="4" height="%.1f" fill="%s"/>`,
				b.x+1, y, b.w-2, h, fill, b.x+1, y, h, bar)
			for _, a := range l.marks {
				w := 0
				if a.Write {
					w = 1
				}
				r.printf(`<g class="access" data-addr="0x%04X" data-write="%d" data-value="%02X"/>`, a.Addr, w, a.Value)
			}
		}
		if s == final && r.t.Violation.Lane == b.lane {
			fill := "#ffe0e0"
			if len(l.marks) > 0 {
				fill = "none" // keep the highlight's colour
			}
			r.printf(`<rect class="violating" x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="3" fill="%s" stroke="%s" stroke-width="1.5"/>`,
				b.x+2, y-0.5, b.w-4, h+1, fill, red)
		}
		num, sym, text, more := stepCols(s)
		r.printf(`<text x="%.1f" y="%.1f" text-anchor="end" %s font-size="11" fill="%s">%s</text>`, numX, base, codeFont, grey, esc(num))
		r.printf(`<text x="%.1f" y="%.1f" %s font-size="%.0f" fill="%s" xml:space="preserve">%s</text>`, symX, base, codeFont, codeSize, c, esc(sym))
		r.printf(`<text x="%.1f" y="%.1f" %s font-size="%.0f" fill="%s" xml:space="preserve">%s<tspan fill="%s">%s</tspan></text>`,
			textX, base, codeFont, codeSize, ink, esc(text), grey, esc(more))
		for k, n := range l.notes {
			r.printf(`<text class="note" x="%.1f" y="%.1f" font-size="11" font-weight="bold" fill="%s">%s</text>`, symX, base+float64(k+1)*noteH, "#7a3e00", esc(n))
		}
		r.printf("</g>\n")
		y += h
	}
	r.printf("</g>\n")
}

func (r *renderer) stepTitle(s *Step) string {
	lane := ""
	if s.Lane >= 0 && s.Lane < len(r.t.Lanes) {
		lane = r.t.Lanes[s.Lane].Title + ", "
	}
	out := fmt.Sprintf("%d: %sthread %d, %s %s", s.N, lane, s.Thread, s.Symbol, s.Text)
	if s.More > 0 {
		out += fmt.Sprintf(" (+%d more instructions)", s.More)
	}
	for _, a := range s.Accesses {
		verb := "read"
		if a.Write {
			verb = "wrote"
		}
		name := ""
		if a.Name != "" {
			name = " " + a.Name
		}
		out += fmt.Sprintf("\n%s 0x%04X%s = %02X", verb, a.Addr, name, a.Value)
	}
	return out
}

func (r *renderer) hiddenTitle(steps []*Step) string {
	var lines []string
	for i, s := range steps {
		if i == 30 {
			lines = append(lines, fmt.Sprintf("… and %d more", len(steps)-i))
			break
		}
		lines = append(lines, fmt.Sprintf("%d %s %s", s.N, s.Symbol, s.Text))
	}
	return strings.Join(lines, "\n")
}

func (r *renderer) drawEnds() {
	for i, l := range r.t.Lanes {
		if l.End == "" {
			continue
		}
		lines := wrap(l.End, int((r.laneW[i]-2*padX)/textW))
		h := float64(len(lines))*15 + 10
		stroke, fill, col := "#c7c7cc", "#f4f4f5", grey
		if l.Alert {
			stroke, fill, col = red, "#fff0f0", red
		}
		r.printf(`<g class="end" data-lane="%d" data-alert="%t">`, i, l.Alert)
		r.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="6" fill="%s" stroke="%s"/>`, r.laneX[i], r.endY, r.laneW[i], h, fill, stroke)
		for k, s := range lines {
			r.printf(`<text x="%.1f" y="%.1f" fill="%s">%s</text>`, r.laneX[i]+padX, r.endY+17+float64(k)*15, col, esc(s))
		}
		r.printf("</g>\n")
	}
}

func (r *renderer) drawViolation() {
	v := r.t.Violation
	x, w := margin, r.width-2*margin
	h := 34 + float64(len(r.violMsg))*16
	r.printf(`<g class="violation" data-kind="%s" data-lane="%d">`+"\n", esc(v.Kind), v.Lane)
	r.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="8" fill="#fff0f0" stroke="%s" stroke-width="2"/>`+"\n", x, r.violY, w, h, red)
	r.printf(`<text class="violation-kind" x="%.1f" y="%.1f" font-size="15" font-weight="bold" fill="%s">✖ violation: %s</text>`+"\n", x+padX+4, r.violY+22, red, esc(v.Kind))
	for k, l := range r.violMsg {
		r.printf(`<text class="violation-message" x="%.1f" y="%.1f" fill="%s">%s</text>`+"\n", x+padX+4, r.violY+42+float64(k)*16, ink, esc(l))
	}
	r.printf("</g>\n")
}
