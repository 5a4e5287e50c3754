; irq_romstack.s -- an interrupt's entry stacks its frame into ROM.
;
; Expected verdict: violation `rom-write' (run with --irq toc1), at the
; TOC1 interrupt's entry, 6 transitions from reset under --preempt every:
; ldx, bset, lds, cli, bra (the Reference Manual's CLI: the instruction
; after CLI always executes before a pending interrupt is taken), then
; the entry, whose first push (the return address's low byte) writes the
; byte the stack pointer addresses, inside the firmware's own code.
;
;     void main(void) {
;         TMSK1 |= OC1I;
;         SP = (void *)&main + 0x40;   /* BUG: the stack in ROM */
;         cli();
;         for (;;) ;
;     }
;
; `run --seed N` takes the interrupt at a random point and must stop at
; the entry, not at whatever the frame it could not write leads to later.

        .include "harness.inc"

        REGS  = 0x1000
        TMSK1 = 0x22
        TFLG1 = 0x23
        OC1I  = 0x80

        .sect   .text
        .globl  _start
_start:
        ldx     #REGS
        bset    TMSK1,x, #OC1I          ; TMSK1 |= OC1I
        lds     #_start+0x40            ; BUG: the stack in ROM
        cli
loop:   bra     loop

; void toc1_isr(void): acknowledge and return.
toc1_isr:
        ldaa    #OC1I
        staa    REGS+TFLG1
        rti

        vector_table _start, toc1=toc1_isr
