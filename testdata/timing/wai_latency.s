; wai_latency.s -- how late can the TOC1 handler begin when the main loop
; sleeps in WAI?
;
; Run with --irq toc1 --latency toc1:N.  The main loop masks interrupts
; for an input-dependent time, clears I and sleeps in WAI; the handler
; returns at once.
;
; WAI (M68HC11 Reference Manual, appendix A: 14 + n cycles, and its
; cycle-by-cycle table) takes 12 cycles from its opcode fetch to stack
; the nine bytes of the frame, then waits n cycles until an interrupt is
; recognised, then 2 cycles fetch the vector: the handler's first
; instruction comes 14 + n cycles after WAI's opcode fetch.  An interrupt
; taken between two other instructions takes 14 (stack and vector).
;
; The worst request comes right after SEI, at `masked'.  The interrupt
; cannot be taken before the one instruction that always runs after a CLI
; (the manual's CLI: the I bit clears one E cycle late), and that
; instruction is WAI: it stacks the frame (12), finds the request pending
; (n = 0) and fetches the vector (2).  Cycles (appendix A;
; hc11-opcodes.csv):
;
;   bit = 1:  tstb 2 + beq 3 + ldaa #3 2 + 3 x (deca 2 + bne 3) = 22
;             + cli 2 + wai 12 + vector 2                       = 38
;   bit = 0:  tstb 2 + beq 3 + cli 2 + wai 12 + vector 2        = 21
;
; A request while the CPU waits in WAI is served after the vector fetch
; alone: 2 cycles.  Charging WAI its 14 and then a full entry of 14 would
; say 52.
;
; Expected: --latency toc1:38 verified, toc1:37 violated.

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
        wai                             ; runs before the interrupt
        bra     loop

        .globl  toc1_isr
toc1_isr:
        rti

        vector_table _start, toc1=toc1_isr
