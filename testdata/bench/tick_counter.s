; tick_counter.s -- a main loop reads a 16-bit tick counter one byte at a
; time while the TOC1 interrupt handler increments it: a torn read.
;
; Expected verdict: violation `assert' (run with --irq toc1 --preempt every).
;
;     volatile unsigned int ticks = 0x00FF;     /* incremented by the ISR   */
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
;         for (;;) {
;             last = read_ticks();
;             __mc_assert(read_ticks() >= last);    /* time never goes back */
;         }
;     }                                     /* _start: main() */
;
;     void toc1_isr(void) __interrupt {         /* vector 0xFFE8 */
;         ticks++;                              /* ldd; addd #1; std        */
;         TFLG1 = OC1F;                         /* acknowledge */
;     }
;
; The counter starts one tick before its low byte wraps (as after 255 ticks
; of uptime: from 0 the search would first have to take 255 interrupts).
; Counterexample (27 transitions): main reads last = 0x00FF; in the second
; read_ticks it loads the high byte (0x00); the TOC1 interrupt is taken and
; the handler sets ticks = 0x0100; RTI; main loads the low byte (0x00) and
; reads 0x0000 < last.  Every later wrap of the low byte (0x01FF -> 0x0200,
; ...) gives the same chance.  The fix is to read the counter with
; interrupts masked or with one 16-bit load (ldd ticks).
;
; Unlike testdata/models/tick_torn.s, the handler increments the counter
; without end and main checks it without end: every interrupt makes a new
; state, and the state space holds every value of the counter.  This is the
; benchmark of the swarm (hc11mc check --search swarm, the default):
; breadth-first search finds the error in a few hundred states and best-first
; search on the FSM distance in fewer, while best-first search on the
; extended FSM distance, greedy, explores millions of states near the
; assertion call without finding it, and so does depth-first search (see
; docs/swarm.md, "The heuristic's blind spot").

        .include "harness.inc"

        REGS  = 0x1000                  ; 68HC11 I/O register block
        TMSK1 = 0x22                    ; timer interrupt mask 1
        TFLG1 = 0x23                    ; timer interrupt flags 1
        OC1I  = 0x80                    ; TOC1 interrupt enable / flag bit

        .sect   .data
        .type   ticks, @object
        .size   ticks, 2
ticks:  .word   0x00FF

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
        jsr     __mc_thread_exit        ; main never returns

; void main(void) -- see the header.
main:
        ldx     #REGS
        bset    TMSK1,x, #OC1I          ; TMSK1 |= OC1I
        cli
loop:
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
        bra     loop

; unsigned int read_ticks(void) -- the result in D.
read_ticks:
        ldaa    ticks                   ; the high byte ...
        ldab    ticks+1                 ; ... and the low byte: an interrupt in between tears the reading
        rts

; void toc1_isr(void) -- see the header.
toc1_isr:
        ldd     ticks
        addd    #1
        std     ticks                   ; ticks++
        ldaa    #OC1I
        staa    REGS+TFLG1              ; acknowledge the interrupt
        rti

        vector_table _start, toc1=toc1_isr
