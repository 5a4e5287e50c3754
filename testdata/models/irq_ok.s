; irq_ok.s -- the main loop and the TOC1 handler share a 16-bit counter,
; and the main loop masks interrupts around its read-modify-write.
;
; Expected verdict: verified (run with --irq toc1 --preempt every; about
; 1300 states -- the interrupt may come before any instruction run with
; I = 0, and each leaves different bytes on the stack).
;
;     volatile unsigned int  count;
;     volatile unsigned char budget = BUDGET;   /* ISR increments left */
;
;     void bump(void) {
;         sei();                            /* no interrupt in here */
;         count++;                          /* ldd count; addd #1; std count */
;         cli();
;     }
;     void main(void) {
;         unsigned char i;
;         TMSK1 |= OC1I;
;         cli();
;         for (i = 0; i < N; i++)
;             bump();
;         sei();
;         __mc_assert(count == N + (BUDGET - budget));
;     }                                     /* _start: main(); exit */
;     void toc1_isr(void) __interrupt {     /* vector 0xFFE8 */
;         if (budget != 0) {
;             count++;
;             budget--;
;         }
;         TFLG1 = OC1F;
;     }
;
; Reasoning: interrupts are taken only where CCR.I = 0, i.e. never between
; the SEI and CLI of bump, so the handler's increment cannot fall inside
; main's load-add-store; the handler runs with I = 1 (set by the hardware)
; and does not nest.  Each handler increment is matched by one decrement
; of budget, so count == N + (BUDGET - budget) whenever interrupts are
; masked.  (irq_lostupdate.s in bench/ is the same program without the
; SEI/CLI in bump.)

        .include "harness.inc"

        N = 1
        BUDGET = 1
        REGS  = 0x1000
        TMSK1 = 0x22
        TFLG1 = 0x23
        OC1I  = 0x80

        .sect   .data
budget: .byte   BUDGET

        .sect   .bss
count:  .skip   2
stack0: .skip   48

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+48-1
        jsr     main
        jsr     __mc_thread_exit

; void main(void) -- see the header.
main:
        ldx     #REGS
        bset    TMSK1,x, #OC1I
        cli
        clrb
        pshb                            ; frame: 0,x = i
ma_loop:
        tsx
        ldab    0,x
        cmpb    #N
        bhs     ma_check
        jsr     bump
        tsx
        inc     0,x                     ; i++
        bra     ma_loop
ma_check:
        sei
        ldab    #BUDGET
        subb    budget
        clra
        addd    #N                      ; D = expected total
        clr     0,x
        cpd     count
        bne     ma_assert
        inc     0,x                     ; result = (count == expected)
ma_assert:
        ldaa    0,x
        jsr     __mc_assert
        ins
        rts

; void bump(void) -- see the header.
bump:
        sei
        ldd     count
        addd    #1
        std     count
        cli
        rts

; void toc1_isr(void) -- see the header.
toc1_isr:
        tst     budget
        beq     ti_ack
        ldx     count
        inx
        stx     count
        dec     budget
ti_ack:
        ldaa    #OC1I
        staa    REGS+TFLG1
        rti

        vector_table _start, toc1=toc1_isr
