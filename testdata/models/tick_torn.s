; tick_torn.s -- a 16-bit tick counter that an interrupt handler increments
; and the main program reads one byte at a time: a torn read.
;
; Expected verdict: violation `assert' (run with --irq toc1 --preempt every).
;
;     volatile unsigned int  ticks = 0x00FF;    /* incremented by the ISR   */
;     volatile unsigned char budget = 1;        /* ISR increments left      */
;     unsigned int last;                        /* the first reading        */
;
;     unsigned int read_ticks(void) {           /* BUG: two 8-bit loads     */
;         unsigned char hi = ((volatile unsigned char *)&ticks)[0];
;         unsigned char lo = ((volatile unsigned char *)&ticks)[1];
;         return hi << 8 | lo;
;     }
;
;     void main(void) {
;         TMSK1 |= OC1I;                        /* enable the TOC1 interrupt */
;         cli();
;         last = read_ticks();
;         __mc_assert(read_ticks() >= last);    /* time never goes back     */
;         sei();
;     }                                     /* _start: main(); exit */
;
;     void toc1_isr(void) __interrupt {         /* vector 0xFFE8 */
;         if (budget != 0) {
;             ticks++;                          /* ldd; addd #1; std        */
;             budget--;
;         }
;         TFLG1 = OC1F;                         /* acknowledge */
;     }
;
; The handler increments ticks once, from 0x00FF to 0x0100, so every
; whole reading is 0x00FF or 0x0100 and the readings never go back.  But
; read_ticks loads the high byte and the low byte with two instructions.
; Counterexample: main has read last = 0x00FF; in the second read_ticks
; it loads the high byte (0x00); the TOC1 interrupt is taken and the
; handler sets ticks = 0x0100; RTI; main loads the low byte (0x00) and
; reads 0x0000 < last: the assertion fails.  (A tear in the first reading
; gives last = 0x0000 instead, which no later reading is below.)  The fix
; is to read the counter with interrupts masked (sei ... cli) or with one
; 16-bit load (ldd ticks), which an interrupt cannot split.
;
; ticks is declared 2 bytes long (.size), so counterexamples show it as a
; 16-bit variable.

        .include "harness.inc"

        REGS  = 0x1000                  ; 68HC11 I/O register block
        TMSK1 = 0x22                    ; timer interrupt mask 1
        TFLG1 = 0x23                    ; timer interrupt flags 1
        OC1I  = 0x80                    ; TOC1 interrupt enable / flag bit

        .sect   .data
        .type   ticks, @object
        .size   ticks, 2
ticks:  .word   0x00FF
        .type   budget, @object
        .size   budget, 1
budget: .byte   1

        .sect   .bss
        .type   last, @object
        .size   last, 2
last:   .skip   2
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
        jsr     read_ticks
        std     last                    ; last = read_ticks()
        jsr     read_ticks              ; D = now
        cpd     last
        bhs     ma_ok                   ; now >= last (unsigned)
        clra                            ; A = 0: time went back
        bra     ma_assert
ma_ok:
        ldaa    #1
ma_assert:
        jsr     __mc_assert
        sei
        rts

; unsigned int read_ticks(void) -- the result in D.
read_ticks:
        ldaa    ticks                   ; the high byte ...
        ldab    ticks+1                 ; ... and the low byte: an interrupt in between tears the reading
        rts

; void toc1_isr(void) -- see the header.
toc1_isr:
        tst     budget
        beq     ti_ack
        ldd     ticks
        addd    #1
        std     ticks                   ; ticks++
        dec     budget
ti_ack:
        ldaa    #OC1I
        staa    REGS+TFLG1              ; acknowledge the interrupt
        rti

        vector_table _start, toc1=toc1_isr
