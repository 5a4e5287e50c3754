; philo5_stackdesc.s -- the five philosophers with the forks as data
; symbols (.bss) and the descriptors on thread 0's stack: thread 0 pushes
; the five (two fork addresses each), creates four philosophers with the
; address of theirs, and then becomes philosopher 0 with its own, pushing
; its return addresses below them; thinking and eating are short delay
; loops.  Each takes its lower-numbered fork first: no deadlock.  One of
; the layout family of `make compare-spin' (twin:
; testdata/spin/philo5_stackdesc.pml).
;
; Expected verdict: verified (--preempt every; exhaustive).

        .include "harness.inc"

        .sect   .bss
fork:   .skip   5                       ; fork[0..4]
stacks: .skip   5*32                    ; thread 0's, then philosopher i's

        .sect   .text
        .globl  _start
_start:
        lds     #stacks+31
        ldx     #fork+4                 ; desc[4] = fork+0, fork+4
        pshx
        ldx     #fork+0
        pshx
        ldx     #fork+4                 ; desc[3] = fork+3, fork+4
        pshx
        ldx     #fork+3
        pshx
        ldx     #fork+3                 ; desc[2] = fork+2, fork+3
        pshx
        ldx     #fork+2
        pshx
        ldx     #fork+2                 ; desc[1] = fork+1, fork+2
        pshx
        ldx     #fork+1
        pshx
        ldx     #fork+1                 ; desc[0] = fork+0, fork+1
        pshx
        ldx     #fork+0
        pshx
        tsy                             ; Y = desc[0]
        ldab    #4
        aby                             ; Y = desc[1]
        ldx     #stacks+2*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        tsy
        ldab    #8
        aby
        ldx     #stacks+3*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        tsy
        ldab    #12
        aby
        ldx     #stacks+4*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        tsy
        ldab    #16
        aby
        ldx     #stacks+5*32-1
        ldd     #philosopher
        jsr     __mc_thread_create
        tsx                             ; and we are philosopher 0
        xgdx                            ; D = desc[0]
        jsr     philosopher
        jsr     __mc_thread_exit        ; (not reached: never returns)

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
