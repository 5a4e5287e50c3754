#include "textflag.h"

// func Word(p *uint64)
TEXT ·Word(SB), NOSPLIT|NOFRAME, $0-8
	MOVD p+0(FP), R0
	PRFM (R0), PLDL1KEEP
	RET

// func Bytes(b []byte)
TEXT ·Bytes(SB), NOSPLIT|NOFRAME, $0-24
	MOVD b_base+0(FP), R0
	PRFM (R0), PLDL1KEEP
	RET

// func addr(p unsafe.Pointer)
TEXT ·addr(SB), NOSPLIT|NOFRAME, $0-8
	MOVD p+0(FP), R0
	PRFM (R0), PLDL1KEEP
	RET
