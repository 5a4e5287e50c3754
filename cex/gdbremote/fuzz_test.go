package gdbremote

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzPackets: no sequence of packets (one per line) makes the server
// panic or leave its position outside the history; every packet gets an
// answer or ends the session.
func FuzzPackets(f *testing.F) {
	for _, seed := range []string{
		"qSupported:swbreak+\n?\ng\nm0,10\nZ0,d03d,1\nc\nbc\nbs\ns",
		"Hg2\nHc-1\nvCont;s:1;c\nvCont;s:\nH\nHgp1.1\nM0,2:00ff\nG00\nP4=d00d\np4\np9",
		"Z2,0,2\nc\nc\nbc\nz2,0,2\nZ3,0,1\nZ0,zz,1\nqThreadExtraInfo,5\nqRcmd,7768657265\nqRcmd,zz",
		"m0,ffffffff\nM0,ffffffff:00\nvKill;1\nD",
	} {
		f.Add(seed)
	}
	_, h := history(f, "tick_torn.json")
	f.Fuzz(func(t *testing.T, in string) {
		s := NewServer(h)
		var out bytes.Buffer
		s.c = &conn{r: nil, w: &out, noAck: true}
		for _, p := range strings.Split(in, "\n") {
			out.Reset()
			err := s.handle(p)
			if s.Position() < 0 || s.Position() > h.Len() {
				t.Fatalf("%q: position %d outside 0..%d", p, s.Position(), h.Len())
			}
			if err != nil {
				if err == errClosed {
					return
				}
				t.Fatalf("%q: %v", p, err)
			}
			if !bytes.HasPrefix(out.Bytes(), []byte("$")) {
				t.Fatalf("%q: no answer", p)
			}
		}
	})
}
