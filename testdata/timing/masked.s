; masked.s -- how long does the main loop keep interrupts masked?
;
; Run with --irq toc1.  The main loop draws a bit (__mc_nondet) and, with
; interrupts masked, either goes straight on or runs a delay loop; the
; TOC1 handler does nothing but return.
;
; Cycles from the M68HC11 Reference Manual's instruction timing tables
; (appendix A; testdata/../shared reference hc11-opcodes.csv), counted by
; the convention of --max-masked: from the end of the instruction that
; sets I to the end of the one that clears it.
;
;   main, bit = 1 (the long way):   tstb 2 + beq 3 + ldaa #4 2
;                                   + 4 x (deca 2 + bne 3) = 20
;                                   + nop 2 + cli 2            = 31
;   main, bit = 0:                  tstb 2 + beq 3 + cli 2     =  7
;   the handler (after its entry):  ldaa #1 2 + rti 12         = 14
;
; Expected: --max-masked 31 verified, --max-masked 30 violated (the
; long way); --report-timing: max-masked 31 cycles, exact.

        .include "harness.inc"

        TURNS = 4                       ; the delay loop's turns

        .sect   .bss
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        cli                             ; interrupts on: from here, masked time counts
loop:
        ldd     #1
        jsr     __mc_nondet             ; B = 0 or 1
        sei                             ; the interval starts after this
        tstb
        beq     short
        ldaa    #TURNS
delay:
        deca
        bne     delay
        nop
short:
        cli                             ; ... and ends with this
        bra     loop

        .globl  toc1_isr
toc1_isr:
        ldaa    #1                      ; A is restored by RTI
        rti

        vector_table _start, toc1=toc1_isr
