; hprio.s -- HPRIO promotes TOC1 above IRQ: how late can the TOC1
; handler begin?
;
; Run with --irq irq,toc1 --latency toc1:N.  The firmware, I still set
; from reset, writes HPRIO's PSEL = 1011 (OC1 promoted to the highest
; I-masked priority; PSEL is written only while I is set), clears I and
; idles.  IRQ's handler works for a while and returns; TOC1's returns.
;
; The chip takes, of the pending interrupts it can take, the one of the
; highest priority (M68HC11 Reference Manual, section 5: the interrupt
; priority table and HPRIO).  Without the promotion IRQ comes before
; TOC1, and an IRQ requested again inside each IRQ handler keeps TOC1
; waiting for ever; with it, TOC1 waits for at most one IRQ handler.
;
; Cycles (M68HC11 Reference Manual, appendix A; hc11-opcodes.csv).  The
; worst request comes at the first instruction of irq_isr:
;
;   ldaa #3 2 + 3 x (deca 2 + bne 3) 15 + rti 12               = 29
;   TOC1's entry 14 (before IRQ, whether or not IRQ is pending)  = 14
;   total                                                        = 43
;
; A request at reset waits lds 3 + ldaa 2 + staa 4 + cli 2 + bra 3
; (the instruction after CLI) + 14 = 28; one at the first instruction
; of toc1_isr rti 12 + 14 = 26.
;
; Expected: --latency toc1:43 verified, toc1:42 violated.

        .include "harness.inc"

        TURNS = 3                       ; IRQ's work loop turns
        HPRIO = 0x103C                  ; the register block after reset
        PSEL_OC1 = 0x0B                 ; PSEL3-0 = 1011: OC1

        .sect   .bss
stack0: .skip   48

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+48-1
        ldaa    #PSEL_OC1
        staa    HPRIO                   ; I is set: PSEL is writable
        cli
loop:
        bra     loop

        .globl  toc1_isr
toc1_isr:
        rti

        .globl  irq_isr
irq_isr:
        ldaa    #TURNS
work:
        deca
        bne     work
        rti

        .sect   .vectors
        .word   0, 0, 0, 0, 0, 0, 0, 0  ; 0xFFC0-0xFFCF reserved
        .word   0, 0, 0                 ; 0xFFD0-0xFFD5 reserved
        .word   0, 0, 0, 0, 0, 0, 0, 0  ; 0xFFD6-0xFFE5 SCI .. TOC3
        .word   0                       ; 0xFFE6 TOC2
        .word   toc1_isr                ; 0xFFE8 TOC1
        .word   0, 0, 0, 0              ; 0xFFEA-0xFFF1 TIC3 .. RTI
        .word   irq_isr                 ; 0xFFF2 IRQ
        .word   0                       ; 0xFFF4 XIRQ
        .word   0, 0, 0, 0              ; 0xFFF6-0xFFFD SWI .. clock monitor
        .word   _start                  ; 0xFFFE reset
