//go:build amd64 || arm64

// Package prefetch asks the processor to start loading memory it will read
// soon, without waiting for it.
//
// The visited-state table of a large search is probed at random, once per
// transition, and nearly every probe misses the processor's caches. A
// successor's slot is known as soon as its key is computed, but it is read
// only after the keys of the other successors of the same state are: a
// prefetch issued in between lets that work, and the other successors' own
// misses, overlap with the wait. A plain load (summed into a sink) overlaps
// the misses with each other but stalls the core once its reorder window
// fills; a prefetch instruction retires at once.
//
// Go exposes no prefetch intrinsic outside its runtime, so the hint is one
// instruction of assembly: PREFETCHT0 on amd64, PRFM PLDL1KEEP on arm64;
// elsewhere it does nothing. A prefetch never faults, whatever the address.
package prefetch

import "unsafe"

// Word starts fetching the cache line holding *p.
//
//go:noescape
func Word(p *uint64)

// Bytes starts fetching the cache line holding the start of b, which may
// be empty.
//
//go:noescape
func Bytes(b []byte)

// addr starts fetching the cache line holding p.
//
//go:noescape
func addr(p unsafe.Pointer)
