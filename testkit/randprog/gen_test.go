package randprog

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/sim"
)

// TestEncode: every instruction of the four opcode pages, encoded with
// enc, decodes back to itself with its operands, in the length of its
// table row.
func TestEncode(t *testing.T) {
	if len(opcodes) != isa.NumOpcodes {
		t.Fatalf("%d instructions encodable, the tables define %d", len(opcodes), isa.NumOpcodes)
	}
	for k, e := range opcodes {
		b := enc(k.mn, k.mode, 0x1234&operandMask(k.mode), 0x5A, -3)
		in, err := isa.Decode(b)
		if err != nil {
			t.Errorf("%s %s: % x does not decode: %v", k.mn, k.mode, b, err)
			continue
		}
		if in.Op.String() != k.mn || in.Mode != k.mode || int(in.Len) != len(b) || in.Len != e.len {
			t.Errorf("%s %s: % x decodes as %s %s, %d bytes", k.mn, k.mode, b, in.Op, in.Mode, in.Len)
		}
		switch k.mode {
		case isa.Imm8, isa.Dir, isa.IdxX, isa.IdxY, isa.Imm16, isa.Ext:
			if in.Operand != 0x1234&operandMask(k.mode) {
				t.Errorf("%s %s: operand %#x", k.mn, k.mode, in.Operand)
			}
		case isa.Rel:
			if in.Rel != -3 {
				t.Errorf("%s: displacement %d", k.mn, in.Rel)
			}
		case isa.BitDir, isa.BitIdxX, isa.BitIdxY, isa.BrDir, isa.BrIdxX, isa.BrIdxY:
			if in.Operand != 0x34 || in.Mask != 0x5A || k.mode >= isa.BrDir && in.Rel != -3 {
				t.Errorf("%s %s: operand %#x mask %#x rel %d", k.mn, k.mode, in.Operand, in.Mask, in.Rel)
			}
		}
	}
}

func operandMask(m isa.Mode) uint16 {
	if m == isa.Imm16 || m == isa.Ext {
		return 0xFFFF
	}
	return 0xFF
}

// TestEncodeSpotCheck: a few encodings as the reference manual gives
// them, so that a table read backwards cannot agree with itself alone.
func TestEncodeSpotCheck(t *testing.T) {
	for _, c := range []struct {
		got, want []byte
	}{
		{imm8("ldaa", 0x12), []byte{0x86, 0x12}},
		{ext("staa", 0x103D), []byte{0xB7, 0x10, 0x3D}},
		{idy("staa", 0), []byte{0x18, 0xA7, 0x00}},
		{imm16("lds", 0x01FF), []byte{0x8E, 0x01, 0xFF}},
		{imm16("ldy", 0xDF00), []byte{0x18, 0xCE, 0xDF, 0x00}},
		{enc("cpy", isa.Imm16, 0xD05E, 0, 0), []byte{0x18, 0x8C, 0xD0, 0x5E}},
		{idx("jmp", 0), []byte{0x6E, 0x00}},
		{ext("jsr", 0xDF00), []byte{0xBD, 0xDF, 0x00}},
		{rel("bra", -2), []byte{0x20, 0xFE}},
		{inh("pshx"), []byte{0x3C}},
		{enc("bset", isa.BitIdxX, 0, 1, 0), []byte{0x1C, 0x00, 0x01}},
		{mem("ldaa", 0x40, true), []byte{0x96, 0x40}},
		{mem("ldaa", 0x140, true), []byte{0xB6, 0x01, 0x40}},
	} {
		if !bytes.Equal(c.got, c.want) {
			t.Errorf("encoded % x, want % x", c.got, c.want)
		}
	}
}

// TestGenerateValid: every program loads as the command line loads it;
// a harness program makes a machine; its code decodes from the reset
// vector; the same seed makes the same program.
func TestGenerateValid(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	for seed := range uint64(n) {
		p := Generate(rand.New(rand.NewPCG(seed, 1)), Options{})
		img, err := p.Image()
		if err != nil {
			t.Fatalf("program %d: %v\n%s", seed, err, p)
		}
		if !img.HasEntry || img.Entry != codeOrg {
			t.Fatalf("program %d: entry %#x", seed, img.Entry)
		}
		if p.Mode == Harness {
			cfg, err := p.Config(img)
			if err != nil {
				t.Fatalf("program %d: %v", seed, err)
			}
			if _, err := sim.NewMachine(img, cfg); err != nil {
				t.Fatalf("program %d: %v\n%s", seed, err, p)
			}
		} else if _, err := p.Config(img); err == nil {
			t.Errorf("program %d (%s): Config gives a machine without the chip's peripherals", seed, p.Mode)
		}
		if (len(p.Hooks) > 0) != (p.Mode != Firmware) {
			t.Errorf("program %d (%s): %d hooks", seed, p.Mode, len(p.Hooks))
		}
		again := Generate(rand.New(rand.NewPCG(seed, 1)), Options{})
		if !bytes.Equal(p.Bytes, again.Bytes) || !slices.Equal(p.CheckFlags(), again.CheckFlags()) || p.Listing != again.Listing {
			t.Fatalf("program %d: the same seed made two programs", seed)
		}
	}
}

// TestGenerateReachesProductions: over a few hundred programs, each mode
// and each production the differential tests rely on is drawn.
func TestGenerateReachesProductions(t *testing.T) {
	seen := map[string]int{}
	for seed := range uint64(600) {
		p := Generate(rand.New(rand.NewPCG(seed, 2)), Options{})
		for _, f := range p.Features {
			seen[f]++
		}
	}
	var missing []string
	for _, f := range []string{
		"mode-harness", "mode-harness+chip", "mode-firmware",
		"stacks-even", "stacks-tight", "stacks-random", "symbols-region-bottoms", "symbols-inside-regions", "symbols-equates", "symbols-data",
		"end-rts", "end-exit", "end-fall-exit", "end-loop", "end-spin", "end-spin-regs", "end-wai",
		"handoff-cs", "handoff-pulled", "publish-race", "ram-over-rom-code", "event-window", "handler-reads-below-sp", "fetch-below-sp",
		"stub-by-fall-through", "stub-by-computed-jsr", "stub-by-computed-jmp", "stub-by-jmp", "stub-from-ram",
		"lock", "cs", "atomic", "assert", "nondet-across-stub", "nondet-store", "flag-wait",
		"ram-code", "self-modifying", "stack-code", "rom-table", "straddle", "publish", "through", "abs-stack",
		"irq-handler", "irq-window", "input-in-stack", "pull-read", "fetch-below", "image-loads-ram", "illegal-vector",
		"sci-send", "sci-receive", "port-input", "timer", "expect-output", "init-d1", "init-e1", "init-00", "init-0f", "stack-range",
	} {
		if seen[f] == 0 {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		t.Errorf("never drawn in 600 programs: %s", strings.Join(missing, " "))
	}
}

// TestProgramListing: the listing shows the program's code, with its
// labels and the harness stubs named.
func TestProgramListing(t *testing.T) {
	p := Generate(rand.New(rand.NewPCG(3, 3)), Options{Modes: []Mode{Harness}})
	for _, w := range []string{"main:", "lds\t#", "__mc_thread_create", "flags:"} {
		if !strings.Contains(p.String(), w) {
			t.Errorf("the description has no %q:\n%s", w, p)
		}
	}
	if fw := Generate(rand.New(rand.NewPCG(3, 3)), Options{Modes: []Mode{Firmware}}); len(fw.Hooks) != 0 || fw.Mode != Firmware {
		t.Errorf("Options.Modes: asked for firmware, got %s with %d hooks", fw.Mode, len(fw.Hooks))
	}
}
