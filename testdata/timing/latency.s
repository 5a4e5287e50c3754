; latency.s -- how late can the TOC1 handler begin?
;
; Run with --irq toc1 --latency toc1:N.  The main loop masks interrupts
; for an input-dependent time; the handler returns at once.
;
; Cycles (M68HC11 Reference Manual, appendix A; hc11-opcodes.csv).  The
; worst request comes right after SEI, at `masked'; the interrupt is
; taken once I is clear, after the one instruction that always runs
; after a CLI (the manual's CLI: the I bit clears one E cycle late):
;
;   bit = 1:  tstb 2 + beq 3 + ldaa #3 2 + 3 x (deca 2 + bne 3) = 15
;             + cli 2 + nop 2 + entry 14                          = 40
;   bit = 0:  tstb 2 + beq 3 + cli 2 + nop 2 + entry 14           = 23
;
; Expected: --latency toc1:40 verified, toc1:39 violated.

        .include "harness.inc"

        TURNS = 3                       ; the delay loop's turns

        .sect   .bss
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        cli
loop:
        ldd     #1
        jsr     __mc_nondet             ; B = 0 or 1
        sei
        .globl  masked
masked:
        tstb
        beq     short
        ldaa    #TURNS
delay:
        deca
        bne     delay
short:
        cli
        nop                             ; runs before the interrupt
        bra     loop

        .globl  toc1_isr
toc1_isr:
        rti

        vector_table _start, toc1=toc1_isr
