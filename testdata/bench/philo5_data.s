; philo5_data.s -- the five philosophers with the forks as data symbols
; (.bss) and each philosopher's descriptor an initialised variable (.data,
; in RAM, never written); thread 0 creates the five and ends; thinking and
; eating are NOPs.  Each takes its lower-numbered fork first: no deadlock.
; One of the layout family of `make compare-spin' (twin:
; testdata/spin/philo5_data.pml).
;
; Expected verdict: verified (--preempt every; exhaustive).

        .include "harness.inc"

        .sect   .data
desc:   .word   fork+0, fork+1          ; desc[i]: philosopher i's two forks
        .word   fork+1, fork+2
        .word   fork+2, fork+3
        .word   fork+3, fork+4
        .word   fork+0, fork+4

        .sect   .bss
fork:   .skip   5                       ; fork[0..4]
stacks: .skip   6*32                    ; thread 0's, then philosopher i's

        .sect   .text
        .globl  _start
_start:
        lds     #stacks+31
        ldy     #desc
        ldx     #stacks+2*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+4
        ldx     #stacks+3*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+8
        ldx     #stacks+4*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+12
        ldx     #stacks+5*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+16
        ldx     #stacks+6*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        jsr     __mc_thread_exit

; the argument (the descriptor's address) arrives in D
philosopher:
        xgdy                            ; Y = the descriptor
loop:   ldx     0,y                     ; the lower-numbered fork
        jsr     __mc_lock
        ldx     2,y                     ; the other
        jsr     __mc_lock
        nop                             ; eat
        ldx     2,y
        jsr     __mc_unlock
        ldx     0,y
        jsr     __mc_unlock
        nop                             ; think
        bra     loop

        vector_table _start
