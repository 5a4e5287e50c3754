package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedUpToDate fails when sim/alu.go is not what the generator
// makes of sim/alu/alu.go: run go generate in sim.
func TestGeneratedUpToDate(t *testing.T) {
	in := filepath.Join("..", "alu.go")
	src, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	want, err := generate(in, src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "alu.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("sim/alu.go is out of date: run go generate in sim (go run ./alu/gen)")
	}
}

// TestUnsupported: the generator refuses what it cannot translate rather
// than copying it.
func TestUnsupported(t *testing.T) {
	for _, src := range []string{
		"package alu\nfunc F[D Domain[B, W, F], B, W, F any](d D, a B) B { for { } }",
		"package alu\nfunc F[D Domain[B, W, F], B, W, F any](d D, a B) B { return d.Frob(a) }",
		"package alu\nfunc F[D Domain[B, W, F], B, W, F any](d D, a B) B { g := d; return g.K8(1) }",
	} {
		if _, err := generate("x.go", []byte(src)); err == nil {
			t.Errorf("generated code from %q", src)
		}
	}
}
