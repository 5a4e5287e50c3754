; assume.s -- like error_reach.s, but an assumption rules the bad input out.
;
; Expected verdict: verified (any --preempt; one thread, a few dozen states).
;
;     void main(void) {
;         unsigned char m = __mc_nondet(3);
;         __mc_assume(m != 3);              /* the environment never sends 3 */
;         select(m);                        /* calls __mc_error for m == 3 */
;         __mc_thread_exit();
;     }
;
; Reasoning: of the four values only m == 3 reaches __mc_error, and that
; path is dropped at __mc_assume (A = 0), silently; the other three pass
; the assumption (A = 1) and end normally.

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
        pshb                            ; frame: 0,x = m
        clra
        cmpb    #3
        beq     assume
        inca                            ; A = (m != 3)
assume:
        jsr     __mc_assume
        pulb
        jsr     select
        jsr     __mc_thread_exit

; void select(unsigned char m) {
;     if (m == 3)
;         __mc_error();
;     mode = m;
; }
select:
        cmpb    #3
        bne     se_ok
        jsr     __mc_error
se_ok:
        stab    mode
        rts

        vector_table _start
