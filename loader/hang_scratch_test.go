package loader

import (
	"math/rand"
	"os"
	"testing"
	"time"
)

func TestScratchHang(t *testing.T) {
	for _, name := range []string{"prog_g.elf", "prog.elf", "lma.elf"} {
		seed := testdata(t, name)
		r := rand.New(rand.NewSource(2))
		for i := 0; i < 30000; i++ {
			d := append([]byte(nil), seed...)
			n := 1 + r.Intn(8)
			for j := 0; j < n; j++ {
				d[r.Intn(len(d))] = byte(r.Intn(256))
			}
			done := make(chan bool)
			go func() { LoadBytes("x.elf", d, Options{AllowNoEntry: true}); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				os.WriteFile("/tmp/hang2.elf", d, 0o644)
				t.Fatalf("%s: hang at %d", name, i)
			}
		}
	}
}
