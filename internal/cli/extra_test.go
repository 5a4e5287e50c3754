package cli

// extraStrategies are the heuristic searches added to the model tests.
var extraStrategies [][]string
