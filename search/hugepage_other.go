//go:build !linux

package search

// hugeFrom is the size of the smallest table given huge pages (see the
// Linux version).
const hugeFrom = 64 << 20

// adviseHuge does nothing where there is no madvise (see the Linux
// version).
func adviseHuge([]uint64) {}
