; irq_lostupdate.s -- a main loop and an interrupt handler both increment a
; 16-bit counter; the main loop does not mask interrupts around its
; read-modify-write, so an update can be lost.
;
; Expected verdict: violation `assert' (run with --irq toc1 --preempt every).
;
;     volatile unsigned int  count;             /* shared with the ISR      */
;     volatile unsigned char budget = BUDGET;   /* ISR increments left      */
;
;     void bump(void) { count++; }  /* ldd count; addd #1; std count -- BUG */
;
;     void main(void) {
;         unsigned char i;
;         TMSK1 |= OC1I;                        /* enable the TOC1 interrupt */
;         cli();
;         for (i = 0; i < N; i++)
;             bump();
;         sei();
;         __mc_assert(count == N + (BUDGET - budget));
;     }                                     /* _start: main(); exit */
;
;     void toc1_isr(void) __interrupt {         /* vector 0xFFE8 */
;         if (budget != 0) {
;             count++;
;             budget--;
;         }
;         TFLG1 = OC1F;                         /* acknowledge */
;     }
;
; The handler counts at most BUDGET increments, and exactly as many as it
; took from `budget', so with interrupts masked the expected total N +
; (BUDGET - budget) is exact.  Counterexample: main executes `ldd count'
; (D = 0); the TOC1 interrupt is taken and the handler sets count = 1; RTI;
; main adds 1 and stores count = 1, overwriting the handler's update.  After
; the loop count == N but the expected total is N + 1: the assertion fails
; (56 transitions from reset on the shortest schedule).
; Interrupts keep arriving after the budget is spent, but they change only
; the stack garbage and the acknowledge register, so the state space is
; small and finite.

        .include "harness.inc"

        N = 2
        BUDGET = 2
        REGS  = 0x1000                  ; 68HC11 I/O register block
        TMSK1 = 0x22                    ; timer interrupt mask 1
        TFLG1 = 0x23                    ; timer interrupt flags 1
        OC1I  = 0x80                    ; TOC1 interrupt enable / flag bit

        .sect   .data
budget: .byte   BUDGET

        .sect   .bss
count:  .skip   2
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
        bset    TMSK1,x, #OC1I          ; TMSK1 |= OC1I
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
        clra                            ; D = BUDGET - budget
        addd    #N                      ; D = expected total
        clr     0,x                     ; reuse the frame: result = 0
        cpd     count
        bne     ma_assert
        inc     0,x                     ; result = 1
ma_assert:
        ldaa    0,x
        jsr     __mc_assert
        ins
        rts

; void bump(void) {
;     count++;                          /* not atomic: three instructions */
; }
bump:
        ldd     count
        addd    #1
        std     count
        rts

; void toc1_isr(void) -- see the header.
toc1_isr:
        tst     budget
        beq     ti_ack
        ldx     count
        inx
        stx     count                   ; count++
        dec     budget
ti_ack:
        ldaa    #OC1I
        staa    REGS+TFLG1              ; acknowledge the interrupt
        rti

        vector_table _start, toc1=toc1_isr
