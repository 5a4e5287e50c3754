; sym_patch_ok.s -- sym_patch.s fixed: the caller accepts either step.
;
; Expected verdict: verified (--preempt every, with or without --ignore
; illegal-opcode: no instruction is undefined).
;
;     if (y != 1 && y != 0xFFFF) __mc_error();

        .include "harness.inc"

        .sect   .bss
stack0: .skip   16
code:   .skip   3

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+16-1
        ldd     #1
        jsr     __mc_nondet             ; B = dir, 0 or 1
        ldaa    #0x18
        staa    code                    ; the page-2 prefix
        addb    #0x08
        stab    code+1                  ; INY or DEY
        ldaa    #0x39
        staa    code+2                  ; RTS
        ldy     #0
        jsr     code
        cpy     #1
        beq     fine
        cpy     #0xFFFF
        beq     fine
        jsr     __mc_error
fine:
        jsr     __mc_thread_exit

; the illegal-opcode trap: the thread gives up quietly
trap:
        jsr     __mc_thread_exit

        vector_table _start, illop=trap
