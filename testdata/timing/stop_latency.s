; stop_latency.s -- how late can the IRQ handler begin when the main loop
; stops the clocks with STOP?
;
; Run with --irq irq --latency irq:N (a model without the chip's
; peripherals: OPTION keeps its reset value, DLY set).  The main loop
; masks interrupts for an input-dependent time, clears I and executes
; STOP; the handler returns at once.
;
; STOP (M68HC11 Reference Manual, appendix A: 2 cycles) stops the
; oscillator; an IRQ with I clear restarts it.  With OPTION's DLY bit set
; (its value after reset; STOP in appendix A, OPTION in section 5) the CPU waits 4064
; E cycles for the oscillator to become stable before it goes on; then
; the interrupt is taken as between two instructions: nine bytes stacked
; and the vector, 14 cycles (STOP stacked nothing).
;
; The worst request comes right after SEI, at `masked'.  The interrupt
; cannot be taken before the one instruction that always runs after a CLI
; (the manual's CLI: the I bit clears one E cycle late), and that
; instruction is STOP: the request, pending, ends it at once.  Cycles
; (appendix A; hc11-opcodes.csv):
;
;   bit = 1:  tstb 2 + beq 3 + ldaa #3 2 + 3 x (deca 2 + bne 3) = 22
;             + cli 2 + stop 2 + restart 4064 + entry 14        = 4104
;   bit = 0:  tstb 2 + beq 3 + cli 2 + stop 2 + 4064 + 14       = 4087
;
; A request while the CPU is stopped waits 4064 + 14 = 4078.  Without
; the restart delay the worst case would be 40.
;
; Expected: --latency irq:4104 verified, irq:4103 violated.

        .include "harness.inc"

        TURNS = 3                       ; the delay loop's turns

        .sect   .bss
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        tpa
        anda    #0x7F                   ; S clear: STOP stops (set, it is a NOP)
        tap
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
        stop                            ; runs before the interrupt
        bra     loop

        .globl  irq_isr
irq_isr:
        rti

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0   ; 0xFFC0-0xFFD5 reserved
        .word   0,0,0,0,0,0,0,0,0,0     ; 0xFFD6-0xFFE9 SCI ... TOC1
        .word   0,0,0,0                 ; 0xFFEA-0xFFF1 TIC3 ... RTI
        .word   irq_isr                 ; 0xFFF2 IRQ
        .word   0,0,0,0,0               ; 0xFFF4-0xFFFD XIRQ ... clock monitor
        .word   _start                  ; 0xFFFE reset
