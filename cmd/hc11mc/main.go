// Command hc11mc is a model checker for Motorola 68HC11 firmware. See
// `hc11mc --help`; the work is done in package cli.
package main

import (
	"os"

	"github.com/hc11mc/hc11mc/cmd/hc11mc/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
