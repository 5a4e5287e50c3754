; irq_window.s -- main opens a short window for a pending interrupt
; (cli; nop; sei) in the middle of a read-modify-write of a counter that the
; handler also increments.
;
; Expected verdict: violation `assert' (--preempt every --irq toc1).
;
;     volatile unsigned char count;             /* main's events and the ISR's */
;     volatile unsigned char budget = 1;        /* ticks the handler may count */
;
;     void main(void) {                         /* interrupts masked from reset */
;         TMSK1 |= OC1I;                        /* enable the TOC1 interrupt */
;         unsigned char c = count;              /* ldaa count */
;         c++;                                  /* inca */
;         cli(); nop(); sei();                  /* BUG: let a pending interrupt in, */
;         count = c;                            /*   in the middle of the update */
;         __mc_assert(count == 1 + (1 - budget));   /* every tick counted */
;     }                                         /* _start: main(); exit */
;
;     void toc1_isr(void) __interrupt {         /* vector 0xFFE8 */
;         if (budget != 0) {
;             count++;
;             budget--;
;         }
;         TFLG1 = OC1F;                         /* acknowledge */
;     }
;
; Counterexample: main loads count (0) and adds 1; in the window the
; interrupt is taken and the handler stores count = 1; RTI; main stores
; its 1 over it, and the assertion finds count == 1 where 2 were counted.
; The window holds no memory access, so a scheduler that offered
; interrupts only before accesses to memory outside the running thread's
; stack never offered one there (I is set again at the next such access)
; and reported `verified'.  irq_window_ok.s is the fixed program.

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
        ldaa    count
        inca
        cli                             ; the window: the handler may run
        nop                             ;   before nop and before sei
        sei
        staa    count                   ; count = c, over the handler's update
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
