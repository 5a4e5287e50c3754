//go:build race

package search

// raceEnabled says the tests run under the race detector, which makes
// them several times slower: they explore smaller spaces.
const raceEnabled = true
