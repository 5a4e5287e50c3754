; philo5_above.s -- the five philosophers of philo5_rom.s with the forks as
; = equates above the stacks, at the top of RAM; the descriptors in ROM,
; read through Y; thread 0 creates four philosophers and then becomes
; philosopher 0 itself.  Each takes its lower-numbered fork first: no
; deadlock.  One of the layout family of `make compare-spin' (twin:
; testdata/spin/philo5_above.pml).
;
; Expected verdict: verified (--preempt every; exhaustive).

        .include "harness.inc"

        STACKS = 0x0080                 ; stack i: STACKS + 32 i .. STACKS + 32 i + 31
        fork   = 0x0180                 ; fork[0..4], above the five stacks

        .sect   .text
        .globl  _start
_start:
        lds     #STACKS+31
        ldy     #desc+4
        ldx     #STACKS+2*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+8
        ldx     #STACKS+3*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+12
        ldx     #STACKS+4*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+16
        ldx     #STACKS+5*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldd     #desc                   ; and we are philosopher 0
        jsr     philosopher
        jsr     __mc_thread_exit        ; (not reached: never returns)

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

        .sect   .rodata
desc:   .word   fork+0, fork+1
        .word   fork+1, fork+2
        .word   fork+2, fork+3
        .word   fork+3, fork+4
        .word   fork+0, fork+4

        vector_table _start
