//go:build !linux

package cli

import "os"

// rawTerminal is not available here: input is read a line at a time.
func rawTerminal(f *os.File) (restore func(), ok bool) { return nil, false }
