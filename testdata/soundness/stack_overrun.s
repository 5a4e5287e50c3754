; stack_overrun.s -- a worker's stack is too small: its pushes run past its
; bottom into the top of main's stack, where main keeps a local.
;
; Expected verdict: violation `assert' (--preempt every).
;
;     unsigned char stack0[32];                 /* main's stack, then ... */
;     unsigned char stack1[6];                  /* ... BUG: the worker needs 7 */
;
;     void g(void) { push(A); pop(A); }         /* 1 byte */
;     void f(void) { push(X); g(); pop(X); }    /* 2 bytes and g's 2 + 1 */
;     void worker(void) { f(); }                /* thread 1: f's return address */
;
;     void main(void) {                         /* on stack0, frame at its top */
;         volatile unsigned char magic = 0x5A;  /* psha: at stack0+31 */
;         new_thread(worker, stack1 + 5, 0);
;         __mc_assert(magic == 0x5A);           /* tsx; ldab 0,x */
;     }
;
; The worker pushes 7 bytes on a stack of 6: its psha in g stores A = 0 at
; stack1-1 = stack0+31, main's local.  Counterexample: main pushes magic;
; the worker runs into g and pushes; main reads magic = 0 and the
; assertion fails.  Main's push and read are accesses to its own stack and
; the worker's pushes are pushes; a scheduler that switched threads only
; at accesses outside a thread's own stack ran main's push and read
; without a switch between them and reported `verified'.
; stack_overrun_ok.s is the fixed program.

        .include "harness.inc"

        .sect   .bss
stack0: .skip   32
stack1: .skip   6

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        ldy     #0
        ldx     #stack1+6-1
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
        jsr     f                       ; stack1+5, stack1+4
        rts

; void f(void) -- see the header.
f:
        pshx                            ; stack1+3, stack1+2
        jsr     g                       ; stack1+1, stack1+0
        pulx
        rts

; void g(void) -- see the header.
g:
        psha                            ; stack1-1: main's magic
        pula
        rts

        vector_table _start
