package randprog

import (
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
)

// The statements of a thread's (or the handler's) body: weighted
// productions, some nesting a body of their own.

// prod is one production.
type prod struct {
	name string
	w    int
	ok   func(g *gen, c *tctx) bool
	emit func(g *gen, c *tctx)
}

var (
	always     = func(*gen, *tctx) bool { return true }
	inThread   = func(_ *gen, c *tctx) bool { return c.th != nil }
	harnessThr = func(g *gen, c *tctx) bool { return g.harness() && c.th != nil }
	shallow    = func(_ *gen, c *tctx) bool { return c.depth < 2 }
	firmware   = func(g *gen, _ *tctx) bool { return g.mode == Firmware }
)

var prods []prod

func init() {
	prods = []prod{
		{"reg", 6, always, (*gen).regInstr},
		{"load", 3, always, func(g *gen, c *tctx) { g.memOp([]string{"ldaa", "ldab"}[g.r.IntN(2)], g.anyVar()) }},
		{"store", 3, always, func(g *gen, c *tctx) { g.memOp([]string{"staa", "stab"}[g.r.IntN(2)], g.anyVar()) }},
		{"rmw", 2, always, (*gen).rmw},
		{"assert", 3, always, (*gen).assert},
		{"local", 3, always, (*gen).local},
		{"straddle", 1, always, (*gen).straddle},
		{"publish", 1, inThread, (*gen).publish},
		{"through", 1, always, (*gen).through},
		{"abs-stack", 2, always, (*gen).absStack},
		{"lock", 2, func(g *gen, c *tctx) bool { return harnessThr(g, c) && !c.inLock && c.depth < 2 }, (*gen).lockBlock},
		{"cs", 2, func(g *gen, c *tctx) bool { return harnessThr(g, c) && !c.inCS && c.depth < 2 }, (*gen).csBlock},
		{"atomic", 1, func(g *gen, c *tctx) bool { return harnessThr(g, c) && !c.atomic && c.depth < 2 }, (*gen).atomicBlock},
		{"flag-set", 1, always, func(g *gen, c *tctx) {
			g.a.code(imm8("ldaa", 1), mem("staa", g.flag(g.r.IntN(2)), g.chance(2)))
		}},
		{"flag-wait", 1, func(g *gen, c *tctx) bool { return c.th != nil && len(g.threads) > 1 }, func(g *gen, c *tctx) {
			g.waitFlag(g.flag(g.r.IntN(2)))
		}},
		{"nondet-across-stub", 3, harnessThr, (*gen).nondetAcross},
		{"nondet-store", 1, harnessThr, (*gen).nondetStore},
		{"call", 1, func(_ *gen, c *tctx) bool { return c.depth < 2 }, (*gen).call},
		{"ram-code", 2, func(_ *gen, c *tctx) bool { return c.depth < 2 }, (*gen).ramRoutine},
		{"stack-code", 2, inThread, (*gen).stackCode},
		{"rom-table", 1, inThread, (*gen).romTable},
		{"irq-window", 2, func(g *gen, c *tctx) bool { return g.irq && c.th != nil && !c.window && !c.atomic && c.depth < 2 }, (*gen).irqWindow},
		{"if", 2, shallow, (*gen).ifBlock},
		{"yield", 1, harnessThr, func(g *gen, c *tctx) { g.jsrStub("__mc_yield") }},
		{"input", 1, func(g *gen, c *tctx) bool { return g.mode == Harness }, (*gen).input},
		{"pull-read", 1, inThread, (*gen).pullRead},
		{"fetch-below", 1, func(g *gen, c *tctx) bool { return c.th != nil && g.chip() }, (*gen).fetchBelow},
		{"sci-send", 2, firmware, func(g *gen, c *tctx) { g.sciSend(c) }},
		{"sci-receive", 2, func(g *gen, c *tctx) bool { return firmware(g, c) && g.sciOn && !c.handler }, (*gen).sciReceive},
		{"port-input", 1, firmware, (*gen).portInput},
		{"timer", 1, firmware, (*gen).timer},
	}
}

// stmt generates one statement.
func (g *gen) stmt(c *tctx) {
	total := 0
	for i := range prods {
		if prods[i].ok(g, c) {
			total += prods[i].w
		}
	}
	n := g.r.IntN(total)
	for i := range prods {
		p := &prods[i]
		if !p.ok(g, c) {
			continue
		}
		if n -= p.w; n < 0 {
			g.feat(p.name)
			p.emit(g, c)
			return
		}
	}
}

// block generates a nested body of one or two statements.
func (g *gen) block(c *tctx) {
	d := *c
	d.depth++
	for range 1 + g.r.IntN(2) {
		g.stmt(&d)
	}
}

// reg: an instruction that touches registers and flags only.
func (g *gen) regInstr(c *tctx) {
	switch g.r.IntN(12) {
	case 0:
		g.a.code(inh("inca"))
	case 1:
		g.a.code(inh("decb"))
	case 2:
		g.a.code(inh("clra"))
	case 3:
		g.a.code(inh("tab"))
	case 4:
		g.a.code(inh("tba"), inh("aba"))
	case 5:
		g.a.code(imm8("ldaa", uint8(g.r.IntN(3))))
	case 6:
		g.a.code(imm8("ldab", uint8(g.r.IntN(3))))
	case 7:
		g.a.code(inh("xgdx"), inh("inx"), inh("xgdx"))
	case 8:
		g.a.code(inh("nop"))
	case 9:
		g.a.code(inh("lsra"))
	case 10:
		g.a.code(imm8("adda", uint8(g.r.IntN(4))))
	default:
		g.a.code(inh("tsta"))
	}
}

// rmw: a read-modify-write of a shared byte.
func (g *gen) rmw(c *tctx) {
	v := g.anyVar()
	n := 5
	if c.loops {
		n = 3 // no counting up or down
	}
	switch (g.r.IntN(n) + 1) % 5 {
	case 1:
		g.a.code(ext("clr", v))
	case 2:
		g.a.code(imm16("ldx", v), enc("bset", isa.BitIdxX, 0, 1, 0))
	case 3:
		g.a.code(ext("com", v))
	case 4:
		g.a.code(ext("dec", v))
	default:
		g.memOp("inc", v)
	}
}

// assert: a check on a shared byte. Most often the thread writes a value
// and checks, a statement later, that it is still there (a race with
// whoever else writes it); otherwise __mc_assert on the byte as it is
// (fails on 0, or with an increment before it on 0xFF), or in firmware a
// violation when the byte has some value.
func (g *gen) assert(c *tctx) {
	v := g.anyVar()
	if g.chance(3) {
		g.memOp("ldaa", v)
		if g.harness() {
			switch g.r.IntN(3) {
			case 0:
				g.a.code(imm8("suba", uint8(1+g.r.IntN(2))))
			case 1:
				g.a.code(inh("inca"))
			}
			g.jsrStub("__mc_assert")
			return
		}
		g.a.code(imm8("cmpa", uint8(1+g.r.IntN(2))))
		g.bad(c, "bne")
		return
	}
	k := uint8(1 + g.r.IntN(3))
	g.a.code(imm8("ldaa", k))
	g.memOp("staa", v)
	if g.chance(2) {
		d := *c
		d.depth = 2 // one statement, not nesting
		g.stmt(&d)
	}
	g.memOp("ldaa", v)
	g.a.code(imm8("cmpa", k))
	g.bad(c, "beq")
}

// local: stack traffic of the thread's own: pushes, pulls, accesses
// through TSX.
func (g *gen) local(c *tctx) {
	switch g.r.IntN(5) {
	case 0:
		g.a.code(inh("psha"), inh("tsx"), idx("ldaa", 0), inh("inca"), idx("staa", 0), inh("pula"))
	case 1:
		g.a.code(inh("pshb"), inh("pshb"), inh("pulb"), inh("pulb"))
	case 2:
		g.a.code(inh("pshx"), inh("tsx"), idx("ldd", 0), inh("pulx"))
	case 3:
		g.a.code(inh("des"), inh("tsx"), idx("staa", 0), inh("ins"))
	default:
		g.a.code(enc("pshy", isa.Inh, 0, 0, 0), enc("tsy", isa.Inh, 0, 0, 0), idy("ldab", 1), enc("puly", isa.Inh, 0, 0, 0))
	}
}

// straddle: a 16-bit access across the top of a stack region (the byte
// at SP and the one above, or a thread's top and the byte above it), or
// across the end of RAM.
func (g *gen) straddle(c *tctx) {
	t := g.threads[g.r.IntN(len(g.threads))]
	switch g.r.IntN(5) {
	case 0:
		g.a.code(inh("tsx"), inh("dex"), idx([]string{"ldd", "ldx"}[g.r.IntN(2)], 0))
	case 1:
		g.a.code(ext("ldd", t.top))
	case 2:
		g.a.code(inh("tsx"), inh("dex"), idx("std", 0))
	case 3:
		g.a.code(ext("ldx", t.top))
	default:
		if g.chance(3) {
			g.a.code(ext("ldd", g.ram+ramEnd))
		} else {
			g.a.code(ext("std", t.top-1))
		}
	}
}

// publish: a local's address stored where other threads read it.
func (g *gen) publish(c *tctx) {
	g.a.code(imm8("ldaa", 1), inh("psha"), inh("tsx"), ext("stx", g.ptr()))
	if g.chance(2) {
		g.a.code(idx("ldaa", 0))
		if g.harness() {
			g.jsrStub("__mc_assert")
		} else {
			g.bad(c, "bne")
		}
	}
	g.a.code(inh("pula"))
}

// through: a write through the published address, when there is one.
func (g *gen) through(c *tctx) {
	g.a.code(ext("ldx", g.ptr()), imm16("cpx", 0))
	skip := g.newLabel("null")
	g.a.branch("beq", skip)
	g.a.code(idx([]string{"inc", "clr", "clr"}[g.r.IntN(3)], 0))
	g.a.label(skip)
}

// absStack: an access, by absolute address, to some thread's stack.
func (g *gen) absStack(c *tctx) {
	t := g.threads[g.r.IntN(len(g.threads))]
	a := t.top - uint16(g.r.IntN(4))
	mn := []string{"ldaa", "staa", "inc", "ldab"}[g.r.IntN(4)]
	if c.loops && mn == "inc" {
		mn = "clr"
	}
	if g.chance(4) {
		g.a.code(imm16("ldx", a), idx(mn, 0))
		return
	}
	g.a.code(ext(mn, a))
}

// lockBlock: a body under a lock, not always released, sometimes
// releasing the other lock.
func (g *gen) lockBlock(c *tctx) {
	l := g.lock(g.r.IntN(2))
	g.a.code(imm16("ldx", l))
	g.jsrStub("__mc_lock")
	d := *c
	d.inLock = true
	g.block(&d)
	switch g.r.IntN(8) {
	case 0:
		return
	case 1:
		l = g.lock(0) + g.lock(1) - l
	}
	g.a.code(imm16("ldx", l))
	g.jsrStub("__mc_unlock")
}

// csBlock: a body inside a critical section, not always left.
func (g *gen) csBlock(c *tctx) {
	g.jsrStub("__mc_cs_enter")
	d := *c
	d.inCS = true
	g.block(&d)
	if !g.chance(6) {
		g.jsrStub("__mc_cs_exit")
	}
}

// atomicBlock: a body inside an atomic section.
func (g *gen) atomicBlock(c *tctx) {
	g.jsrStub("__mc_atomic_begin")
	d := *c
	d.atomic = true
	g.block(&d)
	g.jsrStub("__mc_atomic_end")
}

// nondetAcross: a drawn value kept in B across a harness stub entered by
// one of the ways a call from ROM is not — falling into it, JMP, a
// computed JMP or JSR, a JSR from RAM — then tested.
func (g *gen) nondetAcross(c *tctx) {
	n := uint8(1 + g.r.IntN(2))
	g.a.code(imm16("ldd", uint16(n)))
	g.jsrStub("__mc_nondet")
	stub := []string{"__mc_yield", "__mc_yield", "__mc_cs_exit", "__mc_assert"}[g.r.IntN(4)]
	if c.inCS && stub == "__mc_cs_exit" {
		stub = "__mc_yield"
	}
	pre := []byte(nil)
	if stub == "__mc_assert" {
		pre = imm8("ldaa", 1)
	}
	how := g.r.IntN(6)
	switch how {
	case 0:
		if l := g.fallInto(stub, cat(pre, inh("nop"))); l != "" {
			g.feat("stub-by-fall-through")
			g.a.extL("jsr", l)
			break
		}
		fallthrough
	case 1:
		g.feat("stub-by-computed-jsr")
		g.a.code(pre)
		if g.chance(2) {
			g.a.code(imm16("ldx", g.stub(stub)), idx("jsr", 0))
		} else {
			g.a.code(imm16("ldy", g.stub(stub)), idy("jsr", 0))
		}
	case 2:
		g.feat("stub-by-computed-jmp")
		l := g.newLabel("to_stub")
		g.a.extL("jsr", l)
		g.later = append(g.later, func() {
			g.a.label(l)
			g.a.code(pre, imm16("ldx", g.stub(stub)), idx("jmp", 0))
		})
	case 3:
		g.feat("stub-by-jmp")
		l := g.newLabel("to_stub")
		g.a.extL("jsr", l)
		g.later = append(g.later, func() {
			g.a.label(l)
			g.a.code(pre, ext("jmp", g.stub(stub)))
		})
	case 4:
		routine := cat(pre, ext("jsr", g.stub(stub)), inh("rts"))
		if at := g.allocRAM(len(routine)); at != 0 {
			g.feat("stub-from-ram")
			g.copyToRAM(at, routine, "")
			g.a.code(ext("jsr", at))
			break
		}
		fallthrough
	default:
		g.a.code(pre)
		g.jsrStub(stub)
	}
	// The violation on the first value drawn, the last, or none.
	k := []uint8{0, n, n + 1}[g.r.IntN(3)]
	g.a.code(imm8("cmpb", k))
	g.bad(c, "bne")
}

// nondetStore: a drawn value stored in a shared byte, or assumed.
func (g *gen) nondetStore(c *tctx) {
	g.a.code(imm16("ldd", uint16(1+g.r.IntN(2))))
	g.jsrStub("__mc_nondet")
	if g.chance(3) {
		g.a.code(inh("tba"))
		g.jsrStub("__mc_assume")
		return
	}
	g.a.code(mem("stab", g.anyVar(), true))
}

// call: a subroutine with a body of its own.
func (g *gen) call(c *tctx) {
	l := g.newLabel("sub")
	g.a.extL("jsr", l)
	d := *c
	d.depth++
	g.later = append(g.later, func() {
		g.a.label(l)
		for range 1 + g.r.IntN(2) {
			g.stmt(&d)
		}
		g.a.code(inh("rts"))
	})
}

// ramInstr returns one instruction for code that runs from RAM or the
// stack.
func (g *gen) ramInstr(c *tctx) []byte {
	switch g.r.IntN(6) {
	case 0:
		return inh("inca")
	case 1:
		return imm8("ldaa", uint8(g.r.IntN(3)))
	case 2:
		return ext("staa", g.anyVar())
	case 3:
		return ext("inc", g.anyVar())
	case 4:
		if g.harness() && c.th != nil {
			return ext("jsr", g.stub("__mc_yield"))
		}
		return inh("tab")
	default:
		return ext("ldab", g.anyVar())
	}
}

// ramRoutine: a routine run from RAM — copied there (or loaded there by
// the image), called, and sometimes patched and called again
// (self-modifying code).
func (g *gen) ramRoutine(c *tctx) {
	first := imm8("ldaa", uint8(g.r.IntN(3)))
	body := cat(first, g.ramInstr(c))
	if g.chance(2) {
		body = cat(body, g.ramInstr(c))
	}
	routine := cat(body, inh("rts"))
	at := g.allocRAM(len(routine))
	if at == 0 {
		g.regInstr(c)
		return
	}
	g.copyToRAM(at, routine, "")
	g.a.note("call the routine at 0x%04x", at)
	if g.chance(4) {
		g.a.code(imm16("ldx", at), idx("jsr", 0))
	} else {
		g.a.code(ext("jsr", at))
	}
	if g.chance(2) {
		g.feat("self-modifying")
		g.a.note("patch the routine and call it again")
		switch g.r.IntN(3) {
		case 0:
			g.a.code(imm8("ldab", uint8(1+g.r.IntN(3))), ext("stab", at+1)) // the operand of its ldaa #
		case 1:
			g.a.code(imm8("ldab", 0x4C), ext("stab", at+2)) // inca over its second instruction's opcode
		default:
			g.a.code(imm8("ldab", 0x39), ext("stab", at+2)) // return earlier
		}
		g.a.code(ext("jsr", at))
	}
	if g.harness() && g.chance(2) {
		g.jsrStub("__mc_assert")
	}
}

// stackCode: a routine built on the stack by pushes, then called (or
// jumped to, coming back by JMP), then popped.
func (g *gen) stackCode(c *tctx) {
	body := cat(g.ramInstr(c))
	if g.chance(2) {
		body = cat(body, g.ramInstr(c))
	}
	jump := g.chance(3)
	back := g.newLabel("back")
	n := len(body)
	g.a.note("build code on the stack")
	if jump {
		// JMP back, pushed last byte first.
		g.a.imm8L("ldaa", back, false)
		g.a.code(inh("psha"))
		g.a.imm8L("ldaa", back, true)
		g.a.code(inh("psha"), imm8("ldaa", 0x7E), inh("psha"))
		n += 3
	} else {
		g.a.code(imm8("ldaa", 0x39), inh("psha"))
		n++
	}
	for i := len(body) - 1; i >= 0; i-- {
		g.a.code(imm8("ldaa", body[i]), inh("psha"))
	}
	g.a.code(inh("tsx"))
	if jump {
		g.a.code(idx("jmp", 0))
	} else {
		g.a.code(idx("jsr", 0))
	}
	g.a.label(back)
	for range n {
		g.a.code(inh("ins"))
	}
}

// romTable: bytes of a table in ROM read through SP (lds #table-1;
// pula), SP saved and restored around it.
func (g *gen) romTable(c *tctx) {
	l := g.newLabel("table")
	slot := g.save(c.th.id)
	g.a.note("read a ROM table through SP")
	g.a.code(ext("sts", slot))
	g.a.code(imm16("lds", 0)) // patched below
	fix := g.a.pc - 2
	g.a.fixups = append(g.a.fixups, fixup{at: fix, label: l + "_m1", kind: fixAbs16})
	g.a.code(inh("pula"))
	if g.chance(2) {
		g.a.code(inh("pulb"))
	}
	g.a.code(ext("lds", slot), mem("staa", g.anyVar(), true))
	g.later = append(g.later, func() {
		g.a.labels[l+"_m1"] = g.a.pc - 1
		g.a.label(l)
		g.a.data(uint8(g.r.IntN(3)), uint8(1+g.r.IntN(2)))
	})
}

// irqWindow: a body run with interrupts enabled: statements, or only
// instructions that touch registers, where the window is open between
// steps that nothing else can observe.
func (g *gen) irqWindow(c *tctx) {
	g.a.code(inh("cli"))
	if g.chance(2) {
		g.feat("irq-window-registers")
		for range 1 + g.r.IntN(3) {
			g.regInstr(c)
		}
	} else {
		d := *c
		d.window = true
		g.block(&d)
	}
	g.a.code(inh("sei"))
}

// ifBlock: a body run when a condition on A or a shared byte holds.
func (g *gen) ifBlock(c *tctx) {
	switch g.r.IntN(3) {
	case 0:
		g.a.code(inh("tsta"))
	case 1:
		g.a.code(ext("tst", g.anyVar()))
	default:
		g.a.code(mem("ldaa", g.anyVar(), true), imm8("cmpa", uint8(g.r.IntN(3))))
	}
	then, skip := g.newLabel("then"), g.newLabel("endif")
	g.a.branch([]string{"beq", "bne"}[g.r.IntN(2)], then)
	g.a.extL("jmp", skip)
	g.a.label(then)
	g.block(c)
	g.a.label(skip)
}

// input: a read of an --input byte (harness programs): a byte of the
// variables' area, or one in a stack region.
func (g *gen) input(c *tctx) {
	a := g.ram + offInput
	if g.chance(2) {
		t := g.threads[g.r.IntN(len(g.threads))]
		a = t.top - uint16(1+g.r.IntN(3))
		g.feat("input-in-stack")
	}
	key := hex4(a)
	if _, ok := g.inputs[key]; !ok {
		if len(g.inputs) > 0 {
			for k := range g.inputs {
				key = k // one --input only: keep the state space small
			}
			a = parseHex4(key)
		} else {
			g.inputs[key] = []uint8{0, 1}
		}
	}
	g.a.code(ext("ldaa", a))
	g.bad(c, "beq")
}

// pullRead: a byte pushed and pulled, then read below SP by its thread.
func (g *gen) pullRead(c *tctx) {
	k := uint8(1 + g.r.IntN(2))
	g.a.code(imm8("ldaa", k), inh("psha"), inh("pula"), inh("tsx"), inh("dex"), idx("ldab", 0), imm8("cmpb", k))
	g.bad(c, "bne")
}

// drawOpcode leaves in A one of two opcodes, nop or inca, drawn from the
// environment: __mc_nondet, or port E.
func (g *gen) drawOpcode() {
	if g.harness() {
		g.a.code(imm16("ldd", 1))
		g.jsrStub("__mc_nondet")
		g.a.code(imm8("ldaa", 0x01), inh("tstb"), rel("beq", 2), imm8("ldaa", 0x4C))
		return
	}
	g.inputs["PORTE"] = []uint8{0x01, 0x4C}
	g.a.code(ext("ldaa", g.regA(regPORTE)))
}

// fetchBelow: code built on the stack from a drawn opcode, pulled (so
// that it lies below SP), then jumped to: an instruction fetch below SP.
func (g *gen) fetchBelow(c *tctx) {
	if g.mode == Firmware && g.inputs["PORTE"] != nil && g.inputs["PORTE"][1] != 0x4C {
		g.regInstr(c)
		return
	}
	back := g.newLabel("back")
	g.a.note("code from a drawn opcode on the stack, pulled, then run below SP")
	g.drawOpcode()
	g.a.code(inh("tab"))
	g.a.imm8L("ldaa", back, false)
	g.a.code(inh("psha"))
	g.a.imm8L("ldaa", back, true)
	g.a.code(inh("psha"), imm8("ldaa", 0x7E), inh("psha"), inh("pshb"), inh("tsx"),
		inh("pula"), inh("pula"), inh("pula"), inh("pula"), inh("clra"), inh("clrb"), idx("jmp", 0))
	g.a.label(back)
	g.a.code(inh("tsta"))
	g.bad(c, "beq")
}

// sciSend: a byte sent on the SCI; --expect-output looks for it, or for
// one never sent.
func (g *gen) sciSend(c *tctx) {
	b := byte('a' + g.r.IntN(3))
	g.send(b, false)
	if g.expect == "" {
		g.expect = []string{"a", "b", "ab", "z"}[g.r.IntN(4)]
		g.feat("expect-output")
	}
}

// sciReceive: wait for a byte on the SCI and test it.
func (g *gen) sciReceive(c *tctx) {
	l := g.newLabel("rdrf")
	g.a.label(l)
	g.a.code(ext("ldab", g.regA(regSCSR)), imm8("andb", 0x20))
	g.a.branch("beq", l)
	g.a.code(ext("ldaa", g.regA(regSCDR)), imm8("cmpa", 'b'))
	g.bad(c, "bne")
}

// portInput: a read of port E, whose pins take the values of --input.
func (g *gen) portInput(c *tctx) {
	if g.inputs["PORTE"] == nil {
		g.inputs["PORTE"] = []uint8{0, 1}
	}
	g.a.code(ext("ldaa", g.regA(regPORTE)), imm8("anda", 1))
	g.bad(c, []string{"beq", "bne"}[g.r.IntN(2)])
}

// timer: the free-running counter and the output compare's flag.
func (g *gen) timer(c *tctx) {
	switch g.r.IntN(3) {
	case 0:
		g.a.code(ext("ldd", g.regA(regTCNT)), mem("std", g.v(0), true))
	case 1:
		g.a.code(ext("ldaa", g.regA(regTFLG1)), imm8("anda", 0x80))
		g.bad(c, "beq")
	default:
		g.a.code(ext("ldd", g.regA(regTCNT)), imm16("addd", 100), ext("std", g.regA(regTOC1)))
	}
}

// The firmware patterns that span the main code and the environment.

// fwEventWindow: the receiver turned on, then its status read by a
// routine in RAM (over the image's decoys when INIT moved RAM over ROM):
// a byte may arrive between the two.
func (g *gen) fwEventWindow(c *tctx) {
	g.feat("event-window")
	back := g.newLabel("from_ram")
	routine := cat(ext("ldaa", g.regA(regSCSR)), imm8("anda", 0x20), ext("jmp", 0))
	at := g.allocRAM(len(routine))
	if at == 0 {
		return
	}
	g.copyToRAM(at, routine, back)
	g.a.note("receiver on, then read its status from RAM")
	g.a.code(imm8("ldaa", 0x0C), ext("staa", g.regA(regSCCR2)))
	g.sciOn = true
	if g.sciIn == "" {
		g.sciIn = "a"
	}
	g.a.code(ext("jmp", at))
	g.a.label(back)
	g.bad(c, "beq")
}

// fwHandlerReadsBelow: the main code pushes a drawn byte under nine
// filler bytes and pulls them all; the interrupt handler, on a stack of
// its own below, reads the byte by its address.
func (g *gen) fwHandlerReadsBelow(c *tctx) {
	g.feat("handler-reads-below-sp")
	main := g.threads[0]
	at := main.top - 10
	g.a.note("a drawn byte pushed under ten filler bytes, all pulled")
	if g.inputs["PORTE"] == nil {
		g.inputs["PORTE"] = []uint8{0, 1}
	}
	g.a.code(ext("ldaa", g.regA(regPORTE)), imm8("anda", 1))
	for range 5 {
		g.a.code(inh("pshx"))
	}
	g.a.code(inh("psha"), inh("pula"))
	for range 5 {
		g.a.code(inh("pulx"))
	}
	g.a.code(inh("clra"), inh("cli"))
	g.handlerHead = append(g.handlerHead, func(c *tctx) {
		g.a.note("on a stack of its own, read the byte the main code pulled")
		g.a.code(ext("sts", g.save(3)), imm16("lds", g.ram+offStack+0x1F), ext("ldaa", at))
		g.bad(c, "beq")
		g.a.code(ext("lds", g.save(3)))
	})
}

// fwFetchBelow is fetchBelow at the end of the main code.
func (g *gen) fwFetchBelow(c *tctx) {
	g.feat("fetch-below-sp")
	g.fetchBelow(c)
}

func hex4(a uint16) string {
	return "0x" + string([]byte{hexd(a >> 12), hexd(a >> 8), hexd(a >> 4), hexd(a)})
}

func hexd(v uint16) byte { return "0123456789abcdef"[v&15] }

func parseHex4(s string) uint16 {
	var v uint16
	for _, c := range s[2:] {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= uint16(c - '0')
		default:
			v |= uint16(c-'a') + 10
		}
	}
	return v
}
