package loader

import (
	"strings"
	"testing"
)

// TestStubs: each stub's name starts with StubPrefix and leads back to it;
// StubAddr ignores section and file symbols of a stub's name.
func TestStubs(t *testing.T) {
	for s := NoStub + 1; s < NumStubs; s++ {
		if !strings.HasPrefix(s.String(), StubPrefix) {
			t.Errorf("stub %d is named %q", s, s)
		}
		if got, ok := StubNamed(s.String()); !ok || got != s {
			t.Errorf("StubNamed(%q) = %d, %v", s, got, ok)
		}
	}
	if _, ok := StubNamed("__mc_nothing"); ok {
		t.Error("an unknown name is a stub")
	}
	img := &Image{Symbols: []Symbol{
		{Name: "__mc_error", Addr: 0xD000, Kind: SymSection},
		{Name: "__mc_lock", Addr: 0xD010, Kind: SymNone},
	}}
	if _, ok := img.StubAddr(StubError); ok {
		t.Error("a section symbol counts as a stub")
	}
	if a, ok := img.StubAddr(StubLock); !ok || a != 0xD010 {
		t.Errorf("StubAddr(lock) = 0x%04X, %v", a, ok)
	}
}
