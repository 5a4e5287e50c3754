; error_reach.s -- a nondeterministic input selects a branch; only one value
; leads to __mc_error.
;
; Expected verdict: violation `error' (any --preempt; one thread).
;
;     unsigned char mode;
;
;     void select(unsigned char m) {
;         if (m == 3)
;             __mc_error();                 /* the only bad mode */
;         mode = m;
;     }
;     void main(void) {
;         select(__mc_nondet(3));           /* 0, 1, 2 or 3 */
;         __mc_thread_exit();
;     }
;
; Reasoning: __mc_nondet(3) has four successors; the one with D = 3 calls
; __mc_error.  Shortest counterexample: 9 transitions (lds, ldd, jsr, the
; nondet choice, jsr select, cmpb, bne, jsr __mc_error, the error call).

        .include "harness.inc"

        .sect   .bss
mode:   .skip   1
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        ldd     #3
        jsr     __mc_nondet
        jsr     select
        jsr     __mc_thread_exit

; void select(unsigned char m) -- see the header.
select:
        cmpb    #3
        bne     se_ok
        jsr     __mc_error
se_ok:
        stab    mode
        rts

        vector_table _start
