package cli

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/cex/gdbremote"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// serveLive serves the run of m with options ro to one GDB session on
// o.gdb (run --gdb [HOST]:PORT): it listens, says how to connect, and
// runs the firmware as GDB asks until GDB detaches, kills the target or
// goes away. The SCI's output goes where run prints it (ro.Output), and
// endOutput ends it as run does. Then it prints
// run's summary when the run ended (its exit code: 1 at a violation),
// else how far it went (exit 0).
func serveLive(o *runOptions, path string, img *loader.Image, m *sim.Machine, ro sim.RunOptions, endOutput func(), stderr io.Writer, ignore map[sim.Kind]bool) error {
	ln, err := listenGDB(o.gdb)
	if err != nil {
		return err
	}
	defer ln.Close()
	options := func() sim.RunOptions {
		r := ro
		if o.seedSet {
			r.Rand = rand.New(rand.NewPCG(o.seed, 0x68c11)) // the same choices at every start
		}
		return r
	}
	l := gdbremote.NewLive(m, options)
	l.Explain = func(v *sim.Violation) string { return cex.Describe(img, v) }
	fmt.Fprintf(stderr, "serving the run of %s to GDB on %s, stopped at 0x%04X\n", path, ln.Addr(), m.Config.Entry)
	fmt.Fprintf(stderr, "  m68hc11-elf-gdb %s -ex 'target remote %s'\n", path, ln.Addr())
	conn, err := ln.Accept()
	if err != nil {
		return err
	}
	defer conn.Close()
	serr := gdbremote.NewLiveServer(l).Serve(conn)
	endOutput()
	if serr != nil && !errors.Is(serr, net.ErrClosed) {
		fmt.Fprintf(stderr, "GDB session ended: %v\n", serr)
	}
	res := l.Result()
	if !l.Done() {
		fmt.Fprintf(stderr, "GDB session ended after %d instructions, %d cycles (%s at --xtal %s): the run had not ended\n",
			res.Steps, res.Cycles, formatSeconds(float64(res.Cycles)*4/o.xtal), formatFreq(o.xtal))
		return nil
	}
	return runSummary(o, img, res, stderr, ignore)
}
