package bench

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hc11mc/hc11mc/heuristics"
	"github.com/hc11mc/hc11mc/internal/units"
)

// WriteText writes the results as tables, in text or, with md, in
// Markdown: the comparison of the search strategies (Rungta & Mercer's
// Tables 1 and 2 and more), or with a strategy of the symbolic engine the
// comparison of Table I of the HMC paper.
func (r *Results) WriteText(w io.Writer, md bool) {
	if r.Symbolic {
		writeTableI(w, md, r.Models, r.Columns, r.Records)
		return
	}
	writeTables(w, md, r.Models, r.Columns, r.Records, r.Workers)
}

// WriteCSV writes the records as CSV, a header first.
func (r *Results) WriteCSV(out io.Writer) {
	w := csv.NewWriter(out)
	w.Write([]string{"model", "strategy", "seed", "verdict", "violation", "as_expected", "states", "seconds", "trace_length", "peak_memory_bytes", "limit", "paper_states", "paper_seconds", "reduce", "max_depth", "round", "member"})
	for _, r := range r.Records {
		w.Write([]string{r.Model, r.Strategy, strconv.FormatUint(r.Seed, 10), r.Verdict, r.Kind, strconv.FormatBool(r.Expected),
			strconv.Itoa(r.States), strconv.FormatFloat(r.Seconds, 'f', 6, 64), strconv.Itoa(r.TraceLength),
			strconv.FormatInt(r.PeakMemory, 10), r.Limit, paperCSV(float64(r.PaperStates), 0), paperCSV(r.PaperSecs, 2), r.Reduce,
			strconv.Itoa(r.MaxDepth), strconv.Itoa(r.Round), r.Member})
	}
	w.Flush()
}

// paperCSV is a figure of the paper with prec decimals, empty where the
// paper gives none (0: a model the paper did not run).
func paperCSV(v float64, prec int) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

// shownStates are the states a table and the plot give for r: those it
// stored, but a run that --max-states stopped is shown at its limit (the
// search notices the limit after an expansion, and may have stored a few
// successors beyond it): "≥2,000,000" for --max-states 2000000.
func shownStates(r Record) float64 {
	var n int
	if _, err := fmt.Sscanf(r.Limit, "--max-states %d", &n); err == nil && n > 0 && r.States > n {
		return float64(n)
	}
	return float64(r.States)
}

// writeAligned prints rows as columns: the first left-aligned, the others
// right-aligned, two spaces apart.
func writeAligned(w io.Writer, rows [][]string) {
	width := map[int]int{}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// swarmBound checks, for a swarm column, the bound the swarm is built to
// keep: its median time at most workers times that of the fastest other
// strategy of the same reduction setting (by median time, among those
// that decided as the manifest expects). It returns "" for other columns.
func swarmBound(models []Model, strats []string, recs []Record, col string, workers int) string {
	name, setting, _ := strings.Cut(col, "/")
	if name != "swarm" {
		return ""
	}
	held, of := 0, 0
	worst, worstModel := 0.0, ""
	var misses []string
	for _, m := range models {
		sw := summarise(recs, m.Name, col, func(r Record) float64 { return r.Seconds })
		if sw.n == 0 {
			continue
		}
		best, bestCol := math.Inf(1), ""
		for _, o := range strats {
			on, os, _ := strings.Cut(o, "/")
			if on == "swarm" || os != setting {
				continue
			}
			c := summarise(recs, m.Name, o, func(r Record) float64 { return r.Seconds })
			if c.n > 0 && !c.limit && !c.wrong && c.median < best {
				best, bestCol = c.median, o
			}
		}
		if bestCol == "" {
			continue
		}
		of++
		ratio := sw.median / best
		if !sw.limit && !sw.wrong && ratio <= float64(workers) {
			held++
		} else {
			misses = append(misses, fmt.Sprintf("%s (%.1f × %s)", m.Name, ratio, bestCol))
		}
		if ratio > worst {
			worst, worstModel = ratio, m.Name
		}
	}
	if of == 0 {
		return ""
	}
	b := fmt.Sprintf("%s of %d: at most %d × the fastest other strategy's time on %d of %d models (the most: %.1f ×, %s)",
		col, workers, workers, held, of, worst, worstModel)
	if len(misses) > 0 {
		b += "; more on " + strings.Join(misses, ", ")
	}
	return b
}

// cell summarises the runs of one model under one strategy: the value, or
// the median and the spread of randomised runs.
type cell struct {
	median, lo, hi float64
	n              int
	limit          bool
	wrong          bool
}

func summarise(recs []Record, model, strat string, val func(Record) float64) cell {
	var vs []float64
	c := cell{}
	for _, r := range recs {
		if r.Model == model && r.Column() == strat {
			if v := val(r); !math.IsNaN(v) {
				vs = append(vs, v)
			}
			c.limit = c.limit || r.Limit != ""
			c.wrong = c.wrong || !r.Expected && r.Limit == ""
		}
	}
	if len(vs) == 0 {
		return cell{n: 0}
	}
	sort.Float64s(vs)
	c.n = len(vs)
	c.lo, c.hi = vs[0], vs[len(vs)-1]
	if len(vs)%2 == 1 {
		c.median = vs[len(vs)/2]
	} else {
		c.median = (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
	}
	return c
}

func (c cell) format(f func(float64) string) string {
	if c.n == 0 {
		return "-"
	}
	s := f(c.median)
	if c.n > 1 && f(c.lo) != f(c.hi) {
		s += " (" + f(c.lo) + "–" + f(c.hi) + ")"
	}
	if c.limit {
		s = "≥" + s
	}
	if c.wrong {
		s += " !"
	}
	return s
}

func intf(v float64) string { return units.Count(int64(math.Round(v))) }

// secf writes seconds with three decimals, or as many as two significant
// digits of a shorter time take.
func secf(v float64) string {
	d := 3
	if v > 0 && v < 0.01 {
		d = 1 - int(math.Floor(math.Log10(v)))
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}
func mibf(v float64) string { return strconv.FormatFloat(v/(1<<20), 'f', 0, 64) }

// writeTables writes the tables of the explicit searches: states, time,
// counterexample length and peak memory per model and column, the paper's
// rows beside ours, and the swarm's bound.
func writeTables(w io.Writer, md bool, models []Model, strats []string, recs []Record, workers int) {
	tables := []struct {
		title string
		val   func(Record) float64
		f     func(float64) string
		paper func(heuristics.PaperRow, int) string
	}{
		{"States generated before the error (exhaustive models: all reachable states)", shownStates, intf,
			func(p heuristics.PaperRow, i int) string { return units.Count(int64(p.States[i])) }},
		{"Time to find the error (seconds)", func(r Record) float64 { return r.Seconds }, secf,
			func(p heuristics.PaperRow, i int) string { return secf(p.Seconds[i]) }},
		{"Counterexample length (transitions)", func(r Record) float64 {
			if r.Kind == "" {
				return math.NaN()
			}
			return float64(r.TraceLength)
		}, intf, nil},
		{"Peak memory (MiB)", func(r Record) float64 { return float64(r.PeakMemory) }, mibf, nil},
	}
	for ti, t := range tables {
		if ti > 0 {
			fmt.Fprintln(w)
		}
		header := append([]string{"model"}, strats...)
		var rows [][]string
		for _, m := range models {
			row := []string{m.Name}
			for _, s := range strats {
				row = append(row, summarise(recs, m.Name, s, t.val).format(t.f))
			}
			rows = append(rows, row)
			if p, ok := heuristics.PaperRowNamed(m.PaperRow); ok && t.paper != nil {
				prow := []string{"  paper: " + m.PaperRow}
				for _, s := range strats {
					v := ""
					if i := paperColumn(s); i >= 0 {
						v = t.paper(p, i)
					}
					prow = append(prow, v)
				}
				rows = append(rows, prow)
			}
		}
		if md {
			fmt.Fprintf(w, "**%s**\n\n", t.title)
			fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat("---|", len(header)))
			for _, r := range rows {
				fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
			}
			continue
		}
		fmt.Fprintln(w, t.title)
		writeAligned(w, append([][]string{header}, rows...))
	}
	for _, s := range strats {
		if b := swarmBound(models, strats, recs, s, workers); b != "" {
			fmt.Fprintf(w, "\n%s\n", b)
		}
	}
	note := "≥: a limit stopped the run; (a–b): the spread of the runs (seeds, rounds) around their median; !: not the manifest's verdict."
	if md {
		fmt.Fprintf(w, "\n%s Paper rows: Rungta & Mercer, Tables 1 and 2 (another simulator and machine: compare ratios).\n", note)
	} else {
		fmt.Fprintf(w, "\n%s\npaper rows: Rungta & Mercer, Tables 1 and 2 (another simulator and machine: compare ratios)\n", note)
	}
}
