// Package units writes the quantities the tool prints in more than one
// place: sizes in binary units (the memory limits of check, the swarm's
// members and the benchmarks) and counts with their digits grouped by
// thousands (the swarm's members, the benchmark tables).
//
// It is not about reading them: the command line reads sizes and counts
// from its flags (package cmd/hc11mc/internal/cli), exactly, and says which forms it
// takes.
package units

import (
	"fmt"
	"strconv"
	"strings"
)

// Size writes a size in the largest binary unit it reaches, to a tenth:
// 1536 MiB is 1.5 GiB; below 1 KiB, in bytes.
func Size(n int64) string {
	for _, u := range []struct {
		name string
		m    int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.m {
			return strings.TrimSuffix(strconv.FormatFloat(float64(n)/float64(u.m), 'f', 1, 64), ".0") + " " + u.name
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// Count writes n with its digits grouped by thousands: 1,234,567.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Of writes n things, the noun in the singular for one and with an s
// after it otherwise: "1 byte", "2 bytes", "0 timer events".
func Of(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
