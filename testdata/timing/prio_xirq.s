; prio_xirq.s -- pending interrupts are served by priority: how late can
; the TOC1 handler begin when XIRQ may come first?
;
; Run with --irq xirq,toc1 --latency toc1:N.  After reset the firmware
; clears X and I and idles.  XIRQ is a power-fail warning: its handler
; (X and I set by the entry) works for a while, clears I and idles; it
; never returns, so X stays set and XIRQ comes at most once.  TOC1's
; handler counts and returns.
;
; At an instruction boundary where several pending interrupts can be
; taken, the chip takes the one of the highest priority (M68HC11
; Reference Manual, section 5, the interrupt priority table): XIRQ
; before every I-masked one.  So a TOC1 request can wait for XIRQ's
; entry and handler, whatever the order of the command-line flags.
;
; Cycles (M68HC11 Reference Manual, appendix A; hc11-opcodes.csv).  The
; worst request comes at the first instruction of toc1_isr (the previous
; TOC1 just taken):
;
;   inc count 6 + rti 12 (back in `loop', X and I clear)      = 18
;   XIRQ taken first: entry 14 + ldaa #3 2
;     + 3 x (deca 2 + bne 3) 15 + cli 2                       = 33
;   bra idle 3 (the instruction after CLI: I clears one E cycle late)
;   TOC1's entry 14                                           = 17
;   total                                                     = 68
;
; Others are shorter: a request at reset waits lds 3 + tpa 2 + anda 2
; + tap 2, XIRQ taken at once (TAP's one-instruction delay is the I
; bit's: TOC1 waits for the next instruction, XIRQ does not) + 33 + 17
; = 59; XIRQ taken inside toc1_isr after the inc: 6 + 33 + 17 = 56; a
; request inside xirq_isr at most 33 - 14 + 17.
;
; Expected: --latency toc1:68 verified, toc1:67 violated.  Serving TOC1
; first when both are pending (the order of --latency flags) would say 59.

        .include "harness.inc"

        TURNS = 3                       ; the power-fail loop's turns
        XI    = 0x50                    ; CCR's X and I bits

        .sect   .bss
stack0: .skip   48
count:  .skip   1

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+48-1
        tpa
        anda    #0xFF-XI
        tap                             ; X and I clear
loop:
        bra     loop

        .globl  toc1_isr
toc1_isr:
        inc     count
        rti

        .globl  xirq_isr
xirq_isr:
        ldaa    #TURNS
work:
        deca
        bne     work
        cli
idle:
        bra     idle

        .sect   .vectors
        .word   0, 0, 0, 0, 0, 0, 0, 0  ; 0xFFC0-0xFFCF reserved
        .word   0, 0, 0                 ; 0xFFD0-0xFFD5 reserved
        .word   0, 0, 0, 0, 0, 0, 0, 0  ; 0xFFD6-0xFFE5 SCI .. TOC3
        .word   0                       ; 0xFFE6 TOC2
        .word   toc1_isr                ; 0xFFE8 TOC1
        .word   0, 0, 0, 0, 0           ; 0xFFEA-0xFFF3 TIC3 .. IRQ
        .word   xirq_isr                ; 0xFFF4 XIRQ
        .word   0, 0, 0, 0              ; 0xFFF6-0xFFFD SWI .. clock monitor
        .word   _start                  ; 0xFFFE reset
