; philo5_loops.s -- philo5_rom.s with thinking and eating as short delay
; loops instead of NOPs: the forks as = equates at the bottom of RAM,
; below the lowest stack; the descriptors in ROM, read through Y; thread 0
; creates the five philosophers and ends.  Each takes its lower-numbered
; fork first: no deadlock.  One of the layout family of
; `make compare-spin' (twin: testdata/spin/philo5_loops.pml).
;
; Expected verdict: verified (--preempt every; exhaustive).

        .include "harness.inc"

        fork   = 0x0040                 ; fork[0..4]
        STACKS = 0x0080                 ; stack tops STACKS + 32 i - 1, i = 1..6

        .sect   .text
        .globl  _start
_start:
        lds     #STACKS+31
        ldy     #desc
        ldx     #STACKS+2*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+4
        ldx     #STACKS+3*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+8
        ldx     #STACKS+4*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+12
        ldx     #STACKS+5*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+16
        ldx     #STACKS+6*32-1
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
        ldab    #2                      ; eat
eat:    decb
        bne     eat
        ldx     2,y
        jsr     __mc_unlock
        ldx     0,y
        jsr     __mc_unlock
        ldab    #2                      ; think
think:  decb
        bne     think
        bra     loop

        .sect   .rodata
desc:   .word   fork+0, fork+1
        .word   fork+1, fork+2
        .word   fork+2, fork+3
        .word   fork+3, fork+4
        .word   fork+0, fork+4

        vector_table _start
