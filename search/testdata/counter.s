; counter.s -- two threads each add 1 to a shared byte three times without
; a lock (load, add, store), then exit; thread 0 creates thread 1 first.
; A small state space with real interleavings, for the search's own tests.
        .include "harness.inc"

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+31
        ldd     #worker
        ldx     #stack1+31
        ldy     #0
        jsr     __mc_thread_create
        jsr     worker
        jsr     __mc_thread_exit

        .globl  worker
worker:
        ldab    #3
1:      ldaa    count
        inca
        staa    count
        decb
        bne     1b
        rts

        .sect   .bss
count:  .skip   1
stack0: .skip   32
stack1: .skip   32

        .sect   .vectors
        .skip   62
        .word   _start
