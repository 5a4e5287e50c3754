// Package alu is the arithmetic of the 68HC11 written once, over a value
// domain: one generic function per operation (additions and subtractions,
// shifts and rotates, increments, NEG, COM, TST, CLR, DAA, MUL, IDIV, FDIV,
// the N, Z and V updates of loads, stores and logic, and the branch
// conditions), each taking and returning the result and the new condition
// codes.
//
// It is the single source of that arithmetic for both engines, called from
// the instruction dispatch of package sim/ops. Package symbolic
// instantiates it with bit-vector terms. Package sim does not call
// it: `go generate` in sim turns this file (alu.go) into sim/alu.go, the
// same functions over uint8, uint16 and bool with every Domain method
// replaced by its Go operator (gen/main.go), because generic code calls a
// type parameter's methods through a dictionary, which no compiler inlines:
// measured, that made the simulator's additions fifteen times slower. A
// test in sim fails when the generated file is out of date.
//
// The functions may branch only on Go values that are the same in every
// domain (an opcode, a shift count); a choice that depends on data is an
// Ite, so that a symbolic domain sees both sides.
package alu

// Domain is a value domain: B holds 8-bit values, W 16-bit values and F
// truth values. Division by zero follows SMT-LIB's bit-vector semantics
// (the quotient is all ones, the remainder is the dividend), so that every
// operation is total. Shift counts are Go constants, below the width.
type Domain[B, W, F any] interface {
	K8(v uint8) B       // the constant v
	K16(v uint16) W     // the constant v
	KF(v bool) F        // the constant v
	Add8(a, b B) B      // a + b mod 256
	Sub8(a, b B) B      // a - b mod 256
	And8(a, b B) B      // a & b
	Or8(a, b B) B       // a | b
	Xor8(a, b B) B      // a ^ b
	AndNot8(a, b B) B   // a &^ b
	Not8(a B) B         // ^a
	Shl8(a B, n uint) B // a << n
	Shr8(a B, n uint) B // a >> n, logical
	Eq8(a, b B) F       // a == b
	Ult8(a, b B) F      // a < b, unsigned
	Ite8(c F, a, b B) B // a if c, else b

	Add16(a, b W) W
	Sub16(a, b W) W
	And16(a, b W) W
	Or16(a, b W) W
	AndNot16(a, b W) W
	Not16(a W) W
	Shl16(a W, n uint) W
	Shr16(a W, n uint) W
	Eq16(a, b W) F
	Ult16(a, b W) F
	Ite16(c F, a, b W) W
	Mul16(a, b W) W     // a * b mod 65536
	UDiv16(a, b W) W    // a / b, 0xFFFF when b = 0
	URem16(a, b W) W    // a % b, a when b = 0
	FracQuo16(a, b W) W // the low 16 bits of (a << 16) / b, 0xFFFF when b = 0
	FracRem16(a, b W) W // (a << 16) % b, 0 when b = 0

	Wide(a B) W      // zero extension
	Lo(a W) B        // the low byte
	Hi(a W) B        // the high byte
	Pair(hi, lo B) W // hi << 8 | lo
	Bit(c F) B       // 1 if c, else 0

	Not(a F) F
	And(a, b F) F
	Or(a, b F) F
	Xor(a, b F) F // a != b
}
