; philo5_between.s -- the five philosophers with the forks as = equates
; between the stacks (two stacks below them, three above), each
; philosopher's descriptor in RAM, written by thread 0 at start-up and
; never again; thread 0 creates the five and ends; thinking and eating are
; short delay loops.  Each takes its lower-numbered fork first: no
; deadlock.  One of the layout family of `make compare-spin' (twin:
; testdata/spin/philo5_between.pml).
;
; Expected verdict: verified (--preempt every; exhaustive).

        .include "harness.inc"

        desc   = 0x0040                 ; desc[i]: two fork addresses, 4 bytes
        STACKS = 0x0080                 ; thread 0's stack: 0x0080-0x009F
        fork   = 0x00E0                 ; fork[0..4], between the stacks
        ; philosopher i (1..5) has the stack whose top is top_i:
        top1   = 0x00BF                 ; 0x00A0-0x00BF
        top2   = 0x00DF                 ; 0x00C0-0x00DF  (below the forks)
        top3   = 0x011F                 ; 0x0100-0x011F  (above them)
        top4   = 0x013F
        top5   = 0x015F

        .sect   .text
        .globl  _start
_start:
        lds     #STACKS+31
        ldd     #fork+0                 ; the descriptors
        std     desc+0
        std     desc+16
        ldd     #fork+1
        std     desc+2
        std     desc+4
        ldd     #fork+2
        std     desc+6
        std     desc+8
        ldd     #fork+3
        std     desc+10
        std     desc+12
        ldd     #fork+4
        std     desc+14
        std     desc+18
        ldy     #desc
        ldx     #top1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+4
        ldx     #top2
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+8
        ldx     #top3
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+12
        ldx     #top4
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #desc+16
        ldx     #top5
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

        vector_table _start
