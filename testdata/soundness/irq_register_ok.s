; irq_register_ok.s -- irq_register.s fixed: main gives Y, which the
; timer handler relies on, back before it enables interrupts again.
;
; Expected verdict: verified (--preempt every --irq toc1).
;
;     volatile unsigned int  guard = 0;         /* at 0x0000: must stay 0 */
;     volatile unsigned char budget = 1;
;     volatile unsigned char ticks;
;     volatile unsigned char polls;
;     register unsigned char *y asm("y");       /* = &ticks, for the handler */
;
;     void main(void) {
;         y = &ticks;
;         TMSK1 |= OC1I;
;         cli();
;         polls++;
;         sei();
;         if (__mc_nondet(1))
;             for (y = 1; --y != 0; )
;                 ;
;         y = &ticks;                           /* Y given back ... */
;         cli();                                /* ... before interrupts are on */
;         polls++;
;         sei();
;         __mc_assert(guard == 0 && ticks == 1 - budget);
;     }
;
;     void toc1_isr(void) __interrupt {         /* as in irq_register.s */
;         if (budget != 0) {
;             (*y)++;
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
        .type   guard, @object
        .size   guard, 2
guard:  .word   0                       ; first in RAM: 0x0000-0x0001
budget: .byte   BUDGET

        .sect   .bss
ticks:  .skip   1
polls:  .skip   1
stack0: .skip   48                      ; main + one interrupt frame (9 bytes)

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+48-1
        jsr     main
        jsr     __mc_thread_exit

; void main(void) -- see the header.
main:
        ldy     #ticks                  ; the handler's pointer
        ldx     #REGS
        bset    TMSK1,x, #OC1I
        cli
        inc     polls
        sei                             ; Y is borrowed: no interrupts
        ldd     #1
        jsr     __mc_nondet             ; B = 0 or 1: a slow device?
        tstb
        beq     ma_back
        ldy     #1                      ; a delay loop on Y: Y = 0 after it
ma_delay:
        dey
        bne     ma_delay
ma_back:
        ldy     #ticks                  ; give Y back
        cli                             ;   before interrupts are on
        inc     polls
        sei
        clra
        ldx     guard
        bne     ma_assert               ; A = 0: guard changed
        ldab    #BUDGET
        subb    budget
        cmpb    ticks
        bne     ma_assert               ; A = 0: a tick is missing
        inca
ma_assert:
        jsr     __mc_assert
        rts

; void toc1_isr(void) -- see the header.
toc1_isr:
        tst     budget
        beq     ti_ack
        inc     0,y                     ; (*y)++: ticks, if Y is &ticks
        dec     budget
ti_ack:
        ldaa    #OC1I
        staa    REGS+TFLG1              ; acknowledge the interrupt
        rti

        vector_table _start, toc1=toc1_isr
