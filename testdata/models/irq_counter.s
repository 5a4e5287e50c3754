; irq_counter.s -- a timer interrupt counts forever; the main loop waits.
;
; Expected verdict: none -- the search never ends (run with --irq toc1):
; every interrupt makes a new state, and a 32-bit counter has four
; billion of them.  A limit (--max-states, --timeout, --max-memory, or the
; default share of the machine's memory) is what stops it, with an
; incomplete verdict.  Not in manifest.json, whose models all end.
;
;     volatile unsigned long ticks;         /* 32 bits, big-endian */
;
;     void toc1_isr(void) __interrupt {     /* vector 0xFFE8 */
;         ticks++;
;         TFLG1 = OC1F;                     /* acknowledge */
;     }
;     void main(void) {
;         TMSK1 |= OC1I;
;         cli();
;         for (;;)
;             wai();                        /* sleep until the next tick */
;     }
;
; Reasoning: interrupts are enabled before the loop and never masked, so
; TOC1 may be taken at every scheduling point of the main loop and at the
; WAI; each handler run adds one to ticks, and no two counts are the same
; state.  The handler runs with I = 1 (set by the hardware) and does not
; nest.

        .include "harness.inc"

        REGS  = 0x1000
        TMSK1 = 0x22
        TFLG1 = 0x23
        OC1I  = 0x80

        .sect   .bss
ticks:  .skip   4
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        ldx     #REGS
        bset    TMSK1,x, #OC1I          ; TMSK1 |= OC1I
        cli
idle:
        wai                             ; until the next tick
        bra     idle

; void toc1_isr(void) -- see the header.
        .globl  toc1_isr
toc1_isr:
        ldd     ticks+2                 ; low word
        addd    #1
        std     ticks+2
        bne     ti_ack                  ; no carry into the high word
        ldd     ticks
        addd    #1
        std     ticks
ti_ack:
        ldaa    #OC1I
        staa    REGS+TFLG1
        rti

        vector_table _start, toc1=toc1_isr
