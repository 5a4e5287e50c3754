//go:build !linux

package memlimit

// sysinfoTotal knows no way to ask other systems: no default limit there.
func sysinfoTotal() int64 { return 0 }
