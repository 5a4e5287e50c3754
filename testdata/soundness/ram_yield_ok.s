; ram_yield_ok.s -- ram_yield.s fixed: the gain table has an entry for
; every mode.
;
; Expected verdict: verified (--preempt every).
;
;     const unsigned char gain[3] = { 0x10, 0x20, 0x30 };
;
; The rest is ram_yield.s.

        .include "harness.inc"

        STACK_SIZE = 16

        .sect   .bss
ticks:  .skip   1
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .rodata
gain:   .byte   0x10, 0x20, 0x30

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #sample
        jsr     __mc_thread_create
        inc     ticks
        jsr     __mc_thread_exit

; void sample(void) -- code in RAM (initialised data).
        .sect   .data
sample:
        ldd     #2
        jsr     __mc_nondet             ; B = mode, 0 to 2
        jsr     __mc_yield              ; B is kept
        ldx     #gain
        abx
        ldaa    0,x                     ; A = gain[mode]
        jsr     __mc_assert
        jsr     __mc_thread_exit

        vector_table _start
