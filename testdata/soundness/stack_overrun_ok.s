; stack_overrun_ok.s -- stack_overrun.s fixed: the worker's stack has room
; for the 7 bytes it pushes.
;
; Expected verdict: verified (--preempt every).
;
;     unsigned char stack0[32];                 /* main's stack, then ... */
;     unsigned char stack1[8];                  /* ... the worker's */
;
;     void g(void) { push(A); pop(A); }
;     void f(void) { push(X); g(); pop(X); }
;     void worker(void) { f(); }                /* thread 1 */
;
;     void main(void) {
;         volatile unsigned char magic = 0x5A;
;         new_thread(worker, stack1 + 7, 0);
;         __mc_assert(magic == 0x5A);
;     }

        .include "harness.inc"

        .sect   .bss
stack0: .skip   32
stack1: .skip   8

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        ldy     #0
        ldx     #stack1+8-1
        ldd     #worker
        jsr     __mc_thread_create
        ldaa    #0x5A
        psha                            ; magic = 0x5A, at stack0+31
        tsx
        ldab    0,x                     ; B = magic
        clra
        cmpb    #0x5A
        bne     ma_assert               ; A = 0: magic was overwritten
        inca
ma_assert:
        jsr     __mc_assert
        ins
        jsr     __mc_thread_exit

; void worker(void) -- see the header.
worker:
        jsr     f
        rts

; void f(void) -- see the header.
f:
        pshx
        jsr     g
        pulx
        rts

; void g(void) -- see the header.
g:
        psha
        pula
        rts

        vector_table _start
