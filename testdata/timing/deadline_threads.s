; deadline_threads.s -- two threads through one FROM..TO: each has its
; own interval.
;
; Run with --deadline from:to:N.  Thread 0 creates thread 1 at `from'
; and, by the same step, returns to `from' itself: both intervals start
; there.  From `from' to `to' each runs two NOPs; after `to' thread 1
; exits at once and thread 0 works for TURNS turns before it exits.
; Thread 0's later work may run while thread 1 is between `from' and
; `to' (any interleaving: --preempt every), so it counts in thread 1's
; interval (docs/timing.md: from a thread's arrival at FROM to its
; arrival at TO, every instruction of every thread in between).
;
; Cycles (M68HC11 Reference Manual, appendix A; hc11-opcodes.csv; a
; harness stub returns as its RTS would, 5 cycles, and
; __mc_thread_exit ends the thread with none).  Thread 0 has B = 1 (the
; new thread's id), thread 1 B = 0 (its argument).
;
;   thread 1's interval, thread 0 running first to its exit:
;     thread 0: nop 2 + nop 2 + tstb 2 + beq 3 + ldaa #TURNS 2
;               + TURNS x (deca 2 + bne 3) + jsr 6   = 17 + 5 x 20 = 117
;     thread 1: nop 2 + nop 2                        =               4
;                                                                  121
;   thread 0's interval, thread 1 running first to its exit:
;     thread 1: nop 2 + nop 2 + tstb 2 + beq 3 + jsr 6            = 15
;     thread 0: nop 2 + nop 2                                      =  4
;                                                                    19
;
; Expected: --deadline from:to:121 verified, from:to:120 violated.  A
; deadline measured for one thread at a time (thread 0's, which starts
; first) would say 19.

        .include "harness.inc"

        TURNS = 20                      ; thread 0's work after `to'

        .sect   .bss
stack0: .skip   32
stack1: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        ldd     #from                   ; thread 1 starts at `from'
        ldx     #stack1+32-1
        ldy     #0                      ; with D = 0
        jsr     __mc_thread_create      ; thread 0: D = 1
        .globl  from
from:
        nop
        nop
        .globl  to
to:
        tstb
        beq     finish                  ; thread 1
        ldaa    #TURNS                  ; thread 0
work:
        deca
        bne     work
finish:
        jsr     __mc_thread_exit

        vector_table _start
