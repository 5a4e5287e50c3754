; irq_window_ok.s -- irq_window.s fixed: main opens its window for a
; pending interrupt (cli; nop; sei) before the read-modify-write of the
; counter, not in the middle of it.
;
; Expected verdict: verified (--preempt every --irq toc1).
;
;     volatile unsigned char count;             /* main's events and the ISR's */
;     volatile unsigned char budget = 1;        /* ticks the handler may count */
;
;     void main(void) {                         /* interrupts masked from reset */
;         TMSK1 |= OC1I;
;         cli(); nop(); sei();                  /* the window, outside the update */
;         unsigned char c = count;
;         c++;
;         count = c;
;         __mc_assert(count == 1 + (1 - budget));
;     }
;
;     void toc1_isr(void) __interrupt {         /* as in irq_window.s */
;         if (budget != 0) {
;             count++;
;             budget--;
;         }
;         TFLG1 = OC1F;
;     }

        .include "harness.inc"

        BUDGET = 1
        REGS  = 0x1000                  ; 68HC11 I/O register block
        TMSK1 = 0x22                    ; timer interrupt mask 1
        TFLG1 = 0x23                    ; timer interrupt flags 1
        OC1I  = 0x80                    ; TOC1 interrupt enable / flag bit

        .sect   .data
budget: .byte   BUDGET

        .sect   .bss
count:  .skip   1
stack0: .skip   48                      ; main + one interrupt frame (9 bytes)

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
        cli                             ; the window: the handler may run
        nop                             ;   before nop and before sei
        sei
        ldaa    count
        inca
        staa    count                   ; count++, interrupts masked
        ldab    #BUDGET+1
        subb    budget                  ; B = 1 + (BUDGET - budget)
        clra
        cmpb    count
        bne     ma_assert               ; A = 0: a tick was lost
        inca
ma_assert:
        jsr     __mc_assert
        rts

; void toc1_isr(void) -- see the header.
toc1_isr:
        tst     budget
        beq     ti_ack
        inc     count                   ; count++
        dec     budget
ti_ack:
        ldaa    #OC1I
        staa    REGS+TFLG1              ; acknowledge the interrupt
        rti

        vector_table _start, toc1=toc1_isr
