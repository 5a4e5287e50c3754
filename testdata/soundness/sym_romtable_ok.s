; sym_romtable_ok.s -- sym_romtable.s fixed: no table entry has the
; "unsupported" bit 7, so BRSET never branches to the assertion.
;
; Expected verdict: verified (--preempt every).
;
;     const unsigned char flags[4] = { 0x01, 0x02, 0x03, 0x04 };

        .include "harness.inc"

        .sect   .bss
stack0: .skip   16

        .sect   .rodata
flags:  .byte   0x01, 0x02, 0x03, 0x04

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+16-1
        ldd     #3
        jsr     __mc_nondet             ; B = mode, 0-3
        ldx     #flags
        abx
        brset   0,x, #0x80, bad         ; the unsupported bit
        jsr     __mc_thread_exit
bad:
        clra
        jsr     __mc_assert
        jsr     __mc_thread_exit

        vector_table _start
