package main

import (
	"bytes"
	"fmt"
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

// TestOpsUpToDate fails when sim/ops.go is not what the generator makes
// of sim/steps.in.go and sim/ops/ops.go: run go generate in sim.
func TestOpsUpToDate(t *testing.T) {
	in := filepath.Join("..", "..", "ops", "ops.go")
	src, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	hostIn := filepath.Join("..", "..", "steps.in.go")
	host, err := os.ReadFile(hostIn)
	if err != nil {
		t.Fatal(err)
	}
	want, err := generateOps(in, src, hostIn, host)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "ops.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("sim/ops.go is out of date: run go generate in sim (go run ./alu/gen)")
	}
}

// TestOpsUnsupported: what the dispatch's generator cannot place in the
// simulator's loop stops it.
func TestOpsUnsupported(t *testing.T) {
	const host = "package sim\nfunc (x *stepper) steps() {\n\texec(in, pc, ea)\n}\n"
	const exec = "package ops\nfunc Exec[M Machine[B, W, F], B, W, F any](m M, in *isa.Inst, pc, ea uint16) {\n%s\n}\n"
	for _, body := range []string{
		"m.SetA(m.Jump(pc))",     // a statement used as a value
		"x := m.A(); m.SetB(x)",  // the stepper's name
		"for {}",                 // a loop
		"m.Frob()",               // no such method
		"alu.Add8(m.A(), m.B())", // alu without the machine
	} {
		if _, err := generateOps("x.go", []byte(fmt.Sprintf(exec, body)), "h.go", []byte(host)); err == nil {
			t.Errorf("generated code from %q", body)
		}
	}
	good := fmt.Sprintf(exec, "m.SetA(m.B())")
	if _, err := generateOps("x.go", []byte(good), "h.go", []byte(host)); err != nil {
		t.Errorf("a plain dispatch: %v", err)
	}
	for _, h := range []string{
		"package sim\nfunc f() {}\n",                             // no call of exec
		"package sim\nfunc f() {\n\tif exec(in, pc, ea) {}\n}\n", // not alone on its line
	} {
		if _, err := generateOps("x.go", []byte(good), "h.go", []byte(h)); err == nil {
			t.Errorf("generated code into %q", h)
		}
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
