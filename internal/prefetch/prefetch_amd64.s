#include "textflag.h"

// func Word(p *uint64)
TEXT ·Word(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ p+0(FP), AX
	PREFETCHT0 (AX)
	RET

// func Bytes(b []byte)
TEXT ·Bytes(SB), NOSPLIT|NOFRAME, $0-24
	MOVQ b_base+0(FP), AX
	PREFETCHT0 (AX)
	RET

// func addr(p unsafe.Pointer)
TEXT ·addr(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ p+0(FP), AX
	PREFETCHT0 (AX)
	RET
