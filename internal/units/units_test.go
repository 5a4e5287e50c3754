package units

import "testing"

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 1536: "1.5 KiB",
		512 << 20: "512 MiB", 1536 << 20: "1.5 GiB", 3 << 40: "3 TiB", 1<<30 + 1: "1 GiB",
	} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0", 999: "999", 1000: "1,000", 19013: "19,013", 1234567: "1,234,567", -1234: "-1,234", -123: "-123",
	} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestOf(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{{0, "byte", "0 bytes"}, {1, "byte", "1 byte"}, {2, "timer event", "2 timer events"}} {
		if got := Of(c.n, c.noun); got != c.want {
			t.Errorf("Of(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
