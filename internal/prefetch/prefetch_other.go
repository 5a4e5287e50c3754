//go:build !amd64 && !arm64

// Package prefetch asks the processor to start loading memory it will read
// soon; on this architecture it has no instruction for it and does nothing
// (see the amd64 version).
package prefetch

import "unsafe"

// Word would start fetching the cache line holding *p.
func Word(p *uint64) {}

// Bytes would start fetching the cache line holding the start of b.
func Bytes(b []byte) {}

func addr(p unsafe.Pointer) {}
