package heuristics

// The figures Rungta & Mercer report for their benchmarks ("A
// context-sensitive structural heuristic for guided search model
// checking", Section 4): Table 1, the number of states generated before
// the error state is found, and Table 2, the wall-clock time taken, under
// breadth-first search, depth-first search, the FSM distance and the
// extended FSM distance. They were measured on the Estes model checker
// (GDB 6.1.1 with its m68hc11 simulator) on a 1.8 GHz Pentium III, so only
// their ratios compare with this checker's figures; `hc11mc bench` prints
// them beside its own.

// PaperColumn is a column of the paper's Tables 1 and 2: a search order, as
// --search spells it, and the heuristic that ranked it.
type PaperColumn struct {
	Search    string
	Heuristic Kind
}

// PaperColumns are the columns of Tables 1 and 2, in the paper's order.
var PaperColumns = [4]PaperColumn{{"bfs", None}, {"dfs", None}, {"best", FSM}, {"best", EFSM}}

// PaperRow is one model's row in Tables 1 and 2, by PaperColumns.
type PaperRow struct {
	Model   string     // the paper's name for the model
	States  [4]int     // Table 1: states generated before the error state
	Seconds [4]float64 // Table 2: seconds to find it (the paper's 3m23s is 203)
}

// PaperRows are the eight rows of Tables 1 and 2.
var PaperRows = []PaperRow{
	{"Hyman", [4]int{3550, 5944, 2715, 881}, [4]float64{1.70, 2.89, 1.33, 1.28}},
	{"Naive Dining-Phil2", [4]int{19013, 8066, 22701, 3155}, [4]float64{7.33, 2.02, 13.38, 3.56}},
	{"Dining-Phil2", [4]int{48068, 33523, 87974, 6535}, [4]float64{20.56, 10.52, 53.65, 6.95}},
	{"Moody Dining-Phil2", [4]int{87974, 33523, 86139, 6535}, [4]float64{40.62, 10.09, 51.42, 7.01}},
	{"Naive Dining-Phil3", [4]int{485648, 382359, 608595, 369328}, [4]float64{203, 108, 352, 583}},
	{"Naive Dining-Phil3 (branch points)", [4]int{18281, 10667, 12674, 9341}, [4]float64{9.45, 2.93, 8.69, 14.62}},
	{"Dining-Phil3 (branch points)", [4]int{77777, 75947, 40327, 34328}, [4]float64{37.88, 22.58, 26.81, 52.60}},
	{"Moody Dining-Phil3 (branch points)", [4]int{118979, 68233, 51163, 40749}, [4]float64{59.44, 20.33, 34.83, 63}},
}

// PaperRowNamed returns the row of the model the paper calls name.
func PaperRowNamed(name string) (PaperRow, bool) {
	for _, r := range PaperRows {
		if r.Model == name {
			return r, true
		}
	}
	return PaperRow{}, false
}

// PaperColumnOf returns the index in PaperColumns of the search order and
// heuristic, or -1 when the paper has no such column.
func PaperColumnOf(search string, h Kind) int {
	for i, c := range PaperColumns {
		if c.Search == search && c.Heuristic == h {
			return i
		}
	}
	return -1
}
