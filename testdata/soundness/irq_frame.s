; irq_frame.s -- an interrupt handler increments, through a pointer, a byte
; in the stack frame of the code it interrupts, which increments the same
; byte in three instructions.
;
; Expected verdict: violation `assert' (--preempt every --irq toc1).
;
;     volatile unsigned char *pending;          /* where the handler counts */
;     volatile unsigned char budget = 1;        /* ticks the handler may count */
;     volatile unsigned char polls;             /* main's passes */
;
;     void main(void) {
;         unsigned char events = 0;             /* a local, on main's stack */
;         pending = &events;
;         TMSK1 |= OC1I;                        /* enable the TOC1 interrupt */
;         cli();
;         polls++;                              /* one instruction: inc */
;         events++;                             /* BUG: ldaa 0,x; inca; staa 0,x */
;         polls++;
;         sei();
;         __mc_assert(events == 1 + (1 - budget));  /* every tick counted */
;     }                                         /* _start: main(); exit */
;
;     void toc1_isr(void) __interrupt {         /* vector 0xFFE8 */
;         if (budget != 0) {
;             (*pending)++;                     /* into main's frame */
;             budget--;
;         }
;         TFLG1 = OC1F;                         /* acknowledge */
;     }
;
; Counterexample: main loads events (0); the interrupt is taken and the
; handler stores events = 1; RTI; main stores 0 + 1, losing the tick, and
; the assertion finds events == 1 where 2 were counted.  The handler also
; runs at the increments of polls, before or after events++, where nothing
; is lost; a scheduler that offered interrupts only before accesses
; outside the running thread's own stack never offered one inside events++
; (main's frame is its own stack, and so, for the handler running on
; main's stack, is *pending) and reported `verified'.  irq_frame_ok.s is
; the fixed program.

        .include "harness.inc"

        BUDGET = 1
        REGS  = 0x1000                  ; 68HC11 I/O register block
        TMSK1 = 0x22                    ; timer interrupt mask 1
        TFLG1 = 0x23                    ; timer interrupt flags 1
        OC1I  = 0x80                    ; TOC1 interrupt enable / flag bit

        .sect   .data
budget: .byte   BUDGET

        .sect   .bss
pending: .skip  2
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
        clra
        psha                            ; events = 0: 0,x after tsx
        tsx
        stx     pending                 ; pending = &events
        ldx     #REGS
        bset    TMSK1,x, #OC1I
        cli
        inc     polls
        tsx
        ldaa    0,x                     ; events++ in three instructions:
        inca                            ;   the handler may run in between
        staa    0,x
        inc     polls
        sei
        ldab    #BUDGET+1
        subb    budget                  ; B = 1 + (BUDGET - budget)
        clra
        cmpb    0,x
        bne     ma_assert               ; A = 0: a tick was lost
        inca
ma_assert:
        jsr     __mc_assert
        ins
        rts

; void toc1_isr(void) -- see the header.
toc1_isr:
        tst     budget
        beq     ti_ack
        ldx     pending
        inc     0,x                     ; (*pending)++
        dec     budget
ti_ack:
        ldaa    #OC1I
        staa    REGS+TFLG1              ; acknowledge the interrupt
        rti

        vector_table _start, toc1=toc1_isr
