package prefetch

import "unsafe"

// Value starts fetching the cache line holding the start of *p; p may be
// nil.
func Value[T any](p *T) { addr(unsafe.Pointer(p)) }

// Slice starts fetching every cache line of the elements of s (for a
// small slice: a state's threads, say).
func Slice[T any](s []T) {
	if len(s) == 0 {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(s))
	n := uintptr(len(s)) * unsafe.Sizeof(s[0])
	for off := uintptr(0); off < n; off += 64 {
		addr(unsafe.Add(p, off))
	}
	// The last line, when the elements end past a line's start.
	addr(unsafe.Add(p, n-1))
}
