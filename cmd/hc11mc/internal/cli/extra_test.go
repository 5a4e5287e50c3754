package cli

// extraStrategies are the heuristic searches added to the model tests.
var extraStrategies = [][]string{
	{"--search", "best", "--heuristic", "fsm"},
	{"--search", "best", "--heuristic", "efsm", "--k", "1"},
	{"--search", "astar", "--heuristic", "efsm"},
	{"--search", "best", "--heuristic", "aicfg", "--k", "2"},
}
