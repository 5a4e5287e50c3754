; deadline.s -- from `from' to `to', how long at most, interrupts included?
;
; Run with --irq toc1 --deadline from:to:N.  The main loop draws a count
; B in 0..2 and runs B+1 turns of a work loop between `from' and `to'
; with interrupts enabled.  The TOC1 handler sets I in the CCR it will
; restore, so that at most one interrupt comes before main's CLI at `to'
; enables them again.
;
; Cycles (M68HC11 Reference Manual, appendix A; hc11-opcodes.csv):
;
;   from -> to, B = 2:   incb 2 + 3 x (nop 2 + decb 2 + bne 3) = 2 + 21 = 23
;   one interrupt:       entry 14 (nine bytes stacked, the vector fetched)
;                        + tsx 3 + ldaa 0,x 4 + oraa #0x10 2
;                        + staa 0,x 4 + rti 12                  = 14 + 25 = 39
;   worst:               23 + 39                                = 62
;
; An interrupt taken before `from' leaves I set over the whole interval,
; so no second one can come.  Expected: --deadline from:to:62 verified,
; from:to:61 violated.

        .include "harness.inc"

        MAXB  = 2                       ; B is drawn in 0..MAXB
        FLAGI = 0x10                    ; CCR's I bit

        .sect   .bss
stack0: .skip   48

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+48-1
        cli
loop:
        ldd     #MAXB
        jsr     __mc_nondet             ; B = 0, 1 or 2
        .globl  from
from:
        incb                            ; B+1 turns
work:
        nop
        decb
        bne     work
        .globl  to
to:
        cli                             ; enable again after the handler
        bra     loop

        .globl  toc1_isr
toc1_isr:
        tsx                             ; X -> the stacked CCR
        ldaa    0,x
        oraa    #FLAGI                  ; I set on return
        staa    0,x
        rti

        vector_table _start, toc1=toc1_isr
